/* pftrace.h - perf records (perf_decode.h), and beside them the software trace port's events,
 * the program flow's calls and the run's traps (below), as a Perfetto protobuf trace
 * (`tracesim decode --format perfetto`, a .pftrace file): Trace { repeated TracePacket packet = 1 } with track
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
#include "nexus_decode.h"
#include "perf_decode.h"
#include "rec_stack.h"
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
 * first): the software trace port's events (stm_decode.h's semantics). A THREAD_SWITCH is a
 * ts_pf_thread, after the record pd is assembling on that hart when it is in one (as report's
 * profile: the record's stores came before it), and a slice "tp 0x..." (argument tp) on the
 * track "hart N threads" from the switch to the hart's next one (the last: to the hart's last
 * software event); a completed THREAD_NAME an instant "thread name" (argument name) on the
 * running thread's track; every other event an instant "GROUP 0xID" on the running thread's
 * track with the arguments id, group and value (the value is what the event's id says it is
 * - an item number, a result, a state - not a quantity of a kind a counter track could plot,
 * so it stays an argument). Events without a timestamp are counted (sw_untimed), not shown.
 * An ICT event of a trap (an event-mode program trace, --trace-insn event) is an instant
 * "trap: CAUSE" (arguments cause, pc) on the running thread's track. */
int ts_pf_elem(void *ctx, const ts_elem_t *e);
/* the call sites of the enter records (rec_stack.h; site NULL: none): each hart's slices
 * follow the one call stack of the record profilers (callstack.h), per thread: a frame
 * `report` closes without its exit record (an enter called from below the top of the
 * stack: a longjmp; an exit of a function below the top) ends at the hart's record before,
 * an exit without a frame is an instant "exit (no enter) F", a gap ends every slice of the
 * hart; ts_pf_records_end ends the frames still open at their hart's last record */
void ts_pf_sites(ts_pf_t *p, rs_site_fn site, void *site_ctx);
/* after the last record (before the program flow and traps.csv are added) */
void ts_pf_records_end(ts_pf_t *p);
void ts_pf_decoder(ts_pf_t *p, const perf_dec_t *pd);

typedef struct ts_pf_stats {
    uint64_t packets, slices, instants, counter_samples, threads;
    uint64_t sw_events, sw_slices, sw_untimed; /* software trace: instants, thread slices, no time */
    uint64_t flow_slices;                      /* program-flow calls (resumed frames not counted) */
    uint64_t trap_slices;                      /* traps.csv's traps */
    uint64_t trap_events, trap_untimed;        /* the trace's ICT trap events: instants, no time */
    uint64_t untimed;                          /* records without a timestamp (or before cycle 0): left out */
    uint64_t unnamed;                          /* cut off before their address */
    uint64_t unknown;                          /* addresses a gap made unknown (DeltaXOR) */
    uint64_t errors, gaps;                     /* ts_pf_error's */
    bool oom;
} ts_pf_stats_t;
/* ---- the program flow (an instruction-traced run): a slice per frame as flow_calls.h
 * defines frames (calls, returns, traps and xRETs, tail calls; the frames report's flow
 * profile counts), named after the function, on the track "hart N calls"; arguments function,
 * trap 1 (a trap's frame: its handler), resumed 1 (a parked thread's frame continues) and root
 * 1 (the code running where the flow began or resumed after a break: its caller unseen); the
 * last two are no calls (stats: flow_slices counts the calls). Times as tl_flow.h: a timestamped message's instruction exact, those between
 * interpolated. A second decode of the trace goes to ts_pf_flow_msg (an nxd_cb). */
typedef struct ts_pf_flow ts_pf_flow_t;
/* NULL with a one-line reason in err (the ELF unreadable, no memory) */
ts_pf_flow_t *ts_pf_flow_open(ts_pf_t *p, const char *elf, char *err, size_t errlen);
int ts_pf_flow_msg(void *f, const nxd_msg_t *m);
/* ends the flow (frames still open end at the last timed point) and frees f: the calls
 * written, or -1 (no memory) */
int64_t ts_pf_flow_close(ts_pf_flow_t *f, uint64_t end_offset);

/* ---- the simulator's traps (a run folder's traps.csv; cycles: only with the cycle clock):
 * a slice per trap from its entry to its return on the track "hart N traps", named after its
 * cause (irqs_cause_name), arguments cause, pc (the trapped instruction), handler, depth (the
 * traps open when it was taken) and latency (pending to the handler's first instruction, for
 * interrupts). 0; 1 no such file; -1 with one line in err (malformed, no memory). */
int ts_pf_traps(ts_pf_t *p, const char *path, char *err, size_t errlen);

/* the figures so far */
void ts_pf_stats(const ts_pf_t *p, ts_pf_stats_t *s);
/* frees p (slices still open stay open: Perfetto shows them as not ended) */
void ts_pf_close(ts_pf_t *p);
#endif
