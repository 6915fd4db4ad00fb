/* perf_errors.c - every documented error of the perf library API, on the simulated SoC
 * (the expected codes are those sifive_bare_perf.h documents); self-checking, exits 0. */
#include <stdio.h>
#include <string.h>
#include "bsp.h"
#include "check.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"

struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

static perfEvent ev_ok[] = {{.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
                            {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS}};

static int init1(perfEvent e) { return perfManualInit(&e, 1, 6, perfCount_Raw, 0); }

int main(void) {
    perfEvent many[33];
    for (int i = 0; i < 33; i++) many[i] = (perfEvent){.type = perfEventHWRaw, .event_data = 0x200};
    perfTraceStatus_t st;

    /* before perfInit */
    CHECK_EQ(perfTraceOn(), PERF_ERR_NOT_INIT);
    CHECK_EQ(perfTraceOff(), PERF_ERR_NOT_INIT);
    CHECK_EQ(perfWriteCntrs(), PERF_ERR_NOT_INIT);
    CHECK_EQ(perfWriteTrace(NULL), PERF_ERR_NOT_INIT);
    CHECK_EQ(perfGetTraceStatus(&st), PERF_ERR_NOT_INIT);
    CHECK_EQ(perfGetTraceStatus(NULL), PERF_ERR_ARG);
    CHECK_EQ(perfManualInit(ev_ok, 2, 6, perfCount_Raw, 0), PERF_ERR_NOT_INIT);
    __cyg_profile_func_enter((void *)main, (void *)main);     /* a no-op, not a crash */
    /* perfInit arguments */
    CHECK_EQ(perfInit(0, 0), PERF_ERR_ARG);
    CHECK_EQ(perfInit(PERF_MAX_CORES + 1, 0), PERF_ERR_ARG);
    CHECK_EQ(perfInit(1, 2), PERF_ERR_ARG);
    CHECK_EQ(perfInit(1, 1), PERF_ERR_ARG);                   /* a funnel, but fmm is NULL */
    CHECK_EQ(perfInit(1, 0), PERF_OK);
    CHECK_EQ(perfInit(1, 0), PERF_ERR_INIT_TWICE);
    /* init arguments */
    CHECK_EQ(perfManualInit(NULL, 2, 6, perfCount_Raw, 0), PERF_ERR_ARG);
    CHECK_EQ(perfManualInit(ev_ok, -1, 6, perfCount_Raw, 0), PERF_ERR_ARG);
    CHECK_EQ(perfManualInit(many, 33, 6, perfCount_Raw, 0), PERF_ERR_TOO_MANY);
    CHECK_EQ(perfManualInit(ev_ok, 2, 32, perfCount_Raw, 0), PERF_ERR_ARG);
    CHECK_EQ(perfManualInit(ev_ok, 2, -1, perfCount_Raw, 0), PERF_ERR_ARG);
    CHECK_EQ(perfManualInit(ev_ok, 2, 6, (perfCountType_t)3, 0), PERF_ERR_ARG);
    CHECK_EQ(perfTimerISRInit(ev_ok, 2, 6, perfCount_Raw, 0, 0), PERF_ERR_ARG);
    CHECK_EQ(perfManualInit(ev_ok, 2, 6, perfCount_Raw, PERF_MEM_POOL_SIZE + 8), PERF_ERR_POOL);
    /* events */
    CHECK_EQ(init1((perfEvent){.type = 7}), PERF_ERR_EVENT_TYPE);
    CHECK_EQ(init1((perfEvent){.type = perfEventFW, .code = 1}), PERF_ERR_EVENT_TYPE);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWGeneral, .code = HW_NO_EVENT}), PERF_ERR_EVENT_CODE);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWGeneral, .code = 99}), PERF_ERR_EVENT_CODE);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWGeneral, .code = HW_BUS_CYCLES}), PERF_ERR_UNSUPPORTED);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWCache, .cache_id = 9}), PERF_ERR_EVENT_CODE);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWCache, .cache_id = HW_CACHE_L1D, .op_id = HW_CACHE_OP_WRITE,
                               .result_id = HW_CACHE_RESULT_MISS}), PERF_ERR_UNSUPPORTED);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWCache, .cache_id = HW_CACHE_LL}), PERF_ERR_UNSUPPORTED);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWRaw, .event_data = 0}), PERF_ERR_UNSUPPORTED);
    CHECK_EQ(init1((perfEvent){.type = perfEventHWRaw, .event_data = 0x107}), PERF_ERR_UNSUPPORTED);   /* class 7 */
    CHECK_EQ(init1((perfEvent){.type = perfEventHWRaw, .event_data = 0x80000000}), PERF_ERR_UNSUPPORTED); /* no such bit */
    perfEvent dup[] = {{.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
                       {.type = perfEventHWGeneral, .code = HW_CPU_CYCLES}};
    CHECK_EQ(perfManualInit(dup, 2, 6, perfCount_Raw, 0), PERF_ERR_DUPLICATE);
    CHECK_EQ(perfManualInit(many, 30, 6, perfCount_Raw, 0), PERF_ERR_NO_COUNTER);   /* 29 hpm counters */
    /* nothing was programmed by the failed calls: tracing is still off */
    CHECK_EQ(tmm[0]->itc_traceenable_register, 0);
    CHECK_EQ(perfWriteCntrs(), PERF_ERR_NOT_INIT);
    /* a good init; raw events before the fixed ones get counters 3 and 4, ctrIdx/ctrInfo
     * are written back (counter_info: width - 1 in 17:12, user CSR in 11:0) */
    perfEvent good[] = {{.type = perfEventHWRaw, .event_data = 0x200},
                        {.type = perfEventHWGeneral, .code = HW_BRANCH_MISSES},
                        {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
                        {.type = perfEventHWGeneral, .code = HW_TIMESTAMP},
                        {.type = perfEventHWGeneral, .code = HW_CPU_CYCLES}};
    CHECK_EQ(perfManualInit(good, 5, 6, perfCount_Delta, 0), PERF_OK);
    CHECK_EQ(good[0].ctrIdx, 3);
    CHECK_EQ(good[1].ctrIdx, 4);
    CHECK_EQ(good[2].ctrIdx, 2);
    CHECK_EQ(good[3].ctrIdx, 1);
    CHECK_EQ(good[4].ctrIdx, 0);
    CHECK_EQ(good[0].ctrInfo, (39u << 12) | 0xC03);
    CHECK_EQ(good[1].ctrInfo, (39u << 12) | 0xC04);
    CHECK_EQ(good[2].ctrInfo, (63u << 12) | 0xC02);
    CHECK_EQ(good[3].ctrInfo, 39u << 12);
    CHECK_EQ(good[4].ctrInfo, (63u << 12) | 0xC00);
    CHECK_EQ(TS_CSR_READ(mhpmevent3), 0x200);
    CHECK_EQ(TS_CSR_READ(mhpmevent4), 0x6001);          /* the SBI table's BRANCH_MISSES */
    CHECK_EQ(perfManualInit(good, 5, 6, perfCount_Delta, 0), PERF_ERR_INIT_TWICE);
    CHECK_EQ(perfFuncEntryExitInit(good, 5, 6, perfCount_Delta, 0), PERF_ERR_INIT_TWICE);
    CHECK_EQ(perfWriteCntrs(), PERF_OK);                 /* before perfTraceOn: a no-op */
    CHECK_EQ(perfGetTraceStatus(&st), PERF_OK);
    CHECK_EQ(st.records, 0);
    CHECK_EQ(perfTraceOn(), PERF_OK);
    CHECK_EQ(perfWriteCntrs(), PERF_OK);
    CHECK_EQ(perfTraceOff(), PERF_OK);
    CHECK_EQ(perfGetTraceStatus(&st), PERF_OK);
    CHECK_EQ(st.records, 1);
    CHECK_EQ(st.recording, 0);
    CHECK_EQ(perfWriteTrace("bad/name"), PERF_ERR_IO);
    CHECK_EQ(perfWriteTrace(""), PERF_ERR_ARG);
    CHECK_EQ(strcmp(perfErrorString(PERF_ERR_POOL), "SBA buffer does not fit in the memory pool"), 0);
    printf("perf_errors: all checks passed\n");
    return 0;
}
