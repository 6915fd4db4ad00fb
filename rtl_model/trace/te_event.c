/* te_event.c - event / PC-sample mode of program trace (teInstruction 1); see te_prog.h. Fed
 * the same retirements as BTM/HTM (te_prog_retire passes them on), through the same FIFO.
 *
 * Facts: ../shared/spec/trace-hw-facts.md 1.2 (teInstruction 1; teSyncMaxInst 0 = periodic
 * PC sampling, 15 = off), 1.9 (evControl bits 0..5: trigger, watchpoint, call, interrupt,
 * exception, context; OpenOCD's "all" = evControl 0x3F with teSyncMaxInst 0), 4.4 (In-Circuit-
 * Trace messages TCODE 34/35: CKSRC[4], CKDF[2], CKDATA0, CKDATA1 if CKDF 1; CKSRC 0 control
 * (codes 2 trace on, 3 trace off), 9 inferable call (CKDF 1: address, XOR of source and
 * destination), 10 exception and 11 interrupt (CKDF 1: address, cause), 15 PC sample (CKDF
 * 0: address); TCODE 34's address XOR-compressed like U-ADDR, TCODE 35's a full F-ADDR; "event
 * traces begin with TCODE 35, CKSRC 0, CKDF 1, F-ADDR, 2 (trace on)"), 4.5 (timestamps), 4.6
 * (addresses >> 1). Where the facts are silent the model decides (the ratified N-Trace text
 * was not needed):
 *  - Trace start: TCODE 35, CKSRC 0, CKDF 1, CKDATA0 = F-ADDR of the pc after the store that
 *    started tracing (as BTM's SYNC 5), CKDATA1 = 2, full timestamp; it replaces the ITC-only
 *    ICT-WS Control(0,0). Trace stop: TCODE 34, CKSRC 0, CKDF 0, CKDATA0 = 3 (the ITC-only
 *    trace-off message, emitted when teControl is written, relative timestamp).
 *  - Calls (evControl bit 2): JAL / JALR writing x1 or x5, C.JAL, C.JALR: CKSRC 9, CKDF 1,
 *    CKDATA0 = the call's own pc, CKDATA1 = (pc XOR target) >> 1 (bit 0 of both is 0, like
 *    every address field; the target is CKDATA0's address XOR CKDATA1 << 1).
 *  - Traps: mcause bit 31 set -> interrupt (evControl bit 3, CKSRC 11), else exception (bit
 *    4, CKSRC 10); CKDF 1, CKDATA0 = the trap's pc (the mepc it writes: the faulting or
 *    ECALL/EBREAK instruction, or the one the interrupt preempted), CKDATA1 = mcause without
 *    bit 31 (the CKSRC says which kind).
 *  - PC samples (teSyncMaxInst = 0): one every TE_PC_SAMPLE_PERIOD (256) executed
 *    instructions, counted from trace start: CKSRC 15, CKDF 0, the pc of the instruction that
 *    made the count 256. A call or trap that is itself sampled gives both messages, the
 *    event first. The facts give no period; 256 keeps a sample's bits (~5 bytes) near 0.16
 *    bits per instruction. `run --trace-insn event` forces teSyncMaxInst 0 with the forced
 *    mode (OpenOCD's "all"), and evControl resets to 0x3F.
 *  - Context (evControl bit 5; facts 4.4: CKSRC 13, CKDF 1 required, CKDATA0 an address,
 *    CKDATA1 the context, low 2 bits a tag, dqr: "the address of the instruction prior to
 *    doing the context switch"): a retirement after which the hart's privilege differs from
 *    the last one seen (a trap, an xRET) gives CKSRC 13, CKDF 1, CKDATA0 = that trap's pc
 *    (mepc) or xRET's pc, CKDATA1 = PRV << 2 (the Ownership PROCESS layout, tag 0: V/PRV
 *    change; dqr does not decode the mode from it), after the trap's exception/interrupt
 *    event. The mode at trace start is not reported (the facts give event mode no sync
 *    report).
 *  - Trigger and watchpoint events (no triggers or watchpoints are modelled): never emitted.
 *  - The first event after trace start is the trace-on message (TCODE 35); after an overflow
 *    (Error, then the ITC sync ICT-WS Control(0,0) with the full time) the next event
 *    message is TCODE 35 with the full address, and TCODE 34 otherwise (XOR with the last
 *    address any message of this encoder reported).
 *  - Timestamps (tsEnable): every ICT message carries one, as the ITC-only ICT messages do
 *    (and as captures with tsBranch 3 show): full on TCODE 35, relative on 34; the time of
 *    the retire cycle, as in BTM.
 *  - The FIFO: the room check of a stimulus store; with teStallEnable the hart is held before
 *    a retirement while the FIFO has fewer than 2 free entries (te_prog_hold.c: an event and
 *    a PC sample), so nothing is lost if the FIFO has 2 entries or more. Without it an event
 *    that finds no room is lost (teStallOrOverflow, Error + sync); later events are emitted
 *    as soon as there is room again. */
#include "te.h"

enum { EV_CALL = 1u << 2,
       EV_INTERRUPT = 1u << 3,
       EV_EXCEPTION = 1u << 4,
       EV_CONTEXT = 1u << 5 };

/* queues one ICT message: TCODE 35 when a full address is owed, 34 otherwise */
static void ev_emit(te_t *t, unsigned cksrc, unsigned ckdf, uint64_t addr, uint64_t data1) {
    te_prog_t *p = &t->prog;
    if (!te_fifo_room(t)) {
        te_fifo_lost(t);
        p->lost_messages++;
        p->ev_full = true;
        return;
    }
    if (t->overflow_pending) te_fifo_resync(t);                 /* Error + ITC sync come first */
    if (p->sync_owed == NX_SYNC_FIFO_OVERRUN) p->sync_owed = 0; /* (set by the resync: nothing to count) */
    te_entry_t e = {.kind = TE_PROG, .tcode = p->ev_full ? NX_ICT_WS : NX_ICT, .code = (uint8_t)cksrc, .btype = (uint8_t)ckdf, .addr = addr, .data = data1};
    te_fifo_put(t, &e);
    p->ev_full = false;
    p->messages++;
}

static bool is_link(unsigned r) { return r == 1 || r == 5; }

/* a call: JAL/JALR with rd x1 or x5, C.JAL (RV32 only: C.ADDIW on RV64), C.JALR */
static bool is_call(uint32_t insn, bool rv64) {
    if ((insn & 3u) == 3u) {
        unsigned op = insn & 0x7Fu;
        return (op == 0x6Fu || op == 0x67u) && is_link((insn >> 7) & 31u);
    }
    if ((insn & 0xE003u) == 0x2001u) return !rv64;          /* c.jal */
    return (insn & 0xF07Fu) == 0x9002u && (insn & 0x0F80u); /* c.jalr */
}

void te_event_retire(te_t *t, uint64_t pc, uint32_t insn, uint64_t npc, bool trap, uint64_t cause) {
    te_prog_t *p = &t->prog;
    if (p->sync_owed == NX_SYNC_TRACE_ENABLE) {              /* the store that started tracing: trace on */
        if (t->overflow_pending || !te_fifo_room(t)) return; /* waits for room, as BTM's sync */
        p->sync_owed = 0;
        p->ev_full = true;
        p->ev_count = 0;
        p->rep_priv = p->priv;
        ev_emit(t, NX_CKSRC_CONTROL, 1, npc, NX_CONTROL_TRACE_ON);
        return;
    }
    if (p->sync_owed == NX_SYNC_FIFO_OVERRUN) { /* after an overflow */
        p->sync_owed = 0;
        p->ev_full = true;
    }
    bool sys = insn == 0x00000073u || insn == 0x00100073u || insn == 0x9002u; /* ecall, ebreak */
    bool executed = !trap || sys;
    if (trap) {
        unsigned msb = t->cfg.rv64 ? 63 : 31; /* mcause's Interrupt bit */
        bool irq = (cause >> msb) & 1u;
        if (t->evcontrol & (irq ? EV_INTERRUPT : EV_EXCEPTION))
            ev_emit(t, irq ? NX_CKSRC_INTERRUPT : NX_CKSRC_EXCEPTION, 1, pc, cause & ~(1ull << msb));
    } else if ((t->evcontrol & EV_CALL) && is_call(insn, t->cfg.rv64)) {
        ev_emit(t, NX_CKSRC_CALL, 1, pc, (pc ^ npc) >> 1);
    }
    if (p->priv != p->rep_priv) { /* a trap or xRET changed the privilege */
        p->rep_priv = p->priv;
        if (t->evcontrol & EV_CONTEXT) ev_emit(t, NX_CKSRC_CONTEXT, 1, pc, (uint32_t)p->priv << 2);
    }
    if (executed) p->retired++;
    if (executed && ((t->control >> 20) & 15u) == 0 && ++p->ev_count >= TE_PC_SAMPLE_PERIOD) {
        p->ev_count = 0;
        ev_emit(t, NX_CKSRC_PC_SAMPLE, 0, pc, 0);
    }
}

void te_event_stop(te_t *t) {
    if (t->fifo_count >= t->fifo_cap) return; /* as the ITC-only trace-off message */
    te_entry_t e = {.kind = TE_PROG, .tcode = NX_ICT, .code = NX_CKSRC_CONTROL, .btype = 0, .data = NX_CONTROL_TRACE_OFF};
    te_fifo_put(t, &e);
    t->prog.messages++;
}

/* TCODE 34/35 fields after TCODE and SRC */
void te_event_pack(te_t *t, const te_entry_t *e, nx_msg_t *m, bool *full, bool *rel) {
    nx_fixed(m, e->code, NX_W_CKSRC); /* CKSRC */
    nx_fixed(m, e->btype, NX_W_CKDF); /* CKDF */
    if (e->code == NX_CKSRC_CONTROL && !e->btype) {
        nx_var(m, e->data); /* control code */
    } else {
        nx_var(m, e->tcode == NX_ICT_WS ? e->addr >> 1 : (e->addr ^ t->prog.last_addr) >> 1);
        t->prog.last_addr = e->addr;
        if (e->btype) nx_var(m, e->data); /* CKDATA1 */
    }
    *full = e->tcode == NX_ICT_WS;
    *rel = e->tcode == NX_ICT;
}
