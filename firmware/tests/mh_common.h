/* mh_common.h - helpers of the several-harts firmware tests: the funnel and every encoder
 * set up for ITC Data Acquisition messages through the funnel's SRAM sink, and the flush. */
#ifndef MH_COMMON_H
#define MH_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include "bsp.h"
#include "ts_trace.h"

/* needs a SoC with n >= min harts: else a clear message and exit status 2 */
static inline unsigned mh_need_harts(const char *name, unsigned min) {
    unsigned n = ts_num_harts();
    if (n < min) {
        printf("%s: needs at least %u harts (tracesim run --harts N), this SoC has %u\n", name, min, n);
        exit(2);
    }
    return n;
}

/* funnel (SRAM sink, stop-on-wrap if asked, master timestamp counting) and the encoders of
 * harts 0..n-1 (teSink 8, Data Acquisition, stimuli in mask, tracing); stall on the
 * encoders in stall_mask */
static inline void mh_trace_start(unsigned n, uint32_t mask, uint32_t stall_mask, int stop_on_wrap) {
    TS_TF_REG(CONTROL) = 0;
    TS_TF_REG(CONTROL) = 1;
    TS_TF_REG(CONTROL) = (4u << 28) | (stop_on_wrap ? 1u << 14 : 0) | 3u;
    TS_TF_REG(SINK_WP) = 0;
    TS_TF_REG(TS_CONTROL) = 1;
    TS_TF_REG(TS_CONTROL) = 3;
    for (unsigned h = 0; h < n; h++) {
        TS_TE_REG(h, CONTROL) = 0;
        TS_TE_REG(h, CONTROL) = 1;
        TS_TE_REG(h, CONTROL) = (8u << 28) | ((stall_mask >> h) & 1u ? 1u << 13 : 0) | (1u << 7) | 3u;
        TS_TE_REG(h, TS_CONTROL) = 1;
        TS_TE_REG(h, TS_CONTROL) = (1u << 15) | (1u << 18) | 3u;
        TS_TE_REG(h, ITC_TRACE_ENABLE) = mask;
        TS_TE_REG(h, CONTROL) |= 1u << 2;
    }
}

/* every encoder, then the funnel, drained into the sink */
static inline void mh_trace_flush(unsigned n) {
    for (unsigned h = 0; h < n; h++) {
        TS_TE_REG(h, CONTROL) &= ~6u;
        while (!(TS_TE_REG(h, CONTROL) & 8u)) { }
    }
    TS_TF_REG(CONTROL) &= ~2u;
    while (!(TS_TF_REG(CONTROL) & 8u)) { }
}
#endif
