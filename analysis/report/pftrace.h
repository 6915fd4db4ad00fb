/* pftrace.h - perf records (perf_decode.h) as a Perfetto protobuf trace (`tracesim decode
 * --format perfetto`, a .pftrace file): Trace { repeated TracePacket packet = 1 } with track
 * descriptors and TrackEvents on one packet sequence, names interned. The field numbers are
 * those of Perfetto's public .proto definitions (tests/perfetto/pftrace_subset.proto lists
 * every one this writer uses); the encoder is this file's own (pftrace.c).
 *
 * The tracks (docs/commands/decode.md "Open in Perfetto"):
 *   a process "hart N" per hart; in it a thread track per software thread of that hart: the
 *   slices before the hart's first THREAD_SWITCH are on the thread "hart N", those after a
 *   switch to tp X on "tp 0xX" (each thread keeps its own call stack, as report's profile);
 *   a counter track "N: COUNTER delta" per counter of the hart's header: the record's delta
 *   (the change since the hart's previous record), stamped at the start of the interval it
 *   measures, so the track shows each interval's cost over that interval.
 * A function enter/exit pair is a slice named after the function; its begin carries the
 * arguments function, call_site ("file:line (0xADDR)"; the line of the call instruction),
 * every counter's value and delta; its end the exit record's as exit.COUNTER(_delta). Other
 * records (manual, ISR, an exit without its enter) are instant events with the same
 * arguments. Times: simulator cycles (--time cycles: 1 ns in the viewer = 1 cycle) or trace
 * ticks (us_per_tick, converted to ns). */
#ifndef TS_PFTRACE_H
#define TS_PFTRACE_H
#include "elements.h"
#include "elf_syms.h"
#include "perf_decode.h"
#include "tl_time.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ts_pf ts_pf_t;

/* line(ctx, addr, &line): the source file of addr (NULL: unknown) - src_lines_at */
typedef const char *(*ts_pf_line_fn)(void *ctx, uint64_t addr, unsigned *line);

/* syms and line may be NULL (addresses stay numbers); NULL when out of memory */
ts_pf_t *ts_pf_open(FILE *out, const elf_syms_t *syms, ts_pf_line_fn line, void *line_ctx, const ts_tl_time_t *tt);
/* perf_dec_cb_t callbacks (ctx: the ts_pf_t) */
void ts_pf_header(void *ctx, const perf_header_t *h);
void ts_pf_record(void *ctx, const perf_record_t *r);
/* a decode error or gap: one line on stderr (ts_perf_diag) */
void ts_pf_error(void *ctx, unsigned core, uint64_t offset, const char *what);
/* a thread switch on hart (a THREAD_SWITCH event: tp the new thread's), in trace order
 * between the records */
void ts_pf_thread(ts_pf_t *p, unsigned hart, uint64_t tp);
/* a ts_elem_cb for the elements that also go to pd (ctx: the ts_pf_t; set ts_pf_decoder
 * first): a THREAD_SWITCH event is a ts_pf_thread, after the record pd is assembling on that
 * hart when it is in one (as report's profile: the record's stores came before it) */
int ts_pf_elem(void *ctx, const ts_elem_t *e);
void ts_pf_decoder(ts_pf_t *p, const perf_dec_t *pd);

typedef struct ts_pf_stats {
    uint64_t packets, slices, instants, counter_samples, threads;
    uint64_t untimed;      /* records without a timestamp (or before cycle 0): left out */
    uint64_t unnamed;      /* cut off before their address */
    uint64_t unknown;      /* addresses a gap made unknown (DeltaXOR) */
    uint64_t errors, gaps; /* ts_pf_error's */
    bool oom;
} ts_pf_stats_t;
/* the figures so far */
void ts_pf_stats(const ts_pf_t *p, ts_pf_stats_t *s);
/* frees p (slices still open stay open: Perfetto shows them as not ended) */
void ts_pf_close(ts_pf_t *p);
#endif
