/* perf_wire.h - the SiFive perf library's wire format as ITC stores (trace-hw-facts.md 5.4,
 * 5.5): the header and the pieces of a record, each store preceded by the ready poll. Used
 * by the firmware that emits perf data (tests, benchmarks; the perf library builds on it). */
#ifndef TS_PERF_WIRE_H
#define TS_PERF_WIRE_H
#include <stdint.h>
#include "ts_trace.h"

#define PERF_WIRE_MARKER 0x70657266u
enum { PERF_WIRE_RAW = 0, PERF_WIRE_DELTA = 1, PERF_WIRE_DELTA_XOR = 2 };
enum { PERF_WIRE_ENTER = 0, PERF_WIRE_EXIT = 1, PERF_WIRE_MANUAL = 2, PERF_WIRE_ISR = 3 };

/* starts a header: marker, count type, counter mask; definitions follow */
static inline TS_NOINSTR void perf_wire_header(unsigned ch, unsigned count_type, uint32_t mask) {
    ts_itc_write32(0, ch, PERF_WIRE_MARKER);
    ts_itc_write8(0, ch, (uint8_t)count_type);
    ts_itc_write32(0, ch, mask);
}
/* one counter definition of event type 0 or 1 (general or cache event) */
static inline TS_NOINSTR void perf_wire_def_code(unsigned ch, unsigned type, uint32_t code, uint32_t counter_info) {
    ts_itc_write32(0, ch, type);
    ts_itc_write32(0, ch, code);
    ts_itc_write32(0, ch, counter_info);
}
/* record type byte */
static inline TS_NOINSTR void perf_wire_record(unsigned ch, unsigned type) { ts_itc_write8(0, ch, (uint8_t)type); }
/* an address: low word with bit 0 set when a high word follows */
static inline TS_NOINSTR void perf_wire_addr(unsigned ch, uint64_t a) {
    if (a >> 32) { ts_itc_write32(0, ch, (uint32_t)a | 1u); ts_itc_write32(0, ch, (uint32_t)(a >> 32)); }
    else ts_itc_write32(0, ch, (uint32_t)a);
}
/* a counter value: low word, and bits 47:32 as a 16-bit store when not zero */
static inline TS_NOINSTR void perf_wire_value(unsigned ch, uint64_t v) {
    ts_itc_write32(0, ch, (uint32_t)v);
    if (v >> 32) ts_itc_write16(0, ch, (uint16_t)(v >> 32));
}
#endif
