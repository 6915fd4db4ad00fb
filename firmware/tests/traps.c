/* traps.c - exceptions: cause, mepc and mtval for every exception the core raises, and
 * resumption after the handler. Expected values are the privileged spec's cause codes and
 * the addresses of the faulting instructions, taken from labels in the inline assembly. */
#include <stdint.h>
#include "bsp.h"
#include "check.h"

static volatile uint32_t seen_cause, seen_epc, seen_tval, traps;

/* records the trap and resumes after the faulting instruction (2 or 4 bytes long) */
static uint32_t record(uint32_t cause, uint32_t epc, uint32_t tval) {
    seen_cause = cause; seen_epc = epc; seen_tval = tval; traps++;
    uint16_t first = *(volatile uint16_t *)(uintptr_t)epc;
    return epc + ((first & 3) == 3 ? 4 : 2);
}
/* resumes at the return address (for faults on fetch, where epc is not executable) */
static uint32_t record_ret(uint32_t cause, uint32_t epc, uint32_t tval) {
    seen_cause = cause; seen_epc = epc; seen_tval = tval; traps++;
    uint32_t ra;
    __asm__ volatile("lw %0, 0(sp)" : "=r"(ra));  /* saved ra in the trap frame */
    return ra;
}

#define EXPECT_TRAP(cause, epc, tval) do { \
    CHECK_EQ(seen_cause, cause); CHECK_EQ(seen_epc, epc); CHECK_EQ(seen_tval, tval); } while (0)

int main(void) {
    for (uint32_t c = 0; c < 16; c++) ts_set_trap_handler(c, record);
    uint32_t pc, n0;

    /* illegal instruction: mtval = the instruction bits */
    __asm__ volatile("la %0, 1f\n1: .word 0xffffffff" : "=r"(pc));
    EXPECT_TRAP(2, pc, 0xffffffff);
    /* illegal compressed instruction (all zero halfword): mtval = 0 */
    __asm__ volatile("la %0, 1f\n1: .half 0x0000" : "=r"(pc));
    EXPECT_TRAP(2, pc, 0x0000);
    /* a 16-bit FP load (C.FLD) is illegal on this core: mtval = the 16 bits */
    __asm__ volatile("la %0, 1f\n1: .half 0x2000" : "=r"(pc));
    EXPECT_TRAP(2, pc, 0x2000);
    /* write to a read-only CSR (mhartid) */
    __asm__ volatile("la %0, 1f\n1: csrw mhartid, zero" : "=r"(pc));
    EXPECT_TRAP(2, pc, 0xf1401073);
    /* nonexistent CSR */
    __asm__ volatile("la %0, 1f\n1: csrr t0, 0x7c1" : "=r"(pc) :: "t0");
    EXPECT_TRAP(2, pc, 0x7c1022f3);
    /* ecall: cause 11, mtval 0 */
    __asm__ volatile("la %0, 1f\n1: ecall" : "=r"(pc));
    EXPECT_TRAP(11, pc, 0);
    /* ebreak and c.ebreak: cause 3, mtval = pc */
    __asm__ volatile("la %0, 1f\n1: .word 0x00100073" : "=r"(pc));
    EXPECT_TRAP(3, pc, pc);
    __asm__ volatile("la %0, 1f\n1: c.ebreak" : "=r"(pc));
    EXPECT_TRAP(3, pc, pc);
    /* misaligned load / store: cause 4 / 6, mtval = address; the access does not happen */
    static volatile uint32_t word = 0x11223344;
    uint32_t addr = (uint32_t)(uintptr_t)&word + 1, val = 0xdead;
    __asm__ volatile("la %0, 1f\n1: lw %1, 0(%2)" : "=&r"(pc), "+r"(val) : "r"(addr));
    EXPECT_TRAP(4, pc, addr);
    CHECK_EQ(val, 0xdead);
    __asm__ volatile("la %0, 1f\n1: lh %1, 0(%2)" : "=&r"(pc), "+r"(val) : "r"(addr));
    EXPECT_TRAP(4, pc, addr);
    __asm__ volatile("la %0, 1f\n1: sw %1, 0(%2)" : "=&r"(pc) : "r"(val), "r"(addr));
    EXPECT_TRAP(6, pc, addr);
    __asm__ volatile("la %0, 1f\n1: sh %1, 0(%2)" : "=&r"(pc) : "r"(val), "r"(addr + 2));
    EXPECT_TRAP(6, pc, addr + 2);
    CHECK_EQ(word, 0x11223344);
    /* load / store access fault on an unmapped address: cause 5 / 7, mtval = address */
    __asm__ volatile("la %0, 1f\n1: lw %1, 0(%2)" : "=&r"(pc), "+r"(val) : "r"(0x40000000u));
    EXPECT_TRAP(5, pc, 0x40000000u);
    __asm__ volatile("la %0, 1f\n1: sw %1, 0(%2)" : "=&r"(pc) : "r"(val), "r"(0x40000004u));
    EXPECT_TRAP(7, pc, 0x40000004u);
    /* device register accessed with a wrong size: simctrl takes only words */
    __asm__ volatile("la %0, 1f\n1: sb %1, 0(%2)" : "=&r"(pc) : "r"(val), "r"(TS_SIMCTRL_BASE + TS_SIMCTRL_MARK));
    EXPECT_TRAP(7, pc, TS_SIMCTRL_BASE + TS_SIMCTRL_MARK);
    /* instruction access fault: jump to unmapped memory; mepc = mtval = target */
    ts_set_trap_handler(1, record_ret);
    __asm__ volatile("jalr ra, 0(%0)" :: "r"(0x30000000u) : "ra", "memory");
    EXPECT_TRAP(1, 0x30000000u, 0x30000000u);
    /* mstatus after the trap returned through mret: MIE restored from MPIE (0 here) */
    CHECK_EQ(TS_CSR_READ(mstatus) & 0x88, 0x80);
    /* mscratch survives traps */
    TS_CSR_WRITE(mscratch, 0x55);
    CHECK_EQ(TS_CSR_READ(mscratch), 0x55);
    n0 = traps;
    CHECK_EQ(n0, 16);   /* 5 illegal, ecall, 2 ebreak, 4 misaligned, 3 access, 1 fetch */
    printf("traps: all %lu checks passed\n", (unsigned long)n0);
    return 0;
}
