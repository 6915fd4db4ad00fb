/* mh_itc_full.c - hart 1 fills its ITC FIFO with a burst of unpolled stores while every
 * other hart writes polled stores to its own encoder at the same time: the others' stores
 * are all accepted (no stall-or-overflow flag on their encoders; the ctest counts their
 * itc.csv rows). STALL 0: hart 1's encoder has teStallEnable clear, stores are lost; STALL 1:
 * teStallEnable is set on hart 1's encoder, hart 1 waits and nothing is lost (the ctest
 * checks trace.json's itc_lost). teStallOrOverflow is set in both (SiFive: "an overflow
 * happened or the hart was stalled"). Needs 2 or more harts. */
#include "check.h"
#include "mh_common.h"

#ifndef STALL
#define STALL 0
#endif
#define BURST 300              /* the .rept below */
#define POLLED 100

static ts_barrier_t bar;
static unsigned nh;

static int stores(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    volatile uint32_t *stim = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(me, 0);
    ts_barrier(&bar, nh);
    if (me == 1) {                                      /* one store a cycle, no poll */
        __asm__ volatile(".rept 300\n\tsw %1, 0(%0)\n\t.endr" :: "r"(stim), "r"(0x10000u) : "memory");
    } else {
        for (uint32_t i = 0; i < POLLED; i++) {
            while (*stim == 0) { }
            *stim = me << 16 | i;
        }
    }
    return 0;
}

int main(void) {
    nh = mh_need_harts("mh_itc_full", 2);
    mh_trace_start(nh, 1u, STALL ? 2u : 0u, 0);
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_start(h, stores, 0), TS_HART_OK);
    CHECK_EQ(stores(0), 0);
    for (unsigned h = 1; h < nh; h++) {
        int r;
        CHECK_EQ(ts_hart_join(h, &r), TS_HART_OK);
        CHECK_EQ(r, 0);
    }
    mh_trace_flush(nh);
    /* teStallOrOverflow: hart 1's encoder lost stores (STALL 0) or stalled hart 1 (STALL 1);
     * the others' neither (the ctest checks trace.json's lost count and itc.csv's rows) */
    for (unsigned h = 0; h < nh; h++) CHECK_EQ(TS_TE_REG(h, CONTROL) & (1u << 12), h == 1 ? 1u << 12 : 0);
    printf("mh_itc_full: hart 1 %s, %u other hart(s) lost nothing\n", STALL ? "stalled, lost nothing" : "overflowed", nh - 1);
    return 0;
}
