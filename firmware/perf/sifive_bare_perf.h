/* sifive_bare_perf.h - tracesim's implementation of the SiFive trace performance library
 * for bare metal: the API of SiFive's manual (perfInit, perfManualInit, perfTimerISRInit,
 * perfFuncEntryExitInit, perfWriteCntrs, perfTraceOn/Off, perfWriteTrace), its types and
 * constants, byte-compatible output (header and records as ITC Data Acquisition messages,
 * in the wire format of ts_perf_wire.h: rtl_model/regs/perf_wire.def),
 * plus a few documented extensions (perfGetTraceStatus, perfErrorString).
 *
 * Written from SiFive's manual and ../shared/spec/trace-hw-facts.md section 5; where the
 * original library is wrong, this one follows the manual (see docs/firmware/perf-library.md).
 *
 * Every function returns 0 on success or one of the PERF_ERR_* codes below.
 * Link with libtsperf.a (built without -finstrument-functions). */
#ifndef SIFIVE_BARE_PERF_H_
#define SIFIVE_BARE_PERF_H_
#include <stdint.h>
#include "sifive_trace.h"
#include "ts_perf_wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OpenSBI hardware general event codes (type perfEventHWGeneral) */
#define HW_NO_EVENT 0
#define HW_CPU_CYCLES 1
#define HW_INSTRUCTIONS 2
#define HW_CACHE_REFERENCES 3
#define HW_CACHE_MISSES 4
#define HW_BRANCH_INSTRUCTIONS 5
#define HW_BRANCH_MISSES 6
#define HW_BUS_CYCLES 7
#define HW_STALLED_CYCLES_FRONTEND 8
#define HW_STALLED_CYCLES_BACKEND 9
#define HW_REF_CPU_CYCLES 10
#define HW_REF_CPU_CYLES HW_REF_CPU_CYCLES /* SiFive's header spells it so */
#define HW_TIMESTAMP (0x80)                /* SiFive: the trace timestamp */

/* OpenSBI hardware cache event fields (type perfEventHWCache) */
#define HW_CACHE_L1D 0
#define HW_CACHE_L1I 1
#define HW_CACHE_LL 2
#define HW_CACHE_DTLB 3
#define HW_CACHE_ITLB 4
#define HW_CACHE_BPU 5
#define HW_CACHE_NODE 6
#define HW_CACHE_OP_READ 0
#define HW_CACHE_OP_WRITE 1
#define HW_CACHE_OP_PREFETCH 2
#define HW_CACHE_RESULT_ACCESS 0
#define HW_CACHE_RESULT_MISS 1

#define PERF_MAX_CORES 8
#define PERF_MAX_CNTRS 32
#define PERF_MARKER_VAL TS_PW_MARKER /* "perf" */
#ifndef PERF_MEM_POOL_SIZE
#define PERF_MEM_POOL_SIZE (256 * 1024) /* bytes for SBA trace buffers (not zeroed at start) */
#endif

/* the event types, record types and count types of the wire format (perf_wire.def) under
 * SiFive's names: perfEventHWGeneral, perfRecord_FuncEnter, perfCount_Raw ... */
enum {
#define TS_PW_EVENT(name, value, sifive, words, desc) perfEvent##sifive = value,
#include "perf_wire.def"
};

typedef enum {
#define TS_PW_RECORD(name, value, sifive, addrs, desc) perfRecord_##sifive = value,
#include "perf_wire.def"
} perfRecordType_t;

typedef enum {
#define TS_PW_COUNT(name, value, sifive, desc) perfCount_##sifive = value,
#include "perf_wire.def"
} perfCountType_t;

typedef struct {
    unsigned int ctrIdx; /* out: the counter index the library assigned */
    int type;            /* perfEventHWGeneral, perfEventHWCache, perfEventHWRaw */
    union {
        int code; /* type 0: HW_... */
        struct {  /* type 1: HW_CACHE_... */
            int cache_id;
            int op_id;
            int result_id;
        };
    };
    unsigned long event_data; /* type 2: the mhpmevent value */
    unsigned long ctrInfo;    /* out: OpenSBI counter_info (CSR in 11:0, width - 1 in 17:12) */
} perfEvent;

/* Error codes (every call returns 0 or one of these). */
enum perfError {
    PERF_OK = 0,
    PERF_ERR_ARG = 1,         /* bad argument: NULL list, count, channel, interval, cores */
    PERF_ERR_INIT_TWICE = 2,  /* perfInit, or this core's perfXXXInit, called again */
    PERF_ERR_NOT_INIT = 3,    /* perfInit / perfXXXInit not called first */
    PERF_ERR_TOO_MANY = 4,    /* more than PERF_MAX_CNTRS events */
    PERF_ERR_EVENT_TYPE = 5,  /* unknown event type (or the unsupported perfEventFW) */
    PERF_ERR_EVENT_CODE = 6,  /* unknown general code or cache id/op/result */
    PERF_ERR_UNSUPPORTED = 7, /* an event this hardware cannot count */
    PERF_ERR_NO_COUNTER = 8,  /* no free hardware counter left for an event */
    PERF_ERR_DUPLICATE = 9,   /* the same fixed counter asked for twice */
    PERF_ERR_POOL = 10,       /* SBA buffer larger than what is left of the pool */
    PERF_ERR_CORE = 11,       /* this hart is outside tmm[] (perfInit's num_cores) */
    PERF_ERR_NO_TRACE = 12,   /* tmm[core] is NULL, or the encoder lacks the sink/ITC asked for */
    PERF_ERR_TIMER = 13,      /* timer interrupt set-up failed */
    PERF_ERR_IO = 14,         /* perfWriteTrace: the host could not write the file */
    PERF_ERR_BUSY = 15,       /* perfWriteTrace: another hart still records into the shared funnel sink */
};

/* Several harts (docs/firmware/bsp.md): one hart calls perfInit(N, 1)
 * before any other hart uses the library; then every hart (mhartid < N) calls its own
 * perfXXXInit, perfTraceOn/Off and records. With the funnel, the first perfXXXInit of any
 * hart resets every encoder to the defaults once and sets up the funnel and the one shared
 * sink (its SBABufferSize chooses SRAM (0) or an SBA buffer of that size); a later init on
 * another hart programs only its own encoder and counters, must ask for the same
 * SBABufferSize (else PERF_ERR_ARG) and never touches the funnel, the sink or another
 * hart's encoder. perfTraceOff drains the caller's encoder; the funnel is drained and
 * disabled only when no hart's encoder runs any more (the last one off), and enabled again
 * by the next perfTraceOn. perfWriteTrace writes the one funnel buffer: call it once, on any
 * initialised hart, after the other harts called perfTraceOff (else PERF_ERR_BUSY). */
int perfInit(int num_cores, int num_funnels);
int perfManualInit(perfEvent *perfCntrList, int numCntrs, int itcChannel, perfCountType_t cntType,
                   uint32_t SBABufferSize);
int perfTimerISRInit(perfEvent *perfCntrList, int numCntrs, int itcChannel, perfCountType_t cntType,
                     uint32_t SBABufferSize, int interval);
int perfFuncEntryExitInit(perfEvent *perfCntrList, int numCntrs, int itcChannel,
                          perfCountType_t cntType, uint32_t SBABufferSize);
/* a manual record: the caller's address and the selected counters */
int perfWriteCntrs(void);
/* The first perfTraceOn after an init writes the header; a later one (after perfTraceOff)
 * resumes without a second header, so the whole capture stays decodable. */
int perfTraceOn(void);
/* Stops recording and drains the encoder (and funnel) to the sink: nothing stays queued. */
int perfTraceOff(void);
/* Writes the valid part of this core's trace buffer, oldest byte first, to a host file in
 * the simulator's run folder (NULL: "trace.rtd"); tracing state is left as it was. */
int perfWriteTrace(char *file);

void __cyg_profile_func_enter(void *this_fn, void *call_site) __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *this_fn, void *call_site) __attribute__((no_instrument_function));

/* ---- tracesim extensions -------------------------------------------------------------- */
typedef struct {
    int initialized;  /* this core ran a perfXXXInit */
    int recording;    /* between perfTraceOn and perfTraceOff */
    int stopped;      /* the buffer filled with stop-on-wrap: the encoder stopped */
    int wrapped;      /* the buffer wrapped (oldest data overwritten) */
    uint32_t bytes;   /* valid bytes in the buffer (after a flush: all of them) */
    uint32_t size;    /* buffer size in bytes */
    uint32_t records; /* records written by this core since its init */
} perfTraceStatus_t;

/* Status of the calling core's trace buffer; does not flush. */
int perfGetTraceStatus(perfTraceStatus_t *st);
/* A short text for an error code. */
const char *perfErrorString(int err);

#ifdef __cplusplus
}
#endif
#endif
