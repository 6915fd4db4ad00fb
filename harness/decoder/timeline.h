/* timeline.h - perf records (perf_decode.h) as CSV rows (`tracesim decode --format csv`) and as
 * a Chrome/Perfetto trace-event timeline (--format timeline; the software trace port's slices
 * and events of the same timeline are stm_decode.h's). Both are perf_dec_cb_t consumers; the
 * caller opens and closes the timeline's JSON ("traceEvents" array). */
#ifndef TS_TIMELINE_H
#define TS_TIMELINE_H
#include "elf_syms.h"
#include "perf_decode.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* *first_rec = the smaller of it and r's offset (the first record start; NULL: nothing) */
void ts_note_first(uint64_t *first_rec, const perf_record_t *r);

/* ---- CSV: a column line per set of counters, a row per record (and one per gap) ---------- */
typedef struct ts_csv {
    FILE *out;
    const elf_syms_t *syms;
    perf_header_t h[PERF_MAX_CORES];      /* each hart's header */
    bool have_h[PERF_MAX_CORES];
    bool have_header;         /* a column line was written, for the counters of cur */
    perf_header_t cur;
    unsigned ncols[PERF_MAX_CORES];       /* counters in each hart's header */
    uint64_t truncated, errors, gaps, unknown;
    uint64_t *first_rec;      /* ts_note_first, or NULL */
} ts_csv_t;

void ts_csv_header(void *vctx, const perf_header_t *h);
void ts_csv_record(void *vctx, const perf_record_t *r);
/* a decode error or gap: one line on stderr (ts_perf_diag), counted in errors/gaps */
void ts_csv_error(void *vctx, unsigned core, uint64_t off, const char *what);

/* ---- timeline: a track (thread) per hart, enter/exit as B/E slices, other records instant
 * events, counter deltas counter events ------------------------------------------------- */
typedef struct ts_tl {
    FILE *out;
    const elf_syms_t *syms;
    double us_per_tick;
    perf_header_t h[PERF_MAX_CORES];
    unsigned open[PERF_MAX_CORES];        /* slices begun and not ended, per hart */
    bool named[PERF_MAX_CORES];           /* the hart's track has its name */
    bool first;
    uint64_t untimed, unnamed, unknown;
    uint64_t *first_rec;      /* ts_note_first, or NULL */
} ts_tl_t;

void ts_tl_header(void *vctx, const perf_header_t *h);
void ts_tl_record(void *vctx, const perf_record_t *r);
#endif
