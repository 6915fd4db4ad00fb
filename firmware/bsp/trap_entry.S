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
    TS_SAVE_CALLER_SAVED
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    ts_trap_dispatch
    csrw    mepc, a0
    TS_RESTORE_CALLER_SAVED
    mret
    .size ts_trap_entry, . - ts_trap_entry
