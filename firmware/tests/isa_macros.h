/* isa_macros.h - macros for the self-checking ISA tests (assembly, C preprocessor).
 *
 * Each check loads operands, executes the instruction under test and compares the result
 * with a value written here by hand from the RISC-V unprivileged spec. On a mismatch it
 * calls isa_fail(test number, got, expected) (isa_support.c), which prints the three values
 * and exits with status 1; `TEST_PASS` exits with 0. Registers: x1/x2 operands, x3 result,
 * x28-x30 bookkeeping. Tests may clobber ra, sp and gp (x1-x3): the pass and fail paths
 * reload sp and gp before calling C. */
#ifndef ISA_MACROS_H
#define ISA_MACROS_H

#define TEST_BEGIN           \
    .section .text.main, "ax"; \
    .globl main;             \
    .balign 4;               \
main:

#define CHECK(n, reg, expected) \
    li x28, n;                  \
    li x30, expected;           \
    mv x29, reg;                \
    bne x29, x30, isa_fail_jump

/* register-register */
#define TEST_RR(n, inst, expected, v1, v2) \
    li x1, v1; li x2, v2; inst x3, x1, x2; CHECK(n, x3, expected)
/* register-immediate */
#define TEST_RI(n, inst, expected, v1, imm) \
    li x1, v1; inst x3, x1, imm; CHECK(n, x3, expected)
/* same source and destination register */
#define TEST_RR_SRC1_EQ_DEST(n, inst, expected, v1, v2) \
    li x1, v1; li x2, v2; inst x1, x1, x2; CHECK(n, x1, expected)
/* result consumed immediately by the next instruction (forwarding from MEM) */
#define TEST_RR_FWD(n, inst, expected, v1, v2) \
    li x1, v1; li x2, v2; inst x3, x1, x2; addi x4, x3, 0; CHECK(n, x4, expected)
/* branch: taken must skip the failing path */
#define TEST_BR_TAKEN(n, inst, v1, v2) \
    li x28, n; li x1, v1; li x2, v2; inst x1, x2, 1f; j isa_fail_jump; 1:
#define TEST_BR_NOT_TAKEN(n, inst, v1, v2) \
    li x28, n; li x1, v1; li x2, v2; inst x1, x2, isa_fail_jump

#define RESTORE_C_ENV        \
    .option push;            \
    .option norelax;         \
    la gp, __global_pointer$; \
    .option pop;             \
    la sp, __stack

#define TEST_PASS            \
    RESTORE_C_ENV;           \
    li a0, 0;                \
    call exit;               \
isa_fail_jump:               \
    RESTORE_C_ENV;           \
    mv a0, x28;              \
    mv a1, x29;              \
    mv a2, x30;              \
    call isa_fail

#endif
