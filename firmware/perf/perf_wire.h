/* perf_wire.h - the SiFive perf library's wire format as ITC stores (trace-hw-facts.md 5.4,
 * 5.5): the header and the pieces of a record, each store preceded by the ready poll. Used
 * by the firmware that emits perf data (tests, benchmarks; the perf library builds on it).
 * The format's numbers (TS_PW_*) come from ts_perf_wire.h (rtl_model/regs/perf_wire.def). */
#ifndef TS_PERF_WIRE_H
#define TS_PERF_WIRE_H
#include <stdint.h>
#include "ts_trace.h"
#include "ts_perf_wire.h"

/* the sizes of the stores below */
_Static_assert(TS_PW_BYTES_HEADER_MARKER == 4 && TS_PW_BYTES_HEADER_COUNT_TYPE == 1 && TS_PW_BYTES_HEADER_MASK == 4 &&
                   TS_PW_BYTES_DEF_TYPE == 4 && TS_PW_BYTES_DEF_CODE == 4 && TS_PW_BYTES_DEF_INFO == 4 &&
                   TS_PW_BYTES_RECORD_TYPE == 1 && TS_PW_BYTES_RECORD_ADDR == 4 && TS_PW_BYTES_RECORD_ADDR_HI == 4 &&
                   TS_PW_BYTES_RECORD_VALUE == 4 && TS_PW_BYTES_RECORD_VALUE_HI == 2 && TS_PW_VALUE_HI_BITS == 16,
               "perf_wire.def and perf_wire.h disagree on a store's size");

/* starts a header: marker, count type (TS_PW_COUNT_*), counter mask; definitions follow */
static inline TS_NOINSTR void perf_wire_header(unsigned ch, unsigned count_type, uint32_t mask) {
    ts_itc_write32(0, ch, TS_PW_MARKER);
    ts_itc_write8(0, ch, (uint8_t)count_type);
    ts_itc_write32(0, ch, mask);
}
/* one counter definition of event type TS_PW_EV_HW_GENERAL or TS_PW_EV_HW_CACHE */
static inline TS_NOINSTR void perf_wire_def_code(unsigned ch, unsigned type, uint32_t code, uint32_t counter_info) {
    ts_itc_write32(0, ch, type);
    ts_itc_write32(0, ch, code);
    ts_itc_write32(0, ch, counter_info);
}
/* record type byte (TS_PW_REC_*) */
static inline TS_NOINSTR void perf_wire_record(unsigned ch, unsigned type) { ts_itc_write8(0, ch, (uint8_t)type); }
/* an address: low word with bit 0 (TS_PW_ADDR_HI) set when a high word follows */
static inline TS_NOINSTR void perf_wire_addr(unsigned ch, uint64_t a) {
    if (a >> 32) {
        ts_itc_write32(0, ch, (uint32_t)a | TS_PW_ADDR_HI);
        ts_itc_write32(0, ch, (uint32_t)(a >> 32));
    } else
        ts_itc_write32(0, ch, (uint32_t)a);
}
/* a counter value: low word, and bits 47:32 as a 16-bit store when not zero */
static inline TS_NOINSTR void perf_wire_value(unsigned ch, uint64_t v) {
    ts_itc_write32(0, ch, (uint32_t)v);
    if (v >> 32) ts_itc_write16(0, ch, (uint16_t)(v >> 32));
}
#endif
