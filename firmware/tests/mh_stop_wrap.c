/* mh_stop_wrap.c - stop-on-wrap of the funnel's sink while every hart writes ITC stores:
 * the funnel (SRAM sink, or with SBA a 1 KiB buffer in RAM) stops when the buffer is full
 * (tfEnable clears, WP at the end); every hart goes on storing. After the stop the funnel
 * takes and discards what the encoders send, so no encoder's FIFO stays full: every hart's
 * polled stores all go through (a writer that found no room for POLLS polls would report
 * it and fail the test). Needs 2 or more harts; run the SRAM variant with --trace-sram 1K. */
#include "check.h"
#include "mh_common.h"

#define STORES 2000
#define POLLS 2000
#define SBA_BYTES 1024

#ifdef SBA
static uint32_t sba_buf[SBA_BYTES / 4] __attribute__((aligned(64)));
#endif
static ts_barrier_t bar;
static unsigned nh;
static volatile uint32_t done[TS_MAX_HARTS];

static int stores(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    volatile uint32_t *stim = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(me, 0);
    ts_barrier(&bar, nh);
    uint32_t i;
    for (i = 0; i < STORES; i++) {
        unsigned p = 0;
        while (*stim == 0 && ++p < POLLS) { }
        if (p == POLLS) break;                           /* stuck: no room for POLLS polls */
        *stim = me << 16 | i;
    }
    done[me] = i;
    return 0;
}

int main(void) {
    nh = mh_need_harts("mh_stop_wrap", 2);
    mh_trace_start(nh, 1u, 0, 1);
#ifdef SBA
    TS_TF_REG(CONTROL) = (7u << 28) | (1u << 14) | 3u;
    TS_TF_REG(SINK_BASE) = (uint32_t)(uintptr_t)sba_buf;
    TS_TF_REG(SINK_LIMIT) = (uint32_t)(uintptr_t)sba_buf + SBA_BYTES - 4;
    TS_TF_REG(SINK_WP) = (uint32_t)(uintptr_t)sba_buf;
    uint32_t end = (uint32_t)(uintptr_t)sba_buf + SBA_BYTES;
#else
    uint32_t end = 1024;                                 /* --trace-sram 1K */
#endif
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_start(h, stores, 0), TS_HART_OK);
    CHECK_EQ(stores(0), 0);
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_join(h, NULL), TS_HART_OK);
    uint32_t ctl = TS_TF_REG(CONTROL);
    CHECK_EQ(ctl & 2u, 0);                               /* tfEnable cleared by the stop */
    CHECK_EQ(TS_TF_REG(SINK_WP), end);                   /* full, wrap flag clear */
    for (unsigned h = 0; h < nh; h++) {
        if (done[h] != STORES) {
            printf("FAIL hart %u: stuck after %lu of %u stores\n", h, (unsigned long)done[h], STORES);
            return 1;
        }
    }
    printf("mh_stop_wrap: the funnel's sink stopped full with %u harts writing; all %u stores of each went through\n", nh, STORES);
    return 0;
}
