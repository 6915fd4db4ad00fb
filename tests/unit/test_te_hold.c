/* test_te_hold.c - teStallEnable with program trace (rtl_model/trace/te_prog_hold.c): the
 * encoder's stall request (high-water mark) at register level, and the bytes of a run held by
 * it. The FIFO counts messages, so the mark is in entries: worst case one retirement queues,
 * counted by hand from te_prog.c / te_event.c (BTM/HTM 1, event mode 2, +1 with the software
 * trace port on). Expected bytes are encoded by hand (trace-hw-facts.md 4.1, 4.4-4.6). */
#include "te.h"
#include "ts_test.h"
#include "te_test_regs.h"
#include <string.h>

enum { CTRL = 0x000,
       STALL = 1u << 13,
       OVF = 1u << 12 };
/* SRAM sink, ITC mode 1, active + enable, sync counters off, no timestamps; teInstruction m */
#define CTRL_PROG(m) (0x4FF00083u | (uint32_t)(m) << 4)
#define BEQ_SELF 0x00000063u /* beq x0, x0, 0: taken, to itself, 2 units */

static void start(te_t *t, uint32_t ctrl) {
    wr(t, CTRL, 1);
    wr(t, CTRL, ctrl);
    wr(t, CTRL, ctrl | 4);
    ret(t, 0x80000000u, 0x00f72023u, 0x80000100u); /* the store that started tracing: SYNC */
}

/* queue n taken branches without ticking: n DIRECT BRANCH messages */
static void branches(te_t *t, unsigned n) {
    for (unsigned i = 0; i < n; i++) ret(t, 0x80000100u, BEQ_SELF, 0x80000100u);
}

TS_TEST(hold_btm_high_water) {
    te_t t = make_prog_te(4, 0);
    start(&t, CTRL_PROG(3) | STALL);
    TS_ASSERT_EQ_U(te_prog_worst_case(&t), 1); /* BTM: one message per retirement */
    TS_ASSERT_EQ_U(t.fifo_count, 1);           /* the SYNC */
    branches(&t, 2);
    TS_ASSERT_EQ_U(t.fifo_count, 3); /* 3 + 1 <= 4: room for one more */
    TS_ASSERT(!te_prog_must_hold(&t));
    TS_ASSERT_EQ_U(rd(&t, CTRL) & OVF, 0);
    branches(&t, 1);
    TS_ASSERT_EQ_U(t.fifo_count, 4); /* 4 + 1 > 4: held */
    TS_ASSERT(te_prog_hold(&t));
    TS_ASSERT_EQ_U(t.prog.hold_cycles, 1);
    TS_ASSERT(rd(&t, CTRL) & OVF); /* teStallOrOverflow: "or the hart was stalled" */
    te_tick(&t);                   /* one message leaves the FIFO */
    TS_ASSERT_EQ_U(t.fifo_count, 3);
    TS_ASSERT(!te_prog_hold(&t));
    TS_ASSERT_EQ_U(t.prog.hold_cycles, 1);
    TS_ASSERT_EQ_U(t.prog.lost_messages, 0);
    te_free(&t);
}

TS_TEST(hold_needs_stall_enable_and_program_trace) {
    te_t t = make_prog_te(2, 0);
    start(&t, CTRL_PROG(3)); /* teStallEnable 0 */
    branches(&t, 1);
    TS_ASSERT_EQ_U(t.fifo_count, 2);
    TS_ASSERT(!te_prog_must_hold(&t)); /* full, but no stall: overflow instead */
    branches(&t, 1);
    TS_ASSERT_EQ_U(t.prog.lost_messages, 1);
    te_free(&t);
    t = make_prog_te(1, 0);
    wr(&t, CTRL, 1);
    wr(&t, CTRL, CTRL_PROG(0) | STALL | 4); /* ITC only: the ITC store stalls, not this */
    TS_ASSERT(!t.prog.on);
    TS_ASSERT(!te_prog_must_hold(&t));
    te_free(&t);
    t = make_prog_te(1, 0);
    start(&t, CTRL_PROG(3) | STALL);
    TS_ASSERT(te_prog_must_hold(&t));   /* the SYNC fills the 1-entry FIFO */
    wr(&t, CTRL, CTRL_PROG(3) | STALL); /* tracing stopped: the stop store retires next */
    TS_ASSERT(!te_prog_must_hold(&t));
    te_free(&t);
}

/* the most one retirement queues per mode (te_prog.c): BTM one message; HTM 6 two (a branch
 * filling HIST and the I-CNT: RESOURCE FULL RCODE 1 and 0); HTM 7 three (RESOURCE FULL
 * history, the repeat count, the INDIRECT BRANCH HISTORY that ended the run);
 * teContext one more (the Ownership after a privilege change) */
TS_TEST(hold_worst_case_per_mode) {
    static const struct {
        unsigned insn;
        bool context;
        unsigned want;
    } c[] = {
        {3, false, 1}, {6, false, 2}, {7, false, 3}, {3, true, 2}, {6, true, 3}, {7, true, 4}};
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        te_t t = make_prog_te(8, 0);
        start(&t, CTRL_PROG(c[i].insn) | STALL | (c[i].context ? TE_C_CONTEXT : 0));
        TS_ASSERT_EQ_U(te_prog_worst_case(&t), c[i].want);
        te_free(&t);
    }
}

TS_TEST(hold_event_mode_and_stm) {
    te_t t = make_prog_te(4, 0);
    start(&t, CTRL_PROG(1) | STALL);           /* event mode: trace-on message queued */
    wr(&t, 0x00C, 0x1F);                       /* evControl: every event but context */
    TS_ASSERT_EQ_U(te_prog_worst_case(&t), 2); /* a call/trap event + a PC sample */
    TS_ASSERT_EQ_U(t.fifo_count, 1);
    /* two calls (jal ra): one ICT message each */
    ret(&t, 0x80000100u, 0x008000efu, 0x80000108u);
    TS_ASSERT_EQ_U(t.fifo_count, 2);
    TS_ASSERT(!te_prog_must_hold(&t)); /* 2 + 2 <= 4 */
    ret(&t, 0x80000108u, 0x008000efu, 0x80000110u);
    TS_ASSERT_EQ_U(t.fifo_count, 3);
    TS_ASSERT(te_prog_must_hold(&t)); /* 3 + 2 > 4 */
    te_tick(&t);
    TS_ASSERT_EQ_U(t.fifo_count, 2);
    TS_ASSERT(!te_prog_must_hold(&t));
    wr(&t, 0x070, 1); /* stmControl: the software trace port on */
    TS_ASSERT_EQ_U(te_prog_worst_case(&t), 3);
    TS_ASSERT(te_prog_must_hold(&t)); /* 2 + 3 > 4 */
    wr(&t, 0x00C, 0x3F);              /* + context events: ICT Context too */
    TS_ASSERT_EQ_U(te_prog_worst_case(&t), 4);
    te_free(&t);
    /* a FIFO shallower than the worst case: held until it is empty */
    t = make_prog_te(1, 0);
    start(&t, CTRL_PROG(1) | STALL);
    TS_ASSERT_EQ_U(t.fifo_count, 1);
    TS_ASSERT(te_prog_must_hold(&t));
    te_tick(&t);
    TS_ASSERT_EQ_U(t.fifo_count, 0);
    TS_ASSERT(!te_prog_must_hold(&t));
    te_free(&t);
}

TS_TEST(hold_while_overflow_owed) {
    te_t t = make_prog_te(8, 0);
    start(&t, CTRL_PROG(3));
    branches(&t, 8); /* SYNC + 7 fill the FIFO, the 8th is lost */
    TS_ASSERT_EQ_U(t.prog.lost_messages, 1);
    TS_ASSERT(t.overflow_pending);
    wr(&t, CTRL, rd(&t, CTRL) | STALL); /* stall from now on */
    TS_ASSERT(te_prog_must_hold(&t));
    te_tick(&t); /* the Error + sync queued, one message out */
    TS_ASSERT_EQ_U(t.overflow_pending, 0);
    TS_ASSERT_EQ_U(t.fifo_count, 9); /* 8 + 2 - 1: still above the mark */
    TS_ASSERT(te_prog_must_hold(&t));
    te_tick(&t);
    te_tick(&t);
    TS_ASSERT_EQ_U(t.fifo_count, 7); /* 7 + 1 <= 8 */
    TS_ASSERT(!te_prog_must_hold(&t));
    te_free(&t);
    t = make_prog_te(8, 0);
    start(&t, CTRL_PROG(3) | STALL);
    t.overflow_pending = true; /* (as after a lost software trace event) */
    TS_ASSERT(te_prog_must_hold(&t));
    te_free(&t);
}

/* A held run, byte for byte: 20 taken branches retiring one per cycle through a 1-entry FIFO,
 * the hart held whenever the encoder asks (as sim/soc.c does): nothing is lost, and the sink
 * holds SYNC, 20 DIRECT BRANCH and the Correlation. The same retirements two per cycle
 * without stall lose messages. */
TS_TEST(held_run_bytes) {
    te_t t = make_prog_te(1, 0);
    wr(&t, CTRL, 1);
    wr(&t, CTRL, CTRL_PROG(3) | STALL);
    wr(&t, CTRL, CTRL_PROG(3) | STALL | 4);
    unsigned held = 0;
    for (int i = 0; i <= 20; i++) {
        while (te_prog_hold(&t)) {
            te_tick(&t);
            held++;
        }
        if (i == 0) ret(&t, 0x80000000u, 0x00f72023u, 0x80000100u); /* the starting store */
        else
            ret(&t, 0x80000100u, BEQ_SELF, 0x80000100u);
        te_tick(&t);
    }
    TS_ASSERT_EQ_U(t.prog.lost_messages, 0);
    TS_ASSERT_EQ_U(t.prog.messages, 21);
    TS_ASSERT_EQ_U(t.prog.hold_cycles, held);
    uint8_t got[128];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    uint8_t want[8 + 40 + 3];
    /* SYNC: TCODE 9 | SYNC 5 + I-CNT 0 (MDO 000101, MSEO 01) | F-ADDR 0x40000080 in 6-bit
     * groups 0,2,0,0,0,1, the last ending the message */
    static const uint8_t sync[] = {0x24, 0x15, 0x00, 0x08, 0x00, 0x00, 0x00, 0x07};
    memcpy(want, sync, sizeof sync);
    for (int i = 0; i < 20; i++) {
        want[8 + 2 * i] = 0x0c;
        want[9 + 2 * i] = 0x0b;
    } /* TCODE 3 | I-CNT 2 */
    /* Correlation: TCODE 33 | EVCODE 4 + CDF 0 fill the 6 bits (MDO 000100, MSEO 00) | I-CNT 0 */
    want[48] = 0x84;
    want[49] = 0x10;
    want[50] = 0x03;
    TS_ASSERT(n >= sizeof want);
    TS_ASSERT(memcmp(got, want, sizeof want) == 0);
    for (unsigned i = sizeof want; i < n; i++) TS_ASSERT_EQ_U(got[i], 0xFF); /* flush padding */
    te_free(&t);
    /* without teStallEnable, two retirements a cycle: the 1-entry FIFO overflows */
    t = make_prog_te(1, 0);
    start(&t, CTRL_PROG(3));
    te_tick(&t);
    for (int i = 0; i < 10; i++) {
        branches(&t, 2);
        te_tick(&t);
    }
    TS_ASSERT(t.prog.lost_messages > 0);
    TS_ASSERT(rd(&t, CTRL) & OVF);
    te_free(&t);
}

TS_TEST_MAIN()
