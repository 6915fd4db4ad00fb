/* rec_stack.h - the call stack of perf enter/exit records: what every record-driven profiler
 * (`report` from records: profile.c; `decode -f timeline`: timeline.c; `decode -f perfetto`:
 * pftrace.c) does with a record before and as it follows it, on the one call-stack model of
 * callstack.h, so that all of them close the same frames at the same record.
 *
 * The call sites (call_sites.h): the function a call returning to an address was made in is
 * the ELF symbol holding the call instruction (the return address minus one byte: a call
 * that ends a function returns to the next one's first byte), and whether that function's
 * code calls __cyg_profile_func_enter (it is instrumented: it cannot run again without an
 * enter record of its own) is read from its code (a JAL with a link register to the hook).
 * A frame's caller and an enter's call site are found by the same lookup (callstack.h, rule
 * (c) of cs_unwind_call). Without symbols nothing is repaired; without the code (no
 * executable section) no function counts as instrumented. */
#ifndef TS_REC_STACK_H
#define TS_REC_STACK_H
#include "callstack.h"
#include "perf_decode.h"
#include <stdbool.h>
#include <stdint.h>

/* the call-site resolver: the entry address of the function a call returning to ret was
 * made in (0: unknown), and whether its code calls the enter hook (call_sites.h's
 * rs_site is one) */
typedef uint64_t (*rs_site_fn)(void *ctx, uint64_t ret, bool *instrumented);

/* what rs_before did */
typedef struct rs_pre {
    size_t closed;   /* frames closed (the calls of the close function were made) */
    bool repair;     /* by an enter's call site (CS_REPAIR) */
    bool unwound;    /* by an exit of a function below the top (CS_UNWOUND) */
    uint32_t top;    /* the top frame's function before (CS_NO_FUNC: empty stack) */
    uint64_t caller; /* an enter's call site function (rs_site): the new frame's caller */
} rs_pre_t;

/* before record r (enter or exit, whole, its address known) is followed: the frames it says
 * control left by another route close: an enter whose call site lies below the top
 * (cs_unwind_call), an exit of func (the client's number for r's function; CS_NO_FUNC: none)
 * that has a frame below the top (cs_unwind_above). site may be NULL (no call-site rule). */
void rs_before(cs_t *cs, rs_site_fn site, void *site_ctx, const perf_record_t *r, uint32_t func, rs_pre_t *pre);
/* enter record r's frame for function func on top (pre: rs_before's); its payload as
 * cs_push_call's, NULL when too deep or out of memory */
void *rs_push(cs_t *cs, const perf_record_t *r, uint32_t func, const rs_pre_t *pre);
#endif
