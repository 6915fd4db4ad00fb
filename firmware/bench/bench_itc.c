/* bench_itc.c - ITC load for the trace-model cost benchmark: an ITC store (with the usual
 * ready poll) every few cycles for about 20 M cycles, into the SRAM sink without
 * stop-on-wrap. Run with and without `--no-trace` (tests/bench/sim_speed.sh). */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "ts_trace.h"

int main(void) {
    ts_trace_itc_start(0, 1u << 6, 0); /* SRAM, wrap around */
    uint32_t x = 1;
    for (uint32_t i = 0; i < 1500000; i++) {
        x = x * 1664525u + 1013904223u;
        ts_itc_write32(0, 6, x ^ i);
    }
    ts_trace_flush(0);
    printf("bench_itc: done, 0x%08lx\n", (unsigned long)x);
    return 0;
}
