/* trap_entry.S - common machine-mode trap entry (mtvec direct mode, or every slot of a
 * vectored table). Saves the caller-saved registers on the stack, calls
 * ts_trap_dispatch(mcause, mepc, mtval) which returns the mepc to resume at, and mret.
 * Registers are XLEN wide: 16 words of 4 bytes on RV32, 8 on RV64 (the frame stays a multiple
 * of 16 bytes, the stack alignment of both ABIs). */
#include "ts_asm.h"
    .section .text.ts_trap_entry, "ax"
    .globl ts_trap_entry
    .type ts_trap_entry, @function
    .balign 4
ts_trap_entry:
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
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    ts_trap_dispatch
    csrw    mepc, a0
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
    mret
    .size ts_trap_entry, . - ts_trap_entry
