/* ts_trace.h - SiFive v0 trace encoder/funnel registers for firmware, expanded from
 * rtl_model/regs/trace_regs.def (the table the C model uses). */
#ifndef TS_TRACE_H
#define TS_TRACE_H
#include <stdint.h>
#include "ts_soc.h"
#ifndef TS_NOINSTR
#define TS_NOINSTR __attribute__((no_instrument_function))
#endif

#define TS_TREG(block, name, off, acc, desc) enum { TS_##block##_##name = off };
#include "trace_regs.def"
#define TS_TFIELD(reg, name, lsb, width, desc) \
    enum { TS_##reg##_##name##_LSB = lsb,      \
           TS_##reg##_##name = (int)((((1ull << (width)) - 1) << (lsb)) & 0xFFFFFFFFu) };
#include "trace_regs.def"

/* encoder of hart n, funnel */
#define TS_TE_REG(hart, reg) TS_MMIO32(TS_TRACE_BASE + 0x1000u * (hart) + TS_TE_##reg)
#define TS_TE_STIM_ADDR(hart, n) (TS_TRACE_BASE + 0x1000u * (hart) + TS_TE_ITC_STIMULUS + 4u * (n))
#define TS_TF_REG(reg) TS_MMIO32(TS_FUNNEL_BASE + TS_TF_##reg)

/* ITC stores the way SiFive software does them: wait while the stimulus reads 0 */
static inline TS_NOINSTR void ts_itc_write32(unsigned hart, unsigned n, uint32_t v) {
    volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(hart, n);
    while (*p == 0) {}
    *p = v;
}
static inline TS_NOINSTR void ts_itc_write16(unsigned hart, unsigned n, uint16_t v) {
    while (*(volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(hart, n) == 0) {}
    *(volatile uint16_t *)(uintptr_t)(TS_TE_STIM_ADDR(hart, n) + 2) = v;
}
static inline TS_NOINSTR void ts_itc_write8(unsigned hart, unsigned n, uint8_t v) {
    while (*(volatile uint32_t *)(uintptr_t)TS_TE_STIM_ADDR(hart, n) == 0) {}
    *(volatile uint8_t *)(uintptr_t)(TS_TE_STIM_ADDR(hart, n) + 3) = v;
}
/* the simplest ITC set-up: encoder active and enabled, SRAM sink (stop-on-wrap if asked),
 * Data Acquisition messages with timestamps, the stimuli in mask enabled, tracing on */
static inline TS_NOINSTR void ts_trace_itc_start(unsigned hart, uint32_t mask, int stop_on_wrap) {
    TS_TE_REG(hart, CONTROL) = 0;
    TS_TE_REG(hart, CONTROL) = 1;
    TS_TE_REG(hart, CONTROL) = (4u << 28) | (stop_on_wrap ? 1u << 14 : 0) | (1u << 7) | 3u;
    TS_TE_REG(hart, SINK_WP) = 0;
    TS_TE_REG(hart, TS_CONTROL) = 1;
    TS_TE_REG(hart, TS_CONTROL) = (1u << 15) | (1u << 18) | 3u;
    TS_TE_REG(hart, ITC_TRACE_ENABLE) = mask;
    TS_TE_REG(hart, CONTROL) |= 1u << 2;
}
/* stops tracing and waits until everything reached the sink */
static inline TS_NOINSTR void ts_trace_flush(unsigned hart) {
    TS_TE_REG(hart, CONTROL) &= ~6u;
    while (!(TS_TE_REG(hart, CONTROL) & 8)) {}
}
#endif
