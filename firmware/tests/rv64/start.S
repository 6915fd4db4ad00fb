/* start.S - start-up of the RV64 conformance tests: gp, a 16 KiB stack per hart, a trap
 * vector that ends the run with 128 + the cause (160 + for an interrupt), then main (hart 0)
 * or secondary_main(hartid) (the others; a weak default waits for ever). The RAM is zeroed
 * by the simulator and the ELF is loaded in place, so nothing is copied or cleared. */
    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    csrr t0, mhartid
    la sp, __stack_top
    slli t1, t0, 14
    sub sp, sp, t1
    la t2, rv64_default_trap
    csrw mtvec, t2
    bnez t0, 1f
    call main
    j rv64_exit
1:  mv a0, t0
    call secondary_main
2:  wfi
    j 2b

    .text
    .balign 4
    .globl rv64_default_trap
rv64_default_trap:
    csrr a0, mcause
    andi t0, a0, 15
    li a1, 128
    bgez a0, 1f
    li a1, 160
1:  add a0, t0, a1
    /* fall through */
    .globl rv64_exit
rv64_exit:                          /* a0: the exit status */
    li t0, 0x10020000               /* simctrl EXIT */
    sw a0, 0(t0)
1:  j 1b

    .weak secondary_main
secondary_main:
1:  wfi
    j 1b
