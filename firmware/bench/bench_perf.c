/* bench_perf.c - a large perf trace for the decoder benchmark: one Raw header (cycles,
 * instructions) and manual records as fast as the ITC takes them, into an 8 MiB SRAM sink
 * with stop-on-wrap, until the sink stops (run with --trace-sram 8M). */
#include <stdint.h>
#include "bsp.h"
#include "perf_wire.h"
#include "ts_trace.h"

#define CH 6

int main(void) {
    ts_trace_itc_start(0, 1u << CH, 1);
    perf_wire_header(CH, TS_PW_COUNT_RAW, 0x5);
    perf_wire_def_code(CH, TS_PW_EV_HW_GENERAL, 1, (63u << TS_PW_INFO_WIDTH_SHIFT) | 0xC00);
    perf_wire_def_code(CH, TS_PW_EV_HW_GENERAL, 2, (63u << TS_PW_INFO_WIDTH_SHIFT) | 0xC02);
    while (TS_TE_REG(0, CONTROL) & 2) { /* until stop-on-wrap clears teEnable */
        perf_wire_record(CH, TS_PW_REC_MANUAL);
        perf_wire_addr(CH, 0x80000100u);
        perf_wire_value(CH, TS_CSR_READ(cycle));
        perf_wire_value(CH, TS_CSR_READ(instret));
    }
    return 0;
}
