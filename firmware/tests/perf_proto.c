/* perf_proto.c - emits the SiFive perf library's ITC protocol by hand (until the perf library
 * exists): a Raw header for mcycle and minstret, five manual records naming work() (printed on
 * the UART as the ground truth the decoded CSV must equal), then an enter/exit pair. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "perf_wire.h"
#include "ts_trace.h"

#define CH 6


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
    perf_wire_header(CH, TS_PW_COUNT_RAW, 0x5);
    perf_wire_def_code(CH, TS_PW_EV_HW_GENERAL, 1, (63u << TS_PW_INFO_WIDTH_SHIFT) | 0xC00);
    perf_wire_def_code(CH, TS_PW_EV_HW_GENERAL, 2, (63u << TS_PW_INFO_WIDTH_SHIFT) | 0xC02);
    /* mcycle crosses 2^32 during the run, so the 16-bit high parts are used too */
    TS_CSR_WRITE(mcycleh, 0);
    TS_CSR_WRITE(mcycle, 0xFFFFF000u);
    unsigned sink = 0;
    for (int r = 0; r < 5; r++) {
        sink += work(50u + 100u * (unsigned)r);
        uint64_t c = ts_rdcycle(), i = ts_rdinstret();
        perf_wire_record(CH, TS_PW_REC_MANUAL);
        perf_wire_addr(CH, (uint32_t)(uintptr_t)work);
        perf_wire_value(CH, c);
        perf_wire_value(CH, i);
        /* printf here has no 64-bit conversions (picolibc's integer-only variant): halves */
        printf("rec %d 0x%08lx %lu %lu %lu %lu\n", r, (unsigned long)(uintptr_t)work,
               (unsigned long)(c >> 32), (unsigned long)c, (unsigned long)(i >> 32), (unsigned long)i);
    }
    /* a function entry and exit pair: work() called from main() */
    uint32_t site = (uint32_t)(uintptr_t)main + 8;
    for (int e = 0; e < 2; e++) {
        uint64_t c = ts_rdcycle(), i = ts_rdinstret();
        perf_wire_record(CH, e ? TS_PW_REC_FUNC_EXIT : TS_PW_REC_FUNC_ENTER);
        perf_wire_addr(CH, (uint32_t)(uintptr_t)work);
        perf_wire_addr(CH, site);
        perf_wire_value(CH, c);
        perf_wire_value(CH, i);
        if (!e) sink += work(20);
    }
    ts_trace_flush(0);
    return sink == 0;
}
