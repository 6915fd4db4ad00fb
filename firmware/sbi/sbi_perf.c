/* sbi_perf.c - a perf-stat-like summary of a workload run in S-mode, counted through the SBI
 * PMU extension the way Linux's perf does it (probe, counter info, config_matching over all
 * counters, start with an initial value, read the counter CSRs directly, firmware counters
 * through counter_fw_read, stop with RESET), and a profile sampled on counter overflow
 * (delegated LCOFI): the interrupted pc of every 500th S-mode integer instruction.
 *
 *     tracesim run build/firmware/sbi/sbi_perf.elf
 */
#include <stdint.h>
#include <stdio.h>
#include "sbi_client.h"
#include "ts_hpm.h"

#define NOINLINE __attribute__((noinline))
static volatile uint32_t sink;

NOINLINE static uint32_t crc32(const uint8_t *p, unsigned n) {
    uint32_t c = ~0u;
    for (unsigned i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
    }
    return ~c;
}
NOINLINE static void sort(uint32_t *a, unsigned n) {
    for (unsigned i = 1; i < n; i++) {
        uint32_t v = a[i];
        unsigned j = i;
        while (j && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}
NOINLINE static uint32_t unaligned_sum(const uint8_t *p, unsigned n) {
    uint32_t s = 0;
    for (unsigned i = 0; i < n; i++) s += *(const volatile uint32_t *)(uintptr_t)(p + 4 * i + 1);
    return s;
}
static uint8_t data[2048];
static uint32_t arr[200];

NOINLINE static void workload(void) {
    for (unsigned i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7 + 3);
    for (unsigned i = 0; i < 200; i++) arr[i] = (i * 2654435761u) >> 7;
    sink = crc32(data, sizeof data);
    sort(arr, 200);
    sink += unaligned_sum(data, 16); /* 16 misaligned loads: emulated by M-mode */
}

#define HWEV(code) SBI_PMU_EVENT_IDX(0u, code)
#define CACHEEV(c, o, r) SBI_PMU_EVENT_IDX(1u, SBI_PMU_CACHE_CODE(c, o, r))
static sperf_event_t events[] = {
    {.name = "cpu-cycles", .event_idx = HWEV(SBI_PMU_HW_CPU_CYCLES)},
    {.name = "instructions", .event_idx = HWEV(SBI_PMU_HW_INSTRUCTIONS)},
    {.name = "branches", .event_idx = HWEV(SBI_PMU_HW_BRANCH_INSTRUCTIONS), .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH},
    {.name = "branch-misses", .event_idx = HWEV(SBI_PMU_HW_BRANCH_MISSES), .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH},
    {.name = "L1-dcache-loads", .event_idx = CACHEEV(0, 0, 0), .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH},
    {.name = "stalled-cycles-backend", .event_idx = HWEV(SBI_PMU_HW_STALLED_CYCLES_BACKEND), .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH},
    {.name = "r2000 (int_arith, S-mode)", .event_idx = SBI_PMU_EVENT_IDX(2u, 0), .data = TS_HPM_INT_ARITH, .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH | SBI_PMU_CFG_FLAG_SET_UINH},
    {.name = "bus-cycles", .event_idx = HWEV(SBI_PMU_HW_BUS_CYCLES)},
    {.name = "fw: misaligned loads", .event_idx = SBI_PMU_EVENT_IDX(15u, SBI_PMU_FW_MISALIGNED_LOAD)},
    {.name = "fw: illegal instructions", .event_idx = SBI_PMU_EVENT_IDX(15u, SBI_PMU_FW_ILLEGAL_INSN)},
};
#define NEV (sizeof events / sizeof events[0])

static const struct {
    const char *name;
    uintptr_t addr;
} funcs[] = {
    {"crc32", (uintptr_t)crc32},
    {"sort", (uintptr_t)sort},
    {"unaligned_sum", (uintptr_t)unaligned_sum},
    {"workload", (uintptr_t)workload},
};
#define NF (sizeof funcs / sizeof funcs[0])

int s_main(void);
int s_main(void) {
    spmu_t pmu;
    long err = spmu_init(&pmu);
    if (err) {
        printf("sbi_perf: no SBI PMU extension (error %ld)\n", err);
        return 1;
    }
    printf("sbi_perf: SBI PMU with %u counters (%u firmware)\n", pmu.n, (unsigned)TS_SBI_FW_COUNTERS);

    /* counting */
    for (unsigned i = 0; i < NEV; i++) sperf_open(&pmu, &events[i]);
    for (unsigned i = 0; i < NEV; i++)
        if (events[i].ctr >= 0) sperf_start(&pmu, &events[i]);
    workload();
    for (unsigned i = 0; i < NEV; i++)
        if (events[i].ctr >= 0) sperf_stop(&pmu, &events[i], 1);

    printf("\n Performance counter stats for 'workload' (S-mode, SBI PMU):\n\n");
    for (unsigned i = 0; i < NEV; i++) {
        if (events[i].ctr < 0) {
            printf("   %14s      %-28s\n", "<not supported>", events[i].name);
            continue;
        }
        printf("   %14lu      %-28s (counter %d)\n", (unsigned long)events[i].count, events[i].name, events[i].ctr);
    }
    if (events[0].count)
        printf("\n   %lu.%02lu insn per cycle\n", (unsigned long)(events[1].count / events[0].count),
               (unsigned long)(events[1].count * 100 / events[0].count % 100));

    /* sampling: one sample every 500 S-mode integer instructions */
    static uint32_t bins[2048];
    uintptr_t lo = funcs[0].addr;
    for (unsigned i = 1; i < NF; i++)
        if (funcs[i].addr < lo) lo = funcs[i].addr;
    sperf_hist_t hist = {.base = (uint32_t)lo & ~3u, .shift = 1, .nbins = 2048, .bins = bins};
    sperf_event_t smp = {.name = "int_arith", .event_idx = SBI_PMU_EVENT_IDX(2u, 0), .data = TS_HPM_INT_ARITH, .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH | SBI_PMU_CFG_FLAG_SET_UINH, .period = 500};
    sperf_event_t *ev[1] = {&smp};
    if (sperf_open(&pmu, &smp)) {
        printf("sbi_perf: no counter for sampling\n");
        return 1;
    }
    sperf_sampling_begin(&pmu, ev, 1, &hist);
    sperf_start(&pmu, &smp);
    workload();
    sperf_stop(&pmu, &smp, 1);
    sperf_sampling_end();
    printf("\n Samples: %lu of int_arith (S-mode) every 500 events, by function:\n\n",
           (unsigned long)smp.samples);
    for (unsigned f = 0; f < NF; f++) {
        uintptr_t end = ~(uintptr_t)0;
        for (unsigned g = 0; g < NF; g++)
            if (funcs[g].addr > funcs[f].addr && funcs[g].addr < end) end = funcs[g].addr;
        uint32_t n = 0;
        for (unsigned b = 0; b < hist.nbins; b++) {
            uintptr_t a = hist.base + ((uintptr_t)b << hist.shift);
            if (a >= funcs[f].addr && a < end) n += bins[b];
        }
        printf("   %5lu.%01lu%%  %6lu  %s\n", (unsigned long)(n * 100 / (smp.samples ? smp.samples : 1)),
               (unsigned long)(n * 1000 / (smp.samples ? smp.samples : 1) % 10), (unsigned long)n, funcs[f].name);
    }
    return 0;
}
