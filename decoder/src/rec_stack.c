/* rec_stack.c - the call stack of perf enter/exit records (rec_stack.h). */
#include "rec_stack.h"
#include <stdlib.h>
#include <string.h>

void rs_before(cs_t *cs, rs_site_fn site, void *site_ctx, const perf_record_t *r, uint32_t func, rs_pre_t *pre) {
    memset(pre, 0, sizeof *pre);
    const cs_frame_t *top = cs_top(cs);
    pre->top = top ? top->func : CS_NO_FUNC;
    if (r->type == PERF_FUNC_ENTER && r->has_call_site) {
        bool instr = false;
        pre->caller = site ? site(site_ctx, r->call_site, &instr) : 0;
        if (top && pre->caller && (pre->closed = cs_unwind_call(cs, r->addr, pre->caller, instr, r->call_site))) pre->repair = true;
    } else if (r->type == PERF_FUNC_EXIT && top && func != CS_NO_FUNC && top->func != func) {
        if ((pre->closed = cs_unwind_above(cs, func))) pre->unwound = true;
    }
}

void *rs_push(cs_t *cs, const perf_record_t *r, uint32_t func, const rs_pre_t *pre) {
    return cs_push_call(cs, func, r->addr, r->has_call_site ? r->call_site : 0, pre->caller);
}
