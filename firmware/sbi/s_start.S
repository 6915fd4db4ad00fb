/* s_start.S - entry of the S-mode payload (the SBI firmware mrets here with MPP = S): its own
 * stack, the S-mode trap vector, s_main(), exit with its result (simctrl EXIT is reachable
 * from S-mode: no PMP). */
    .section .text.s_payload_entry, "ax"
    .globl s_payload_entry
    .balign 4
s_payload_entry:
    la      sp, s_stack_top
    la      t0, s_trap_entry
    csrw    stvec, t0
    call    s_main
    tail    exit

    .section .bss.s_stack, "aw", @nobits
    .balign 16
    .space  16384
s_stack_top:
