/* ts_nexus_codes.h - the Nexus TCODEs, the widths of the fixed fields and their codes, from
 * nexus.def (the one definition; docs/reference/nexus.md is generated from it):
 *   NX_<NAME>           a TCODE (enum nx_tcode): NX_DATA_ACQ, NX_SYNC, NX_ICT_WS ...
 *   NX_W_<FIELD>        a fixed field's width in bits: NX_W_TCODE 6, NX_W_SYNC 4 ...
 *   NX_<FIELD>_<NAME>   a code of a fixed field: NX_SYNC_PERIODIC, NX_CKSRC_CONTROL ...
 *   nx_tcode_full_ts(t) 1 when TCODE t carries a full (absolute) timestamp, else 0
 *   nx_tcode_prog(t)    1 when TCODE t is a program-trace message, else 0
 *   nx_tcode_text(t)    dqr's name of TCODE t, or NULL */
#ifndef TS_NEXUS_CODES_H
#define TS_NEXUS_CODES_H
#include <stdint.h>

enum nx_tcode {
#define TS_NX_TCODE(name, tcode, text, ts, prog, fields) NX_##name = tcode,
#include "nexus.def"
};
enum {
#define TS_NX_FIELD(name, bits, desc) NX_W_##name = bits,
#include "nexus.def"
};
enum {
#define TS_NX_CODE(field, name, value, desc) NX_##field##_##name = value,
#include "nexus.def"
};

/* bit t set: TCODE t's TSTAMP is absolute; clear: relative (or t is no TCODE of nexus.def) */
static const uint64_t nx_full_ts_mask = 0
#define TS_NX_TCODE(name, tcode, text, ts, prog, fields) | (uint64_t)(ts) << tcode
#include "nexus.def"
    ;
static inline int nx_tcode_full_ts(unsigned t) { return (int)(nx_full_ts_mask >> (t & 63) & 1); }
/* bit t set: TCODE t is a program-trace message (it reports an I-CNT, HIST or both) */
static const uint64_t nx_prog_mask = 0
#define TS_NX_TCODE(name, tcode, text, ts, prog, fields) | (uint64_t)(prog) << tcode
#include "nexus.def"
    ;
static inline int nx_tcode_prog(unsigned t) { return (int)(nx_prog_mask >> (t & 63) & 1); }
/* dqr's name of TCODE t, or NULL */
static inline const char *nx_tcode_text(unsigned t) {
    switch (t) {
#define TS_NX_TCODE(name, tcode, text, ts, prog, fields) \
    case tcode:                                          \
        return text;
#include "nexus.def"
    default: return 0;
    }
}
#endif
