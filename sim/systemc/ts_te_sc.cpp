// ts_te_sc.cpp - see ts_te_sc.h.
#include "ts_te_sc.h"

namespace tracesim {

ts_te_sc::ts_te_sc(sc_core::sc_module_name name, const te_cfg_t &cfg, const sc_core::sc_time &period)
    : ts_trace_sc(name, period), te_(&own_), owned_(false) {
    if (te_init(&own_, &cfg)) SC_REPORT_ERROR("tracesim/te", "invalid trace encoder configuration");
    else
        owned_ = true;
}

ts_te_sc::ts_te_sc(sc_core::sc_module_name name, te_t *model, const sc_core::sc_time &period)
    : ts_trace_sc(name, period), te_(model), owned_(false) {}

enum te_stm_status ts_te_sc::stm_event(uint64_t cycle, uint16_t id, uint32_t value) {
    if (cycle) group_->catch_up(cycle - 1);
    if (group_->ticked() > cycle)
        SC_REPORT_ERROR("tracesim/te", "software trace event for a cycle the encoder has already ticked");
    return te_stm_event(te_, id, value);
}

ts_te_sc::~ts_te_sc() {
    if (owned_) te_free(&own_);
}

} // namespace tracesim
