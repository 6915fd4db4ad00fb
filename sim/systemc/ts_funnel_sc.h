// ts_funnel_sc.h - the trace funnel (rtl_model/trace/funnel.h) as a SystemC/TLM-2.0 module:
// register target socket `regs` (the funnel's 4 KiB page), SBA initiator socket `sba`,
// optional lock-step clock `clk`; see ts_trace_sc.h. attach() connects an encoder module
// (before the simulation starts): its messages come here, its timestamp unit becomes a
// slave of the funnel's, and the two modules tick together from then on (the encoders in
// attach order, then the funnel, every cycle).
#ifndef TS_FUNNEL_SC_H
#define TS_FUNNEL_SC_H
#include "ts_te_sc.h"

namespace tracesim {

struct ts_funnel_cfg {
    unsigned sink_bytes = 4;    // sink width: 4, 8, 16, 32
    unsigned sram_size = 16384; // SRAM sink bytes (power of two)
    unsigned ts_width = 40;     // timestamp bits
};

class ts_funnel_sc : public ts_trace_sc {
  public:
    ts_funnel_sc(sc_core::sc_module_name name, const ts_funnel_cfg &cfg = ts_funnel_cfg(),
                 const sc_core::sc_time &period = sc_core::sc_time(10, sc_core::SC_NS));
    ts_funnel_sc(sc_core::sc_module_name name, funnel_t *model,
                 const sc_core::sc_time &period = sc_core::sc_time(10, sc_core::SC_NS));
    ~ts_funnel_sc() override;
    // up to 8 encoders; the encoder's teImpl says it has a funnel only if its te_cfg_t
    // had has_funnel set (needed for teSink = 8)
    void attach(ts_te_sc &te);
    funnel_t *model() { return f_; }
    const sink_t *sink() const override { return &f_->sink; }

  private:
    void tick_model() override { funnel_tick(f_); }
    enum te_access access(uint32_t off, unsigned size, bool we, uint32_t *val) override {
        return we ? funnel_write(f_, off, size, *val) : funnel_read(f_, off, size, val);
    }
    void sink_error() override { funnel_sink_error(f_); }
    funnel_t own_{};
    funnel_t *f_;
    bool owned_;
};

} // namespace tracesim
#endif
