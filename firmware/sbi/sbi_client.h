/* sbi_client.h - S-mode side of the SBI: ecall wrappers (base, TIME, PMU) and a small
 * perf-style PMU client that uses the extension the way Linux's perf driver does: probe,
 * count the counters, get their info, config_matching over all counters, start with an
 * initial value, read hardware counters through their CSRs (cycle/instret/hpmcounterN, which
 * mcounteren opens) and firmware counters through counter_fw_read, stop with RESET; sampling
 * with the delegated counter-overflow interrupt (LCOFI) into a PC histogram. */
#ifndef TS_SBI_CLIENT_H
#define TS_SBI_CLIENT_H
#include <stdint.h>
#include "sbi_defs.h"

struct sbiret {
    long error;
    long value;
};
/* an SBI call: arguments a0..a5 are XLEN wide (unsigned long); a 64-bit argument is one
 * register on RV64 and two (low, high) on RV32, as SBI_ARG64 passes it */
struct sbiret sbi_ecall(uint32_t eid, uint32_t fid, unsigned long a0, unsigned long a1, unsigned long a2,
                        unsigned long a3, unsigned long a4, unsigned long a5);
#if __riscv_xlen == 64
#define SBI_ARG64(v) (unsigned long)(v), 0
#else
#define SBI_ARG64(v) (unsigned long)(uint32_t)(v), (unsigned long)(uint32_t)((uint64_t)(v) >> 32)
#endif

static inline struct sbiret sbi_get_spec_version(void) { return sbi_ecall(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION, 0, 0, 0, 0, 0, 0); }
static inline struct sbiret sbi_probe_extension(uint32_t eid) { return sbi_ecall(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, eid, 0, 0, 0, 0, 0); }
static inline struct sbiret sbi_set_timer(uint64_t t) { return sbi_ecall(SBI_EXT_TIME, SBI_TIME_SET_TIMER, SBI_ARG64(t), 0, 0, 0, 0); }
static inline struct sbiret sbi_pmu_num_counters(void) { return sbi_ecall(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, 0); }
static inline struct sbiret sbi_pmu_counter_get_info(uint32_t idx) { return sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_GET_INFO, idx, 0, 0, 0, 0, 0); }
static inline struct sbiret sbi_pmu_counter_config_matching(uint32_t base, uint32_t mask, uint32_t flags, uint32_t event_idx, uint64_t data) {
    return sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_CONFIG_MATCHING, base, mask, flags, event_idx, SBI_ARG64(data));
}
static inline struct sbiret sbi_pmu_counter_start(uint32_t base, uint32_t mask, uint32_t flags, uint64_t init) {
    return sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_START, base, mask, flags, SBI_ARG64(init), 0);
}
static inline struct sbiret sbi_pmu_counter_stop(uint32_t base, uint32_t mask, uint32_t flags) { return sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, base, mask, flags, 0, 0, 0); }
static inline struct sbiret sbi_pmu_counter_fw_read(uint32_t idx) { return sbi_ecall(SBI_EXT_PMU, SBI_PMU_COUNTER_FW_READ, idx, 0, 0, 0, 0, 0); }

/* reads user counter CSR 0xC00 + n (64 bits: high, low, high on RV32; one csrr on RV64) */
uint64_t s_read_counter(unsigned n);

/* ---- perf-style client ------------------------------------------------------------------ */
#define SPERF_MAX_COUNTERS 64
typedef struct spmu {
    unsigned n;                             /* counters */
    unsigned long info[SPERF_MAX_COUNTERS]; /* counter_info of each (XLEN wide: bit XLEN-1 firmware) */
    uint64_t all_mask;                      /* (low 32 bits used on RV32: first 32) */
} spmu_t;
/* 0, or an SBI error: no PMU extension (-2) or a failing call */
long spmu_init(spmu_t *p);

typedef struct sperf_event {
    const char *name;
    uint32_t event_idx;
    uint64_t data;
    uint32_t cfg_flags; /* SBI_PMU_CFG_FLAG_SET_*INH */
    uint64_t period;    /* 0: counting; else sampling every `period` */
    /* filled in: */
    int ctr; /* counter_idx, -1 if none */
    unsigned long info;
    uint64_t start_value, count;
    uint32_t samples;
} sperf_event_t;

/* config_matching over every counter (in sets of 32: base 0, 32, ...); returns the SBI error
 * (NOT_SUPPORTED: no counter can count it) */
long sperf_open(spmu_t *p, sperf_event_t *e);
long sperf_start(spmu_t *p, sperf_event_t *e);
/* current value of the counter (its width, from counter_info) */
uint64_t sperf_read(spmu_t *p, const sperf_event_t *e);
/* stops the counter, adds what it counted since the start to e->count, with RESET frees it
 * (e->ctr keeps the number it had) */
long sperf_stop(spmu_t *p, sperf_event_t *e, int reset);

/* sampling: LCOFI delegated to S-mode; on each overflow of a sampling event the interrupted
 * pc goes into the histogram (hist_bins buckets of hist_shift-bit granularity from
 * hist_base) and the counter restarts at -period */
typedef struct sperf_hist {
    uint32_t base, shift, nbins;
    uint32_t *bins;
    uint32_t outside;
} sperf_hist_t;
void sperf_sampling_begin(spmu_t *p, sperf_event_t **evs, unsigned n, sperf_hist_t *hist);
void sperf_sampling_end(void);

/* U-mode: u_call_init() installs the S-mode handler of the return ecall and opens every
 * counter to U-mode (scounteren); u_call(fn, arg) runs fn(arg) in U-mode and returns its
 * result in S-mode. */
void u_call_init(void);
uint32_t u_call(uint32_t (*fn)(uint32_t), uint32_t arg);
#endif
