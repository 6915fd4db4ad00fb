// ts_trace_sc.cpp - see ts_trace_sc.h.
#include "ts_trace_sc.h"
#include <cstring>

using namespace sc_core;
using namespace tlm;

namespace tracesim {

tlm_extension_base *ts_retry_ext::clone() const {
    ts_retry_ext *e = new ts_retry_ext;
    e->held = held;
    e->result = result;
    return e;
}
void ts_retry_ext::copy_from(const tlm_extension_base &other) {
    held = static_cast<const ts_retry_ext &>(other).held;
    result = static_cast<const ts_retry_ext &>(other).result;
}

void ts_trace_group::catch_up(uint64_t cycle) {
    while (ticked_ <= cycle) {
        for (ts_trace_sc *m : members) m->tick_model();
        for (ts_trace_sc *m : members) m->after_tick(ticked_);
        ticked_++;
    }
}

ts_trace_sc::ts_trace_sc(sc_module_name name, const sc_time &period)
    : sc_module(name), regs("regs"), sba("sba"), clk("clk"),
      group_(std::make_shared<ts_trace_group>(period)) {
    group_->members.push_back(this);
    regs.register_b_transport(this, &ts_trace_sc::b_transport);
    regs.register_get_direct_mem_ptr(this, &ts_trace_sc::get_direct_mem_ptr);
}

// lock-step only if clk was bound: a method on its rising edges
void ts_trace_sc::end_of_elaboration() {
    if (!clk.size()) return;
    sc_spawn_options o;
    o.spawn_method();
    o.dont_initialize();
    o.set_sensitivity(&clk->posedge_event());
    sc_spawn(sc_bind(&ts_trace_sc::on_clock, this), sc_gen_unique_name("on_clock"), &o);
}

void ts_trace_sc::join(ts_trace_sc &member) {
    if (member.group_ == group_) return;
    if (member.group_->ticked() || group_->ticked())
        SC_REPORT_ERROR("tracesim/trace", "modules can only be connected before they tick");
    auto &mine = group_->members;
    mine.insert(mine.end() - 1, member.group_->members.begin(), member.group_->members.end());
    for (ts_trace_sc *m : member.group_->members) m->group_ = group_;
}

// one delta cycle after the rising edge: what else runs on that edge (a core showing a
// software trace event, ts_te_sc::stm_event) comes before the cycle's tick, as in sim/soc.c
void ts_trace_sc::on_clock() {
    if (!edge_seen_) {
        edge_seen_ = true;
        next_trigger(SC_ZERO_TIME);
        return;
    }
    edge_seen_ = false; // static sensitivity again: the next edge
    group_->catch_up(group_->cycle_of(sc_time_stamp()));
}

void ts_trace_sc::catch_up(const sc_time &t) { group_->catch_up(group_->cycle_of(t)); }
void ts_trace_sc::catch_up_cycle(uint64_t cycle) { group_->catch_up(cycle); }

void ts_trace_sc::after_tick(uint64_t cycle) {
    const sink_t *k = sink();
    if (k->stopped && !stop_seen_) {
        stop_seen_ = true;
        stop_cycle_ = cycle;
        if (on_sink_stop) on_sink_stop(cycle);
    }
    if (!k->sba_valid || !sba.size()) return;
    uint8_t data[32];
    std::memcpy(data, k->sba_data, k->width);
    tlm_generic_payload gp;
    gp.set_command(TLM_WRITE_COMMAND);
    gp.set_address(k->sba_addr);
    gp.set_data_ptr(data);
    gp.set_data_length(k->width);
    gp.set_streaming_width(k->width);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(TLM_INCOMPLETE_RESPONSE);
    sc_time at = group_->period() * static_cast<double>(cycle);
    sc_time delay = at > sc_time_stamp() ? at - sc_time_stamp() : SC_ZERO_TIME;
    sba->b_transport(gp, delay);
    if (!gp.is_response_ok()) sink_error();
}

// The enabled lanes of an access as one contiguous part [lo, lo + n); false if they are not.
static bool enabled_part(const tlm_generic_payload &gp, unsigned len, unsigned *lo, unsigned *n) {
    const unsigned char *be = gp.get_byte_enable_ptr();
    unsigned be_len = gp.get_byte_enable_length();
    if (!be) {
        *lo = 0;
        *n = len;
        return true;
    }
    if (!be_len) return false;
    int first = -1, last = -1;
    for (unsigned i = 0; i < len; i++) {
        if (be[i % be_len] == TLM_BYTE_ENABLED) {
            if (first < 0) first = (int)i;
            else if (last != (int)i - 1)
                return false; // a gap
            last = (int)i;
        }
    }
    if (first < 0) return false;
    *lo = (unsigned)first;
    *n = (unsigned)(last - first + 1);
    return *n == 1 || *n == 2 || *n == 4;
}

void ts_trace_sc::b_transport(tlm_generic_payload &gp, sc_time &delay) {
    gp.set_dmi_allowed(false);
    ts_retry_ext *retry = nullptr;
    gp.get_extension(retry);
    if (retry) retry->held = false;
    tlm_command cmd = gp.get_command();
    if (cmd == TLM_IGNORE_COMMAND) {
        gp.set_response_status(TLM_OK_RESPONSE);
        return;
    }
    uint64_t addr = gp.get_address();
    unsigned len = gp.get_data_length();
    if (addr >= 0x1000) {
        gp.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if ((len != 1 && len != 2 && len != 4) || gp.get_streaming_width() < len) {
        gp.set_response_status(TLM_BURST_ERROR_RESPONSE);
        return;
    }
    unsigned lo, n;
    if (!enabled_part(gp, len, &lo, &n)) {
        gp.set_response_status(TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    uint32_t off = (uint32_t)addr + lo;
    if (off % n || off + n > 0x1000) {
        gp.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    unsigned char *p = gp.get_data_ptr();
    bool we = cmd == TLM_WRITE_COMMAND;
    uint32_t val = 0;
    if (we)
        for (unsigned i = 0; i < n; i++) val |= (uint32_t)p[lo + i] << (8 * i);
    uint64_t cycle = group_->cycle_of(sc_time_stamp() + delay);
    group_->catch_up(cycle);
    enum te_access r;
    for (unsigned waited = 0;; waited++) {
        r = access(off, n, we, &val);
        if (r != TE_WAIT) break;
        if (retry) {
            retry->held = true;
            gp.set_response_status(TLM_OK_RESPONSE);
            return;
        }
        if (waited == (1u << 24)) {
            gp.set_response_status(TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        delay += group_->period(); // held: the store waits a cycle
        group_->catch_up(++cycle);
    }
    if (r == TE_ERR) {
        gp.set_response_status(TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    if (retry) retry->result = r;
    if (!we)
        for (unsigned i = 0; i < n; i++) p[lo + i] = (unsigned char)(val >> (8 * i));
    gp.set_response_status(TLM_OK_RESPONSE);
}

bool ts_trace_sc::get_direct_mem_ptr(tlm_generic_payload &, tlm_dmi &dmi) {
    dmi.allow_none(); // never: every access has to reach the model
    dmi.set_start_address(0);
    dmi.set_end_address(0xFFF);
    return false;
}

} // namespace tracesim
