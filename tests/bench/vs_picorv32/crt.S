/* crt.S - start-up of the PicoRV32 side of vs_picorv32.sh: stack, .bss cleared, main(),
 * then a store to the testbench's stop address. No CSRs (PicoRV32 has only the counters). */
    .section .text.start, "ax"
    .globl _start
_start:
    la      sp, __stack
    la      a0, __bss_start
    la      a1, __bss_end
1:  bgeu    a0, a1, 2f
    sw      zero, 0(a0)
    addi    a0, a0, 4
    j       1b
2:  call    main
    li      t0, 0x10000000          /* stop: the testbench ends the run */
    sw      a0, 0(t0)
3:  j       3b
