// ts_module_test.cpp - the trace modules at the TLM level (one ctest per case, unit_sc.*):
// access sizes and byte enables, the error responses, DMI refused, lazy catch-up against
// lock-step, held stores with and without ts_retry_ext, and two instances side by side.
// Each case builds its platform and checks from a thread during sc_start().
#include "ts_funnel_sc.h"
#include "ts_te_sc.h"
extern "C" {
#include "ts_test.h"
}
#include <functional>

using namespace sc_core;
using namespace tlm;
using namespace tracesim;

namespace {

const sc_time P(10, SC_NS);

struct result {
    tlm_response_status st;
    uint32_t val;
    sc_time delay;
    bool held;
};

// an initiator thread that runs `body` once
struct tester : sc_module {
    tlm_utils::simple_initiator_socket<tester> out{"out"};
    std::function<void(tester &)> body;
    SC_HAS_PROCESS(tester);
    tester(sc_module_name n, std::function<void(tester &)> b) : sc_module(n), body(std::move(b)) { SC_THREAD(run); }
    bool done = false; // the body ran to its end (the cases check this too)
    void run() {
        body(*this);
        done = true;
    }
    result go(tlm_command cmd, uint64_t addr, unsigned len, uint32_t v, sc_time delay = SC_ZERO_TIME,
              const unsigned char *be = nullptr, unsigned be_len = 0, unsigned sw = 0, bool retry = false) {
        unsigned char d[8] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
        tlm_generic_payload gp;
        ts_retry_ext ext;
        gp.set_command(cmd);
        gp.set_address(addr);
        gp.set_data_ptr(d);
        gp.set_data_length(len);
        gp.set_streaming_width(sw ? sw : len);
        gp.set_byte_enable_ptr(const_cast<unsigned char *>(be));
        gp.set_byte_enable_length(be_len);
        gp.set_response_status(TLM_INCOMPLETE_RESPONSE);
        if (retry) gp.set_extension(&ext);
        out->b_transport(gp, delay);
        if (retry) gp.clear_extension(&ext);
        return {gp.get_response_status(), (uint32_t)d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24, delay, ext.held};
    }
    result wr(uint32_t off, uint32_t v, sc_time d = SC_ZERO_TIME) { return go(TLM_WRITE_COMMAND, off, 4, v, d); }
    result rd(uint32_t off, sc_time d = SC_ZERO_TIME) { return go(TLM_READ_COMMAND, off, 4, 0, d); }
};

te_cfg_t cfg(unsigned hart = 0) {
    te_cfg_t c;
    te_default_cfg(&c);
    c.hart = hart;
    return c;
}

// encoder active, enabled, tracing, DQM, SRAM sink, stimulus 0 and 1 enabled
void start(tester &t, uint32_t extra = 0) {
    t.wr(0x000, 1);
    t.wr(0x060, 3);
    t.wr(0x000, (4u << 28) | (1u << 7) | 7u | extra);
}

void run_case(ts_trace_sc &target, std::function<void(tester &)> body) {
    tester t("t", body);
    t.out.bind(target.regs);
    sc_start();
    TS_ASSERT(t.done);
}

} // namespace

TS_TEST(sizes_and_byte_enables) {
    ts_te_sc te("te", cfg());
    run_case(te, [&](tester &t) {
        uint32_t impl = 0;
        TS_ASSERT_EQ_U(te_read(te.model(), 0x004, 4, &impl), TE_OK);
        TS_ASSERT_EQ_U(t.rd(0x004).st, TLM_OK_RESPONSE);
        TS_ASSERT_EQ_U(t.rd(0x004).val, impl);
        start(t);
        unsigned n0 = te.model()->fifo_count;
        TS_ASSERT_EQ_U(t.go(TLM_WRITE_COMMAND, 0x083, 1, 0x5a).st, TLM_OK_RESPONSE);   // byte at +3
        TS_ASSERT_EQ_U(t.go(TLM_WRITE_COMMAND, 0x082, 2, 0x1234).st, TLM_OK_RESPONSE); // halfword at +2
        static const unsigned char b3[4] = {0, 0, 0, TLM_BYTE_ENABLED};
        TS_ASSERT_EQ_U(t.go(TLM_WRITE_COMMAND, 0x080, 4, 0x77000000u, SC_ZERO_TIME, b3, 4).st, TLM_OK_RESPONSE);
        te_t *m = te.model();
        TS_ASSERT_EQ_U(m->fifo_count, n0 + 3);
        const te_entry_t &last = m->fifo[(m->fifo_head + m->fifo_count - 1) % m->fifo_cap];
        TS_ASSERT_EQ_U(last.idtag, 3); // the enabled byte 3 became a byte store at +3
        TS_ASSERT_EQ_U(last.data, 0x77);
        TS_ASSERT_EQ_U(t.go(TLM_IGNORE_COMMAND, 0x080, 4, 0).st, TLM_OK_RESPONSE);
        TS_ASSERT_EQ_U(m->fifo_count, n0 + 3);
    });
}

TS_TEST(error_responses) {
    ts_te_sc te("te", cfg());
    run_case(te, [&](tester &t) {
        static const unsigned char gap[4] = {TLM_BYTE_ENABLED, 0, TLM_BYTE_ENABLED, 0};
        static const unsigned char none[4] = {0, 0, 0, 0};
        TS_ASSERT_EQ_U(t.rd(0x1000).st, TLM_ADDRESS_ERROR_RESPONSE);                        // outside the page
        TS_ASSERT_EQ_U(t.go(TLM_READ_COMMAND, 0x082, 4, 0).st, TLM_ADDRESS_ERROR_RESPONSE); // misaligned
        TS_ASSERT_EQ_U(t.go(TLM_READ_COMMAND, 0x080, 8, 0).st, TLM_BURST_ERROR_RESPONSE);   // 8 bytes
        TS_ASSERT_EQ_U(t.go(TLM_READ_COMMAND, 0x080, 3, 0).st, TLM_BURST_ERROR_RESPONSE);
        TS_ASSERT_EQ_U(t.go(TLM_READ_COMMAND, 0x080, 4, 0, SC_ZERO_TIME, nullptr, 0, 2).st, TLM_BURST_ERROR_RESPONSE);
        TS_ASSERT_EQ_U(t.go(TLM_WRITE_COMMAND, 0x080, 4, 0, SC_ZERO_TIME, gap, 4).st, TLM_BYTE_ENABLE_ERROR_RESPONSE);
        TS_ASSERT_EQ_U(t.go(TLM_WRITE_COMMAND, 0x080, 4, 0, SC_ZERO_TIME, none, 4).st, TLM_BYTE_ENABLE_ERROR_RESPONSE);
        TS_ASSERT_EQ_U(t.go(TLM_READ_COMMAND, 0x000, 1, 0).st, TLM_GENERIC_ERROR_RESPONSE);  // byte load of teControl
        TS_ASSERT_EQ_U(t.go(TLM_WRITE_COMMAND, 0x010, 2, 0).st, TLM_GENERIC_ERROR_RESPONSE); // halfword to a sink register
    });
}

TS_TEST(dmi_refused) {
    ts_te_sc te("te", cfg());
    run_case(te, [&](tester &t) {
        tlm_generic_payload gp;
        tlm_dmi dmi;
        gp.set_address(0x80);
        gp.set_command(TLM_READ_COMMAND);
        TS_ASSERT(!t.out->get_direct_mem_ptr(gp, dmi));
        TS_ASSERT(!dmi.is_read_allowed() && !dmi.is_write_allowed());
        TS_ASSERT_EQ_U(dmi.get_end_address(), 0xFFF);
        unsigned char d[4];
        gp.set_data_ptr(d);
        gp.set_data_length(4);
        gp.set_streaming_width(4);
        gp.set_dmi_allowed(true);
        sc_time z = SC_ZERO_TIME;
        t.out->b_transport(gp, z);
        TS_ASSERT(!gp.is_dmi_allowed());
    });
}

// the timestamp unit counts cycles: read lazily at an annotated time, and in lock-step
TS_TEST(lazy_catch_up_equals_lock_step) {
    ts_te_sc lt("lt", cfg()), ls("ls", cfg());
    sc_clock clk("clk", P);
    ls.clk(clk);
    tester a("a", [&](tester &t) {
        t.wr(0x000, 1);
        t.wr(0x040, 3);                        // tsActive, tsCount
        TS_ASSERT_EQ_U(lt.cycles_ticked(), 1); // ticked up to cycle 0
        result r = t.rd(0x044, P * 1000.0);    // 1000 cycles later, no wait()
        TS_ASSERT_EQ_U(lt.cycles_ticked(), 1001);
        TS_ASSERT_EQ_U(r.val, 1000);
        TS_ASSERT_EQ_U(sc_time_stamp().value(), 0);
    });
    tester b("b", [&](tester &t) {
        wait(P * 0.5); // between two edges
        t.wr(0x000, 1);
        t.wr(0x040, 3);
        wait(P * 1000.0);
        TS_ASSERT_EQ_U(t.rd(0x044).val, 1000); // the clock ticked it meanwhile
        TS_ASSERT_EQ_U(ls.cycles_ticked(), 1001);
        sc_stop();
    });
    a.out.bind(lt.regs);
    b.out.bind(ls.regs);
    sc_start();
    TS_ASSERT(a.done && b.done);
}

// a store into a full FIFO with teStallEnable: held by the target, or answered "held"
TS_TEST(held_store) {
    te_cfg_t c = cfg();
    c.itc_depth = 2;
    ts_te_sc te("te", c);
    run_case(te, [&](tester &t) {
        start(t, 1u << 13); // teStallEnable
        // the packer takes one entry per cycle: two stores at one time fill the FIFO
        sc_time at = P * 10.0;
        t.wr(0x080, 1, at);
        t.wr(0x080, 2, at);
        TS_ASSERT_EQ_U(t.rd(0x080, at).val, 0); // full
        result r = t.go(TLM_WRITE_COMMAND, 0x080, 4, 3, at, nullptr, 0, 0, true);
        TS_ASSERT(r.held);
        TS_ASSERT_EQ_U(r.st, TLM_OK_RESPONSE);
        TS_ASSERT(r.delay == at); // answered at once
        TS_ASSERT_EQ_U(te.model()->itc_accepted, 2);
        r = t.wr(0x080, 3, at); // without the extension: waits a cycle
        TS_ASSERT_EQ_U(r.st, TLM_OK_RESPONSE);
        TS_ASSERT(r.delay == at + P);
        TS_ASSERT_EQ_U(te.model()->itc_accepted, 3);
        TS_ASSERT_EQ_U(te.model()->stall_cycles, 2); // both held attempts counted
    });
}

// two encoders behind a funnel tick together: the encoders, then the funnel, every cycle
TS_TEST(funnel_group) {
    te_cfg_t c = cfg(0);
    c.src_bits = 1;
    c.has_funnel = true;
    ts_te_sc te0("te0", c);
    c.hart = 1;
    ts_te_sc te1("te1", c);
    ts_funnel_sc f("f");
    f.attach(te0);
    f.attach(te1);
    tester idle1("idle1", [](tester &) {}), idle2("idle2", [](tester &) {});
    idle1.out.bind(te1.regs); // every target socket is bound
    idle2.out.bind(f.regs);
    run_case(te0, [&](tester &t) {
        t.wr(0x000, 1);
        TS_ASSERT_EQ_U((t.rd(0x040).val >> 4) & 7, 4); // a slave timestamp unit
        f.catch_up_cycle(41);
        TS_ASSERT_EQ_U(te0.cycles_ticked(), 42);
        TS_ASSERT_EQ_U(te1.cycles_ticked(), 42);
        TS_ASSERT_EQ_U(f.cycles_ticked(), 42);
    });
}

int main(int argc, char **argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
    return ts_test_main(argc, argv);
}

// libsystemc wants one; the cases run from main() through ts_test_main instead
int sc_main(int, char *[]) { return 1; }
