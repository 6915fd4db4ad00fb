/* ts_asm.h - for assembly sources built for RV32 and RV64 alike: a register's store, load
 * and size in bytes (XLEN / 8), and a trap entry's frame. */
#ifndef TS_ASM_H
#define TS_ASM_H
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define SZREG 8
#else
#define REG_S sw
#define REG_L lw
#define SZREG 4
#endif

/* a trap entry's frame (bsp/trap_entry.S, sbi/s_trap.S): the 16 caller-saved registers (ra,
 * t0-t6, a0-a7) pushed on the interrupted stack, XLEN wide (16 * SZREG bytes: a multiple of
 * 16, the stack alignment of both ABIs), and popped again; the C handler keeps the
 * callee-saved ones itself (assembler macros: not C, so clang-format keeps off) */
/* clang-format off */
.macro TS_SAVE_CALLER_SAVED
    addi    sp, sp, -16*SZREG
    REG_S   ra, 0*SZREG(sp)
    REG_S   t0, 1*SZREG(sp)
    REG_S   t1, 2*SZREG(sp)
    REG_S   t2, 3*SZREG(sp)
    REG_S   a0, 4*SZREG(sp)
    REG_S   a1, 5*SZREG(sp)
    REG_S   a2, 6*SZREG(sp)
    REG_S   a3, 7*SZREG(sp)
    REG_S   a4, 8*SZREG(sp)
    REG_S   a5, 9*SZREG(sp)
    REG_S   a6, 10*SZREG(sp)
    REG_S   a7, 11*SZREG(sp)
    REG_S   t3, 12*SZREG(sp)
    REG_S   t4, 13*SZREG(sp)
    REG_S   t5, 14*SZREG(sp)
    REG_S   t6, 15*SZREG(sp)
.endm
.macro TS_RESTORE_CALLER_SAVED
    REG_L   ra, 0*SZREG(sp)
    REG_L   t0, 1*SZREG(sp)
    REG_L   t1, 2*SZREG(sp)
    REG_L   t2, 3*SZREG(sp)
    REG_L   a0, 4*SZREG(sp)
    REG_L   a1, 5*SZREG(sp)
    REG_L   a2, 6*SZREG(sp)
    REG_L   a3, 7*SZREG(sp)
    REG_L   a4, 8*SZREG(sp)
    REG_L   a5, 9*SZREG(sp)
    REG_L   a6, 10*SZREG(sp)
    REG_L   a7, 11*SZREG(sp)
    REG_L   t3, 12*SZREG(sp)
    REG_L   t4, 13*SZREG(sp)
    REG_L   t5, 14*SZREG(sp)
    REG_L   t6, 15*SZREG(sp)
    addi    sp, sp, 16*SZREG
.endm
/* clang-format on */
#endif
