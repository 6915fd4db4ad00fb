/* s_trap.S - S-mode trap vector (see s_trap.h). */
#include "ts_asm.h"
/* S-mode trap vector (direct): caller-saved registers (XLEN wide) on the interrupted stack */
    .section .text.s_trap_entry, "ax"
    .globl s_trap_entry
    .balign 4
s_trap_entry:
    TS_SAVE_CALLER_SAVED
    csrr    a0, scause
    csrr    a1, sepc
    csrr    a2, stval
    call    s_trap_dispatch
    csrw    sepc, a0
    TS_RESTORE_CALLER_SAVED
    sret

