// example_sc_main.cpp - a virtual platform with tracesim's trace subsystem dropped in: two
// trace encoders (one per hart) behind a funnel that writes its trace into system memory
// (SBA sink), driven by a loosely-timed "CPU" thread with temporal decoupling. Copy it and
// replace `cpu` by your instruction-set simulator's bus and `memory` by your RAM.
//
//   example_sc_main [TRACE.rtd]     (writes the captured trace; `tracesim decode --srcbits 1`
//                                    prints its messages)
#include "ts_funnel_sc.h"
#include "ts_te_sc.h"
#include <tlm_utils/tlm_quantumkeeper.h>
#include <cstdio>
#include <vector>

using namespace sc_core;

// RAM at 0x8000_0000: the SBA sink's writes land here.
struct memory : sc_module {
    tlm_utils::simple_target_socket<memory> socket{"socket"};
    std::vector<unsigned char> bytes = std::vector<unsigned char>(64 * 1024);
    explicit memory(sc_module_name n) : sc_module(n) { socket.register_b_transport(this, &memory::b_transport); }
    void b_transport(tlm::tlm_generic_payload &gp, sc_time &) {
        uint64_t off = gp.get_address() - 0x80000000u;
        if (gp.get_address() < 0x80000000u || off + gp.get_data_length() > bytes.size()) {
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (gp.is_write()) std::copy(gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length(), &bytes[off]);
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// Stands for the harts: programs the blocks as SiFive's perf library would and stores to ITC.
struct cpu : sc_module {
    tlm_utils::simple_initiator_socket<cpu> te0{"te0"}, te1{"te1"}, funnel{"funnel"};
    tlm_utils::tlm_quantumkeeper qk;
    uint32_t wp = 0;
    SC_HAS_PROCESS(cpu);
    explicit cpu(sc_module_name n) : sc_module(n) { SC_THREAD(run); }

    uint32_t access(tlm_utils::simple_initiator_socket<cpu> &s, bool we, uint32_t off, uint32_t v) {
        unsigned char d[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
        tlm::tlm_generic_payload gp;
        gp.set_command(we ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        gp.set_address(off); // offset in the block's 4 KiB page (a router would subtract the base)
        gp.set_data_ptr(d);
        gp.set_data_length(4);
        gp.set_streaming_width(4);
        sc_time delay = qk.get_local_time();
        s->b_transport(gp, delay); // the module catches up to sc_time_stamp() + delay
        if (!gp.is_response_ok()) SC_REPORT_ERROR("cpu", gp.get_response_string().c_str());
        qk.set(delay);
        qk.inc(sc_time(10, SC_NS)); // one cycle per access
        if (qk.need_sync()) qk.sync();
        return d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24;
    }
    void run() {
        // funnel: active, SBA sink into [0x8000_0000, +4 KiB), master timestamp counting
        access(funnel, true, 0x000, 1);
        access(funnel, true, 0x000, (7u << 28) | 1u); // SBA sink (before its registers)
        access(funnel, true, 0x010, 0x80000000u);     // tfSinkBase
        access(funnel, true, 0x018, 0x80000ffcu);     // tfSinkLimit: last word
        access(funnel, true, 0x01c, 0x80000000u);     // tfSinkWP
        access(funnel, true, 0x040, 3);               // tsControl: active, count
        access(funnel, true, 0x000, (7u << 28) | 3u); // enable
        for (auto *te : {&te0, &te1}) {
            access(*te, true, 0x000, 1);                            // teActive
            access(*te, true, 0x040, (1u << 15) | (1u << 18) | 1u); // timestamps on ITC messages
            access(*te, true, 0x060, 1);                            // stimulus 0
            access(*te, true, 0x000, (8u << 28) | (1u << 7) | 7u);  // to the funnel, tracing
        }
        for (uint32_t i = 0; i < 10; i++) {
            while (!access(te0, false, 0x080, 0)) {} // stimulus reads 1 while the FIFO has room
            access(te0, true, 0x080, i);
            access(te1, true, 0x080, 100 + i);
        }
        for (auto *te : {&te0, &te1}) { // stop, drain, then the funnel
            access(*te, true, 0x000, (8u << 28) | (1u << 7) | 1u);
            while (!(access(*te, false, 0x000, 0) & 8)) {}
        }
        access(funnel, true, 0x000, (7u << 28) | 1u);
        while (!(access(funnel, false, 0x000, 0) & 8)) {}
        wp = access(funnel, false, 0x01c, 0);
    }
};

int sc_main(int argc, char *argv[]) {
    te_cfg_t c;
    te_default_cfg(&c);
    c.src_bits = 1; // two sources
    c.has_funnel = true;
    c.hart = 0;
    tracesim::ts_te_sc te0("te0", c);
    c.hart = 1;
    tracesim::ts_te_sc te1("te1", c);
    tracesim::ts_funnel_sc funnel("funnel");
    funnel.attach(te0); // encoders tick before the funnel, every cycle
    funnel.attach(te1);
    memory mem("mem");
    funnel.sba.bind(mem.socket);
    cpu cpu0("cpu");
    cpu0.te0.bind(te0.regs);
    cpu0.te1.bind(te1.regs);
    cpu0.funnel.bind(funnel.regs);
    // loosely timed: no clock, a global quantum. For lock-step instead bind a clock:
    //   sc_clock clk("clk", 10, SC_NS); te0.clk(clk); te1.clk(clk); funnel.clk(clk);
    tlm::tlm_global_quantum::instance().set(sc_time(1, SC_US));
    sc_start();
    uint32_t n = cpu0.wp - 0x80000000u;
    std::printf("example: %u trace bytes in memory after %llu cycles\n", n, (unsigned long long)funnel.cycles_ticked());
    if (argc > 1) {
        FILE *f = std::fopen(argv[1], "wb");
        if (!f || std::fwrite(mem.bytes.data(), 1, n, f) != n || std::fclose(f)) return 1;
    }
    return n ? 0 : 1;
}

int main(int argc, char *argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
