/* te_prog.c - program trace: BTM (teInstruction 3) and HTM (6, 7); see te_prog.h. Event /
 * PC-sample mode (teInstruction 1) is in te_event.c, fed from te_prog_retire.
 *
 * Facts: ../shared/spec/trace-hw-facts.md 1.2 (teInstruction, teSyncMaxBTM/Inst), 1.6
 * (tsBranch), 4.4 (fields per TCODE, SYNC/B-TYPE/EVCODE codes), 4.6 (F-ADDR = pc >> 1, U-ADDR
 * = (pc XOR the last reported address) >> 1, I-CNT in 16-bit units including the instruction
 * that causes the message, BTM: taken conditional branch -> DIRECT BRANCH, indirect jump,
 * return and trap -> INDIRECT BRANCH, not-taken branches and direct jumps only count; trace
 * stop -> Correlation EVCODE 4), 4.9 (counts flushed before a sync). Where the facts file is
 * silent the model decides, as follows (the ratified N-Trace specification was not needed for
 * these; the decoder the messages must satisfy is decoder/src/prog_flow.c, which follows
 * SiFive's dqr):
 *  - Trace start (teTracing and teEnable set with teInstruction 3) emits SYNC (TCODE 9,
 *    SYNC 5 "trace enable", I-CNT 0) in place of the ITC-only ICT-WS; its F-ADDR is the pc
 *    after the store that started tracing: that store, and the one that stops tracing, are
 *    not traced. Trace stop emits Correlation (TCODE 33, EVCODE 4, CDF 0) with the I-CNT
 *    left, in place of the ITC-only ICT trace-off message.
 *  - Traps: INDIRECT BRANCH with B-TYPE 1 (SiFive v0: exception or interrupt) and the
 *    handler's address. ECALL / EBREAK / C.EBREAK count in the I-CNT (the E31 capture's
 *    listing shows them executed); an instruction that faults otherwise, and one an
 *    interrupt preempts, do not (they did not execute).
 *  - xRET: INDIRECT BRANCH, B-TYPE 0, the return address.
 *  - teSyncMaxBTM = n (not 15): after 2^(n+5) branch messages since the last sync-type
 *    message the next branch message is its sync form (DIRECT BRANCH WS 11 / INDIRECT BRANCH
 *    WS 12, SYNC 2 "periodic", F-ADDR = the target).
 *  - teSyncMaxInst = n (not 15): when the I-CNT reaches 2^(n+5) units at an instruction that
 *    emits no message, SYNC (9) with SYNC 4 "I-CNT overflow", the I-CNT and F-ADDR = the
 *    next pc; with 15 the same when the 16-bit counter would overflow (TE_ICNT_MAX). In BTM
 *    this sync is how a full I-CNT is reported: a RESOURCE FULL makes SiFive's decoder (and
 *    ours) switch to HTM (facts 4.9), which BTM's direct-branch messages cannot satisfy.
 *  - Timestamps (tsEnable set): sync-type messages (9, 11, 12) carry the full time whatever
 *    tsBranch says (the only full time of a program-traced run, needed by ITC/perf records
 *    too); INDIRECT BRANCH gets a relative time when tsBranch is 1 or 3; DIRECT BRANCH and
 *    Correlation when tsBranch is 3. The time is that of the cycle the instruction
 *    retired in (the timestamp an ITC store committing in that cycle gets).
 *  - The FIFO: branch messages take the same room check as stimulus stores. A retired
 *    instruction cannot be held, so the encoder holds the hart before it retires (facts 1.2
 *    teStallEnable "the hart stalls until space is available", 8.1 item 9 "back-pressure the
 *    hart"): with teStallEnable set it raises a stall request whenever the FIFO cannot take
 *    the most one more retirement may queue (a high-water mark in FIFO entries, since the
 *    FIFO holds whole messages: 1 in BTM and HTM, 2 in event mode, +1 with the software trace
 *    port on; te_prog_hold.c), and sim/soc.c does not clock the hart while it is up (the
 *    trace subsystem, the timers and the other harts run on; mcycle counts, minstret does
 *    not). teStallOrOverflow is set by every held cycle. So with teStallEnable no branch
 *    message is lost (event mode needs a FIFO of 2 entries or more for that). Without it, a
 *    branch message that finds the FIFO full is lost (teStallOrOverflow, Error, then the ITC
 *    sync, and a SYNC (9) with SYNC 7 "FIFO overrun" at the first later retirement that finds
 *    room, whose F-ADDR is the pc after it: the instructions between the lost message and
 *    that pc are a gap). A sync owed at trace start waits for room the same way.
 *  - HTM (6, 7; facts 4.6, 4.9): a conditional branch's outcome goes into HIST (a 1 stop bit,
 *    then the outcomes, newest in bit 0) and no message; indirect jumps, xRETs and traps give
 *    INDIRECT BRANCH HISTORY (28; 29 as the periodic sync form) with the I-CNT, the address
 *    and HIST, which then restarts at 1. HIST is 32 bits: when the 31st outcome fills it,
 *    RESOURCE FULL RCODE 1 carries it (the I-CNT goes on, the decoder walks the outcomes with
 *    the counts still to come); a full I-CNT gives RESOURCE FULL RCODE 0 (HIST goes on).
 *    Trace stop: Correlation with CDF 1 and HIST. teInstruction 7 also keeps a return stack
 *    of TE_RSTACK_DEPTH (2048) entries, the decoder's depth (prog_flow.h): a call (JAL/JALR/
 *    C.JAL/C.JALR writing x1 or x5) pushes its return address, pushes beyond the depth are
 *    dropped; a return (JALR/C.JR reading x1/x5, not writing the same link) pops, and gets
 *    no message when it goes where the popped entry says (the decoder pops the same entry);
 *    every sync empties the stack. The sync forms: periodic per teSyncMaxBTM, counting every
 *    program trace message but Ownership (RESOURCE FULL too: a loop of conditional branches
 *    sends nothing else, and without them its trace never synchronised again, so a wrapped
 *    buffer decoded to nothing), as INDIRECT BRANCH HISTORY WS (29) at the next INDIRECT
 *    BRANCH HISTORY or conditional branch. At a branch its I-CNT ends with the branch, HIST
 *    holds the outcomes before it and F-ADDR, where the branch went, gives its outcome: dqr
 *    (Trace::nextAddr, behaviour only) takes a branch that ends a 29's I-CNT with no history
 *    left that way, and so does decoder/src/prog_flow.c; with 7 a run being counted is
 *    sent first. Never a SYNC (9): with outcomes pending it would break the decoder (4.9).
 *  - teInstruction 7, repeat-branch optimisation (facts 1.2 name it, 4.4 give RESOURCE FULL
 *    RCODE 8 = not-taken count, 9 = taken count, SiFive vendor codes; how they combine with
 *    HIST and I-CNT is from dqr's source, behaviour only: Count::setCounts /
 *    getCurrentCountType and Trace::nextAddr): dqr takes a conditional branch's outcome
 *    from HIST while bits are left, then from the taken count, then from the not-taken
 *    count, then waits for the next message; a RESOURCE FULL 1/8/9 (or 28/29) arriving
 *    while HIST or a count is unused is an error ("Counts not exhausted"); a count of 0 is
 *    ignored; the counts carry no I-CNT (the walk runs I-CNT negative, the next message's
 *    I-CNT pays). So: when TE_REP_MIN (16) newest outcomes are equal they leave HIST for a
 *    counter; a further equal outcome counts; when the run ends (another outcome, before an
 *    INDIRECT BRANCH HISTORY, at trace stop) the outcomes left in HIST go first as RCODE 1
 *    (any length: dqr reads to the stop bit), then RCODE 9/8 with the count; a counter at
 *    TE_REP_MAX (0xFFFF) is sent at once. The messages are timed when they are sent (the run's
 *    end). N-Trace's RCODE 2 (repeated history) is not produced: dqr rejects it. 16 gave the
 *    fewest bits on fib and timer_isr (docs/program-trace.md). teInstruction 6 sends HIST
 *    only ("without optimisation").
 *  - WARL: teInstruction 1, 3, 6 and 7 read back as written (the probe "write 7, read back"
 *    answers HTM available); 2, 4 and 5 read back 0.
 *  - Privilege (facts 4.4: Ownership PROCESS = FORMAT[1:0], PRV[3:2], V[4], context[31:5];
 *    1.2: bits 11:9 undescribed in v0, TCI v1's trTeContext is bit 9; 1.6 tsOwnership; 4.9:
 *    dqr switches BTM -> HTM on Ownership). Where the facts are silent the ratified N-Trace
 *    specification (tg-nexus-trace, "Ownership Message", "Synchronizing Messages" and its
 *    corner cases) decides: Ownership needs the enable trTeContext, here teContext =
 *    teControl bit 9 (reset 0; `run --trace-context` forces it); it is sent "in the event of a
 *    trap or trap return that results in a change in privilege mode (including ECALL and
 *    EBREAK)", after the message describing the instructions up to that trap or xRET (the
 *    corner-case table: the branch message, then "optionally, an Ownership message describing
 *    privilege level of new exception/interrupt handler"), so after this retirement's branch
 *    message; and "immediately after all synchronizing messages" (9, 11, 12, 29 here), with
 *    the current mode. PROCESS = PRV << 2: FORMAT 0 (V/PRV change) also after a sync, not
 *    N-Trace's FORMAT 2 ("sync or scontext change"): the hart implements no scontext, and
 *    FORMAT 2 is the software trace port's THREAD_SWITCH in this project (stm.def), which a
 *    decoder could not tell apart; dqr takes the mode from FORMAT 0 as from 2. V is 0 (no
 *    hypervisor). The mode comes from the core's flop after the retirement's edge
 *    (te_prog_priv, called by the SoC). Timestamp: relative, when tsOwnership is set. An
 *    Ownership message that finds the FIFO full is lost like a branch message (the resync's
 *    SYNC 7 is followed by one with the mode then); in a gap changes are not reported. The
 *    one that follows a sync takes the FIFO's reserve if need be (as the Correlation at trace
 *    stop does): a sync and its report go together, else a 1-entry FIFO would lose every
 *    report and resync forever.
 *    teContext is off by default because dqr's BTM -> HTM switch on Ownership breaks its
 *    decoding of our BTM traces (checked by hand: fib with teContext decodes 84 of 129500
 *    instructions, "still has counts" at the first conditional branch; HTM traces with
 *    Ownership decode exactly); our decoder (decoder/src/prog_flow.c) does not switch.
 *    Event mode: ICT Context (te_event.c). */
#include "te.h"

static bool rep_flush(te_t *t);

enum { C_ACTIVE = 1u << 0,
       C_ENABLE = 1u << 1,
       C_TRACING = 1u << 2 };

unsigned te_prog_warl(const te_prog_t *p, unsigned written) {
    if (!written && p->force) written = p->force;
    return written == 1 || written == 3 || written == 6 || written == 7 ? written : TE_INSN_OFF;
}

static bool running(uint32_t c) {
    return (c & (C_ACTIVE | C_ENABLE | C_TRACING)) == (C_ACTIVE | C_ENABLE | C_TRACING) &&
           ((c >> 4) & 7u) != TE_INSN_OFF;
}

void te_prog_control(te_t *t, uint32_t old, uint32_t nv) {
    te_prog_t *p = &t->prog;
    (void)old;
    p->mode = (nv >> 4) & 7u;
    bool now = running(nv);
    if (p->on && !p->stopping && !now) { /* trace stop: Correlation with the I-CNT left */
        if (p->mode == TE_INSN_EVENT) {  /* event mode: ICT trace off (te_event.c) */
            if (p->sync_owed != NX_SYNC_TRACE_ENABLE) te_event_stop(t);
        } else if (!p->lost && !p->sync_owed && rep_flush(t) && t->fifo_count < t->fifo_cap) {
            te_entry_t e = {.kind = TE_PROG, .tcode = NX_CORRELATION, .code = NX_EVCODE_TRACE_OFF, .data = p->icnt, .btype = p->mode >= TE_INSN_HTM, .idtag = p->hist}; /* btype: CDF */
            te_fifo_put(t, &e);
            p->messages++;
        }
        p->stopping = true; /* `on` until the store that stopped it retires */
        p->sync_owed = 0;
        p->lost = false;
    } else if ((!p->on || p->stopping) && now) { /* trace start: a sync at the next retirement */
        p->on = true;
        p->stopping = false;
        p->gt_start = true;
        p->sync_owed = NX_SYNC_TRACE_ENABLE;
        p->lost = false;
        p->icnt = 0;
        p->hist = 1;
        p->tail = p->rep = 0;
        p->sp = 0;
        p->msgs_since_sync = 0;
    }
}

void te_prog_sink_stopped(te_t *t) {
    te_prog_t *p = &t->prog;
    if (!p->on || p->stopping) return;
    p->stopping = true;
    p->sync_owed = 0;
    p->lost = false;
}

/* instruction classes the encoder needs (RV32IC/RV64IC encodings: the same for these) */
enum { K_OTHER,
       K_BRANCH,
       K_JALR,
       K_XRET,
       K_ECALL };

/* queues a message (room checked); a lost one stops counting until the resync. A message
 * reports (and clears) the I-CNT, HTM's history too, except RESOURCE FULL (RCODE 1 reports
 * only the history, RCODE 0 only the I-CNT, 8/9 only a repeat count) */
static void emit(te_t *t, te_entry_t *e) {
    te_prog_t *p = &t->prog;
    if (!te_fifo_room(t)) {
        te_fifo_lost(t);
        p->lost = true;
        p->lost_messages++;
        return;
    }
    te_fifo_put(t, e);
    p->messages++;
    if (e->tcode == NX_OWNERSHIP) return; /* Ownership: no counts, no branch message */
    if (e->tcode == NX_SYNC || e->tcode == NX_DIRECT_BRANCH_WS || e->tcode == NX_INDIRECT_BRANCH_WS || e->tcode == NX_INDIRECT_BRANCH_HIST_WS) p->sync_sent = true;
    if (e->tcode != NX_RESOURCE_FULL || e->code == NX_RCODE_ICNT) p->icnt = 0;
    if (e->tcode != NX_RESOURCE_FULL || e->code == NX_RCODE_HIST) {
        p->hist = 1;
        p->tail = 0;
    }
    if (e->tcode == NX_SYNC || e->tcode == NX_DIRECT_BRANCH_WS || e->tcode == NX_INDIRECT_BRANCH_WS || e->tcode == NX_INDIRECT_BRANCH_HIST_WS) {
        p->msgs_since_sync = 0;
        p->sp = 0; /* every sync empties the return stack (dqr's resetStack) */
    } else
        p->msgs_since_sync++; /* HTM: RESOURCE FULL too (a loop of branches sends only those) */
}

/* teInstruction 7: a run being counted ends: the outcomes before it (HIST, if any: RESOURCE
 * FULL RCODE 1), then the count (RCODE 9 taken / 8 not taken). dqr takes a conditional
 * branch's outcome from HIST first, then the taken count, then the not-taken count, and
 * refuses a count while HIST is unused, so the history must go first, in its own message. */
static bool rep_flush(te_t *t) {
    te_prog_t *p = &t->prog;
    if (!p->rep) return true;
    if (p->hist != 1) {
        te_entry_t h = {.kind = TE_PROG, .tcode = NX_RESOURCE_FULL, .code = NX_RCODE_HIST, .idtag = p->hist};
        emit(t, &h);
    }
    if (!p->lost) {
        te_entry_t c = {.kind = TE_PROG, .tcode = NX_RESOURCE_FULL, .code = p->rep_taken ? NX_RCODE_TAKEN : NX_RCODE_NOT_TAKEN, .idtag = p->rep};
        emit(t, &c);
    }
    p->rep = 0;
    return !p->lost;
}

/* one conditional-branch outcome into HIST, or into the run being counted (7) */
static void htm_outcome(te_t *t, bool taken) {
    te_prog_t *p = &t->prog;
    if (p->rep) {
        if (taken == p->rep_taken) {
            if (++p->rep == TE_REP_MAX) rep_flush(t); /* the counter is full */
            return;
        }
        if (!rep_flush(t)) return;
    }
    p->tail = p->tail && (p->hist & 1u) == taken ? p->tail + 1 : 1;
    p->hist = p->hist << 1 | taken;
    if (p->mode == TE_INSN_HTM_RET && p->tail == TE_REP_MIN) { /* a run: out of HIST, counted */
        p->hist >>= TE_REP_MIN;
        p->rep = TE_REP_MIN;
        p->rep_taken = taken;
        p->tail = 0;
        return;
    }
    if (p->hist & 0x80000000u) { /* full: RESOURCE FULL, RCODE 1 */
        te_entry_t f = {.kind = TE_PROG, .tcode = NX_RESOURCE_FULL, .code = NX_RCODE_HIST, .idtag = p->hist};
        emit(t, &f);
    }
}

static bool is_link(unsigned r) { return r == 1 || r == 5; }
static void rs_push(te_prog_t *p, uint64_t a) {
    if (p->sp < TE_RSTACK_DEPTH) p->stack[p->sp++] = a;
}

/* HTM: I-CNT full (teSyncMaxInst's limit, or the 16-bit counter): RESOURCE FULL, RCODE 0 */
static void htm_icnt_full(te_t *t) {
    te_prog_t *p = &t->prog;
    unsigned maxinst = (t->control >> 20) & 15u;
    uint32_t limit = maxinst != 15 ? 1u << (maxinst + 5) : TE_ICNT_MAX - 1;
    if (p->icnt >= limit) {
        te_entry_t f = {.kind = TE_PROG, .tcode = NX_RESOURCE_FULL, .code = NX_RCODE_ICNT, .data = p->icnt};
        emit(t, &f);
    }
}

/* HTM: one retirement (its units already counted) */
static void htm_retire(te_t *t, unsigned k, uint64_t pc, uint32_t insn, uint64_t npc, bool trap, unsigned units,
                       bool sync) {
    te_prog_t *p = &t->prog;
    if (!trap && k == K_BRANCH && sync) { /* the periodic sync at a branch */
        if (!rep_flush(t)) return;
        te_entry_t e = {.kind = TE_PROG, .tcode = NX_INDIRECT_BRANCH_HIST_WS, .code = NX_SYNC_PERIODIC, .data = p->icnt, .addr = npc, .idtag = p->hist}; /* HIST: the outcomes before it; F-ADDR gives its own */
        emit(t, &e);
        return;
    }
    if (!trap && k == K_BRANCH) { /* the outcome into the history */
        htm_outcome(t, npc != pc + 2 * units);
        if (!p->lost) htm_icnt_full(t); /* a loop of branches only counts too */
        return;
    }
    if (!trap && (insn & 0x7Fu) == 0x6Fu && is_link((insn >> 7) & 31u)) rs_push(p, pc + 4);          /* jal, rd link */
    if (!trap && !t->cfg.rv64 && (insn & 3u) == 1u && ((insn >> 13) & 7u) == 1u) rs_push(p, pc + 2); /* c.jal (RV32; C.ADDIW on RV64) */
    if (trap || k == K_JALR || k == K_XRET) {
        if (!trap && k == K_JALR) {
            bool c16 = (insn & 3u) != 3u;
            unsigned rd = c16 ? ((insn >> 12) & 1u) : (insn >> 7) & 31u;
            unsigned rs1 = c16 ? (insn >> 7) & 31u : (insn >> 15) & 31u;
            bool ret = is_link(rs1) && (!is_link(rd) || rd != rs1);
            uint64_t top = 0;
            bool had = false;
            if (ret && p->sp) {
                top = p->stack[--p->sp];
                had = true;
            }
            if (is_link(rd)) rs_push(p, pc + 2 * units);
            /* teInstruction 7: a return to where the stack says is inferred, no message */
            if (ret && had && top == npc && p->mode == TE_INSN_HTM_RET) return;
        }
        if (!rep_flush(t)) return;
        te_entry_t e = {.kind = TE_PROG, .data = p->icnt, .addr = npc, .idtag = p->hist};
        e.tcode = sync ? NX_INDIRECT_BRANCH_HIST_WS : NX_INDIRECT_BRANCH_HIST;
        e.btype = trap ? NX_B_TYPE_TRAP : NX_B_TYPE_INDIRECT;
        e.code = NX_SYNC_PERIODIC;
        emit(t, &e);
        return;
    }
    htm_icnt_full(t);
}

static unsigned classify(uint32_t insn) {
    if ((insn & 3u) == 3u) {
        switch (insn & 0x7Fu) {
        case 0x63: return K_BRANCH;
        case 0x67: return K_JALR;
        case 0x73:
            if (insn == 0x00000073u || insn == 0x00100073u) return K_ECALL;
            if (insn == 0x30200073u || insn == 0x10200073u || insn == 0x00200073u) return K_XRET;
            return K_OTHER;
        default: return K_OTHER;
        }
    }
    unsigned q = insn & 3u, f3 = (insn >> 13) & 7u;
    if (q == 1 && (f3 == 6 || f3 == 7)) return K_BRANCH; /* c.beqz / c.bnez */
    if (q == 2 && f3 == 4 && ((insn >> 2) & 0x1Fu) == 0) {
        if (((insn >> 7) & 0x1Fu) != 0) return K_JALR; /* c.jr / c.jalr */
        if (insn & 0x1000u) return K_ECALL;            /* c.ebreak */
    }
    return K_OTHER;
}

static void retire(te_t *t, uint64_t pc, uint32_t insn, uint64_t npc, bool trap, uint64_t cause) {
    te_prog_t *p = &t->prog;
    p->gt_start = false;
    if (p->stopping) { /* the store that stopped tracing */
        p->on = p->stopping = false;
        return;
    }
    if (p->mode == TE_INSN_EVENT) {
        te_event_retire(t, pc, insn, npc, trap, cause);
        return;
    }
    if (p->sync_owed) { /* trace start or resync: flow starts at npc */
        /* the Error and its ITC sync come first; no room: the next retirement tries again (the
         * gap grows, nothing more is lost) */
        if (t->overflow_pending || !te_fifo_room(t)) return;
        p->lost = false;
        p->icnt = 0;
        p->hist = 1;
        p->tail = p->rep = 0;
        p->sp = 0;
        te_entry_t e = {.kind = TE_PROG, .tcode = NX_SYNC, .code = p->sync_owed, .addr = npc};
        p->sync_owed = 0;
        emit(t, &e);
        return;
    }
    if (p->lost) return; /* a gap: until the resync */
    unsigned k = classify(insn), units = (insn & 3u) == 3u ? 2 : 1;
    if (trap && k != K_ECALL) units = 0; /* it did not execute */
    p->icnt += units;
    p->retired += units != 0;
    te_entry_t e = {.kind = TE_PROG, .data = p->icnt, .addr = npc};
    unsigned maxbtm = (t->control >> 16) & 15u;
    bool sync = maxbtm != 15 && p->msgs_since_sync >= (1u << (maxbtm + 5));
    if (p->mode >= TE_INSN_HTM) {
        htm_retire(t, k, pc, insn, npc, trap, units, sync);
        return;
    }
    if (trap || k == K_JALR || k == K_XRET) {
        e.tcode = sync ? NX_INDIRECT_BRANCH_WS : NX_INDIRECT_BRANCH;
        e.btype = trap ? NX_B_TYPE_TRAP : NX_B_TYPE_INDIRECT;
        e.code = NX_SYNC_PERIODIC;
        emit(t, &e);
        return;
    }
    if (k == K_BRANCH && npc != pc + 2 * units) {
        e.tcode = sync ? NX_DIRECT_BRANCH_WS : NX_DIRECT_BRANCH;
        e.code = NX_SYNC_PERIODIC;
        emit(t, &e);
        return;
    }
    unsigned maxinst = (t->control >> 20) & 15u;
    uint32_t limit = maxinst != 15 ? 1u << (maxinst + 5) : TE_ICNT_MAX - 1;
    if (p->icnt >= limit) {
        e.tcode = NX_SYNC;
        e.code = NX_SYNC_ICNT_OVF;
        emit(t, &e);
    }
}

/* BTM/HTM, after the retirement's own messages: the Ownership message (TCODE 2, PROCESS =
 * PRV << 2: FORMAT 0, V 0, no context) when teContext is set and the privilege changed, or a
 * sync-type message went out (N-Trace: Ownership follows every synchronising message) */
static void ownership(te_t *t) {
    te_prog_t *p = &t->prog;
    bool report = (t->control & TE_C_CONTEXT) && !p->lost && !p->sync_owed &&
                  (p->priv != p->rep_priv || p->sync_sent);
    p->rep_priv = p->priv; /* not reported (off, in a gap): the next sync reports it */
    if (!report) return;
    te_entry_t e = {.kind = TE_PROG, .tcode = NX_OWNERSHIP, .data = (uint32_t)p->priv << 2};
    if (p->sync_sent && t->fifo_count < t->fifo_cap) { /* goes with its sync (the reserve) */
        te_fifo_put(t, &e);
        p->messages++;
        return;
    }
    emit(t, &e);
}

void te_prog_retire(te_t *t, uint64_t pc, uint32_t insn, uint64_t npc, bool trap, uint64_t cause) {
    te_prog_t *p = &t->prog;
    if (!p->on) return;
    bool was_stopping = p->stopping;
    p->sync_sent = false;
    retire(t, pc, insn, npc, trap, cause);
    if (!was_stopping && p->mode != TE_INSN_EVENT) ownership(t);
}

void te_prog_pack(te_t *t, const te_entry_t *e, nx_msg_t *m, bool *full, bool *rel) {
    unsigned tsb = (t->ts.control >> 16) & 3u;
    if (e->tcode == NX_OWNERSHIP) { /* PROCESS */
        nx_var(m, e->data);
        *full = false;
        *rel = (t->ts.control >> 19) & 1u; /* tsOwnership */
        return;
    }
    bool ws = e->tcode == NX_SYNC || e->tcode == NX_DIRECT_BRANCH_WS || e->tcode == NX_INDIRECT_BRANCH_WS || e->tcode == NX_INDIRECT_BRANCH_HIST_WS;
    bool ind = e->tcode == NX_INDIRECT_BRANCH || e->tcode == NX_INDIRECT_BRANCH_HIST;
    if (e->tcode == NX_ICT || e->tcode == NX_ICT_WS) {
        te_event_pack(t, e, m, full, rel);
        return;
    }
    if (e->tcode == NX_RESOURCE_FULL) { /* RCODE, RDATA */
        nx_fixed(m, e->code, NX_W_RCODE);
        nx_var(m, e->code ? e->idtag : e->data);
        *full = false;
        *rel = tsb == 3;
        return;
    }
    if (ws) nx_fixed(m, e->code, NX_W_SYNC); /* SYNC */
    if (e->tcode == NX_CORRELATION) {        /* EVCODE, CDF */
        nx_fixed(m, e->code, NX_W_EVCODE);
        nx_fixed(m, e->btype, NX_W_CDF);
    }
    if (ind || e->tcode == NX_INDIRECT_BRANCH_WS || e->tcode == NX_INDIRECT_BRANCH_HIST_WS) nx_fixed(m, e->btype, NX_W_B_TYPE); /* B-TYPE */
    nx_var(m, e->data);                                                                                                         /* I-CNT */
    if (ws) {
        nx_var(m, e->addr >> 1); /* F-ADDR */
        t->prog.last_addr = e->addr;
    } else if (ind) {
        nx_var(m, (e->addr ^ t->prog.last_addr) >> 1); /* U-ADDR */
        t->prog.last_addr = e->addr;
    }
    if (e->tcode == NX_INDIRECT_BRANCH_HIST || e->tcode == NX_INDIRECT_BRANCH_HIST_WS || (e->tcode == NX_CORRELATION && e->btype)) nx_var(m, e->idtag); /* HIST */
    *full = ws;
    *rel = !ws && (ind ? tsb == 1 || tsb == 3 : tsb == 3);
}
