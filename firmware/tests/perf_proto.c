/* perf_proto.c - emits the SiFive perf library's ITC protocol by hand (until the perf library
 * exists): a Raw header for mcycle and minstret, five manual records naming work() (printed on
 * the UART as the ground truth the decoded CSV must equal), then an enter/exit pair. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "ts_trace.h"

#define CH 6

static void w32(uint32_t v) { ts_itc_write32(0, CH, v); }
static void value(uint64_t v) {
    w32((uint32_t)v);
    if (v >> 32) ts_itc_write16(0, CH, (uint16_t)(v >> 32));
}

__attribute__((noinline)) static unsigned work(unsigned n) {
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++) s += i * i;
    return s;
}

int main(void) {
    TS_TE_REG(0, CONTROL) = 1;
    TS_TE_REG(0, CONTROL) = (4u << 28) | (1u << 14) | (1u << 7) | 3u;
    TS_TE_REG(0, TS_CONTROL) = 1;
    TS_TE_REG(0, TS_CONTROL) = (1u << 15) | (1u << 18) | 3u;
    TS_TE_REG(0, ITC_TRACE_ENABLE) = 1u << CH;
    TS_TE_REG(0, CONTROL) |= 1u << 2;
    /* header: marker, count type Raw, mask {0, 2}, two HW-general definitions */
    w32(0x70657266u);
    ts_itc_write8(0, CH, 0);
    w32(0x5);
    w32(0); w32(1); w32((63u << 12) | 0xC00);
    w32(0); w32(2); w32((63u << 12) | 0xC02);
    /* mcycle crosses 2^32 during the run, so the 16-bit high parts are used too */
    TS_CSR_WRITE(mcycleh, 0);
    TS_CSR_WRITE(mcycle, 0xFFFFF000u);
    unsigned sink = 0;
    for (int r = 0; r < 5; r++) {
        sink += work(50u + 100u * (unsigned)r);
        uint64_t c = ts_rdcycle(), i = ts_rdinstret();
        ts_itc_write8(0, CH, 2);                          /* manual record */
        w32((uint32_t)(uintptr_t)work);
        value(c);
        value(i);
        /* printf here has no 64-bit conversions (picolibc's integer-only variant): halves */
        printf("rec %d 0x%08lx %lu %lu %lu %lu\n", r, (unsigned long)(uintptr_t)work,
               (unsigned long)(c >> 32), (unsigned long)c, (unsigned long)(i >> 32), (unsigned long)i);
    }
    /* a function entry and exit pair: work() called from main() */
    uint32_t site = (uint32_t)(uintptr_t)main + 8;
    for (int e = 0; e < 2; e++) {
        uint64_t c = ts_rdcycle(), i = ts_rdinstret();
        ts_itc_write8(0, CH, (uint8_t)e);                 /* 0 enter, 1 exit */
        w32((uint32_t)(uintptr_t)work);
        w32(site);
        value(c);
        value(i);
        if (!e) sink += work(20);
    }
    TS_TE_REG(0, CONTROL) &= ~6u;
    while (!(TS_TE_REG(0, CONTROL) & 8)) { }
    return sink == 0;
}
