/* hang.c - firmware that hangs in a way tracesim must stop with exit status 127 (sim/hang.h).
 * KIND selects how; each hang starts at the label `hang_here` (the test compares the reported
 * pc and function with the symbol table):
 *   1  j .            (jal x0, 0: 32 bits)
 *   2  c.j .          (16 bits)
 *   3  beq x0, x0, .  in M-mode with MTIE and MSIE set but mstatus.MIE clear (never taken)
 *   4  wfi with nothing enabled in mie
 *   5  wfi with only a disabled timer: mtimecmp in the near future, MTIE clear (MSIE set:
 *      no other hart runs, so no msip can come)
 *   6  two harts: hart 1 runs `j .` (at hang_here), hart 0 then waits in wfi with nothing
 *      enabled (at hang_here2)
 *   7  j . in S-mode with the counter overflow interrupt delegated to S-mode, enabled in mie
 *      and a counter counting, but sstatus.SIE clear: the core never takes it there */
#include <stdint.h>
#include "bsp.h"
#include "ts_harts.h"
#include "ts_hpm.h"

#ifndef KIND
#error "KIND must be defined (1..7)"
#endif

#define JUMP32 ".option push\n.option norvc\n.globl hang_here\nhang_here: j hang_here\n.option pop\n"

#if KIND == 6
static int spin(void *arg) {
    (void)arg;
    __asm__ volatile(JUMP32);
    return 0;
}
#endif

int main(void) {
#if KIND == 1
    __asm__ volatile(JUMP32);
#elif KIND == 2
    __asm__ volatile(".globl hang_here\nhang_here: c.j hang_here\n");
#elif KIND == 3
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_SET(mie, (1u << 7) | (1u << 3));
    ts_set_mtimecmp(ts_mtime() + 10);
    __asm__ volatile(".option push\n.option norvc\n.globl hang_here\nhang_here: beq x0, x0, hang_here\n"
                     ".option pop\n");
#elif KIND == 4
    TS_CSR_WRITE(mie, 0);
    __asm__ volatile(".globl hang_here\nhang_here: wfi\n j hang_here\n");
#elif KIND == 5
    TS_CSR_WRITE(mie, 1u << 3);
    TS_CSR_SET(mstatus, 1u << 3);
    ts_set_mtimecmp(ts_mtime() + 10);
    __asm__ volatile(".globl hang_here\nhang_here: wfi\n j hang_here\n");
#elif KIND == 6
    if (ts_hart_start(1, spin, 0) != TS_HART_OK) return 1;
    for (volatile int i = 0; i < 200; i++) { }   /* hart 1 is in its loop by now */
    TS_CSR_WRITE(mie, 0);
    __asm__ volatile(".globl hang_here2\nhang_here2: wfi\n j hang_here2\n");
#elif KIND == 7
    TS_CSR_WRITE(mcountinhibit, 0);
    TS_CSR_WRITE(mhpmevent3, TS_HPM_WFI);
    TS_CSR_WRITE(mideleg, 1u << 13);
    TS_CSR_WRITE(mie, 1u << 13);
    /* mret to S-mode (MPP = S); sstatus.SIE is 0 from reset */
    __asm__ volatile("la t0, hang_here\n csrw mepc, t0\n li t0, 0x1800\n csrc mstatus, t0\n"
                     " li t0, 0x800\n csrs mstatus, t0\n mret\n" JUMP32 ::: "t0", "memory");
#endif
    return 0;
}
