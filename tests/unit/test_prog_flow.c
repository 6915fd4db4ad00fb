/* test_prog_flow.c - program-flow reconstruction (prog_flow.h, rv_insn.h) from hand-built
 * message sequences over a tiny hand-assembled RV32C image. Expected ranges are worked out
 * by hand below from the facts in trace-hw-facts.md 4.6 (I-CNT in 16-bit units including the
 * reporting instruction, HIST = stop bit then one bit per branch, oldest first, U-ADDR XOR
 * the last reported address) and the RISC-V encodings.
 *
 * The image (base 0x1000):
 *   1000 4501       c.li   a0,0
 *   1002 00050463   beq    a0,zero,100a
 *   1006 0505       c.addi a0,1
 *   1008 0001       c.nop
 *   100a 016000ef   jal    ra,1020          call f
 *   100e 8782       c.jr   a5               indirect jump
 *   1010 00000073   ecall
 *   1014 0001       c.nop
 *   ...
 *   1020 0505       c.addi a0,1             f:
 *   1022 fe051fe3   bne    a0,zero,1020
 *   1026 8082       ret
 *   ...
 *   1040 30200073   mret                    trap handler */
#include "flow_listing.h"
#include "prog_flow.h"
#include "rv_insn.h"
#include "ts_test.h"
#include <stdarg.h>

typedef struct col {
    pf_elem_t e[256];
    unsigned n;
    pf_insn_t i[256];
    unsigned ni;
} col_t;

static int put(void *c, const pf_elem_t *e) {
    col_t *o = c;
    if (o->n < 256) o->e[o->n++] = *e;
    return 0;
}
static void put_i(void *c, const pf_insn_t *i) {
    col_t *o = c;
    if (o->ni < 256) o->i[o->ni++] = *i;
}

static pf_image_t img;
static pf_t pf;
static col_t col;

static void put16(uint8_t *b, unsigned off, uint16_t v) {
    b[off] = v & 0xff;
    b[off + 1] = v >> 8;
}
static void put32(uint8_t *b, unsigned off, uint32_t v) {
    put16(b, off, v & 0xffff);
    put16(b, off + 2, v >> 16);
}

static void setup(void) {
    static uint8_t code[0x48];
    memset(code, 0, sizeof code);
    put16(code, 0x00, 0x4501);
    put32(code, 0x02, 0x00050463);
    put16(code, 0x06, 0x0505);
    put16(code, 0x08, 0x0001);
    put32(code, 0x0a, 0x016000ef);
    put16(code, 0x0e, 0x8782);
    put32(code, 0x10, 0x00000073);
    put16(code, 0x14, 0x0001);
    put16(code, 0x20, 0x0505);
    put32(code, 0x22, 0xfe051fe3);
    put16(code, 0x26, 0x8082);
    put32(code, 0x40, 0x30200073);
    pf_image_free(&img);
    TS_ASSERT_EQ_I(pf_image_add(&img, 0x1000, code, sizeof code), 0);
    pf_free(&pf);
    memset(&col, 0, sizeof col);
    pf_init(&pf, &img, put, &col);
    pf_set_insn_cb(&pf, put_i, &col);
}

static uint64_t off;
static void feed(unsigned tcode, int n, ...) { /* n (field, value) pairs */
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.tcode = (uint8_t)tcode;
    m.offset = off++;
    va_list ap;
    va_start(ap, n);
    for (int k = 0; k < n; k++) {
        int f = va_arg(ap, int);
        uint64_t v = va_arg(ap, uint64_t);
        m.fmask |= 1u << f;
        m.f[f] = v;
    }
    va_end(ap);
    pf_from_msg(&pf, &m);
}
#define F(f, v) (int)(f), (uint64_t)(v)

static void sync_at(uint64_t a) { feed(9, 3, F(NXF_SYNC, 5), F(NXF_I_CNT, 0), F(NXF_F_ADDR, a >> 1)); }

static void expect_range(unsigned k, uint64_t s, uint64_t e, uint64_t n, enum pf_itype t, bool taken) {
    TS_ASSERT(k < col.n);
    const pf_elem_t *x = &col.e[k];
    if (x->type != PF_ELEM_INSTR_RANGE || x->u.range.start != s || x->u.range.end != e || x->u.range.n != n ||
        x->u.range.last_type != t || (t != PF_I_OTHER && x->u.range.taken != taken))
        TS_FAIL("element %u: %s %llx-%llx n=%llu %s taken=%d; expected range %llx-%llx n=%llu %s taken=%d", k,
                pf_elem_name(x->type), (unsigned long long)x->u.range.start, (unsigned long long)x->u.range.end,
                (unsigned long long)x->u.range.n, pf_itype_name(x->u.range.last_type), x->u.range.taken,
                (unsigned long long)s, (unsigned long long)e, (unsigned long long)n, pf_itype_name(t), taken);
}

/* the pcs and t/nt of the instructions reported, as "pc[t|nt] ..." */
static const char *trail(void) {
    static char b[2048];
    size_t n = 0;
    b[0] = 0;
    for (unsigned k = 0; k < col.ni && n < sizeof b - 32; k++)
        n += (size_t)snprintf(b + n, sizeof b - n, "%s%llx%s", k ? " " : "", (unsigned long long)col.i[k].pc,
                              col.i[k].br == PF_BR_TAKEN ? "t" : col.i[k].br == PF_BR_NOT_TAKEN ? "nt" :
                                                                                                  "");
    return b;
}

TS_TEST(rv_classification) {
    rv_insn_t in;
    /* from the real E31 capture: 4040029a 2821 (c.jal) goes to 404002b2, 404002dc 2b1d to 40400812 */
    TS_ASSERT(rv_decode(0x2821, false, &in));
    TS_ASSERT_EQ_U(in.size, 2);
    TS_ASSERT_EQ_U(in.kind, RV_JAL);
    TS_ASSERT_EQ_U(in.rd, 1);
    TS_ASSERT_EQ_I(in.imm, 0x18);
    TS_ASSERT(rv_decode(0x2b1d, false, &in));
    TS_ASSERT_EQ_I(in.imm, 0x40400812 - 0x404002dc);
    TS_ASSERT(rv_decode(0x2821, true, &in)); /* RV64: C.ADDIW */
    TS_ASSERT_EQ_U(in.kind, RV_OTHER);
    TS_ASSERT(rv_decode(0x8082, false, &in)); /* ret = c.jr ra */
    TS_ASSERT_EQ_U(in.kind, RV_JALR);
    TS_ASSERT_EQ_U(in.rs1, 1);
    TS_ASSERT_EQ_U(in.rd, 0);
    TS_ASSERT(rv_decode(0x9782, false, &in)); /* c.jalr a5 */
    TS_ASSERT_EQ_U(in.kind, RV_JALR);
    TS_ASSERT_EQ_U(in.rs1, 15);
    TS_ASSERT_EQ_U(in.rd, 1);
    TS_ASSERT(rv_decode(0x9002, false, &in)); /* c.ebreak */
    TS_ASSERT_EQ_U(in.kind, RV_ECALL);
    TS_ASSERT(rv_decode(0x853e, false, &in)); /* c.mv a0,a5: not a jump */
    TS_ASSERT_EQ_U(in.kind, RV_OTHER);
    TS_ASSERT(rv_decode(0xa001, false, &in)); /* c.j . */
    TS_ASSERT_EQ_U(in.kind, RV_JAL);
    TS_ASSERT_EQ_U(in.rd, 0);
    TS_ASSERT_EQ_I(in.imm, 0);
    TS_ASSERT(rv_decode(0xfe051fe3, false, &in)); /* bne a0,zero,-2 */
    TS_ASSERT_EQ_U(in.size, 4);
    TS_ASSERT_EQ_U(in.kind, RV_BRANCH);
    TS_ASSERT_EQ_I(in.imm, -2);
    TS_ASSERT(rv_decode(0x016000ef, false, &in)); /* jal ra,+0x16 */
    TS_ASSERT_EQ_U(in.kind, RV_JAL);
    TS_ASSERT_EQ_U(in.rd, 1);
    TS_ASSERT_EQ_I(in.imm, 0x16);
    TS_ASSERT(rv_decode(0x000780e7, false, &in)); /* jalr ra,0(a5) */
    TS_ASSERT_EQ_U(in.kind, RV_JALR);
    TS_ASSERT_EQ_U(in.rd, 1);
    TS_ASSERT_EQ_U(in.rs1, 15);
    TS_ASSERT(rv_decode(0x30200073, false, &in));
    TS_ASSERT_EQ_U(in.kind, RV_XRET);
    TS_ASSERT_EQ_U(rv_insn_len(0x001f), 6);
    TS_ASSERT_EQ_U(rv_insn_len(0x003f), 8);
    TS_ASSERT(!rv_decode(0x007f, false, &in)); /* >= 80 bits: unsupported */
}

/* HTM: one INDIRECT BRANCH HISTORY covers c.li, beq (taken), the call, two loop turns (taken,
 * not taken), the inferred return and the indirect c.jr a5 that reports the message:
 * I-CNT = 1+2+2 + 1+2+1+2+1 + 1 = 13; HIST = stop 1, then t t nt = 0b1110; the target 1010 is
 * U-ADDR (1010 ^ 1000) >> 1 = 8 */
TS_TEST(htm_history_call_return_indirect) {
    setup();
    sync_at(0x1000);
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 13), F(NXF_U_ADDR, 8), F(NXF_HISTORY, 0xe));
    TS_ASSERT_STR_EQ(trail(), "1000 1002t 100a 1020 1022t 1020 1022nt 1026 100e");
    TS_ASSERT_EQ_U(col.n, 7);
    TS_ASSERT_EQ_I(col.e[0].type, PF_ELEM_TRACE_ON);
    TS_ASSERT_EQ_U(col.e[0].u.on.addr, 0x1000);
    expect_range(1, 0x1000, 0x1006, 2, PF_I_BRANCH, true);
    TS_ASSERT(col.e[1].u.range.cond);
    expect_range(2, 0x100a, 0x100e, 1, PF_I_CALL, true);
    expect_range(3, 0x1020, 0x1026, 2, PF_I_BRANCH, true);
    expect_range(4, 0x1020, 0x1026, 2, PF_I_BRANCH, false);
    expect_range(5, 0x1026, 0x1028, 1, PF_I_RETURN, true);
    expect_range(6, 0x100e, 0x1010, 1, PF_I_INDIRECT, true);
    TS_ASSERT(col.i[2].cr & PF_CR_CALL);
    TS_ASSERT(col.i[7].cr & PF_CR_RETURN);
    TS_ASSERT_EQ_U(col.i[0].raw, 0x4501);
    TS_ASSERT_EQ_U(col.i[1].raw, 0x00050463);
    /* exception: the ecall at 1010 (2 units) traps to 1040 (U-ADDR (1040 ^ 1010) >> 1 = 0x28,
     * B-TYPE 1); the handler's mret (2 units) returns to 1014 (U-ADDR (1014 ^ 1040) >> 1 = 0x2a) */
    feed(28, 4, F(NXF_B_TYPE, 1), F(NXF_I_CNT, 2), F(NXF_U_ADDR, 0x28), F(NXF_HISTORY, 1));
    expect_range(7, 0x1010, 0x1014, 1, PF_I_TRAP, true);
    TS_ASSERT_EQ_I(col.e[8].type, PF_ELEM_EXCEPTION);
    TS_ASSERT_EQ_U(col.e[8].u.exc.b_type, 1);
    TS_ASSERT_EQ_U(col.e[8].u.exc.addr, 0x1040);
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 2), F(NXF_U_ADDR, 0x2a), F(NXF_HISTORY, 1));
    expect_range(9, 0x1040, 0x1044, 1, PF_I_XRET, true);
    TS_ASSERT_EQ_U(col.i[10].pc, 0x1040);
    TS_ASSERT(col.i[10].cr & PF_CR_INTERRUPT); /* first instruction of the handler */
    TS_ASSERT(col.i[10].cr & PF_CR_XRET);
    /* a Correlation with I-CNT 1 (the c.nop at 1014) ends the run */
    feed(33, 3, F(NXF_EVCODE, 4), F(NXF_CDF, 0), F(NXF_I_CNT, 1));
    expect_range(10, 0x1014, 0x1016, 1, PF_I_OTHER, false);
    TS_ASSERT_EQ_I(col.e[11].type, PF_ELEM_NO_SYNC);
    TS_ASSERT_EQ_I(col.e[11].u.nosync.reason, PF_NOSYNC_STOPPED);
    TS_ASSERT_EQ_I(pf_eot(&pf, 99), 0);
    TS_ASSERT_EQ_I(col.e[col.n - 1].type, PF_ELEM_EO_TRACE);
    TS_ASSERT_EQ_U(pf.instructions, 12);
}

/* history from a RESOURCE FULL (RCODE 1): 0b111 = two taken branches; the walk stops after
 * the second (I-CNT is then -6), and the next message's I-CNT of 10 pays for them and for
 * c.addi, bne (nt, HIST 0b10) and the ret (stack empty: its target 100e comes from U-ADDR
 * (100e ^ 1020) >> 1 = 0x17) */
TS_TEST(htm_resource_full_history_then_icnt) {
    setup();
    sync_at(0x1020);
    feed(27, 2, F(NXF_RCODE, 1), F(NXF_HISTORY, 7));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t");
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 10), F(NXF_U_ADDR, 0x17), F(NXF_HISTORY, 2));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t 1020 1022nt 1026");
    expect_range(3, 0x1020, 0x1026, 2, PF_I_BRANCH, false);
    expect_range(4, 0x1026, 0x1028, 1, PF_I_RETURN, true);
    /* the flow goes on at 100e: c.jr a5 with I-CNT 1 to 1010 (U-ADDR (1010 ^ 100e) >> 1 = 0xf) */
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 0xf), F(NXF_HISTORY, 1));
    TS_ASSERT_EQ_U(col.i[col.ni - 1].pc, 0x100e);
    expect_range(5, 0x100e, 0x1010, 1, PF_I_INDIRECT, true);
}

/* issue 35 (SiFive's E31 coremark, debug build: 6 instructions, a not-taken branch's
 * fall-through up to a ret, missing before an INDIRECT BRANCH HISTORY): a sync-type message
 * that arrives while the source is synchronised restarts the flow at its address, and what
 * the walk left of the counts goes with it. Here a RESOURCE FULL history 0b111 walks two taken
 * bne (I-CNT 0 - 2 x (1 + 2) = -6); a periodic SYNC (reason 2) with I-CNT 4 at 1020 leaves
 * -6 + 4 = -2, which the sync discards; then INDIRECT BRANCH HISTORY I-CNT 4, HIST 0b10 pays
 * for c.addi (1), bne nt (2) and the ret (1) to 100e (stack empty: U-ADDR (100e ^ 1020) >> 1
 * = 0x17). Kept, the -2 would end the walk after the bne (I-CNT 2 = c.addi + bne) and the ret
 * would be missing, the flow jumping from the bne's fall-through to 100e. */
TS_TEST(htm_sync_while_synced_discards_leftover_counts) {
    setup();
    sync_at(0x1020);
    feed(27, 2, F(NXF_RCODE, 1), F(NXF_HISTORY, 7));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t");
    feed(9, 3, F(NXF_SYNC, 2), F(NXF_I_CNT, 4), F(NXF_F_ADDR, 0x1020 >> 1));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t");
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 4), F(NXF_U_ADDR, 0x17), F(NXF_HISTORY, 2));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t 1020 1022nt 1026");
    TS_ASSERT(col.i[col.ni - 1].cr & PF_CR_RETURN);
    /* the flow goes on at 100e: c.jr a5 with I-CNT 1 to 1010 (U-ADDR (1010 ^ 100e) >> 1 = 0xf) */
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 0xf), F(NXF_HISTORY, 1));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t 1020 1022nt 1026 100e");
    TS_ASSERT_EQ_U(pf.lost, 0);
    /* a positive leftover too: an I-CNT RESOURCE FULL of 5 units reaches the bne at 1022 with
     * no history (it waits, 4 units left); an INDIRECT BRANCH HISTORY WS (TCODE 29) with I-CNT 0
     * and an empty history moves the flow to 100e (F-ADDR); the next message's I-CNT 1 is the
     * c.jr a5 there alone (to 1010: U-ADDR (1010 ^ 100e) >> 1 = 0xf). Kept, the 4 units would
     * leave counts after the indirect jump: inconsistent flow, sync lost. */
    sync_at(0x1020);
    unsigned before = col.ni;
    feed(27, 2, F(NXF_RCODE, 0), F(NXF_I_CNT, 5));
    feed(29, 5, F(NXF_SYNC, 2), F(NXF_B_TYPE, 0), F(NXF_I_CNT, 0), F(NXF_F_ADDR, 0x100e >> 1), F(NXF_HISTORY, 1));
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 0xf), F(NXF_HISTORY, 1));
    TS_ASSERT_EQ_U(col.ni, before + 2);
    TS_ASSERT_EQ_U(col.i[before].pc, 0x1020);
    TS_ASSERT_EQ_U(col.i[before + 1].pc, 0x100e);
    TS_ASSERT_EQ_U(pf.lost, 0);
}

/* an I-CNT RESOURCE FULL (RCODE 0, 5 units) reaches the bne with no history: the branch
 * waits (is not reported) until the next message brings HIST 0b110 (t, nt); I-CNT 2 more:
 * 4 left + 2 = bne 2 + c.addi 1 + bne 2 + ret 1 */
TS_TEST(htm_branch_waits_for_history) {
    setup();
    sync_at(0x1020);
    feed(27, 2, F(NXF_RCODE, 0), F(NXF_I_CNT, 5));
    TS_ASSERT_STR_EQ(trail(), "1020");
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 2), F(NXF_U_ADDR, 0x17), F(NXF_HISTORY, 6));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022nt 1026");
    TS_ASSERT_EQ_U(pf.lost, 0);
}

/* RESOURCE FULL RCODE 9: three taken branches in a row (no HIST) */
TS_TEST(htm_taken_count) {
    setup();
    sync_at(0x1020);
    feed(27, 2, F(NXF_RCODE, 9), F(NXF_COUNT, 3));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t 1020 1022t");
}

/* teInstruction 7's repeat counts as SiFive's dqr consumes them (trace.cpp nextAddr /
 * Count::getCurrentCountType): a conditional branch takes HIST first, then the taken count,
 * then the not-taken count; the walk of a count-only message stops after its last branch
 * (I-CNT then negative: 3 x (1 + 2) = -9), and the next message's I-CNT pays for all. Here:
 * RCODE 9 count 3 (three loop turns taken), RCODE 8 count 1 (the exit), then INDIRECT BRANCH
 * HISTORY for the ret (stack empty): I-CNT 4 x 3 + 1 = 13, U-ADDR
 * (100e ^ 1020) >> 1 = 0x17, HIST 1. A count of 0 brings nothing (dqr ignores it). */
TS_TEST(htm_repeat_counts_then_history) {
    setup();
    sync_at(0x1020);
    feed(27, 2, F(NXF_RCODE, 9), F(NXF_COUNT, 0));
    TS_ASSERT_EQ_U(col.ni, 0);
    feed(27, 2, F(NXF_RCODE, 9), F(NXF_COUNT, 3));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t 1020 1022t");
    feed(27, 2, F(NXF_RCODE, 8), F(NXF_COUNT, 1));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t 1020 1022t 1020 1022nt");
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 13), F(NXF_U_ADDR, 0x17), F(NXF_HISTORY, 1));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022t 1020 1022t 1020 1022nt 1026");
    TS_ASSERT_EQ_U(pf.lost, 0);
    for (unsigned k = 0; k < 8; k++) TS_ASSERT(col.i[k].deferred); /* walked under RESOURCE FULL */
    TS_ASSERT(!col.i[8].deferred);
    expect_range(1, 0x1020, 0x1026, 2, PF_I_BRANCH, true);
    expect_range(4, 0x1020, 0x1026, 2, PF_I_BRANCH, false);
    expect_range(5, 0x1026, 0x1028, 1, PF_I_RETURN, true);
}

/* the encoder's order when a run ends after other outcomes: RCODE 1 with the outcomes before
 * the run (HIST 11: one taken bne), then RCODE 8 count 1; the history is used first */
TS_TEST(htm_history_before_count) {
    setup();
    sync_at(0x1020);
    feed(27, 2, F(NXF_RCODE, 1), F(NXF_HISTORY, 3));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t");
    feed(27, 2, F(NXF_RCODE, 8), F(NXF_COUNT, 1));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022nt");
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 7), F(NXF_U_ADDR, 0x17), F(NXF_HISTORY, 1));
    TS_ASSERT_STR_EQ(trail(), "1020 1022t 1020 1022nt 1026");
    TS_ASSERT_EQ_U(pf.lost, 0);
}

/* BTM: DIRECT BRANCH I-CNT 3 = c.li + beq, taken (it uses up the I-CNT of a direct branch
 * message); DIRECT BRANCH I-CNT 5 = jal + c.addi + bne taken; INDIRECT BRANCH I-CNT 4 =
 * c.addi + bne (not taken: I-CNT left) + ret, whose target is the message's: U-ADDR
 * (100e ^ 1000) >> 1 = 7 (the last reported address is the sync's 1000) */
TS_TEST(btm_direct_and_indirect) {
    setup();
    sync_at(0x1000);
    feed(3, 1, F(NXF_I_CNT, 3));
    feed(3, 1, F(NXF_I_CNT, 5));
    feed(4, 3, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 4), F(NXF_U_ADDR, 7));
    TS_ASSERT_STR_EQ(trail(), "1000 1002t 100a 1020 1022t 1020 1022nt 1026");
    feed(4, 3, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 0)); /* c.jr a5 to 100e ^ 0 */
    TS_ASSERT_EQ_U(col.i[col.ni - 1].pc, 0x100e);
    TS_ASSERT_EQ_U(pf.lost, 0);
}

/* Ownership (and ICT Context) give PE_CONTEXT and leave BTM decoding in BTM: the flow of
 * btm_direct_and_indirect with an Ownership message after the sync and between the branch
 * messages (dqr would switch to HTM there and stop at the first conditional branch) */
TS_TEST(btm_ownership_keeps_btm) {
    setup();
    sync_at(0x1000);
    feed(2, 1, F(NXF_PROCESS, 3 << 2)); /* M-mode after the sync */
    feed(3, 1, F(NXF_I_CNT, 3));
    feed(2, 1, F(NXF_PROCESS, 1 << 2)); /* a change to S */
    feed(3, 1, F(NXF_I_CNT, 5));
    feed(34, 4, F(NXF_CKSRC, 13), F(NXF_CKDF, 1), F(NXF_U_ADDR, 0), F(NXF_CKDATA1, 0)); /* ICT Context: U */
    feed(4, 3, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 4), F(NXF_U_ADDR, 7));
    TS_ASSERT_STR_EQ(trail(), "1000 1002t 100a 1020 1022t 1020 1022nt 1026");
    unsigned prv[3], n = 0;
    for (unsigned k = 0; k < col.n; k++)
        if (col.e[k].type == PF_ELEM_PE_CONTEXT && n < 3) {
            TS_ASSERT_EQ_U(col.e[k].u.ctx.v, 0);
            TS_ASSERT_EQ_U(col.e[k].u.ctx.context, 0);
            prv[n++] = col.e[k].u.ctx.prv;
        }
    TS_ASSERT_EQ_U(n, 3);
    TS_ASSERT_EQ_U(prv[0], 3);
    TS_ASSERT_EQ_U(prv[1], 1);
    TS_ASSERT_EQ_U(prv[2], 0);
    TS_ASSERT_EQ_U(pf.lost, 0);
}

/* code outside the image: ADDR_NACC, then nothing until the next sync */
TS_TEST(addr_nacc_then_resync) {
    setup();
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 1), F(NXF_HISTORY, 1));
    TS_ASSERT_EQ_I(col.e[0].type, PF_ELEM_NO_SYNC); /* program trace before any sync */
    TS_ASSERT_EQ_I(col.e[0].u.nosync.reason, PF_NOSYNC_START);
    sync_at(0x2000);
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 1), F(NXF_HISTORY, 1));
    TS_ASSERT_EQ_I(col.e[2].type, PF_ELEM_ADDR_NACC);
    TS_ASSERT_EQ_U(col.e[2].u.nacc.addr, 0x2000);
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 1), F(NXF_HISTORY, 1));
    TS_ASSERT_EQ_U(col.n, 3); /* ignored until a sync */
    sync_at(0x1000);
    TS_ASSERT_EQ_I(col.e[3].type, PF_ELEM_TRACE_ON);
    feed(33, 3, F(NXF_EVCODE, 4), F(NXF_CDF, 0), F(NXF_I_CNT, 1));
    TS_ASSERT_STR_EQ(trail(), "1000");
    TS_ASSERT_EQ_U(pf.nacc, 1);
}

/* inconsistent flow: the indirect c.jr a5 at 100e with 2 units of I-CNT still to go (no
 * next address) loses the sync, reporting nothing; a corrupt message loses it too */
TS_TEST(bad_flow_and_corrupt) {
    setup();
    sync_at(0x100e);
    feed(28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 3), F(NXF_U_ADDR, 1), F(NXF_HISTORY, 1));
    TS_ASSERT_EQ_U(col.ni, 0);
    TS_ASSERT_EQ_I(col.e[col.n - 1].type, PF_ELEM_NO_SYNC);
    TS_ASSERT_EQ_I(col.e[col.n - 1].u.nosync.reason, PF_NOSYNC_BAD_FLOW);
    sync_at(0x1000);
    nxd_msg_t bad;
    memset(&bad, 0, sizeof bad);
    bad.status = NXD_BAD;
    pf_from_msg(&pf, &bad);
    TS_ASSERT_EQ_I(col.e[col.n - 1].type, PF_ELEM_NO_SYNC);
    TS_ASSERT_EQ_I(col.e[col.n - 1].u.nosync.reason, PF_NOSYNC_LOST);
    TS_ASSERT_EQ_U(pf.lost, 2);
}

/* hostile input: history to use over a loop without conditional branches (c.j . at 2000)
 * would walk forever; the walk stops after max_count units and loses the sync. An I-CNT
 * above max_count is corrupt. */
TS_TEST(bounded_walks) {
    setup();
    static const uint8_t loop[] = {0x01, 0xa0}; /* a001: c.j . */
    TS_ASSERT_EQ_I(pf_image_add(&img, 0x2000, loop, sizeof loop), 0);
    pf.max_count = 100;
    sync_at(0x2000);
    feed(27, 2, F(NXF_RCODE, 1), F(NXF_HISTORY, 3));
    TS_ASSERT_EQ_U(pf.instructions, 101); /* I-CNT 0 down to -100, then stop */
    TS_ASSERT_EQ_I(col.e[col.n - 1].type, PF_ELEM_NO_SYNC);
    TS_ASSERT_EQ_I(col.e[col.n - 1].u.nosync.reason, PF_NOSYNC_BAD_FLOW);
    sync_at(0x1000);
    feed(3, 1, F(NXF_I_CNT, 101));
    TS_ASSERT_EQ_U(pf.instructions, 101); /* nothing walked */
    TS_ASSERT_EQ_U(pf.lost, 2);
}

/* two sources (SRC 0 and 1) keep their own flow, counts, call stack and last address: hart 1
 * syncs in f at 1020, hart 0 at 1000; their messages interleave */
static void feed_src(unsigned src, unsigned tcode, int n, ...) {
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.tcode = (uint8_t)tcode;
    m.has_src = true;
    m.src = src;
    va_list ap;
    va_start(ap, n);
    for (int k = 0; k < n; k++) {
        int f = va_arg(ap, int);
        uint64_t v = va_arg(ap, uint64_t);
        m.fmask |= 1u << f;
        m.f[f] = v;
    }
    va_end(ap);
    pf_from_msg(&pf, &m);
}

TS_TEST(two_sources) {
    setup();
    feed_src(0, 9, 3, F(NXF_SYNC, 5), F(NXF_I_CNT, 0), F(NXF_F_ADDR, 0x1000 >> 1));
    feed_src(1, 9, 3, F(NXF_SYNC, 5), F(NXF_I_CNT, 0), F(NXF_F_ADDR, 0x1020 >> 1));
    /* hart 1: c.addi, bne nt, ret (stack empty: to 100e by U-ADDR (100e ^ 1020) >> 1 = 0x17):
     * I-CNT 1 + 2 + 1 = 4, HIST 0b10 */
    feed_src(1, 28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 4), F(NXF_U_ADDR, 0x17), F(NXF_HISTORY, 2));
    /* hart 0: c.li, beq taken, jal (call), c.addi, bne nt, ret (inferred: 100e), c.jr a5 to 1010
     * (U-ADDR (1010 ^ 1000) >> 1 = 8): I-CNT 1+2+2+1+2+1+1 = 10, HIST 0b110 */
    feed_src(0, 28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 10), F(NXF_U_ADDR, 8), F(NXF_HISTORY, 6));
    TS_ASSERT_EQ_U(col.ni, 3 + 7);
    static const uint64_t h1[] = {0x1020, 0x1022, 0x1026};
    static const uint64_t h0[] = {0x1000, 0x1002, 0x100a, 0x1020, 0x1022, 0x1026, 0x100e};
    for (unsigned k = 0; k < 3; k++) {
        TS_ASSERT_EQ_U(col.i[k].src, 1);
        TS_ASSERT_EQ_U(col.i[k].pc, h1[k]);
    }
    for (unsigned k = 0; k < 7; k++) {
        TS_ASSERT_EQ_U(col.i[3 + k].src, 0);
        TS_ASSERT_EQ_U(col.i[3 + k].pc, h0[k]);
    }
    /* hart 1 goes on at 100e (its c.jr a5, U-ADDR against ITS last address 100e: 0x0f -> 1010) */
    feed_src(1, 28, 4, F(NXF_B_TYPE, 0), F(NXF_I_CNT, 1), F(NXF_U_ADDR, 0xf), F(NXF_HISTORY, 1));
    TS_ASSERT_EQ_U(col.i[10].src, 1);
    TS_ASSERT_EQ_U(col.i[10].pc, 0x100e);
    TS_ASSERT_EQ_U(pf.lost, 0);
}

/* timestamps: a message with a time gives a TIMESTAMP element after the ranges it closes */
TS_TEST(timestamp_after_ranges) {
    setup();
    sync_at(0x1000);
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.tcode = 3;
    m.fmask = 1u << NXF_I_CNT;
    m.f[NXF_I_CNT] = 3;
    m.has_ts = m.tics_valid = true;
    m.tics = 1234;
    pf_from_msg(&pf, &m);
    expect_range(1, 0x1000, 0x1006, 2, PF_I_BRANCH, true);
    TS_ASSERT_EQ_I(col.e[2].type, PF_ELEM_TIMESTAMP);
    TS_ASSERT_EQ_U(col.e[2].time, 1234);
    TS_ASSERT(col.e[1].has_time);
    TS_ASSERT_EQ_U(col.e[1].time, 1234);
    pf_free(&pf);
    pf_image_free(&img);
}

/* ts_flow_open on a struct from malloc whose bytes are not zero (as MALLOC_PERTURB_ or
 * ASan's malloc_fill_byte leave them): an empty trace lists nothing. The listing buffer's
 * length lies after the buffer and was left as malloc gave it, so heap bytes were written out
 * (issue 34). */
TS_TEST(flow_open_clears_the_whole_struct) {
    ts_flow_t *f = malloc(sizeof *f);
    TS_ASSERT(f);
    memset(f, 0x81, sizeof *f);
    FILE *o = tmpfile();
    TS_ASSERT(o);
    char err[256];
    TS_ASSERT_EQ_I(ts_flow_open(f, o, NULL, true, false, err, sizeof err), 0);
    TS_ASSERT_EQ_U(f->len, 0);
    TS_ASSERT_EQ_I(ts_flow_close(f, 0), 0);
    TS_ASSERT_EQ_I(fseek(o, 0, SEEK_END), 0);
    TS_ASSERT_EQ_I(ftell(o), 0);
    fclose(o);
    free(f);
}

TS_TEST_MAIN()
