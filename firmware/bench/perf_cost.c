/* perf_cost.c - what one perf record costs, in cycles and instructions: each measured loop
 * of N calls is bracketed with simctrl MARKs (marks.csv has the cycle and instret of each),
 * and the same loop calling an empty function instead is subtracted. Built per count type
 * and counter list (perf_config.h); tests/bench/perf_cost.sh runs the variants and prints
 * the table of docs/firmware/perf-library.md.
 *   marks 1/2: N perfWriteCntrs()        marks 3/4: N calls of an empty function
 *   marks 5/6: N calls of an instrumented empty function (an entry and an exit record each)
 *   marks 7/8: N calls of the same function while recording is off (the hook's early exit)
 *   marks 9/10: N ITC stores with the ready poll, 11/12: N empty loop iterations */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "ts_trace.h"

#define N 64

void perf_cost_empty(void);        /* perf_cost_instr.c, built without instrumentation */
void perf_cost_instrumented(void); /* perf_cost_instr.c, built with -finstrument-functions */

int main(void) {
    int rc = perfInit(1, fmm != NULL);
    if (!rc) rc = perfManualInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return 1;
    }
    perfTraceOn();
    ts_mark(1);
    for (int i = 0; i < N; i++) perfWriteCntrs();
    ts_mark(2);
    ts_mark(3);
    for (int i = 0; i < N; i++) perf_cost_empty();
    ts_mark(4);
    ts_mark(5);
    for (int i = 0; i < N; i++) perf_cost_instrumented();
    ts_mark(6);
    perfTraceOff();
    ts_mark(7);
    for (int i = 0; i < N; i++) perf_cost_instrumented();
    ts_mark(8);
    perfTraceOn();
    volatile uint32_t *stim = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(0, PERF_CHANNEL);
    ts_mark(9);
    for (int i = 0; i < N; i++) {
        while (*stim == 0) {}
        *stim = (uint32_t)i;
    }
    ts_mark(10);
    ts_mark(11);
    for (int i = 0; i < N; i++) __asm__ volatile("" ::
                                                     : "memory");
    ts_mark(12);
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("perf_cost: %d calls per loop, %lu records, %lu trace bytes%s\n", N, (unsigned long)st.records,
           (unsigned long)st.bytes, st.stopped ? " (buffer full!)" : "");
    return st.stopped;
}
