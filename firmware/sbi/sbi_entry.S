/* sbi_entry.S - M-mode start-up and trap entry of the SBI firmware (instead of the BSP's
 * crt0.S/trap_entry.S): gp, sp (the M-mode stack), tp, .data copy, .bss clear, constructors,
 * sbi_init() (counters, delegation, mtvec/mscratch), then mret into the S-mode payload
 * linked into the same ELF (s_payload_entry, MPP = S). */
    .section .text.init.enter, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack
    la      tp, __tls_base
    la      t0, sbi_trap_entry
    csrw    mtvec, t0
    la      a0, __data_start
    la      a1, __data_source
    la      a2, __data_size
    call    memcpy
    la      a0, __bss_start
    li      a1, 0
    la      a2, __bss_size
    call    memset
    call    __libc_init_array
    la      t0, __stack
    csrw    mscratch, t0            /* the M-mode stack for traps from S/U-mode */
    call    sbi_init
    la      t0, s_payload_entry
    csrw    mepc, t0
    li      t0, 0x1800
    csrc    mstatus, t0
    li      t0, 0x0800              /* MPP = S */
    csrs    mstatus, t0
    mret
    .size _start, . - _start

/* Trap entry: every register into a frame on the M-mode stack (mscratch), so that SBI calls
 * read a0-a7 and misaligned accesses can be emulated; sbi_trap_handler(frame) may change the
 * frame and mepc. */
    .section .text.sbi_trap_entry, "ax"
    .globl sbi_trap_entry
    .balign 4
sbi_trap_entry:
    csrrw   sp, mscratch, sp
    addi    sp, sp, -128
    sw      x1, 4(sp)
    sw      x3, 12(sp)
    sw      x4, 16(sp)
    sw      x5, 20(sp)
    sw      x6, 24(sp)
    sw      x7, 28(sp)
    sw      x8, 32(sp)
    sw      x9, 36(sp)
    sw      x10, 40(sp)
    sw      x11, 44(sp)
    sw      x12, 48(sp)
    sw      x13, 52(sp)
    sw      x14, 56(sp)
    sw      x15, 60(sp)
    sw      x16, 64(sp)
    sw      x17, 68(sp)
    sw      x18, 72(sp)
    sw      x19, 76(sp)
    sw      x20, 80(sp)
    sw      x21, 84(sp)
    sw      x22, 88(sp)
    sw      x23, 92(sp)
    sw      x24, 96(sp)
    sw      x25, 100(sp)
    sw      x26, 104(sp)
    sw      x27, 108(sp)
    sw      x28, 112(sp)
    sw      x29, 116(sp)
    sw      x30, 120(sp)
    sw      x31, 124(sp)
    csrr    t0, mscratch
    sw      t0, 8(sp)               /* the interrupted sp */
    sw      zero, 0(sp)
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    mv      a0, sp
    call    sbi_trap_handler
    addi    t0, sp, 128
    csrw    mscratch, t0
    lw      x1, 4(sp)
    lw      x3, 12(sp)
    lw      x4, 16(sp)
    lw      x5, 20(sp)
    lw      x6, 24(sp)
    lw      x7, 28(sp)
    lw      x8, 32(sp)
    lw      x9, 36(sp)
    lw      x10, 40(sp)
    lw      x11, 44(sp)
    lw      x12, 48(sp)
    lw      x13, 52(sp)
    lw      x14, 56(sp)
    lw      x15, 60(sp)
    lw      x16, 64(sp)
    lw      x17, 68(sp)
    lw      x18, 72(sp)
    lw      x19, 76(sp)
    lw      x20, 80(sp)
    lw      x21, 84(sp)
    lw      x22, 88(sp)
    lw      x23, 92(sp)
    lw      x24, 96(sp)
    lw      x25, 100(sp)
    lw      x26, 104(sp)
    lw      x27, 108(sp)
    lw      x28, 112(sp)
    lw      x29, 116(sp)
    lw      x30, 120(sp)
    lw      x31, 124(sp)
    lw      sp, 8(sp)
    mret
