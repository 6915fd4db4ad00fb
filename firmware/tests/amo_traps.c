/* amo_traps.c - the A extension's exceptions and events on one hart. Expected values from the
 * privileged spec's cause codes (4 load address misaligned for LR, 6 store/AMO address
 * misaligned for SC and the AMOs, 5 load access fault for LR, 7 store/AMO access fault for SC
 * and the AMOs, 2 illegal instruction with mtval = the instruction bits), mtval = the address,
 * the faulting instructions' addresses from labels in the inline assembly; the access does not
 * happen (rd and memory unchanged). Atomics work on RAM only: every device (CLINT, UART,
 * simctrl, trace encoder and its ITC) faults. HPM classes: an LR, SC or AMO counts as
 * "atomic" only, never as "load" or "store" (rtl_model/regs/hpm_events.def). */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "ts_trace.h"

static volatile uint32_t seen_cause, seen_epc, seen_tval, traps;

static uint32_t record(uint32_t cause, uint32_t epc, uint32_t tval) {
    seen_cause = cause; seen_epc = epc; seen_tval = tval; traps++;
    return epc + 4;
}

#define EXPECT_TRAP(cause, epc, tval) do { \
    CHECK_EQ(seen_cause, cause); CHECK_EQ(seen_epc, epc); CHECK_EQ(seen_tval, tval); } while (0)

/* INSN rd, (addr) with rd preset to 0xdead: traps with cause, mtval addr, rd unchanged */
#define LR_TRAP(cause, addr)                                                                  \
    do {                                                                                      \
        uint32_t pc_, rd_ = 0xdead, n_ = traps;                                               \
        __asm__ volatile("la %0, 1f\n1: lr.w %1, (%2)" : "=&r"(pc_), "+r"(rd_) : "r"(addr) : "memory"); \
        CHECK_EQ(traps, n_ + 1); EXPECT_TRAP(cause, pc_, addr); CHECK_EQ(rd_, 0xdead);        \
    } while (0)
#define AMO_TRAP(insn, cause, addr)                                                           \
    do {                                                                                      \
        uint32_t pc_, rd_ = 0xdead, n_ = traps;                                               \
        __asm__ volatile("la %0, 1f\n1: " insn " %1, %3, (%2)" : "=&r"(pc_), "+r"(rd_)         \
                         : "r"(addr), "r"(1u) : "memory");                                    \
        CHECK_EQ(traps, n_ + 1); EXPECT_TRAP(cause, pc_, addr); CHECK_EQ(rd_, 0xdead);        \
    } while (0)
/* an encoding that is no instruction of RV32A: illegal, mtval = the bits */
#define ILLEGAL(bits)                                                                         \
    do {                                                                                      \
        uint32_t pc_, n_ = traps;                                                             \
        __asm__ volatile("la %0, 1f\n1: .word " #bits : "=&r"(pc_) :: "memory");              \
        CHECK_EQ(traps, n_ + 1); EXPECT_TRAP(2, pc_, bits);                                   \
    } while (0)

static volatile uint32_t words[4] = {0x11223344, 0x55667788, 0, 0};

int main(void) {
    for (uint32_t c = 0; c < 16; c++) ts_set_trap_handler(c, record);
    uint32_t w = (uint32_t)(uintptr_t)&words[0];

    /* misaligned: LR 4, SC and every AMO 6, at +1, +2 and +3; memory unchanged */
    for (uint32_t k = 1; k < 4; k++) {
        uint32_t a = w + k;
        LR_TRAP(4, a);
        AMO_TRAP("sc.w", 6, a);
        AMO_TRAP("amoswap.w", 6, a);
        AMO_TRAP("amoadd.w", 6, a);
        AMO_TRAP("amoxor.w", 6, a);
        AMO_TRAP("amoand.w", 6, a);
        AMO_TRAP("amoor.w", 6, a);
        AMO_TRAP("amomin.w", 6, a);
        AMO_TRAP("amomax.w", 6, a);
        AMO_TRAP("amominu.w", 6, a);
        AMO_TRAP("amomaxu.w", 6, a);
    }
    CHECK_EQ(words[0], 0x11223344);
    CHECK_EQ(words[1], 0x55667788);

    /* devices: LR 5, SC and AMOs 7. CLINT msip of hart 0 (an AMO that happened would set it),
     * mtimecmp, the UART, simctrl's MARK, the encoder's control and an ITC stimulus */
    const uint32_t dev[] = {TS_CLINT_BASE, TS_CLINT_BASE + 0x4000, TS_UART_BASE,
                            TS_SIMCTRL_BASE + TS_SIMCTRL_MARK, TS_TRACE_BASE, TS_TE_STIM_ADDR(0, 0)};
    for (unsigned i = 0; i < sizeof dev / sizeof dev[0]; i++) {
        uint32_t a = dev[i];
        LR_TRAP(5, a);
        AMO_TRAP("sc.w", 7, a);
        AMO_TRAP("amoswap.w", 7, a);
        AMO_TRAP("amoadd.w", 7, a);
        AMO_TRAP("amoor.w", 7, a);
        AMO_TRAP("amomaxu.w", 7, a);
    }
    CHECK_EQ(TS_MMIO32(TS_CLINT_BASE), 0); /* msip still clear */
    /* unmapped */
    LR_TRAP(5, 0x40000000u);
    AMO_TRAP("amoadd.w", 7, 0x40000000u);

    /* illegal encodings: LR with rs2 != 0 (lr.w x5, x1, (x10) as bits), an AMO of
     * width 011 (amoadd.d: RV64 only), funct5 00101 and 11111 (no AMO) */
    ILLEGAL(0x1015232f);
    ILLEGAL(0x00b5332f);
    ILLEGAL(0x28b5232f);
    ILLEGAL(0xf8b5232f);

    /* HPM classes: counter 3 = atomic (class 0, bit 11), counter 4 = load | store
     * (bits 9, 10): an LR, an SC, two AMOs, then one lw and one sw */
    TS_CSR_WRITE(mcountinhibit, 0);
    TS_CSR_WRITE(mhpmevent3, 0x800);
    TS_CSR_WRITE(mhpmevent4, 0x600);
    uint32_t a3, a4, b3, b4, c3, c4, t;
    __asm__ volatile("csrr %0, mhpmcounter3\n csrr %1, mhpmcounter4\n"
                     "lr.w %4, (%6)\n sc.w %4, %4, (%6)\n amoadd.w %4, %4, (%6)\n amoswap.w zero, %4, (%6)\n"
                     "csrr %2, mhpmcounter3\n csrr %3, mhpmcounter4\n"
                     "lw %4, 4(%6)\n sw %4, 4(%6)\n"
                     "csrr %5, mhpmcounter3\n csrr %4, mhpmcounter4"
                     : "=&r"(a3), "=&r"(a4), "=&r"(b3), "=&r"(b4), "=&r"(t), "=&r"(c3)
                     : "r"(w) : "memory");
    c4 = t;
    CHECK_EQ(b3 - a3, 4); /* LR, SC, AMOADD, AMOSWAP: atomic */
    CHECK_EQ(b4 - a4, 0); /* ... and neither load nor store */
    CHECK_EQ(c3 - b3, 0);
    CHECK_EQ(c4 - b4, 2); /* lw, sw */
    puts("amo_traps: all checks passed");
    return 0;
}
