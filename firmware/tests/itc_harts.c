/* itc_harts.c - every hart of the SoC (tracesim run --harts N) traces through its own encoder
 * into the funnel, so `tracesim check` can verify each hart against its own ground truth
 * (tests/multihart_test.sh). Hart 0 sets up the funnel (SRAM sink, stop-on-wrap, the master
 * timestamp) and starts the others; each hart programs its encoder like the perf library does
 * (funnel sink, ITC channel 6 and 5, timestamps from the funnel's master), waits at a barrier
 * so that the harts store at the same time, then writes a perf header (Raw: cycles,
 * instructions) and ROUNDS manual records through its own perfWriteCntrs() - a minimal
 * stand-in with the perf library's name and wire format, so the perf check can find its
 * calls in flow.csv - with 8- and 16-bit stores on channel 5 in between, and flushes its
 * encoder. Hart 0 then flushes the funnel. Variants: -DWRAP (itc_harts_wrap) leaves the
 * funnel's sink without stop-on-wrap, so a small SRAM keeps the newest bytes; -DOVERFLOW
 * (itc_harts_overflow) makes hart 1 store a burst on channel 5 without polling in round 5,
 * so with a small ITC FIFO its encoder loses stores (an Error message of source 1 only).
 * With stop-on-wrap the sink must not fill: te_flush() waits for teEmpty without a bound, and
 * after the funnel stops the encoders' queued messages never leave (the perf library bounds
 * that poll; this test keeps it simple: about 470 bytes per hart into the 16 KiB default). */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "perf_wire.h"
#include "ts_harts.h"
#include "ts_trace.h"

#define CH 6
#define CH_MISC 5
#define ROUNDS 12

static ts_barrier_t start_line, end_line;
static unsigned nharts;

/* one value of a record: the low word, and bits 47:32 as a 16-bit store when they are set */
static TS_NOINSTR void value(unsigned h, uint64_t v) {
    ts_itc_write32(h, CH, (uint32_t)v);
    if (v >> 32) ts_itc_write16(h, CH, (uint16_t)(v >> 32));
}

/* a manual record of the calling hart: type, the caller's address, cycles, instructions */
__attribute__((noinline)) TS_NOINSTR void perfWriteCntrs(void) {
    unsigned h = ts_hart_id();
    uint32_t ra = (uint32_t)(uintptr_t)__builtin_return_address(0);
    ts_itc_write8(h, CH, TS_PW_REC_MANUAL);
    ts_itc_write32(h, CH, ra);
    value(h, ts_rdcycle());
    value(h, ts_rdinstret());
}

static void te_init(unsigned h) {
    uint32_t c = TS_TE_REG(h, CONTROL);
    TS_TE_REG(h, CONTROL) = c & ~1u;
    TS_TE_REG(h, CONTROL) = c | 1u;
    TS_TE_REG(h, CONTROL) = (8u << 28) | (0xFu << 20) | (0xFu << 16) | (1u << 14) | (1u << 7) | 3u;
    uint32_t t = TS_TE_REG(h, TS_CONTROL);
    TS_TE_REG(h, TS_CONTROL) = t & ~1u;
    TS_TE_REG(h, TS_CONTROL) = t | 1u;
    CHECK_EQ((TS_TE_REG(h, TS_CONTROL) >> 4) & 7, 4);        /* a slave of the funnel's unit */
    TS_TE_REG(h, TS_CONTROL) = (1u << 15) | (1u << 18) | (1u << 19) | 1u;
    TS_TE_REG(h, ITC_TRACE_ENABLE) = (1u << CH) | (1u << CH_MISC);
    TS_TE_REG(h, CONTROL) |= 1u << 2;                         /* teTracing */
}

static void te_flush(unsigned h) {
    TS_TE_REG(h, CONTROL) &= ~((1u << 2) | (1u << 1));
    while (!(TS_TE_REG(h, CONTROL) & (1u << 3))) { }
}

__attribute__((noinline)) static unsigned work(unsigned h, unsigned r) {
    unsigned s = 0;
    for (unsigned i = 0; i < 20u + 7u * r + 13u * h; i++) s += i * (h + 1);
    return s;
}

static int hart_main(void *arg) {
    (void)arg;
    unsigned h = ts_hart_id(), sink = 0;
    te_init(h);
    ts_barrier(&start_line, nharts);
    ts_itc_write32(h, CH, TS_PW_MARKER); ts_itc_write8(h, CH, TS_PW_COUNT_RAW); ts_itc_write32(h, CH, 0x5);
    ts_itc_write32(h, CH, 0); ts_itc_write32(h, CH, 1); ts_itc_write32(h, CH, (63u << 12) | 0xC00);
    ts_itc_write32(h, CH, 0); ts_itc_write32(h, CH, 2); ts_itc_write32(h, CH, (63u << 12) | 0xC02);
    for (unsigned r = 0; r < ROUNDS; r++) {
        sink += work(h, r);
        perfWriteCntrs();
#ifdef OVERFLOW
        if (h == 1 && r == 5) {
            volatile uint32_t *stim = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(h, CH_MISC);
            uint32_t v = 0xB0000000u;
            __asm__ volatile(".rept 16\n sw %1, 0(%0)\n .endr" : : "r"(stim), "r"(v) : "memory");
        }
#endif
        ts_itc_write16(h, CH_MISC, (uint16_t)(h << 12 | r));
        ts_itc_write8(h, CH_MISC, (uint8_t)(h << 4 | r));
    }
    ts_barrier(&end_line, nharts);
    te_flush(h);
    return (int)(sink & 1);
}

int main(void) {
    nharts = ts_num_harts();
    CHECK_EQ(nharts >= 1, 1);
    /* the funnel: tfActive 0 -> 1, SRAM sink with stop-on-wrap, master timestamp running */
    uint32_t f = TS_TF_REG(CONTROL);
    TS_TF_REG(CONTROL) = f & ~1u;
    TS_TF_REG(CONTROL) = f | 1u;
#ifdef WRAP
    TS_TF_REG(CONTROL) = (4u << 28) | 3u;         /* wraps: the newest bytes stay */
#else
    TS_TF_REG(CONTROL) = (4u << 28) | (1u << 14) | 3u;
#endif
    TS_TF_REG(TS_CONTROL) = 1u;
    TS_TF_REG(TS_CONTROL) = 3u;                   /* active, count */
    TS_TF_REG(SINK_WP) = 0;
    TS_TF_REG(SINK_RP) = 0;
    for (unsigned h = 1; h < nharts; h++) CHECK_EQ(ts_hart_start(h, hart_main, NULL), TS_HART_OK);
    int odd = hart_main(NULL);
    for (unsigned h = 1; h < nharts; h++) {
        int ret = -1;
        CHECK_EQ(ts_hart_join(h, &ret), TS_HART_OK);
        odd += ret;
    }
    TS_TF_REG(CONTROL) &= ~(1u << 1);             /* then the funnel */
    while (!(TS_TF_REG(CONTROL) & (1u << 3))) { }
    printf("itc_harts: %u harts, %u records each (odd sums: %d)\n", nharts, ROUNDS, odd);
    return 0;
}
