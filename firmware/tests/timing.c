/* timing.c - the core's documented timing (docs/internals.md "Pipeline and timing"), checked with mcycle.
 *
 * Each case reads mcycle, runs a block, reads mcycle again. Two back-to-back reads differ by
 * 1 (the second read's own cycle), so a block that costs C cycles gives C + 1. The expected
 * costs come from the pipeline's documented rules, not from this program's output:
 *   every instruction 1 cycle; +1 load-use / CSR-read-use bubble; +2 for a mispredicted
 *   branch (forward taken, backward not taken) and for every JALR; divide +34 cycles;
 *   trap entry and mret: +3 each (the pipeline is flushed from MEM); LR, SC and AMOs as a
 *   load (one data-port access, +1 bubble when the next instruction uses rd). Compiled with
 *   the A extension (firmware/tests/CMakeLists.txt). */
#include <stdint.h>
#include "bsp.h"
#include "check.h"

/* block may use t2, t3 and %2 (the address of mem_word) */
#define MEASURE(name, expected, block)                                                \
    do {                                                                              \
        uint32_t c0_, c1_;                                                            \
        __asm__ volatile(".balign 4\n csrr %0, mcycle\n" block "\n csrr %1, mcycle"   \
                         : "=&r"(c0_), "=&r"(c1_) : "r"(&mem_word) : "t2", "t3", "memory"); \
        printf("%-28s %3lu cycles (expected %u)\n", name, (unsigned long)(c1_ - c0_ - 1), \
               (unsigned)(expected));                                                 \
        CHECK_EQ(c1_ - c0_ - 1, expected);                                            \
    } while (0)

static volatile uint32_t mem_word = 7;
/* minimal trap handler: skip the 4-byte trapping instruction */
void raw_skip(void);
__asm__(".section .text.raw_skip, \"ax\"\n.balign 4\nraw_skip:\n"
        ".option push\n.option norvc\n"
        "  csrrw t3, mepc, t3\n  addi t3, t3, 4\n  csrrw t3, mepc, t3\n  mret\n"
        ".option pop\n");

int main(void) {
    MEASURE("empty", 0, "");
    MEASURE("4 x addi", 4, "addi t2, t2, 1\n addi t2, t2, 1\n addi t2, t2, 1\n addi t2, t2, 1");
    MEASURE("4 x dependent add", 4, "add t2, t2, t2\n add t2, t2, t2\n add t2, t2, t2\n add t2, t2, t2");
    MEASURE("mul; use", 2, "mul t2, t2, t2\n addi t2, t2, 1");
    MEASURE("lw; independent", 2, "lw t2, 0(%2)\n addi t3, t3, 1");
    MEASURE("lw; use (load-use)", 3, "lw t2, 0(%2)\n addi t2, t2, 1");
    MEASURE("lw; nop; use", 3, "lw t2, 0(%2)\n nop\n addi t2, t2, 1");
    MEASURE("sw; lw same word", 2, "sw t2, 0(%2)\n lw t2, 0(%2)");
    MEASURE("csrr; use", 3, "csrr t2, mscratch\n addi t2, t2, 1");
    MEASURE("divu", 2 + 1 + 34, "li t2, 100\n li t3, 7\n divu t2, t2, t3");
    MEASURE("branch fwd not taken", 2, "li t2, 1\n beqz t2, 1f\n 1:");
    MEASURE("branch fwd taken (miss)", 4, "li t2, 0\n beqz t2, 1f\n nop\n 1:");
    MEASURE("branch bwd taken x3", 9, "li t2, 3\n 1: addi t2, t2, -1\n bnez t2, 1b");
    MEASURE("jal", 2, "jal t2, 1f\n nop\n 1: nop");
    MEASURE("jalr", 2 + 1 + 2, "la t2, 1f\n jalr t3, 0(t2)\n 1:");
    /* the A extension: one data-port access each, timed as a load */
    MEASURE("amoadd; independent", 2, "amoadd.w t2, t3, (%2)\n addi t3, t3, 1");
    MEASURE("amoadd; use", 3, "amoadd.w t2, t3, (%2)\n addi t2, t2, 1");
    MEASURE("amoswap; nop; use", 3, "amoswap.w t2, t3, (%2)\n nop\n addi t2, t2, 1");
    MEASURE("lr; use", 3, "lr.w t2, (%2)\n addi t2, t2, 1");
    MEASURE("lr; sc", 2, "lr.w t2, (%2)\n sc.w t3, t3, (%2)");
    MEASURE("lr; sc (rs2 = lr rd)", 3, "lr.w t2, (%2)\n sc.w t3, t2, (%2)");                   /* SC's rs2 = LR's rd */
    MEASURE("lr; sc; use", 5, "lr.w t2, (%2)\n sc.w t3, t2, (%2)\n addi t3, t3, 1"); /* and SC's rd used */
    /* trap entry 1 + 3, handler: csrrw 1, addi 1 + 1 (CSR-read use), csrrw 1, mret 1 + 3 */
    uint32_t saved = TS_CSR_READ(mtvec);
    TS_CSR_WRITE(mtvec, (uint32_t)(uintptr_t)raw_skip);
    MEASURE("ecall + 4-instr handler", 4 + 1 + 2 + 1 + 4, "ecall");
    TS_CSR_WRITE(mtvec, saved);
    printf("timing: all checks passed\n");
    return 0;
}
