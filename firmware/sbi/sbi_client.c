/* sbi_client.c - S-mode SBI calls and the perf-style PMU client (see sbi_client.h). */
#include "sbi_client.h"
#include "s_trap.h"
#include <stddef.h>

struct sbiret sbi_ecall(uint32_t eid, uint32_t fid, unsigned long a0, unsigned long a1, unsigned long a2,
                        unsigned long a3, unsigned long a4, unsigned long a5) {
    register unsigned long r0 __asm__("a0") = a0, r1 __asm__("a1") = a1, r2 __asm__("a2") = a2,
        r3 __asm__("a3") = a3, r4 __asm__("a4") = a4, r5 __asm__("a5") = a5,
        r6 __asm__("a6") = fid, r7 __asm__("a7") = eid;
    __asm__ volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7) : "memory");
    return (struct sbiret){(long)r0, (long)r1};
}

#define ALL32(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) \
    M(15) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31)
#if __riscv_xlen == 64
#define RDC(n) case n: __asm__ volatile("csrr %0, %1" : "=r"(v) : "i"(0xC00 + n)); break;
uint64_t s_read_counter(unsigned n) {
    uint64_t v;
    switch (n) { ALL32(RDC) default: return 0; }
    return v;
}
#else
#define RDC(n) case n: __asm__ volatile("csrr %0, %3\n csrr %1, %4\n csrr %2, %3" \
    : "=&r"(h), "=&r"(l), "=&r"(h2) : "i"(0xC80 + n), "i"(0xC00 + n)); break;
uint64_t s_read_counter(unsigned n) {
    uint32_t h, l, h2;
    do {
        switch (n) { ALL32(RDC) default: return 0; }
    } while (h != h2);
    return ((uint64_t)h << 32) | l;
}
#endif

long spmu_init(spmu_t *p) {
    struct sbiret r = sbi_get_spec_version();
    if (r.error || r.value < 3) return SBI_ERR_NOT_SUPPORTED;      /* PMU needs SBI 0.3 */
    r = sbi_probe_extension(SBI_EXT_PMU);
    if (r.error || !r.value) return SBI_ERR_NOT_SUPPORTED;
    r = sbi_pmu_num_counters();
    if (r.error) return r.error;
    p->n = (unsigned)r.value > SPERF_MAX_COUNTERS ? SPERF_MAX_COUNTERS : (unsigned)r.value;
    p->all_mask = 0;
    for (unsigned i = 0; i < p->n; i++) {
        r = sbi_pmu_counter_get_info(i);
        if (r.error) return r.error;
        p->info[i] = (unsigned long)r.value;
        p->all_mask |= 1ull << i;
    }
    return 0;
}

static uint64_t ctr_mask(const spmu_t *p, unsigned long info) {
    if (info & SBI_PMU_CTR_INFO_FW) return ~0ull;
    unsigned w = ((info >> 12) & 63) + 1;
    (void)p;
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}

long sperf_open(spmu_t *p, sperf_event_t *e) {
    e->ctr = -1; e->count = 0; e->samples = 0;
    /* the counters in sets of XLEN: base 0, 32, ... */
    struct sbiret r = {SBI_ERR_NOT_SUPPORTED, 0};
    for (unsigned base = 0; base < p->n; base += 32) {
        unsigned k = p->n - base;
        uint32_t mask = k >= 32 ? 0xFFFFFFFFu : (1u << k) - 1;
        r = sbi_pmu_counter_config_matching(base, mask, e->cfg_flags | SBI_PMU_CFG_FLAG_CLEAR_VALUE,
                                            e->event_idx, e->data);
        if (r.error != SBI_ERR_NOT_SUPPORTED) break;
    }
    if (r.error) return r.error;
    e->ctr = (int)r.value;
    e->info = p->info[e->ctr];
    return 0;
}

uint64_t sperf_read(spmu_t *p, const sperf_event_t *e) {
    if (e->info & SBI_PMU_CTR_INFO_FW) return (unsigned long)sbi_pmu_counter_fw_read((uint32_t)e->ctr).value;
    return s_read_counter(e->info & 0xFFFu & 31) & ctr_mask(p, e->info);
}

long sperf_start(spmu_t *p, sperf_event_t *e) {
    uint64_t init = e->period ? (0 - e->period) & ctr_mask(p, e->info) : 0;
    e->start_value = init;
    return sbi_pmu_counter_start((uint32_t)e->ctr, 1, SBI_PMU_START_SET_INIT_VALUE, init).error;
}

long sperf_stop(spmu_t *p, sperf_event_t *e, int reset) {
    struct sbiret r = sbi_pmu_counter_stop((uint32_t)e->ctr, 1, 0);
    e->count += (sperf_read(p, e) - e->start_value) & ctr_mask(p, e->info);
    if (reset) {
        struct sbiret r2 = sbi_pmu_counter_stop((uint32_t)e->ctr, 1, SBI_PMU_STOP_FLAG_RESET);
        if (!r.error && r2.error != SBI_ERR_ALREADY_STOPPED) r.error = r2.error;
    }
    return r.error;
}

/* ---- sampling ------------------------------------------------------------------------- */
static spmu_t *smp_pmu;
static sperf_event_t **smp_ev;
static unsigned smp_n;
static sperf_hist_t *smp_hist;

static ts_reg_t on_lcof(ts_reg_t cause, ts_reg_t epc, ts_reg_t tval) {
    uint32_t ovf;
    __asm__ volatile("csrr %0, 0xda0" : "=r"(ovf));
    for (unsigned i = 0; i < smp_n; i++) {
        sperf_event_t *e = smp_ev[i];
        if (!e->period || e->ctr < 0 || !((ovf >> e->ctr) & 1)) continue;
        /* the counter went on after the overflow: stop, account, restart at -period (the
         * restart clears OF) */
        sbi_pmu_counter_stop((uint32_t)e->ctr, 1, 0);
        e->count += (sperf_read(smp_pmu, e) - e->start_value) & ctr_mask(smp_pmu, e->info);
        e->samples++;
        sperf_hist_t *h = smp_hist;
        if (h) {
            ts_reg_t b = (epc - h->base) >> h->shift;
            if (epc >= h->base && b < h->nbins) h->bins[b]++;
            else h->outside++;
        }
        sperf_start(smp_pmu, e);
    }
    __asm__ volatile("csrc sip, %0" :: "r"(1u << 13));
    return epc;
}

void sperf_sampling_begin(spmu_t *p, sperf_event_t **evs, unsigned n, sperf_hist_t *hist) {
    smp_pmu = p; smp_ev = evs; smp_n = n; smp_hist = hist;
    s_set_trap_handler(0x8000000du, on_lcof);
    __asm__ volatile("csrc sip, %0" :: "r"(1u << 13));      /* an old overflow request */
    __asm__ volatile("csrs sie, %0" :: "r"(1u << 13));
    __asm__ volatile("csrs sstatus, %0" :: "r"(2u));
}

void sperf_sampling_end(void) {
    __asm__ volatile("csrc sstatus, %0" :: "r"(2u));
    __asm__ volatile("csrc sie, %0" :: "r"(1u << 13));
}

/* ---- U-mode calls ---------------------------------------------------------------------- */
extern char u_call_stub[], u_call_resume[];
static ts_reg_t on_u_ecall(ts_reg_t cause, ts_reg_t epc, ts_reg_t tval) {
    (void)cause; (void)tval;
    if (epc == (ts_reg_t)(uintptr_t)u_call_stub) {
        __asm__ volatile("csrs sstatus, %0" :: "r"(0x100u));   /* sret to S-mode */
        return (ts_reg_t)(uintptr_t)u_call_resume;
    }
    return epc + 4;                                            /* other ecalls: ignored */
}
void u_call_init(void) {
    s_set_trap_handler(8, on_u_ecall);
    __asm__ volatile("csrw scounteren, %0" :: "r"(0xFFFFFFFFu));   /* U reads every counter */
}
