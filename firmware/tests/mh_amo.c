/* mh_amo.c - the A extension on 2..8 harts (tracesim run --harts N), self-checking:
 * 1. every hart adds 1 to one counter N_ADD times with AMOADD.W: the total is harts * N_ADD
 *    (no update lost); each ORs its bit into a mask (AMOOR.W) and offers its id to AMOMAXU.W
 *    and AMOMINU.W;
 * 2. an LR/SC spin lock (LR.W.AQ / SC.W, released with AMOSWAP.W.RL) taken N_LOCK times by
 *    every hart around a plain load/delay/store increment: mutual exclusion checked (an owner
 *    word that must not change inside the critical section) and no increment lost;
 * 3. reservations (harts 0 and 1): hart 0 holds an LR on a word while hart 1 does one thing,
 *    then hart 0's SC must fail (1) when hart 1 wrote the word (a store, a byte store, an AMO,
 *    its own successful LR/SC) and succeed (0) when it did not (a store to the next word, an
 *    LR alone, a failing SC). The spec's rule: an SC fails if another hart's store to the
 *    reservation set is observed between the LR and the SC; the set is the aligned word here
 *    (docs/internals.md "Atomics"). Exit 0 if every check passed. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "mh_common.h"

#define N_ADD 300
#define N_LOCK 40

static volatile uint32_t counter, mask, maxu, minu = ~0u;
static volatile uint32_t lock_word, shared, owner, violations;
static ts_barrier_t start;
static unsigned harts;

static inline uint32_t amo_add(volatile uint32_t *p, uint32_t v) {
    uint32_t old;
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

static void spin_lock(volatile uint32_t *l) {
    uint32_t t;
    __asm__ volatile("1: lr.w.aq %0, (%1)\n"
                     "   bnez %0, 1b\n"
                     "   sc.w %0, %2, (%1)\n"
                     "   bnez %0, 1b"
                     : "=&r"(t) : "r"(l), "r"(1u) : "memory");
}

static void spin_unlock(volatile uint32_t *l) {
    __asm__ volatile("amoswap.w.rl zero, zero, (%0)" ::"r"(l) : "memory");
}

/* ---- 3: reservations ----------------------------------------------------------------- */
enum { R_STORE, R_STORE_NEXT, R_AMO, R_LRSC, R_LR_ONLY, R_BYTE, R_SC_FAIL, R_CASES };
/* hart 0's SC result per case (0 stored, 1 failed), by the spec's rule above */
static const uint32_t sc_expected[R_CASES] = {1, 0, 1, 1, 0, 1, 0};
static volatile uint32_t resv[2] __attribute__((aligned(8))); /* the word, and the next one */
static volatile uint32_t scratch;
static volatile uint32_t step;      /* 2k + 1: hart 0 holds its LR of case k; 2k + 2: hart 1 acted */
static volatile uint32_t h1_sc[R_CASES]; /* hart 1's own SC results (R_LRSC, R_SC_FAIL) */

static void hart1_act(unsigned k) {
    uint32_t t;
    switch (k) {
    case R_STORE: resv[0] = 0x1111; break;
    case R_STORE_NEXT: resv[1] = 0x2222; break;
    case R_AMO: amo_add(&resv[0], 0x100); break;
    case R_LRSC:
        __asm__ volatile("lr.w %0, (%1)\n addi %0, %0, 1\n sc.w %0, %0, (%1)" : "=&r"(t) : "r"(&resv[0]) : "memory");
        h1_sc[k] = t;
        break;
    case R_LR_ONLY: __asm__ volatile("lr.w %0, (%1)" : "=r"(t) : "r"(&resv[0]) : "memory"); break;
    case R_BYTE: ((volatile uint8_t *)&resv[0])[3] = 0x77; break;
    default: /* R_SC_FAIL: drop the reservation R_LR_ONLY left (an SC elsewhere), then an SC of
              * the word without one: fails, stores nothing */
        __asm__ volatile("sc.w %0, zero, (%1)" : "=r"(t) : "r"(&scratch) : "memory");
        __asm__ volatile("sc.w %0, %2, (%1)" : "=r"(t) : "r"(&resv[0]), "r"(0x3333u) : "memory");
        h1_sc[k] = t;
        break;
    }
}

static int hart1_resv(void) {
    for (unsigned k = 0; k < R_CASES; k++) {
        while (step != 2 * k + 1) { }
        hart1_act(k);
        step = 2 * k + 2;
    }
    return 0;
}

static int hart0_resv(void) {
    int bad = 0;
    for (unsigned k = 0; k < R_CASES; k++) {
        resv[0] = 0x5000 + k;
        resv[1] = 0;
        uint32_t old, sc;
        /* LR, tell hart 1 (a store to another word), wait for it, SC */
        __asm__ volatile("lr.w %0, (%2)\n"
                         "sw %4, 0(%3)\n"
                         "1: lw t0, 0(%3)\n"
                         "bne t0, %5, 1b\n"
                         "sc.w %1, %6, (%2)"
                         : "=&r"(old), "=&r"(sc)
                         : "r"(&resv[0]), "r"(&step), "r"(2 * k + 1), "r"(2 * k + 2), "r"(0xAAAAu)
                         : "t0", "memory");
        if (old != 0x5000 + k || sc != sc_expected[k]) {
            printf("mh_amo: reservation case %u: LR read 0x%lx, SC gave %lu, expected 0x%x and %lu\n", k,
                   (unsigned long)old, (unsigned long)sc, 0x5000 + k, (unsigned long)sc_expected[k]);
            bad = 1;
        }
        if (sc == 0 && resv[0] != 0xAAAA) {
            printf("mh_amo: reservation case %u: SC succeeded but the word is 0x%lx\n", k, (unsigned long)resv[0]);
            bad = 1;
        }
    }
    if (h1_sc[R_LRSC] != 0 || h1_sc[R_SC_FAIL] != 1) {
        printf("mh_amo: hart 1's SCs gave %lu and %lu, expected 0 and 1\n", (unsigned long)h1_sc[R_LRSC],
               (unsigned long)h1_sc[R_SC_FAIL]);
        bad = 1;
    }
    return bad;
}

/* ---- 1 and 2 ------------------------------------------------------------------------- */
static int work(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    ts_barrier(&start, harts);
    for (unsigned i = 0; i < N_ADD; i++) amo_add(&counter, 1);
    __asm__ volatile("amoor.w zero, %1, (%0)" ::"r"(&mask), "r"(1u << me) : "memory");
    __asm__ volatile("amomaxu.w zero, %1, (%0)" ::"r"(&maxu), "r"(me) : "memory");
    __asm__ volatile("amominu.w zero, %1, (%0)" ::"r"(&minu), "r"(me) : "memory");
    for (unsigned i = 0; i < N_LOCK; i++) {
        spin_lock(&lock_word);
        owner = me + 1;
        uint32_t v = shared;
        for (volatile unsigned d = 0; d < 5 + me; d++) { }
        if (owner != me + 1) violations++;
        shared = v + 1;
        owner = 0;
        spin_unlock(&lock_word);
    }
    ts_barrier(&start, harts);
    return me == 1 ? hart1_resv() : 0;
}

int main(void) {
    harts = mh_need_harts("mh_amo", 2);
    for (unsigned h = 1; h < harts; h++)
        if (ts_hart_start(h, work, NULL) != TS_HART_OK) return 2;
    int bad = work(NULL);
    bad |= hart0_resv();
    for (unsigned h = 1; h < harts; h++) {
        int r = 1;
        ts_hart_join(h, &r);
        bad |= r;
    }
    if (counter != harts * N_ADD) {
        printf("mh_amo: counter %lu, expected %u\n", (unsigned long)counter, harts * N_ADD);
        bad = 1;
    }
    if (mask != (1u << harts) - 1 || maxu != harts - 1 || minu != 0) {
        printf("mh_amo: mask 0x%lx, maxu %lu, minu %lu\n", (unsigned long)mask, (unsigned long)maxu,
               (unsigned long)minu);
        bad = 1;
    }
    if (shared != harts * N_LOCK || violations != 0 || lock_word != 0) {
        printf("mh_amo: lock: %lu increments of %u, %lu violations, lock %lu\n", (unsigned long)shared,
               harts * N_LOCK, (unsigned long)violations, (unsigned long)lock_word);
        bad = 1;
    }
    if (!bad) printf("mh_amo: all checks passed on %u harts\n", harts);
    return bad;
}
