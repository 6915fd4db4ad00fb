/* perf_port_riscv.c - the perf library's hardware port on the tracesim SoC (see perf_port.h):
 * counter CSRs by number, the CLINT timer through the BSP, host files through simctrl.
 * Built into libtsperf.a without -finstrument-functions. */
#include "perf_port.h"
#include "bsp.h"

#define CSR_MCOUNTEREN 0x306
#define CSR_MCOUNTINHIBIT 0x320

/* RV32: the counters' high halves 0xB80 + n as CSRs of their own; RV64 has none */
#if __riscv_xlen == 64
#define RD_HI(n)
#define WR_HI(n)
#else
#define RD_HI(n)      \
    case 0xB80 + (n): \
        return perf_csrr(0xB80 + (n));
#define WR_HI(n)                   \
    case 0xB80 + (n):              \
        perf_csrw(0xB80 + (n), v); \
        return;
#endif

perf_reg_t perf_csr_read(unsigned csr) {
    switch (csr) {
    case CSR_MCOUNTEREN: return perf_csrr(CSR_MCOUNTEREN);
    case CSR_MCOUNTINHIBIT: return perf_csrr(CSR_MCOUNTINHIBIT);
#define RD_EVENT(n)   \
    case 0x320 + (n): \
        return perf_csrr(0x320 + (n));
#define RD_CTR(n)                      \
    case 0xB00 + (n):                  \
        return perf_csrr(0xB00 + (n)); \
        RD_HI(n)
        PERF_REP_HPM(RD_EVENT)
        RD_CTR(0)
        RD_CTR(2)
        PERF_REP_HPM(RD_CTR)
#undef RD_EVENT
#undef RD_CTR
    default: return 0;
    }
}

void perf_csr_write(unsigned csr, perf_reg_t v) {
    switch (csr) {
    case CSR_MCOUNTEREN: perf_csrw(CSR_MCOUNTEREN, v); return;
    case CSR_MCOUNTINHIBIT: perf_csrw(CSR_MCOUNTINHIBIT, v); return;
#define WR_EVENT(n)                \
    case 0x320 + (n):              \
        perf_csrw(0x320 + (n), v); \
        return;
#define WR_CTR(n)                  \
    case 0xB00 + (n):              \
        perf_csrw(0xB00 + (n), v); \
        return;                    \
        WR_HI(n)
        PERF_REP_HPM(WR_EVENT)
        WR_CTR(0)
        WR_CTR(2)
        PERF_REP_HPM(WR_CTR)
#undef WR_EVENT
#undef WR_CTR
    default: return;
    }
}

/* the library's lock: in the non-zeroed section (no start-up cost), cleared by perfInit */
static ts_lock_t perf_lock __attribute__((section(".preserve.tsperf_lock")));

void perf_port_lock_init(void) {
    perf_lock.next = 0;
    perf_lock.owner = 0;
}
/* Before the first ts_hart_start() only hart 0 runs code (ts_harts.h), so the lock is not
 * needed and is skipped: a single-hart program pays a call and a test (about 8 cycles), not
 * the lock's atomic and fences. Activation cannot happen between a lock and its unlock (the
 * library never starts a hart), so both take the same branch. */
void perf_port_lock(void) {
    if (ts_harts_started()) ts_lock(&perf_lock);
}
void perf_port_unlock(void) {
    if (ts_harts_started()) ts_unlock(&perf_lock);
}

uint64_t perf_port_mtime(void) { return ts_mtime(); }
uint64_t perf_port_timebase(void) { return TS_MTIME_HZ; }

void perf_port_set_mtimecmp(unsigned hart, uint64_t t) {
    volatile uint32_t *cmp = (volatile uint32_t *)(uintptr_t)(TS_CLINT_BASE + TS_CLINT_MTIMECMP + 8u * hart);
    cmp[1] = 0xFFFFFFFFu; /* no spurious interrupt while the halves change */
    cmp[0] = (uint32_t)t;
    cmp[1] = (uint32_t)(t >> 32);
}

static PERF_NOINSTR ts_reg_t perf_timer_trap(ts_reg_t mcause, ts_reg_t mepc, ts_reg_t mtval) {
    (void)mcause;
    (void)mtval;
    perf_timer_tick(mepc);
    return mepc;
}

int perf_port_timer_start(unsigned hart, uint64_t first_deadline) {
    ts_set_trap_handler(0x80000007u, perf_timer_trap);
    perf_port_set_mtimecmp(hart, first_deadline);
    TS_CSR_SET(mie, 1u << 7);     /* MTIE */
    TS_CSR_SET(mstatus, 1u << 3); /* MIE */
    return 0;
}

int perf_port_host_write(const char *name, const void *data, uint32_t len, int append) {
    return ts_host_write(name, data, len, append);
}
