/* hook_match.h - which perf-hook call wrote a perf record (part of `tracesim check`, used by
 * perf_check.c; see docs/commands/check.md "Perf records").
 *
 * The calls of the perf hooks (hooks.csv rows: __cyg_profile_func_enter, _exit,
 * perfWriteCntrs) of one hart are fed in cycle order with the control flow around them
 * (flow.csv): a call is open from its entry until a return to its ra. A record is written by
 * an open call of its hook that has written no record yet, found by
 *   1. the thread: the one running when the record's first store was made (tp, x4, after the
 *      latest row fed: a hook call's tp is the calling thread's, an mret's the thread it
 *      resumes) - a thread preempted between a hook's entry and its record writes the record
 *      after the other threads' calls, whose arguments may be the same;
 *   2. the call's own arguments: enter/exit the function (a0) and the call site (a1), a
 *      manual record the return address (ra);
 *   3. of several such, the latest (an interrupt handler's hook nests in a main-line one).
 * Without a call that fits, it falls back to the latest open call of the hook in that thread,
 * of the hook in any thread, and then to any open call, so that the caller can report the
 * difference. Run folders of older versions have no tp column: then the thread is not known
 * and the match is by hart and arguments only. No bound on the nesting but memory: the open
 * calls are a growing array. No global state. */
#ifndef TS_HOOK_MATCH_H
#define TS_HOOK_MATCH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the hooks (hooks.csv's `hook` column) */
enum { HK_ENTER,
       HK_EXIT,
       HK_MANUAL };

/* an entry into a hook function (a hooks.csv row), by a call or a tail jump, with the
 * argument registers as the core had them */
typedef struct hook_call {
    uint64_t cycle;
    unsigned hart;
    int kind; /* HK_* */
    bool tail;
    bool has_tp; /* the row has the tp column (run folders of older versions: none) */
    uint32_t pc, a0, a1, ra, tp;
} hook_call_t;

typedef struct hm_open {
    hook_call_t c;
    bool done; /* it wrote its record */
} hm_open_t;

typedef struct hook_match {
    hm_open_t *open; /* the open calls, the latest last */
    size_t n, cap;
    bool have_tp; /* the running thread is known */
    uint32_t tp;
} hook_match_t;

void hm_init(hook_match_t *m);
void hm_free(hook_match_t *m);
/* a hook entered (by a call or a tail jump): a new open call; its tp becomes the running
 * thread. 0, or -1 out of memory */
int hm_enter(hook_match_t *m, const hook_call_t *c);
/* a flow.csv row: the thread running after it (has_tp false: unknown) */
void hm_running(hook_match_t *m, bool has_tp, uint32_t tp);
/* a return to target: ends the open call of the running thread returning there that wrote
 * its record, else one that did not, the latest such (a thread that resumes returns from its
 * own call, below the calls of the threads that ran meanwhile); without one of the running
 * thread, of any thread. Returns whether a call ended. */
bool hm_return(hook_match_t *m, uint32_t target);
/* the call that wrote a record of hook `kind` (HK_*): known says whether the record's
 * addresses are (cut records and addresses unknown after a gap: no); addr is the function
 * (enter/exit) or the address (manual), call_site the call site (enter/exit). The call is
 * marked as having written its record; NULL if no call is open that has not. The pointer is
 * valid until the next hm_enter or hm_return. */
const hook_call_t *hm_record(hook_match_t *m, int kind, bool known, uint64_t addr, uint64_t call_site);
#endif
