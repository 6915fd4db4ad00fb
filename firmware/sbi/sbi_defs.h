/* sbi_defs.h - SBI numbers shared by the M-mode implementation (sbi.c) and the S-mode client
 * (sbi_client.c): extension and function ids, error codes, PMU event types and flags, as the
 * SBI specification (v0.3 with the PMU extension v6, ../shared/seeds/sbi-pmu-extension-v6.txt)
 * defines them. */
#ifndef TS_SBI_DEFS_H
#define TS_SBI_DEFS_H

/* extensions */
#define SBI_EXT_BASE 0x10u
#define SBI_EXT_TIME 0x54494D45u /* "TIME" */
#define SBI_EXT_PMU 0x504D55u    /* "PMU" */

/* base extension functions */
enum {
    SBI_BASE_GET_SPEC_VERSION = 0,
    SBI_BASE_GET_IMPL_ID = 1,
    SBI_BASE_GET_IMPL_VERSION = 2,
    SBI_BASE_PROBE_EXT = 3,
    SBI_BASE_GET_MVENDORID = 4,
    SBI_BASE_GET_MARCHID = 5,
    SBI_BASE_GET_MIMPID = 6,
};
#define SBI_SPEC_VERSION 0x00000003u /* 0.3: major in bits 30:24, minor in 23:0 */
#define SBI_IMPL_ID 0x7473u          /* tracesim's own (not a registered id) */
#define SBI_IMPL_VERSION 1u

/* TIME extension */
#define SBI_TIME_SET_TIMER 0

/* PMU extension functions */
enum {
    SBI_PMU_NUM_COUNTERS = 0,
    SBI_PMU_COUNTER_GET_INFO = 1,
    SBI_PMU_COUNTER_CONFIG_MATCHING = 2,
    SBI_PMU_COUNTER_START = 3,
    SBI_PMU_COUNTER_STOP = 4,
    SBI_PMU_COUNTER_FW_READ = 5,
};

/* error codes (sbiret.error) */
#define SBI_SUCCESS 0
#define SBI_ERR_FAILED -1
#define SBI_ERR_NOT_SUPPORTED -2
#define SBI_ERR_INVALID_PARAM -3
#define SBI_ERR_DENIED -4
#define SBI_ERR_INVALID_ADDRESS -5
#define SBI_ERR_ALREADY_AVAILABLE -6
#define SBI_ERR_ALREADY_STARTED -7
#define SBI_ERR_ALREADY_STOPPED -8

/* event_idx: type in bits 19:16, code in 15:0 */
#define SBI_PMU_EVENT_TYPE_HW 0u
#define SBI_PMU_EVENT_TYPE_CACHE 1u
#define SBI_PMU_EVENT_TYPE_RAW 2u
#define SBI_PMU_EVENT_TYPE_FW 15u
#define SBI_PMU_EVENT_IDX(type, code) (((type) << 16) | (code))
#define SBI_PMU_CACHE_CODE(cache, op, result) (((cache) << 3) | ((op) << 1) | (result))

/* general events (type 0) */
enum {
    SBI_PMU_HW_CPU_CYCLES = 1,
    SBI_PMU_HW_INSTRUCTIONS = 2,
    SBI_PMU_HW_CACHE_REFERENCES = 3,
    SBI_PMU_HW_CACHE_MISSES = 4,
    SBI_PMU_HW_BRANCH_INSTRUCTIONS = 5,
    SBI_PMU_HW_BRANCH_MISSES = 6,
    SBI_PMU_HW_BUS_CYCLES = 7,
    SBI_PMU_HW_STALLED_CYCLES_FRONTEND = 8,
    SBI_PMU_HW_STALLED_CYCLES_BACKEND = 9,
    SBI_PMU_HW_REF_CPU_CYCLES = 10,
};
/* firmware events (type 15): SBI_PMU_FW_<NAME>, from rtl_model/regs/sbi_fw_events.def */
enum {
#define TS_SBI_FW(code, name, counted, desc) SBI_PMU_FW_##name = code,
#include "sbi_fw_events.def"
    SBI_PMU_FW_MAX = 21,
};

/* counter_config_matching flags */
#define SBI_PMU_CFG_FLAG_SKIP_MATCH (1u << 0)
#define SBI_PMU_CFG_FLAG_CLEAR_VALUE (1u << 1)
#define SBI_PMU_CFG_FLAG_AUTO_START (1u << 2)
#define SBI_PMU_CFG_FLAG_SET_MINH (1u << 3)
#define SBI_PMU_CFG_FLAG_SET_SINH (1u << 4)
#define SBI_PMU_CFG_FLAG_SET_UINH (1u << 5)
#define SBI_PMU_CFG_FLAG_SET_VSINH (1u << 6)
#define SBI_PMU_CFG_FLAG_SET_VUINH (1u << 7)
/* counter_start / counter_stop flags */
#define SBI_PMU_START_SET_INIT_VALUE (1u << 0)
#define SBI_PMU_STOP_FLAG_RESET (1u << 0)

/* counter_info: CSR in 11:0, width - 1 in 17:12, type (1 = firmware) in XLEN-1 */
#define SBI_PMU_CTR_INFO_FW (1ul << (__riscv_xlen - 1)) /* counter_info bit XLEN-1 */

/* this implementation: firmware counters after the hardware ones */
#define TS_SBI_FW_COUNTERS 8
#endif
