/* crt0.S - reset entry: gp, sp, tp, trap vector, .data copy, .bss clear, constructors,
 * main(), exit(). Placed first in the image (.text.init.enter). */
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
    .size _start, . - _start
