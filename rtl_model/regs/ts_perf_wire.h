/* ts_perf_wire.h - the SiFive perf library's wire format, from perf_wire.def (the one
 * definition; docs/reference/perf-wire.md is generated from it):
 *   TS_PW_MARKER, TS_PW_MAX_COUNTERS ...   constants
 *   TS_PW_COUNT_RAW ...                    count types (TS_PW_COUNT_TYPES of them, from 0)
 *   TS_PW_REC_FUNC_ENTER ...               record types (TS_PW_RECORD_TYPES of them, from 0)
 *   TS_PW_EV_HW_GENERAL ...                event types of a counter definition
 *   TS_PW_BYTES_RECORD_TYPE ...            the size of each store in bytes
 * Usable from C and from the firmware (no library calls). */
#ifndef TS_PERF_WIRE_DEFS_H
#define TS_PERF_WIRE_DEFS_H
enum {
#define TS_PW_CONST(name, value, desc) TS_PW_##name = value,
#include "perf_wire.def"
};
enum {
#define TS_PW_COUNT(name, value, sifive, desc) TS_PW_COUNT_##name = value,
#include "perf_wire.def"
};
enum {
#define TS_PW_RECORD(name, value, sifive, addrs, desc) TS_PW_REC_##name = value,
#include "perf_wire.def"
};
enum {
#define TS_PW_EVENT(name, value, sifive, words, desc) TS_PW_EV_##name = value,
#include "perf_wire.def"
};
enum {
#define TS_PW_STORE(part, name, bytes, when, value) TS_PW_BYTES_##part##_##name = bytes,
#include "perf_wire.def"
};
enum { /* how many; the values run from 0 without a hole (tests/unit/test_wire_defs.c) */
       TS_PW_COUNT_TYPES = 0
#define TS_PW_COUNT(name, value, sifive, desc) +1
#include "perf_wire.def"
       ,
       TS_PW_RECORD_TYPES = 0
#define TS_PW_RECORD(name, value, sifive, addrs, desc) +1
#include "perf_wire.def"
};
#endif
