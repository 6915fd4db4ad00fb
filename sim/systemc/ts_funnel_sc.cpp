// ts_funnel_sc.cpp - see ts_funnel_sc.h.
#include "ts_funnel_sc.h"

namespace tracesim {

ts_funnel_sc::ts_funnel_sc(sc_core::sc_module_name name, const ts_funnel_cfg &cfg, const sc_core::sc_time &period)
    : ts_trace_sc(name, period), f_(&own_), owned_(false) {
    if (funnel_init(&own_, cfg.sink_bytes, cfg.sram_size, cfg.ts_width))
        SC_REPORT_ERROR("tracesim/funnel", "invalid trace funnel configuration");
    else
        owned_ = true;
}

ts_funnel_sc::ts_funnel_sc(sc_core::sc_module_name name, funnel_t *model, const sc_core::sc_time &period)
    : ts_trace_sc(name, period), f_(model), owned_(false) {}

ts_funnel_sc::~ts_funnel_sc() {
    if (owned_) funnel_free(&own_);
}

void ts_funnel_sc::attach(ts_te_sc &te) {
    bool known = false; // a wrapped funnel model may have the encoder attached already
    for (unsigned i = 0; i < f_->n_in; i++) known |= f_->in[i] == te.te_;
    if (!known && funnel_attach(f_, te.te_)) SC_REPORT_ERROR("tracesim/funnel", "more than 8 encoders");
    join(te);
}

} // namespace tracesim
