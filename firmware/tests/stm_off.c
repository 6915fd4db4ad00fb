/* stm_off.c - events that become no message are `off` in stm.csv
 * (docs/firmware/software-trace.md), and only the ones while everything is on are `traced`. Ids in order:
 *   1  encoder in reset (after boot)          off
 *   2  encoder set up and tracing, stmEnable 0 off
 *   3  stmEnable 1                             traced
 *   4  teTracing 0 (teEnable, stmEnable 1)     off
 *   5  teTracing 1 again                       traced
 *   6  teEnable 0                              off
 *   7  encoder reset (teActive 0)              off
 *   8  ts_stm_start() again                    traced
 *   9  after ts_trace_flush()                  off
 * values 0x0ff00000 + id; tests/stm/off_test.sh has the list. */
#include <stdint.h>
#include "bsp.h"
#include "ts_stm.h"

#define EV(id) ts_stm_event(id, 0x0ff00000u + (id))

int main(void) {
    EV(1);
    ts_trace_itc_start(0, 0, 0);
    EV(2);
    ts_stm_enable(0);
    EV(3);
    TS_TE_REG(0, CONTROL) &= ~(uint32_t)TS_TE_CONTROL_TRACING;
    EV(4);
    TS_TE_REG(0, CONTROL) |= TS_TE_CONTROL_TRACING;
    EV(5);
    TS_TE_REG(0, CONTROL) &= ~(uint32_t)TS_TE_CONTROL_ENABLE;
    EV(6);
    TS_TE_REG(0, CONTROL) = 0;
    EV(7);
    ts_stm_start(0, 0);
    EV(8);
    ts_trace_flush(0);
    EV(9);
    return 0;
}
