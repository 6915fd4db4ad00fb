/* ts_hpm.h - HPM event selectors and the OpenSBI event mapping for firmware, expanded from
 * rtl_model/regs/hpm_events.def and rtl_model/regs/sbi_events.def (the tables the simulator
 * and the docs use). TS_HPM_<EVENT> is the mhpmevent value that counts that event alone;
 * OR values of the same class to count any of them. */
#ifndef TS_HPM_H
#define TS_HPM_H
#include <stdint.h>

enum ts_hpm_event {
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) \
    TS_HPM_##id = ((cls) < 0 ? 0u : ((1u << (31 & (bit))) | (unsigned)(cls))),
#include "hpm_events.def"
#undef TS_EVENT
};

typedef struct ts_sbi_general {
    unsigned code; /* SBI PMU hardware general event code (type 0) */
    const char *name;
    int counter;        /* 0 mcycle, 2 minstret, -1 programmable with mhpmevent */
    uint32_t mhpmevent; /* 0 with counter -1: not supported */
} ts_sbi_general_t;

typedef struct ts_sbi_cache {
    unsigned cache_id, op_id, result_id; /* SBI PMU hardware cache event (type 1) */
    const char *name;
    uint32_t mhpmevent; /* 0: not supported */
} ts_sbi_cache_t;

static const ts_sbi_general_t ts_sbi_general_events[] = {
#define TS_SBI_GENERAL(code, name, counter, ev) {code, #name, counter, ev},
#include "sbi_events.def"
};
static const ts_sbi_cache_t ts_sbi_cache_events[] = {
#define TS_SBI_CACHE(cache, op, result, name, ev) {cache, op, result, #name, ev},
#include "sbi_events.def"
};
#define TS_SBI_N_GENERAL (sizeof ts_sbi_general_events / sizeof ts_sbi_general_events[0])
#define TS_SBI_N_CACHE (sizeof ts_sbi_cache_events / sizeof ts_sbi_cache_events[0])

/* counter_info as the SBI PMU extension encodes it: CSR number in bits 11:0, width - 1 in
 * bits 17:12 */
static inline uint32_t ts_counter_info(unsigned csr, unsigned width) {
    return (csr & 0xFFFu) | ((width - 1u) & 0x3Fu) << 12;
}
#endif
