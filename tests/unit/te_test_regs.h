/* te_test_regs.h - what the trace encoder's unit tests (test_trace.c, test_te_prog.c,
 * test_te_event.c) share: register access with the status checked, a retirement fed by hand,
 * and reading back what the SRAM sink holds. Static functions: each test file is its own
 * program. */
#ifndef TS_TE_TEST_REGS_H
#define TS_TE_TEST_REGS_H
#include "te.h"
#include "ts_test.h"

enum { TE_CTRL = 0x000,
       TE_WP = 0x01C,
       TE_RP = 0x020,
       TE_DATA = 0x024 };

static inline uint32_t rd(te_t *t, uint32_t off) {
    uint32_t v = 0xdeadbeef;
    TS_ASSERT_EQ_I(te_read(t, off, 4, &v), TE_OK);
    return v;
}
static inline void wr(te_t *t, uint32_t off, uint32_t v) { TS_ASSERT_EQ_I(te_write(t, off, 4, v), TE_OK); }

/* an encoder with the default configuration, an ITC FIFO of `depth` and teInstruction forced
 * to `force` (TE_INSN_*, 0: not forced) */
static inline te_t make_prog_te_xlen(unsigned depth, unsigned force, bool rv64) {
    te_cfg_t c;
    te_default_cfg(&c);
    c.itc_depth = depth;
    c.insn_force = force;
    c.rv64 = rv64;
    te_t t;
    if (te_init(&t, &c)) TS_FAIL("te_init failed");
    return t;
}
static inline te_t make_prog_te(unsigned depth, unsigned force) { return make_prog_te_xlen(depth, force, false); }
/* one retired instruction that is not a trap (npc: the next pc), and one that traps */
static inline void ret(te_t *t, uint64_t pc, uint32_t insn, uint64_t npc) { te_prog_retire(t, pc, insn, npc, false, 0); }
static inline void trap(te_t *t, uint64_t pc, uint32_t insn, uint64_t handler, uint64_t cause) {
    te_prog_retire(t, pc, insn, handler, true, cause);
}

/* flushes (teEnable = 0, teTracing = 0), ticks up to `limit` cycles until teEmpty, and reads
 * the SRAM through RP/Data into out (at most max bytes); the number of bytes */
static inline unsigned drain_sram(te_t *t, uint8_t *out, unsigned max, int limit) {
    wr(t, TE_CTRL, rd(t, TE_CTRL) & ~6u);
    for (int i = 0; i < limit && !(rd(t, TE_CTRL) & 8); i++) te_tick(t);
    TS_ASSERT(rd(t, TE_CTRL) & 8);
    uint32_t wp = rd(t, TE_WP) & ~1u;
    wr(t, TE_RP, 0);
    unsigned n = 0;
    for (uint32_t a = 0; a < wp && n + 4 <= max; a += 4) {
        uint32_t w = rd(t, TE_DATA);
        for (int k = 0; k < 4; k++) out[n++] = (uint8_t)(w >> (8 * k));
    }
    return n;
}

/* the fields of the n bytes of messages in got, split by MSEO as trace-hw-facts.md 4.1 says
 * (each byte: MDO bits 7:2, LSB first; MSEO 1 ends a field, 3 a field and the message),
 * independent of the encoder's packing code: field[m][k] is field k of message m (the first
 * holds TCODE in bits 5:0 and the fixed fields after it); the number of messages */
#define TE_T_MSGS 16
#define TE_T_FIELDS 8
static inline unsigned split_fields(const uint8_t *got, unsigned n, uint64_t field[TE_T_MSGS][TE_T_FIELDS]) {
    unsigned m = 0, k = 0, bit = 0;
    memset(field, 0, sizeof(uint64_t) * TE_T_MSGS * TE_T_FIELDS);
    for (unsigned i = 0; i < n && m < TE_T_MSGS; i++) {
        if (k < TE_T_FIELDS && bit < 64) field[m][k] |= (uint64_t)(got[i] >> 2) << bit;
        bit += 6;
        unsigned mseo = got[i] & 3u;
        if (mseo == 1 || mseo == 3) {
            k++;
            bit = 0;
        }
        if (mseo == 3) {
            m++;
            k = 0;
        }
    }
    return m;
}
#endif
