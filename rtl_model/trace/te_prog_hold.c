/* te_prog_hold.c - teStallEnable for program trace: the encoder's stall request to its hart
 * (te_prog.h; the rule and why: te_prog.c's header, "The FIFO").
 *
 * The FIFO holds messages (entries), not bytes: one entry per message whatever its length
 * (te.c packs it when it leaves the FIFO). So the high-water mark is a count of entries: the
 * most one retirement can queue. In BTM and HTM (teInstruction 3, 6, 7) a retirement queues
 * at most one message (a branch message, a sync, or one RESOURCE FULL: te_prog.c returns after
 * each); in event mode (1) at most two (a call or trap event and the PC sample it completes,
 * te_event.c). A software trace port event (stmControl on) of the same retirement enters the
 * FIFO before them (sim/soc.c: soc_stm_event, then prog_retire): one more. The request is up
 * when fewer entries are free (teFifo + worst case > the FIFO depth) or while an overflow's
 * Error + sync are still owed (the next tick queues them). A FIFO shallower than the worst
 * case holds the hart until it is empty: then the second message of an event-mode retirement
 * can still be lost (documented in docs/lost-data.md). */
#include "te.h"

enum { C_ACTIVE = 1u << 0, C_ENABLE = 1u << 1, C_TRACING = 1u << 2, C_STALL_OR_OVERFLOW = 1u << 12,
       C_STALL_ENABLE = 1u << 13 };

unsigned te_prog_worst_case(const te_t *t) {
    unsigned n = t->prog.mode == TE_INSN_EVENT ? 2u : 1u;
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
    t->control |= C_STALL_OR_OVERFLOW;   /* "set when an overflow happened or the hart was stalled" */
    t->prog.hold_cycles++;
    return true;
}
