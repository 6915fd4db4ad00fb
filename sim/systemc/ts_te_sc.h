// ts_te_sc.h - the trace encoder of one hart (rtl_model/trace/te.h) as a SystemC/TLM-2.0
// module: register target socket `regs` (the encoder's 4 KiB page), SBA initiator socket
// `sba`, optional lock-step clock `clk`; see ts_trace_sc.h for the sockets and timing.
#ifndef TS_TE_SC_H
#define TS_TE_SC_H
#include "ts_trace_sc.h"

namespace tracesim {

class ts_te_sc : public ts_trace_sc {
  public:
    // a module with its own encoder model (te_default_cfg() gives the defaults); a bad
    // configuration is an SC_REPORT_ERROR
    ts_te_sc(sc_core::sc_module_name name, const te_cfg_t &cfg,
             const sc_core::sc_time &period = sc_core::sc_time(10, sc_core::SC_NS));
    // a module around an encoder model someone else owns (initialised, and kept alive)
    ts_te_sc(sc_core::sc_module_name name, te_t *model,
             const sc_core::sc_time &period = sc_core::sc_time(10, sc_core::SC_NS));
    ~ts_te_sc() override;
    te_t *model() { return te_; }
    // Side band: an event of the hart's software trace port (docs/firmware/software-trace.md),
    // shown by the core in `cycle` (it committed in the one before), which reaches the
    // encoder before that cycle's tick, as in sim/soc.c: the group first ticks every cycle
    // before `cycle` not ticked yet; an event for a cycle already ticked is an
    // SC_REPORT_ERROR (the caller ran after the tick). No back-pressure: the answer says
    // whether it was traced, dropped on a full FIFO, or ignored (encoder off, stmEnable 0).
    enum te_stm_status stm_event(uint64_t cycle, uint16_t id, uint32_t value);
    const sink_t *sink() const override { return &te_->sink; }

  private:
    void tick_model() override { te_tick(te_); }
    enum te_access access(uint32_t off, unsigned size, bool we, uint32_t *val) override {
        return we ? te_write(te_, off, size, *val) : te_read(te_, off, size, val);
    }
    void sink_error() override { te_sink_error(te_); }
    te_t own_{};
    te_t *te_;
    bool owned_;
    friend class ts_funnel_sc;
};

} // namespace tracesim
#endif
