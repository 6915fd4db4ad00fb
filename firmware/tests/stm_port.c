/* stm_port.c - software trace port: events through the encoder into the SRAM sink. */
#include "bsp.h"
#include "ts_stm.h"
#include "ts_trace.h"

int main(void) {
    ts_trace_itc_start(0, 0, 0);
    TS_TE_REG(0, TS_CONTROL) |= TS_TS_CONTROL_OWNERSHIP;
    TS_TE_REG(0, STM_CONTROL) = TS_STM_CONTROL_ENABLE;
    for (unsigned i = 1; i <= 20; i++) ts_stm_event((uint16_t)i, i * 0x01010101u);
    ts_stm_event(TS_STM_ID_THREAD_SWITCH, 0x80001000u);
    __asm__ volatile("csrwi 0x7c0, 5");
    ts_trace_flush(0);
    return 0;
}
