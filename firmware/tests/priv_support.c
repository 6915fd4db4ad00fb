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
