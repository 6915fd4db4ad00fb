/* sbi_cost.c - cycles (and instructions) of one SBI call, ecall to the instruction after it,
 * for every function the firmware serves, measured from S-mode with the cycle and instret
 * CSRs (started through the PMU extension itself). Each call is measured alone, 8 times; the
 * table shows the smallest, minus the cost of the two CSR reads around it. Default SoC (no
 * caches, no wait states): the numbers are exact and repeatable. */
#include <stdint.h>
#include <stdio.h>
#include "sbi_client.h"
#include "check.h"
#include "ts_hpm.h"

static inline uint32_t rdcycle(void) { uint32_t v; __asm__ volatile("csrr %0, cycle" : "=r"(v)); return v; }
static inline uint32_t rdinstret(void) { uint32_t v; __asm__ volatile("csrr %0, instret" : "=r"(v)); return v; }

static uint32_t base_c, base_i;
#define MEASURE(name, setup, call, teardown) do {                                 \
        uint32_t bc = ~0u, bi = ~0u;                                              \
        for (int k = 0; k < 8; k++) {                                             \
            setup;                                                                \
            uint32_t c0 = rdcycle(), i0 = rdinstret();                            \
            struct sbiret r_ = call;                                              \
            uint32_t i1 = rdinstret(), c1 = rdcycle();                            \
            (void)r_;                                                             \
            teardown;                                                             \
            if (c1 - c0 < bc) { bc = c1 - c0; bi = i1 - i0; }                     \
        }                                                                         \
        printf("| `%s` | %lu | %lu |\n", name, (unsigned long)(bc - base_c),       \
               (unsigned long)(bi - base_i));                                     \
    } while (0)

int s_main(void);
int s_main(void) {
    /* cycle (0) and instret (2) counting, through the SBI */
    struct sbiret r = sbi_pmu_counter_config_matching(0, 1, SBI_PMU_CFG_FLAG_AUTO_START, SBI_PMU_EVENT_IDX(0u, SBI_PMU_HW_CPU_CYCLES), 0);
    CHECK_EQ(r.error, 0);
    r = sbi_pmu_counter_config_matching(2, 1, SBI_PMU_CFG_FLAG_AUTO_START, SBI_PMU_EVENT_IDX(0u, SBI_PMU_HW_INSTRUCTIONS), 0);
    CHECK_EQ(r.error, 0);
    base_c = ~0u;
    for (int k = 0; k < 8; k++) {
        uint32_t c0 = rdcycle(), i0 = rdinstret();
        uint32_t i1 = rdinstret(), c1 = rdcycle();
        if (c1 - c0 < base_c) { base_c = c1 - c0; base_i = i1 - i0; }
    }
    uint32_t n = (uint32_t)sbi_pmu_num_counters().value, fw = n - TS_SBI_FW_COUNTERS;
    const uint32_t raw = SBI_PMU_EVENT_IDX(2u, 0), fwev = SBI_PMU_EVENT_IDX(15u, SBI_PMU_FW_ILLEGAL_INSN);
    uint32_t all = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1;
    CHECK_EQ(sbi_pmu_counter_config_matching(fw, 0xFF, 0, fwev, 0).value, fw);   /* the set works */
    CHECK_EQ(sbi_pmu_counter_stop(fw, 1, SBI_PMU_STOP_FLAG_RESET).error, SBI_ERR_ALREADY_STOPPED);
    printf("| SBI call | cycles | instructions |\n|---|--:|--:|\n");
    MEASURE("base get_spec_version", , sbi_get_spec_version(), );
    MEASURE("base probe_extension(PMU)", , sbi_probe_extension(SBI_EXT_PMU), );
    MEASURE("pmu num_counters", , sbi_pmu_num_counters(), );
    MEASURE("pmu counter_get_info", , sbi_pmu_counter_get_info(3), );
    MEASURE("pmu counter_config_matching (raw event, all counters)", ,
            sbi_pmu_counter_config_matching(0, all, SBI_PMU_CFG_FLAG_CLEAR_VALUE, raw, TS_HPM_LOAD),
            sbi_pmu_counter_stop(3, 1, SBI_PMU_STOP_FLAG_RESET));
    MEASURE("pmu counter_config_matching (general event via the table)", ,
            sbi_pmu_counter_config_matching(0, all, SBI_PMU_CFG_FLAG_CLEAR_VALUE, SBI_PMU_EVENT_IDX(0u, SBI_PMU_HW_BRANCH_MISSES), 0),
            sbi_pmu_counter_stop(3, 1, SBI_PMU_STOP_FLAG_RESET));
    MEASURE("pmu counter_config_matching (firmware event, the 8 firmware counters)", ,
            sbi_pmu_counter_config_matching(fw, 0xFF, 0, fwev, 0),
            sbi_pmu_counter_stop(fw, 1, SBI_PMU_STOP_FLAG_RESET));
    sbi_pmu_counter_config_matching(3, 1, 0, raw, TS_HPM_LOAD);
    MEASURE("pmu counter_start (SET_INIT_VALUE, 1 counter)", ,
            sbi_pmu_counter_start(3, 1, SBI_PMU_START_SET_INIT_VALUE, 0), sbi_pmu_counter_stop(3, 1, 0));
    MEASURE("pmu counter_stop (1 counter)", sbi_pmu_counter_start(3, 1, 0, 0),
            sbi_pmu_counter_stop(3, 1, 0), );
    MEASURE("pmu counter_stop (RESET, 1 counter)", sbi_pmu_counter_start(3, 1, 0, 0),
            sbi_pmu_counter_stop(3, 1, SBI_PMU_STOP_FLAG_RESET), sbi_pmu_counter_config_matching(3, 1, 0, raw, TS_HPM_LOAD));
    sbi_pmu_counter_config_matching(fw, 1, 0, fwev, 0);
    MEASURE("pmu counter_fw_read", , sbi_pmu_counter_fw_read(fw), );
    MEASURE("time set_timer", , sbi_set_timer(~0ull), );
    MEASURE("unknown extension (NOT_SUPPORTED)", , sbi_ecall(0x0A000000, 0, 0, 0, 0, 0, 0, 0), );
    return 0;
}
