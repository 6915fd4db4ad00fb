/* oc_main.c - the optimised-code program of `tracesim check` (oc.h): the perf library in
 * function entry/exit mode (count type PERF_COUNT, perf_config.h) records every hook call of
 * both units and of a timer interrupt handler. */
#include <stdint.h>
#include <stdio.h>

#include "bsp.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "oc.h"

#ifndef OC_ROUNDS
#define OC_ROUNDS 12
#endif
#ifndef OC_TICKS
#define OC_TICKS 40 /* timer interrupts, 100 to 300 cycles apart */
#endif

static volatile uint32_t ticks;

/* an instrumented interrupt handler (the BSP's trap entry calls it): its records nest in
 * whatever the main line was doing, hooks included (the interrupts come at varying
 * distances, so that some are taken inside a hook before it turned interrupts off) */
static uint32_t on_timer(uint32_t cause, uint32_t epc, uint32_t tval) {
    (void)cause, (void)tval;
    ticks++;
    oc_note(ticks);
    ts_set_mtimecmp(ticks < OC_TICKS ? ts_mtime() + 1 + ticks % 4 : ~0ull);
    return epc;
}

/* static, called once per round: inlined into main */
static uint32_t round_work(uint32_t r) {
    uint32_t x = oc_leaf(r);
    x += oc_sum(3 + (r & 1u));
    x += oc_ops[r % 3](x);
    x += oc_trampoline(x);
    if (r < 2) x += oc_rec(4 + r);
    return x;
}

int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
    ts_set_trap_handler(0x80000007u, on_timer);
    perfTraceOn();
    ts_set_mtimecmp(ts_mtime() + 3);
    TS_CSR_SET(mie, 1u << 7);
    TS_CSR_SET(mstatus, 1u << 3);
    uint32_t x = 0;
    for (uint32_t r = 0; r < OC_ROUNDS; r++) x += round_work(r);
    TS_CSR_CLEAR(mstatus, 1u << 3);
    perfTraceOff();
    oc_sink = x;
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("oc: %lu ticks, %lu records%s\n", (unsigned long)ticks, (unsigned long)st.records,
           st.stopped ? " (buffer full)" : "");
    rc = perfWriteTrace(NULL);
    return rc ? rc : ticks ? 0 :
                             3;
}
