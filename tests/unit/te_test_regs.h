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
static inline te_t make_prog_te(unsigned depth, unsigned force) {
    te_cfg_t c;
    te_default_cfg(&c);
    c.itc_depth = depth;
    c.insn_force = force;
    te_t t;
    if (te_init(&t, &c)) TS_FAIL("te_init failed");
    return t;
}
/* one retired instruction that is not a trap (npc: the next pc), and one that traps */
static inline void ret(te_t *t, uint32_t pc, uint32_t insn, uint32_t npc) { te_prog_retire(t, pc, insn, npc, false, 0); }
static inline void trap(te_t *t, uint32_t pc, uint32_t insn, uint32_t handler, uint32_t cause) {
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
#endif
