// ts_trace_sc.h - what the SystemC/TLM-2.0 trace modules (ts_te_sc.h, ts_funnel_sc.h) share:
// the register target socket, the SBA initiator socket, the two ways of being timed, and the
// group of modules that tick together.
//
// Each module wraps one C model of rtl_model/trace (te_t or funnel_t): the model is the only
// implementation, the module only turns TLM transactions into its read/write calls and time
// into its ticks. One tick = one core cycle of `period` (default 10 ns, 100 MHz); cycle c is
// the time [c * period, (c + 1) * period).
//
// Timing. Every register access first brings the model up to date: the model ticks every
// cycle up to and including the cycle of the access (sc_time_stamp() + the annotated delay),
// then the access is made, as in the SoC where the trace tick of a cycle comes before that
// cycle's bus accesses. So the same module works
//  * lock-step: bind `clk` to a clock of `period`; each rising edge ticks that cycle, one
//    delta cycle after the edge (so the processes of the edge come first: a core that shows
//    a software trace event, ts_te_sc::stm_event, at the edge of cycle c reaches the encoder
//    before the tick of c); cycle-accurate, the SBA sink writes in the cycle its word is
//    complete;
//  * loosely timed with temporal decoupling: leave `clk` unbound; the model catches up
//    lazily from the annotated time of each access (nothing runs between accesses), and
//    sync() / catch_up() bring it up to date, e.g. before reading the sink at the end.
// Modules whose models are connected (encoders behind a funnel) form one group and always
// tick together in a fixed order (encoders in attach order, then the funnel), whichever of
// them is accessed or clocked.
//
// Register socket (`regs`): blocking transport only, the offset in the 4 KiB page as the
// address. 1, 2 or 4 bytes, little-endian; byte enables select a contiguous 1-, 2- or 4-byte
// part of the access (which then is that narrower access). Answers:
//   TLM_OK_RESPONSE               done (reads fill the data)
//   TLM_ADDRESS_ERROR_RESPONSE    offset outside the page, or not aligned to the size
//   TLM_BURST_ERROR_RESPONSE      length not 1, 2 or 4, or a streaming width below it
//   TLM_BYTE_ENABLE_ERROR_RESPONSE enables that are no contiguous 1, 2 or 4 bytes
//   TLM_GENERIC_ERROR_RESPONSE    the register does not take this access (e.g. a byte load
//                                 of a 32-bit register: a bus error in the SoC)
//   TLM_IGNORE_COMMAND            answered OK, nothing done
// DMI is refused (reads have side effects: teSinkData, ITC readiness); no debug transport.
// An ITC store into a full FIFO with teStallEnable is held as in hardware: the target adds
// one period to the delay per cycle until the FIFO takes it (ticking the group), unless the
// transaction carries a ts_retry_ext: then it answers at once with held = true and the
// initiator tries again (what the SoC's bus does every cycle).
//
// SBA socket (`sba`, optional): each SBA sink word as a write of sink-width bytes with the
// annotated time of its cycle; an error response sets teSinkError / tfSinkError. Unbound, the
// words are dropped (as the SoC drops the encoders' own SBA words behind a funnel).
#ifndef TS_TRACE_SC_H
#define TS_TRACE_SC_H
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

extern "C" {
#include "funnel.h"
#include "te.h"
}

namespace tracesim {

// Ignorable extension for a store the model holds (see above); it also brings back the
// model's answer to an access it did not refuse (enum te_access: TE_OK, or what became of a
// stimulus store, TE_DROPPED or TE_IGNORED), which TLM's response status cannot carry.
struct ts_retry_ext : tlm::tlm_extension<ts_retry_ext> {
    bool held = false;
    int result = TE_OK;
    tlm::tlm_extension_base *clone() const override;
    void copy_from(const tlm::tlm_extension_base &other) override;
};

class ts_trace_sc;

// Modules that tick together; a module starts in a group of its own.
class ts_trace_group {
  public:
    explicit ts_trace_group(const sc_core::sc_time &period) : period_(period) {}
    // ticks every cycle up to and including `cycle` that has not been ticked yet
    void catch_up(uint64_t cycle);
    uint64_t ticked() const { return ticked_; } // cycles ticked (the next is this one)
    const sc_core::sc_time &period() const { return period_; }
    uint64_t cycle_of(const sc_core::sc_time &t) const { return t.value() / period_.value(); }
    std::vector<ts_trace_sc *> members; // in tick order
  private:
    sc_core::sc_time period_;
    uint64_t ticked_ = 0;
};

class ts_trace_sc : public sc_core::sc_module {
  public:
    tlm_utils::simple_target_socket<ts_trace_sc> regs;
    tlm_utils::simple_initiator_socket_optional<ts_trace_sc> sba;
    // lock-step clock (optional): bound, every rising edge ticks the model
    sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> clk;

    ts_trace_sc(sc_core::sc_module_name name, const sc_core::sc_time &period);

    // brings the model (and its group) up to date: every cycle up to the one of time t
    void catch_up(const sc_core::sc_time &t);
    void catch_up_cycle(uint64_t cycle);
    void sync() { catch_up(sc_core::sc_time_stamp()); }
    uint64_t cycles_ticked() const { return group_->ticked(); }
    // whether the sink stopped on wrap, and in which cycle
    bool sink_stopped() const { return stop_seen_; }
    uint64_t sink_stop_cycle() const { return stop_cycle_; }
    // optional: called once, in the tick in which the sink stopped on wrap (its cycle)
    std::function<void(uint64_t)> on_sink_stop;
    const sc_core::sc_time &period() const { return group_->period(); }
    virtual const sink_t *sink() const = 0;

  protected:
    friend class ts_trace_group;
    // the model's verbs
    virtual void tick_model() = 0;
    virtual enum te_access access(uint32_t off, unsigned size, bool we, uint32_t *val) = 0;
    virtual void sink_error() = 0;
    // after every member ticked in `cycle`: the SBA word of this cycle, if any
    void after_tick(uint64_t cycle);
    void join(ts_trace_sc &member); // member ticks in this module's group, before it
    std::shared_ptr<ts_trace_group> group_;

  private:
    void on_clock();
    void end_of_elaboration() override;
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload &gp, tlm::tlm_dmi &dmi);
    bool edge_seen_ = false; // lock-step: the rising edge came, the tick is one delta later
    bool stop_seen_ = false;
    uint64_t stop_cycle_ = 0;
};

} // namespace tracesim
#endif
