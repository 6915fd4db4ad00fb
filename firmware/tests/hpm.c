/* hpm.c - the HPM counters count exactly what the core does. Each case programs counters,
 * runs a hand-written instruction sequence and compares the counts with values worked out
 * from the sequence and the core's documented behaviour (docs/internals.md "Pipeline and timing").
 * The program probes the counter width, so the same ELF also runs with --hpm-width 12. */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "ts_hpm.h"

#define RD(csr) TS_CSR_READ(csr)
static volatile uint32_t data[16];
static volatile uint32_t traps_seen;
static uint32_t ctr_mask = 0xFFFFFFFFu;   /* counter differences wrap at the counter width */

static uint32_t skip_ecall(uint32_t cause, uint32_t epc, uint32_t tval) { traps_seen++; return epc + 4; }
static uint32_t on_timer(uint32_t cause, uint32_t epc, uint32_t tval) {
    ts_set_mtimecmp(~0ull);
    return epc;
}

/* counts of mhpmcounter3/4 across an asm block */
#define COUNT2(ev3, ev4, block, d3, d4)                                                 \
    do {                                                                                \
        TS_CSR_WRITE(mhpmevent3, ev3);                                                  \
        TS_CSR_WRITE(mhpmevent4, ev4);                                                  \
        uint32_t a3, a4, b3, b4;                                                        \
        __asm__ volatile("csrr %0, mhpmcounter3\n csrr %1, mhpmcounter4\n" block        \
                         "\n csrr %2, mhpmcounter3\n csrr %3, mhpmcounter4"             \
                         : "=&r"(a3), "=&r"(a4), "=&r"(b3), "=&r"(b4)                   \
                         : "r"(data) : "t0", "t1", "t2", "memory");                     \
        d3 = (b3 - a3) & ctr_mask; d4 = (b4 - a4) & ctr_mask;                                                     \
    } while (0)

/* COUNT2 of a timing event (a stall) on the block's second pass, when its code and data
 * are in the timing caches (when on): a first pass's cache misses would depend on where the
 * compiler put the block and hide stalls; without caches both passes count the same */
#define COUNT2_WARM(ev3, ev4, block, d3, d4)                                            \
    do {                                                                                \
        for (volatile int pass_ = 0; pass_ < 2; pass_++) COUNT2(ev3, ev4, block, d3, d4); \
    } while (0)

int main(void) {
    uint32_t d3, d4;
    TS_CSR_WRITE(mcountinhibit, 0);

    /* probing: mcounteren shows the implemented counters; all ones gives the width */
    TS_CSR_WRITE(mcounteren, 0xFFFFFFFF);
    CHECK_EQ(RD(mcounteren), 0xFFFFFFFF & ~0u);     /* 29 counters: all 32 bits */
    TS_CSR_WRITE(mhpmcounter3, 0xFFFFFFFF);
    TS_CSR_WRITE(mhpmcounter3h, 0xFFFFFFFF);
    uint32_t hi = RD(mhpmcounter3h), lo = RD(mhpmcounter3);
    unsigned width = 0;
    for (uint64_t v = ((uint64_t)hi << 32) | lo; v; v >>= 1) width++;
    printf("hpm: mhpmcounter3 is %u bits wide\n", width);
    TS_CSR_WRITE(mhpmcounter3h, 0);
    if (width < 32) ctr_mask = (1u << width) - 1;

    /* loads and stores: 5 loads (one byte, one half), 3 stores */
    COUNT2(TS_HPM_LOAD, TS_HPM_STORE,
           "lw t0, 0(%4)\n lw t1, 4(%4)\n lb t2, 8(%4)\n lhu t0, 12(%4)\n lw t1, 16(%4)\n"
           "sw t0, 20(%4)\n sh t1, 24(%4)\n sb t2, 28(%4)", d3, d4);
    CHECK_EQ(d3, 5);
    CHECK_EQ(d4, 3);

    /* one selector counting loads or stores: the same 8 instructions */
    COUNT2(TS_HPM_LOAD | TS_HPM_STORE, TS_HPM_INT_ARITH,
           "lw t0, 0(%4)\n sw t0, 4(%4)\n addi t1, t0, 1\n lw t1, 8(%4)\n sw t1, 12(%4)\n"
           "add t2, t1, t0\n lw t2, 0(%4)\n sw t2, 0(%4)\n lw t0, 0(%4)\n sw t0, 0(%4)", d3, d4);
    CHECK_EQ(d3, 8);
    CHECK_EQ(d4, 2);

    /* branches: a 10-iteration backward loop (10 branches, the last one mispredicted as
     * BTFN predicts backward taken) then 4 forward taken branches (all mispredicted) and
     * 2 forward not-taken ones (predicted right) */
    COUNT2(TS_HPM_COND_BRANCH, TS_HPM_BR_MISPREDICT,
           "li t0, 10\n 1: addi t0, t0, -1\n bnez t0, 1b\n"
           "beqz t0, 2f\n 2: beqz t0, 3f\n 3: beqz t0, 4f\n 4: beqz t0, 5f\n 5:"
           "bnez t0, 6f\n bnez t0, 6f\n 6:", d3, d4);
    CHECK_EQ(d3, 16);
    CHECK_EQ(d4, 1 + 4);

    /* jumps: 2 JAL (predicted, no mispredict), 2 JALR (always a target mispredict) */
    COUNT2(TS_HPM_JAL | TS_HPM_JALR, TS_HPM_JMP_MISPREDICT,
           "jal t0, 1f\n 1: jal t0, 2f\n 2: la t1, 3f\n jalr t0, 0(t1)\n 3: la t1, 4f\n"
           "jalr t0, 0(t1)\n 4:", d3, d4);
    CHECK_EQ(d3, 4);
    CHECK_EQ(d4, 2);

    /* multiply and divide; each divide waits 34 cycles in EX (long-latency interlock) */
    COUNT2_WARM(TS_HPM_MUL | TS_HPM_DIV, TS_HPM_LONG_LATENCY,
           "li t0, 100\n li t1, 7\n mul t2, t0, t1\n mulhu t2, t0, t1\n div t2, t0, t1\n"
           "remu t2, t0, t1\n mul t2, t2, t2", d3, d4);
    CHECK_EQ(d3, 5);
    CHECK_EQ(d4, 2 * 34);

    /* load-use: 3 loads each used at once, 1 used after a gap */
    COUNT2_WARM(TS_HPM_LOAD_USE, TS_HPM_LOAD,
           "lw t0, 0(%4)\n addi t0, t0, 1\n lw t1, 0(%4)\n add t1, t1, t1\n"
           "lw t2, 0(%4)\n sw t2, 4(%4)\n lw t0, 0(%4)\n nop\n addi t0, t0, 1", d3, d4);
    CHECK_EQ(d3, 3);   /* the store's data is needed in EX, so sw after lw also waits */
    CHECK_EQ(d4, 4);

    /* exceptions: 3 ecalls, each skipped by the handler */
    ts_set_trap_handler(11, skip_ecall);
    COUNT2(TS_HPM_EXC_TAKEN, TS_HPM_SYSTEM, "ecall\n ecall\n ecall", d3, d4);
    CHECK_EQ(d3, 3);
    CHECK_EQ(traps_seen, 3);

    /* interrupts: two timer interrupts taken while spinning */
    ts_set_trap_handler(0x80000007u, on_timer);
    TS_CSR_WRITE(mhpmevent5, TS_HPM_IRQ_TAKEN);
    uint32_t i0 = RD(mhpmcounter5);
    TS_CSR_SET(mie, 1u << 7);
    TS_CSR_SET(mstatus, 1u << 3);
    for (int k = 0; k < 2; k++) {
        ts_set_mtimecmp(ts_mtime() + 3);
        while (((RD(mhpmcounter5) - i0) & ctr_mask) == (uint32_t)k) { }
    }
    TS_CSR_CLEAR(mstatus, 1u << 3);
    CHECK_EQ((RD(mhpmcounter5) - i0) & ctr_mask, 2);

    /* mcountinhibit stops a counter; clearing it resumes */
    TS_CSR_WRITE(mhpmevent3, TS_HPM_LOAD);
    TS_CSR_SET(mcountinhibit, 1u << 3);
    uint32_t h0 = RD(mhpmcounter3);
    for (int k = 0; k < 4; k++) (void)data[k];
    CHECK_EQ(RD(mhpmcounter3), h0);
    TS_CSR_CLEAR(mcountinhibit, 1u << 3);
    (void)data[0];
    CHECK_EQ((RD(mhpmcounter3) - h0) & ctr_mask, 1);

    /* RV32 high/low reads across a carry: high, low, high until the highs agree */
    TS_CSR_WRITE(mcycleh, 0);
    TS_CSR_WRITE(mcycle, 0xFFFFFF00u);
    uint64_t last = 0, v;
    do {
        v = ts_rdcycle();
        CHECK_EQ(v >= last, 1);
        CHECK_EQ(v < 0x100001000ull, 1);
        last = v;
    } while (v < 0x100000040ull);
    CHECK_EQ(RD(mcycleh), 1);

    /* wrap of a counter narrower than 32 bits (run with --hpm-width 12) */
    if (width < 32) {
        uint32_t top = (1u << width) - 1;
        TS_CSR_WRITE(mhpmevent3, TS_HPM_LOAD);
        TS_CSR_WRITE(mhpmcounter3, 0xFFFFFFFF);           /* truncated to the width */
        CHECK_EQ(RD(mhpmcounter3), top);
        TS_CSR_WRITE(mhpmcounter3, top - 5);
        for (int k = 0; k < 10; k++) (void)data[k];       /* 10 loads */
        CHECK_EQ(RD(mhpmcounter3), 4);                    /* top - 5 + 10 wraps to 4 */
    }
    /* the OpenSBI table: cycles and instructions use the fixed counters */
    CHECK_EQ(ts_sbi_general_events[0].counter, 0);
    CHECK_EQ(ts_sbi_general_events[1].counter, 2);
    /* leave two counters programmed for the end-of-run report */
    TS_CSR_WRITE(mhpmevent3, TS_HPM_LOAD | TS_HPM_STORE);
    TS_CSR_WRITE(mhpmevent4, TS_HPM_BR_MISPREDICT);
    printf("hpm: all checks passed\n");
    return 0;
}
