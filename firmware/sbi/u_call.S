/* u_call.S - uint32_t u_call(uint32_t (*fn)(uint32_t), uint32_t arg): runs fn(arg) in U-mode
 * from S-mode and returns its result (see sbi_client.h). fn returns into u_call_stub, whose
 * ecall (from U, delegated to S by the SBI firmware) is recognised by u_call_ecall(). */
#include "ts_asm.h"
    .section .text.u_call, "ax"
    .globl u_call
    .globl u_call_stub
    .globl u_call_resume
    .balign 4
u_call:
    la      t0, u_ctx
    REG_S   ra, 0*SZREG(t0)
    REG_S   sp, 1*SZREG(t0)
    REG_S   s0, 2*SZREG(t0)
    REG_S   s1, 3*SZREG(t0)
    REG_S   s2, 4*SZREG(t0)
    REG_S   s3, 5*SZREG(t0)
    REG_S   s4, 6*SZREG(t0)
    REG_S   s5, 7*SZREG(t0)
    REG_S   s6, 8*SZREG(t0)
    REG_S   s7, 9*SZREG(t0)
    REG_S   s8, 10*SZREG(t0)
    REG_S   s9, 11*SZREG(t0)
    REG_S   s10, 12*SZREG(t0)
    REG_S   s11, 13*SZREG(t0)
    REG_S   gp, 14*SZREG(t0)
    REG_S   tp, 15*SZREG(t0)
    li      t1, 0x100               /* sstatus.SPP = U */
    csrc    sstatus, t1
    csrw    sepc, a0
    mv      a0, a1
    la      ra, u_call_stub
    sret
u_call_stub:
    ecall
u_call_resume:
    la      t0, u_ctx
    REG_L   ra, 0*SZREG(t0)
    REG_L   sp, 1*SZREG(t0)
    REG_L   s0, 2*SZREG(t0)
    REG_L   s1, 3*SZREG(t0)
    REG_L   s2, 4*SZREG(t0)
    REG_L   s3, 5*SZREG(t0)
    REG_L   s4, 6*SZREG(t0)
    REG_L   s5, 7*SZREG(t0)
    REG_L   s6, 8*SZREG(t0)
    REG_L   s7, 9*SZREG(t0)
    REG_L   s8, 10*SZREG(t0)
    REG_L   s9, 11*SZREG(t0)
    REG_L   s10, 12*SZREG(t0)
    REG_L   s11, 13*SZREG(t0)
    REG_L   gp, 14*SZREG(t0)
    REG_L   tp, 15*SZREG(t0)
    ret

    .section .bss.u_ctx, "aw", @nobits
    .balign SZREG
u_ctx:
    .space  16*SZREG
