/* perf_port_sbi.c - the perf library's port for S-mode programs on the SBI firmware
 * (libtsperf_sbi.a: firmware/perf/sifive_bare_perf.c built with PERF_PORT_SBI).
 *
 * The library programs counters as machine-mode code does (mcounteren probe, mhpmevent,
 * mcountinhibit, width probes through mhpmcounter writes). Here those CSRs are a shadow, and
 * what the library asks of them becomes SBI PMU calls: a counter the library starts (its
 * mcountinhibit bit cleared) is configured with counter_config_matching on exactly that
 * counter (counter_idx_base = n, mask 1: CPU_CYCLES for 0, INSTRUCTIONS for 2, the raw
 * mhpmevent value, from the same platform table the library mapped its event through, for
 * the others) and started with counter_start and the value the library wrote as initial
 * value; setting the bit stops it (counter_stop). Widths come from counter_get_info. The
 * record hot path is unchanged: the library reads cycle/instret/hpmcounterN directly (the
 * SBI firmware opens mcounteren), so its records hold the values of the counters the SBI
 * layer programmed. The timer-ISR mode uses the SBI TIME extension and the S-mode timer
 * interrupt; host files go through simctrl as on bare metal. */
#include "perf_port.h"
#include "sbi_client.h"
#include "s_trap.h"
#include "bsp.h"

unsigned perf_sbi_hartid; /* hart 0: the only one (set by the payload) */

static int ready;
static uint32_t hw_mask; /* counters 0..31 that exist (bit 1: time) */
static uint8_t width[32];
static uint32_t ev_shadow[32];
static uint64_t ctr_shadow[32];
static uint32_t inhibit_shadow = 0xFFFFFFFFu, configured;

static PERF_NOINSTR void port_init(void) {
    if (ready) return;
    ready = 1;
    uint32_t n = (uint32_t)sbi_pmu_num_counters().value;
    for (uint32_t i = 0; i < n && i < 32; i++) {
        struct sbiret r = sbi_pmu_counter_get_info(i);
        if (r.error || ((unsigned long)r.value & SBI_PMU_CTR_INFO_FW)) continue;
        hw_mask |= 1u << i;
        width[i] = (uint8_t)((((uint32_t)r.value >> 12) & 63) + 1);
    }
}

static PERF_NOINSTR uint64_t wmask(unsigned n) {
    return width[n] >= 64 ? ~0ull : (1ull << width[n]) - 1;
}

static PERF_NOINSTR uint64_t counter_now(unsigned n) {
    if ((inhibit_shadow >> n) & 1) return ctr_shadow[n];
    return s_read_counter(n) & wmask(n);
}

perf_reg_t perf_csr_read(unsigned csr) {
    port_init();
    if (csr == 0x306) return hw_mask;
    if (csr == 0x320) return inhibit_shadow;
    if (csr >= 0x323 && csr <= 0x33F) return ev_shadow[csr - 0x320];
    if ((csr & ~0x9Fu) == 0xB00) {
        unsigned n = csr & 31;
        if (!((hw_mask >> n) & 1)) return 0;
        uint64_t v = counter_now(n);
#if __riscv_xlen == 64
        return (csr & 0x80) ? 0 : (perf_reg_t)v; /* no `h` halves on RV64 */
#else
        return (csr & 0x80) ? (uint32_t)(v >> 32) : (uint32_t)v;
#endif
    }
    return 0;
}

static PERF_NOINSTR void unconfigure(unsigned n) {
    if (!((configured >> n) & 1)) return;
    sbi_pmu_counter_stop(n, 1, SBI_PMU_STOP_FLAG_RESET);
    configured &= ~(1u << n);
}

static PERF_NOINSTR void start(unsigned n) {
    if (!((configured >> n) & 1)) {
        uint32_t idx = n == 0 ? SBI_PMU_EVENT_IDX(0u, SBI_PMU_HW_CPU_CYCLES) : n == 2 ? SBI_PMU_EVENT_IDX(0u, SBI_PMU_HW_INSTRUCTIONS) :
                                                                                        SBI_PMU_EVENT_IDX(2u, 0);
        struct sbiret r = sbi_pmu_counter_config_matching(n, 1, 0, idx, n >= 3 ? ev_shadow[n] : 0);
        if (r.error || (uint32_t)r.value != n) return; /* stays stopped: reads 0 */
        configured |= 1u << n;
    }
    sbi_pmu_counter_start(n, 1, SBI_PMU_START_SET_INIT_VALUE, ctr_shadow[n]);
}

void perf_csr_write(unsigned csr, perf_reg_t v) {
    port_init();
    if (csr == 0x320) {
        v = (v | 2u) & hw_mask;
        v |= ~hw_mask;
        uint32_t to_stop = ~inhibit_shadow & v, to_start = inhibit_shadow & ~v;
        for (uint32_t m = to_stop; m; m &= m - 1) {
            unsigned n = (unsigned)__builtin_ctz(m);
            ctr_shadow[n] = counter_now(n);
            sbi_pmu_counter_stop(n, 1, 0);
        }
        inhibit_shadow = v;
        for (uint32_t m = to_start; m; m &= m - 1) start((unsigned)__builtin_ctz(m));
        return;
    }
    if (csr >= 0x323 && csr <= 0x33F) {
        unsigned n = csr - 0x320;
        if (ev_shadow[n] != v) unconfigure(n);
        ev_shadow[n] = v;
        return;
    }
    if ((csr & ~0x9Fu) == 0xB00) {
        unsigned n = csr & 31;
        if (!((hw_mask >> n) & 1) || n == 1) return;
        uint64_t c = counter_now(n);
#if __riscv_xlen == 64
        if (csr & 0x80) return; /* no `h` halves on RV64 */
        c = v;
#else
        c = (csr & 0x80) ? ((uint64_t)v << 32) | (uint32_t)c : (c & 0xFFFFFFFF00000000ull) | v;
#endif
        ctr_shadow[n] = c & wmask(n);
        if (!((inhibit_shadow >> n) & 1)) { /* running: restart at the value */
            sbi_pmu_counter_stop(n, 1, 0);
            sbi_pmu_counter_start(n, 1, SBI_PMU_START_SET_INIT_VALUE, ctr_shadow[n]);
        }
    }
}

uint64_t perf_port_mtime(void) { return ts_rdtime(); }
uint64_t perf_port_timebase(void) { return TS_MTIME_HZ; }
void perf_port_set_mtimecmp(unsigned hart, uint64_t t) {
    (void)hart;
    sbi_set_timer(t);
}

static PERF_NOINSTR ts_reg_t perf_stimer_trap(ts_reg_t scause, ts_reg_t sepc, ts_reg_t stval) {
    (void)scause;
    (void)stval;
    perf_timer_tick(sepc);
    return sepc;
}

int perf_port_timer_start(unsigned hart, uint64_t first_deadline) {
    (void)hart;
    s_set_trap_handler(0x80000005u, perf_stimer_trap);
    if (sbi_set_timer(first_deadline).error) return -1;
    __asm__ volatile("csrs sie, %0" ::"r"(1u << 5)); /* STIE */
    __asm__ volatile("csrs sstatus, %0" ::"r"(2u));  /* SIE */
    return 0;
}

int perf_port_host_write(const char *name, const void *data, uint32_t len, int append) {
    return ts_host_write(name, data, len, append);
}

/* One hart runs the S-mode payload (the SBI firmware starts no other): the library's lock
 * (perf_port.h, "Several harts") has nothing to exclude. */
void perf_port_lock_init(void) {}
void perf_port_lock(void) {}
void perf_port_unlock(void) {}
