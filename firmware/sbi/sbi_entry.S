/* sbi_entry.S - M-mode start-up and trap entry of the SBI firmware (instead of the BSP's
 * crt0.S/trap_entry.S): gp, sp (the M-mode stack), tp, .data copy, .bss clear, constructors,
 * sbi_init() (counters, delegation, mtvec/mscratch), then mret into the S-mode payload
 * linked into the same ELF (s_payload_entry, MPP = S). */
#include "ts_asm.h"
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
 * frame and mepc. The frame is 32 XLEN-wide words (x0 slot 0, the interrupted sp in slot 2). */
    .section .text.sbi_trap_entry, "ax"
    .globl sbi_trap_entry
    .balign 4
sbi_trap_entry:
    csrrw   sp, mscratch, sp
    addi    sp, sp, -32*SZREG
    REG_S   x1, 1*SZREG(sp)
    REG_S   x3, 3*SZREG(sp)
    REG_S   x4, 4*SZREG(sp)
    REG_S   x5, 5*SZREG(sp)
    REG_S   x6, 6*SZREG(sp)
    REG_S   x7, 7*SZREG(sp)
    REG_S   x8, 8*SZREG(sp)
    REG_S   x9, 9*SZREG(sp)
    REG_S   x10, 10*SZREG(sp)
    REG_S   x11, 11*SZREG(sp)
    REG_S   x12, 12*SZREG(sp)
    REG_S   x13, 13*SZREG(sp)
    REG_S   x14, 14*SZREG(sp)
    REG_S   x15, 15*SZREG(sp)
    REG_S   x16, 16*SZREG(sp)
    REG_S   x17, 17*SZREG(sp)
    REG_S   x18, 18*SZREG(sp)
    REG_S   x19, 19*SZREG(sp)
    REG_S   x20, 20*SZREG(sp)
    REG_S   x21, 21*SZREG(sp)
    REG_S   x22, 22*SZREG(sp)
    REG_S   x23, 23*SZREG(sp)
    REG_S   x24, 24*SZREG(sp)
    REG_S   x25, 25*SZREG(sp)
    REG_S   x26, 26*SZREG(sp)
    REG_S   x27, 27*SZREG(sp)
    REG_S   x28, 28*SZREG(sp)
    REG_S   x29, 29*SZREG(sp)
    REG_S   x30, 30*SZREG(sp)
    REG_S   x31, 31*SZREG(sp)
    csrr    t0, mscratch
    REG_S   t0, 2*SZREG(sp)               /* the interrupted sp */
    REG_S   zero, 0*SZREG(sp)
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    mv      a0, sp
    call    sbi_trap_handler
    addi    t0, sp, 32*SZREG
    csrw    mscratch, t0
    REG_L   x1, 1*SZREG(sp)
    REG_L   x3, 3*SZREG(sp)
    REG_L   x4, 4*SZREG(sp)
    REG_L   x5, 5*SZREG(sp)
    REG_L   x6, 6*SZREG(sp)
    REG_L   x7, 7*SZREG(sp)
    REG_L   x8, 8*SZREG(sp)
    REG_L   x9, 9*SZREG(sp)
    REG_L   x10, 10*SZREG(sp)
    REG_L   x11, 11*SZREG(sp)
    REG_L   x12, 12*SZREG(sp)
    REG_L   x13, 13*SZREG(sp)
    REG_L   x14, 14*SZREG(sp)
    REG_L   x15, 15*SZREG(sp)
    REG_L   x16, 16*SZREG(sp)
    REG_L   x17, 17*SZREG(sp)
    REG_L   x18, 18*SZREG(sp)
    REG_L   x19, 19*SZREG(sp)
    REG_L   x20, 20*SZREG(sp)
    REG_L   x21, 21*SZREG(sp)
    REG_L   x22, 22*SZREG(sp)
    REG_L   x23, 23*SZREG(sp)
    REG_L   x24, 24*SZREG(sp)
    REG_L   x25, 25*SZREG(sp)
    REG_L   x26, 26*SZREG(sp)
    REG_L   x27, 27*SZREG(sp)
    REG_L   x28, 28*SZREG(sp)
    REG_L   x29, 29*SZREG(sp)
    REG_L   x30, 30*SZREG(sp)
    REG_L   x31, 31*SZREG(sp)
    REG_L   sp, 2*SZREG(sp)
    mret
