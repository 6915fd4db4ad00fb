/* s_trap.S - S-mode trap vector (see s_trap.h). */
#include "ts_asm.h"
/* S-mode trap vector (direct): caller-saved registers (XLEN wide) on the interrupted stack */
    .section .text.s_trap_entry, "ax"
    .globl s_trap_entry
    .balign 4
s_trap_entry:
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
    csrr    a0, scause
    csrr    a1, sepc
    csrr    a2, stval
    call    s_trap_dispatch
    csrw    sepc, a0
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
    sret

