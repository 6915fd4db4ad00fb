/* s_trap.c - S-mode trap dispatch (see s_trap.h). */
#include "s_trap.h"
#include <stdio.h>
#include <stdlib.h>

static s_trap_handler_t s_exc[16], s_irq[16];

void s_set_trap_handler(uint32_t cause, s_trap_handler_t h) {
    if (cause & 0x80000000u) s_irq[cause & 15] = h;
    else
        s_exc[cause & 15] = h;
}

uint32_t s_trap_dispatch(uint32_t scause, uint32_t sepc, uint32_t stval);
uint32_t s_trap_dispatch(uint32_t scause, uint32_t sepc, uint32_t stval) {
    uint32_t n = scause & 0x7FFFFFFFu;
    s_trap_handler_t h = n < 16 ? ((scause & 0x80000000u) ? s_irq : s_exc)[n] : 0;
    if (h) return h(scause, sepc, stval);
    printf("unhandled S-mode %s %lu at sepc 0x%08lx, stval 0x%08lx\n",
           (scause & 0x80000000u) ? "interrupt" : "exception", (unsigned long)n,
           (unsigned long)sepc, (unsigned long)stval);
    exit(96);
}
