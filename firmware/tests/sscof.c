/* sscof.c - Sscofpmf on the SoC (run with --hpm-width 12): mhpmeventNh OF/MINH/SINH/UINH
 * (VSINH/VUINH read-only 0), event counting inhibited per privilege mode counted exactly,
 * counter overflow setting OF and raising the local counter overflow interrupt (LCOFI, 13)
 * only when OF was clear, scountovf (all bits in M-mode, the mcounteren ones in S-mode),
 * LCOFI taken in M-mode and, delegated, in S-mode.
 *
 * Exact counts: a block of 100 4-byte nops (addi: INT_ARITH events) is run in a mode through
 * priv_call(); the same call with an empty block is the reference, so the difference of a
 * counter is what the 100 nops added in that mode: 100 where the mode counts, 0 where it is
 * inhibited (the M-mode path of priv_call is identical in both calls). */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "priv_support.h"
#include "ts_hpm.h"

uint32_t nops100(uint32_t a);
uint32_t nops0(uint32_t a);
extern char nops100_start[];
__asm__(".section .text.nops, \"ax\"\n.balign 4\n.option push\n.option norvc\n"
        ".globl nops100\n.globl nops100_start\nnops100:\nnops100_start:\n.rept 100\naddi x0, x0, 0\n.endr\nret\n"
        ".globl nops0\nnops0:\nret\n.option pop\n");

#define OF   (1u << 31)
#define MINH (1u << 30)
#define SINH (1u << 29)
#define UINH (1u << 28)

static volatile uint32_t m_lcof, s_lcof, lcof_epc, lcof_ovf;
static uint32_t m_on_lcof(uint32_t cause, uint32_t epc, uint32_t tval) {
    m_lcof++; lcof_epc = epc; lcof_ovf = TS_CSR_READ(0xda0);
    TS_CSR_CLEAR(mip, 1u << 13);
    return epc;
}
static uint32_t s_on_lcof(uint32_t cause, uint32_t epc, uint32_t tval) {
    s_lcof++; lcof_epc = epc; lcof_ovf = TS_CSR_READ(0xda0);
    TS_CSR_CLEAR(sip, 1u << 13);
    return epc;
}

static uint32_t rd3(void) { return TS_CSR_READ(mhpmcounter3); }
static uint32_t rd4(void) { return TS_CSR_READ(mhpmcounter4); }
static uint32_t rd5(void) { return TS_CSR_READ(mhpmcounter5); }
static uint32_t rd6(void) { return TS_CSR_READ(mhpmcounter6); }

/* counter deltas over priv_call(mode, nops100) minus those over priv_call(mode, nops0) */
static void deltas(uint32_t mode, uint32_t d[4]) {
    uint32_t a[4], b[4], c[4];
    a[0] = rd3(); a[1] = rd4(); a[2] = rd5(); a[3] = rd6();
    priv_call(mode, nops0, 0);
    b[0] = rd3(); b[1] = rd4(); b[2] = rd5(); b[3] = rd6();
    priv_call(mode, nops100, 0);
    c[0] = rd3(); c[1] = rd4(); c[2] = rd5(); c[3] = rd6();
    for (int i = 0; i < 4; i++) d[i] = ((c[i] - b[i]) - (b[i] - a[i])) & 0xfff;
}

int main(void) {
    priv_init();
    unsigned checks = 0;
    TS_CSR_WRITE(mcountinhibit, 0);

    /* 1. mhpmevent3h: OF, MINH, SINH, UINH writable; VSINH, VUINH and the event bits 25:0
     * read 0 */
    TS_CSR_WRITE(0x723, 0xffffffffu);
    CHECK_EQ(TS_CSR_READ(0x723), 0xf0000000u);
    CHECK_EQ(TS_CSR_READ(0xda0), 1u << 3);          /* OF of counter 3 is scountovf bit 3 */
    TS_CSR_WRITE(0x723, 0);
    CHECK_EQ(TS_CSR_READ(0xda0), 0);
    checks++;

    /* 2. inhibit per mode, counted exactly: counter 3 counts only U, 4 only S, 5 only M,
     * 6 every mode */
    const uint32_t ev = TS_HPM_INT_ARITH;
    TS_CSR_WRITE(mhpmevent3, ev); TS_CSR_WRITE(0x723, MINH | SINH);
    TS_CSR_WRITE(mhpmevent4, ev); TS_CSR_WRITE(0x724, MINH | UINH);
    TS_CSR_WRITE(mhpmevent5, ev); TS_CSR_WRITE(0x725, SINH | UINH);
    TS_CSR_WRITE(mhpmevent6, ev); TS_CSR_WRITE(0x726, 0);
    static const uint32_t expect[3][4] = {{100, 0, 0, 100}, {0, 100, 0, 100}, {0, 0, 100, 100}};
    static const uint32_t modes[3] = {PRIV_U, PRIV_S, PRIV_M};
    for (int m = 0; m < 3; m++) {
        uint32_t d[4];
        deltas(modes[m], d);
        for (int i = 0; i < 4; i++) CHECK_EQ(d[i], expect[m][i]);
    }
    /* all three inhibits: the counter stands still in every mode */
    TS_CSR_WRITE(0x726, MINH | SINH | UINH);
    uint32_t v6 = rd6();
    priv_call(PRIV_U, nops100, 0);
    priv_call(PRIV_S, nops100, 0);
    CHECK_EQ(rd6(), v6);
    TS_CSR_WRITE(0x723, 0); TS_CSR_WRITE(0x724, 0); TS_CSR_WRITE(0x725, 0); TS_CSR_WRITE(0x726, 0);
    checks++;

    /* 3. overflow in U-mode with LCOFI to M: 12-bit counter 3 counting U-mode nops from
     * 4096 - 50; OF is set, scountovf shows it, the interrupt is taken 2 instructions after
     * the 50th nop (the overflowing tick, then mip.LCOFIP, then the next instruction entering
     * MEM), and the counter goes on counting */
    ts_set_trap_handler(0x8000000du, m_on_lcof);
    TS_CSR_WRITE(mie, 1u << 13);
    TS_CSR_WRITE(mhpmevent3, ev);
    TS_CSR_WRITE(0x723, MINH | SINH);
    TS_CSR_WRITE(mhpmcounter3, 4096 - 50);
    priv_call(PRIV_U, nops100, 0);
    CHECK_EQ(m_lcof, 1);
    CHECK_EQ(lcof_epc, (uint32_t)(uintptr_t)nops100_start + 4 * 51);
    CHECK_EQ(lcof_ovf, 1u << 3);
    CHECK_EQ(TS_CSR_READ(0x723), OF | MINH | SINH);
    CHECK_EQ(rd3(), 50 + 2);                         /* + li, li of priv_call's stub in U */
    CHECK_EQ((TS_CSR_READ(mip) >> 13) & 1, 0);
    /* a second overflow with OF still set: no interrupt, OF stays */
    TS_CSR_WRITE(mhpmcounter3, 4096 - 10);
    priv_call(PRIV_U, nops100, 0);
    CHECK_EQ(m_lcof, 1);
    CHECK_EQ((TS_CSR_READ(mip) >> 13) & 1, 0);
    CHECK_EQ(TS_CSR_READ(0xda0), 1u << 3);
    /* OF cleared by software: the next overflow interrupts again */
    TS_CSR_WRITE(0x723, MINH | SINH);
    TS_CSR_WRITE(mhpmcounter3, 4096 - 10);
    priv_call(PRIV_U, nops100, 0);
    CHECK_EQ(m_lcof, 2);
    CHECK_EQ(lcof_epc, (uint32_t)(uintptr_t)nops100_start + 4 * 11);
    /* a counter written to wrap does not overflow: only counting does */
    TS_CSR_WRITE(0x723, MINH | SINH | UINH);
    TS_CSR_WRITE(mhpmcounter3, 4095);
    TS_CSR_WRITE(mhpmcounter3, 0);
    CHECK_EQ(TS_CSR_READ(0x723) & OF, 0);
    checks++;

    /* 4. LCOFI delegated to S-mode (mideleg 13): taken by the S-mode handler while U-mode
     * runs; scountovf read in S-mode shows only the counters mcounteren grants */
    s_set_trap_handler(0x8000000du, s_on_lcof);
    TS_CSR_WRITE(mideleg, 1u << 13);
    TS_CSR_WRITE(mcounteren, 1u << 3);
    TS_CSR_WRITE(mhpmevent4, ev);
    TS_CSR_WRITE(0x724, OF | MINH | SINH);           /* counter 4 has overflowed before */
    TS_CSR_WRITE(0x723, MINH | SINH);
    TS_CSR_WRITE(mhpmcounter3, 4096 - 20);
    priv_call(PRIV_U, nops100, 0);
    CHECK_EQ(s_lcof, 1);
    CHECK_EQ(m_lcof, 2);
    CHECK_EQ(lcof_epc, (uint32_t)(uintptr_t)nops100_start + 4 * 21);
    CHECK_EQ(lcof_ovf, 1u << 3);                     /* bit 4 hidden from S-mode */
    CHECK_EQ(TS_CSR_READ(0xda0), (1u << 3) | (1u << 4));
    TS_CSR_WRITE(mideleg, 0);
    TS_CSR_WRITE(mie, 0);
    TS_CSR_WRITE(mcounteren, 0);
    checks++;

    printf("sscof: all %u groups of checks passed\n", checks);
    return 0;
}
