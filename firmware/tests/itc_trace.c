/* itc_trace.c - programs the trace encoder the way SiFive's perf library does
 * (trace-hw-facts.md 5.3: defaults pass, then the per-core pass, then teTracing), stores a
 * known mix of 32/16/8-bit values on stimulus 6 (and a few on others), flushes and exits.
 * Built twice: SRAM sink (itc_sram) and SBA sink into a RAM buffer (itc_sba, -DUSE_SBA).
 * `tracesim check` then compares the decoded trace with the simulator's log of every store. */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "ts_hpm.h"
#include "ts_trace.h"

#define CH 6
#ifdef USE_SBA
static uint64_t sba_buf[1024];                 /* 8 KiB, 8-byte aligned like the perf pool */
#define SINK 7u
#elif defined(USE_FUNNEL)
#define SINK 8u                                /* the funnel owns the SRAM sink */
#else
#define SINK 4u
#endif

static void te_init_like_sifive(void) {
    /* defaults pass */
    uint32_t c = TS_TE_REG(0, CONTROL);
    TS_TE_REG(0, CONTROL) = c & ~1u;
    TS_TE_REG(0, CONTROL) = c | 1u;
    TS_TE_REG(0, CONTROL) = (4u << 28) | (0xFu << 20) | (0xFu << 16) | (1u << 14) | (1u << 7) | 3u;
    TS_TE_REG(0, SINK_WP) = 0;
    TS_TE_REG(0, SINK_RP) = 0;
    uint32_t t = TS_TE_REG(0, TS_CONTROL);
    TS_TE_REG(0, TS_CONTROL) = t & ~1u;
    TS_TE_REG(0, TS_CONTROL) = t | 1u;
    unsigned type = (TS_TE_REG(0, TS_CONTROL) >> 4) & 7;
    t = TS_TE_REG(0, TS_CONTROL);
    t |= (1u << 18) | (1u << 19) | (3u << 16);    /* tsInstrumentation, tsOwnership, tsBranch */
    t &= ~((1u << 3) | (3u << 8));                /* tsDebug 0, prescale 1 */
    TS_TE_REG(0, TS_CONTROL) = t;
    TS_TE_REG(0, TS_CONTROL) = t | ((type == 2 || type == 3) ? 2u : 0u) | (type ? 1u << 15 : 0);
    TS_TE_REG(0, ITC_TRACE_ENABLE) = 0;
    /* per-core pass with the run settings */
    TS_TE_REG(0, ITC_TRACE_ENABLE) |= 1u << CH;
    TS_TE_REG(0, CONTROL) = (SINK << 28) | (0xFu << 20) | (0xFu << 16) | (1u << 14) | (1u << 7) | 3u;
#ifdef USE_SBA
    uint32_t base = (uint32_t)(uintptr_t)sba_buf;
    TS_TE_REG(0, SINK_BASE) = base;
    TS_TE_REG(0, SINK_BASE_HIGH) = 0;
    TS_TE_REG(0, SINK_LIMIT) = base + (sizeof sba_buf - 2);   /* the library's "- 2" */
    TS_TE_REG(0, SINK_WP) = base;
#else
    TS_TE_REG(0, SINK_WP) = 0;
#endif
    TS_TE_REG(0, SINK_RP) = 0;
    TS_TE_REG(0, ITC_TRACE_ENABLE) = 1u << CH;
#ifdef USE_FUNNEL
    /* funnel: tfActive 0 -> 1, SRAM sink with stop-on-wrap, master timestamp running */
    uint32_t f = TS_TF_REG(CONTROL);
    TS_TF_REG(CONTROL) = f & ~1u;
    TS_TF_REG(CONTROL) = f | 1u;
    TS_TF_REG(CONTROL) = (4u << 28) | (1u << 14) | 3u;
    TS_TF_REG(TS_CONTROL) = 1u;
    TS_TF_REG(TS_CONTROL) = 3u;                   /* active, count */
    TS_TF_REG(SINK_WP) = 0;
    TS_TF_REG(SINK_RP) = 0;
    CHECK_EQ((TS_TE_REG(0, TS_CONTROL) >> 4) & 7, 4);   /* the encoder's unit is a slave */
#endif
    TS_TE_REG(0, CONTROL) |= 1u << 2;             /* teTracing */
}

static void te_flush(void) {
    TS_TE_REG(0, CONTROL) &= ~((1u << 2) | (1u << 1));
    while (!(TS_TE_REG(0, CONTROL) & (1u << 3))) { }
#ifdef USE_FUNNEL
    TS_TF_REG(CONTROL) &= ~(1u << 1);             /* then the funnel */
    while (!(TS_TF_REG(CONTROL) & (1u << 3))) { }
#endif
}

int main(void) {
    /* ITC is off until the encoder is set up: stores are dropped, reads say "ready" */
    CHECK_EQ(*(volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(0, CH), 1);
    te_init_like_sifive();
#ifdef FOREVER
    /* itc_forever: a store every ~1000 cycles until the run is stopped (tests/interrupt_test.sh) */
    for (uint32_t n = 0;; n++) {
        ts_itc_write32(0, CH, n);
        for (volatile int k = 0; k < 200; k++) { }
    }
#endif
    uint32_t x = 0x12345678;
    for (int i = 0; i < 40; i++) {
        x = x * 1664525u + 1013904223u;
        switch (i % 4) {
        case 0: ts_itc_write32(0, CH, x); break;
        case 1: ts_itc_write16(0, CH, (uint16_t)x); break;
        case 2: ts_itc_write8(0, CH, (uint8_t)x); break;
        default: ts_itc_write32(0, CH, x >> (i % 29)); break;
        }
        for (volatile int k = 0; k < (i % 7); k++) { }
    }
    /* a burst without gaps (the FIFO fills; polling keeps every store), then RAM loads
     * while the sink drains: with the SBA sink they lose the RAM port to its writes */
    static volatile uint32_t table[64];
    TS_CSR_WRITE(mhpmevent4, TS_HPM_SBA_CONFLICT);
    TS_CSR_WRITE(mhpmevent5, TS_HPM_D_CACHE_ACCESS);   /* non-zero only with --dcache */
    uint32_t c0 = TS_CSR_READ(mhpmcounter4), dc0 = TS_CSR_READ(mhpmcounter5);
    /* 24 unpolled back-to-back stores with teStallEnable (none lost), then loads at once */
    TS_TE_REG(0, CONTROL) |= 1u << 13;
    volatile uint32_t *stim = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(0, CH);
    uint32_t v = 0xA5000000u, sum = 0;
    __asm__ volatile(".rept 24\n sw %1, 0(%0)\n .endr" : : "r"(stim), "r"(v) : "memory");
    for (int k = 0; k < 192; k += 8) {
        __asm__ volatile(".rept 8\n lw t0, 0(%1)\n add %0, %0, t0\n .endr"
                         : "+r"(sum) : "r"(&table[k & 63]) : "t0", "memory");
        sum += (uint32_t)(8 * (k & 63) + 28);   /* the indices this group stands for */
    }
    uint32_t conflicts = TS_CSR_READ(mhpmcounter4) - c0;
    uint32_t dcache = TS_CSR_READ(mhpmcounter5) - dc0;
    CHECK_EQ(sum, 3 * 64 * 63 / 2);   /* table is zero: only the index terms */
#ifdef USE_SBA
    /* without a data cache all 192 loads go to RAM while the sink writes there; with one,
     * whether its few misses meet a sink write depends on where the compiler put the code
     * and the table, so only the cacheless run must see a conflict */
    if (dcache == 0) CHECK_EQ(conflicts > 0, 1);
#else
    (void)dcache;                                 /* no sink writes to RAM: never a conflict */
    CHECK_EQ(conflicts, 0);
#endif
    printf("itc_trace: %lu cycles of core RAM access lost to the SBA sink\n", (unsigned long)conflicts);
    ts_itc_write32(0, 7, 0xdead);                 /* stimulus 7 is not enabled: dropped */
    te_flush();
    /* whether the burst stalled the core (teStallOrOverflow) depends on the sink width and
     * the caches; that nothing was lost is what `tracesim check` verifies */
    printf("itc_trace: teStallOrOverflow %lu\n", (unsigned long)((TS_TE_REG(0, CONTROL) >> 12) & 1));
    printf("itc_trace: 64 stores traced\n");
    return 0;
}
