/* timeline.h - perf records (perf_decode.h) as CSV rows (`tracesim decode --format csv`) and as
 * a Chrome/Perfetto trace-event timeline (--format timeline; the software trace port's slices
 * and events of the same timeline are stm_decode.h's). Both are perf_dec_cb_t consumers; the
 * caller opens and closes the timeline's JSON ("traceEvents" array). */
#ifndef TS_TIMELINE_H
#define TS_TIMELINE_H
#include "elf_syms.h"
#include "perf_decode.h"
#include "rec_stack.h"
#include "tl_time.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* *first_rec = the smaller of it and r's offset (the first record start; NULL: nothing) */
void ts_note_first(uint64_t *first_rec, const perf_record_t *r);

/* ---- CSV: a column line per set of counters, a row per record (and one per gap); the first
 * column the record's simulator cycle (cycles) or trace timestamp ------------------------- */
typedef struct ts_csv {
    FILE *out;
    const elf_syms_t *syms;
    perf_header_t h[PERF_MAX_CORES]; /* each hart's header */
    bool have_h[PERF_MAX_CORES];
    bool have_header; /* a column line was written, for the counters of cur */
    perf_header_t cur;
    unsigned ncols[PERF_MAX_CORES]; /* counters in each hart's header */
    uint64_t truncated, errors, gaps, unknown;
    uint64_t *first_rec; /* ts_note_first, or NULL */
    bool cycles;         /* first column "cycle" = timestamp - offset, else "timestamp" */
    int64_t offset;
    elf_syms_cache_t fn_cache; /* the last function found (zeroed: none) */
} ts_csv_t;

void ts_csv_header(void *vctx, const perf_header_t *h);
void ts_csv_record(void *vctx, const perf_record_t *r);
/* a decode error or gap: one line on stderr (ts_perf_diag), counted in errors/gaps */
void ts_csv_error(void *vctx, unsigned core, uint64_t off, const char *what);

/* ---- the timeline's clock (tl_time.h) ------------------------------------------------- */
/* the clock for the trace at trace_path: want 1 cycles, 0 ticks, -1 cycles when trace.json
 * beside it gives ts_cycle_offset (a note on stderr when it is a run's but gives none), else
 * ticks. 0, or -1 with err (cycles wanted but no relation known, a damaged trace.json). */
int ts_tl_time_setup(ts_tl_time_t *tt, const char *trace_path, int want, double us_per_tick, char *err, size_t errlen);
/* the start of the timeline's JSON (its clock in otherData); the caller ends it with "]}" */
void ts_tl_begin(FILE *o, const ts_tl_time_t *tt);

/* ---- timeline: a track (thread) per hart, enter/exit as B/E slices and other records
 * instant events (args: record, address, function, call site, counter values and deltas),
 * counter deltas as counter events at the start of the interval each measures. The slices
 * follow the one call stack of the record profilers (rec_stack.h, callstack.h): a frame that
 * `report` closes without its exit record (an enter called from below the top of the stack:
 * a longjmp; an exit of a function below the top) ends at the hart's record before (an "E"
 * without args), an exit without a frame is an instant "exit (no enter) F", a gap ends every
 * slice, and ts_tl_end ends the frames still open at the hart's last record: every B has
 * its E, nested. ------------------------------------------------------------------------ */
typedef struct ts_tl {
    FILE *out;
    const elf_syms_t *syms;
    ts_tl_time_t time;
    bool have_last[PERF_MAX_CORES]; /* last[]: the hart's previous record (or header) time */
    uint64_t last[PERF_MAX_CORES];
    perf_header_t h[PERF_MAX_CORES];
    cs_t cs[PERF_MAX_CORES]; /* each hart's call stack (ts_tl_stacks) */
    rs_site_fn site;         /* the call sites (may be NULL: no enter closes frames) */
    void *site_ctx;
    unsigned close_core; /* the hart and time a frame closed by the model ends at */
    uint64_t close_ts;
    uint64_t begins, ends;      /* B and E events of the perf records */
    bool named[PERF_MAX_CORES]; /* the hart's track has its name */
    bool first;
    uint64_t untimed, unnamed, unknown;
    uint64_t *first_rec;   /* ts_note_first, or NULL */
    uint64_t errors, gaps; /* ts_tl_error's counts (ts_perf_diag) */
} ts_tl_t;

void ts_tl_header(void *vctx, const perf_header_t *h);
/* the perf decoder's errors and gaps on stderr (ts_perf_diag), ctx: ts_tl_t */
void ts_tl_error(void *vctx, unsigned core, uint64_t off, const char *what);
void ts_tl_record(void *vctx, const perf_record_t *r);
/* the call stacks (before the first record): site as rs_before's */
void ts_tl_stacks(ts_tl_t *c, rs_site_fn site, void *site_ctx);
/* after the last record: the frames still open end at their hart's last record; the stacks
 * are freed */
void ts_tl_end(ts_tl_t *c);
#endif
