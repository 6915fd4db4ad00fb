/* profile.h - a gprof-like profile from decoded perf records (perf_decode.h), the library
 * behind `tracesim report`.
 *
 * Fed with the perf decoder's headers and records in trace order (prof_header / prof_record
 * have the perf_dec_cb_t signatures), it keeps per hart a running total of every counter
 * (the sum of the records' width-wrapped deltas, so counters that wrap are followed) and a
 * call stack (the model of decoder/include/callstack.h) built from the function enter/exit records:
 *
 *  - enter: the function's calls and the caller->callee edge's calls count one; a frame
 *    (function, call site, caller, the running totals) is pushed.
 *  - exit: the topmost frame of that function is popped; its total (inclusive) cost is the
 *    change of the running totals since its enter. Frames above it (exits that never came)
 *    are unwound first, each ending at the previous record, counted with a warning. An exit
 *    with no frame of its function is counted, warned about and ignored.
 *  - the call-site rule (with prof_opts_t.sites; decoder/include/rec_stack.h, callstack.h's
 *    cs_unwind_call): an enter whose call site is not in the top frame's function unwinds
 *    to the frame that made the call, or below the frame whose caller made it (a longjmp
 *    left them); they end at the previous record (counted, "repairs" in the notes).
 *  - after a repair or an unwound exit, the counters' change since the previous record is
 *    split between the frame left and the frame control went to in unknown shares: it is
 *    counted in the trace total as "not attributed" (prof_unattributed), not as any
 *    function's self.
 *  - self (exclusive) cost: between two records of a hart, the counters' change is charged
 *    to the function on top of that hart's stack (to "outside" with an empty stack).
 *  - recursion: a function's total, and the total along a caller->callee edge, count only
 *    activations that are the function's outermost one on that hart's stack, so a recursive
 *    function is not counted twice; self costs and calls count every activation.
 *  - frames still open at the end (prof_finish) are charged up to the last record and
 *    reported as still active.
 *  - manual records: per call site the records, and the counters' change from the hart's
 *    previous manual record to this one (charged to the later record's site).
 *  - ISR records: one sample for the source function containing the interrupted pc (the
 *    symbol's name without GCC's clone suffixes .constprop.N, .isra.N, .part.N, .cold,
 *    .lto_priv.N, so isort and isort.constprop.0 are one function; or the pc itself without
 *    symbols), with the counters' change since the hart's previous record summed per
 *    function (what ran in the sampling period before the interrupt).
 *  - truncated records are not used as events (counted); the counter values they did carry
 *    still advance the running totals so that the next record's deltas stay exact.
 *  - a header starts a new baseline: each counter's first value after it only sets the
 *    running total's reference (its delta from 0 is not a cost), the call stack is kept.
 *  - a gap (perf data lost before a record: gap_before, perf_decode.h) resets the hart's call
 *    stack - the open frames end at the last record before the gap (counted, noted) - and
 *    starts a new baseline like a header: what the counters did across the gap is not
 *    counted. Deltas the decoder marks unknown are not counted; a record whose addresses are
 *    unknown (DeltaXOR after a gap) is not used as an event (counted, noted).
 *
 *  - instrumentation cost (prof_hook, measured by hook_cost.h): the cycles a record's hook
 *    spent before its cycle counter read (pre) and after it (post). Between two records the
 *    previous record's post plus this record's pre are hook cycles inside the interval's
 *    cycles delta: they go to the same function's hook_self (and through the frames to
 *    hook_total, like total). With opts.compensate every output subtracts them from the
 *    cycles figures (self, total, edges, the trace total, outside).
 *
 * The trace total of a counter is the sum of all deltas counted (inside and outside
 * functions); percentages are shares of it. Counters of raw events are named after
 * rtl_model/regs/hpm_events.def (0x600: load|store). Functions, edges and sites are merged over harts.
 * No global state; one prof_t per report. */
#ifndef TS_PROFILE_H
#define TS_PROFILE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "perf_decode.h"

struct cs;

#define PROF_NONE UINT32_MAX /* no caller: called with an empty stack */
#define PROF_MAX_DEPTH 16384 /* frames per hart; deeper enters are counted, dropped */

typedef struct prof_func {
    uint64_t addr;                    /* function address (enter/exit records) */
    const char *name;                 /* from the symbolizer, or NULL */
    uint64_t calls;                   /* enter records */
    uint64_t still_active;            /* activations open at the end of the trace */
    uint64_t left_top;                /* times control left it, on top of the stack, without its exit */
    uint64_t self[PERF_MAX_COUNTERS]; /* by counter index */
    uint64_t total[PERF_MAX_COUNTERS];
    uint64_t hook_self, hook_total; /* hook cycles inside self/total cycles (prof_hook) */
} prof_func_t;

typedef struct prof_edge {
    uint32_t caller, callee; /* function numbers (prof_func_at); caller may be PROF_NONE */
    uint64_t calls;
    uint64_t total[PERF_MAX_COUNTERS];
    uint64_t hook_total;
} prof_edge_t;

typedef struct prof_site { /* manual records at one address */
    uint64_t addr;
    const char *name;
    const char *file; /* source file and line of addr (opts.line), or NULL */
    unsigned line;
    uint64_t records, intervals;     /* intervals: records with a previous manual record */
    uint64_t sum[PERF_MAX_COUNTERS]; /* counters' change over those intervals */
    uint64_t hook_sum;               /* hook cycles inside those intervals' cycles */
} prof_site_t;

typedef struct prof_isr { /* ISR samples in one source function (or at one pc) */
    uint64_t addr;        /* start of the first symbol sampled, or the pc without one */
    const char *name;     /* that symbol's name (e.g. isort.constprop.0), or NULL */
    char *func;           /* the source function: name without GCC's clone suffixes */
    unsigned symbols;     /* symbols merged into it (isort, isort.constprop.0: 2) */
    uint64_t samples;
    uint64_t intervals[PERF_MAX_COUNTERS]; /* samples whose counter change is known, by counter */
    uint64_t sum[PERF_MAX_COUNTERS];       /* counters' change since the hart's previous record */
    uint64_t hook_sum;                     /* hook cycles inside those cycles */
} prof_isr_t;

typedef struct prof_stats {
    uint64_t headers, records, truncated;
    uint64_t enters, exits, manual, isr;
    uint64_t unmatched_exits;           /* exits without a frame of their function: ignored */
    uint64_t unwound;                   /* frames popped by an exit of a function below them */
    uint64_t repairs;                   /* enters called from below the top of the stack (longjmp) */
    uint64_t repaired;                  /* frames they closed */
    uint64_t unattributed_intervals;    /* intervals split in unknown shares by a non-local exit (prof_unattributed) */
    uint64_t switch_events;             /* prof_thread calls */
    uint64_t switches;                  /* of them that changed the running thread */
    uint64_t switch_intervals;          /* intervals with a thread switch (not attributed) */
    uint64_t hook_unattributed;         /* hook cycles inside them */
    uint64_t still_active;              /* frames open at the end of the trace */
    uint64_t too_deep;                  /* enters beyond PROF_MAX_DEPTH, dropped */
    uint64_t gaps;                      /* records after lost perf data: the call stack was reset */
    uint64_t gap_ended;                 /* frames ended by a gap */
    uint64_t unknown_addr;              /* records whose addresses a gap made unknown: not used */
    bool hooks;                         /* prof_hook was called: the instrumentation cost is known */
    uint64_t hook_n[4], hook_cycles[4]; /* by record type: measured records, their hooks' cycles */
    uint64_t hook_unmeasured;           /* records prof_hook could not measure */
    uint64_t hook_counted;              /* hook cycles inside the counted cycles (trace total) */
    uint64_t hook_outside;              /* of them outside any traced function */
    uint64_t handler_in_hooks;          /* cycles of trap handlers taken inside hooks (prof_hook_traps), counted with the hook cycles */
    uint64_t handler_traps;             /* intervals that held such cycles */
} prof_stats_t;

/* symbolizer: the name of the function containing addr and its start, or NULL */
typedef const char *(*prof_sym_fn)(void *ctx, uint64_t addr, uint64_t *start);

/* source position of addr: the file (NULL if unknown) and *line */
typedef const char *(*prof_line_fn)(void *ctx, uint64_t addr, unsigned *line);

/* columns of the flat profile (--fields); SELF, TOTAL and the means give one per counter */
enum prof_field { PF_PERCENT,
                  PF_CALLS,
                  PF_SELF,
                  PF_TOTAL,
                  PF_SELF_MEAN,
                  PF_TOTAL_MEAN,
                  PF_HOOK,
                  PF_ADDRESS,
                  PF_FUNCTION,
                  PF_NFIELDS };
#define PROF_MAX_FIELDS 32

typedef struct prof_opts {
    prof_sym_fn sym; /* may be NULL: addresses only */
    void *sym_ctx;
    /* the call sites of enter records (rec_stack.h's rs_site_fn, e.g. call_sites.h's rs_site),
     * may be NULL: no enter is repaired */
    uint64_t (*site)(void *ctx, uint64_t ret, bool *instrumented);
    void *site_ctx;
    void (*warn)(void *ctx, const char *msg); /* may be NULL */
    void *warn_ctx;
    prof_line_fn line; /* may be NULL: manual sites without file:line */
    void *line_ctx;
    bool compensate;  /* subtract the hook cycles from every cycles figure */
    unsigned nfields; /* 0: the default columns */
    /* the call paths (stack_tree.h, report -f folded/callgrind), may be NULL: every counted
     * interval with the hart, its running thread (prof_thread_info), the call stack it is
     * charged to (callstack.h: frames' func are function numbers, call_site), split: not
     * attributed; the deltas by counter index for the bits of known, hook: the hook cycles
     * inside the cycles delta. And every frame opened (an enter record), on top of stack. */
    void (*path_interval)(void *ctx, unsigned hart, uint32_t thread, const struct cs *stack, bool split,
                          const uint64_t *delta, uint32_t known, uint64_t hook);
    void (*path_enter)(void *ctx, unsigned hart, uint32_t thread, const struct cs *stack);
    void *path_ctx;
    enum prof_field fields[PROF_MAX_FIELDS];
} prof_opts_t;

typedef struct prof prof_t;

/* NULL when out of memory */
prof_t *prof_new(const prof_opts_t *o);
void prof_free(prof_t *p);
/* perf_dec_cb_t callbacks (ctx = the prof_t) */
void prof_header(void *p, const perf_header_t *h);
void prof_record(void *p, const perf_record_t *r);
/* the hook cost of the next record of `hart` (hook_cost.h): before prof_record of that
 * record; measured false when it could not be measured */
void prof_hook(prof_t *p, unsigned hart, bool measured, uint64_t pre, uint64_t post);
/* after prof_hook of a measured record: in the interval before it, the cycles of trap
 * handlers taken inside hooks that ran outside any hook (their uninstrumented code) and hook
 * cycles of a hook such a trap interrupted that ran after its mret (hook_cost.h,
 * hc_match_traps). Both are taken out with the hook cycles (--compensate): the handler's
 * code is neither the hook's cost nor the interrupted function's. moved: the part of this
 * record's hook cost (post) given to a later interval that way (counted in its record type's
 * hook cycles) */
void prof_hook_traps(prof_t *p, unsigned hart, uint64_t handler, uint64_t late, uint64_t moved);
/* the counter index named cycles, or -1 */
int prof_cycles_index(const prof_t *p);
/* --fields: a comma-separated list of names (percent, calls, self, total, self_mean,
 * total_mean, hook, address, function) into o->fields; 0, or -1 with one line in err */
int prof_parse_fields(prof_opts_t *o, const char *list, char *err, size_t errlen);
/* end of the trace: closes the frames still open */
void prof_finish(prof_t *p);

/* a thread switch on a hart (a THREAD_SWITCH event: id = the new thread's tp), in trace
 * order between the records: each thread keeps its own call stack and running totals; the
 * interval from the record before the switch to the record after it is not attributed (the
 * threads' shares of it are unknown) and counts in no frame's total. Frames open before a
 * hart's first switch belong to a thread of their own ("before the first switch") unless
 * that thread had none: the first switch then names it. */
void prof_thread(prof_t *p, unsigned hart, uint64_t id);

/* a thread slot (the path_interval callback's numbers): its hart and id; false when the id is
 * unknown (what ran before the hart's first switch) */
bool prof_thread_info(const prof_t *p, uint32_t thread, unsigned *hart, uint64_t *id);
/* the name of counter index x (cycles, instret, load|store, ...), or NULL when unused */
const char *prof_counter_name(const prof_t *p, unsigned x);
/* results (pointers stay valid until the next prof_record/prof_finish) */
const prof_stats_t *prof_stats(const prof_t *p);
size_t prof_nfuncs(const prof_t *p);
const prof_func_t *prof_func_at(const prof_t *p, size_t i);
const prof_func_t *prof_func(const prof_t *p, uint64_t addr);
/* the edge caller -> callee (caller NULL: <spontaneous>), or NULL if never called so */
const prof_edge_t *prof_edge(const prof_t *p, const prof_func_t *caller, const prof_func_t *callee);
const prof_site_t *prof_site(const prof_t *p, uint64_t addr);
const prof_isr_t *prof_isr(const prof_t *p, uint64_t addr);
/* a symbol's source-function name: GCC's clone suffixes (.constprop.N, .isra.N, .part.N,
 * .cold, .lto_priv.N, in any combination) removed; the length of that prefix of name */
size_t prof_source_name_len(const char *name);
/* sum of every counted delta of a counter index over the trace, and the part outside any
 * traced function */
uint64_t prof_trace_total(const prof_t *p, unsigned index);
uint64_t prof_outside(const prof_t *p, unsigned index);
/* the part of the trace total in intervals split in unknown shares between frames: an enter
 * called from below the top of the stack, or an exit of a function below it */
uint64_t prof_unattributed(const prof_t *p, unsigned index);

/* the report as text (flat profile, call graph, manual sites, ISR samples, notes), or the
 * flat profile as CSV; 0, or -1 if writing failed */
int prof_write_text(const prof_t *p, FILE *out);
int prof_write_csv(const prof_t *p, FILE *out);
/* the same CSV with a first column `hart` (the value given), for a profile of one hart's
 * records; columns: false leaves out the column-name line (the previous hart's has the same
 * columns, prof_same_counters) */
int prof_write_csv_hart(const prof_t *p, FILE *out, unsigned hart, bool columns);
/* the two profiles have the same counter columns */
bool prof_same_counters(const prof_t *a, const prof_t *b);
#endif
