/* mh_itc_same.c - every hart stores to its own encoder's ITC in the same cycle, ROUNDS
 * times: all harts program their mtimecmp to the same value and wait in wfi with only the
 * timer interrupt enabled (mstatus.MIE = 0: no trap); the same instructions after the
 * wake-up store (hart << 16 | round) to stimulus 0. Each encoder is a separate target of the
 * interconnect, so the stores complete in the same cycle (itc.csv shows it; the ctest
 * checks it), and nothing is lost on the way through the funnel (no overflow flag; the
 * ctest counts the rows and runs tracesim check). Needs 2 or more harts. */
#include "check.h"
#include "mh_common.h"

#define ROUNDS 16
#define SPACING 4              /* mtime ticks (100 cycles each) between rounds */

static volatile uint64_t t_first;
static ts_barrier_t bar;
static unsigned nh;

static int stores(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    volatile uint32_t *stim = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(me, 0);
    ts_barrier(&bar, nh);
    TS_CSR_WRITE(mie, 1u << 7);                         /* MTIE only */
    for (uint32_t k = 0; k < ROUNDS; k++) {
        ts_set_mtimecmp(t_first + SPACING * k);
        uint32_t v = me << 16 | k;
        __asm__ volatile("1: wfi\n\t"
                         "csrr t0, mip\n\t"
                         "andi t0, t0, 0x80\n\t"
                         "beqz t0, 1b\n\t"
                         "sw %1, 0(%0)"
                         :: "r"(stim), "r"(v) : "t0", "memory");
    }
    ts_set_mtimecmp(~0ull);
    TS_CSR_WRITE(mie, 0);
    return 0;
}

int main(void) {
    nh = mh_need_harts("mh_itc_same", 2);
    mh_trace_start(nh, 1u, 0, 0);
    t_first = ts_mtime() + 30;                           /* every hart is waiting by then */
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_start(h, stores, 0), TS_HART_OK);
    CHECK_EQ(stores(0), 0);
    for (unsigned h = 1; h < nh; h++) {
        int r;
        CHECK_EQ(ts_hart_join(h, &r), TS_HART_OK);
        CHECK_EQ(r, 0);
    }
    mh_trace_flush(nh);
    for (unsigned h = 0; h < nh; h++) CHECK_EQ(TS_TE_REG(h, CONTROL) & (1u << 12), 0);   /* nothing lost */
    printf("mh_itc_same: %u harts x %u stores, each round in one cycle (see itc.csv)\n", nh, ROUNDS);
    return 0;
}
