/* u_call.S - uint32_t u_call(uint32_t (*fn)(uint32_t), uint32_t arg): runs fn(arg) in U-mode
 * from S-mode and returns its result (see sbi_client.h). fn returns into u_call_stub, whose
 * ecall (from U, delegated to S by the SBI firmware) is recognised by u_call_ecall(). */
    .section .text.u_call, "ax"
    .globl u_call
    .globl u_call_stub
    .globl u_call_resume
    .balign 4
u_call:
    la      t0, u_ctx
    sw      ra, 0(t0)
    sw      sp, 4(t0)
    sw      s0, 8(t0)
    sw      s1, 12(t0)
    sw      s2, 16(t0)
    sw      s3, 20(t0)
    sw      s4, 24(t0)
    sw      s5, 28(t0)
    sw      s6, 32(t0)
    sw      s7, 36(t0)
    sw      s8, 40(t0)
    sw      s9, 44(t0)
    sw      s10, 48(t0)
    sw      s11, 52(t0)
    sw      gp, 56(t0)
    sw      tp, 60(t0)
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
    lw      ra, 0(t0)
    lw      sp, 4(t0)
    lw      s0, 8(t0)
    lw      s1, 12(t0)
    lw      s2, 16(t0)
    lw      s3, 20(t0)
    lw      s4, 24(t0)
    lw      s5, 28(t0)
    lw      s6, 32(t0)
    lw      s7, 36(t0)
    lw      s8, 40(t0)
    lw      s9, 44(t0)
    lw      s10, 48(t0)
    lw      s11, 52(t0)
    lw      gp, 56(t0)
    lw      tp, 60(t0)
    ret

    .section .bss.u_ctx, "aw", @nobits
    .balign 4
u_ctx:
    .space  64
