/* sbi_perf_lib.c - SiFive's perf library in an S-mode program on the SBI firmware
 * (libtsperf_sbi.a): manual records with Delta counts of cycles, instructions, a general
 * event (branches), a cache event (L1D reads) and a raw event, whose counters the library
 * gets through the SBI PMU extension; `tracesim check` then requires every record to equal
 * what the S-mode code read from the counters the SBI layer programmed (counters.csv,
 * flow.csv). Every other round the work runs in U-mode (u_call): the records, written in
 * S-mode, then cover U-mode execution too. COUNT selects the count type (0 Raw, 1 Delta,
 * 2 DeltaXOR). */
#include <stdint.h>
#include <stdio.h>
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "sbi_client.h"

#ifndef COUNT
#define COUNT 1
#endif

struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

static perfEvent list[] = {
    {.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
    {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
    {.type = perfEventHWGeneral, .code = HW_BRANCH_INSTRUCTIONS},
    {.type = perfEventHWCache, .cache_id = HW_CACHE_L1D, .op_id = HW_CACHE_OP_READ, .result_id = HW_CACHE_RESULT_ACCESS},
    {.type = perfEventHWRaw, .event_data = 0x20000}, /* multiplies */
};

static uint32_t table[64];
__attribute__((noinline)) static uint32_t work(uint32_t seed) {
    uint32_t s = seed;
    for (unsigned i = 0; i < 64; i++) {
        table[i] = s = s * 1664525u + 1013904223u;
        s ^= s >> 7;
    }
    return s;
}

int s_main(void);
int s_main(void) {
    int rc = perfInit(1, 0);
    if (!rc) rc = perfManualInit(list, 5, 6, (perfCountType_t)COUNT, 0);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return 1;
    }
    /* the library's counters are the ones the SBI layer configured: same indices */
    for (int i = 0; i < 5; i++) printf("event %d: counter %d, info 0x%08lx\n", i, list[i].ctrIdx, (unsigned long)list[i].ctrInfo);
    if (list[0].ctrIdx != 0 || list[1].ctrIdx != 2 || list[2].ctrIdx != 3) return 2;
    u_call_init();
    perfTraceOn();
    uint32_t s = 1;
    for (int r = 0; r < 20; r++) {
        s = (r & 1) ? u_call(work, s) : work(s);
        perfWriteCntrs();
    }
    perfTraceOff();
    rc = perfWriteTrace(NULL);
    printf("sbi_perf_lib: %d records, %s\n", 20, rc ? perfErrorString(rc) : "trace written");
    return rc ? 3 : 0;
}
