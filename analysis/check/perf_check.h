/* perf_check.h - checks every perf record of a run's trace against the simulator's ground
 * truth (part of `tracesim check`; see perf_check.c for the method). */
#ifndef TS_PERF_CHECK_H
#define TS_PERF_CHECK_H
#include <stddef.h>
#include <stdint.h>

#include "perf_check_cfg.h" /* perf_check_cfg_t, PERF_CHECK_HARTS */

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
