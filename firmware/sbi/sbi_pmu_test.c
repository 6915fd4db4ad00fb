/* sbi_pmu_test.c - the SBI PMU extension from S-mode, run with --hpm-counters 4
 * --hpm-width 16 (counters 0..6: cycle, time, instret, hpmcounter3..6; firmware counters
 * 7..14). Every function, every parameter rule and error code of the extension (v6), the
 * base extension probe, firmware events (emulated misaligned accesses, access faults and
 * illegal instructions redirected to S-mode, set_timer), exact counts of an S-mode block with
 * the mode filters, and overflow sampling. Expected values: the SBI spec and hand counts. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "sbi_client.h"
#include "s_trap.h"
#include "ts_hpm.h"

#define EXPECT_ERR(call, err) do { struct sbiret r_ = (call); CHECK_EQ(r_.error, (err)); } while (0)
#define EXPECT_OK(call, val) do { struct sbiret r_ = (call); CHECK_EQ(r_.error, 0); CHECK_EQ(r_.value, (val)); } while (0)

enum { N_HW = 7, N_FW = 8, N_ALL = 15, FW0 = 7 };
#define ALL_MASK ((1u << N_ALL) - 1)
#define HW(code) SBI_PMU_EVENT_IDX(0u, code)
#define CACHE(c, o, r) SBI_PMU_EVENT_IDX(1u, SBI_PMU_CACHE_CODE(c, o, r))
#define RAW SBI_PMU_EVENT_IDX(2u, 0)
#define FW(code) SBI_PMU_EVENT_IDX(15u, code)

static volatile uint32_t s_traps, s_cause, s_epc, s_tval, s_timer;
static ts_reg_t s_record(ts_reg_t cause, ts_reg_t epc, ts_reg_t tval) {
    s_traps++; s_cause = cause; s_epc = epc; s_tval = tval;
    return epc + (((*(volatile uint16_t *)(uintptr_t)epc) & 3) == 3 ? 4 : 2);
}
static ts_reg_t s_on_timer(ts_reg_t cause, ts_reg_t epc, ts_reg_t tval) {
    s_timer++;
    sbi_set_timer(~0ull);               /* clears STIP until the (never) next deadline */
    return epc;
}

uint32_t nops100(void);
uint32_t nops0(void);
__asm__(".section .text.nops, \"ax\"\n.balign 4\n.option push\n.option norvc\n"
        ".globl nops100\nnops100:\n.rept 100\naddi x0, x0, 0\n.endr\nret\n"
        ".globl nops0\nnops0:\nret\n.option pop\n");

/* fn run between a start and a stop of e, by the same instructions whatever fn is (the
 * compiler laid out the two calls differently on RV64: one instruction more around one) */
__attribute__((noinline)) static int counted(spmu_t *pmu, sperf_event_t *e, uint32_t (*fn)(void)) {
    int rc = sperf_start(pmu, e);
    if (rc) return rc;
    fn();
    return sperf_stop(pmu, e, 0);
}

__attribute__((noinline)) static uint32_t loop_work(uint32_t n) {
    volatile uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) acc += i * 3;
    return acc;
}

int s_main(void);
int s_main(void) {
    for (uint32_t c = 0; c < 16; c++) s_set_trap_handler(c, s_record);
    unsigned groups = 0;

    /* 1. base extension: spec version 0.3, probing */
    EXPECT_OK(sbi_get_spec_version(), 3);
    EXPECT_OK(sbi_ecall(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID, 0, 0, 0, 0, 0, 0), SBI_IMPL_ID);
    EXPECT_OK(sbi_ecall(SBI_EXT_BASE, SBI_BASE_GET_MVENDORID, 0, 0, 0, 0, 0, 0), 0);
    EXPECT_OK(sbi_probe_extension(SBI_EXT_PMU), 1);
    EXPECT_OK(sbi_probe_extension(SBI_EXT_TIME), 1);
    EXPECT_OK(sbi_probe_extension(SBI_EXT_BASE), 1);
    EXPECT_OK(sbi_probe_extension(0x48534D), 0);              /* HSM: not here */
    EXPECT_ERR(sbi_ecall(0x0A000000, 0, 0, 0, 0, 0, 0, 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_ecall(SBI_EXT_BASE, 7, 0, 0, 0, 0, 0, 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_ecall(SBI_EXT_PMU, 6, 0, 0, 0, 0, 0, 0), SBI_ERR_NOT_SUPPORTED);
    groups++;

    /* 2. num_counters and counter_get_info: CSR, width - 1, type */
    EXPECT_OK(sbi_pmu_num_counters(), N_ALL);
    EXPECT_OK(sbi_pmu_counter_get_info(0), 0xC00 | (63 << 12));
    EXPECT_OK(sbi_pmu_counter_get_info(1), 0xC01 | (63 << 12));
    EXPECT_OK(sbi_pmu_counter_get_info(2), 0xC02 | (63 << 12));
    for (uint32_t i = 3; i < N_HW; i++) EXPECT_OK(sbi_pmu_counter_get_info(i), (0xC00 + i) | (15 << 12));
    for (uint32_t i = FW0; i < N_ALL; i++) EXPECT_OK(sbi_pmu_counter_get_info(i), SBI_PMU_CTR_INFO_FW | (63u << 12));
    EXPECT_ERR(sbi_pmu_counter_get_info(N_ALL), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_get_info(0xFFFFFFFFu), SBI_ERR_INVALID_PARAM);
    groups++;

    /* 3. config_matching parameter rules */
    const uint32_t br = HW(SBI_PMU_HW_BRANCH_INSTRUCTIONS);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, 0, 0, br, 0), SBI_ERR_INVALID_PARAM);        /* empty set */
    EXPECT_ERR(sbi_pmu_counter_config_matching(N_ALL, 1, 0, br, 0), SBI_ERR_INVALID_PARAM);    /* beyond */
    EXPECT_ERR(sbi_pmu_counter_config_matching(10, 0x3F, 0, br, 0), SBI_ERR_INVALID_PARAM);    /* 10..15 */
    EXPECT_ERR(sbi_pmu_counter_config_matching(0xFFFFFFF0u, 0x100, 0, br, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 1u << 8, br, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, SBI_PMU_EVENT_IDX(3u, 1), 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, 1u << 20 | 1, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(0), 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(11), 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, br, 1), SBI_ERR_INVALID_PARAM); /* event_data */
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, CACHE(7, 0, 0), 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, CACHE(0, 3, 0), 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, CACHE(0, 0, 0), 5), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, RAW | 1, 0x600), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, RAW, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, RAW, 0x0100000000000600ull), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, FW(22), 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, FW(0), 1), SBI_ERR_INVALID_PARAM);
    /* events this platform cannot count */
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(SBI_PMU_HW_BUS_CYCLES), 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(SBI_PMU_HW_REF_CPU_CYCLES), 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, CACHE(0, 1, 1), 0), SBI_ERR_NOT_SUPPORTED); /* L1D write miss */
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, CACHE(2, 0, 0), 0), SBI_ERR_NOT_SUPPORTED); /* LL */
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, RAW, 0x0000010000000600ull), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, RAW, 0x40000000u), SBI_ERR_NOT_SUPPORTED); /* class 0 bit 30 */
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, RAW, 0x104), SBI_ERR_NOT_SUPPORTED);        /* class 4 */
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, FW(SBI_PMU_FW_IPI_SENT), 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, FW(21), 0), SBI_ERR_NOT_SUPPORTED);
    /* a set without a counter that can count it */
    EXPECT_ERR(sbi_pmu_counter_config_matching(3, 0xF, 0, HW(SBI_PMU_HW_CPU_CYCLES), 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, 0x7, 0, br, 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, 0x7F, 0, FW(0), 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(FW0, 0xFF, 0, br, 0), SBI_ERR_NOT_SUPPORTED);
    groups++;

    /* 4. matching: fixed events on their counters, the lowest free programmable counter for
     * the others, until none is left; counters stay stopped without AUTO_START */
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(SBI_PMU_HW_CPU_CYCLES), 0), 0);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(SBI_PMU_HW_INSTRUCTIONS), 0), 2);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(SBI_PMU_HW_CPU_CYCLES), 0), SBI_ERR_NOT_SUPPORTED);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, br, 0), 3);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, CACHE(0, 0, 0), 0), 4);        /* L1D read */
    EXPECT_OK(sbi_pmu_counter_config_matching(5, 1, 0, RAW, TS_HPM_MUL), 5);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, HW(SBI_PMU_HW_BRANCH_MISSES), 0), 6);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, br, 0), SBI_ERR_NOT_SUPPORTED);
    CHECK_EQ(TS_CSR_READ(0xC03) | TS_CSR_READ(0xC04), 0);                   /* not started */
    for (uint32_t i = 0; i < N_FW; i++)
        EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, FW(SBI_PMU_FW_ILLEGAL_INSN), 0), FW0 + i);
    EXPECT_ERR(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, FW(SBI_PMU_FW_ILLEGAL_INSN), 0), SBI_ERR_NOT_SUPPORTED);
    groups++;

    /* 5. start and stop: parameter rules, ALREADY_STARTED / ALREADY_STOPPED, RESET */
    EXPECT_ERR(sbi_pmu_counter_start(0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_start(N_ALL, 1, 0, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_start(3, 1, 2, 0), SBI_ERR_INVALID_PARAM);     /* reserved flag */
    EXPECT_ERR(sbi_pmu_counter_start(1, 1, 0, 0), SBI_ERR_INVALID_PARAM);     /* time: no event */
    EXPECT_ERR(sbi_pmu_counter_start(0, 0x3, 0, 0), SBI_ERR_INVALID_PARAM);   /* 1 in the set */
    EXPECT_ERR(sbi_pmu_counter_start(0, 0, 0, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_stop(3, 1, 0), SBI_ERR_ALREADY_STOPPED);       /* configured, never started */
    EXPECT_ERR(sbi_pmu_counter_stop(3, 1, 2), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_stop(1, 1, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_stop(N_ALL, 1, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_start(3, 0x3, SBI_PMU_START_SET_INIT_VALUE, 0xFFF0), 0);   /* 3 and 4 */
    CHECK_EQ(TS_CSR_READ(0xC03) >= 0xFFF0, 1);
    EXPECT_ERR(sbi_pmu_counter_start(3, 0x7, 0, 0), SBI_ERR_ALREADY_STARTED);  /* 5 started too */
    EXPECT_ERR(sbi_pmu_counter_start(5, 1, 0, 0), SBI_ERR_ALREADY_STARTED);
    EXPECT_ERR(sbi_pmu_counter_stop(3, 0x7, 0), 0);
    uint32_t v3 = TS_CSR_READ(0xC03);
    loop_work(10);
    CHECK_EQ(TS_CSR_READ(0xC03), v3);                                          /* stopped */
    EXPECT_ERR(sbi_pmu_counter_stop(3, 0x1, 0), SBI_ERR_ALREADY_STOPPED);
    EXPECT_ERR(sbi_pmu_counter_stop(3, 0xF, SBI_PMU_STOP_FLAG_RESET), SBI_ERR_ALREADY_STOPPED);
    EXPECT_ERR(sbi_pmu_counter_start(3, 1, 0, 0), SBI_ERR_INVALID_PARAM);      /* unmapped now */
    EXPECT_ERR(sbi_pmu_counter_stop(3, 1, 0), SBI_ERR_INVALID_PARAM);
    /* reset counters are matched again, lowest first */
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, br, 0), 3);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, br, 0), 4);
    /* SKIP_MATCH: the first counter of the set, which must be configured */
    EXPECT_OK(sbi_pmu_counter_config_matching(4, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH | SBI_PMU_CFG_FLAG_CLEAR_VALUE, br, 0), 4);
    EXPECT_ERR(sbi_pmu_counter_config_matching(4, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, HW(SBI_PMU_HW_CPU_CYCLES), 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_config_matching(FW0, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, br, 0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_stop(3, 0xF, SBI_PMU_STOP_FLAG_RESET), SBI_ERR_INVALID_PARAM);  /* 5, 6 free */
    EXPECT_ERR(sbi_pmu_counter_stop(3, 0x3, SBI_PMU_STOP_FLAG_RESET), SBI_ERR_ALREADY_STOPPED);
    EXPECT_ERR(sbi_pmu_counter_config_matching(5, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, br, 0), SBI_ERR_INVALID_PARAM);
    /* AUTO_START + CLEAR_VALUE */
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, SBI_PMU_CFG_FLAG_AUTO_START | SBI_PMU_CFG_FLAG_CLEAR_VALUE, br, 0), 3);
    EXPECT_ERR(sbi_pmu_counter_start(3, 1, 0, 0), SBI_ERR_ALREADY_STARTED);
    EXPECT_ERR(sbi_pmu_counter_stop(0, 0x7F, SBI_PMU_STOP_FLAG_RESET), SBI_ERR_INVALID_PARAM); /* 1, 4.. unmapped */
    EXPECT_ERR(sbi_pmu_counter_stop(3, 1, SBI_PMU_STOP_FLAG_RESET), 0);
    EXPECT_ERR(sbi_pmu_counter_stop(0, 0x5, SBI_PMU_STOP_FLAG_RESET), SBI_ERR_ALREADY_STOPPED);
    EXPECT_ERR(sbi_pmu_counter_stop(FW0, 0xFF, SBI_PMU_STOP_FLAG_RESET), SBI_ERR_ALREADY_STOPPED);
    groups++;

    /* 6. counter_fw_read and the firmware events, counted exactly */
    EXPECT_ERR(sbi_pmu_counter_fw_read(0), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_fw_read(6), SBI_ERR_INVALID_PARAM);
    EXPECT_ERR(sbi_pmu_counter_fw_read(N_ALL), SBI_ERR_INVALID_PARAM);
    const uint32_t af = SBI_PMU_CFG_FLAG_AUTO_START | SBI_PMU_CFG_FLAG_CLEAR_VALUE;
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, af, FW(SBI_PMU_FW_MISALIGNED_LOAD), 0), FW0);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, af, FW(SBI_PMU_FW_MISALIGNED_STORE), 0), FW0 + 1);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, af, FW(SBI_PMU_FW_ACCESS_LOAD), 0), FW0 + 2);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, af, FW(SBI_PMU_FW_ACCESS_STORE), 0), FW0 + 3);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, af, FW(SBI_PMU_FW_ILLEGAL_INSN), 0), FW0 + 4);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, af, FW(SBI_PMU_FW_SET_TIMER), 0), FW0 + 5);
    EXPECT_OK(sbi_pmu_counter_config_matching(0, ALL_MASK, 0, FW(SBI_PMU_FW_MISALIGNED_LOAD), 0), FW0 + 6);
    /* misaligned accesses are emulated by M-mode: the values are right, S-mode sees no trap */
    static volatile uint8_t buf[16] __attribute__((aligned(4))) = {1, 2, 3, 4, 5, 6, 7, 8, 0x89, 0xAB, 0xCD, 0xEF};
    uint32_t w, h, hu;
    s_traps = 0;
    __asm__ volatile("lw %0, 1(%1)" : "=r"(w) : "r"(buf));
    __asm__ volatile("lh %0, 9(%1)" : "=r"(h) : "r"(buf));
    __asm__ volatile("lhu %0, 9(%1)" : "=r"(hu) : "r"(buf));
    __asm__ volatile("mv a4, %1\n c.lw a5, 0(a4)\n mv %0, a5" : "=r"(w) : "r"(buf + 2) : "a4", "a5");  /* c.lw */
    CHECK_EQ(w, 0x06050403u);
    CHECK_EQ(h, 0xFFFFCDABu);
    CHECK_EQ(hu, 0x0000CDABu);
    __asm__ volatile("sw %0, 11(%1)" :: "r"(0x11223344u), "r"(buf) : "memory");
    __asm__ volatile("sh %0, 5(%1)" :: "r"(0xA5A6u), "r"(buf) : "memory");
    CHECK_EQ(buf[11] | buf[12] << 8 | buf[13] << 16 | (uint32_t)buf[14] << 24, 0x11223344u);
    CHECK_EQ(buf[5] | buf[6] << 8 | buf[4] << 16 | (uint32_t)buf[7] << 24, 0x0805A5A6u);
    CHECK_EQ(s_traps, 0);
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0), 4);
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0 + 1), 2);
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0 + 6), 0);             /* configured, not started */
    /* access faults and illegal instructions: counted, then handed to S-mode */
    uint32_t pc, v = 0;
    __asm__ volatile("la %0, 1f\n1: lw %1, 0(%2)" : "=&r"(pc), "+r"(v) : "r"(0x40000000u));
    CHECK_EQ(s_cause, 5); CHECK_EQ(s_epc, pc); CHECK_EQ(s_tval, 0x40000000u);
    __asm__ volatile("la %0, 1f\n1: sw %1, 0(%2)" : "=&r"(pc) : "r"(v), "r"(0x40000008u));
    CHECK_EQ(s_cause, 7); CHECK_EQ(s_tval, 0x40000008u);
    __asm__ volatile("la %0, 1f\n1: .word 0xffffffff" : "=r"(pc));
    CHECK_EQ(s_cause, 2); CHECK_EQ(s_epc, pc); CHECK_EQ(s_tval, 0xffffffffu);
    __asm__ volatile("la %0, 1f\n1: csrr t0, mstatus" : "=r"(pc) :: "t0");
    CHECK_EQ(s_cause, 2); CHECK_EQ(s_epc, pc);
    CHECK_EQ(s_traps, 4);
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0 + 2), 1);
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0 + 3), 1);
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0 + 4), 2);
    /* set_timer: counted; the S timer interrupt arrives when mtime passes the deadline */
    s_set_trap_handler(0x80000005u, s_on_timer);
    __asm__ volatile("csrs sie, %0" :: "r"(1u << 5));
    __asm__ volatile("csrs sstatus, %0" :: "r"(2u));
    sbi_set_timer(ts_rdtime() + 3);
    while (!s_timer) { }
    __asm__ volatile("csrc sstatus, %0" :: "r"(2u));
    CHECK_EQ(s_timer, 1);
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0 + 5), 2);             /* two set_timer calls */
    /* stop keeps the value, start with an initial value sets it */
    EXPECT_ERR(sbi_pmu_counter_stop(FW0, 1, 0), 0);
    __asm__ volatile("lw %0, 1(%1)" : "=r"(w) : "r"(buf));
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0), 4);
    EXPECT_ERR(sbi_pmu_counter_start(FW0, 1, SBI_PMU_START_SET_INIT_VALUE, 100), 0);
    __asm__ volatile("lw %0, 1(%1)" : "=r"(w) : "r"(buf));
    EXPECT_OK(sbi_pmu_counter_fw_read(FW0), 101);
    EXPECT_ERR(sbi_pmu_counter_stop(FW0, 0x7F, SBI_PMU_STOP_FLAG_RESET), SBI_ERR_ALREADY_STOPPED);
    groups++;

    /* 7. hardware counts through the SBI, exact per mode: INT_ARITH on a programmable
     * counter counting S-mode only (MINH, UINH): 100 nops add exactly 100; with SINH nothing */
    spmu_t pmu;
    CHECK_EQ(spmu_init(&pmu), 0);
    CHECK_EQ(pmu.n, N_ALL);
    sperf_event_t e = {.name = "int_arith", .event_idx = RAW, .data = TS_HPM_INT_ARITH,
                       .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH | SBI_PMU_CFG_FLAG_SET_UINH};
    CHECK_EQ(sperf_open(&pmu, &e), 0);
    CHECK_EQ(e.ctr, 3);
    uint64_t d[2];
    for (int k = 0; k < 2; k++) {
        CHECK_EQ(counted(&pmu, &e, k ? nops100 : nops0), 0);
        d[k] = e.count;
        e.count = 0;
    }
    CHECK_EQ(d[1] - d[0], 100);
    CHECK_EQ(sperf_stop(&pmu, &e, 1), SBI_ERR_ALREADY_STOPPED);
    e.cfg_flags = SBI_PMU_CFG_FLAG_SET_SINH | SBI_PMU_CFG_FLAG_SET_MINH;
    CHECK_EQ(sperf_open(&pmu, &e), 0);
    CHECK_EQ(sperf_start(&pmu, &e), 0);
    nops100();
    CHECK_EQ(sperf_stop(&pmu, &e, 1), 0);
    CHECK_EQ(e.count, 0);
    /* instret through counter 2 (no mode filter): grows by at least the 100 nops */
    sperf_event_t ins = {.name = "instructions", .event_idx = HW(SBI_PMU_HW_INSTRUCTIONS)};
    CHECK_EQ(sperf_open(&pmu, &ins), 0);
    CHECK_EQ(ins.ctr, 2);
    CHECK_EQ(sperf_start(&pmu, &ins), 0);
    nops100();
    CHECK_EQ(sperf_stop(&pmu, &ins, 1), 0);
    CHECK_EQ(ins.count >= 100 && ins.count < 1000, 1);
    groups++;

    /* 8. sampling on overflow (16-bit counters): S-mode INT_ARITH every 1000 events while a
     * loop runs; the samples land in the loop, their number follows the count */
    static uint32_t bins[64];
    sperf_hist_t hist = {.base = (uint32_t)(uintptr_t)loop_work & ~63u, .shift = 4, .nbins = 64, .bins = bins};
    sperf_event_t smp = {.name = "int_arith", .event_idx = RAW, .data = TS_HPM_INT_ARITH,
                         .cfg_flags = SBI_PMU_CFG_FLAG_SET_MINH | SBI_PMU_CFG_FLAG_SET_UINH,
                         .period = 1000};
    sperf_event_t *evs[1] = {&smp};
    CHECK_EQ(sperf_open(&pmu, &smp), 0);
    sperf_sampling_begin(&pmu, evs, 1, &hist);
    CHECK_EQ(sperf_start(&pmu, &smp), 0);
    loop_work(10000);
    CHECK_EQ(sperf_stop(&pmu, &smp, 1), 0);
    sperf_sampling_end();
    uint32_t in_bins = 0;
    for (unsigned i = 0; i < 64; i++) in_bins += bins[i];
    /* each sample is one overflow: at least 1000 events per sample, and less than 1000 more
     * than that plus the handler's own S-mode instructions before it stops the counter */
    CHECK_EQ(smp.samples * 1000ull <= smp.count, 1);
    CHECK_EQ(smp.count < (smp.samples + 1) * 1000ull + smp.samples * 200ull, 1);
    CHECK_EQ(smp.samples >= 10, 1);
    CHECK_EQ(in_bins + hist.outside, smp.samples);
    CHECK_EQ(in_bins >= smp.samples - 1, 1);
    groups++;

    printf("sbi_pmu_test: all %u groups of checks passed (%lu samples)\n", groups, (unsigned long)smp.samples);
    return 0;
}
