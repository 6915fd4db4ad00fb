/* trace_in.h - a trace file decoded in pieces (nxd_decode_stream), so that what a command
 * holds of the trace is one read buffer, not the file: `tracesim check` (ground_truth.c,
 * perf_stream.c) and `tracesim report` read trace.rtd this way. */
#ifndef TS_TRACE_IN_H
#define TS_TRACE_IN_H
#include "nexus_decode.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TS_TRACE_IN_BUF 16384

typedef struct ts_trace_in {
    FILE *f;
    nxd_t nd;
    uint64_t start; /* where decoding starts: 0, or after the first message end of a wrapped trace */
    uint64_t end;   /* the offset after the last byte read (the trace's length when done) */
    bool done;      /* the last piece was decoded */
    uint8_t buf[TS_TRACE_IN_BUF];
} ts_trace_in_t;

/* opens path for decoding with cfg; wrapped: from the first message end (run_trace.h
 * ts_wrap_start, found by reading); -1 if the file cannot be opened or cfg is bad */
int ts_trace_in_open(ts_trace_in_t *t, const char *path, const nxd_cfg_t *cfg, bool wrapped);
/* decodes the next piece of at most `piece` bytes (at most TS_TRACE_IN_BUF), calling cb for
 * each message; the piece at the end of the file is the last (t->done). Returns 0, or cb's
 * stop value (then t->done). Nothing happens once done. */
int ts_trace_in_step(ts_trace_in_t *t, size_t piece, nxd_cb cb, void *ctx);
/* decodes everything left */
int ts_trace_in_all(ts_trace_in_t *t, nxd_cb cb, void *ctx);
void ts_trace_in_close(ts_trace_in_t *t);
#endif
