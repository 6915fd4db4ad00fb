/* stm_lost.c - software trace port events faster than the encoder drains them: a burst of
 * one-instruction events (csrwi, ids 1..31) and then events of every group back to back
 * (COM THREAD_NAME, RSVD, SYS, USER), with timestamps; the ITC FIFO fills and the port, which
 * has no back-pressure, drops events (stm.csv status lost, trace_events.csv stm_lost). */
#include "bsp.h"
#include "ts_stm.h"
#include "ts_trace.h"

#define CSRWI(k) __asm__ volatile("csrwi " TS_STM_STR(TS_STM_CSR_NUM) ", " #k ::: "memory")

int main(void) {
    ts_trace_itc_start(0, 0, 0);
    TS_TE_REG(0, TS_CONTROL) |= TS_TS_CONTROL_OWNERSHIP;
    TS_TE_REG(0, STM_CONTROL) = TS_STM_CONTROL_ENABLE;
    CSRWI(1);  CSRWI(2);  CSRWI(3);  CSRWI(4);  CSRWI(5);  CSRWI(6);  CSRWI(7);  CSRWI(8);
    CSRWI(9);  CSRWI(10); CSRWI(11); CSRWI(12); CSRWI(13); CSRWI(14); CSRWI(15); CSRWI(16);
    CSRWI(17); CSRWI(18); CSRWI(19); CSRWI(20); CSRWI(21); CSRWI(22); CSRWI(23); CSRWI(24);
    CSRWI(25); CSRWI(26); CSRWI(27); CSRWI(28); CSRWI(29); CSRWI(30); CSRWI(31);
    ts_stm_event(TS_STM_ID_THREAD_NAME, 0x6e69616du);   /* "main" */
    ts_stm_event(0x8123, 1);
    ts_stm_event(0xc001, 2);
    ts_stm_event(0x0012, 3);
    ts_stm_event(TS_STM_ID_THREAD_NAME, 0x6e69616du);
    ts_stm_event(0x8123, 4);
    ts_stm_event(0xc001, 5);
    ts_stm_event(0x0012, 6);
    ts_trace_flush(0);
    return 0;
}
