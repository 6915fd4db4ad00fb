/* sbi.c - tracesim's M-mode SBI firmware: the base extension (what a caller needs to probe
 * the others), the TIME extension (set_timer, for the SET_TIMER firmware event) and the PMU
 * extension (v6, SBI 0.3), written from the SBI specification
 * (../shared/seeds/sbi-pmu-extension-v6.txt) and the RISC-V privileged spec.
 *
 * Counters. counter_idx n < 32 is the hardware counter whose user CSR is 0xC00 + n (0 cycle,
 * 1 time, 2 instret, 3.. the mhpmcounters this SoC has, found at boot by probing mcounteren
 * and the counter width); the TS_SBI_FW_COUNTERS firmware counters follow them. time (1)
 * exists for counter_get_info but monitors no event. Every counter starts stopped
 * (mcountinhibit set) and unmapped. A counter is "started" when its mcountinhibit bit is
 * clear (firmware counters: a flag); "configured" once config_matching mapped an event to it,
 * until a stop with RESET.
 *
 * Events. Types 0 (general) and 1 (cache) go through the platform table
 * rtl_model/regs/sbi_events.def (the same table the perf library and the docs use):
 * CPU_CYCLES only on counter 0, INSTRUCTIONS only on counter 2, the others on any
 * programmable counter with the table's mhpmevent value; an event the table marks as not
 * supported, or a cache event it does not list, gives SBI_ERR_NOT_SUPPORTED. Type 2 (raw):
 * event_data is the mhpmevent value; it must select events of hpm_events.def only (bits
 * 55:32 zero), else NOT_SUPPORTED. Type 15 (firmware): the events this firmware handles
 * (misaligned load/store: emulated here; load/store access faults and illegal instructions:
 * counted, then redirected to S-mode; set_timer); IPIs and remote fences: NOT_SUPPORTED
 * (one hart). Malformed event_idx/event_data (unknown type, code out of range, non-zero
 * event_data for types 0, 1, 15, a raw event with code != 0 or event_data 0 or bits 63:56
 * set) and reserved flag bits give SBI_ERR_INVALID_PARAM.
 *
 * RV32 and RV64: the trap frame and every argument and return value are XLEN wide
 * (ts_reg_t); a 64-bit argument (event_data, initial_value, stime_value) is one register on
 * RV64 and two (low, high) on RV32. On RV64 the counters are written with one csrw and the
 * Sscofpmf bits (OF, MINH, SINH, UINH) are bits 63:60 of mhpmevent itself (RV32: bits 31:28
 * of mhpmeventNh); counter_fw_read returns the whole 64-bit value, a counter_info of a
 * firmware counter has bit XLEN-1 set, and a counter set mask is XLEN bits wide.
 *
 * Privilege-mode filters: SET_MINH/SINH/UINH go into mhpmeventNh (Sscofpmf) of programmable
 * counters; mcycle/minstret have no filter bits and firmware counters count what M-mode does
 * on behalf of the caller, so the hints are ignored for them (the spec allows it);
 * SET_VSINH/VUINH are ignored (no H extension).
 *
 * Where the spec leaves a choice: counter_start/counter_stop check every counter of the set
 * first (an index beyond the counters, or a counter no event is mapped to:
 * INVALID_PARAM, nothing done); then they start (stop) every counter of the set that is not
 * yet, and return ALREADY_STARTED (ALREADY_STOPPED) if some already were. stop with RESET
 * unmaps also a counter that was already stopped. Starting a programmable counter clears its
 * OF bit (re-arming its overflow interrupt). SKIP_MATCH uses the first counter of the set,
 * which must already be configured for an event of the same kind. counter_fw_read of a
 * firmware counter returns the low 32 bits of its 64-bit value.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "bsp.h"
#include "ts_hpm.h"
#include "sbi_defs.h"
#include "sbi_fw.h"

/* ---- counters ------------------------------------------------------------------------- */
#define N_HW_MAX 32
static unsigned n_hw;                       /* 3 + number of mhpmcounters */
static unsigned hpm_width;                  /* width of mhpmcounter3.. */
static uint32_t hw_event[N_HW_MAX];         /* event_idx mapped (0: none; type 0 code 0 is not an event) */
static uint8_t hw_mapped[N_HW_MAX];
static struct fw_ctr { uint8_t mapped, started; uint16_t code; uint64_t value; } fw_ctr[TS_SBI_FW_COUNTERS];
sbi_stats_t sbi_stats;

static unsigned num_counters(void) { return n_hw + TS_SBI_FW_COUNTERS; }

/* CSR access by number needs the number in the instruction: small switch tables */
#define CSR_CASE_W(n) case n: __asm__ volatile("csrw %0, %1" :: "i"(0xB00 + n), "r"(v)); break;
#define CSR_CASE_EV(n) case n: __asm__ volatile("csrw %0, %1" :: "i"(0x320 + n), "r"(v)); break;
#if __riscv_xlen == 64
#define CSR_CASE_EV_R(n) case n: __asm__ volatile("csrr %0, %1" : "=r"(v) : "i"(0x320 + n)); break;
#else
#define CSR_CASE_WH(n) case n: __asm__ volatile("csrw %0, %1" :: "i"(0xB80 + n), "r"(v)); break;
#define CSR_CASE_EVH(n) case n: __asm__ volatile("csrw %0, %1" :: "i"(0x720 + n), "r"(v)); break;
#define CSR_CASE_EVH_R(n) case n: __asm__ volatile("csrr %0, %1" : "=r"(v) : "i"(0x720 + n)); break;
#endif
#define CASES_0_31(M) M(0) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) \
    M(14) M(15) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) \
    M(29) M(30) M(31)
#define CASES_3_31(M) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) \
    M(14) M(15) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) \
    M(29) M(30) M(31)

static void ctr_write_lo(unsigned n, ts_reg_t v) { switch (n) { CASES_0_31(CSR_CASE_W) default: break; } }
#if __riscv_xlen == 64
/* mhpmevent's bits 31:0 (the event) and 63:32 (the Sscofpmf bits), each as RV32's
 * mhpmevent and mhpmeventh hold them */
static ts_reg_t event_read(unsigned n) { ts_reg_t v = 0; switch (n) { CASES_3_31(CSR_CASE_EV_R) default: break; } return v; }
static void event_write64(unsigned n, ts_reg_t v) { switch (n) { CASES_3_31(CSR_CASE_EV) default: break; } }
static void event_write(unsigned n, uint32_t v) { event_write64(n, (event_read(n) & ~0xFFFFFFFFul) | v); }
static void eventh_write(unsigned n, uint32_t v) { event_write64(n, (event_read(n) & 0xFFFFFFFFul) | (ts_reg_t)v << 32); }
static uint32_t eventh_read(unsigned n) { return (uint32_t)(event_read(n) >> 32); }

static void ctr_write(unsigned n, uint64_t v) { ctr_write_lo(n, v); }
#else
static void ctr_write_hi(unsigned n, uint32_t v) { switch (n) { CASES_0_31(CSR_CASE_WH) default: break; } }
static void event_write(unsigned n, uint32_t v) { switch (n) { CASES_3_31(CSR_CASE_EV) default: break; } }
static void eventh_write(unsigned n, uint32_t v) { switch (n) { CASES_3_31(CSR_CASE_EVH) default: break; } }
static uint32_t eventh_read(unsigned n) { uint32_t v = 0; switch (n) { CASES_3_31(CSR_CASE_EVH_R) default: break; } return v; }

static void ctr_write(unsigned n, uint64_t v) {
    ctr_write_lo(n, 0);                     /* no carry into the high half between the writes */
    ctr_write_hi(n, (uint32_t)(v >> 32));
    ctr_write_lo(n, (uint32_t)v);
}
#endif

static void pmu_init(void) {
    /* implemented counters: mcounteren is WARL with exactly their bits */
    TS_CSR_WRITE(mcounteren, 0xFFFFFFFFu);
    uint32_t impl = TS_CSR_READ(mcounteren);
    n_hw = 3;
    while (n_hw < 32 && ((impl >> n_hw) & 1)) n_hw++;
    TS_CSR_WRITE(mcountinhibit, 0xFFFFFFFFu);   /* every counter stopped */
    if (n_hw > 3) {                             /* width: all ones into mhpmcounter3 */
#if __riscv_xlen == 64
        TS_CSR_WRITE(mhpmcounter3, ~0ul);
        ts_reg_t v = TS_CSR_READ(mhpmcounter3);
        uint32_t hi = (uint32_t)(v >> 32), lo = (uint32_t)v;
#else
        TS_CSR_WRITE(mhpmcounter3, 0xFFFFFFFFu);
        TS_CSR_WRITE(mhpmcounter3h, 0xFFFFFFFFu);
        uint32_t hi = TS_CSR_READ(mhpmcounter3h), lo = TS_CSR_READ(mhpmcounter3);
#endif
        hpm_width = hi ? 64 - (unsigned)__builtin_clz(hi) : 32 - (unsigned)__builtin_clz(lo | 1);
        ctr_write(3, 0);
    }
    for (unsigned i = 3; i < n_hw; i++) { event_write(i, 0); eventh_write(i, 0); }
}

static ts_reg_t ctr_info(unsigned idx) {
    if (idx >= n_hw) return SBI_PMU_CTR_INFO_FW | (63u << 12);
    unsigned w = idx < 3 ? 64 : hpm_width;
    return ts_counter_info(0xC00 + idx, w);
}

static int hw_started(unsigned i) { return !((TS_CSR_READ(mcountinhibit) >> i) & 1); }

/* ---- event validation and mapping ----------------------------------------------------- */
/* a raw mhpmevent value selecting at least one event of hpm_events.def and nothing else */
static int ts_hpm_raw_valid(uint32_t v) {
    static const struct { int8_t cls, bit; } ev[] = {
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) {cls, bit},
#include "hpm_events.def"
#undef TS_EVENT
    };
    uint32_t cls = v & 0xFFu, sel = v & ~0xFFu, known = 0;
    for (unsigned i = 0; i < sizeof ev / sizeof ev[0]; i++)
        if (ev[i].cls >= 0 && (uint32_t)ev[i].cls == cls) known |= 1u << ev[i].bit;
    return sel && !(sel & ~known);
}

/* the mhpmevent value of a hardware event, the counter it needs (0, 2, or -1 programmable);
 * returns SBI_SUCCESS, SBI_ERR_INVALID_PARAM or SBI_ERR_NOT_SUPPORTED */
static long hw_event_lookup(uint32_t event_idx, uint64_t data, uint32_t *raw, int *fixed) {
    uint32_t type = event_idx >> 16, code = event_idx & 0xFFFFu;
    *raw = 0; *fixed = -1;
    if (type == SBI_PMU_EVENT_TYPE_HW) {
        if (code == 0 || code > SBI_PMU_HW_REF_CPU_CYCLES || data) return SBI_ERR_INVALID_PARAM;
        for (unsigned i = 0; i < TS_SBI_N_GENERAL; i++) {
            const ts_sbi_general_t *e = &ts_sbi_general_events[i];
            if (e->code != code) continue;
            if (e->counter >= 0) { *fixed = e->counter; return SBI_SUCCESS; }
            if (!e->mhpmevent) return SBI_ERR_NOT_SUPPORTED;
            *raw = e->mhpmevent;
            return SBI_SUCCESS;
        }
        return SBI_ERR_NOT_SUPPORTED;
    }
    if (type == SBI_PMU_EVENT_TYPE_CACHE) {
        uint32_t cache = code >> 3, op = (code >> 1) & 3, result = code & 1;
        if (cache > 6 || op > 2 || data) return SBI_ERR_INVALID_PARAM;
        for (unsigned i = 0; i < TS_SBI_N_CACHE; i++) {
            const ts_sbi_cache_t *e = &ts_sbi_cache_events[i];
            if (e->cache_id == cache && e->op_id == op && e->result_id == result) {
                if (!e->mhpmevent) return SBI_ERR_NOT_SUPPORTED;
                *raw = e->mhpmevent;
                return SBI_SUCCESS;
            }
        }
        return SBI_ERR_NOT_SUPPORTED;
    }
    if (type == SBI_PMU_EVENT_TYPE_RAW) {
        if (code || !data || (data >> 56)) return SBI_ERR_INVALID_PARAM;
        if ((data >> 32) || !ts_hpm_raw_valid((uint32_t)data)) return SBI_ERR_NOT_SUPPORTED;
        *raw = (uint32_t)data;
        return SBI_SUCCESS;
    }
    return SBI_ERR_INVALID_PARAM;
}

/* the firmware events this firmware counts (rtl_model/regs/sbi_fw_events.def) */
static int fw_event_supported(uint32_t code) {
    static const uint8_t counted[] = {
#define TS_SBI_FW(code, name, counted, desc) [code] = counted,
#include "sbi_fw_events.def"
    };
    return code < sizeof counted && counted[code];
}

/* a counter set: base + mask within the counters, else INVALID_PARAM */
static int set_valid(uint32_t base, uint32_t mask) {
    if (!mask) return 0;
    unsigned top = 31 - (unsigned)__builtin_clz(mask);
    return base < num_counters() && top < num_counters() - base;
}

static void hw_configure(unsigned i, uint32_t raw, uint32_t flags) {
    if (i >= 3) {
        event_write(i, raw);
        eventh_write(i, (flags & SBI_PMU_CFG_FLAG_SET_MINH ? 1u << 30 : 0) |
                        (flags & SBI_PMU_CFG_FLAG_SET_SINH ? 1u << 29 : 0) |
                        (flags & SBI_PMU_CFG_FLAG_SET_UINH ? 1u << 28 : 0));
    }
}

static long pmu_config_matching(uint32_t base, uint32_t mask, uint32_t flags, uint32_t event_idx,
                                uint64_t data, uint32_t *out) {
    if (!set_valid(base, mask) || (flags >> 8) || (event_idx >> 20)) return SBI_ERR_INVALID_PARAM;
    uint32_t type = event_idx >> 16, code = event_idx & 0xFFFFu;
    if (type == SBI_PMU_EVENT_TYPE_FW) {
        if (code > SBI_PMU_FW_MAX || data) return SBI_ERR_INVALID_PARAM;
        if (!fw_event_supported(code)) return SBI_ERR_NOT_SUPPORTED;
        int sel = -1;
        if (flags & SBI_PMU_CFG_FLAG_SKIP_MATCH) {
            unsigned i = base + (unsigned)__builtin_ctz(mask);
            if (i < n_hw || !fw_ctr[i - n_hw].mapped) return SBI_ERR_INVALID_PARAM;
            sel = (int)i;
        } else {
            for (uint32_t m = mask; m; m &= m - 1) {
                unsigned i = base + (unsigned)__builtin_ctz(m);
                if (i >= n_hw && !fw_ctr[i - n_hw].mapped) { sel = (int)i; break; }
            }
            if (sel < 0) return SBI_ERR_NOT_SUPPORTED;
        }
        struct fw_ctr *c = &fw_ctr[sel - (int)n_hw];
        c->mapped = 1; c->code = (uint16_t)code;
        if (flags & SBI_PMU_CFG_FLAG_CLEAR_VALUE) c->value = 0;
        if (flags & SBI_PMU_CFG_FLAG_AUTO_START) c->started = 1;
        *out = (uint32_t)sel;
        return SBI_SUCCESS;
    }
    uint32_t raw;
    int fixed;
    long err = hw_event_lookup(event_idx, data, &raw, &fixed);
    if (err) return err;
    int sel = -1;
    if (flags & SBI_PMU_CFG_FLAG_SKIP_MATCH) {
        unsigned i = base + (unsigned)__builtin_ctz(mask);
        if (i >= n_hw || !hw_mapped[i] || (fixed >= 0 ? (int)i != fixed : i < 3))
            return SBI_ERR_INVALID_PARAM;
        sel = (int)i;
    } else {
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned i = base + (unsigned)__builtin_ctz(m);
            if (i >= n_hw || hw_mapped[i] || hw_started(i)) continue;
            if (fixed >= 0 ? (int)i == fixed : i >= 3) { sel = (int)i; break; }
        }
        if (sel < 0) return SBI_ERR_NOT_SUPPORTED;
    }
    unsigned i = (unsigned)sel;
    hw_mapped[i] = 1;
    hw_event[i] = event_idx;
    hw_configure(i, raw, flags);
    if (flags & SBI_PMU_CFG_FLAG_CLEAR_VALUE) ctr_write(i, 0);
    if (flags & SBI_PMU_CFG_FLAG_AUTO_START) TS_CSR_CLEAR(mcountinhibit, 1u << i);
    *out = i;
    return SBI_SUCCESS;
}

static int ctr_configured(unsigned i) { return i < n_hw ? hw_mapped[i] : fw_ctr[i - n_hw].mapped; }
static int ctr_started(unsigned i) { return i < n_hw ? hw_started(i) : fw_ctr[i - n_hw].started; }

static long pmu_start(uint32_t base, uint32_t mask, uint32_t flags, uint64_t init) {
    if (!set_valid(base, mask) || (flags >> 1)) return SBI_ERR_INVALID_PARAM;
    for (uint32_t m = mask; m; m &= m - 1)
        if (!ctr_configured(base + (unsigned)__builtin_ctz(m))) return SBI_ERR_INVALID_PARAM;
    long err = SBI_SUCCESS;
    uint32_t start_hw = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned i = base + (unsigned)__builtin_ctz(m);
        if (ctr_started(i)) { err = SBI_ERR_ALREADY_STARTED; continue; }
        if (i >= n_hw) {
            struct fw_ctr *c = &fw_ctr[i - n_hw];
            if (flags & SBI_PMU_START_SET_INIT_VALUE) c->value = init;
            c->started = 1;
            continue;
        }
        if (flags & SBI_PMU_START_SET_INIT_VALUE) ctr_write(i, init);
        if (i >= 3) eventh_write(i, eventh_read(i) & ~(1u << 31));   /* clear OF */
        start_hw |= 1u << i;
    }
    if (start_hw) TS_CSR_CLEAR(mcountinhibit, start_hw);   /* together, in one instruction */
    return err;
}

static long pmu_stop(uint32_t base, uint32_t mask, uint32_t flags) {
    if (!set_valid(base, mask) || (flags >> 1)) return SBI_ERR_INVALID_PARAM;
    for (uint32_t m = mask; m; m &= m - 1)
        if (!ctr_configured(base + (unsigned)__builtin_ctz(m))) return SBI_ERR_INVALID_PARAM;
    long err = SBI_SUCCESS;
    uint32_t stop_hw = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned i = base + (unsigned)__builtin_ctz(m);
        if (!ctr_started(i)) err = SBI_ERR_ALREADY_STOPPED;
        else if (i < n_hw) stop_hw |= 1u << i;
        else fw_ctr[i - n_hw].started = 0;
    }
    if (stop_hw) TS_CSR_SET(mcountinhibit, stop_hw);
    if (flags & SBI_PMU_STOP_FLAG_RESET) {
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned i = base + (unsigned)__builtin_ctz(m);
            if (i >= n_hw) { fw_ctr[i - n_hw].mapped = 0; continue; }
            hw_mapped[i] = 0; hw_event[i] = 0;
            if (i >= 3) { event_write(i, 0); eventh_write(i, 0); }
        }
    }
    return err;
}

void sbi_fw_event(unsigned code) {
    for (unsigned i = 0; i < TS_SBI_FW_COUNTERS; i++)
        if (fw_ctr[i].started && fw_ctr[i].code == code) fw_ctr[i].value++;
}

/* a 64-bit argument: a[i] on RV64, a[i] (low) and a[i + 1] (high) on RV32 */
#if __riscv_xlen == 64
#define ARG64(a, i) ((uint64_t)(a)[i])
#else
#define ARG64(a, i) (((uint64_t)(a)[(i) + 1] << 32) | (a)[i])
#endif
/* an argument with bits above 31 (RV64): a counter set mask naming a counter above 31 is
 * beyond the counters (there are fewer than 32 + TS_SBI_FW_COUNTERS; set_valid checks the
 * rest), a base, flags or event_idx that wide is invalid */
static int arg_wide(ts_reg_t v) { return (uint64_t)v >> 32 != 0; }

static long sbi_pmu(uint32_t fid, const ts_reg_t *a, ts_reg_t *value) {
    uint32_t out = 0;
    long err;
    switch (fid) {
    case SBI_PMU_NUM_COUNTERS: *value = num_counters(); return SBI_SUCCESS;
    case SBI_PMU_COUNTER_GET_INFO:
        if (a[0] >= num_counters()) return SBI_ERR_INVALID_PARAM;
        *value = ctr_info(a[0]);
        return SBI_SUCCESS;
    case SBI_PMU_COUNTER_CONFIG_MATCHING:
        if (arg_wide(a[0]) || arg_wide(a[1]) || arg_wide(a[2]) || arg_wide(a[3])) return SBI_ERR_INVALID_PARAM;
        err = pmu_config_matching((uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2], (uint32_t)a[3], ARG64(a, 4), &out);
        *value = out;
        return err;
    case SBI_PMU_COUNTER_START:
        if (arg_wide(a[0]) || arg_wide(a[1]) || arg_wide(a[2])) return SBI_ERR_INVALID_PARAM;
        return pmu_start((uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2], ARG64(a, 3));
    case SBI_PMU_COUNTER_STOP:
        if (arg_wide(a[0]) || arg_wide(a[1]) || arg_wide(a[2])) return SBI_ERR_INVALID_PARAM;
        return pmu_stop((uint32_t)a[0], (uint32_t)a[1], (uint32_t)a[2]);
    case SBI_PMU_COUNTER_FW_READ:
        if (a[0] < n_hw || a[0] >= num_counters()) return SBI_ERR_INVALID_PARAM;
        *value = (ts_reg_t)fw_ctr[a[0] - n_hw].value;   /* the low XLEN bits */
        return SBI_SUCCESS;
    default: return SBI_ERR_NOT_SUPPORTED;
    }
}

/* ---- base and TIME extensions ---------------------------------------------------------- */
static long sbi_base(uint32_t fid, const ts_reg_t *a, ts_reg_t *value) {
    switch (fid) {
    case SBI_BASE_GET_SPEC_VERSION: *value = SBI_SPEC_VERSION; return SBI_SUCCESS;
    case SBI_BASE_GET_IMPL_ID: *value = SBI_IMPL_ID; return SBI_SUCCESS;
    case SBI_BASE_GET_IMPL_VERSION: *value = SBI_IMPL_VERSION; return SBI_SUCCESS;
    case SBI_BASE_PROBE_EXT:
        *value = a[0] == SBI_EXT_BASE || a[0] == SBI_EXT_TIME || a[0] == SBI_EXT_PMU;
        return SBI_SUCCESS;
    case SBI_BASE_GET_MVENDORID: *value = TS_CSR_READ(mvendorid); return SBI_SUCCESS;
    case SBI_BASE_GET_MARCHID: *value = TS_CSR_READ(marchid); return SBI_SUCCESS;
    case SBI_BASE_GET_MIMPID: *value = TS_CSR_READ(mimpid); return SBI_SUCCESS;
    default: return SBI_ERR_NOT_SUPPORTED;
    }
}

static long sbi_time(uint32_t fid, const ts_reg_t *a) {
    if (fid != SBI_TIME_SET_TIMER) return SBI_ERR_NOT_SUPPORTED;
    sbi_fw_event(SBI_PMU_FW_SET_TIMER);
    ts_set_mtimecmp(ARG64(a, 0));
    TS_CSR_CLEAR(mip, 1u << 5);                /* STIP until the new deadline */
    TS_CSR_SET(mie, 1u << 7);
    return SBI_SUCCESS;
}

/* ---- traps from S/U-mode --------------------------------------------------------------- */
/* hands the trap to the S-mode handler as if it had been delegated */
static void redirect_to_s(ts_reg_t cause, ts_reg_t epc, ts_reg_t tval) {
    ts_reg_t ms = TS_CSR_READ(mstatus);
    ts_reg_t from_s = ((ms >> 11) & 3) == 1;
    TS_CSR_WRITE(scause, cause);
    TS_CSR_WRITE(sepc, epc);
    TS_CSR_WRITE(stval, tval);
    ms &= ~(ts_reg_t)((1u << 8) | (1u << 5) | (1u << 1) | (3u << 11));
    ms |= (from_s << 8) | (((ms >> 1) & 1) << 5) | (1u << 11);   /* SPP, SPIE <- SIE, MPP = S */
    TS_CSR_WRITE(mstatus, ms);
    TS_CSR_WRITE(mepc, TS_CSR_READ(stvec) & ~(ts_reg_t)3);
}

static uint32_t insn_at(ts_reg_t pc, unsigned *len) {
    uint32_t lo = *(volatile uint16_t *)(uintptr_t)pc;
    if ((lo & 3) != 3) { *len = 2; return lo; }
    *len = 4;
    return lo | ((uint32_t)*(volatile uint16_t *)(uintptr_t)(pc + 2) << 16);
}

/* emulates a misaligned load or store byte by byte; 0 if the instruction is not one. RV64
 * adds ld/sd/lwu and c.ld/c.sd/c.ldsp/c.sdsp (where RV32C has the float forms) */
static int emulate_misaligned(ts_reg_t *r, ts_reg_t epc, ts_reg_t addr, int store) {
    unsigned len, size = 0, reg = 0, sign = 0;
    const int rv64 = __riscv_xlen == 64;
    uint32_t in = insn_at(epc, &len);
    if (len == 2) {
        unsigned f3 = (in >> 13) & 7, op = in & 3;
        if (op == 0 && f3 == 2 && !store)      { size = 4; reg = 8 + ((in >> 2) & 7); sign = 1; } /* c.lw */
        else if (op == 0 && f3 == 6 && store)  { size = 4; reg = 8 + ((in >> 2) & 7); }           /* c.sw */
        else if (op == 2 && f3 == 2 && !store) { size = 4; reg = (in >> 7) & 31; sign = 1; }      /* c.lwsp */
        else if (op == 2 && f3 == 6 && store)  { size = 4; reg = (in >> 2) & 31; }                /* c.swsp */
        else if (rv64 && op == 0 && f3 == 3 && !store) { size = 8; reg = 8 + ((in >> 2) & 7); }   /* c.ld */
        else if (rv64 && op == 0 && f3 == 7 && store)  { size = 8; reg = 8 + ((in >> 2) & 7); }   /* c.sd */
        else if (rv64 && op == 2 && f3 == 3 && !store) { size = 8; reg = (in >> 7) & 31; }        /* c.ldsp */
        else if (rv64 && op == 2 && f3 == 7 && store)  { size = 8; reg = (in >> 2) & 31; }        /* c.sdsp */
        else return 0;
    } else {
        unsigned f3 = (in >> 12) & 7, op = in & 0x7F;
        if (op == 0x03 && !store && (f3 == 1 || f3 == 2 || f3 == 5)) {
            size = f3 == 2 ? 4 : 2; sign = f3 != 5; reg = (in >> 7) & 31;
        } else if (rv64 && op == 0x03 && !store && (f3 == 3 || f3 == 6)) {          /* ld, lwu */
            size = f3 == 3 ? 8 : 4; reg = (in >> 7) & 31;
        } else if (op == 0x23 && store && (f3 == 1 || f3 == 2 || (rv64 && f3 == 3))) {
            size = f3 == 3 ? 8 : f3 == 2 ? 4 : 2; reg = (in >> 20) & 31;
        } else return 0;
    }
    volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)addr;
    if (store) {
        uint64_t v = r[reg];
        for (unsigned i = 0; i < size; i++) p[i] = (uint8_t)(v >> (8 * i));
    } else {
        uint64_t v = 0;
        for (unsigned i = 0; i < size; i++) v |= (uint64_t)p[i] << (8 * i);
        if (size == 2 && sign) v = (uint64_t)(int64_t)(int16_t)v;
        if (size == 4 && sign) v = (uint64_t)(int64_t)(int32_t)v;   /* lw sign-extends to XLEN */
        if (reg) r[reg] = (ts_reg_t)v;
    }
    TS_CSR_WRITE(mepc, epc + len);
    return 1;
}

void sbi_trap_handler(ts_reg_t *r);
void sbi_trap_handler(ts_reg_t *r) {
    ts_reg_t cause = TS_CSR_READ(mcause), epc = TS_CSR_READ(mepc), tval = TS_CSR_READ(mtval);
    if (((TS_CSR_READ(mstatus) >> 11) & 3) == 3) {
        printf("sbi: trap from M-mode: mcause 0x%08lx at 0x%08lx, mtval 0x%08lx\n",
               (unsigned long)cause, (unsigned long)epc, (unsigned long)tval);
        exit(97);
    }
    if (cause == (TS_CAUSE_IRQ | 7)) {         /* M timer: becomes the S timer interrupt */
        TS_CSR_CLEAR(mie, 1u << 7);
        TS_CSR_SET(mip, 1u << 5);
        return;
    }
    switch (cause) {
    case 9: {                                  /* ecall from S: an SBI call */
        uint32_t eid = (uint32_t)r[17], fid = (uint32_t)r[16];
        ts_reg_t value = 0;
        long err;
        sbi_stats.calls++;
        if (eid == SBI_EXT_PMU) err = sbi_pmu(fid, &r[10], &value);
        else if (eid == SBI_EXT_BASE) err = sbi_base(fid, &r[10], &value);
        else if (eid == SBI_EXT_TIME) err = sbi_time(fid, &r[10]);
        else err = SBI_ERR_NOT_SUPPORTED;
        r[10] = (ts_reg_t)err;
        r[11] = value;
        TS_CSR_WRITE(mepc, epc + 4);
        return;
    }
    case 4: case 6:                            /* misaligned load/store: emulated */
        sbi_fw_event(cause == 4 ? SBI_PMU_FW_MISALIGNED_LOAD : SBI_PMU_FW_MISALIGNED_STORE);
        if (emulate_misaligned(r, epc, tval, cause == 6)) return;
        break;
    case 5: sbi_fw_event(SBI_PMU_FW_ACCESS_LOAD); break;
    case 7: sbi_fw_event(SBI_PMU_FW_ACCESS_STORE); break;
    case 2: sbi_fw_event(SBI_PMU_FW_ILLEGAL_INSN); break;
    default: break;
    }
    if (cause & TS_CAUSE_IRQ) {
        printf("sbi: unexpected interrupt 0x%08lx\n", (unsigned long)cause);
        exit(98);
    }
    redirect_to_s(cause, epc, tval);
}

/* ---- start-up -------------------------------------------------------------------------- */
void sbi_init(void);
void sbi_init(void) {
    pmu_init();
    TS_CSR_WRITE(mcounteren, 0xFFFFFFFFu);     /* S-mode reads every counter directly */
    /* what Linux's firmware delegates: misaligned fetch, breakpoint, ecall from U, page
     * faults; S software, timer, external and counter-overflow interrupts */
    TS_CSR_WRITE(medeleg, (1u << 0) | (1u << 3) | (1u << 8) | (1u << 12) | (1u << 13) | (1u << 15));
    TS_CSR_WRITE(mideleg, (1u << 1) | (1u << 5) | (1u << 9) | (1u << 13));
    TS_CSR_WRITE(mie, 0);
}
