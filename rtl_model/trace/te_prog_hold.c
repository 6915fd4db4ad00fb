/* te_prog_hold.c - teStallEnable for program trace: the encoder's stall request to its hart
 * (te_prog.h; the rule and why: te_prog.c's header, "The FIFO").
 *
 * The FIFO holds messages (entries), not bytes: one entry per message whatever its length
 * (te.c packs it when it leaves the FIFO). So the high-water mark is a count of entries: the
 * most one retirement can queue (te_prog.c, te_event.c):
 *  - BTM (3): one message (a branch message or a sync);
 *  - HTM (6): two (a conditional branch that fills HIST and the I-CNT: RESOURCE FULL RCODE 1
 *    and RCODE 0);
 *  - HTM with repeat counts (7): three (the history before a run as RESOURCE FULL RCODE 1,
 *    the run's count RCODE 8/9, then the INDIRECT BRANCH HISTORY that ended it, or RCODE 0
 *    for a full I-CNT);
 *  - one more in BTM/HTM with teContext: the Ownership message after a privilege change or
 *    a sync;
 *  - event mode (1): two (a call or trap event and the PC sample it completes), three with
 *    evControl's context bit (the ICT Context of a trap or xRET that changes the mode).
 * A software trace port event (stmControl on) of the same retirement enters the FIFO before
 * them (sim/soc.c: soc_stm_event, then prog_retire): one more. The request is up
 * when fewer entries are free (teFifo + worst case > the FIFO depth) or while an overflow's
 * Error + sync are still owed (the next tick queues them). A FIFO shallower than the worst
 * case holds the hart until it is empty: then the later messages of a retirement that queues
 * more than the FIFO holds can still be lost (documented in docs/lost-data.md). */
#include "te.h"

enum { C_ACTIVE = 1u << 0,
       C_ENABLE = 1u << 1,
       C_TRACING = 1u << 2,
       C_STALL_OR_OVERFLOW = 1u << 12,
       C_STALL_ENABLE = 1u << 13 };

unsigned te_prog_worst_case(const te_t *t) {
    unsigned n;
    if (t->prog.mode == TE_INSN_EVENT) n = 2u + ((t->evcontrol >> 5) & 1u);
    else
        n = (t->prog.mode == TE_INSN_HTM_RET ? 3u : t->prog.mode == TE_INSN_HTM ? 2u :
                                                                                  1u) +
            ((t->control & TE_C_CONTEXT) != 0);
    if (t->stm_control & 1u) n++;
    return n;
}

bool te_prog_must_hold(const te_t *t) {
    const te_prog_t *p = &t->prog;
    uint32_t on = C_ACTIVE | C_ENABLE | C_TRACING;
    /* stopped on wrap (teEnable cleared by the sink) or being stopped: nothing to hold for */
    if (!p->on || p->stopping || !(t->control & C_STALL_ENABLE) || (t->control & on) != on) return false;
    if (p->mode != TE_INSN_EVENT && p->mode != TE_INSN_BTM && p->mode != TE_INSN_HTM && p->mode != TE_INSN_HTM_RET)
        return false;
    if (t->overflow_pending) return true;
    unsigned need = te_prog_worst_case(t), depth = t->cfg.itc_depth;
    if (need > depth) need = depth;
    return t->fifo_count + need > depth;
}

bool te_prog_hold(te_t *t) {
    if (!te_prog_must_hold(t)) return false;
    t->control |= C_STALL_OR_OVERFLOW; /* "set when an overflow happened or the hart was stalled" */
    t->prog.hold_cycles++;
    return true;
}
