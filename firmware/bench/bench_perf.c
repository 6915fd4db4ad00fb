/* bench_perf.c - a large perf trace for the decoder benchmark: one Raw header (cycles,
 * instructions) and manual records as fast as the ITC takes them, into an 8 MiB SRAM sink
 * with stop-on-wrap, until the sink stops (run with --trace-sram 8M). */
#include <stdint.h>
#include "bsp.h"
#include "ts_trace.h"

#define CH 6
static void w32(uint32_t v) { ts_itc_write32(0, CH, v); }

int main(void) {
    TS_TE_REG(0, CONTROL) = 1;
    TS_TE_REG(0, CONTROL) = (4u << 28) | (1u << 14) | (1u << 7) | 3u;
    TS_TE_REG(0, TS_CONTROL) = 1;
    TS_TE_REG(0, TS_CONTROL) = (1u << 15) | (1u << 18) | 3u;
    TS_TE_REG(0, ITC_TRACE_ENABLE) = 1u << CH;
    TS_TE_REG(0, CONTROL) |= 1u << 2;
    w32(0x70657266u);
    ts_itc_write8(0, CH, 0);
    w32(0x5);
    w32(0); w32(1); w32((63u << 12) | 0xC00);
    w32(0); w32(2); w32((63u << 12) | 0xC02);
    while (TS_TE_REG(0, CONTROL) & 2) {               /* until stop-on-wrap clears teEnable */
        ts_itc_write8(0, CH, 2);
        w32(0x80000100u);
        w32(TS_CSR_READ(cycle));
        w32(TS_CSR_READ(instret));
    }
    return 0;
}
