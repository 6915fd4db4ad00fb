/* test_te_prog.c - program trace (BTM, rtl_model/trace/te_prog.c) at register level, fed
 * retirements by hand. Expected bytes are encoded by hand from the field rules of
 * trace-hw-facts.md 4.1/4.4-4.6 (worked out in the comments), not taken from the model. */
#include "te.h"
#include "ts_test.h"
#include "te_test_regs.h"
#include <string.h>

enum { CTRL = 0x000,
       WP = 0x01C,
       RP = 0x020,
       DATA = 0x024,
       TSC = 0x040,
       TSL = 0x044,
       ITCEN = 0x060,
       STIM = 0x080 };
/* the perf library's teControl (SRAM sink, stop-on-wrap, ITC mode 1, active + enable, sync
 * counters off) with teInstruction 3 */
#define CTRL_BTM (0x4FF04083u | 3u << 4)

/* tracing on with ctrl, a frozen clock at `time` (tsCount 0; TSL writes move it), timestamps
 * on ITC and on every branch message (tsBranch 3) */
static void start(te_t *t, uint32_t ctrl, uint32_t time) {
    wr(t, CTRL, 1);
    wr(t, CTRL, ctrl);
    wr(t, TSC, 0x000F8001u);
    wr(t, TSL, time);
    wr(t, ITCEN, 0xFFFFFFFFu);
    wr(t, CTRL, ctrl | 4);
}

TS_TEST(warl_probe_and_force) {
    te_t t = make_prog_te(8, 0);
    wr(&t, CTRL, 1);
    wr(&t, CTRL, 1 | 7u << 4); /* the probe: 7 reads back 7, HTM available */
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 7);
    wr(&t, CTRL, 1 | 6u << 4);
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 6);
    wr(&t, CTRL, 1 | 3u << 4);
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 3);
    wr(&t, CTRL, 1 | 1u << 4); /* event mode (te_event.c) */
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 1);
    wr(&t, CTRL, 1 | 2u << 4); /* reserved */
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 0);
    wr(&t, CTRL, 1);
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 0);
    te_free(&t);
    t = make_prog_te(8, 3); /* run --trace-insn btm */
    wr(&t, CTRL, 1);
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 3);
    wr(&t, CTRL, 0x4FF04087u); /* the perf library's value, tracing on */
    TS_ASSERT_EQ_U((rd(&t, CTRL) >> 4) & 7, 3);
    TS_ASSERT(t.prog.on);
    te_free(&t);
}

/* every BTM message kind, byte for byte */
TS_TEST(btm_messages_byte_exact) {
    te_t t = make_prog_te(8, 0);
    start(&t, CTRL_BTM, 0x100);
    TS_ASSERT(t.prog.on);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* the store that started tracing */
    ret(&t, 0x80000104u, 0x0505u, 0x80000106u);     /* c.addi: 1 unit */
    wr(&t, TSL, 0x105);
    ret(&t, 0x80000106u, 0x00b50463u, 0x8000010eu); /* beq, taken: 2 units */
    ret(&t, 0x8000010eu, 0xE101u, 0x80000110u);     /* c.bnez, not taken: 1 unit */
    wr(&t, TSL, 0x10A);
    ret(&t, 0x80000110u, 0x00008067u, 0x80000200u); /* ret (jalr): 2 units */
    wr(&t, TSL, 0x110);
    trap(&t, 0x80000200u, 0x00000073u, 0x80000040u, 11);      /* ecall: counts, 2 units */
    trap(&t, 0x80000040u, 0x0001u, 0x80000080u, 0x80000007u); /* interrupt: not executed */
    ret(&t, 0x80000080u, 0x30200073u, 0x80000204u);           /* mret: 2 units */
    ret(&t, 0x80000204u, 0x0505u, 0x80000206u);               /* 1 unit */
    wr(&t, TSL, 0x111);
    wr(&t, CTRL, CTRL_BTM); /* trace stop: Correlation */
    uint8_t got[96];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {
        /* SYNC: TCODE 9 | SYNC 5 (0101) + I-CNT 0 -> MDO 000101, MSEO 01 | F-ADDR 0x40000082 in
         * 6-bit groups 2,2,0,0,0,1 | full TS 0x100: groups 0,4 */
        0x24, 0x15, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13,
        /* DIRECT BRANCH: TCODE 3 | I-CNT 3 | TS 0x100 ^ 0x105 = 5 */
        0x0c, 0x0d, 0x17,
        /* INDIRECT BRANCH: TCODE 4 | B-TYPE 0 + I-CNT 3 (1 + 2) -> MDO 001100 | U-ADDR
         * (0x80000200 ^ 0x80000104) >> 1 = 0x182: 2,6 | TS 0x105 ^ 0x10A = 0xF */
        0x10, 0x31, 0x08, 0x19, 0x3f,
        /* trap (ecall): B-TYPE 1 + I-CNT 2 -> MDO 001001 | U-ADDR (0x80000040 ^ 0x80000200) >> 1
         * = 0x120: 32,4 | TS 0x10A ^ 0x110 = 0x1A */
        0x10, 0x25, 0x80, 0x11, 0x6b,
        /* interrupt: B-TYPE 1 + I-CNT 0 | U-ADDR (0x80000080 ^ 0x80000040) >> 1 = 0x60: 32,1 |
         * TS 0 */
        0x10, 0x05, 0x80, 0x05, 0x03,
        /* mret: B-TYPE 0 + I-CNT 2 -> MDO 001000 | U-ADDR (0x80000204 ^ 0x80000080) >> 1 =
         * 0x142: 2,5 | TS 0 */
        0x10, 0x21, 0x08, 0x15, 0x03,
        /* Correlation: TCODE 33 | EVCODE 4 + CDF 0 -> MDO 000100 | I-CNT 1 | TS 0x110 ^ 0x111 */
        0x84, 0x10, 0x05, 0x07,
        0xff, 0xff, 0xff}; /* padding to the 4-byte sink word */
    TS_ASSERT_EQ_U(n, sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

/* branch messages and ITC stores share the FIFO in the order the hart made them */
TS_TEST(itc_and_branches_in_program_order) {
    te_t t = make_prog_te(8, 0);
    start(&t, CTRL_BTM, 0x100);
    wr(&t, TSC, 0x00008001u); /* time on sync-type messages only */
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u);
    ret(&t, 0x80000104u, 0x00b50463u, 0x8000010cu);      /* beq taken: I-CNT 2 */
    TS_ASSERT_EQ_I(te_write(&t, STIM, 4, 0x0Au), TE_OK); /* the store at 0x8000010c */
    ret(&t, 0x8000010cu, 0x00a02023u, 0x80000110u);
    ret(&t, 0x80000110u, 0x00008067u, 0x80000120u); /* ret: I-CNT 2 + 2 (the store counts) */
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {
        0x24, 0x15, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13, /* SYNC, full time */
        0x0c, 0x0b,                                                 /* DIRECT BRANCH I-CNT 2, MSEO 11 */
        0x1c, 0x01, 0x2b,                                           /* DQM IDTAG 0, DATA 0x0A */
        /* INDIRECT BRANCH: B-TYPE 0 + I-CNT 4 -> MDO 010000 | U-ADDR (0x80000120 ^ 0x80000104)
         * >> 1 = 0x12 (18), MSEO 11 */
        0x10, 0x41, 0x4b,
        /* trace off (teTracing and teEnable cleared together): Correlation, I-CNT 0 */
        0x84, 0x10, 0x03};
    TS_ASSERT(n >= sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

/* teSyncMaxBTM 0: the 33rd branch message after a sync is its sync form; teSyncMaxInst 0: an
 * I-CNT of 32 units without a branch forces SYNC 4 */
TS_TEST(periodic_and_icnt_syncs) {
    te_t t = make_prog_te(64, 0);
    uint32_t ctrl = (CTRL_BTM & ~0x00FF0000u) | 0x00F00000u; /* maxBTM 0, maxInst off */
    start(&t, ctrl, 0x100);
    wr(&t, TSC, 0x00008001u);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u);
    unsigned ws = 0;
    for (unsigned i = 0; i < 33; i++) {
        ret(&t, 0x80000104u, 0x00b50463u, 0x80000104u + 8); /* beq taken */
        te_entry_t *e = &t.fifo[(t.fifo_head + t.fifo_count - 1) % t.fifo_cap];
        TS_ASSERT_EQ_U(e->tcode, i < 32 ? NX_DIRECT_BRANCH : NX_DIRECT_BRANCH_WS);
        ws += e->tcode == NX_DIRECT_BRANCH_WS;
        for (int k = 0; k < 4; k++) te_tick(&t);
    }
    TS_ASSERT_EQ_U(ws, 1);
    /* the WS form: TCODE 11 | SYNC 2 + I-CNT 2 -> MDO 100010 | F-ADDR 0x8000010c >> 1 =
     * 0x40000086: 6,2,0,0,0,1 | full time 0x100 (sync-type messages carry it with tsEnable) */
    uint8_t got[1024];
    wr(&t, CTRL, (ctrl & ~0x00FF0000u) | 0x000F0000u | 4); /* maxInst 0, maxBTM off */
    for (unsigned i = 0; i < 16; i++) ret(&t, 0x80000200u + 4 * i, 0x00000013u, 0x80000204u + 4 * i);
    te_entry_t *e = &t.fifo[(t.fifo_head + t.fifo_count - 1) % t.fifo_cap];
    TS_ASSERT_EQ_U(e->tcode, 9);
    TS_ASSERT_EQ_U(e->code, 4);
    TS_ASSERT_EQ_U(e->data, 32);
    TS_ASSERT_EQ_U(e->addr, 0x80000240u);
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t dbws[] = {0x2c, 0x89, 0x18, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13};
    /* SYNC 4 (0100) + I-CNT 32 (100000) from bit 10: MDO 000100, then 001000 ending the
     * field | F-ADDR 0x40000120: 32,4,0,0,0,1 | time */
    static const uint8_t sync4[] = {0x24, 0x10, 0x21, 0x80, 0x10, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13};
    bool found_ws = false, found_sync = false;
    for (unsigned i = 0; i + sizeof sync4 <= n; i++) {
        found_ws |= !memcmp(got + i, dbws, sizeof dbws);
        found_sync |= !memcmp(got + i, sync4, sizeof sync4);
    }
    TS_ASSERT(found_ws);
    TS_ASSERT(found_sync);
    te_free(&t);
}

/* a branch message that finds the FIFO full is lost (even with teStallEnable): overflow flag,
 * Error + the ITC sync when there is room, then SYNC 7 at the next retirement; nothing of the
 * gap is counted */
TS_TEST(overflow_error_and_resync) {
    te_t t = make_prog_te(2, 0);
    start(&t, CTRL_BTM | 1u << 13, 0x100); /* teStallEnable set */
    wr(&t, TSC, 0x00008001u);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* SYNC 5: 1 entry */
    ret(&t, 0x80000104u, 0x00b50463u, 0x8000010cu); /* DIRECT BRANCH: 2 entries, full */
    ret(&t, 0x8000010cu, 0x00b50463u, 0x80000114u); /* lost */
    TS_ASSERT(rd(&t, CTRL) & (1u << 12));
    TS_ASSERT_EQ_U(t.prog.lost_messages, 1);
    ret(&t, 0x80000114u, 0x00008067u, 0x80000200u); /* in the gap: not traced */
    for (int k = 0; k < 8; k++) te_tick(&t);        /* drains; Error + ICT-WS queued */
    ret(&t, 0x80000200u, 0x0505u, 0x80000202u);     /* SYNC 7, F-ADDR 0x80000202 */
    uint8_t got[96];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {
        0x24, 0x15, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13, /* SYNC 5 @0x80000104 */
        0x0c, 0x0b,                                                 /* DIRECT BRANCH I-CNT 2 */
        0x20, 0x03,                                                 /* Error: ETYPE 0, ECODE 0 */
        0x8c, 0x00, 0x01, 0x00, 0x13,                               /* ICT-WS Control(0,0), full time */
        /* SYNC 7 (0111) + I-CNT 0 -> MDO 000111 | F-ADDR 0x40000101: 1,4,0,0,0,1 | time */
        0x24, 0x1d, 0x04, 0x10, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13,
        0x84, 0x10, 0x03}; /* Correlation I-CNT 0 */
    TS_ASSERT(n >= sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

/* HTM (teInstruction 6): outcomes into HIST, INDIRECT BRANCH HISTORY at the return, a full
 * history as RESOURCE FULL RCODE 1, Correlation with CDF 1 and the history left */
TS_TEST(htm_messages_byte_exact) {
    te_t t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u) | 6u << 4, 0x100);
    wr(&t, TSC, 0x00008001u);                       /* time on sync-type messages only */
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* SYNC 5 */
    ret(&t, 0x80000104u, 0x0505u, 0x80000106u);     /* 1 unit */
    ret(&t, 0x80000106u, 0x00b50463u, 0x8000010eu); /* beq taken: HIST 1 -> 11 */
    ret(&t, 0x8000010eu, 0xE101u, 0x80000110u);     /* c.bnez not taken: HIST 110 */
    ret(&t, 0x80000110u, 0x00008067u, 0x80000200u); /* ret: INDIRECT BRANCH HISTORY */
    for (unsigned i = 0; i < 31; i++)               /* 31 not-taken branches fill HIST */
        ret(&t, 0x80000200u + 4 * i, 0x00b50463u, 0x80000204u + 4 * i);
    wr(&t, CTRL, (CTRL_BTM & ~0x70u) | 6u << 4); /* stop: Correlation CDF 1 */
    uint8_t got[96];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {
        0x24, 0x15, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13, /* SYNC 5, full time */
        /* TCODE 28 | B-TYPE 0 + I-CNT 6 (1+2+1+2) -> MDO 011000 | U-ADDR 0x182: 2,6 | HIST 110 */
        0x70, 0x61, 0x08, 0x19, 0x1b,
        /* TCODE 27 | RCODE 1 + RDATA bits 1:0 -> MDO 000001 | RDATA 0x80000000 (stop bit 31, 31
         * not-taken outcomes): bits 31:2 in 5 bytes, the last MDO 100000 */
        0x6c, 0x04, 0x00, 0x00, 0x00, 0x00, 0x83,
        /* Correlation: TCODE 33 | EVCODE 4 + CDF 1 -> MDO 010100 | I-CNT 62 (31 x 2): 62 =
         * 111110, MSEO 01 | HIST 1 (empty) */
        0x84, 0x50, 0xf9, 0x07};
    TS_ASSERT(n >= sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

/* HTM with the return stack (teInstruction 7): a return to the address its call pushed gets
 * no message; one that goes elsewhere does */
TS_TEST(htm_return_stack) {
    te_t t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u) | 7u << 4, 0x100);
    wr(&t, TSC, 0x00008001u);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* SYNC 5 */
    unsigned base = t.fifo_count;
    ret(&t, 0x80000104u, 0x0fc000efu, 0x80000200u); /* jal ra, +0xfc: pushes 0x80000108 */
    ret(&t, 0x80000200u, 0x8082u, 0x80000108u);     /* c.jr ra (ret) to it: inferred */
    TS_ASSERT_EQ_U(t.fifo_count, base);
    TS_ASSERT_EQ_U(t.prog.icnt, 3);                 /* counted, not reported */
    ret(&t, 0x80000108u, 0x0fc000efu, 0x80000204u); /* jal ra: pushes 0x8000010c */
    ret(&t, 0x80000204u, 0x8082u, 0x80000300u);     /* ret elsewhere: a message */
    TS_ASSERT_EQ_U(t.fifo_count, base + 1);
    te_entry_t *e = &t.fifo[(t.fifo_head + t.fifo_count - 1) % t.fifo_cap];
    TS_ASSERT_EQ_U(e->tcode, 28);
    TS_ASSERT_EQ_U(e->data, 6); /* 3 + 2 + 1 */
    TS_ASSERT_EQ_U(e->addr, 0x80000300u);
    TS_ASSERT_EQ_U(t.prog.sp, 0);
    te_free(&t);
}

/* teContext (teControl bit 9): every privilege change gives an Ownership message (TCODE 2,
 * PROCESS = PRV << 2: FORMAT 0, V 0) right after the retirement's branch message, and every
 * sync-type message is followed by one with the current mode; tsOwnership (tsControl bit 19)
 * gives it a relative time. Without bit 9 the same run has no Ownership message. */
static unsigned context_run(uint32_t ctrl, uint8_t *got, unsigned max) {
    te_t t = make_prog_te(8, 0);
    start(&t, ctrl, 0x100);
    TS_ASSERT_EQ_U(rd(&t, CTRL) & TE_C_CONTEXT, ctrl & TE_C_CONTEXT); /* bit 9 reads back */
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u);                   /* the store that started tracing (M) */
    wr(&t, TSL, 0x105);
    te_prog_priv(&t.prog, 1);
    ret(&t, 0x80000104u, 0x30200073u, 0x80000400u); /* mret to S: 2 units */
    wr(&t, TSL, 0x10A);
    ret(&t, 0x80000400u, 0x0505u, 0x80000402u); /* c.addi in S: 1 unit */
    te_prog_priv(&t.prog, 3);
    trap(&t, 0x80000402u, 0x00000073u, 0x80000040u, 9); /* ecall from S: 2 units */
    wr(&t, TSL, 0x10B);
    ret(&t, 0x80000040u, 0x0505u, 0x80000042u); /* c.addi in M: 1 unit */
    wr(&t, CTRL, ctrl);                         /* trace stop: Correlation */
    unsigned n = drain_sram(&t, got, max, 10000);
    te_free(&t);
    return n;
}

TS_TEST(ownership_on_privilege_change_byte_exact) {
    uint8_t got[64];
    unsigned n = context_run(CTRL_BTM | TE_C_CONTEXT, got, sizeof got);
    static const uint8_t want[] = {
        /* SYNC 5 at 0x80000104, full TS 0x100 (as in btm_messages_byte_exact) */
        0x24, 0x15, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13,
        /* Ownership after the sync: TCODE 2 -> MDO 000010 | PROCESS 3 << 2 = 12, MSEO 01 |
         * TS 0x100 ^ 0x100 = 0 */
        0x08, 0x31, 0x03,
        /* mret: INDIRECT BRANCH, B-TYPE 0 + I-CNT 2 -> 001000 | U-ADDR (0x80000400 ^
         * 0x80000104) >> 1 = 0x282: 2,10 | TS 0x100 ^ 0x105 = 5 */
        0x10, 0x21, 0x08, 0x29, 0x17,
        /* then Ownership PRV 1 (S): PROCESS 4 | TS 0 */
        0x08, 0x11, 0x03,
        /* ecall from S: B-TYPE 1 + I-CNT 3 -> 001101 | U-ADDR (0x80000040 ^ 0x80000400) >> 1 =
         * 0x220: 32,8 | TS 0x105 ^ 0x10A = 0xF */
        0x10, 0x35, 0x80, 0x21, 0x3f,
        /* then Ownership PRV 3 (M): PROCESS 12 | TS 0 */
        0x08, 0x31, 0x03,
        /* Correlation: EVCODE 4 + CDF 0 | I-CNT 1 | TS 0x10A ^ 0x10B = 1 */
        0x84, 0x10, 0x05, 0x07,
        0xff, 0xff, 0xff};
    TS_ASSERT_EQ_U(n, sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    /* teContext off: the same messages without the three Ownership ones (24 bytes, no pad) */
    n = context_run(CTRL_BTM, got, sizeof got);
    static const uint8_t off[] = {0x24, 0x15, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13,
                                  0x10, 0x21, 0x08, 0x29, 0x17,
                                  0x10, 0x35, 0x80, 0x21, 0x3f,
                                  0x84, 0x10, 0x05, 0x07};
    TS_ASSERT_EQ_U(n, sizeof off);
    TS_ASSERT_MEM_EQ(got, off, sizeof off);
}

/* the run option --trace-context sets bit 9 on every teControl write, even when the firmware
 * writes it 0 (the perf library's value) */
TS_TEST(context_force) {
    te_cfg_t c;
    te_default_cfg(&c);
    c.insn_force = TE_INSN_HTM;
    c.context_force = true;
    te_t t;
    TS_ASSERT_EQ_I(te_init(&t, &c), 0);
    wr(&t, CTRL, 0x4FF04087u);
    TS_ASSERT(rd(&t, CTRL) & TE_C_CONTEXT);
    TS_ASSERT(t.prog.on);
    te_free(&t);
}

/* HTM with the repeat-branch optimisation (teInstruction 7): TE_REP_MIN (16) equal outcomes in a
 * row leave HIST for a counter; when the run ends, the outcomes before it go first as
 * RESOURCE FULL RCODE 1 and the count as RCODE 9 (taken) or 8 (not taken), because SiFive's
 * decoder takes outcomes from HIST before a count and refuses a count while HIST is unused */
TS_TEST(htm_repeat_counts_byte_exact) {
    TS_ASSERT_EQ_U(TE_REP_MIN, 16);
    te_t t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u) | 7u << 4, 0x100);
    wr(&t, TSC, 0x00008001u);                       /* time on sync-type messages only */
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* SYNC 5 */
    ret(&t, 0x80000104u, 0xE101u, 0x80000106u);     /* c.bnez not taken: 1 unit, HIST 10 */
    for (unsigned i = 0; i < 20; i++)               /* 20 taken beq: 40 units, counted */
        ret(&t, 0x80000106u, 0x00b50463u, 0x8000010eu);
    TS_ASSERT_EQ_U(t.prog.rep, 20);
    TS_ASSERT_EQ_U(t.prog.hist, 2);                 /* the run left HIST */
    ret(&t, 0x8000010eu, 0xE101u, 0x80000110u);     /* not taken: the run ends; 1 unit */
    ret(&t, 0x80000110u, 0x00008067u, 0x80000200u); /* ret (stack empty): 2 units */
    for (unsigned i = 0; i < 16; i++)               /* 16 not taken c.bnez: a run of 16 */
        ret(&t, 0x80000200u + 2 * i, 0xE101u, 0x80000202u + 2 * i);
    TS_ASSERT_EQ_U(t.prog.rep, 16);
    TS_ASSERT_EQ_U(t.prog.hist, 1);
    wr(&t, CTRL, (CTRL_BTM & ~0x70u) | 7u << 4); /* stop: the count, then Correlation */
    uint8_t got[96];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    static const uint8_t want[] = {
        0x24, 0x15, 0x08, 0x08, 0x00, 0x00, 0x00, 0x05, 0x00, 0x13, /* SYNC 5, full time */
        /* RESOURCE FULL: TCODE 27 (011011) | RCODE 1 (0001) + RDATA bits 1:0 = HIST 10 -> MDO
         * 100001, MSEO 11 */
        0x6c, 0x87,
        /* TCODE 27 | RCODE 9 + RDATA 20 (10100) bits 1:0 = 00 -> MDO 001001, MSEO 00 | RDATA
         * bits 7:2 = 5 -> MDO 000101, MSEO 11 */
        0x6c, 0x24, 0x17,
        /* TCODE 28 | B-TYPE 0 + I-CNT 44 (1 + 40 + 1 + 2 = 101100) bits 3:0 -> MDO 110000 |
         * I-CNT bits 9:4 = 2, MSEO 01 | U-ADDR (0x80000200 ^ 0x80000104) >> 1 = 0x182: 2, 6
         * (01) | HIST 10, MSEO 11 */
        0x70, 0xc0, 0x09, 0x08, 0x19, 0x0b,
        /* TCODE 27 | RCODE 8 + RDATA 16 (10000) bits 1:0 = 00 -> MDO 001000 | bits 7:2 = 4 */
        0x6c, 0x20, 0x13,
        /* Correlation: TCODE 33 | EVCODE 4 + CDF 1 -> MDO 010100 | I-CNT 16 = 010000, MSEO 01 |
         * HIST 1 (empty) */
        0x84, 0x50, 0x41, 0x07};
    TS_ASSERT(n >= sizeof want);
    TS_ASSERT_MEM_EQ(got, want, sizeof want);
    te_free(&t);
}

/* teInstruction 7: a run reaching TE_REP_MAX is sent at once (RCODE 9/8, RDATA 0xFFFF) and
 * the next equal outcome starts over in HIST; a run of 15 stays in HIST; teInstruction 6
 * never counts */
TS_TEST(htm_repeat_limits) {
    te_t t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u) | 7u << 4, 0x100);
    wr(&t, TSC, 0x00008001u);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* SYNC 5 */
    unsigned base = t.fifo_count;
    for (unsigned i = 0; i < 15; i++) ret(&t, 0x80000104u, 0xE101u, 0x80000104u - 0x40u); /* 15 taken */
    TS_ASSERT_EQ_U(t.prog.rep, 0);
    TS_ASSERT_EQ_U(t.prog.hist, 0xFFFFu); /* stop bit + 15 ones */
    /* 65536 not taken: the 16th makes a run (the 16 leave HIST, which keeps 1 + 15 ones); the
     * 65535th fills the counter: RCODE 1 with 0xFFFF, RCODE 8 with 0xFFFF; the last one goes
     * into HIST (10) */
    for (unsigned i = 0; i <= TE_REP_MAX; i++) ret(&t, 0x80000106u, 0xE101u, 0x80000108u);
    /* the I-CNT (1 unit per c.bnez) fills first: 15 + 65519 = 0xFFFE units (TE_ICNT_MAX - 1)
     * at the 65519th not-taken branch: RESOURCE FULL RCODE 0, before the count fills */
    TS_ASSERT_EQ_U(t.fifo_count, base + 3);
    te_entry_t *ic = &t.fifo[(t.fifo_head + base) % t.fifo_cap];
    TS_ASSERT_EQ_U(ic->tcode, 27);
    TS_ASSERT_EQ_U(ic->code, 0);
    TS_ASSERT_EQ_U(ic->data, TE_ICNT_MAX - 1);
    te_entry_t *h = &t.fifo[(t.fifo_head + base + 1) % t.fifo_cap];
    te_entry_t *c = &t.fifo[(t.fifo_head + base + 2) % t.fifo_cap];
    TS_ASSERT_EQ_U(h->tcode, 27);
    TS_ASSERT_EQ_U(h->code, 1);
    TS_ASSERT_EQ_U(h->idtag, 0xFFFFu);
    TS_ASSERT_EQ_U(c->tcode, 27);
    TS_ASSERT_EQ_U(c->code, 8);
    TS_ASSERT_EQ_U(c->idtag, 0xFFFFu);
    TS_ASSERT_EQ_U(t.prog.rep, 0);
    TS_ASSERT_EQ_U(t.prog.hist, 2);
    te_free(&t);
    t = make_prog_te(64, 0); /* teInstruction 6: HIST only */
    start(&t, (CTRL_BTM & ~0x70u) | 6u << 4, 0x100);
    wr(&t, TSC, 0x00008001u);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u);
    for (unsigned i = 0; i < 20; i++) ret(&t, 0x80000104u, 0xE101u, 0x80000106u);
    TS_ASSERT_EQ_U(t.prog.rep, 0);
    TS_ASSERT_EQ_U(t.prog.hist, 1u << 20);
    te_free(&t);
}

/* HTM: a loop made of conditional branches only still fills the I-CNT. teSyncMaxInst 0: the
 * limit is 2^5 = 32 half-word units; 16 taken `beq x0, x0, 0` (4 bytes: 2 units each) reach it
 * at the 16th, which must give RESOURCE FULL RCODE 0 with I-CNT 32 (HIST keeps its 16 ones) */
TS_TEST(htm_branch_only_loop_fills_icnt) {
    te_t t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u & ~(0xFu << 20)) | 6u << 4, 0x100);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000108u); /* the store that started tracing: SYNC 5 */
    unsigned base = t.fifo_count;
    for (unsigned i = 0; i < 15; i++) ret(&t, 0x80000108u, 0x00000063u, 0x80000108u);
    TS_ASSERT_EQ_U(t.fifo_count, base); /* 30 units: below the limit */
    ret(&t, 0x80000108u, 0x00000063u, 0x80000108u);
    TS_ASSERT_EQ_U(t.fifo_count, base + 1);
    te_entry_t *f = &t.fifo[(t.fifo_head + base) % t.fifo_cap];
    TS_ASSERT_EQ_U(f->tcode, 27);
    TS_ASSERT_EQ_U(f->code, 0);
    TS_ASSERT_EQ_U(f->data, 32);
    TS_ASSERT_EQ_U(t.prog.icnt, 0);
    TS_ASSERT_EQ_U(t.prog.hist, 0x1FFFFu); /* stop bit + 16 taken */
    te_free(&t);
}

/* HTM on a loop of conditional branches only: the RESOURCE FULL messages count towards
 * teSyncMaxBTM (n = 0: 2^5 = 32 messages), and the periodic sync then comes at the next
 * conditional branch as INDIRECT BRANCH HISTORY WS (29): I-CNT up to and including it, HIST
 * of the outcomes before it, F-ADDR = where it went (its outcome, dqr's rule for a branch
 * that ends a 29's I-CNT). teInstruction 7 first flushes a run being counted. */
static te_entry_t *nth(te_t *t, unsigned i) { return &t->fifo[(t->fifo_head + i) % t->fifo_cap]; }

TS_TEST(htm_periodic_sync_at_branch) {
    /* 6: teSyncMaxBTM 0, teSyncMaxInst 15 (the 16-bit counter); c.bnez a0,0 taken = to itself */
    te_t t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u & ~0x00FF0000u) | 0x00F00000u | 6u << 4, 0x100);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* SYNC 5 */
    TS_ASSERT_EQ_U(t.fifo_count, 1);
    for (unsigned i = 0; i < 32 * 31; i++) ret(&t, 0x80000104u, 0xE101u, 0x80000104u);
    TS_ASSERT_EQ_U(t.fifo_count, 33); /* 32 full histories, RCODE 1 */
    TS_ASSERT_EQ_U(nth(&t, 32)->tcode, 27);
    TS_ASSERT_EQ_U(nth(&t, 32)->code, 1);
    TS_ASSERT_EQ_U(nth(&t, 32)->idtag, 0xFFFFFFFFu);
    ret(&t, 0x80000104u, 0xE101u, 0x80000106u); /* the 993rd, not taken: the sync */
    TS_ASSERT_EQ_U(t.fifo_count, 34);
    te_entry_t *e = nth(&t, 33);
    TS_ASSERT_EQ_U(e->tcode, 29);
    TS_ASSERT_EQ_U(e->code, 2); /* SYNC 2 periodic */
    TS_ASSERT_EQ_U(e->btype, 0);
    TS_ASSERT_EQ_U(e->data, 993); /* 993 compressed branches, 1 unit each */
    TS_ASSERT_EQ_U(e->addr, 0x80000106u);
    TS_ASSERT_EQ_U(e->idtag, 1); /* no outcome since the last RCODE 1 */
    TS_ASSERT_EQ_U(t.prog.msgs_since_sync, 0);
    te_free(&t);

    /* 7: teSyncMaxInst 0 (32 units). 31 returns with an empty stack (INDIRECT BRANCH HISTORY),
     * a not-taken c.bnez (HIST 10, 1 unit), 16 taken beq a0,a1,0 (the run leaves HIST; I-CNT 33: RESOURCE
     * FULL RCODE 0, the 32nd message), a 17th taken beq: HIST (RCODE 1, 10), the count (RCODE
     * 9, 16), then 29 with I-CNT 2, HIST 1 and the taken target */
    t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u & ~0x00FF0000u) | 7u << 4, 0x100);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u);
    for (unsigned i = 0; i < 31; i++) ret(&t, 0x80000104u, 0x00008067u, 0x80000200u);
    TS_ASSERT_EQ_U(t.fifo_count, 32);
    ret(&t, 0x80000200u, 0xE101u, 0x80000202u);
    for (unsigned i = 0; i < 16; i++) ret(&t, 0x80000202u, 0x00b50063u, 0x80000202u);
    TS_ASSERT_EQ_U(t.prog.rep, 16);
    TS_ASSERT_EQ_U(t.fifo_count, 33);
    TS_ASSERT_EQ_U(nth(&t, 32)->tcode, 27);
    TS_ASSERT_EQ_U(nth(&t, 32)->code, 0);
    TS_ASSERT_EQ_U(nth(&t, 32)->data, 33);
    ret(&t, 0x80000202u, 0x00b50063u, 0x80000202u);
    TS_ASSERT_EQ_U(t.fifo_count, 36);
    TS_ASSERT_EQ_U(nth(&t, 33)->tcode, 27);
    TS_ASSERT_EQ_U(nth(&t, 33)->code, 1);
    TS_ASSERT_EQ_U(nth(&t, 33)->idtag, 2);
    TS_ASSERT_EQ_U(nth(&t, 34)->tcode, 27);
    TS_ASSERT_EQ_U(nth(&t, 34)->code, 9);
    TS_ASSERT_EQ_U(nth(&t, 34)->idtag, 16);
    e = nth(&t, 35);
    TS_ASSERT_EQ_U(e->tcode, 29);
    TS_ASSERT_EQ_U(e->data, 2);
    TS_ASSERT_EQ_U(e->addr, 0x80000202u);
    TS_ASSERT_EQ_U(e->idtag, 1);
    TS_ASSERT_EQ_U(t.prog.rep, 0);
    te_free(&t);
}

/* teInstruction 7: every sync-type message empties the return stack, the periodic one too
 * (dqr's resetStack on 9/11/12/29, after walking its I-CNT): a return to a call made before
 * the sync is not inferred, it gets its INDIRECT BRANCH HISTORY */
TS_TEST(htm_ret_sync_empties_stack) {
    te_t t = make_prog_te(64, 0);
    start(&t, (CTRL_BTM & ~0x70u & ~0x00FF0000u) | 0x00F00000u | 7u << 4, 0x100); /* maxBTM 0 */
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u);                               /* SYNC 5 */
    ret(&t, 0x80000104u, 0x100000efu, 0x80000204u);                               /* jal ra, +0x100: pushes 0x80000108 */
    TS_ASSERT_EQ_U(t.prog.sp, 1);
    for (unsigned i = 0; i < 32; i++) ret(&t, 0x80000204u, 0x00078067u, 0x80000204u); /* jr a5 */
    TS_ASSERT_EQ_U(t.fifo_count, 33);                                                 /* 32 INDIRECT BRANCH HISTORY */
    TS_ASSERT_EQ_U(t.prog.sp, 1);
    ret(&t, 0x80000204u, 0x00078067u, 0x80000208u); /* the 33rd: the periodic sync, 29 */
    TS_ASSERT_EQ_U(t.fifo_count, 34);
    TS_ASSERT_EQ_U(nth(&t, 33)->tcode, 29);
    TS_ASSERT_EQ_U(t.prog.sp, 0);
    ret(&t, 0x80000208u, 0x00008067u, 0x80000108u); /* ret to the call's return address */
    TS_ASSERT_EQ_U(t.fifo_count, 35);
    TS_ASSERT_EQ_U(nth(&t, 34)->tcode, 28);
    TS_ASSERT_EQ_U(nth(&t, 34)->addr, 0x80000108u);
    te_free(&t);
}

/* RV64 (te_cfg_t.rv64): addresses above 4 GiB and sign-extended ones (what `lui` gives on
 * RV64 for 0x80000000) go out whole: F-ADDR = pc >> 1, U-ADDR = (pc XOR the last reported
 * address) >> 1 (facts 4.6), every bit, read back with split_fields (not the model's packer) */
TS_TEST(btm_rv64_addresses) {
    te_t t = make_prog_te_xlen(8, 0, true);
    start(&t, CTRL_BTM, 0x100);
    const uint64_t a0 = 0x120000100ull, hi = 0xFFFFFFFF80000010ull, h = 0x200000040ull;
    ret(&t, a0, 0x00f72023u, a0 + 4); /* the store that started tracing: SYNC */
    ret(&t, a0 + 4, 0x00008067u, hi); /* ret: INDIRECT BRANCH */
    trap(&t, hi, 0x00000073u, h, 11); /* ecall: INDIRECT BRANCH, B-TYPE trap */
    ret(&t, h, 0x30200073u, hi + 4);  /* mret: INDIRECT BRANCH */
    wr(&t, CTRL, CTRL_BTM);           /* trace stop: Correlation */
    uint8_t got[128];
    uint64_t f[TE_T_MSGS][TE_T_FIELDS];
    unsigned n = drain_sram(&t, got, sizeof got, 10000);
    unsigned m = split_fields(got, n, f);
    TS_ASSERT(m >= 5);
    TS_ASSERT_EQ_U(f[0][0] & 0x3F, 9); /* SYNC */
    TS_ASSERT_EQ_U(f[0][1], (a0 + 4) >> 1);
    TS_ASSERT_EQ_U(f[1][0] & 0x3F, 4); /* INDIRECT BRANCH */
    TS_ASSERT_EQ_U(f[1][1], ((a0 + 4) ^ hi) >> 1);
    TS_ASSERT_EQ_U(f[2][0] & 0x3F, 4);
    TS_ASSERT_EQ_U((f[2][0] >> 6) & 3, 1); /* B-TYPE 1: a trap */
    TS_ASSERT_EQ_U(f[2][1], (hi ^ h) >> 1);
    TS_ASSERT_EQ_U(f[3][1], (h ^ (hi + 4)) >> 1);
    TS_ASSERT_EQ_U(f[4][0] & 0x3F, 33); /* Correlation */
    te_free(&t);
}

/* HTM 7's return stack follows the hart's XLEN: 0x2505 is C.JAL on RV32 (a call: it pushes
 * pc + 2, and a return there is inferred, no message) but C.ADDIW on RV64 (no call: the same
 * return must be reported) */
static unsigned c_jal_return_messages(bool rv64) {
    te_t t = make_prog_te_xlen(64, 0, rv64);
    start(&t, (CTRL_BTM & ~0x70u) | 7u << 4, 0x100);
    ret(&t, 0x80000100u, 0x00f72023u, 0x80000104u); /* SYNC 5 */
    unsigned base = t.fifo_count;
    ret(&t, 0x80000104u, 0x2505u, 0x80000200u); /* RV32: c.jal to 0x80000200, pushes 0x80000106 */
    ret(&t, 0x80000200u, 0x8082u, 0x80000106u); /* c.jr ra back to 0x80000106 */
    unsigned k = t.fifo_count - base;
    te_free(&t);
    return k;
}
TS_TEST(htm_ret_c_jal_is_rv32_only) {
    TS_ASSERT_EQ_U(c_jal_return_messages(false), 0);
    TS_ASSERT_EQ_U(c_jal_return_messages(true), 1);
}

TS_TEST_MAIN()
