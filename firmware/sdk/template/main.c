/* main.c - a tracesim firmware template: SiFive's perf library in function entry/exit mode.
 * Every function of the files compiled with -finstrument-functions writes a record (function,
 * call site, counters) at its entry and exit; perfWriteTrace(NULL) saves the trace to the run
 * folder (trace.rtd) for `tracesim check` and `tracesim report`. main's return value is the
 * run's exit status. */
#include <stdio.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "ts_hpm.h"

/* the trace encoder of hart 0 (no funnel) */
struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

/* the counters each record carries */
static perfEvent counters[] = {
    {.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
    {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
};

/* the work to measure: replace with your own */
static unsigned fib(unsigned n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void) {
    int rc = perfInit(1, 0);
    if (rc == 0)
        rc = perfFuncEntryExitInit(counters, sizeof counters / sizeof counters[0], 6,
                                   perfCount_Delta, 0);
    if (rc != 0) {
        printf("perf library: %s\n", perfErrorString(rc));
        return 1;
    }
    perfTraceOn();
    unsigned f = fib(10);
    perfTraceOff();
    printf("fib(10) = %u\n", f);
    rc = perfWriteTrace(NULL);
    if (rc != 0) {
        printf("perfWriteTrace: %s\n", perfErrorString(rc));
        return 1;
    }
    return f == 55 ? 0 : 2;
}
