/* test_te_event.c - event / PC-sample mode (teInstruction 1, rtl_model/trace/te_event.c) at
 * register level, fed retirements by hand. Expected bytes are encoded by hand from the field
 * rules of trace-hw-facts.md 4.1/4.4-4.6 (ICT: TCODE 34/35, CKSRC[4], CKDF[2], CKDATA0,
 * CKDATA1 if CKDF 1; addresses >> 1, full in 35, XOR with the last address in 34), worked out
 * in the comments, not taken from the model. */
#include "te.h"
#include "ts_test.h"
#include "te_test_regs.h"
#include <string.h>

enum { CTRL = 0x000,
       EVC = 0x00C,
       WP = 0x01C,
       RP = 0x020,
       DATA = 0x024,
       TSC = 0x040,
       TSL = 0x044,
       ITCEN = 0x060 };
/* SRAM sink, ITC mode 1, active + enable, teInstruction 1, teSyncMaxInst 0 (PC samples on) */
#define CTRL_EV (0x4F004083u | 1u << 4)

/* tracing on with ctrl and evControl ev, a frozen clock at `time`, timestamps on */
static void start(te_t *t, uint32_t ctrl, uint32_t ev, uint32_t time) {
    wr(t, CTRL, 1);
    wr(t, EVC, ev);
    wr(t, CTRL, ctrl);
    wr(t, TSC, 0x000F8001u);
    wr(t, TSL, time);
    wr(t, ITCEN, 0xFFFFFFFFu);
    wr(t, CTRL, ctrl | 4);
}

/* WARL and `run --trace-insn event`: evControl resets to 0x3F, the forced mode also forces
 * teSyncMaxInst 0 (OpenOCD's "all"); a firmware value with teInstruction 1 is kept */
TS_TEST(warl_and_force) {
    te_t t = make_prog_te(8, 0);
    wr(&t, CTRL, 1);
    TS_ASSERT_EQ_U(rd(&t, EVC), 0);
    wr(&t, CTRL, CTRL_EV | 0x00F00000u);
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 1);
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 20) & 15, 15);
    te_free(&t);
    t = make_prog_te(8, 1);
    wr(&t, CTRL, 1);
    TS_ASSERT_EQ_U(rd(&t, EVC), 0x3F);
    wr(&t, CTRL, 0x4FF04087u); /* the perf library's value, tracing on */
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 1);
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 20) & 15, 0);
    TS_ASSERT(t.prog.on);
    wr(&t, EVC, 0x04); /* firmware's own evControl is kept */
    TS_ASSERT_EQ_U(rd(&t, EVC), 0x04);
    te_free(&t);
}

/* every CKSRC the model emits, byte for byte: trace on (0), call (9), exception (10),
 * interrupt (11), PC sample (15), trace off (0) */
TS_TEST(event_messages_byte_exact) {
    te_t t = make_prog_te(8, 0);
    start(&t, CTRL_EV, 0x3F, 0x100);
    TS_ASSERT(t.prog.on);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* the store that started tracing */
    ret(&t, 0x80000104u, 0x0505u, 0x80000106u);     /* c.addi: executed 1 */
    wr(&t, TSL, 0x105);
    ret(&t, 0x80000106u, 0x0FA000EFu, 0x80000200u); /* jal ra, +0xfa: a call (2) */
    wr(&t, TSL, 0x10A);
    trap(&t, 0x80000200u, 0x00000073u, 0x80000040u, 11);                                           /* ecall: executed (3) */
    trap(&t, 0x80000040u, 0x0001u, 0x80000080u, 0x80000007u);                                      /* timer interrupt */
    for (uint32_t i = 0; i < 252; i++) ret(&t, 0x80000080u + 2 * i, 0x0505u, 0x80000082u + 2 * i); /* 4..255 */
    wr(&t, TSL, 0x111);
    ret(&t, 0x80000278u, 0x0505u, 0x8000027au); /* the 256th: PC sample */
    ret(&t, 0x8000027au, 0x0505u, 0x8000027cu);
    uint8_t got[96];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {
        /* trace on: TCODE 35 (100011) | CKSRC 0 + CKDF 1 -> MDO 010000 | F-ADDR 0x40000082 in
         * 6-bit groups 2,2,0,0,0,1 (last MSEO 01) | CKDATA1 2 | full TS 0x100: groups 0,4 */
        0x8c, 0x40, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x09, 0x00, 0x13,
        /* call: TCODE 34 (100010) | CKSRC 9 + CKDF 1 -> MDO 011001 | (0x80000106 ^ 0x80000104)
         * >> 1 = 1 | (0x80000106 ^ 0x80000200) >> 1 = 0x183: 3,6 | TS 0x100 ^ 0x105 = 5 */
        0x88, 0x64, 0x05, 0x0c, 0x19, 0x17,
        /* exception: CKSRC 10 + CKDF 1 -> 011010 | (0x80000200 ^ 0x80000106) >> 1 = 0x183 |
         * cause 11 | TS 0x105 ^ 0x10A = 0xF */
        0x88, 0x68, 0x0c, 0x19, 0x2d, 0x3f,
        /* interrupt: CKSRC 11 + CKDF 1 -> 011011 | (0x80000040 ^ 0x80000200) >> 1 = 0x120:
         * 32,4 | cause 7 (bit 31 dropped) | TS 0 */
        0x88, 0x6c, 0x80, 0x11, 0x1d, 0x03,
        /* PC sample: CKSRC 15 + CKDF 0 -> 001111 | (0x80000278 ^ 0x80000040) >> 1 = 0x11C:
         * 28,4 | TS 0x10A ^ 0x111 = 0x1B */
        0x88, 0x3c, 0x70, 0x11, 0x6f,
        /* trace off: CKSRC 0 + CKDF 0 | CKDATA0 3 | TS 0 */
        0x88, 0x00, 0x0d, 0x03,
        0xff, 0xff}; /* padding to the 4-byte sink word */
    TS_ASSERT_EQ_U(n, sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    TS_ASSERT_EQ_U(t.prog.messages, 6);
    te_free(&t);
}

/* evControl 0 and teSyncMaxInst 15: only trace on and off */
TS_TEST(evcontrol_gates_events) {
    te_t t = make_prog_te(8, 0);
    start(&t, CTRL_EV | 0x00F00000u, 0, 0x100);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u);
    ret(&t, 0x80000104u, 0x0FC000EFu, 0x80000200u); /* call */
    trap(&t, 0x80000200u, 0x00000073u, 0x80000040u, 11);
    trap(&t, 0x80000040u, 0x0001u, 0x80000080u, 0x80000007u);
    for (uint32_t i = 0; i < 600; i++) ret(&t, 0x80000080u + 2 * i, 0x0505u, 0x80000082u + 2 * i);
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {0x8c, 0x40, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x09, 0x00, 0x13,
                                   0x88, 0x00, 0x0d, 0x03, 0xff};
    TS_ASSERT_EQ_U(n, sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

/* a 1-entry FIFO: the call is lost (teStallOrOverflow, even with teStallEnable), Error + the
 * ITC sync follow, and the next event is TCODE 35 with the full address */
TS_TEST(overflow_then_full_address) {
    te_t t = make_prog_te(1, 0);
    start(&t, CTRL_EV | 1u << 13, 0x3F, 0x100);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* trace on: 1 entry, full */
    ret(&t, 0x80000104u, 0x0FC000EFu, 0x80000200u); /* call: lost */
    TS_ASSERT(rd(&t, CTRL) & (1u << 12));
    TS_ASSERT_EQ_U(t.prog.lost_messages, 1);
    for (int k = 0; k < 20; k++) te_tick(&t); /* drains; Error + ICT-WS queued */
    wr(&t, TSL, 0x105);
    ret(&t, 0x80000200u, 0x0505u, 0x80000202u);
    ret(&t, 0x80000202u, 0x0FE000EFu, 0x80000300u); /* jal ra, +0xfe */
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {
        0x8c, 0x40, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x09, 0x00, 0x13, /* trace on */
        0x20, 0x03,                                                       /* Error: ETYPE 0, ECODE 0 */
        0x8c, 0x00, 0x01, 0x00, 0x13,                                     /* ICT-WS Control(0,0), full time */
        /* call, TCODE 35: F-ADDR 0x40000101: 1,4,0,0,0,1 | (0x80000202 ^ 0x80000300) >> 1 =
         * 0x81: 1,2 | full TS 0x105: 5,4 */
        0x8c, 0x64, 0x04, 0x10, 0x00, 0x00, 0x00, 0x05, 0x04, 0x09, 0x14, 0x13,
        0x88, 0x00, 0x0d, 0x03, /* trace off, TS 0 */
        0xff, 0xff};
    TS_ASSERT_EQ_U(n, sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

/* evControl bit 5 (context): a trap or xRET that changes the privilege gives an ICT Context
 * message (CKSRC 13, CKDF 1: CKDATA0 the address of the instruction that switched, CKDATA1 =
 * PRV << 2, the Ownership PROCESS layout, tag 0) after the trap's exception event; without
 * bit 5 none */
static unsigned context_events(uint32_t ev, uint8_t *got, unsigned max) {
    te_t t = make_prog_te(8, 0);
    start(&t, CTRL_EV | 0x00F00000u, ev, 0x100);    /* no PC samples */
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* the store that started tracing (M) */
    wr(&t, TSL, 0x105);
    te_prog_priv(&t.prog, 1);
    ret(&t, 0x80000104u, 0x30200073u, 0x80000400u); /* mret to S */
    wr(&t, TSL, 0x10A);
    te_prog_priv(&t.prog, 3);
    trap(&t, 0x80000400u, 0x00000073u, 0x80000040u, 9); /* ecall from S */
    unsigned n = drain_sram(&t, got, max, 10000);
    te_free(&t);
    return n;
}

TS_TEST(context_events_byte_exact) {
    uint8_t got[64];
    unsigned n = context_events(0x3F, got, sizeof got);
    static const uint8_t want[] = {
        0x8c, 0x40, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x09, 0x00, 0x13, /* trace on */
        /* context: TCODE 34 | CKSRC 13 + CKDF 1 -> MDO 011101 | (0x80000104 ^ 0x80000104) >>
         * 1 = 0 | CKDATA1 1 << 2 = 4 | TS 0x100 ^ 0x105 = 5 */
        0x88, 0x74, 0x01, 0x11, 0x17,
        /* exception: CKSRC 10 + CKDF 1 | (0x80000400 ^ 0x80000104) >> 1 = 0x282: 2,10 |
         * cause 9 | TS 0x105 ^ 0x10A = 0xF */
        0x88, 0x68, 0x08, 0x29, 0x25, 0x3f,
        /* context: (0x80000400 ^ 0x80000400) >> 1 = 0 | 3 << 2 = 12 | TS 0 */
        0x88, 0x74, 0x01, 0x31, 0x03};
    TS_ASSERT(n >= sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    n = context_events(0x1F, got, sizeof got);
    static const uint8_t off[] = {
        0x8c, 0x40, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x09, 0x00, 0x13,
        /* the exception, XOR with the trace-on address; TS 0x100 ^ 0x10A = 0xA */
        0x88, 0x68, 0x08, 0x29, 0x25, 0x2b,
        0x88, 0x00}; /* then the trace off (CKSRC 0, CKDF 0) */
    TS_ASSERT(n >= sizeof off);
    TS_ASSERT_MEM_EQ(got, off, sizeof off);
}

/* RV64 (te_cfg_t.rv64): mcause's Interrupt flag is bit 63 (CKSRC 11, CKDATA1 the cause
 * without it), 0x2505 is C.ADDIW (no call, where RV32's C.JAL is one), and addresses above
 * 4 GiB go out whole (ICT's CKDATA0 XOR-compressed against the last address, facts 4.6),
 * read back with split_fields */
TS_TEST(rv64_causes_calls_addresses) {
    te_t t = make_prog_te_xlen(16, 0, true);
    start(&t, CTRL_EV | 0x00F00000u, 0x1F, 0x100); /* no PC samples; call, trap, exc, irq on */
    const uint64_t a = 0x300000100ull, h = 0x300000040ull;
    ret(&t, a, 0x00f72023u, a + 4);                         /* trace on: TCODE 35, full address */
    ret(&t, a + 4, 0x2505u, a + 6);                         /* c.addiw: no event on RV64 */
    ret(&t, a + 6, 0x0FC000EFu, a + 0x102);                 /* jal ra: a call */
    trap(&t, a + 0x102, 0x0001u, h, 0x8000000000000007ull); /* machine timer interrupt */
    trap(&t, h, 0x00000073u, h + 0x40, 11);                 /* ecall */
    uint8_t got[128];
    uint64_t f[TE_T_MSGS][TE_T_FIELDS];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    unsigned m = split_fields(got, n, f);
    TS_ASSERT(m >= 4);
    /* first field: TCODE[5:0], CKSRC[9:6], CKDF[11:10], CKDATA0 from bit 12; then CKDATA1 */
    TS_ASSERT_EQ_U(f[0][0] & 0x3F, 35);
    TS_ASSERT_EQ_U(f[0][0] >> 12, (a + 4) >> 1);
    TS_ASSERT_EQ_U(f[0][1], 2);         /* trace on */
    TS_ASSERT_EQ_U(f[1][0] & 0x3F, 34); /* the call, no c.addiw event before it */
    TS_ASSERT_EQ_U((f[1][0] >> 6) & 15, 9);
    TS_ASSERT_EQ_U(f[1][0] >> 12, ((a + 6) ^ (a + 4)) >> 1); /* the call's pc */
    TS_ASSERT_EQ_U(f[1][1], ((a + 6) ^ (a + 0x102)) >> 1);   /* XOR its target */
    TS_ASSERT_EQ_U(f[2][0] & 0x3F, 34);
    TS_ASSERT_EQ_U((f[2][0] >> 6) & 15, 11); /* interrupt */
    TS_ASSERT_EQ_U(f[2][0] >> 12, ((a + 0x102) ^ (a + 6)) >> 1);
    TS_ASSERT_EQ_U(f[2][1], 7);
    TS_ASSERT_EQ_U((f[3][0] >> 6) & 15, 10); /* exception */
    TS_ASSERT_EQ_U(f[3][0] >> 12, (h ^ (a + 0x102)) >> 1);
    TS_ASSERT_EQ_U(f[3][1], 11);
    te_free(&t);
}

TS_TEST_MAIN()
