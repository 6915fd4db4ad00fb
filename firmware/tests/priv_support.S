/* priv_support.S - mode switches for the privilege tests (see priv_support.h). */
    .section .text.priv_call, "ax"
    .globl priv_call
    .globl priv_call_stub
    .globl priv_call_stub_end
    .globl priv_call_resume
    .balign 4
/* uint32_t priv_call(uint32_t mode, priv_fn_t fn, uint32_t arg) */
priv_call:
    la      t0, priv_ctx
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
    li      t1, 8                   /* mie.MSIE: the way back */
    csrs    mie, t1
    li      t1, 0x80                /* MPIE: M-mode code runs with MIE = 1 (the way back) */
    csrs    mstatus, t1
    li      t1, 0x1800              /* mstatus.MPP = mode */
    csrc    mstatus, t1
    slli    t2, a0, 11
    csrs    mstatus, t2
    csrw    mepc, a1
    mv      a0, a2
    la      ra, priv_call_stub
    mret
/* runs in the lower mode when fn returns: raise the machine software interrupt */
priv_call_stub:
    li      t0, 0x02000000          /* CLINT msip of hart 0 */
    li      t1, 1
    sw      t1, 0(t0)
1:  j       1b
priv_call_stub_end:
/* back in M-mode (the handler returned here with MPP = M); a0 = fn's result */
priv_call_resume:
    la      t0, priv_ctx
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

    .section .bss.priv_ctx, "aw", @nobits
    .balign 4
priv_ctx:
    .space  64
