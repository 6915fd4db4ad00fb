// ts_te_sc.cpp - see ts_te_sc.h.
#include "ts_te_sc.h"

namespace tracesim {

ts_te_sc::ts_te_sc(sc_core::sc_module_name name, const te_cfg_t &cfg, const sc_core::sc_time &period)
    : ts_trace_sc(name, period), te_(&own_), owned_(false) {
    if (te_init(&own_, &cfg)) SC_REPORT_ERROR("tracesim/te", "invalid trace encoder configuration");
    else owned_ = true;
}

ts_te_sc::ts_te_sc(sc_core::sc_module_name name, te_t *model, const sc_core::sc_time &period)
    : ts_trace_sc(name, period), te_(model), owned_(false) {}

ts_te_sc::~ts_te_sc() {
    if (owned_) te_free(&own_);
}

}  // namespace tracesim
