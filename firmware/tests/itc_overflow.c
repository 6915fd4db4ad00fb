/* itc_overflow.c - ITC stores into a full FIFO without polling. With teStallEnable = 0 some
 * are lost: teStallOrOverflow is set and the trace holds an Error message and a resync (the
 * decoder keeps correct time after it); with teStallEnable = 1 the core stalls and none is
 * lost. `tracesim check` then requires every accepted store in the trace. */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "ts_hpm.h"
#include "ts_trace.h"

static volatile uint32_t *const stim = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(0, 6);

/* 40 stores in 40 consecutive cycles: 6-byte messages at one per cycle are more than the
 * 4-byte-per-cycle sink drains */
static void burst(uint32_t value) {
    __asm__ volatile(".rept 40\n sw %1, 0(%0)\n .endr" : : "r"(stim), "r"(value) : "memory");
}

static void setup(uint32_t stall) {
    TS_TE_REG(0, CONTROL) = 0;
    TS_TE_REG(0, CONTROL) = 1;
    TS_TE_REG(0, CONTROL) = (4u << 28) | (1u << 14) | (1u << 7) | stall | 3u;
    TS_TE_REG(0, SINK_WP) = 0;
    TS_TE_REG(0, TS_CONTROL) = 1;
    TS_TE_REG(0, TS_CONTROL) = (1u << 15) | (1u << 18) | 3u;
    TS_TE_REG(0, ITC_TRACE_ENABLE) = 1u << 6;
    TS_TE_REG(0, CONTROL) |= 1u << 2;
}

int main(void) {
    /* phase 1: no stall, the 8-entry FIFO overflows */
    setup(0);
    burst(0x1000);
    for (volatile int k = 0; k < 200; k++) { }
    for (uint32_t i = 0; i < 4; i++) { while (!*stim) { } *stim = 0x2000 + i; }
    CHECK_EQ((TS_TE_REG(0, CONTROL) >> 12) & 1, 1);     /* teStallOrOverflow */
    /* phase 2: stall enabled: the core waits, nothing is lost */
    TS_CSR_WRITE(mhpmevent3, TS_HPM_ITC_STALL);
    uint32_t s0 = TS_CSR_READ(mhpmcounter3);
    TS_TE_REG(0, CONTROL) = (TS_TE_REG(0, CONTROL) & ~(1u << 12)) | (1u << 13);
    CHECK_EQ((TS_TE_REG(0, CONTROL) >> 12) & 1, 0);
    burst(0x3000);
    uint32_t stalls = TS_CSR_READ(mhpmcounter3) - s0;
    CHECK_EQ(stalls > 0, 1);
    TS_TE_REG(0, CONTROL) &= ~6u;
    while (!(TS_TE_REG(0, CONTROL) & 8)) { }
    printf("itc_overflow: %lu ITC stall cycles in phase 2\n", (unsigned long)stalls);
    return 0;
}
