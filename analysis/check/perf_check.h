/* perf_check.h - checks every perf record of a run's trace against the simulator's ground
 * truth (part of `tracesim check`; see perf_check.c for the method). */
#ifndef TS_PERF_CHECK_H
#define TS_PERF_CHECK_H
#include <stddef.h>
#include <stdint.h>

typedef struct perf_check_cfg {
    const char *dir;  /* run folder: trace.rtd, trace.json, itc.csv, counters.csv, flow.csv, stats.txt */
    const char *elf;  /* NULL: the `elf` line of stats.txt */
    unsigned channel; /* perf ITC channel (default 6) */
    unsigned srcbits, tsbits;
    int stopped_on_wrap;       /* the trace may end early */
    int wrapped;               /* the buffer wrapped: the trace holds the newest stores only */
    uint64_t itc_lost;         /* ITC stores the encoder lost (trace.json itc_lost) */
    uint64_t prog_lost;        /* program-trace messages the encoders lost (stats.txt
                                 prog_lost_messages): their Error messages are gaps too */
    const char *perf_config;   /* the out-of-band header for a wrapped trace (NULL: the run
                                 folder's perf_config.txt, else the header in itc.csv) */
    int multi_hart;            /* several harts: messages name the hart ("hart N: record ...") */
    int run_cut;               /* set by perf_check_run from stats.txt: the run stopped before
                                 the firmware exited (cycle limit, hang), so its last record
                                 may end in the middle */
    uint64_t stopped_at_cycle; /* with stopped_on_wrap: the cycle the sink stopped (the
                                   simulator's ground truth, trace_events.csv) */
} perf_check_cfg_t;

#define PERF_CHECK_HARTS 16

/* what was checked of one hart (source) */
typedef struct perf_check_hart {
    int found;          /* the hart wrote a perf header */
    uint64_t records;   /* every record the firmware made (checked against the ground truth) */
    uint64_t values;    /* counter values of the whole records in the trace, checked */
    uint64_t values_gt; /* the other records' values, checked against the ground truth only */
    uint64_t truncated, not_in_trace, cut_by_gap, wire_only, overwritten, in_trace, gaps;
    uint64_t cut_by_stop; /* not in the trace, made before the sink stopped (the stop cut all
                                 of their stores, accepted by the encoder); not_in_trace: made
                                 after the stop */
    uint64_t headers;     /* perf headers equal to the hardware's counter programming */
} perf_check_hart_t;

typedef struct perf_check_result {
    uint64_t records;      /* records checked */
    uint64_t headers;      /* headers whose counter definitions equal the hardware's programming (hpm_writes.csv) */
    uint64_t values;       /* counter values checked against counter reads */
    uint64_t truncated;    /* records cut off by the end of the trace (stop-on-wrap) */
    uint64_t not_in_trace; /* complete records the firmware wrote after the trace stopped */
    int64_t ts_offset;     /* record timestamp - cycle of its first store */
    int have_ts;
    int found;                                /* a perf header was found */
    uint64_t gaps;                            /* Error messages in the trace (perf data lost) */
    uint64_t cut_by_gap;                      /* records of the trace cut by a gap */
    uint64_t wire_only;                       /* Delta/DeltaXOR values after a gap checked on the wire only */
    uint64_t overwritten;                     /* records the firmware wrote before the oldest one in a wrapped trace */
    uint64_t in_trace;                        /* records decoded from the trace */
    char config_from[256];                    /* where the header of a wrapped trace came from */
    perf_check_hart_t hart[PERF_CHECK_HARTS]; /* per hart; the fields above are the sums */
    char msg[1024];                           /* the first difference, with context */
} perf_check_result_t;

/* 0: every record equals the ground truth; 1: a difference (msg says the first one);
 * -1: the run folder lacks what is needed (msg says what). */
int perf_check_run(const perf_check_cfg_t *cfg, perf_check_result_t *res);
#endif
