/* perf_config.h - build-time choices of the perf library examples (firmware/CMakeLists.txt
 * builds each example in several variants with these set):
 *   PERF_COUNT   perfCount_Raw, perfCount_Delta (default) or perfCount_DeltaXOR
 *   PERF_SBA     0: the encoder's SRAM sink (default); N: an SBA buffer of N bytes in RAM
 *   PERF_EVENTS  1: cycles; 4 (default): cycles, instructions, branches, loads+stores;
 *                8: those plus timestamp, branch misses, L1D read accesses (SBI cache
 *                event), backend stall cycles, BPU misses and ITC stall cycles (raw)
 *   PERF_FUNNEL  1: the trace goes through the funnel (run with --funnel)
 *   PERF_CHANNEL ITC channel (default 6)
 *   PERF_MH      1: several harts (fib_mh.c, manual_mh.c): tmm[] has the 8 encoders and the
 *                trace always goes through the funnel */
#ifndef PERF_CONFIG_H
#define PERF_CONFIG_H
#include <stddef.h>
#include "sifive_bare_perf.h"
#include "ts_hpm.h"

#ifndef PERF_COUNT
#define PERF_COUNT perfCount_Delta
#endif
#ifndef PERF_SBA
#define PERF_SBA 0
#endif
#ifndef PERF_EVENTS
#define PERF_EVENTS 4
#endif
#ifndef PERF_FUNNEL
#define PERF_FUNNEL 0
#endif
#ifndef PERF_MH
#define PERF_MH 0
#endif
#ifndef PERF_CHANNEL
#define PERF_CHANNEL 6
#endif

#define traceBaseAddress 0x10000000
#define tfBaseAddress 0x10018000

#if PERF_MH
/* several harts (fib_mh.c, manual_mh.c): an encoder per hart, always through the funnel */
#define TMM_(n) (struct TraceRegMemMap *)(traceBaseAddress + 0x1000 * (n))
struct TraceRegMemMap volatile *tmm[] = {TMM_(0), TMM_(1), TMM_(2), TMM_(3), TMM_(4), TMM_(5), TMM_(6), TMM_(7)};
#undef PERF_FUNNEL
#define PERF_FUNNEL 1
#else
struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)traceBaseAddress};
#endif
#if PERF_FUNNEL
struct TfTraceRegMemMap volatile *fmm = (struct TfTraceRegMemMap *)tfBaseAddress;
#else
struct TfTraceRegMemMap volatile *fmm = NULL;
#endif

perfEvent perfCntrList[] = {
    {.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
#if PERF_EVENTS >= 4
    {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
    {.type = perfEventHWGeneral, .code = HW_BRANCH_INSTRUCTIONS},
    {.type = perfEventHWRaw, .event_data = TS_HPM_LOAD | TS_HPM_STORE},
#endif
#if PERF_EVENTS >= 8
    {.type = perfEventHWGeneral, .code = HW_TIMESTAMP},
    {.type = perfEventHWGeneral, .code = HW_BRANCH_MISSES},
    {.type = perfEventHWCache, .cache_id = HW_CACHE_L1D, .op_id = HW_CACHE_OP_READ,
     .result_id = HW_CACHE_RESULT_ACCESS},
    {.type = perfEventHWGeneral, .code = HW_STALLED_CYCLES_BACKEND},
    {.type = perfEventHWCache, .cache_id = HW_CACHE_BPU, .op_id = HW_CACHE_OP_READ,
     .result_id = HW_CACHE_RESULT_MISS},
    {.type = perfEventHWRaw, .event_data = TS_HPM_ITC_STALL},
#endif
};
#define PERF_N_EVENTS ((int)(sizeof perfCntrList / sizeof perfCntrList[0]))
#endif
