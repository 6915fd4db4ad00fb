/* rv64_harts.c - the A extension's .D forms on 2..8 harts (tracesim run --harts N), and the
 * reservation rule across harts, on the RV64 core:
 * 1. every hart adds 0x100000001 to one doubleword N_ADD times with AMOADD.D (a carry out of
 *    the low word on the way): the total is harts * N_ADD * 0x100000001 + the start value;
 * 2. every hart increments a shared doubleword N_LOCK times inside a spin lock taken with
 *    LR.D/SC.D (plain loads and stores inside): the count is exact;
 * 3. hart 0 holds an LR.D while hart 1 stores to the doubleword: hart 0's SC.D fails (1);
 *    then while hart 1 stores to another doubleword: it succeeds (0).
 * Hart 0 checks and exits (0: all passed; a failure prints "FAIL test ...", status 1). */
#include <stdint.h>
#include "rv64_test.h"
#include "ts_soc.h"

#define N_ADD 200
#define N_LOCK 100
#define START 0x00000000fffffff0ull

static volatile uint64_t sum = START, lock, shared, arrived, step, word, other;

static inline uint64_t amoadd_d(volatile uint64_t *p, uint64_t v) {
    uint64_t old;
    __asm__ volatile("amoadd.d %0, %2, (%1)"
                     : "=r"(old)
                     : "r"(p), "r"(v)
                     : "memory");
    return old;
}
static inline uint64_t lr_d(volatile uint64_t *p) {
    uint64_t v;
    __asm__ volatile("lr.d %0, (%1)"
                     : "=r"(v)
                     : "r"(p)
                     : "memory");
    return v;
}
static inline uint64_t sc_d(volatile uint64_t *p, uint64_t v) {
    uint64_t r;
    __asm__ volatile("sc.d %0, %2, (%1)"
                     : "=r"(r)
                     : "r"(p), "r"(v)
                     : "memory");
    return r;
}
static void take(void) {
    for (;;) {
        if (lr_d(&lock) == 0 && sc_d(&lock, 1) == 0) return;
    }
}
static void give(void) { __asm__ volatile("amoswap.d x0, x0, (%0)" ::"r"(&lock)
                                          : "memory"); }

static void work(void) {
    for (unsigned i = 0; i < N_ADD; i++) amoadd_d(&sum, 0x100000001ull);
    for (unsigned i = 0; i < N_LOCK; i++) {
        take();
        uint64_t v = shared;
        shared = v + 1;
        give();
    }
    amoadd_d(&arrived, 1);
}

void secondary_main(unsigned long hart) {
    work();
    if (hart == 1) {
        /* 3: act while hart 0 holds its reservation */
        while (step != 1) {}
        word = 5; /* a store into hart 0's reserved doubleword */
        step = 2;
        while (step != 3) {}
        other = 5; /* a store elsewhere */
        step = 4;
    }
    for (;;) __asm__ volatile("wfi");
}

int main(void) {
    unsigned harts = TS_SIMCTRL(HARTS);
    work();
    while (arrived != harts) {}
    CHECK_EQ(1, sum, START + (uint64_t)harts * N_ADD * 0x100000001ull);
    CHECK_EQ(2, shared, (uint64_t)harts * N_LOCK);
    if (harts >= 2) {
        lr_d(&word);
        step = 1;
        while (step != 2) {}
        CHECK_EQ(3, sc_d(&word, 7), 1); /* another hart stored into it: fails */
        CHECK_EQ(4, word, 5);
        lr_d(&word);
        step = 3;
        while (step != 4) {}
        CHECK_EQ(5, sc_d(&word, 7), 0); /* a store elsewhere: the reservation holds */
        CHECK_EQ(6, word, 7);
    }
    return 0;
}
