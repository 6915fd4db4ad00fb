/* manual.c - the perf library's manual mode: perfWriteCntrs() at three places of a small
 * workload (a checksum over a table, a sort, a string scan), so each record says where it
 * was written and what the counters did since the previous one. Counter list, count type
 * and sink: perf_config.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

/* For `tracesim overhead`: PERF_COMPILED_OUT=1 runs the same program with every perf call
 * compiled to nothing; PERF_TRACE_OFF=1 sets the library up but never calls perfTraceOn. */
#if PERF_COMPILED_OUT
#define perfInit(...) 0
#define perfManualInit(...) 0
#define perfTraceOn() ((void)0)
#define perfTraceOff() ((void)0)
#define perfWriteCntrs() ((void)0)
#define perfGetTraceStatus(st) ((void)(*(st) = (perfTraceStatus_t){0}))
#define perfWriteTrace(file) 0
#endif

#ifndef ROUNDS
#define ROUNDS 20
#endif

static uint32_t table[64];

__attribute__((noinline)) static uint32_t checksum(uint32_t seed) {
    uint32_t s = seed;
    for (unsigned i = 0; i < 64; i++) {
        table[i] = s = s * 1664525u + 1013904223u;
        s ^= s >> 7;
    }
    return s;
}

__attribute__((noinline)) static void sort(void) {
    for (unsigned i = 1; i < 64; i++) {
        uint32_t v = table[i];
        unsigned j = i;
        while (j && table[j - 1] > v) { table[j] = table[j - 1]; j--; }
        table[j] = v;
    }
}

__attribute__((noinline)) static unsigned scan(const char *s) {
    unsigned n = 0;
    while (*s) n += (*s++ == 'e');
    return n;
}

int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfManualInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
#if !PERF_TRACE_OFF
    perfTraceOn();
#endif
    uint32_t sum = 0;
    unsigned es = 0;
    for (unsigned r = 0; r < ROUNDS; r++) {
        sum += checksum(r);
        perfWriteCntrs();
        sort();
        perfWriteCntrs();
        es += scan("the quick brown fox jumps over the lazy dog, then sleeps");
        perfWriteCntrs();
    }
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("manual: checksum 0x%08lx, %u e's; %lu records, %lu of %lu trace bytes%s\n", (unsigned long)sum, es,
           (unsigned long)st.records, (unsigned long)st.bytes, (unsigned long)st.size,
           st.stopped ? " (buffer full: tracing stopped)" : "");
    return perfWriteTrace(NULL);
}
