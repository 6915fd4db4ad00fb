/* cache.c - timing caches, run with --dcache 1K --icache 1K --cache-line 32 --cache-miss 7
 * (direct-mapped) and again with --cache-ways 2. Expected counts follow from that geometry:
 * 1 KiB / 32 B = 32 lines; addresses 1 KiB apart share a set. The conflict case tells the
 * program which geometry it runs on, and it checks the numbers for that one. */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "ts_hpm.h"

static volatile uint32_t buf[1024] __attribute__((aligned(1024)));   /* 4 KiB */

static uint32_t misses(void) { return TS_CSR_READ(mhpmcounter3); }

int main(void) {
    TS_CSR_WRITE(mcountinhibit, 0);
    TS_CSR_WRITE(mhpmevent3, TS_HPM_D_CACHE_MISS);
    TS_CSR_WRITE(mhpmevent4, TS_HPM_D_CACHE_ACCESS);

    /* 16 loads from 16 different lines: 16 misses; again: 16 hits */
    uint32_t m0 = misses(), a0 = TS_CSR_READ(mhpmcounter4);
    for (int i = 0; i < 16; i++) (void)buf[i * 8];
    uint32_t m1 = misses();
    for (int i = 0; i < 16; i++) (void)buf[i * 8];
    uint32_t m2 = misses();
    CHECK_EQ(m1 - m0, 16);
    CHECK_EQ(m2 - m1, 0);
    /* lookups: 32 loads of buf plus the loop's own stack traffic is none at -O2: exactly 32 */
    CHECK_EQ(TS_CSR_READ(mhpmcounter4) - a0 >= 32, 1);

    /* stores never miss (write-through, no allocation) */
    m0 = misses();
    for (int i = 0; i < 16; i++) buf[512 + i * 8] = 1;
    CHECK_EQ(misses() - m0, 0);

    /* two lines 1 KiB apart in the same set, alternated 8 times: direct-mapped misses every
     * time (16), 2-way misses only the first two */
    (void)buf[0]; (void)buf[256];
    m0 = misses();
    for (int i = 0; i < 8; i++) { (void)buf[0]; (void)buf[256]; }
    uint32_t conflict = misses() - m0;
    int two_way = conflict == 0;
    if (!two_way) CHECK_EQ(conflict, 16);

    /* a miss costs 7 cycles more than a hit */
    uint32_t c0, c1, c2, c3, v;
    __asm__ volatile("csrr %0, mcycle\n lw %2, 0(%3)\n csrr %1, mcycle"
                     : "=&r"(c0), "=&r"(c1), "=&r"(v) : "r"(&buf[1000]) : "memory");
    __asm__ volatile("csrr %0, mcycle\n lw %2, 0(%3)\n csrr %1, mcycle"
                     : "=&r"(c2), "=&r"(c3), "=&r"(v) : "r"(&buf[1000]) : "memory");
    CHECK_EQ((c1 - c0) - (c3 - c2), 7);

    /* I-side: the first pass over a loop body misses, later passes hit */
    TS_CSR_WRITE(mhpmevent5, TS_HPM_I_CACHE_MISS);
    uint32_t im[3];
    for (int pass = 0; pass < 3; pass++) {
        uint32_t s = TS_CSR_READ(mhpmcounter5);
        __asm__ volatile(".option push\n .option norvc\n .balign 32\n .rept 32\n nop\n .endr\n .option pop" ::: "memory");
        im[pass] = TS_CSR_READ(mhpmcounter5) - s;
    }
    printf("I-cache misses per pass: %lu %lu %lu\n", (unsigned long)im[0], (unsigned long)im[1], (unsigned long)im[2]);
    /* 32 4-byte nops = 128 bytes = 4 aligned lines, plus at most the line of the closing
     * csrr and one line of the loop around them */
    CHECK_EQ(im[0] >= 4 && im[0] <= 6, 1);
    CHECK_EQ(im[1], 0);
    CHECK_EQ(im[2], 0);
    printf("cache: %s, all checks passed\n", two_way ? "2-way" : "direct-mapped");
    return 0;
}
