/* perf_check_cfg.h - what the perf check of `tracesim check` is given (perf_check.h), in a
 * header of its own: the check (perf_check.c) and its streamed decoders (perf_stream.h)
 * both read it, and neither's header includes the other's (docs/internals.md "Modules":
 * no circle between the files of a module). */
#ifndef TS_PERF_CHECK_CFG_H
#define TS_PERF_CHECK_CFG_H
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
#endif
