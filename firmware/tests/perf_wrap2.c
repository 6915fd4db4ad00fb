/* perf_wrap2.c - what a counter that wraps twice between two records does: two manual
 * records (Delta) around 10000 integer additions, counted by a programmable counter
 * (INT_ARITH). Run with --hpm-width 16 the decoded delta is the true count; with
 * --hpm-width 12 the counter wraps twice between the records and the delta comes out modulo
 * 4096 (tests/perf_lib_test.sh case two_wraps compares the two runs). */
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "ts_hpm.h"

struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

static perfEvent ev[] = {{.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
                         {.type = perfEventHWRaw, .event_data = TS_HPM_INT_ARITH}};

int main(void) {
    if (perfInit(1, 0) || perfManualInit(ev, 2, 6, perfCount_Delta, 0)) return 1;
    perfTraceOn();
    perfWriteCntrs();
    __asm__ volatile(".rept 10000\n add t0, t0, t1\n .endr" ::: "t0");
    perfWriteCntrs();
    perfTraceOff();
    return 0;
}
