/* ctx_switch.h - the trap vector of a timer-driven round robin, shared by the preemptive
 * example (rr_threads.c) and the check-under-preemption test (tests/perf_preempt.c).
 *
 * CTX_SWITCH_TRAP(name, cur, sched) defines the M-mode trap entry `name`: every register but
 * sp (and mepc) onto the running thread's stack (128 bytes), sp and tp into the control block
 * `cur` points to (offsets 0 and 4), a call of `sched` (which moves `cur` on), then the next
 * thread's sp and tp (the thread switch: tp is written here), its registers, mret. */
#ifndef CTX_SWITCH_H
#define CTX_SWITCH_H

#define CTX_SWITCH_TRAP(name, cur, sched)                                              \
    __asm__(".section .text." #name ", \"ax\"\n"                                        \
            ".align 4\n"                                                               \
            ".globl " #name "\n" #name ":\n"                                           \
            "  addi sp, sp, -128\n"                                                    \
            "  sw ra, 0(sp)\n  sw t0, 4(sp)\n  sw t1, 8(sp)\n  sw t2, 12(sp)\n"          \
            "  sw s0, 16(sp)\n  sw s1, 20(sp)\n  sw a0, 24(sp)\n  sw a1, 28(sp)\n"       \
            "  sw a2, 32(sp)\n  sw a3, 36(sp)\n  sw a4, 40(sp)\n  sw a5, 44(sp)\n"       \
            "  sw a6, 48(sp)\n  sw a7, 52(sp)\n  sw s2, 56(sp)\n  sw s3, 60(sp)\n"       \
            "  sw s4, 64(sp)\n  sw s5, 68(sp)\n  sw s6, 72(sp)\n  sw s7, 76(sp)\n"       \
            "  sw s8, 80(sp)\n  sw s9, 84(sp)\n  sw s10, 88(sp)\n  sw s11, 92(sp)\n"     \
            "  sw t3, 96(sp)\n  sw t4, 100(sp)\n  sw t5, 104(sp)\n  sw t6, 108(sp)\n"    \
            "  csrr t0, mepc\n  sw t0, 112(sp)\n"                                       \
            "  la t0, " #cur "\n  lw t1, 0(t0)\n  sw sp, 0(t1)\n  sw tp, 4(t1)\n"       \
            "  call " #sched "\n"                                                      \
            "  la t0, " #cur "\n  lw t1, 0(t0)\n  lw sp, 0(t1)\n  lw tp, 4(t1)\n"       \
            "  lw t0, 112(sp)\n  csrw mepc, t0\n"                                       \
            "  lw ra, 0(sp)\n  lw t0, 4(sp)\n  lw t1, 8(sp)\n  lw t2, 12(sp)\n"          \
            "  lw s0, 16(sp)\n  lw s1, 20(sp)\n  lw a0, 24(sp)\n  lw a1, 28(sp)\n"       \
            "  lw a2, 32(sp)\n  lw a3, 36(sp)\n  lw a4, 40(sp)\n  lw a5, 44(sp)\n"       \
            "  lw a6, 48(sp)\n  lw a7, 52(sp)\n  lw s2, 56(sp)\n  lw s3, 60(sp)\n"       \
            "  lw s4, 64(sp)\n  lw s5, 68(sp)\n  lw s6, 72(sp)\n  lw s7, 76(sp)\n"       \
            "  lw s8, 80(sp)\n  lw s9, 84(sp)\n  lw s10, 88(sp)\n  lw s11, 92(sp)\n"     \
            "  lw t3, 96(sp)\n  lw t4, 100(sp)\n  lw t5, 104(sp)\n  lw t6, 108(sp)\n"    \
            "  addi sp, sp, 128\n"                                                     \
            "  mret\n"                                                                 \
            ".text\n");                                                                \
    void name(void)

#endif
