/* crt0.S - reset entry: gp, sp, tp, trap vector, .data copy, .bss clear, constructors,
 * main(), exit(). Placed first in the image (.text.init.enter).
 *
 * Every hart starts here (README "Several harts (firmware)"). Hart 0 runs the C runtime start-up and
 * main() exactly as a single-hart SoC does (two extra instructions: the mhartid read and a
 * forward branch that is not taken). Any other hart sets up its own stack (hart n:
 * __stack - n * __ts_hart_stack_size), the trap vector, enables only the machine software
 * interrupt and parks in ts_hart_park() (bsp/ts_harts.c), which waits in wfi for
 * ts_hart_start(). A hart number of TS_MAX_HARTS (8) or more sleeps for ever. */
    .section .text.init.enter, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    csrr    t0, mhartid
    la      sp, __stack
    bnez    t0, 1f
    la      tp, __tls_base
    la      t0, ts_trap_entry
    csrw    mtvec, t0
    /* copy initialised data (.data, .tdata) from its load address */
    la      a0, __data_start
    la      a1, __data_source
    la      a2, __data_size
    call    memcpy
    /* clear .tbss and .bss */
    la      a0, __bss_start
    li      a1, 0
    la      a2, __bss_size
    call    memset
    call    __libc_init_array
    li      a0, 0
    li      a1, 0
    call    main
    tail    exit
    /* harts other than 0 */
1:  li      t1, 8                   /* TS_MAX_HARTS */
    bgeu    t0, t1, 3f
    la      t1, __ts_hart_stack_size
    mul     t1, t1, t0
    sub     sp, sp, t1
    la      t1, ts_trap_entry
    csrw    mtvec, t1
    csrwi   mie, 8                  /* MSIE only; mstatus.MIE stays 0: wfi wakes, no trap */
    mv      a0, t0
    call    ts_hart_park            /* never returns */
3:  csrwi   mie, 0
2:  wfi
    j       2b
    .size _start, . - _start
