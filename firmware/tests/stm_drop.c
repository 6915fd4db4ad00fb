/* stm_drop.c - the port has no back-pressure (docs/firmware/software-trace.md): run with
 * --itc-depth 1. burst() emits 24 events in straight-line code (csrwi, one instruction
 * each), twice with the same code: first with the encoder tracing and stmEnable (the FIFO of
 * one entry fills, events are lost), then with stmEnable 0 (every event `off`). The firmware
 * checks that stmLost > 0 and teStallOrOverflow is set after the first burst, and prints
 * stmLost; tests/stm/drop_test.sh compares it with the `lost` rows of stm.csv and the
 * stm_lost rows of trace_events.csv, and the cycle distances of the two bursts (no stall). */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "ts_stm.h"

#define E(k) "csrwi 0x7c0, " #k "\n\t"
static __attribute__((noinline)) void burst(void) {
    __asm__ volatile("li a0, 0x600d0000\n\t"
                     E(1) E(2) E(3) E(4) E(5) E(6) E(7) E(8) E(9) E(10) E(11) E(12)
                     E(13) E(14) E(15) E(16) E(17) E(18) E(19) E(20) E(21) E(22) E(23) E(24)
                     ::: "a0", "memory");
}

int main(void) {
    ts_stm_start(0, 0);
    ts_mark(1);
    burst();
    ts_mark(2);
    uint32_t lost = ts_stm_lost(0), ctl = TS_TE_REG(0, CONTROL);
    CHECK_EQ((ctl >> TS_TE_CONTROL_STALL_OR_OVERFLOW_LSB) & 1u, 1);
    CHECK_EQ(lost != 0 && lost < 24, 1);
    ts_stm_disable(0);
    ts_mark(3);
    burst();
    ts_mark(4);
    CHECK_EQ(ts_stm_lost(0), lost);          /* events while off are not lost */
    ts_trace_flush(0);
    printf("stm_drop: stmLost %lu\n", (unsigned long)lost);
    return 0;
}
