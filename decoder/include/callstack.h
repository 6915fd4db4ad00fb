/* callstack.h - the one call-stack model behind every profiler (`report` from perf records,
 * `report --from flow`, the timeline): per thread a stack of frames, and the routes by
 * which control leaves a frame, each closing it with the reason.
 *
 * Pure C, no I/O, no globals: a passive struct the client feeds with what its trace says.
 * The client keeps its own per-frame data (running totals at the frame's entry, ...) in a
 * payload of user_size bytes the model stores with each frame; when a frame closes the model
 * calls close_fn with the frame, its payload and why it closed (frames close top first).
 *
 * Routes out of a frame (what the client calls):
 *  - return:          cs_pop closes the top frame; cs_exit(func) closes the topmost frame of func; frames above it (whose
 *                     exit never came) close first as CS_UNWOUND.
 *  - non-local exit:  cs_unwind_call(entry, site, site_traced, call_site) for an enter record
 *                     (a call of the function at entry whose return address is call_site,
 *                     made in the function at site, whose code calls the enter hook when
 *                     site_traced); frames pushed with cs_push_call keep their function's
 *                     entry and their caller (the function their own call site lies in, found
 *                     the same way as site). From the top, the first frame k that explains
 *                     the call decides: (a) k's function is site: the call is made in k,
 *                     or in an instrumented function inlined into k whose frame lies above
 *                     k (entered from k's call site: the symbols name the container), and
 *                     the frames above those close; (b) k was entered from call_site itself: with
 *                     another function, the new one is an instrumented function inlined into
 *                     k's function (its hooks get the container's return address), frames
 *                     above k close; with the same function, the frames entered from
 *                     call_site (k and the frames inlined into it below) were left and the
 *                     call is made again, they close too, unless k is the top (GCC inlines
 *                     a recursion into itself: the same record, nothing closes); (c) k's
 *                     caller is site and site_traced: control is back in the function that
 *                     called k, which is not re-entered without an enter record of its own
 *                     (an instrumented function), so k and every frame above it were left
 *                     (longjmp), also when k is the bottom frame and its caller never got a
 *                     frame (main entered before tracing started); the frames inlined into
 *                     k's out-of-line frame (the same call site below k) close with it.
 *                     Closed frames: CS_REPAIR. Nothing closes when no frame explains the
 *                     call (a call from an uninstrumented function, which may be re-entered
 *                     without records: an interrupt handler's dispatcher, an interpreter).
 *  - return target:   cs_unwind_to(f) after a return that lands in function f (a
 *                     program-flow client): frames above f's topmost frame close
 *                     (CS_REPAIR: longjmp's final return lands in the setjmp caller).
 *  - stack pointer:   cs_unwind_sp(sp) closes every frame whose stack pointer at its call is
 *                     known and below sp (the stack grows down: control is back above it);
 *                     cs_unwind_left(sp, f) after a return that lands in f also closes a
 *                     frame called at sp itself when f is not its function (longjmp).
 *  - trap:            cs_push(..., trap = true) opens a handler's frame; cs_trap_return
 *                     closes frames up to and including the newest trap frame (xRET).
 *  - tail call:       cs_tail replaces the top frame (CS_TAIL), keeping its call site, sp
 *                     and trap mark.
 *  - thread switch:   cs_switch(thread id) parks the current thread's stack with it and
 *                     makes that thread's stack current (made empty on first use).
 *  - loss / end:      cs_clear (this thread) and cs_clear_all (every thread).
 * Counters of repairs and unwinds are kept (cs_stats) for the profiles' notes. */
#ifndef TS_CALLSTACK_H
#define TS_CALLSTACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CS_NO_FUNC UINT32_MAX
#define CS_MAX_DEPTH (1u << 20) /* frames per thread; deeper pushes fail (counted) */

typedef enum cs_why {
    CS_RETURN,      /* its own exit/return */
    CS_UNWOUND,     /* the exit of a function below it came first */
    CS_REPAIR,      /* an enter's call site lies below it (longjmp or another non-local exit) */
    CS_SP,          /* the stack pointer passed above it */
    CS_TRAP_RETURN, /* the xRET of its trap (or of a trap above it) */
    CS_TAIL,        /* replaced by a tail call */
    CS_CLEAR,       /* cs_clear/cs_clear_all: loss of data, end of the trace */
} cs_why_t;

typedef struct cs_frame {
    uint32_t func;      /* the client's function number */
    uint64_t call_site; /* return address of the call (0: unknown) */
    uint64_t entry;     /* cs_push_call: the function's entry address (0: unknown) */
    uint64_t caller;    /* cs_push_call: the entry of the function call_site lies in (0: unknown) */
    uint64_t sp;        /* stack pointer at the call (0: unknown) */
    bool trap;          /* opened by an exception or interrupt */
} cs_frame_t;

typedef struct cs_stats {
    uint64_t repairs;   /* cs_unwind_call / cs_unwind_to calls that closed frames */
    uint64_t repaired;  /* frames they closed */
    uint64_t unwound;   /* frames closed by the exit of a function below them */
    uint64_t sp_closed; /* frames closed by the stack pointer */
    uint64_t unmatched; /* cs_exit without a frame of the function */
    uint64_t too_deep;  /* pushes refused at CS_MAX_DEPTH */
    uint64_t switches;  /* cs_switch to another thread */
} cs_stats_t;

/* thread: the id given to cs_switch (0 before any) */
typedef void (*cs_close_fn)(void *ctx, uint64_t thread, const cs_frame_t *f, void *user, cs_why_t why);

typedef struct cs_thread {
    uint64_t id;
    cs_frame_t *f;
    unsigned char *user;
    size_t n, cap;
} cs_thread_t;

typedef struct cs {
    size_t user_size;
    cs_close_fn close_fn;
    void *ctx;
    cs_thread_t *th; /* threads; th[cur] is current */
    size_t nth, capth, cur;
    cs_stats_t st;
    bool oom;
} cs_t;

void cs_init(cs_t *c, size_t user_size, cs_close_fn close_fn, void *ctx);
void cs_free(cs_t *c); /* no frames close */
/* make thread id current (its stack kept from its last switch-out); -1 out of memory */
int cs_switch(cs_t *c, uint64_t id);
uint64_t cs_thread_id(const cs_t *c);
/* the current thread's id becomes id (the first THREAD_SWITCH names the thread that ran
 * before it); -1 when another thread has that id (nothing changes) */
int cs_name(cs_t *c, uint64_t id);
size_t cs_depth(const cs_t *c);
/* frame i of the current thread (0: the bottom), and its payload */
const cs_frame_t *cs_at(const cs_t *c, size_t i);
void *cs_user_at(const cs_t *c, size_t i);
const cs_frame_t *cs_top(const cs_t *c); /* NULL when empty */
/* a new frame on top; its payload (zeroed) for the client to fill; NULL when too deep or
 * out of memory (the frame is not pushed) */
void *cs_push(cs_t *c, uint32_t func, uint64_t call_site, uint64_t sp, bool trap);
/* the top frame closes (a return seen by a client that knows which frame it leaves: the
 * top); false when the stack is empty */
bool cs_pop(cs_t *c, cs_why_t why);
/* the topmost frame of func closes (CS_RETURN), frames above it first (CS_UNWOUND); -1 when
 * no frame of func is open (nothing closes) */
int cs_exit(cs_t *c, uint32_t func);
/* the frames above the topmost frame of func close (CS_UNWOUND), that frame stays (for a
 * client that closes them before it counts the record's interval); their number */
size_t cs_unwind_above(cs_t *c, uint32_t func);
/* cs_push for a call whose function begins at entry, made in the function that begins at
 * caller (0: unknown), the frame's data for cs_unwind_call */
void *cs_push_call(cs_t *c, uint32_t func, uint64_t entry, uint64_t call_site, uint64_t caller);
/* the call-site rule for an enter record (see the top of the file): the call of the function
 * at entry returning to call_site was made in the function at site (0: unknown), whose code
 * calls the enter hook when site_traced; the number of frames closed (CS_REPAIR) */
size_t cs_unwind_call(cs_t *c, uint64_t entry, uint64_t site, bool site_traced, uint64_t call_site);
/* after a return that lands in function func_at: the frames above its topmost frame close
 * (CS_REPAIR); their number (0 also when func_at has no frame) */
size_t cs_unwind_to(cs_t *c, uint32_t func_at);
/* frames whose sp is known and below sp close (CS_SP); their number */
size_t cs_unwind_sp(cs_t *c, uint64_t sp);
/* after a return landing in function func_at (CS_NO_FUNC: another) with the stack pointer
 * at sp: from the top, frames (not trap frames) whose sp is known and below sp, or equal to
 * sp while func_at is not their function (longjmp restores the sp of setjmp's caller, the
 * sp at which its callee was called) close (CS_SP); their number */
size_t cs_unwind_left(cs_t *c, uint64_t sp, uint32_t func_at);
/* frames up to and including the newest trap frame close; their number (0: no trap frame) */
size_t cs_trap_return(cs_t *c);
/* the top frame closes (CS_TAIL) and func's frame takes its place; its payload, or NULL
 * (empty stack: nothing happens) */
void *cs_tail(cs_t *c, uint32_t func);
/* every frame of the current thread / of every thread closes (CS_CLEAR) */
void cs_clear(cs_t *c);
void cs_clear_all(cs_t *c);
const cs_stats_t *cs_stats(const cs_t *c);
/* a why as a word for notes */
const char *cs_why_name(cs_why_t w);
#endif
