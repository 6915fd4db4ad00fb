/* stm_dec_mh.c - the software trace port on every hart through the funnel (run with --harts
 * N --funnel --srcbits S --stm-thread-switch): each hart switches to its own thread (tp
 * 0x1000 * (hart + 1)) and emits 8 events id 0x20 + i, value hart << 16 | i, and one ITC
 * store; tests/stm/dec_test.sh checks --hart N and `tracesim check` per hart. */
#include "check.h"
#include "mh_common.h"
#include "ts_stm.h"

static ts_barrier_t bar;
static unsigned nh;

static int events(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    ts_barrier(&bar, nh);
    uint32_t tp = 0x1000u * (me + 1);
    __asm__ volatile("mv tp, %0" : : "r"(tp) : "memory");
    for (unsigned i = 0; i < 8; i++) ts_stm_event((uint16_t)(0x20 + i), me << 16 | i);
    ts_itc_write32(me, 0, 0xabcd0000u | me);
    return 0;
}

int main(void) {
    nh = mh_need_harts("stm_dec_mh", 2);
    mh_trace_start(nh, 1u, 0, 0);
    for (unsigned h = 0; h < nh; h++) {
        TS_TE_REG(h, TS_CONTROL) |= TS_TS_CONTROL_OWNERSHIP;
        TS_TE_REG(h, STM_CONTROL) = TS_STM_CONTROL_ENABLE;
    }
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_start(h, events, 0), TS_HART_OK);
    CHECK_EQ(events(0), 0);
    for (unsigned h = 1; h < nh; h++) {
        int r;
        CHECK_EQ(ts_hart_join(h, &r), TS_HART_OK);
        CHECK_EQ(r, 0);
    }
    mh_trace_flush(nh);
    return 0;
}
