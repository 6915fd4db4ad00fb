/* priv_support.c - the M-mode side of priv_call() and the S-mode trap dispatch. */
#include "priv_support.h"
#include "bsp.h"
#include <stdio.h>
#include <stdlib.h>

extern char priv_call_stub[], priv_call_stub_end[], priv_call_resume[];

/* machine software interrupt: the lower-mode code came back through priv_call_stub */
static uint32_t on_msi(uint32_t cause, uint32_t epc, uint32_t tval) {
    TS_CLINT(MSIP) = 0;
    if (epc >= (uint32_t)(uintptr_t)priv_call_stub && epc < (uint32_t)(uintptr_t)priv_call_stub_end) {
        TS_CSR_SET(mstatus, 3u << 11);           /* mret to M-mode */
        TS_CSR_CLEAR(mie, 1u << 3);
        return (uint32_t)(uintptr_t)priv_call_resume;
    }
    printf("unexpected machine software interrupt at 0x%08lx\n", (unsigned long)epc);
    exit(90);
}

void priv_init(void) {
    ts_set_trap_handler(0x80000003u, on_msi);
    TS_CSR_WRITE(stvec, (uint32_t)(uintptr_t)s_trap_entry);
}

static s_trap_handler_t s_exc[16], s_irq[16];

void s_set_trap_handler(uint32_t cause, s_trap_handler_t h) {
    if (cause & 0x80000000u) s_irq[cause & 15] = h;
    else s_exc[cause & 15] = h;
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
