/* events.c - one event of each kind, for `tracesim overhead`'s per-event table (docs/performance.md
 * "What an event costs"): ROUNDS rounds of a small computation, each followed by one event of
 * the kind EVENT selects. Every variant sets up the same (the perf library with 1 counter
 * into the SRAM sink, ITC channel 5 enabled, stmEnable, tracing on) and ends the same
 * (perfTraceOff), so the difference of a whole run to EVENT_NONE is the events alone:
 *   EVENT_NONE  no event (the baseline)
 *   EVENT_STM   ts_stm_event(1, r): mv a0, <r>; csrw 0x7c0, <id register>
 *   EVENT_STMI  TS_STM_EVENT_I(1, r): mv a0, <r>; csrwi 0x7c0, 1
 *   EVENT_ITC   ts_itc_write32(0, 5, r): poll the stimulus until it reads non-zero, store
 *   EVENT_PERF  perfWriteCntrs(): a manual perf record of 1 counter on channel 6 */
#include <stdint.h>
#include <stdio.h>
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "ts_stm.h"

#define EVENT_NONE 0
#define EVENT_STM 1
#define EVENT_STMI 2
#define EVENT_ITC 3
#define EVENT_PERF 4
#ifndef EVENT
#define EVENT EVENT_NONE
#endif
#define ROUNDS 256
#define ITC_CHANNEL 5

__attribute__((noinline)) static uint32_t step(uint32_t s) {
    for (unsigned i = 0; i < 8; i++) s = s * 1664525u + 1013904223u;
    return s;
}

int main(void) {
    int rc = perfInit(1, fmm != NULL);
    if (!rc) rc = perfManualInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
    TS_TE_REG(0, ITC_TRACE_ENABLE) |= 1u << ITC_CHANNEL;
    ts_stm_enable(0);
    perfTraceOn();
    uint32_t s = 1;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        s = step(s);
#if EVENT == EVENT_STM
        ts_stm_event(1, r);
#elif EVENT == EVENT_STMI
        TS_STM_EVENT_I(1, r);
#elif EVENT == EVENT_ITC
        ts_itc_write32(0, ITC_CHANNEL, r);
#elif EVENT == EVENT_PERF
        perfWriteCntrs();
#endif
    }
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    /* the same text in every variant (no trace size: printf's work must not differ) */
    printf("events: %u rounds, checksum 0x%08lx%s\n", ROUNDS, (unsigned long)s,
           st.stopped || ts_stm_lost(0) ? ", events lost" : "");
    return st.stopped || ts_stm_lost(0);
}
