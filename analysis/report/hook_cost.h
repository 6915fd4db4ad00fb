/* hook_cost.h - what each perf record's hook cost, measured from a run's ground truth, for
 * `tracesim report`.
 *
 * A record is written by one call of a hook of the perf library: __cyg_profile_func_enter or
 * __cyg_profile_func_exit (enter/exit records), perfWriteCntrs (manual), perf_timer_tick
 * (ISR). The hook is entered by a call (flow.csv `call` row to the hook, cycle e) or, in
 * optimised code, by a tail jump (hooks.csv `tail` row: it returns to the jumping function's
 * caller, its ra); it returns at the `ret` row to that link (cycle x). counters.csv has the
 * hook's first read of the cycle counter (csr `cycle` or `mcycle`, cycle r, which reads
 * exactly r). The hook cost x - e, less the cycles of interrupt handlers that ran inside it
 * (trap to mret: they belong to the handler's function), splits at r: pre before the
 * record's counter values, post after them. Calls that read no cycle counter wrote no record
 * (tracing off) and are not used.
 *
 * Records are paired with hook calls per hart in the order of their reads (an interrupt
 * handler's hook that ran inside another hook wrote its record first): the first record
 * takes the first hook call of its kind; every later one the hook call whose r is the
 * previous r plus the record's cycles delta, of the record's kind (calls skipped on the way
 * wrote records that never reached the trace). A record with no such call, and every record
 * of the hart after it or after lost perf data (hc_reset), is not measured.
 *
 * Memory: the files are read row by row, each hart at its own position, as the records ask
 * for calls; what is held is the open hook calls and those that returned but may not be
 * handed out yet (bounded by the hooks' nesting), never the run. No global state. */
#ifndef TS_HOOK_COST_H
#define TS_HOOK_COST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "elf_syms.h"
#include "perf_decode.h"

/* a hook call: entered at e, read the cycle counter at r, returned at x; trap: cycles of
 * trap handlers (an interrupt) that ran inside it, trap_pre of them before r */
/* t1: the first trap after r taken while it was open, tl: the last mret after r while it
 * was open (UINT64_MAX: none): the post part before t1 and after tl are the hook's own */
typedef struct hc_call {
    uint64_t e, r, x, trap, trap_pre, t1, tl;
    uint8_t kind;
} hc_call_t; /* kind: perf_record_type */

/* inside: control is in the call (it was entered, or the trap that left it, at cycle left
 * and trap nesting level `level`, returned to trap_pc); a trap taken while a call is inside
 * is a trap inside a hook */
typedef struct hc_open {
    hc_call_t c;
    uint64_t link, trap_pc, left;
    bool inside;
    bool has_tp; /* tp: the thread that called the hook (flow.csv's or hooks.csv's tp) */
    uint32_t tp;
    unsigned level;
    /* the cycle of the mret that left this call's thread switched out (another thread runs:
     * its cycles are not this call's cost, up to the next trap), or UINT64_MAX */
    uint64_t parked;
} hc_open_t;
typedef struct hc_row {
    uint64_t cyc, pc, target, link;
    unsigned hart;
    int hook;
    char kind;
    bool has_tp; /* the row's tp (x4: flow.csv after the row's instruction, hooks.csv at the
                    hook's entry); none in run folders of older versions */
    uint32_t tp;
} hc_row_t;
/* a trap taken inside a hook call (the outermost such), from its trap to its mret (b:
 * UINT64_MAX while it runs) */
typedef struct hc_trap {
    uint64_t a, b;
    unsigned level;
} hc_trap_t;
/* hook cycles after a trap inside a hook (from its last mret to its return, at x): they
 * belong to the interval between records that holds x */
typedef struct hc_late {
    uint64_t x, cycles;
} hc_late_t;

/* one hart's hook calls, read from flow.csv and counters.csv as the records ask for them */
typedef struct hc_hart {
    FILE *flow, *ctr, *hk; /* the hart's own read position in each file */
    char *fline, *cline, *hline;
    size_t fcap, ccap, hcap;
    hc_row_t frow, crow, hrow; /* the next row of each file not yet processed */
    bool have_f, have_c, have_h, f_eof, c_eof, h_eof, opened, failed;
    hc_call_t *c; /* calls that returned, not yet handed out (any order) */
    size_t n, cap;
    hc_open_t *open; /* calls not yet returned, the latest entered last (an ISR's
                                         in a hook, other threads' when a hook was preempted) */
    unsigned nopen, opencap, hart;
    unsigned traps; /* trap handlers running (nested), the outermost entered at trap_at */
    uint64_t trap_at;
    uint64_t addr[4];
    char dir[4096];
    bool anchored, dead;
    uint64_t last_r, last_post;
    hc_trap_t *ht; /* traps taken inside a hook call, not yet behind the records */
    size_t nht, capht;
    long ht_run;     /* the one running (index into ht), or -1 */
    hc_late_t *late; /* hook cycles after such traps, not yet handed out */
    size_t nlate, caplate;
    uint64_t handler, late_now, moved; /* hc_match_traps of the last record matched */
} hc_hart_t;

typedef struct hook_cost {
    hc_hart_t h[PERF_MAX_CORES];
    uint64_t addr[4]; /* the hooks' addresses (UINT64_MAX: not in the ELF) */
    char dir[4096];
    bool have_hooks;         /* the run folder has hooks.csv (hooks entered by tail jumps) */
    char err[512];           /* why a hart's reading stopped (hc_failed) */
    uint64_t calls_no_read;  /* hook calls that read no cycle counter (no record) */
    uint64_t resume_guesses; /* mrets that resumed one of several threads left at the same
                                instruction of a hook, without tp in flow.csv (older run
                                folders): the one left first was assumed (a round robin) */
} hook_cost_t;

/* flow.csv and counters.csv of run_dir, hook addresses from syms: both files are checked
 * (one pass, nothing kept) and later read row by row per hart as hc_match asks, so memory is
 * bounded by the hooks' nesting, not by the run; 0, or -1 with one line */
int hc_load(hook_cost_t *hc, const char *run_dir, const elf_syms_t *syms, char *err, size_t errlen);
void hc_free(hook_cost_t *hc);
/* the hook call that wrote record r (cycles_delta: its cycles counter's delta, or UINT64_MAX
 * when the record has none or it is unknown): true with pre/post, false if not found */
bool hc_match(hook_cost_t *hc, const perf_record_t *r, uint64_t cycles_delta, uint64_t *pre, uint64_t *post);
/* after a successful hc_match: the cycles between the previous record's cycle read and this
 * one's that a trap handler taken inside a hook call ran outside any hook (the handler's
 * uninstrumented code: its entry up to the first hook call inside it, its exit from the last
 * one's return to the mret), and the hook cycles of calls interrupted by such a trap that
 * ran after its mret (the part of their cost in this interval, not in *post of their record);
 * moved: that part of this record's own hook, left out of its *post (a later interval's) */
void hc_match_traps(const hook_cost_t *hc, const perf_record_t *r, uint64_t *handler, uint64_t *late, uint64_t *moved);
/* perf data of a hart was lost: its later records are not measured */
void hc_reset(hook_cost_t *hc, unsigned hart);
/* a reading error after hc_load (a file changed or unreadable): its text, or NULL */
const char *hc_failed(const hook_cost_t *hc);
#endif
