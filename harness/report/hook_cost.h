/* hook_cost.h - what each perf record's hook cost, measured from a run's ground truth, for
 * `tracesim report` (README "Profile: `tracesim report`").
 *
 * A record is written by one call of a hook of the perf library: __cyg_profile_func_enter or
 * __cyg_profile_func_exit (enter/exit records), perfWriteCntrs (manual), perf_timer_tick
 * (ISR). flow.csv has each such call (its `call` row, cycle e) and its return (the `ret` row to
 * the call's link, cycle x); counters.csv has the hook's read of the cycle counter (csr
 * `cycle` or `mcycle`, cycle r, which reads exactly r). The hook cost x - e splits at r: pre =
 * r - e lies before the record's counter values, post = x - r after them. Calls that read no
 * cycle counter wrote no record (tracing off) and are not used.
 *
 * Records are paired with hook calls per hart in order: the first record takes the first
 * hook call of its kind that read the cycle counter; every later one the hook call whose r is
 * the previous r plus the record's cycles delta, of the record's kind (calls skipped on the
 * way wrote records that never reached the trace). A record with no such call, and every
 * record of the hart after it or after lost perf data (hc_reset), is not measured. No global
 * state. */
#ifndef TS_HOOK_COST_H
#define TS_HOOK_COST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "elf_syms.h"
#include "perf_decode.h"

typedef struct hc_call { uint64_t e, r, x; uint8_t kind; } hc_call_t;   /* kind: perf_record_type */

typedef struct hc_hart {
    hc_call_t *c;
    size_t n, cap, next;
    bool anchored, dead;
    uint64_t last_r;
} hc_hart_t;

typedef struct hook_cost {
    hc_hart_t h[PERF_MAX_CORES];
    uint64_t calls_no_read;           /* hook calls that read no cycle counter (no record) */
} hook_cost_t;

/* flow.csv and counters.csv of run_dir, hook addresses from syms; 0, or -1 with one line */
int hc_load(hook_cost_t *hc, const char *run_dir, const elf_syms_t *syms, char *err, size_t errlen);
void hc_free(hook_cost_t *hc);
/* the hook call that wrote record r (cycles_delta: its cycles counter's delta, or UINT64_MAX
 * when the record has none or it is unknown): true with pre/post, false if not found */
bool hc_match(hook_cost_t *hc, const perf_record_t *r, uint64_t cycles_delta, uint64_t *pre, uint64_t *post);
/* perf data of a hart was lost: its later records are not measured */
void hc_reset(hook_cost_t *hc, unsigned hart);
#endif
