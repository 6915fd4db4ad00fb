/* check_scale.c - a run of CHECK_RECORDS perf records (the perf library, Delta, one counter:
 * cycles) for the `check`/`report` scaling benchmark (tests/bench/check_speed.sh; run with
 * --trace-sram 64M): manual records from two call sites, or with CHECK_FUNC (built with
 * -finstrument-functions) the enter and exit records of a tiny function. */
#include <stdint.h>
#include <stdio.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

#ifndef CHECK_RECORDS
#define CHECK_RECORDS 1000000
#endif

static volatile unsigned ticks;
__attribute__((noinline)) void tick(void) { ticks++; }

__attribute__((no_instrument_function)) int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
#if CHECK_FUNC
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, 0);
#else
    if (!rc) rc = perfManualInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, 0);
#endif
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
    perfTraceOn();
    for (unsigned i = 0; i < CHECK_RECORDS / 2; i++) {
#if CHECK_FUNC
        tick();
#else
        perfWriteCntrs();
        perfWriteCntrs();
#endif
    }
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("check_scale: %lu records, %lu trace bytes%s\n", (unsigned long)st.records, (unsigned long)st.bytes,
           st.stopped ? " (buffer full)" : "");
    return perfWriteTrace(NULL);
}
