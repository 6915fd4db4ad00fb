/* timer_isr.c - the perf library's timer ISR mode: a CLINT timer interrupt every
 * PERF_INTERVAL microseconds writes a record with the interrupted pc and the counters while
 * three functions of different cost run. Counter list, count type and sink: perf_config.h. */
#include <stdint.h>
#include <stdio.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

/* For `tracesim overhead`: PERF_COMPILED_OUT=1 runs the same program with every perf call
 * compiled to nothing; PERF_TRACE_OFF=1 sets the library up but never calls perfTraceOn. */
#if PERF_COMPILED_OUT
#define perfInit(...) 0
#define perfTimerISRInit(...) 0
#define perfTraceOn() ((void)0)
#define perfTraceOff() ((void)0)
#define perfGetTraceStatus(st) ((void)(*(st) = (perfTraceStatus_t){0}))
#define perfWriteTrace(file) 0
#endif

#ifndef PERF_INTERVAL
#define PERF_INTERVAL 100            /* us: 10000 core cycles at 100 MHz */
#endif
#ifndef ROUNDS
#define ROUNDS 40
#endif

__attribute__((noinline)) static uint32_t busy_mul(uint32_t x) {
    for (unsigned i = 0; i < 3000; i++) x = x * 2654435761u + i;
    return x;
}

__attribute__((noinline)) static uint32_t busy_div(uint32_t x) {
    for (unsigned i = 1; i < 400; i++) x += 0xFFFFFFFFu / (i | x);
    return x;
}

__attribute__((noinline)) static uint32_t busy_mem(uint32_t x) {
    static volatile uint32_t buf[256];
    for (unsigned i = 0; i < 2000; i++) buf[i & 255] += x + i;
    return buf[x & 255];
}

int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfTimerISRInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA, PERF_INTERVAL);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
#if !PERF_TRACE_OFF
    perfTraceOn();
#endif
    uint32_t x = 1;
    for (unsigned r = 0; r < ROUNDS; r++) {
        x = busy_mul(x);
        x = busy_div(x);
        x = busy_mem(x);
    }
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("timer_isr: 0x%08lx; %lu records, %lu of %lu trace bytes%s\n", (unsigned long)x, (unsigned long)st.records,
           (unsigned long)st.bytes, (unsigned long)st.size, st.stopped ? " (buffer full: tracing stopped)" : "");
    return perfWriteTrace(NULL);
}
