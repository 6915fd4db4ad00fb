/* perf_fake.c - the perf library's host port on the C models; see perf_fake.h. */
#include "perf_fake.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf_port.h"
#include "sifive_bare_perf.h"

/* event-vector bits (rtl_model/regs/hpm_events.def) */
enum {
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) PF_EV_##id = idx,
#include "hpm_events.def"
#undef TS_EVENT
};
#define EV_BASE ((1u << PF_EV_CYCLE) | (1u << PF_EV_RETIRE) | (1u << PF_EV_MMIO))
#define EV_READ (EV_BASE | (1u << PF_EV_LOAD))
#define EV_WRITE (EV_BASE | (1u << PF_EV_STORE))

#define BLOCK_SIZE 0x1000u
#define POOL_SPAN ((uint32_t)PERF_MEM_POOL_SIZE) /* bus window of the mapped host memory */
#define MAX_POLLS 1000000u                       /* consecutive "not ready" stimulus reads */
#define MAX_FILES 16

typedef struct pf_file_ent {
    char name[256];
    uint8_t *data;
    uint32_t len;
} pf_file_ent_t;

static struct {
    bool ready;
    pf_cfg_t cfg;
    te_t te[PF_MAX_TE]; /* encoder k of hart k */
    unsigned n_te;
    funnel_t funnel;
    hpm_t hpm[PF_MAX_TE]; /* hart k's counters (hart >= n_te: hpm[0]) */
    unsigned hart;
    int lock_ready; /* perf_port_lock_init was called */
    int lock_held;
    unsigned locks; /* perf_port_lock calls */
    unsigned te_writes[PF_MAX_TE], funnel_writes;
    uint64_t mtime, cycles;
    unsigned trace_phase; /* core cycles since the last trace tick */
    unsigned csr_writes, not_ready;
    pf_timer_t timer;
    pf_read_t *log;
    unsigned nlog, caplog;
    uintptr_t map_host; /* host address mapped at PF_BUS_BASE (0: none yet) */
    uint8_t *shadow;    /* POOL_SPAN bytes: what the SBA sink wrote */
    pf_file_ent_t files[MAX_FILES];
    unsigned nfiles, host_writes;
} F;

static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fatal(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "perf_fake: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void need_init(void) {
    if (!F.ready) fatal("the library reached the port before pf_init()");
}

void pf_default_cfg(pf_cfg_t *c) {
    memset(c, 0, sizeof *c);
    te_default_cfg(&c->te);
    hpm_default_cfg(&c->hpm);
    c->funnel = false;
    c->funnel_sram = 16384;
    c->funnel_ts_width = 40;
    c->hart = 0;
    c->mtime = 0;
    c->timebase = 1000000;
    c->timer_start_rc = 0;
    c->trace_divider = 1;
    c->n_te = 1;
}

void pf_free(void) {
    if (!F.ready) return;
    for (unsigned k = 0; k < F.n_te; k++) te_free(&F.te[k]);
    if (F.cfg.funnel) funnel_free(&F.funnel);
    free(F.log);
    free(F.shadow);
    for (unsigned i = 0; i < F.nfiles; i++) free(F.files[i].data);
    memset(&F, 0, sizeof F);
}

void pf_init(const pf_cfg_t *c) {
    pf_free();
    F.cfg = *c;
    if (!c->trace_divider) fatal("trace_divider must be at least 1");
    if (c->n_te < 1 || c->n_te > PF_MAX_TE) fatal("n_te must be 1..%u", PF_MAX_TE);
    F.n_te = c->n_te;
    for (unsigned k = 0; k < F.n_te; k++) {
        te_cfg_t tc = c->te;
        if (F.n_te > 1) tc.hart = k;
        if (te_init(&F.te[k], &tc)) fatal("invalid encoder configuration");
        if (hpm_init(&F.hpm[k], &c->hpm)) fatal("invalid HPM configuration");
    }
    if (c->funnel) {
        if (funnel_init(&F.funnel, c->te.sink_bytes, c->funnel_sram, c->funnel_ts_width))
            fatal("invalid funnel configuration");
        for (unsigned k = 0; k < F.n_te; k++) funnel_attach(&F.funnel, &F.te[k]);
    }
    F.shadow = malloc(POOL_SPAN);
    if (!F.shadow) fatal("out of memory");
    memset(F.shadow, 0xEE, POOL_SPAN);
    F.hart = c->hart;
    F.mtime = c->mtime;
    F.ready = true;
}

te_t *pf_te(void) { return &F.te[0]; }
te_t *pf_te_of(unsigned k) { return k < F.n_te ? &F.te[k] : NULL; }
unsigned pf_locks(void) { return F.locks; }
unsigned pf_te_writes(unsigned k) { return k < F.n_te ? F.te_writes[k] : 0; }
unsigned pf_funnel_writes(void) { return F.funnel_writes; }
int pf_lock_held(void) { return F.lock_held; }
funnel_t *pf_funnel(void) { return F.cfg.funnel ? &F.funnel : NULL; }
static hpm_t *cur_hpm(void) { return &F.hpm[F.hart < F.n_te ? F.hart : 0]; }
hpm_t *pf_hpm(void) { return cur_hpm(); }
hpm_t *pf_hpm_of(unsigned k) { return k < F.n_te ? &F.hpm[k] : NULL; }
void pf_set_hart(unsigned hart) { F.hart = hart; }
void pf_set_mtime(uint64_t t) { F.mtime = t; }
const pf_timer_t *pf_timer(void) { return &F.timer; }
uint64_t pf_cycles(void) { return F.cycles; }
unsigned pf_csr_writes(void) { return F.csr_writes; }
unsigned pf_reads(const pf_read_t **log) {
    *log = F.log;
    return F.nlog;
}
unsigned pf_file_count(void) { return F.nfiles; }
unsigned pf_host_writes(void) { return F.host_writes; }

static void log_read(unsigned key, uint64_t v) {
    if (F.nlog == F.caplog) {
        F.caplog = F.caplog ? 2 * F.caplog : 256;
        F.log = realloc(F.log, F.caplog * sizeof *F.log);
        if (!F.log) fatal("out of memory");
    }
    F.log[F.nlog++] = (pf_read_t){key, v};
}

/* ---- the SBA bus ------------------------------------------------------------------------ */

static void sba_word(const sink_t *k) {
    if (!k->sba_valid) return;
    if (!F.map_host) fatal("SBA word at 0x%08x before any buffer was mapped", k->sba_addr);
    uint64_t off = (uint64_t)k->sba_addr - PF_BUS_BASE;
    if (k->sba_addr < PF_BUS_BASE || off + k->width > POOL_SPAN)
        fatal("SBA word at 0x%08x outside the mapped pool [0x%08x, 0x%08x)", k->sba_addr, PF_BUS_BASE,
              PF_BUS_BASE + POOL_SPAN);
    memcpy((uint8_t *)(F.map_host + (uintptr_t)off), k->sba_data, k->width);
    memcpy(F.shadow + off, k->sba_data, k->width);
}

/* one core cycle after an access */
static void tick(uint32_t ev) {
    if (++F.trace_phase >= F.cfg.trace_divider) {
        F.trace_phase = 0;
        for (unsigned k = 0; k < F.n_te; k++) te_tick(&F.te[k]);
        if (F.cfg.funnel) funnel_tick(&F.funnel);
        for (unsigned k = 0; k < F.n_te; k++) sba_word(&F.te[k].sink);
        if (F.cfg.funnel) sba_word(&F.funnel.sink);
    }
    hpm_tick(cur_hpm(), ev);
    F.cycles++;
}

const uint8_t *pf_sba_shadow(uint32_t bus, uint32_t len) {
    uint64_t off = (uint64_t)bus - PF_BUS_BASE;
    if (bus < PF_BUS_BASE || off + len > POOL_SPAN) return NULL;
    return F.shadow + off;
}

/* ---- MMIO ------------------------------------------------------------------------------- */

/* which block an address is in: 't' encoder (*k its number), 'f' funnel */
static char block_of(uintptr_t addr, uint32_t *off, unsigned *k) {
    if (addr >= PF_TE_BASE && addr < PF_TE_BASE + F.n_te * BLOCK_SIZE) {
        *k = (unsigned)((addr - PF_TE_BASE) / BLOCK_SIZE);
        *off = (uint32_t)(addr - PF_TE_BASE) % BLOCK_SIZE;
        return 't';
    }
    if (F.cfg.funnel && addr >= PF_FUNNEL_BASE && addr < PF_FUNNEL_BASE + BLOCK_SIZE) {
        *off = (uint32_t)(addr - PF_FUNNEL_BASE);
        return 'f';
    }
    fatal("access to 0x%llx: no device there", (unsigned long long)addr);
}

uint32_t perf_port_rd32(uintptr_t addr) {
    need_init();
    uint32_t off, v = 0;
    unsigned k = 0;
    char b = block_of(addr, &off, &k);
    enum te_access r = b == 't' ? te_read(&F.te[k], off, 4, &v) : funnel_read(&F.funnel, off, 4, &v);
    if (r != TE_OK) fatal("32-bit read of 0x%llx rejected by the model", (unsigned long long)addr);
    if (off == SIFIVE_TRACE_TE_TS_LOWER) { /* the timestamp, as the library reads it */
        const tsunit_t *ts = b == 't' ? &F.te[k].ts : &F.funnel.ts;
        log_read(PF_KEY_TS, tsunit_now(ts));
    }
    if (b == 't' && off >= SIFIVE_TRACE_TE_ITC_STIMULUS && off < SIFIVE_TRACE_TE_ITC_STIMULUS + 0x80) {
        if (v == 0 && ++F.not_ready == MAX_POLLS) fatal("the ITC stimulus register never became ready");
        if (v) F.not_ready = 0;
    }
    tick(EV_READ);
    return v;
}

void perf_port_wr(uintptr_t addr, unsigned size, uint32_t v) {
    need_init();
    uint32_t off;
    unsigned k = 0;
    char b = block_of(addr, &off, &k);
    enum te_access r;
    unsigned waits = 0;
    for (;;) {
        r = b == 't' ? te_write(&F.te[k], off, size, v) : funnel_write(&F.funnel, off, size, v);
        if (r != TE_WAIT) break;
        if (++waits == MAX_POLLS) fatal("a stalled stimulus store was never accepted");
        tick(EV_WRITE); /* the store waits a cycle */
    }
    if (r == TE_ERR) fatal("%u-byte write of 0x%x to 0x%llx rejected by the model", size, v, (unsigned long long)addr);
    if (b == 't') F.te_writes[k]++;
    else
        F.funnel_writes++;
    tick(EV_WRITE);
}

unsigned perf_port_hartid(void) {
    need_init();
    return F.hart;
}

uint32_t perf_port_bus_addr(const void *p) {
    need_init();
    uintptr_t a = (uintptr_t)p;
    if (!F.map_host) F.map_host = a; /* the first SBA buffer: the pool's start */
    if (a < F.map_host || a - F.map_host >= POOL_SPAN) fatal("perf_port_bus_addr(%p): outside the mapped pool", p);
    return PF_BUS_BASE + (uint32_t)(a - F.map_host);
}

/* ---- CSRs ------------------------------------------------------------------------------- */

uint32_t perf_csr_read(unsigned csr) {
    need_init();
    uint32_t v;
    if (!hpm_csr_read(cur_hpm(), csr, &v)) fatal("perf_csr_read(0x%x): not a counter CSR", csr);
    return v;
}

void perf_csr_write(unsigned csr, uint32_t v) {
    need_init();
    if (!hpm_csr_write(cur_hpm(), csr, v)) fatal("perf_csr_write(0x%x): not a counter CSR", csr);
    if (csr != 0x306) F.csr_writes++;
}

uint64_t perf_port_counter_read(unsigned key) {
    need_init();
    uint32_t lo, hi, hi2;
    uint64_t v;
    if (key < PERF_KEY_WIDE && key != PERF_KEY_TS) {
        if (hpm_width(cur_hpm(), key) > 32) fatal("32-bit read key %u for a %u-bit counter", key, hpm_width(cur_hpm(), key));
        if (!hpm_csr_read(cur_hpm(), 0xC00 + key, &lo)) fatal("read key %u: no such CSR", key);
        v = lo;
    } else if (key >= PERF_KEY_WIDE && key < PERF_KEY_WIDE + 32 && key != PERF_KEY_WIDE + 1) {
        unsigned n = key - PERF_KEY_WIDE;
        do {
            hpm_csr_read(cur_hpm(), 0xC80 + n, &hi);
            hpm_csr_read(cur_hpm(), 0xC00 + n, &lo);
            hpm_csr_read(cur_hpm(), 0xC80 + n, &hi2);
        } while (hi != hi2);
        v = (uint64_t)hi << 32 | lo;
    } else {
        fatal("perf_port_counter_read(%u): not a counter read key", key);
    }
    log_read(key, v);
    return v;
}

/* ---- the library's lock: must pair, never nest, and exist (perfInit) before use -------- */

void perf_port_lock_init(void) {
    need_init();
    if (F.lock_held) fatal("perf_port_lock_init while the lock is held");
    F.lock_ready = 1;
}
void perf_port_lock(void) {
    need_init();
    if (!F.lock_ready) fatal("perf_port_lock before perf_port_lock_init (perfInit)");
    if (F.lock_held) fatal("perf_port_lock: the lock is already held (not recursive)");
    F.lock_held = 1;
    F.locks++;
}
void perf_port_unlock(void) {
    need_init();
    if (!F.lock_held) fatal("perf_port_unlock without perf_port_lock");
    F.lock_held = 0;
}

/* ---- timer ------------------------------------------------------------------------------ */

uint64_t perf_port_mtime(void) {
    need_init();
    return F.mtime;
}
uint64_t perf_port_timebase(void) {
    need_init();
    return F.cfg.timebase;
}

void perf_port_set_mtimecmp(unsigned hart, uint64_t t) {
    need_init();
    F.timer.cmp_writes++;
    F.timer.cmp_hart = hart;
    F.timer.mtimecmp = t;
}

int perf_port_timer_start(unsigned hart, uint64_t first_deadline) {
    need_init();
    F.timer.starts++;
    F.timer.start_hart = hart;
    F.timer.first_deadline = first_deadline;
    F.timer.mtimecmp = first_deadline;
    return F.cfg.timer_start_rc;
}

/* ---- host files (simctrl's rules) --------------------------------------------------------- */

static pf_file_ent_t *find_file(const char *name) {
    for (unsigned i = 0; i < F.nfiles; i++)
        if (!strcmp(F.files[i].name, name)) return &F.files[i];
    return NULL;
}

int perf_port_host_write(const char *name, const void *data, uint32_t len, int append) {
    need_init();
    F.host_writes++;
    if (!name) return 1;
    size_t n = strnlen(name, 256);
    if (n == 0 || n == 256 || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) return 1;
    if (len && !data) return 2;
    pf_file_ent_t *f = find_file(name);
    if (!f) {
        if (F.nfiles == MAX_FILES) return 3;
        f = &F.files[F.nfiles++];
        memcpy(f->name, name, n + 1);
    }
    if (!append) f->len = 0;
    uint8_t *d = realloc(f->data, (size_t)f->len + len + 1);
    if (!d) return 3;
    f->data = d;
    if (len) memcpy(d + f->len, data, len);
    f->len += len;
    return 0;
}

const uint8_t *pf_file(const char *name, uint32_t *len) {
    pf_file_ent_t *f = find_file(name);
    if (!f) return NULL;
    *len = f->len;
    return f->data ? f->data : (const uint8_t *)"";
}

/* ---- the sink ------------------------------------------------------------------------------ */

const sink_t *pf_sink(void) {
    return F.cfg.funnel && te_to_funnel(&F.te[0]) ? &F.funnel.sink : &F.te[0].sink;
}

uint64_t pf_sink_bytes(void) {
    const sink_t *k = pf_sink();
    return k->words * k->width + k->fill;
}

uint8_t *pf_trace_image(uint32_t *len) {
    const sink_t *k = pf_sink();
    uint8_t *out;
    if (k->kind == SINK_SRAM) {
        out = malloc(k->sram_size ? k->sram_size : 1);
        if (!out) fatal("out of memory");
        *len = sink_sram_image(k, out, k->sram_size);
        return out;
    }
    uint32_t start = sink_start(k), end = sink_last(k) + k->width, wp = k->wp & ~1u;
    if (end < start || wp < start || wp > end || !pf_sba_shadow(start, end - start))
        fatal("SBA sink [0x%08x, 0x%08x) with WP 0x%08x is outside the mapped pool", start, end, k->wp);
    out = malloc(end - start + 1);
    if (!out) fatal("out of memory");
    uint32_t n = 0;
    if (k->wp & 1u) { /* wrapped: [WP, end) first */
        memcpy(out, pf_sba_shadow(wp, end - wp), end - wp);
        n = end - wp;
    }
    memcpy(out + n, pf_sba_shadow(start, wp - start), wp - start);
    *len = n + (wp - start);
    return out;
}
