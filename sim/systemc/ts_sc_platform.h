// ts_sc_platform.h - the SoC of sim/ as a SystemC/TLM-2.0 platform (tracesim-sc).
//
// The same machine as `tracesim run`, built from SystemC modules around the same models:
//  * ts_clock_sc: the clock, one SC_THREAD that runs the cycles in the order of sim/soc.h
//    (every hart's rising edge, then the interconnect's cycle) and keeps SystemC time with a
//    TLM-2.0 quantum keeper: loosely timed, each cycle one period of local time, a wait()
//    once the global quantum (1000 cycles unless the program set tlm_global_quantum) is
//    reached; each access carries its cycle's time as its TLM delay;
//  * ts_core_sc: one per hart, the Verilated core (sim/vcore.h, the C++ Verilated model of
//    sim/ts_soc_top.sv): its rising edge evaluates it (steps 1-3 of sim/soc.h: the clock
//    edge, the HPM events, the ground-truth logs);
//  * ts_te_sc (one per hart) and ts_funnel_sc (with several harts or --funnel), no clock of
//    their own: the interconnect ticks them in each cycle, the encoders, then the
//    funnel (step 4); the sink's SBA words are TLM writes through the interconnect into RAM;
//  * ts_bus_sc: the interconnect. In each cycle, after the trace tick, it answers the
//    harts' fetches and data requests (step 5) with sim/bus.c's own decode, wait states,
//    caches and arbitration (the same compiled code: the platform registers itself as every
//    device target of the bus and as its RAM data path, sim/bus.h), every data access made as
//    a TLM-2.0 transaction to its target; then the CLINT ticks and drives the interrupt lines (step 6), waves and the
//    cycle count (step 7), and the run stops on EXIT or the cycle limit;
//  * ts_ram_sc (RAM: blocking transport and DMI; fetches read through its DMI pointer) and
//    ts_dev_sc targets around the CLINT, UART and simctrl C models.
// A core reaches its encoder outside the bus only through the software trace port: at the
// rising edge soc_stm_event() (step 3) calls the hook s->stm_event, ts_te_sc::stm_event, which
// brings the encoder up to the cycle before; the cycle's trace tick follows after every
// core's edge. Everything runs in the order of sim/soc.h, hence the same
// cycles and outputs as `tracesim run` (tests sc.equiv.*).
#ifndef TS_SC_PLATFORM_H
#define TS_SC_PLATFORM_H
extern "C" {
#include "run_cmd.h"
#include "soc.h"
}

// The run command's platform for tracesim-sc (sim/run_cmd.h): its run builds the platform
// around an initialised and reset soc_t, runs it to EXIT or the cycle limit (sc_start) and
// finishes the run as soc_run() does; --waves-around-mark's first run is a child process.
extern "C" const ts_run_platform_t ts_run_sc;
#endif
