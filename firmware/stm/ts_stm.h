/* ts_stm.h - the software trace port (Open SoC Debug STM) for firmware:
 * docs/firmware/software-trace.md. Numbers from rtl_model/regs/stm.def. An event is one CSR write; a0 carries the value.
 *
 * Emitting (M-mode only; from S or U mode the CSR write is an illegal instruction):
 *   ts_stm_event(id, value)      always inlined: `mv a0, <value>` (or whatever instruction
 *                                computes the value straight into a0) and `csrw 0x7c0, <id
 *                                register>`; a constant id is loaded once before a loop, so
 *                                an event is 2 instructions (objdump -d ovh_events_stm.elf:
 *                                `mv a0,s1` `csrw 0x7c0,s3`)
 *   TS_STM_EVENT_I(id, value)    a constant id 1..31 in the instruction (csrwi): `mv a0,s1`
 *                                `csrw 0x7c0,1` (objdump prints csrwi as csrw with a number)
 *   ts_stm_thread_name(s)        THREAD_NAME (0x4000) events, 4 characters per event
 * Setting up (any hart's encoder, from M-mode):
 *   ts_stm_start(hart, stop)     STM-only trace: encoder reset, SRAM sink, timestamps on Data
 *                                Acquisition and Ownership messages, stmEnable, tracing on
 *   ts_stm_enable(hart)          only stmEnable: after the perf library (perfManualInit and the
 *                                other perf...Init calls reset the encoder, stmControl with it)
 *   ts_stm_disable(hart), ts_stm_lost(hart) */
#ifndef TS_STM_H
#define TS_STM_H
#include <stdint.h>
#include "ts_trace.h"

#define TS_STM_CONST(name, value, desc) enum { TS_STM_##name = value };
#include "stm.def"
#define TS_STM_EVENT(name, id, desc) enum { TS_STM_ID_##name = id };
#include "stm.def"

#define TS_STM_STR_(x) #x
#define TS_STM_STR(x) TS_STM_STR_(x)
#define TS_STM_CSR_NUM 0x7c0 /* = TS_STM_CSR (an assembler operand needs a literal) */
_Static_assert(TS_STM_CSR_NUM == TS_STM_CSR, "stm.def and ts_stm.h disagree on the CSR");

/* emit (id, value): the move into a0 and the CSR write. id 0 emits nothing. M-mode only. */
static inline __attribute__((always_inline, no_instrument_function)) void ts_stm_event(uint16_t id, uint32_t value) {
    register uint32_t a0 __asm__("a0") = value;
    __asm__ volatile("csrw " TS_STM_STR(TS_STM_CSR_NUM) ", %1"
                     :
                     : "r"(a0), "r"((uint32_t)id)
                     : "memory");
}

/* emit (id, value) with a constant id 1..31 in the instruction itself (csrwi): no register
 * holds the id */
#define TS_STM_EVENT_I(id, value)                                                                   \
    do {                                                                                            \
        _Static_assert((id) >= 1 && (id) <= 31, "TS_STM_EVENT_I: the id must be a constant 1..31"); \
        register uint32_t ts_stm_a0_ __asm__("a0") = (value);                                       \
        __asm__ volatile("csrwi " TS_STM_STR(TS_STM_CSR_NUM) ", %1"                                 \
                         :                                                                          \
                         : "r"(ts_stm_a0_), "i"(id)                                                 \
                         : "memory");                                                               \
    } while (0)

/* THREAD_NAME events for s: 4 bytes per event, little-endian (s[0] in bits 7:0); the last
 * event is the word holding the terminating NUL (a word of 0 if the length is a multiple
 * of 4). M-mode only. */
void ts_stm_thread_name(const char *s) TS_NOINSTR;

/* stmEnable on hart `hart`'s encoder (its other settings untouched; the encoder must be set
 * up and tracing for events to become messages) */
static inline TS_NOINSTR void ts_stm_enable(unsigned hart) {
    TS_TE_REG(hart, STM_CONTROL) = TS_STM_CONTROL_ENABLE;
}
static inline TS_NOINSTR void ts_stm_disable(unsigned hart) {
    TS_TE_REG(hart, STM_CONTROL) = 0;
}
/* events dropped on a full FIFO since the encoder's reset (stmLost) */
static inline TS_NOINSTR uint32_t ts_stm_lost(unsigned hart) {
    return TS_TE_REG(hart, STM_LOST);
}

/* A whole STM-only set-up for firmware without the perf library: the BSP's ts_trace_itc_start
 * (encoder reset, SRAM sink from its start, stop-on-wrap if asked, timestamps with
 * tsInstrumentation, no ITC stimulus enabled, tracing on), plus tsOwnership (THREAD_SWITCH
 * messages get a timestamp too) and stmEnable. Read the trace out with ts_trace_flush(hart)
 * and `tracesim run`'s trace.rtd. */
static inline TS_NOINSTR void ts_stm_start(unsigned hart, int stop_on_wrap) {
    ts_trace_itc_start(hart, 0, stop_on_wrap);
    TS_TE_REG(hart, TS_CONTROL) |= TS_TS_CONTROL_OWNERSHIP | TS_TS_CONTROL_INSTRUMENTATION;
    ts_stm_enable(hart);
}
#endif
