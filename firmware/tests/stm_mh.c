/* stm_mh.c - software trace events of two harts (tracesim run --harts 2): hart 0 sets up the
 * funnel (SRAM sink, master timestamp) and starts hart 1; each hart sets up its own encoder
 * into the funnel with stmEnable, waits at a barrier, names its thread ("hart0" / "hart1") and
 * emits ids 0x100 * (hart + 1) + k with values (hart << 28) | k * 0x111, k = 1..10, then
 * flushes its encoder. tests/stm/mh_test.sh checks every stm.csv row's hart against these. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "ts_harts.h"
#include "ts_stm.h"

static ts_barrier_t start_line, end_line;
static unsigned nharts;

static void te_init(unsigned h) {
    TS_TE_REG(h, CONTROL) = 0;
    TS_TE_REG(h, CONTROL) = 1;
    TS_TE_REG(h, CONTROL) = (8u << 28) | (1u << 7) | 3u;          /* funnel sink */
    TS_TE_REG(h, TS_CONTROL) = 1u;
    TS_TE_REG(h, TS_CONTROL) = (uint32_t)(TS_TS_CONTROL_ENABLE | TS_TS_CONTROL_INSTRUMENTATION |
                                          TS_TS_CONTROL_OWNERSHIP | TS_TS_CONTROL_ACTIVE);
    TS_TE_REG(h, CONTROL) |= TS_TE_CONTROL_TRACING;
    ts_stm_enable(h);
}

static int hart_main(void *arg) {
    (void)arg;
    unsigned h = ts_hart_id();
    te_init(h);
    ts_barrier(&start_line, nharts);
    ts_stm_thread_name(h ? "hart1" : "hart0");
    for (uint32_t k = 1; k <= 10; k++) ts_stm_event((uint16_t)(0x100u * (h + 1) + k), (h << 28) | (k * 0x111u));
    ts_barrier(&end_line, nharts);
    ts_trace_flush(h);
    return 0;
}

int main(void) {
    nharts = ts_num_harts();
    CHECK_EQ(nharts, 2);
    TS_TF_REG(CONTROL) = 0;
    TS_TF_REG(CONTROL) = 1;
    TS_TF_REG(CONTROL) = (4u << 28) | 3u;
    TS_TF_REG(TS_CONTROL) = 1u;
    TS_TF_REG(TS_CONTROL) = 3u;
    TS_TF_REG(SINK_WP) = 0;
    CHECK_EQ(ts_hart_start(1, hart_main, NULL), TS_HART_OK);
    hart_main(NULL);
    CHECK_EQ(ts_hart_join(1, NULL), TS_HART_OK);
    TS_TF_REG(CONTROL) &= ~(1u << 1);
    while (!(TS_TF_REG(CONTROL) & (1u << 3))) { }
    printf("stm_mh: 2 harts, 10 events each\n");
    return 0;
}
