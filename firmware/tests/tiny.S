/* tiny.S - smallest possible program, linked in odd ways to make bad inputs for the
 * simulator's error tests (RV64 ELF, segment outside RAM). */
    .globl _start
_start:
    j _start
