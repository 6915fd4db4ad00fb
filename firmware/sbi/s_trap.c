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

ts_reg_t s_trap_dispatch(ts_reg_t scause, ts_reg_t sepc, ts_reg_t stval);
ts_reg_t s_trap_dispatch(ts_reg_t scause, ts_reg_t sepc, ts_reg_t stval) {
    ts_reg_t n = scause & ~TS_CAUSE_IRQ;
    s_trap_handler_t h = n < 16 ? ((scause & TS_CAUSE_IRQ) ? s_irq : s_exc)[n] : 0;
    if (h) return h(scause, sepc, stval);
    printf("unhandled S-mode %s %lu at sepc 0x%08lx, stval 0x%08lx\n",
           (scause & TS_CAUSE_IRQ) ? "interrupt" : "exception", (unsigned long)n,
           (unsigned long)sepc, (unsigned long)stval);
    exit(96);
}
