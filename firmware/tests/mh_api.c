/* mh_api.c - the BSP's several-harts API (bsp/ts_harts.h) on every hart the SoC has
 * (tracesim run --harts N; with one hart only the argument checks and the lock run):
 * bad hart numbers, start/join with return values, a busy hart, per-hart TLS (errno),
 * a ts_lock_t counter incremented by every hart, a barrier over several rounds, whole
 * lines from every hart on the shared UART, and the cost figures (start latency, lock). */
#include <errno.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"

#define ROUNDS 200
#define BAR_ROUNDS 20

static ts_lock_t lock;
static ts_barrier_t bar;
static volatile uint32_t counter;
static volatile uint32_t phase[TS_MAX_HARTS];
static volatile uint32_t started_at, go;
static unsigned nh;

static uint32_t cycle_now(void) { return TS_SIMCTRL(CYCLE_LO); }

static int first_instr(void *arg) {            /* the start latency: the simulator's clock */
    (void)arg;
    started_at = cycle_now();
    return 7;
}

static int ret_id(void *arg) { return (int)(uintptr_t)arg * 10 + (int)ts_hart_id(); }

static int slow(void *arg) {
    (void)arg;
    while (!go) { }
    return 3;
}

/* every hart: the counter under the lock, then the barrier rounds, errno, lines */
static int work(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    errno = 100 + (int)me;                      /* thread-local: each hart its own */
    for (unsigned i = 0; i < ROUNDS; i++) {
        ts_lock(&lock);
        uint32_t v = counter;
        for (volatile int d = 0; d < 3; d++) { }   /* widen the window a race would need */
        counter = v + 1;
        ts_unlock(&lock);
    }
    for (unsigned r = 1; r <= BAR_ROUNDS; r++) {
        phase[me] = r;
        ts_barrier(&bar, nh);
        for (unsigned h = 0; h < nh; h++)
            if (phase[h] != r) {
                printf("FAIL hart %u: round %u, hart %u is in round %lu\n", me, r, h, (unsigned long)phase[h]);
                return 10;
            }
        ts_barrier(&bar, nh);
    }
    if (counter != ROUNDS * nh) {
        printf("FAIL hart %u: counter %lu after the barrier, expected %u\n", me, (unsigned long)counter, ROUNDS * nh);
        return 11;
    }
    if (errno != 100 + (int)me) {
        printf("FAIL hart %u: errno %d, expected %d\n", me, errno, 100 + (int)me);
        return 12;
    }
    for (unsigned i = 0; i < 3; i++)
        printf("hart %u line %u: the quick brown fox jumps over the lazy dog\n", me, i);
    return 0;
}

int main(void) {
    nh = ts_num_harts();
    CHECK_EQ(ts_hart_id(), 0);
    /* bad hart numbers: nothing happens */
    CHECK_EQ(ts_hart_start(0, ret_id, 0), TS_HART_EINVAL);
    CHECK_EQ(ts_hart_start(nh, ret_id, 0), TS_HART_EINVAL);
    CHECK_EQ(ts_hart_start(TS_MAX_HARTS, ret_id, 0), TS_HART_EINVAL);
    CHECK_EQ(ts_hart_start(1000, ret_id, 0), TS_HART_EINVAL);
    CHECK_EQ(ts_hart_join(0, NULL), TS_HART_EINVAL);
    CHECK_EQ(ts_hart_join(nh, NULL), TS_HART_EINVAL);
    CHECK_EQ(ts_harts_started(), 0);
    /* the lock's cost on hart 0 (uncontended) */
    uint64_t c0 = ts_rdcycle();
    for (int i = 0; i < 16; i++) {
        ts_lock(&lock);
        ts_unlock(&lock);
    }
    uint64_t c1 = ts_rdcycle();
    printf("mh_api: %u hart(s); lock + unlock %lu cycles (before any start)\n", nh, (unsigned long)((c1 - c0) / 16));
    if (nh == 1) {
        CHECK_EQ(ts_hart_start(1, ret_id, 0), TS_HART_EINVAL);
        printf("mh_api: one hart: argument checks and lock passed\n");
        return 0;
    }
    CHECK_EQ(ts_hart_start(1, NULL, 0), TS_HART_EINVAL);
    CHECK_EQ(ts_hart_join(1, NULL), TS_HART_EIDLE);        /* (not active yet) */
    /* start latency: simctrl's cycle count before ts_hart_start and at fn's first statement */
    uint32_t t0 = cycle_now();
    CHECK_EQ(ts_hart_start(1, first_instr, 0), TS_HART_OK);
    int r = -1;
    CHECK_EQ(ts_hart_join(1, &r), TS_HART_OK);
    CHECK_EQ(r, 7);
    uint32_t lat1 = started_at - t0;
    t0 = cycle_now();
    CHECK_EQ(ts_hart_start(1, first_instr, 0), TS_HART_OK);
    CHECK_EQ(ts_hart_join(1, &r), TS_HART_OK);
    uint32_t lat2 = started_at - t0;
    printf("mh_api: ts_hart_start -> fn running: %lu cycles (first start of the run, with activation and TLS set-up: %lu)\n",
           (unsigned long)lat2, (unsigned long)lat1);
    CHECK_EQ(ts_hart_join(1, &r), TS_HART_EIDLE);          /* joined already */
    /* return values */
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_start(h, ret_id, (void *)(uintptr_t)h), TS_HART_OK);
    for (unsigned h = 1; h < nh; h++) {
        CHECK_EQ(ts_hart_join(h, &r), TS_HART_OK);
        CHECK_EQ(r, (int)(h * 10 + h));
    }
    /* busy until joined */
    go = 0;
    CHECK_EQ(ts_hart_start(1, slow, 0), TS_HART_OK);
    CHECK_EQ(ts_hart_start(1, ret_id, 0), TS_HART_EBUSY);
    CHECK_EQ(ts_hart_busy(1), 1);
    go = 1;
    while (ts_hart_busy(1)) { }
    CHECK_EQ(ts_hart_start(1, ret_id, 0), TS_HART_EBUSY);  /* done, but not joined */
    CHECK_EQ(ts_hart_join(1, &r), TS_HART_OK);
    CHECK_EQ(r, 3);
    /* every hart: lock, barrier, TLS, lines */
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_start(h, work, 0), TS_HART_OK);
    int bad = work(0);
    for (unsigned h = 1; h < nh; h++) {
        CHECK_EQ(ts_hart_join(h, &r), TS_HART_OK);
        if (r) bad = r;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(counter, ROUNDS * nh);
    c0 = ts_rdcycle();
    for (int i = 0; i < 16; i++) {
        ts_lock(&lock);
        ts_unlock(&lock);
    }
    c1 = ts_rdcycle();
    printf("mh_api: lock + unlock %lu cycles uncontended with %u harts; counter %lu = %u x %u\n",
           (unsigned long)((c1 - c0) / 16), nh, (unsigned long)counter, nh, ROUNDS);
    printf("mh_api: all checks passed on %u harts\n", nh);
    return 0;
}
