/* test_perflib.c - the perf library (firmware/perf/sifive_bare_perf.c) built for the host,
 * on the real C models of the trace encoder, funnel and HPM counters (perf_fake.c).
 *
 * Error cases: every code of enum perfError with the exact value and, where the call must
 * not reach the hardware, no MMIO at all or no trace byte and no counter touched.
 * Positive cases decode what the library left in the sink with the project's decoder
 * (nxd_decode -> perf_dec_feed) and compare with values written by hand from SiFive's manual
 * and trace-hw-facts.md 5.2-5.5 (header definitions, counter_info, indices, store sequences,
 * control register values), or with the counter values the HPM model had when the library
 * read them (logged by the fake, never taken from the library's output).
 *
 * The library's state is static, so every case runs in a fresh process: ctest runs one case
 * per process, and when the binary runs all cases each one after the first re-runs the binary
 * with its name (run_elsewhere). */
#include <errno.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>
#include "perf_decode.h"
#undef PERF_MAX_CORES /* perf_decode.h's (16 sources) vs the library's (8 harts) */
#include "perf_fake.h"
#include "perf_port.h" /* perf_timer_tick */
#include "sifive_bare_perf.h"
#include "ts_test.h"

/* the application's trace block addresses, as SiFive's manual shows; tmm[1] is NULL unless a
 * case sets it */
struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)PF_TE_BASE, NULL};
struct TfTraceRegMemMap volatile *fmm = NULL;

#define CH 6 /* the perf channel of every positive case */
#define POOL ((uint32_t)PERF_MEM_POOL_SIZE)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- one case per process ------------------------------------------------------------------ */

static int run_elsewhere(void) {
    static int ran;
    if (!ran++) return 0;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) TS_FAIL("fork: %s", strerror(errno));
    if (pid == 0) {
        char *argv[] = {"/proc/self/exe", (char *)ts_test_current, NULL};
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid) TS_FAIL("waitpid: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st)) TS_FAIL("the case failed in its own process (status 0x%x)", st);
    return 1;
}

static void begin_models(const pf_cfg_t *cfg) {
    pf_cfg_t dflt;
    pf_default_cfg(&dflt);
    pf_init(cfg ? cfg : &dflt);
}
/* starts a case on fresh models (cfg NULL: the defaults) */
#define BEGIN(cfg)                   \
    do {                             \
        if (run_elsewhere()) return; \
        begin_models(cfg);           \
    } while (0)

/* ---- events ------------------------------------------------------------------------------ */

/* compound literals in parentheses: clang-format 14 and 19 format a macro body that is a bare
   braced list differently (as a block, as a list) */
#define GEN(c) ((perfEvent){.ctrIdx = 0xDEAD, .type = perfEventHWGeneral, .code = (c), .ctrInfo = 0xDEAD})
#define CACHE(i, o, r) ((perfEvent){.ctrIdx = 0xDEAD, .type = perfEventHWCache, .cache_id = (i), .op_id = (o), .result_id = (r), .ctrInfo = 0xDEAD})
#define RAW(ed) ((perfEvent){.ctrIdx = 0xDEAD, .type = perfEventHWRaw, .event_data = (ed), .ctrInfo = 0xDEAD})
#define TYPE(t) ((perfEvent){.ctrIdx = 0xDEAD, .type = (t), .ctrInfo = 0xDEAD})

/* mhpmevent values (class in 7:0, event bit 8+; rtl_model/regs/hpm_events.def) */
enum { EV_LOAD = 0x200,
       EV_STORE = 0x400,
       EV_LD_ST = 0x600,
       EV_MMIO = 0x202,
       EV_BR_MISPREDICT = 0x2001 };
/* counter_info (SBI layout: CSR in 11:0, width - 1 in 17:12) for the default widths */
enum { INFO_CYCLE = (63 << 12) | 0xC00,
       INFO_INSTRET = (63 << 12) | 0xC02,
       INFO_TS40 = 39 << 12 };
#define INFO_HPM(w, n) ((((w) << 12) - (1u << 12)) | (0xC00u + (n))) /* (w - 1) << 12 */

/* ---- checks ------------------------------------------------------------------------------- */

/* no ITC store reached the encoder and no byte the sink */
static void assert_no_trace(void) {
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, 0);
    TS_ASSERT_EQ_U(pf_te()->messages, 0);
    TS_ASSERT_EQ_U(pf_te()->fifo_count, 0);
    TS_ASSERT_EQ_U(pf_sink_bytes(), 0);
}
/* no counter, event or inhibit CSR written (the mcounteren probe aside) */
static void assert_counters_untouched(void) {
    TS_ASSERT_EQ_U(pf_csr_writes(), 0);
    for (unsigned n = 3; n < 32; n++) TS_ASSERT_EQ_U(pf_hpm()->event[n], 0);
}
/* nothing lost in the encoder, no sink error */
static void assert_encoder_clean(void) {
    TS_ASSERT_EQ_U(pf_te()->lost, 0);
    TS_ASSERT_EQ_U(pf_te()->control & (1u << 12), 0); /* teStallOrOverflow */
    TS_ASSERT_EQ_U(pf_te()->control & (1u << 27), 0); /* teSinkError */
}

/* ---- decoding --------------------------------------------------------------------------- */

typedef struct store {
    unsigned size;
    uint32_t value;
} store_t;
typedef struct trace {
    perf_header_t h[4];
    unsigned nh;
    perf_record_t *r;
    unsigned nr;
    store_t *st; /* the ITC stores on the perf channel, in order */
    unsigned nst;
    unsigned msgs, bad, truncated, perr;
    unsigned last_tcode; /* TCODE of the last whole message */
    uint64_t last_ckdata0;
} trace_t;

static trace_t *cur;
static perf_dec_t dec;

static void on_header(void *c, const perf_header_t *h) {
    trace_t *t = c;
    if (t->nh < N(t->h)) t->h[t->nh] = *h;
    t->nh++;
}
static void on_record(void *c, const perf_record_t *r) {
    trace_t *t = c;
    t->r = realloc(t->r, (t->nr + 1) * sizeof *t->r);
    if (!t->r) TS_FAIL("out of memory");
    t->r[t->nr++] = *r;
}
static void on_error(void *c, unsigned core, uint64_t off, const char *what) {
    (void)core;
    fprintf(stderr, "perf decoder: offset %llu: %s\n", (unsigned long long)off, what);
    ((trace_t *)c)->perr++;
}
static int on_msg(void *ctx, const nxd_msg_t *m) {
    trace_t *t = ctx;
    t->msgs++;
    if (m->status == NXD_BAD) t->bad++;
    if (m->status == NXD_TRUNCATED) t->truncated++;
    if (m->status != NXD_OK) return 0;
    t->last_tcode = m->tcode;
    t->last_ckdata0 = m->f[NXF_CKDATA0];
    if (m->tcode == NX_DATA_ACQ && m->f[NXF_IDTAG] >> 2 == CH) {
        unsigned k = (unsigned)(m->f[NXF_IDTAG] & 3);
        t->st = realloc(t->st, (t->nst + 1) * sizeof *t->st);
        if (!t->st) TS_FAIL("out of memory");
        t->st[t->nst++] = (store_t){k == 3 ? 1u : k == 2 ? 2u :
                                                           4u,
                                    (uint32_t)m->f[NXF_DATA]};
    }
    perf_dec_feed(&dec, m);
    return 0;
}

static unsigned dec_srcbits; /* SRC field width of the trace (several harts) */
static void decode_bytes(trace_t *t, const uint8_t *b, uint32_t len, unsigned tsbits) {
    memset(t, 0, sizeof *t);
    cur = t;
    perf_dec_cb_t cb = {t, on_header, on_record, on_error};
    perf_dec_init(&dec, CH, &cb);
    nxd_t nx;
    nxd_cfg_t nc = {dec_srcbits, tsbits};
    TS_ASSERT_EQ_I(nxd_init(&nx, &nc), 0);
    nxd_decode(&nx, b, len, on_msg, t);
    perf_dec_finish(&dec);
}
/* decodes the valid bytes of the sink the library uses */
static void decode_sink(trace_t *t, unsigned tsbits) {
    uint32_t len;
    uint8_t *b = pf_trace_image(&len);
    decode_bytes(t, b, len, tsbits);
    free(b);
}
static void trace_free(trace_t *t) {
    free(t->r);
    free(t->st);
    memset(t, 0, sizeof *t);
}
/* a decoded trace with one header, no corrupt message and no perf protocol error */
static void assert_decoded_clean(const trace_t *t) {
    TS_ASSERT_EQ_U(t->nh, 1);
    TS_ASSERT_EQ_U(t->bad, 0);
    TS_ASSERT_EQ_U(t->perr, 0);
}

typedef struct def_exp {
    unsigned index, type;
    uint32_t code;
    uint64_t event_data;
    uint32_t info;
} def_exp_t;

static void check_header(const perf_header_t *h, unsigned count_type, uint32_t mask, const def_exp_t *d, unsigned n) {
    TS_ASSERT_EQ_U(h->count_type, count_type);
    TS_ASSERT_EQ_U(h->mask, mask);
    TS_ASSERT_EQ_U(h->n, n);
    for (unsigned i = 0; i < n; i++) {
        TS_ASSERT_EQ_U(h->def[i].index, d[i].index);
        TS_ASSERT_EQ_U(h->def[i].type, d[i].type);
        if (d[i].type == perfEventHWRaw) TS_ASSERT_EQ_U(h->def[i].event_data, d[i].event_data);
        else
            TS_ASSERT_EQ_U(h->def[i].code, d[i].code);
        TS_ASSERT_EQ_U(h->def[i].info, d[i].info);
    }
}

/* ITC stores of the header (trace-hw-facts 5.4): marker, count type, mask, and 3 per type 0/1
 * definition or 4 per raw one */
static unsigned header_stores(const perf_header_t *h) {
    unsigned n = 3;
    for (unsigned i = 0; i < h->n; i++) n += h->def[i].type == perfEventHWRaw ? 4 : 3;
    return n;
}

static uint64_t wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

/* Every decoded record against the counter reads the library made for it (the fake's log):
 * the read key must fit the counter (perf_port.h: the timestamp; 32 + n, the 64-bit pair, for
 * a counter wider than 32 bits; n, one 32-bit read, or 32 + n for a narrower one); Raw and DeltaXOR decode to the value read, Delta to
 * the change since perfTraceOn ((read - latched) mod 2^width, the latch being the library's
 * reads at perfTraceOn, first in the log); the decoder's per-record delta is the change since
 * the previous read, and the stored value is that change (Delta), the XOR with the previous
 * read (DeltaXOR) or the read itself (Raw). Records cut off at the end are checked as far as
 * they go. all_reads: every logged read belongs to a decoded record. */
static void check_values(const trace_t *t, unsigned ct, bool all_reads) {
    const pf_read_t *log;
    unsigned nlog = pf_reads(&log), at = 0;
    const perf_header_t *h = &t->h[0];
    uint64_t latch[32] = {0}, prev[32] = {0};
    if (ct == perfCount_Delta) {
        TS_ASSERT(nlog >= h->n);
        for (unsigned i = 0; i < h->n; i++) latch[i] = prev[i] = log[at++].value;
    }
    for (unsigned k = 0; k < t->nr; k++) {
        const perf_record_t *r = &t->r[k];
        if (!r->truncated) TS_ASSERT_EQ_U(r->n, h->n);
        for (unsigned i = 0; i < r->n; i++) {
            const perf_counter_def_t *d = &h->def[i];
            if (at >= nlog) TS_FAIL("record %u counter %u: no counter read logged for it", k, i);
            pf_read_t e = log[at++];
            bool key_ok = d->index == 1 ? e.key == PF_KEY_TS : e.key == 32 + d->index || (d->width <= 32 && e.key == d->index);
            if (!key_ok) TS_FAIL("record %u counter %u (%u bits): read key %u", k, d->index, d->width, e.key);
            uint64_t m = wmask(d->width), v = e.value;
            uint64_t wire = ct == perfCount_Raw ? v : ct == perfCount_Delta ? (v - prev[i]) & m :
                                                                              v ^ prev[i];
            uint64_t abs = ct == perfCount_Delta ? (v - latch[i]) & m : v;
            if (r->raw[i] != wire || r->value[i] != abs || r->delta[i] != ((v - prev[i]) & m))
                TS_FAIL("record %u counter %u: read 0x%llx (previous 0x%llx): stored 0x%llx (expected 0x%llx), "
                        "value 0x%llx (expected 0x%llx), delta 0x%llx",
                        k, d->index, (unsigned long long)v, (unsigned long long)prev[i], (unsigned long long)r->raw[i],
                        (unsigned long long)wire, (unsigned long long)r->value[i], (unsigned long long)abs,
                        (unsigned long long)r->delta[i]);
            prev[i] = v;
        }
    }
    if (all_reads) TS_ASSERT_EQ_U(at, nlog);
}

static const uint8_t *file_or_fail(const char *name, uint32_t *len) {
    const uint8_t *f = pf_file(name, len);
    if (!f) TS_FAIL("no host file '%s' was written", name);
    return f;
}

static __attribute__((noinline)) int record_here(void) { return perfWriteCntrs(); }

/* ================================ errors =================================================== */

TS_TEST(err_perfinit_twice) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_ERR_INIT_TWICE);
    TS_ASSERT_EQ_I(perfInit(2, 0), PERF_ERR_INIT_TWICE);
    TS_ASSERT_EQ_I(perfInit(0, 0), PERF_ERR_INIT_TWICE); /* "called again" comes first */
    TS_ASSERT_EQ_U(pf_cycles(), 0);
}

TS_TEST(err_perfinit_args) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(0, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfInit(-1, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfInit(PERF_MAX_CORES + 1, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfInit(1, -1), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfInit(1, 2), PERF_ERR_ARG);
    /* a rejected perfInit leaves nothing behind */
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
}

TS_TEST(err_num_funnels_vs_fmm) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.funnel = true;
    c.te.has_funnel = true;
    BEGIN(&c);
    fmm = NULL;
    TS_ASSERT_EQ_I(perfInit(1, 1), PERF_ERR_ARG); /* a funnel, but fmm is NULL */
    fmm = (struct TfTraceRegMemMap *)PF_FUNNEL_BASE;
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_ERR_ARG); /* fmm, but no funnel */
    TS_ASSERT_EQ_U(pf_cycles(), 0);               /* argument errors touch nothing */
    TS_ASSERT_EQ_I(perfInit(1, 1), PERF_OK);
    TS_ASSERT_EQ_U(pf_cycles(), 1); /* one read: teImpl.hasFunnelSink */
    TS_ASSERT_EQ_U(pf_funnel_writes(), 0);
}

TS_TEST(err_init_before_perfinit) {
    BEGIN(NULL);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfTimerISRInit(l, 1, CH, perfCount_Raw, 0, 100), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfWriteCntrs(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_U(st.initialized, 0);
    TS_ASSERT_EQ_U(l[0].ctrIdx, 0xDEAD); /* the list is not written */
    TS_ASSERT_EQ_U(pf_cycles(), 0);
    TS_ASSERT_EQ_U(pf_timer()->starts, 0);
    TS_ASSERT_EQ_U(pf_host_writes(), 0);
    assert_counters_untouched();
}

/* perfInit done, but this core ran no perfXXXInit: every call but an init says so, the hooks
 * and the timer handler do nothing */
TS_TEST(err_calls_before_core_init) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfWriteCntrs(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_ERR_NOT_INIT);
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_ERR_NOT_INIT);
    __cyg_profile_func_enter((void *)0x80001000u, (void *)0x80002000u);
    __cyg_profile_func_exit((void *)0x80001000u, (void *)0x80002000u);
    perf_timer_tick(0x80003000u);
    TS_ASSERT_EQ_U(pf_timer()->cmp_writes, 0);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
    TS_ASSERT_EQ_U(pf_host_writes(), 0);
}

TS_TEST(err_null_list) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfManualInit(NULL, 1, CH, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfManualInit(NULL, 0, CH, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(NULL, 1, CH, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfTimerISRInit(NULL, 1, CH, perfCount_Raw, 0, 100), PERF_ERR_ARG);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
    TS_ASSERT_EQ_U(pf_timer()->starts, 0);
}

TS_TEST(err_count_out_of_range) {
    BEGIN(NULL);
    perfEvent l[33];
    for (unsigned i = 0; i < N(l); i++) l[i] = RAW(EV_LOAD);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfManualInit(l, -1, CH, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfManualInit(l, 33, CH, perfCount_Raw, 0), PERF_ERR_TOO_MANY);
    TS_ASSERT_EQ_I(perfManualInit(l, 1000, CH, perfCount_Raw, 0), PERF_ERR_TOO_MANY);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
    for (unsigned i = 0; i < N(l); i++) TS_ASSERT_EQ_U(l[i].ctrIdx, 0xDEAD);
}

TS_TEST(err_channel_out_of_range) {
    BEGIN(NULL);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, -1, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, 32, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 1, 32, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
}

TS_TEST(err_bad_count_type) {
    BEGIN(NULL);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, (perfCountType_t)3, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, (perfCountType_t)-1, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
}

/* a list with one bad event: the code, nothing traced, no counter touched; a good list
 * afterwards initialises (a failed init leaves no state) */
static void expect_event_error(perfEvent bad, int code) {
    perfEvent l[] = {GEN(HW_CPU_CYCLES), bad, GEN(HW_INSTRUCTIONS)};
    int rc = perfManualInit(l, 3, CH, perfCount_Raw, 0);
    if (rc != code) TS_FAIL("event type %d code %d event_data 0x%lx: %d (%s), expected %d", bad.type, bad.code,
                            bad.event_data, rc, perfErrorString(rc), code);
    assert_no_trace();
    assert_counters_untouched();
    for (unsigned i = 0; i < N(l); i++) TS_ASSERT_EQ_U(l[i].ctrIdx, 0xDEAD);
}
static void expect_good_list_after_errors(void) {
    perfEvent l[] = {GEN(HW_CPU_CYCLES), RAW(EV_LOAD)};
    TS_ASSERT_EQ_I(perfManualInit(l, 2, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(l[1].ctrIdx, 3);
    TS_ASSERT_EQ_U(pf_hpm()->event[3], EV_LOAD);
}

TS_TEST(err_unknown_event_type) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    expect_event_error(TYPE(3), PERF_ERR_EVENT_TYPE);
    expect_event_error(TYPE(-1), PERF_ERR_EVENT_TYPE);
    expect_event_error(TYPE(14), PERF_ERR_EVENT_TYPE);
    expect_event_error(TYPE(perfEventFW), PERF_ERR_EVENT_TYPE); /* no firmware events */
    expect_good_list_after_errors();
}

TS_TEST(err_unknown_general_code) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    expect_event_error(GEN(HW_NO_EVENT), PERF_ERR_EVENT_CODE);
    expect_event_error(GEN(99), PERF_ERR_EVENT_CODE);
    expect_event_error(GEN(11), PERF_ERR_EVENT_CODE); /* one past REF_CPU_CYCLES */
    expect_event_error(GEN(HW_TIMESTAMP + 1), PERF_ERR_EVENT_CODE);
    expect_event_error(GEN(-1), PERF_ERR_EVENT_CODE);
    expect_good_list_after_errors();
}

TS_TEST(err_unknown_cache_fields) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    expect_event_error(CACHE(7, 0, 0), PERF_ERR_EVENT_CODE); /* ids 0..6 */
    expect_event_error(CACHE(-1, 0, 0), PERF_ERR_EVENT_CODE);
    expect_event_error(CACHE(0, 3, 0), PERF_ERR_EVENT_CODE); /* ops 0..2 */
    expect_event_error(CACHE(0, -1, 0), PERF_ERR_EVENT_CODE);
    expect_event_error(CACHE(0, 0, 2), PERF_ERR_EVENT_CODE); /* results 0..1 */
    expect_event_error(CACHE(0, 0, -1), PERF_ERR_EVENT_CODE);
    expect_good_list_after_errors();
}

/* rtl_model/regs/sbi_events.def: BUS_CYCLES and REF_CPU_CYCLES have no mhpmevent, the L1D
 * write miss is 0 (write-through, no allocate); LL, DTLB, ITLB, NODE events are not listed */
TS_TEST(err_unsupported_platform_event) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    expect_event_error(GEN(HW_BUS_CYCLES), PERF_ERR_UNSUPPORTED);
    expect_event_error(GEN(HW_REF_CPU_CYCLES), PERF_ERR_UNSUPPORTED);
    expect_event_error(CACHE(HW_CACHE_L1D, HW_CACHE_OP_WRITE, HW_CACHE_RESULT_MISS), PERF_ERR_UNSUPPORTED);
    expect_event_error(CACHE(HW_CACHE_LL, HW_CACHE_OP_READ, HW_CACHE_RESULT_ACCESS), PERF_ERR_UNSUPPORTED);
    expect_event_error(CACHE(HW_CACHE_L1I, HW_CACHE_OP_PREFETCH, HW_CACHE_RESULT_MISS), PERF_ERR_UNSUPPORTED);
    expect_good_list_after_errors();
}

/* raw values must select events of hpm_events.def: class 0..3 in 7:0, only defined bits */
TS_TEST(err_raw_event_selects_nothing) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    expect_event_error(RAW(0), PERF_ERR_UNSUPPORTED);
    expect_event_error(RAW(0x3), PERF_ERR_UNSUPPORTED);               /* class 3, no event bit */
    expect_event_error(RAW(0x107), PERF_ERR_UNSUPPORTED);             /* class 7 */
    expect_event_error(RAW(0x1FF), PERF_ERR_UNSUPPORTED);             /* class 255 */
    expect_event_error(RAW(0x80000), PERF_ERR_UNSUPPORTED);           /* class 0 bit 19: undefined */
    expect_event_error(RAW(0x40001), PERF_ERR_UNSUPPORTED);           /* class 1 bit 18: undefined */
    expect_event_error(RAW(0x1002), PERF_ERR_UNSUPPORTED);            /* class 2 bit 12: undefined */
    expect_event_error(RAW(EV_LOAD | 0x80000), PERF_ERR_UNSUPPORTED); /* one good, one undefined bit */
#if ULONG_MAX > 0xFFFFFFFFu
    expect_event_error(RAW(0x100000000ul | EV_LOAD), PERF_ERR_UNSUPPORTED); /* beyond mhpmevent */
#endif
    expect_good_list_after_errors();
}

TS_TEST(err_more_events_than_counters) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.n_hpm = 2; /* mhpmcounter3, 4 */
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent three[] = {GEN(HW_CPU_CYCLES), RAW(EV_LOAD), GEN(HW_CACHE_MISSES), RAW(EV_STORE), GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfManualInit(three, 5, CH, perfCount_Raw, 0), PERF_ERR_NO_COUNTER);
    assert_no_trace();
    assert_counters_untouched();
    /* two fit: every counter the hardware has, fixed ones included */
    perfEvent two[] = {RAW(EV_STORE), GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP), GEN(HW_INSTRUCTIONS), GEN(HW_CACHE_MISSES)};
    TS_ASSERT_EQ_I(perfManualInit(two, 5, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(two[0].ctrIdx, 3);
    TS_ASSERT_EQ_U(two[4].ctrIdx, 4);
    TS_ASSERT_EQ_U(pf_hpm()->event[4], 0x402); /* CACHE_MISSES = D-cache miss */
    TS_ASSERT_EQ_U(pf_hpm()->counteren, 0x1F); /* the probe, left open */
}

TS_TEST(err_no_programmable_counter) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.n_hpm = 0;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), RAW(EV_LOAD)};
    TS_ASSERT_EQ_I(perfManualInit(l, 2, CH, perfCount_Raw, 0), PERF_ERR_NO_COUNTER);
    assert_no_trace();
    assert_counters_untouched();
}

TS_TEST(err_fixed_counter_twice) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent cyc[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS), GEN(HW_CPU_CYCLES)};
    perfEvent ts[] = {GEN(HW_TIMESTAMP), RAW(EV_LOAD), GEN(HW_TIMESTAMP)};
    perfEvent ins[] = {GEN(HW_INSTRUCTIONS), GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfManualInit(cyc, 3, CH, perfCount_Raw, 0), PERF_ERR_DUPLICATE);
    TS_ASSERT_EQ_I(perfManualInit(ts, 3, CH, perfCount_Raw, 0), PERF_ERR_DUPLICATE);
    TS_ASSERT_EQ_I(perfManualInit(ins, 2, CH, perfCount_Raw, 0), PERF_ERR_DUPLICATE);
    assert_no_trace();
    assert_counters_untouched();
    /* the same raw event twice is two counters, not a duplicate */
    perfEvent raw2[] = {RAW(EV_LOAD), RAW(EV_LOAD)};
    TS_ASSERT_EQ_I(perfManualInit(raw2, 2, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(raw2[0].ctrIdx, 3);
    TS_ASSERT_EQ_U(raw2[1].ctrIdx, 4);
}

TS_TEST(err_sba_larger_than_pool) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, POOL + 1), PERF_ERR_POOL);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0xFFFFFFFFu), PERF_ERR_POOL);
    assert_no_trace();
    assert_counters_untouched();
    /* exactly the pool fits */
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, POOL), PERF_OK);
    TS_ASSERT_EQ_U(pf_te()->control >> 28, 7); /* SBA sink */
    TS_ASSERT_EQ_U(pf_te()->sink.base, PF_BUS_BASE);
    TS_ASSERT_EQ_U(pf_te()->sink.limit, PF_BUS_BASE + POOL - 4);
}

/* the second core's buffer does not fit in what the first one left */
TS_TEST(err_sba_larger_than_pool_left) {
    BEGIN(NULL);
    tmm[1] = tmm[0]; /* one encoder model serves both harts' probes here */
    TS_ASSERT_EQ_I(perfInit(2, 0), PERF_OK);
    perfEvent l0[] = {GEN(HW_CPU_CYCLES)}, l1[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l0, 1, CH, perfCount_Raw, POOL - 64), PERF_OK);
    unsigned writes = pf_csr_writes();
    pf_set_hart(1);
    TS_ASSERT_EQ_I(perfManualInit(l1, 1, CH, perfCount_Raw, 128), PERF_ERR_POOL);
    TS_ASSERT_EQ_U(pf_csr_writes(), writes);
    TS_ASSERT_EQ_U(l1[0].ctrIdx, 0xDEAD);
}

TS_TEST(err_hart_outside_num_cores) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    pf_set_hart(1);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_CORE);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_CORE);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_ERR_NOT_INIT);
    pf_set_hart(PERF_MAX_CORES);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_CORE);
    TS_ASSERT_EQ_I(perfWriteCntrs(), PERF_ERR_NOT_INIT);
    pf_set_hart(1000);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
}

TS_TEST(err_tmm_entry_null) {
    BEGIN(NULL);
    tmm[1] = NULL;
    TS_ASSERT_EQ_I(perfInit(2, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    pf_set_hart(1);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_NO_TRACE);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
    TS_ASSERT_EQ_U(pf_csr_writes(), 0);
}

/* a funnel (fmm) but an encoder that cannot sink into one (teImpl bit 8 clear), as firmware
 * built for the funnel sees a SoC without one (tracesim run without --funnel, where the
 * funnel's page is unmapped): perfInit says PERF_ERR_NO_TRACE after reading the encoder's
 * teImpl only, never the funnel */
TS_TEST(err_encoder_without_funnel_port) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.funnel = true;
    c.te.has_funnel = false;
    BEGIN(&c);
    fmm = (struct TfTraceRegMemMap *)PF_FUNNEL_BASE;
    TS_ASSERT_EQ_I(perfInit(1, 1), PERF_ERR_NO_TRACE);
    TS_ASSERT_EQ_U(pf_cycles(), 1); /* the teImpl read, nothing else */
    TS_ASSERT_EQ_U(pf_funnel_writes(), 0);
    TS_ASSERT_EQ_U(pf_te_writes(0), 0);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_NOT_INIT); /* perfInit failed */
    assert_no_trace();
    assert_counters_untouched();
}

TS_TEST(err_core_init_twice) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)}, l2[] = {GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_OK);
    uint64_t cycles = pf_cycles();
    unsigned writes = pf_csr_writes();
    TS_ASSERT_EQ_I(perfManualInit(l2, 1, CH, perfCount_Raw, 0), PERF_ERR_INIT_TWICE);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l2, 1, CH, perfCount_Raw, 0), PERF_ERR_INIT_TWICE);
    TS_ASSERT_EQ_I(perfTimerISRInit(l2, 1, CH, perfCount_Raw, 0, 100), PERF_ERR_INIT_TWICE);
    TS_ASSERT_EQ_U(pf_cycles(), cycles); /* no hardware access at all */
    TS_ASSERT_EQ_U(pf_csr_writes(), writes);
    TS_ASSERT_EQ_U(pf_timer()->starts, 0);
    TS_ASSERT_EQ_U(l2[0].ctrIdx, 0xDEAD);
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, 0);
}

TS_TEST(err_timer_interval) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfTimerISRInit(l, 1, CH, perfCount_Raw, 0, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfTimerISRInit(l, 1, CH, perfCount_Raw, 0, -100), PERF_ERR_ARG);
    TS_ASSERT_EQ_U(pf_cycles(), 0);
    TS_ASSERT_EQ_U(pf_timer()->starts, 0);
}

TS_TEST(err_timer_start_fails) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.timer_start_rc = 1;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfTimerISRInit(l, 1, CH, perfCount_Raw, 0, 100), PERF_ERR_TIMER);
    TS_ASSERT_EQ_U(pf_timer()->starts, 1);
    /* the core is not initialised after that */
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfWriteCntrs(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, 0);
}

/* simctrl rejects a name with '/', ".", ".." (status 1); the library reports PERF_ERR_IO and
 * writes nothing; an empty name is the library's own PERF_ERR_ARG */
TS_TEST(err_write_trace_bad_name) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    char slash[] = "a/b", dot[] = ".", dotdot[] = "..", empty[] = "";
    TS_ASSERT_EQ_I(perfWriteTrace(slash), PERF_ERR_IO);
    TS_ASSERT_EQ_I(perfWriteTrace(dot), PERF_ERR_IO);
    TS_ASSERT_EQ_I(perfWriteTrace(dotdot), PERF_ERR_IO);
    TS_ASSERT_EQ_I(perfWriteTrace(empty), PERF_ERR_ARG);
    TS_ASSERT_EQ_U(pf_file_count(), 0);
    /* tracing goes on after the failed writes */
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.recording, 1);
    uint64_t stores = pf_te()->itc_accepted;
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT(pf_te()->itc_accepted > stores);
    char ok[] = "ok.rtd";
    TS_ASSERT_EQ_I(perfWriteTrace(ok), PERF_OK);
    TS_ASSERT_EQ_U(pf_file_count(), 1);
}

TS_TEST(err_status_null) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfGetTraceStatus(NULL), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfGetTraceStatus(NULL), PERF_ERR_ARG);
}

TS_TEST(error_strings) {
    BEGIN(NULL);
    const char *s[PERF_ERR_BUSY + 1];
    for (int e = PERF_OK; e <= PERF_ERR_BUSY; e++) {
        s[e] = perfErrorString(e);
        TS_ASSERT(s[e] && *s[e]);
        if (!strcmp(s[e], "unknown error")) TS_FAIL("code %d has no text", e);
        for (int k = 0; k < e; k++)
            if (!strcmp(s[k], s[e])) TS_FAIL("codes %d and %d have the same text", k, e);
    }
    TS_ASSERT_STR_EQ(perfErrorString(PERF_ERR_BUSY + 1), "unknown error");
    TS_ASSERT_STR_EQ(perfErrorString(-1), "unknown error");
}

/* ================================ header and counters ====================================== */

/* trace-hw-facts 5.2-5.4 by hand: cycles -> 0, timestamp -> 1, instructions -> 2, the others
 * 3.. in list order; counter_info = (width - 1) << 12 | user CSR (0 for the timestamp) */
TS_TEST(header_canonical_list) {
    BEGIN(NULL);                                            /* widths 64/64/40, timestamp 40 */
    hpm_csr_write(pf_hpm(), 0x320, (1u << 3) | (1u << 10)); /* inhibit 3 and 10 beforehand */
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP), GEN(HW_INSTRUCTIONS), RAW(EV_LOAD),
                     GEN(HW_CACHE_MISSES), CACHE(HW_CACHE_L1I, HW_CACHE_OP_READ, HW_CACHE_RESULT_MISS)};
    TS_ASSERT_EQ_I(perfManualInit(l, 6, CH, perfCount_Raw, 0), PERF_OK);
    static const unsigned idx[] = {0, 1, 2, 3, 4, 5};
    static const uint32_t info[] = {INFO_CYCLE, INFO_TS40, INFO_INSTRET, INFO_HPM(40, 3), INFO_HPM(40, 4), INFO_HPM(40, 5)};
    for (unsigned i = 0; i < 6; i++) {
        TS_ASSERT_EQ_U(l[i].ctrIdx, idx[i]);
        TS_ASSERT_EQ_U(l[i].ctrInfo, info[i]);
    }
    /* counters: events programmed, mcountinhibit cleared for ours only, mcounteren open */
    TS_ASSERT_EQ_U(pf_hpm()->event[3], EV_LOAD);
    TS_ASSERT_EQ_U(pf_hpm()->event[4], 0x402); /* sbi_events.def CACHE_MISSES */
    TS_ASSERT_EQ_U(pf_hpm()->event[5], 0x102); /* sbi_events.def L1I_READ_MISS */
    TS_ASSERT_EQ_U(pf_hpm()->inhibit, 1u << 10);
    TS_ASSERT_EQ_U(pf_hpm()->counteren, 0xFFFFFFFFu);
    /* encoder (5.3): SRAM sink, sync counters off, stop-on-wrap, ITC mode 1, active, enable,
     * tracing; timestamps on ITC/Ownership, branch 3, counting */
    TS_ASSERT_EQ_U(pf_te()->control, 0x40FF4087u);
    TS_ASSERT_EQ_U(pf_te()->itc_enable, 1u << CH);
    TS_ASSERT_EQ_U(pf_te()->ts.control, 0x000F8003u);
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, 0); /* the header waits for perfTraceOn */

    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 0);
    const def_exp_t d[] = {{0, 0, HW_CPU_CYCLES, 0, INFO_CYCLE},
                           {1, 0, HW_TIMESTAMP, 0, INFO_TS40},
                           {2, 0, HW_INSTRUCTIONS, 0, INFO_INSTRET},
                           {3, 2, 0, EV_LOAD, INFO_HPM(40, 3)},
                           {4, 0, HW_CACHE_MISSES, 0, INFO_HPM(40, 4)},
                           {5, 1, (1 << 3) | (0 << 1) | 1, 0, INFO_HPM(40, 5)}}; /* SBI cache code */
    check_header(&t.h[0], perfCount_Raw, 0x3F, d, 6);
    TS_ASSERT(t.h[0].tics_valid); /* after the trace-start ICT-WS */
    /* the store sequence of 5.4: marker 32-bit, count type 8-bit, mask 32-bit, the raw
     * definition as type, event_data low, high, counter_info */
    TS_ASSERT_EQ_U(t.nst, header_stores(&t.h[0]));
    TS_ASSERT_EQ_U(t.nst, 3 + 5 * 3 + 4);
    TS_ASSERT_EQ_U(t.st[0].size, 4);
    TS_ASSERT_EQ_U(t.st[0].value, 0x70657266u);
    TS_ASSERT_EQ_U(t.st[1].size, 1);
    TS_ASSERT_EQ_U(t.st[1].value, 0);
    TS_ASSERT_EQ_U(t.st[2].value, 0x3F);
    const store_t raw_def[] = {{4, 2}, {4, EV_LOAD}, {4, 0}, {4, INFO_HPM(40, 3)}};
    for (unsigned i = 0; i < 4; i++) {
        TS_ASSERT_EQ_U(t.st[3 + 9 + i].size, raw_def[i].size);
        TS_ASSERT_EQ_U(t.st[3 + 9 + i].value, raw_def[i].value);
    }
    assert_encoder_clean();
    trace_free(&t);
}

/* raw events before cycles and instructions (the original library sizes its table by list
 * position and breaks on this); 12-bit programmable counters */
TS_TEST(header_raw_events_first) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.width_hpm = 12;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {RAW(EV_STORE), RAW(EV_BR_MISPREDICT), GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfManualInit(l, 4, CH, perfCount_Raw, 0), PERF_OK);
    static const unsigned idx[] = {3, 4, 0, 2};
    static const uint32_t info[] = {(11 << 12) | 0xC03, (11 << 12) | 0xC04, INFO_CYCLE, INFO_INSTRET};
    for (unsigned i = 0; i < 4; i++) {
        TS_ASSERT_EQ_U(l[i].ctrIdx, idx[i]);
        TS_ASSERT_EQ_U(l[i].ctrInfo, info[i]);
    }
    TS_ASSERT_EQ_U(pf_hpm()->event[3], EV_STORE);
    TS_ASSERT_EQ_U(pf_hpm()->event[4], EV_BR_MISPREDICT);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 3; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    const def_exp_t d[] = {{0, 0, HW_CPU_CYCLES, 0, INFO_CYCLE},
                           {2, 0, HW_INSTRUCTIONS, 0, INFO_INSTRET},
                           {3, 2, 0, EV_STORE, (11 << 12) | 0xC03},
                           {4, 2, 0, EV_BR_MISPREDICT, (11 << 12) | 0xC04}};
    check_header(&t.h[0], perfCount_Raw, 0x1D, d, 4);
    TS_ASSERT_EQ_U(t.nr, 3);
    check_values(&t, perfCount_Raw, true);
    assert_encoder_clean();
    trace_free(&t);
}

/* the list the README names: cycles, instret, raw */
TS_TEST(header_cycles_instret_raw) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS), RAW(EV_LD_ST)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(l[0].ctrIdx, 0);
    TS_ASSERT_EQ_U(l[1].ctrIdx, 2);
    TS_ASSERT_EQ_U(l[2].ctrIdx, 3);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    const def_exp_t d[] = {{0, 0, HW_CPU_CYCLES, 0, INFO_CYCLE},
                           {2, 0, HW_INSTRUCTIONS, 0, INFO_INSTRET},
                           {3, 2, 0, EV_LD_ST, INFO_HPM(40, 3)}};
    check_header(&t.h[0], perfCount_Raw, 0xD, d, 3);
    TS_ASSERT_EQ_U(t.nr, 1);
    check_values(&t, perfCount_Raw, true);
    trace_free(&t);
}

/* all 32 counter indices: 29 raw events first, then the three fixed ones */
TS_TEST(all_32_counters) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[32];
    for (unsigned i = 0; i < 29; i++) l[i] = RAW(i & 1 ? EV_STORE : EV_LOAD);
    l[29] = GEN(HW_CPU_CYCLES);
    l[30] = GEN(HW_TIMESTAMP);
    l[31] = GEN(HW_INSTRUCTIONS);
    TS_ASSERT_EQ_I(perfManualInit(l, 32, CH, perfCount_Raw, 0), PERF_OK);
    for (unsigned i = 0; i < 29; i++) {
        TS_ASSERT_EQ_U(l[i].ctrIdx, 3 + i);
        TS_ASSERT_EQ_U(l[i].ctrInfo, INFO_HPM(40, 3 + i));
        TS_ASSERT_EQ_U(pf_hpm()->event[3 + i], i & 1 ? EV_STORE : EV_LOAD);
    }
    TS_ASSERT_EQ_U(l[29].ctrIdx, 0);
    TS_ASSERT_EQ_U(l[30].ctrIdx, 1);
    TS_ASSERT_EQ_U(l[31].ctrIdx, 2);
    TS_ASSERT_EQ_U(pf_hpm()->inhibit, 0);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 2; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.h[0].mask, 0xFFFFFFFFu);
    TS_ASSERT_EQ_U(t.h[0].n, 32);
    for (unsigned i = 3; i < 32; i++) {
        TS_ASSERT_EQ_U(t.h[0].def[i].type, perfEventHWRaw);
        TS_ASSERT_EQ_U(t.h[0].def[i].info, INFO_HPM(40, i));
    }
    TS_ASSERT_EQ_U(t.nr, 2);
    check_values(&t, perfCount_Raw, true);
    /* the counters did count: loads and stores differ, each moved between the records */
    for (unsigned i = 3; i < 32; i++) TS_ASSERT(t.r[1].delta[i] > 0);
    assert_encoder_clean();
    trace_free(&t);
}

/* an empty list: mask 0, records with the address only */
TS_TEST(no_counters) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[1] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 0, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(l[0].ctrIdx, 0xDEAD);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.h[0].mask, 0);
    TS_ASSERT_EQ_U(t.nr, 2);
    TS_ASSERT_EQ_U(t.r[0].n, 0);
    TS_ASSERT_EQ_U(t.r[0].type, PERF_MANUAL);
    TS_ASSERT_EQ_U(t.r[0].addr, t.r[1].addr);
    const pf_read_t *log;
    TS_ASSERT_EQ_U(pf_reads(&log), 0);
    trace_free(&t);
}

/* ================================ values =================================================== */

/* whether log entry e is a read of counter n (1: the timestamp) with either key */
static bool is_read_of(const pf_read_t *e, unsigned n) {
    return n == 1 ? e->key == PF_KEY_TS : e->key == n || e->key == 32 + n;
}
/* how often the reads of counter n went down (wrapped) */
static unsigned log_wraps(unsigned n) {
    const pf_read_t *log;
    unsigned nlog = pf_reads(&log), wraps = 0;
    uint64_t last = 0;
    bool seen = false;
    for (unsigned i = 0; i < nlog; i++)
        if (is_read_of(&log[i], n)) {
            if (seen && log[i].value < last) wraps++;
            last = log[i].value;
            seen = true;
        }
    return wraps;
}
/* whether the high word (bits 63:32) of the reads of counter n changed: a carry out of the
 * low word */
static bool log_high_word_carried(unsigned n) {
    const pf_read_t *log;
    unsigned nlog = pf_reads(&log);
    bool seen = false;
    uint64_t first = 0;
    for (unsigned i = 0; i < nlog; i++)
        if (is_read_of(&log[i], n)) {
            if (!seen) first = log[i].value >> 32;
            else if (log[i].value >> 32 != first)
                return true;
            seen = true;
        }
    return false;
}

/* Raw: 40-bit values above 32 bits go out as the low word and a 16-bit store of bits 47:32 */
TS_TEST(raw_values_above_32_bits) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), RAW(EV_MMIO)};
    TS_ASSERT_EQ_I(perfManualInit(l, 2, CH, perfCount_Raw, 0), PERF_OK);
    hpm_csr_write(pf_hpm(), 0xB03, 0x34567800u); /* mhpmcounter3 = 0x12_3456_7800 */
    hpm_csr_write(pf_hpm(), 0xB83, 0x12u);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 3; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 3);
    check_values(&t, perfCount_Raw, true);
    /* each record: type, address (2 words on the host), cycles, counter 3 low, 16-bit high */
    unsigned at = header_stores(&t.h[0]);
    for (unsigned k = 0; k < 3; k++, at += 6) {
        TS_ASSERT(at + 6 <= t.nst);
        TS_ASSERT_EQ_U(t.st[at].size, 1);
        TS_ASSERT_EQ_U(t.st[at + 4].size, 4);
        TS_ASSERT_EQ_U(t.st[at + 5].size, 2);
        TS_ASSERT_EQ_U(t.st[at + 5].value, 0x12);
        TS_ASSERT(t.r[k].value[1] > 0x1234567800ull);
    }
    trace_free(&t);
}

/* Delta across a wrap of a 12-bit counter: every stored value is the change mod 2^12 */
TS_TEST(delta_wrap_12bit) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.width_hpm = 12;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS), RAW(EV_MMIO)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Delta, 0), PERF_OK);
    hpm_csr_write(pf_hpm(), 0xB03, 4096 - 150); /* near the top of 12 bits */
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 40; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(log_wraps(3), 1); /* precondition: it wrapped once */
    const pf_read_t *log;
    TS_ASSERT_EQ_U(pf_reads(&log), 3 + 40 * 3); /* latched at perfTraceOn, then 3 a record */
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.h[0].count_type, PERF_DELTA);
    TS_ASSERT_EQ_U(t.h[0].def[2].info, (11 << 12) | 0xC03);
    TS_ASSERT_EQ_U(t.nr, 40);
    check_values(&t, perfCount_Delta, true);
    for (unsigned k = 0; k < t.nr; k++) TS_ASSERT(t.r[k].raw[2] < 4096);
    assert_encoder_clean();
    trace_free(&t);
}

/* DeltaXOR across the same wrap, with the timestamp: values decode to the counters as read;
 * the first XOR is against 0 (no latch at perfTraceOn); manual-record addresses are XORed too */
TS_TEST(deltaxor_wrap_12bit) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.width_hpm = 12;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP), GEN(HW_INSTRUCTIONS), RAW(EV_MMIO)};
    TS_ASSERT_EQ_I(perfManualInit(l, 4, CH, perfCount_DeltaXOR, 0), PERF_OK);
    hpm_csr_write(pf_hpm(), 0xB03, 4096 - 150);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    const pf_read_t *log;
    TS_ASSERT_EQ_U(pf_reads(&log), 0); /* nothing latched */
    for (int i = 0; i < 40; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(log_wraps(3), 1);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.h[0].count_type, PERF_DELTA_XOR);
    TS_ASSERT_EQ_U(t.nr, 40);
    check_values(&t, perfCount_DeltaXOR, true);
    /* addresses: the first record XORs against 0 (a host address: low word | 1, high word),
     * the next ones against the same call site: one word 0 */
    uint64_t a = t.r[0].addr;
    TS_ASSERT(a >> 32);
    unsigned at = header_stores(&t.h[0]);
    TS_ASSERT_EQ_U(t.st[at].size, 1);
    TS_ASSERT_EQ_U(t.st[at].value, PERF_MANUAL);
    TS_ASSERT_EQ_U(t.st[at + 1].value, (uint32_t)a | 1u);
    TS_ASSERT_EQ_U(t.st[at + 2].value, (uint32_t)(a >> 32));
    for (unsigned k = 0; k < t.nr; k++) TS_ASSERT_EQ_U(t.r[k].addr, a);
    at += 1 + 2 + 4;                  /* type, 2 address words, 4 values */
    while (t.st[at].size == 2) at++;  /* high parts, if any */
    TS_ASSERT_EQ_U(t.st[at].size, 1); /* record 2 */
    TS_ASSERT_EQ_U(t.st[at + 1].size, 4);
    TS_ASSERT_EQ_U(t.st[at + 1].value, 0);
    TS_ASSERT_EQ_U(t.st[at + 2].size, 4); /* the first value follows at once */
    assert_encoder_clean();
    trace_free(&t);
}

/* wide counters (read high/low/high): mcycle crossing 2^32, a 40-bit counter wrapping at
 * 2^40, minstret with bit 32 set carrying into bit 33 */
static void wide_counters(int ct) {
    pf_cfg_t c;
    pf_default_cfg(&c); /* widths 64/64/40 */
    begin_models(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS), RAW(EV_MMIO)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, (perfCountType_t)ct, 0), PERF_OK);
    hpm_t *h = pf_hpm();
    hpm_csr_write(h, 0xB00, 0xFFFFFF00u); /* mcycle = 2^32 - 256 */
    hpm_csr_write(h, 0xB02, 0xFFFFFF00u); /* minstret = 0x1_FFFF_FF00 */
    hpm_csr_write(h, 0xB82, 1);
    hpm_csr_write(h, 0xB03, 0xFFFFFF38u); /* mhpmcounter3 = 2^40 - 200 */
    hpm_csr_write(h, 0xB83, 0xFF);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 30; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT(log_high_word_carried(0)); /* preconditions: mcycle past 2^32, */
    TS_ASSERT(log_high_word_carried(2)); /* minstret past 2^33, */
    TS_ASSERT_EQ_U(log_wraps(3), 1);     /* counter 3 past 2^40 */
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.h[0].def[2].info, INFO_HPM(40, 3));
    TS_ASSERT_EQ_U(t.nr, 30);
    check_values(&t, ct, true);
    if (ct == perfCount_Delta) /* changes are small: one word each */
        for (unsigned i = header_stores(&t.h[0]); i < t.nst; i++) TS_ASSERT(t.st[i].size != 2);
    assert_encoder_clean();
    trace_free(&t);
}

TS_TEST(delta_wide_counters_carry_and_wrap) {
    if (run_elsewhere()) return;
    wide_counters(perfCount_Delta);
}

TS_TEST(deltaxor_wide_counters_carry_and_wrap) {
    if (run_elsewhere()) return;
    wide_counters(perfCount_DeltaXOR);
}

/* narrow fixed counters (20-bit mcycle, 32-bit minstret: one csrr each) and a 24-bit
 * timestamp, all wrapping or near the top, in Delta */
TS_TEST(delta_narrow_fixed_counters) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.width_cycle = 20;
    c.hpm.width_instret = 32;
    c.te.ts_width = 24;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_TIMESTAMP), GEN(HW_INSTRUCTIONS), GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Delta, 0), PERF_OK);
    TS_ASSERT_EQ_U(l[0].ctrInfo, 23u << 12);
    TS_ASSERT_EQ_U(l[1].ctrInfo, (31u << 12) | 0xC02);
    TS_ASSERT_EQ_U(l[2].ctrInfo, (19u << 12) | 0xC00);
    hpm_csr_write(pf_hpm(), 0xB00, (1u << 20) - 300);
    hpm_csr_write(pf_hpm(), 0xB02, 0xFFFFFFFFu - 300);
    tsunit_write_lower(&pf_te()->ts, (1u << 24) - 300);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 30; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(log_wraps(0), 1); /* the 20-bit mcycle */
    TS_ASSERT_EQ_U(log_wraps(2), 1); /* the 32-bit minstret */
    TS_ASSERT_EQ_U(log_wraps(PF_KEY_TS), 1);
    trace_t t;
    decode_sink(&t, 24);
    assert_decoded_clean(&t);
    const def_exp_t d[] = {{0, 0, HW_CPU_CYCLES, 0, (19u << 12) | 0xC00},
                           {1, 0, HW_TIMESTAMP, 0, 23u << 12},
                           {2, 0, HW_INSTRUCTIONS, 0, (31u << 12) | 0xC02}};
    check_header(&t.h[0], perfCount_Delta, 0x7, d, 3);
    TS_ASSERT_EQ_U(t.nr, 30);
    check_values(&t, perfCount_Delta, true);
    assert_encoder_clean();
    trace_free(&t);
}

/* the same in DeltaXOR and Raw: values decode to the counters as read */
TS_TEST(deltaxor_narrow_fixed_counters) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.width_cycle = 20;
    c.hpm.width_instret = 32;
    c.te.ts_width = 24;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP), GEN(HW_INSTRUCTIONS), RAW(EV_LOAD)};
    TS_ASSERT_EQ_I(perfManualInit(l, 4, CH, perfCount_DeltaXOR, 0), PERF_OK);
    hpm_csr_write(pf_hpm(), 0xB00, (1u << 20) - 300);
    tsunit_write_lower(&pf_te()->ts, (1u << 24) - 300);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 30; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(log_wraps(0), 1);
    TS_ASSERT_EQ_U(log_wraps(PF_KEY_TS), 1);
    trace_t t;
    decode_sink(&t, 24);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 30);
    check_values(&t, perfCount_DeltaXOR, true);
    trace_free(&t);
}

/* a 40-bit mcycle wrapping at 2^40 and a 64-bit minstret carrying past 2^32, next to a 24-bit
 * timestamp, in Delta */
TS_TEST(delta_mixed_fixed_counters) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.hpm.width_cycle = 40;
    c.te.ts_width = 24;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_INSTRUCTIONS), GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Delta, 0), PERF_OK);
    TS_ASSERT_EQ_U(l[1].ctrInfo, (39u << 12) | 0xC00);
    hpm_csr_write(pf_hpm(), 0xB00, 0xFFFFFED4u); /* mcycle = 2^40 - 300 */
    hpm_csr_write(pf_hpm(), 0xB80, 0xFF);
    hpm_csr_write(pf_hpm(), 0xB02, 0xFFFFFF00u); /* minstret = 2^32 - 256 */
    tsunit_write_lower(&pf_te()->ts, (1u << 24) - 300);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 30; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(log_wraps(0), 1); /* the 40-bit mcycle */
    TS_ASSERT(log_high_word_carried(2));
    TS_ASSERT_EQ_U(log_wraps(PF_KEY_TS), 1);
    trace_t t;
    decode_sink(&t, 24);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 30);
    check_values(&t, perfCount_Delta, true);
    for (unsigned i = header_stores(&t.h[0]); i < t.nst; i++) TS_ASSERT(t.st[i].size != 2);
    trace_free(&t);
}

/* ================================ addresses ================================================ */

static __attribute__((noinline, aligned(16))) void fn_a(void) { __asm__ volatile(""); }
static __attribute__((noinline, aligned(16))) void fn_b(void) { __asm__ volatile(""); }
#define FP(f) ((void *)(uintptr_t)(f))

/* entry/exit hooks with real host function pointers (above 4 GiB: low word | 1, high word) and
 * with a 32-bit address (one word) */
TS_TEST(entry_exit_addresses_raw) {
    BEGIN(NULL);
    uint64_t a = (uintptr_t)FP(fn_a), b = (uintptr_t)FP(fn_b);
    if (!(a >> 32) || !(b >> 32) || (a & 1) || (b & 1))
        TS_FAIL("host function pointers 0x%llx, 0x%llx: not even addresses above 4 GiB (PIE build?)",
                (unsigned long long)a, (unsigned long long)b);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 1, CH, perfCount_Raw, 0), PERF_OK);
    __cyg_profile_func_enter(FP(fn_a), FP(fn_b)); /* before perfTraceOn: nothing */
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, 0);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    __cyg_profile_func_enter(FP(fn_a), FP(fn_b));
    __cyg_profile_func_exit(FP(fn_a), FP(fn_b));
    __cyg_profile_func_enter((void *)0x80001234u, FP(fn_a));
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    __cyg_profile_func_enter(FP(fn_b), FP(fn_a)); /* after perfTraceOff: nothing */
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 3);
    TS_ASSERT_EQ_U(t.r[0].type, PERF_FUNC_ENTER);
    TS_ASSERT_EQ_U(t.r[0].addr, a);
    TS_ASSERT_EQ_U(t.r[0].call_site, b);
    TS_ASSERT_EQ_U(t.r[1].type, PERF_FUNC_EXIT);
    TS_ASSERT_EQ_U(t.r[1].addr, a);
    TS_ASSERT_EQ_U(t.r[1].call_site, b);
    TS_ASSERT_EQ_U(t.r[2].addr, 0x80001234u);
    TS_ASSERT_EQ_U(t.r[2].call_site, a);
    check_values(&t, perfCount_Raw, true);
    /* the stores of 5.5 */
    unsigned at = header_stores(&t.h[0]);
    const store_t r0[] = {{1, 0}, {4, (uint32_t)a | 1}, {4, (uint32_t)(a >> 32)}, {4, (uint32_t)b | 1}, {4, (uint32_t)(b >> 32)}};
    const store_t r2[] = {{1, 0}, {4, 0x80001234u}, {4, (uint32_t)a | 1}, {4, (uint32_t)(a >> 32)}};
    for (unsigned i = 0; i < N(r0); i++) {
        TS_ASSERT_EQ_U(t.st[at + i].size, r0[i].size);
        TS_ASSERT_EQ_U(t.st[at + i].value, r0[i].value);
    }
    at += 2 * 6; /* two records of 5 + 1 value */
    for (unsigned i = 0; i < N(r2); i++) {
        TS_ASSERT_EQ_U(t.st[at + i].size, r2[i].size);
        TS_ASSERT_EQ_U(t.st[at + i].value, r2[i].value);
    }
    TS_ASSERT_EQ_U(t.nst, at + N(r2) + 1);
    trace_free(&t);
}

/* DeltaXOR: each address is XORed with the previous one written (the manual; the original
 * library writes them raw); the decoder gives the addresses back */
TS_TEST(entry_exit_addresses_deltaxor) {
    BEGIN(NULL);
    uint64_t a = (uintptr_t)FP(fn_a), b = (uintptr_t)FP(fn_b);
    if (!(a >> 32) || !(b >> 32) || (a & 1) || (b & 1))
        TS_FAIL("host function pointers 0x%llx, 0x%llx: not even addresses above 4 GiB (PIE build?)",
                (unsigned long long)a, (unsigned long long)b);
    const uint64_t s1 = 0x0000ABCD00001000ull, s2 = 0x80002000u;
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 1, CH, perfCount_DeltaXOR, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    __cyg_profile_func_enter(FP(fn_a), FP(fn_b));
    __cyg_profile_func_exit(FP(fn_a), FP(fn_b));
    __cyg_profile_func_enter((void *)(uintptr_t)s1, (void *)(uintptr_t)s2);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 3);
    const uint64_t want[3][2] = {{a, b}, {a, b}, {s1, s2}};
    for (unsigned k = 0; k < 3; k++) {
        TS_ASSERT_EQ_U(t.r[k].addr, want[k][0]);
        TS_ASSERT_EQ_U(t.r[k].call_site, want[k][1]);
    }
    check_values(&t, perfCount_DeltaXOR, true);
    /* on the wire: a^0, b^a, a^b, b^a, s1^b, s2^s1; two words when bits 63:32 are not 0 */
    const uint64_t x[] = {a, b ^ a, a ^ b, b ^ a, s1 ^ b, s2 ^ s1};
    unsigned at = header_stores(&t.h[0]);
    for (unsigned k = 0; k < 3; k++) {
        TS_ASSERT_EQ_U(t.st[at].size, 1);
        at++;
        for (unsigned j = 0; j < 2; j++) {
            uint64_t v = x[2 * k + j];
            if (v >> 32) {
                TS_ASSERT_EQ_U(t.st[at].value, (uint32_t)v | 1u);
                TS_ASSERT_EQ_U(t.st[at + 1].value, (uint32_t)(v >> 32));
                at += 2;
            } else {
                TS_ASSERT_EQ_U(t.st[at].value, (uint32_t)v);
                at++;
            }
        }
        at++; /* the instret value */
    }
    TS_ASSERT_EQ_U(t.nst, at);
    trace_free(&t);
}

/* ================================ on / off / write ========================================= */

/* perfTraceOff drains everything into the sink (the last counter of the last record is
 * there); records while off are dropped; perfTraceOn again writes no second header */
TS_TEST(trace_off_drains_and_resumes) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.trace_divider = 4; /* the ITC FIFO fills up */
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS), RAW(EV_MMIO)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK); /* already on: nothing more */
    for (int i = 0; i < 5; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    te_t *te = pf_te();
    TS_ASSERT(te->fifo_count >= 4); /* precondition: a lot is queued */
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT(te_control(te) & 8u); /* teEmpty */
    TS_ASSERT_EQ_U(te->fifo_count, 0);
    TS_ASSERT_EQ_U(te->outq_count, 0);
    TS_ASSERT_EQ_U(te->sink.fill, 0); /* the last word padded and written */
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.recording, 0);
    TS_ASSERT_EQ_U(st.stopped, 0);
    TS_ASSERT_EQ_U(st.records, 5);
    TS_ASSERT_EQ_U(st.bytes, te->sink.wp);
    TS_ASSERT_EQ_U(st.size, 16384);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.truncated, 0);
    TS_ASSERT_EQ_U(t.nr, 5);
    TS_ASSERT(!t.r[4].truncated);
    TS_ASSERT_EQ_U(t.r[4].n, 3);
    check_values(&t, perfCount_Raw, true); /* the last value is the last read */
    TS_ASSERT_EQ_U(t.last_tcode, 34);      /* ICT trace off closes the capture */
    TS_ASSERT_EQ_U(t.last_ckdata0, 3);
    trace_free(&t);

    uint64_t stores = te->itc_accepted, bytes = pf_sink_bytes();
    TS_ASSERT_EQ_I(perfWriteCntrs(), PERF_OK); /* off: a no-op */
    TS_ASSERT_EQ_U(te->itc_accepted, stores);
    TS_ASSERT_EQ_U(pf_sink_bytes(), bytes);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK); /* off twice is fine */
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 3; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    decode_sink(&t, 40);
    assert_decoded_clean(&t); /* still one header */
    TS_ASSERT_EQ_U(t.nr, 8);
    check_values(&t, perfCount_Raw, true);
    for (unsigned k = 0; k < 8; k++) {
        TS_ASSERT_EQ_U(t.r[k].type, PERF_MANUAL);
        TS_ASSERT_EQ_U(t.r[k].addr, t.r[0].addr); /* one call site */
    }
    TS_ASSERT(t.r[0].addr >> 32);
    /* every ITC store, counted by hand from 5.4/5.5: header 3 + 3 + 3 + 4, a record 1 + 2
     * (address above 4 GiB) + 3 values below 2^32 */
    TS_ASSERT_EQ_U(te->itc_accepted, 13 + 8 * 6);
    TS_ASSERT_EQ_U(t.nst, 13 + 8 * 6);
    assert_encoder_clean();
    trace_free(&t);
}

/* perfWriteTrace(NULL) from the SRAM sink (teSinkRP/teSinkData, 256-byte host writes):
 * "trace.rtd" holds exactly the valid bytes; recording goes on; a second call replaces it */
TS_TEST(write_trace_sram) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP), GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 30; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    /* while recording: the file is everything up to the drain (it ends with the trace-off
     * message); the resumed encoder may have added bytes to the sink since */
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    uint32_t flen, ilen;
    const uint8_t *f = file_or_fail("trace.rtd", &flen);
    TS_ASSERT(flen > 256 && flen % 4 == 0);
    TS_ASSERT_EQ_U(pf_host_writes(), (flen + 255) / 256);
    uint8_t *img = pf_trace_image(&ilen);
    TS_ASSERT(ilen >= flen);
    TS_ASSERT_MEM_EQ(f, img, flen);
    free(img);
    trace_t t;
    decode_bytes(&t, f, flen, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 30);
    TS_ASSERT_EQ_U(t.truncated, 0);
    check_values(&t, perfCount_Raw, true);
    TS_ASSERT_EQ_U(t.last_tcode, 34);
    trace_free(&t);
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.recording, 1);
    for (int i = 0; i < 10; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    /* stopped: the file equals the sink image byte for byte */
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    f = file_or_fail("trace.rtd", &flen);
    img = pf_trace_image(&ilen);
    TS_ASSERT_EQ_U(flen, ilen);
    TS_ASSERT_EQ_U(flen, pf_te()->sink.wp);
    TS_ASSERT_MEM_EQ(f, img, flen);
    free(img);
    TS_ASSERT_EQ_U(pf_file_count(), 1);
    decode_bytes(&t, f, flen, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 40);
    check_values(&t, perfCount_Raw, true);
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK); /* the write left it off */
    TS_ASSERT_EQ_U(st.recording, 0);
    TS_ASSERT_EQ_U(pf_te()->control & 2u, 0);
    assert_encoder_clean();
    trace_free(&t);
}

/* perfWriteTrace from an SBA buffer: the file equals what the sink wrote on the bus */
TS_TEST(write_trace_sba) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS), RAW(EV_LOAD)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Delta, 4096), PERF_OK);
    te_t *te = pf_te();
    TS_ASSERT_EQ_U(te->control, 0x70FF4087u); /* SBA sink */
    TS_ASSERT_EQ_U(te->sink.base, PF_BUS_BASE);
    TS_ASSERT_EQ_U(te->sink.limit, PF_BUS_BASE + 4096 - 4);
    TS_ASSERT((te->sink.wp & 1) == 0 && te->sink.wp < PF_BUS_BASE + 16); /* at the start (trace-start message) */
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 20; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.size, 4096);
    TS_ASSERT_EQ_U(st.bytes, te->sink.wp - PF_BUS_BASE);
    TS_ASSERT_EQ_U(st.stopped, 0);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    uint32_t flen;
    const uint8_t *f = file_or_fail("trace.rtd", &flen);
    TS_ASSERT_EQ_U(flen, st.bytes);
    TS_ASSERT(flen > 0);
    TS_ASSERT_MEM_EQ(f, pf_sba_shadow(PF_BUS_BASE, flen), flen);
    trace_t t;
    decode_bytes(&t, f, flen, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 20);
    check_values(&t, perfCount_Delta, true);
    assert_encoder_clean();
    trace_free(&t);
}

/* a 256-byte SRAM fills: stop-on-wrap stops the encoder; the status says so; later records
 * are harmless (no hang, no error, nothing stored) */
TS_TEST(stop_on_wrap_sram) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.te.sram_size = 256;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfManualInit(l, 2, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 40; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.initialized, 1);
    TS_ASSERT_EQ_U(st.recording, 1);
    TS_ASSERT_EQ_U(st.stopped, 1);
    TS_ASSERT_EQ_U(st.wrapped, 0);
    TS_ASSERT_EQ_U(st.size, 256);
    TS_ASSERT_EQ_U(st.bytes, 256);
    TS_ASSERT_EQ_U(st.records, 40);
    te_t *te = pf_te();
    uint64_t stores = te->itc_accepted, words = te->sink.words;
    for (int i = 0; i < 20; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_U(te->itc_accepted, stores);
    TS_ASSERT_EQ_U(te->sink.words, words);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.recording, 0);
    TS_ASSERT_EQ_U(st.stopped, 1);
    TS_ASSERT_EQ_U(st.records, 60);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK); /* does not restart a stopped encoder */
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_U(te->itc_accepted, stores);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    uint32_t flen, ilen;
    const uint8_t *f = file_or_fail("trace.rtd", &flen);
    uint8_t *img = pf_trace_image(&ilen);
    TS_ASSERT_EQ_U(flen, 256);
    TS_ASSERT_EQ_U(ilen, 256);
    TS_ASSERT_MEM_EQ(f, img, 256);
    free(img);
    trace_t t;
    decode_bytes(&t, f, flen, 40);
    assert_decoded_clean(&t);
    TS_ASSERT(t.nr >= 3);
    check_values(&t, perfCount_Raw, false); /* the records that fit */
    TS_ASSERT_EQ_U(te->lost, 0);
    trace_free(&t);
}

TS_TEST(stop_on_wrap_sba) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP)};
    TS_ASSERT_EQ_I(perfManualInit(l, 2, CH, perfCount_DeltaXOR, 256), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 40; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.stopped, 1);
    TS_ASSERT_EQ_U(st.wrapped, 0);
    TS_ASSERT_EQ_U(st.size, 256);
    TS_ASSERT_EQ_U(st.bytes, 256);
    TS_ASSERT_EQ_U(pf_te()->sink.wp, PF_BUS_BASE + 256);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    uint32_t flen;
    const uint8_t *f = file_or_fail("trace.rtd", &flen);
    TS_ASSERT_EQ_U(flen, 256);
    TS_ASSERT_MEM_EQ(f, pf_sba_shadow(PF_BUS_BASE, 256), 256);
    trace_t t;
    decode_bytes(&t, f, flen, 40);
    assert_decoded_clean(&t);
    check_values(&t, perfCount_DeltaXOR, false);
    trace_free(&t);
}

/* ================================ timer ISR ================================================ */

/* 1 MHz timebase, interval 50 us -> 100 us (the manual's minimum) = 100 ticks; drift-free
 * deadlines, a late handler skips to now + period; records only while on */
TS_TEST(timer_isr_records) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.mtime = 5000;
    c.timebase = 1000000;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfTimerISRInit(l, 1, CH, perfCount_Raw, 0, 50), PERF_OK);
    TS_ASSERT_EQ_U(pf_timer()->starts, 1);
    TS_ASSERT_EQ_U(pf_timer()->start_hart, 0);
    TS_ASSERT_EQ_U(pf_timer()->first_deadline, 5100);
    pf_set_mtime(5100);
    perf_timer_tick(0x80000800u); /* before perfTraceOn: no record */
    TS_ASSERT_EQ_U(pf_timer()->mtimecmp, 5200);
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, 0);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    pf_set_mtime(5200);
    perf_timer_tick(0x80001000u);
    TS_ASSERT_EQ_U(pf_timer()->mtimecmp, 5300);
    pf_set_mtime(5450); /* late: 5400 is gone */
    perf_timer_tick(0x80002000u);
    TS_ASSERT_EQ_U(pf_timer()->mtimecmp, 5550);
    TS_ASSERT_EQ_U(pf_timer()->cmp_hart, 0);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    perf_timer_tick(0x80003000u); /* off: no record, next deadline */
    TS_ASSERT_EQ_U(pf_timer()->mtimecmp, 5650);
    TS_ASSERT_EQ_U(pf_timer()->cmp_writes, 4);
    trace_t t;
    decode_sink(&t, 40);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 2);
    TS_ASSERT_EQ_U(t.r[0].type, PERF_ISR);
    TS_ASSERT_EQ_U(t.r[0].addr, 0x80001000u);
    TS_ASSERT_EQ_U(t.r[1].type, PERF_ISR);
    TS_ASSERT_EQ_U(t.r[1].addr, 0x80002000u);
    check_values(&t, perfCount_Raw, true);
    /* a 32-bit mepc is one store */
    unsigned at = header_stores(&t.h[0]);
    TS_ASSERT_EQ_U(t.st[at].value, PERF_ISR);
    TS_ASSERT_EQ_U(t.st[at + 1].value, 0x80001000u);
    TS_ASSERT_EQ_U(t.nst, at + 2 * 3);
    trace_free(&t);
}

/* the timer handler records only in the timer ISR mode */
TS_TEST(timer_tick_in_manual_mode) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_timer()->starts, 0);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    uint64_t stores = pf_te()->itc_accepted;
    perf_timer_tick(0x80001000u);
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, stores);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT(pf_te()->itc_accepted > stores);
}

/* timebase x interval / 10^6: 32768 Hz x 250 us = 8.192 -> 8 ticks */
TS_TEST(timer_isr_period_32k) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.mtime = 1000;
    c.timebase = 32768;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfTimerISRInit(l, 1, CH, perfCount_Raw, 0, 250), PERF_OK);
    TS_ASSERT_EQ_U(pf_timer()->first_deadline, 1008);
    pf_set_mtime(1008);
    perf_timer_tick(0x80001000u);
    TS_ASSERT_EQ_U(pf_timer()->mtimecmp, 1016);
}

/* 1 kHz x 100 us = 0.1 tick: at least one tick */
TS_TEST(timer_isr_period_at_least_one_tick) {
    pf_cfg_t c;
    pf_default_cfg(&c);
    c.mtime = 77;
    c.timebase = 1000;
    BEGIN(&c);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfTimerISRInit(l, 1, CH, perfCount_Raw, 0, 100), PERF_OK);
    TS_ASSERT_EQ_U(pf_timer()->first_deadline, 78);
}

/* ================================ funnel =================================================== */

static void funnel_cfg(pf_cfg_t *c) {
    pf_default_cfg(c);
    c->funnel = true;
    c->te.has_funnel = true;
    c->funnel_ts_width = 48; /* the master's width differs from the encoder's 40 */
}

/* through the funnel (SRAM): teSink = 8, the funnel's sink and master timestamp (5.3) */
TS_TEST(funnel_sram) {
    pf_cfg_t c;
    funnel_cfg(&c);
    BEGIN(&c);
    fmm = (struct TfTraceRegMemMap *)PF_FUNNEL_BASE;
    TS_ASSERT_EQ_I(perfInit(1, 1), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP), GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfManualInit(l, 3, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(l[1].ctrInfo, 47u << 12); /* the funnel's 48-bit timestamp */
    TS_ASSERT_EQ_U(pf_te()->control, 0x80FF4087u);
    TS_ASSERT_EQ_U(pf_funnel()->control, 0x40004003u);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 6; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT(funnel_empty(pf_funnel()));
    TS_ASSERT_EQ_U(pf_funnel()->sink.fill, 0);
    TS_ASSERT_EQ_U(pf_te()->sink.words, 0); /* nothing in the encoder's own sink */
    trace_t t;
    decode_sink(&t, 48);
    assert_decoded_clean(&t);
    const def_exp_t d[] = {{0, 0, HW_CPU_CYCLES, 0, INFO_CYCLE},
                           {1, 0, HW_TIMESTAMP, 0, 47u << 12},
                           {2, 0, HW_INSTRUCTIONS, 0, INFO_INSTRET}};
    check_header(&t.h[0], perfCount_Raw, 0x7, d, 3);
    TS_ASSERT_EQ_U(t.nr, 6);
    check_values(&t, perfCount_Raw, true);
    for (unsigned k = 1; k < t.nr; k++) TS_ASSERT(t.r[k].value[1] > t.r[k - 1].value[1]); /* it runs */
    assert_encoder_clean();
    trace_free(&t);
}

TS_TEST(funnel_sba) {
    pf_cfg_t c;
    funnel_cfg(&c);
    BEGIN(&c);
    fmm = (struct TfTraceRegMemMap *)PF_FUNNEL_BASE;
    TS_ASSERT_EQ_I(perfInit(1, 1), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES), RAW(EV_MMIO)};
    TS_ASSERT_EQ_I(perfManualInit(l, 2, CH, perfCount_Delta, 2048), PERF_OK);
    funnel_t *fu = pf_funnel();
    TS_ASSERT_EQ_U(fu->control, 0x70004003u);
    TS_ASSERT_EQ_U(fu->sink.base, PF_BUS_BASE);
    TS_ASSERT_EQ_U(fu->sink.limit, PF_BUS_BASE + 2048 - 4);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 10; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    uint32_t flen;
    const uint8_t *f = file_or_fail("trace.rtd", &flen);
    TS_ASSERT_EQ_U(flen, fu->sink.wp - PF_BUS_BASE);
    TS_ASSERT(flen > 0);
    TS_ASSERT_MEM_EQ(f, pf_sba_shadow(PF_BUS_BASE, flen), flen);
    trace_t t;
    decode_bytes(&t, f, flen, 48);
    assert_decoded_clean(&t);
    TS_ASSERT_EQ_U(t.nr, 10);
    check_values(&t, perfCount_Delta, true);
    trace_free(&t);
}

/* channels 0..31 exist: the last one is accepted and enabled alone */
TS_TEST(channel_31) {
    BEGIN(NULL);
    TS_ASSERT_EQ_I(perfInit(1, 0), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l, 1, 31, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_te()->itc_enable, 1u << 31);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_U(pf_te()->itc_accepted, 3 + 3); /* the header */
}

/* ================================ several harts ============================================
 * Two or four encoders (one per hart, hartId/srcID = hart, 1 SRC bit or 2) behind the funnel,
 * as tracesim run --harts N wires them. Expected register values from trace-hw-facts.md
 * 1.2 and 2.1: an encoder programmed for the funnel reads (8 << 28) | sync off (0xFF << 16) |
 * stop-on-wrap (1 << 14) | ITC Data Acquisition (1 << 7) | active, enable = 0x80FF4083, and
 * 0x80FF4087 once tracing; the funnel into its SRAM (4 << 28) or SBA (7 << 28) sink with
 * stop-on-wrap, active and enable: 0x40004003 / 0x70004003. */

#define TE_FUNNEL_IDLE 0x80FF4083u
#define TE_FUNNEL_TRACING 0x80FF4087u

static void mh_cfg(pf_cfg_t *c, unsigned harts) {
    pf_default_cfg(c);
    c->funnel = true;
    c->te.has_funnel = true;
    c->te.src_bits = harts > 2 ? 2 : 1;
    c->n_te = harts;
}
static void mh_tmm(unsigned harts) {
    for (unsigned k = 0; k < harts && k < N(tmm); k++) tmm[k] = (struct TraceRegMemMap *)(uintptr_t)(PF_TE_BASE + 0x1000u * k);
    fmm = (struct TfTraceRegMemMap *)PF_FUNNEL_BASE;
}

/* hart 1's init after hart 0 records: only hart 1's encoder and counters are programmed; the
 * funnel, its sink and timestamp and hart 0's encoder see no write at all */
TS_TEST(mh_second_init_keeps_funnel) {
    pf_cfg_t c;
    mh_cfg(&c, 2);
    BEGIN(&c);
    mh_tmm(2);
    TS_ASSERT_EQ_I(perfInit(2, 1), PERF_OK);
    perfEvent l0[] = {GEN(HW_CPU_CYCLES), GEN(HW_TIMESTAMP)}, l1[] = {GEN(HW_INSTRUCTIONS), RAW(EV_LOAD)};
    TS_ASSERT_EQ_I(perfManualInit(l0, 2, CH, perfCount_Delta, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_te_of(0)->control, TE_FUNNEL_TRACING);
    TS_ASSERT_EQ_U(pf_te_of(1)->control, TE_FUNNEL_IDLE); /* the defaults, once, for every encoder */
    TS_ASSERT_EQ_U(pf_te_of(1)->itc_enable, 0);
    TS_ASSERT_EQ_U(pf_funnel()->control, 0x40004003u);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 4; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    unsigned fw = pf_funnel_writes(), t0w = pf_te_writes(0);
    uint64_t sunk = pf_sink_bytes(), ts = tsunit_now(&pf_funnel()->ts);
    TS_ASSERT(sunk > 0);

    pf_set_hart(1);
    TS_ASSERT_EQ_I(perfManualInit(l1, 2, CH, perfCount_Delta, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_funnel_writes(), fw); /* funnel, sink, master timestamp untouched */
    TS_ASSERT_EQ_U(pf_te_writes(0), t0w);   /* hart 0's encoder untouched */
    TS_ASSERT_EQ_U(pf_te_of(0)->control, TE_FUNNEL_TRACING);
    TS_ASSERT_EQ_U(pf_te_of(1)->control, TE_FUNNEL_TRACING);
    TS_ASSERT_EQ_U(pf_te_of(1)->itc_enable, 1u << CH);
    TS_ASSERT_EQ_U(pf_funnel()->control, 0x40004003u);
    TS_ASSERT(pf_sink_bytes() >= sunk);           /* WP was not reset or probed */
    TS_ASSERT(tsunit_now(&pf_funnel()->ts) > ts); /* the master timestamp ran on */
    TS_ASSERT_EQ_U(l1[0].ctrIdx, 2);              /* hart 1's own counters */
    TS_ASSERT_EQ_U(l1[1].ctrIdx, 3);
    TS_ASSERT_EQ_U(pf_hpm_of(1)->event[3], EV_LOAD);
    TS_ASSERT_EQ_U(pf_hpm_of(0)->event[3], 0);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 3; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);
    pf_set_hart(0);
    for (int i = 0; i < 2; i++) TS_ASSERT_EQ_I(record_here(), PERF_OK);

    /* hart 0 stops: its encoder is drained, the funnel stays on for hart 1 */
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(pf_te_of(0)->control & 7u, 1u); /* active only: enable, tracing off */
    TS_ASSERT_EQ_U(pf_funnel()->control & 3u, 3u);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_ERR_BUSY); /* hart 1 still records */
    TS_ASSERT_EQ_U(pf_file_count(), 0);
    pf_set_hart(1);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    /* the last one off drains and stops the funnel */
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(pf_funnel()->control & 3u, 1u);
    TS_ASSERT(funnel_empty(pf_funnel()));
    TS_ASSERT_EQ_U(pf_funnel()->sink.fill, 0);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    TS_ASSERT_EQ_U(pf_lock_held(), 0);
    uint32_t flen;
    const uint8_t *f = file_or_fail("trace.rtd", &flen);
    trace_t t;
    dec_srcbits = 1;
    decode_bytes(&t, f, flen, 40);
    TS_ASSERT_EQ_U(t.bad, 0);
    TS_ASSERT_EQ_U(t.perr, 0);
    TS_ASSERT_EQ_U(t.nh, 2); /* one header per hart */
    TS_ASSERT_EQ_U(t.h[0].core, 0);
    TS_ASSERT_EQ_U(t.h[0].mask, 0x3); /* cycles, timestamp */
    TS_ASSERT_EQ_U(t.h[1].core, 1);
    TS_ASSERT_EQ_U(t.h[1].mask, 0xC); /* instret, counter 3 */
    unsigned per[2] = {0, 0};
    for (unsigned k = 0; k < t.nr; k++) {
        TS_ASSERT(t.r[k].core < 2);
        per[t.r[k].core]++;
    }
    TS_ASSERT_EQ_U(per[0], 6);
    TS_ASSERT_EQ_U(per[1], 4);
    assert_encoder_clean();
    TS_ASSERT_EQ_U(pf_te_of(1)->lost, 0);
    trace_free(&t);
}

/* the first init may come from any hart: hart 1 first, then hart 0's init resets neither
 * hart 1's encoder nor the funnel, and hart 1's records go on under its one header */
TS_TEST(mh_defaults_once_any_hart_first) {
    pf_cfg_t c;
    mh_cfg(&c, 2);
    BEGIN(&c);
    mh_tmm(2);
    TS_ASSERT_EQ_I(perfInit(2, 1), PERF_OK);
    perfEvent l0[] = {GEN(HW_CPU_CYCLES)}, l1[] = {GEN(HW_CPU_CYCLES)};
    pf_set_hart(1);
    TS_ASSERT_EQ_I(perfManualInit(l1, 1, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_te_of(0)->control, TE_FUNNEL_IDLE);
    TS_ASSERT_EQ_U(pf_te_of(1)->control, TE_FUNNEL_TRACING);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    unsigned fw = pf_funnel_writes(), t1w = pf_te_writes(1);
    pf_set_hart(0);
    TS_ASSERT_EQ_I(perfManualInit(l0, 1, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_funnel_writes(), fw);
    TS_ASSERT_EQ_U(pf_te_writes(1), t1w);
    TS_ASSERT_EQ_U(pf_te_of(0)->control, TE_FUNNEL_TRACING);
    TS_ASSERT_EQ_U(pf_te_of(1)->control, TE_FUNNEL_TRACING);
    pf_set_hart(1);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    pf_set_hart(0);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK); /* never on: drains its encoder, the funnel */
    TS_ASSERT_EQ_U(pf_funnel()->control & 3u, 1u);
    trace_t t;
    dec_srcbits = 1;
    decode_sink(&t, 40);
    TS_ASSERT_EQ_U(t.nh, 1);
    TS_ASSERT_EQ_U(t.h[0].core, 1);
    TS_ASSERT_EQ_U(t.nr, 2);
    TS_ASSERT_EQ_U(t.r[0].core, 1);
    TS_ASSERT_EQ_U(t.r[1].core, 1);
    trace_free(&t);
}

/* one SBA buffer for all harts: a later init asks for the same size and gets the first one's
 * buffer (no second allocation); another size is PERF_ERR_ARG before any hardware access */
TS_TEST(mh_funnel_sba_shared) {
    pf_cfg_t c;
    mh_cfg(&c, 2);
    BEGIN(&c);
    mh_tmm(2);
    TS_ASSERT_EQ_I(perfInit(2, 1), PERF_OK);
    perfEvent l0[] = {GEN(HW_CPU_CYCLES)}, l1[] = {GEN(HW_CPU_CYCLES)};
    TS_ASSERT_EQ_I(perfManualInit(l0, 1, CH, perfCount_Raw, 4096), PERF_OK);
    funnel_t *fu = pf_funnel();
    TS_ASSERT_EQ_U(fu->control, 0x70004003u);
    TS_ASSERT_EQ_U(fu->sink.base, PF_BUS_BASE);
    TS_ASSERT_EQ_U(fu->sink.limit, PF_BUS_BASE + 4096 - 4);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    pf_set_hart(1);
    uint64_t cyc = pf_cycles();
    unsigned writes = pf_csr_writes();
    TS_ASSERT_EQ_I(perfManualInit(l1, 1, CH, perfCount_Raw, 2048), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfManualInit(l1, 1, CH, perfCount_Raw, 0), PERF_ERR_ARG);
    TS_ASSERT_EQ_U(pf_cycles(), cyc); /* no MMIO */
    TS_ASSERT_EQ_U(pf_csr_writes(), writes);
    TS_ASSERT_EQ_U(l1[0].ctrIdx, 0xDEAD);
    unsigned fw = pf_funnel_writes();
    TS_ASSERT_EQ_I(perfManualInit(l1, 1, CH, perfCount_Raw, 4096), PERF_OK);
    TS_ASSERT_EQ_U(pf_funnel_writes(), fw);
    TS_ASSERT_EQ_U(fu->sink.base, PF_BUS_BASE);
    TS_ASSERT_EQ_U(fu->sink.limit, PF_BUS_BASE + 4096 - 4);
    TS_ASSERT_EQ_U(pf_te_of(1)->control, TE_FUNNEL_TRACING); /* teSink 8, not the SBA sink */
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    TS_ASSERT_EQ_I(record_here(), PERF_OK);
    perfTraceStatus_t st;
    TS_ASSERT_EQ_I(perfGetTraceStatus(&st), PERF_OK);
    TS_ASSERT_EQ_U(st.size, 4096); /* the shared buffer */
    TS_ASSERT_EQ_U(st.records, 1); /* this hart's records */
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    pf_set_hart(0);
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_I(perfWriteTrace("mh.rtd"), PERF_OK);
    uint32_t flen;
    const uint8_t *f = file_or_fail("mh.rtd", &flen);
    TS_ASSERT_EQ_U(flen, fu->sink.wp - PF_BUS_BASE);
    TS_ASSERT_MEM_EQ(f, pf_sba_shadow(PF_BUS_BASE, flen), flen);
    trace_t t;
    dec_srcbits = 1;
    decode_bytes(&t, f, flen, 40);
    TS_ASSERT_EQ_U(t.nh, 2);
    TS_ASSERT_EQ_U(t.nr, 2);
    TS_ASSERT_EQ_U(t.perr, 0);
    trace_free(&t);
}

/* num_cores bounds: a hart at or above num_cores gets PERF_ERR_CORE without touching the
 * hardware; four harts each init their own encoder */
TS_TEST(mh_num_cores_bounds) {
    pf_cfg_t c;
    mh_cfg(&c, 4);
    BEGIN(&c);
    mh_tmm(2);
    TS_ASSERT_EQ_I(perfInit(0, 1), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfInit(PERF_MAX_CORES + 1, 1), PERF_ERR_ARG);
    TS_ASSERT_EQ_I(perfInit(2, 1), PERF_OK);
    perfEvent l[] = {GEN(HW_CPU_CYCLES)};
    pf_set_hart(2);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_CORE);
    pf_set_hart(3);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 1, CH, perfCount_Raw, 0), PERF_ERR_CORE);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_ERR_NOT_INIT);
    TS_ASSERT_EQ_U(pf_cycles(), 1); /* perfInit's teImpl probe only */
    TS_ASSERT_EQ_U(pf_lock_held(), 0);
    pf_set_hart(1);
    TS_ASSERT_EQ_I(perfManualInit(l, 1, CH, perfCount_Raw, 0), PERF_OK);
    TS_ASSERT_EQ_U(pf_te_of(1)->control, TE_FUNNEL_TRACING);
    TS_ASSERT_EQ_U(pf_te_of(0)->control, TE_FUNNEL_IDLE);
    TS_ASSERT_EQ_U(pf_te_of(2)->control, 0); /* outside num_cores: never touched */
    TS_ASSERT_EQ_U(pf_te_writes(2), 0);
    TS_ASSERT_EQ_U(pf_te_writes(3), 0);
}

/* the lock: taken on init, on/off and write-out, always released (error paths too), never
 * on the record path (manual records, entry/exit hooks, the timer tick) */
TS_TEST(mh_lock_only_off_the_record_path) {
    pf_cfg_t c;
    mh_cfg(&c, 2);
    BEGIN(&c);
    mh_tmm(2);
    TS_ASSERT_EQ_I(perfInit(2, 1), PERF_OK);
    TS_ASSERT_EQ_U(pf_locks(), 0);
    perfEvent bad[] = {TYPE(perfEventFW)}, l[] = {GEN(HW_CPU_CYCLES), GEN(HW_INSTRUCTIONS)};
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(bad, 1, CH, perfCount_Delta, 0), PERF_ERR_EVENT_TYPE);
    TS_ASSERT_EQ_U(pf_lock_held(), 0);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 2, CH, perfCount_Delta, 0), PERF_OK);
    TS_ASSERT_EQ_I(perfFuncEntryExitInit(l, 2, CH, perfCount_Delta, 0), PERF_ERR_INIT_TWICE);
    TS_ASSERT_EQ_U(pf_lock_held(), 0);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK);
    unsigned locks = pf_locks();
    for (int i = 0; i < 5; i++) {
        __cyg_profile_func_enter((void *)0x80001000, (void *)0x80002000);
        __cyg_profile_func_exit((void *)0x80001000, (void *)0x80002000);
        TS_ASSERT_EQ_I(perfWriteCntrs(), PERF_OK);
        perf_timer_tick(0x80003000);
    }
    TS_ASSERT_EQ_U(pf_locks(), locks);
    TS_ASSERT_EQ_I(perfTraceOn(), PERF_OK); /* already on: nothing to do */
    TS_ASSERT_EQ_I(perfTraceOff(), PERF_OK);
    TS_ASSERT_EQ_U(pf_locks(), locks + 1);
    TS_ASSERT_EQ_I(perfWriteTrace(NULL), PERF_OK);
    TS_ASSERT_EQ_U(pf_locks(), locks + 2);
    TS_ASSERT_EQ_U(pf_lock_held(), 0);
}

TS_TEST_MAIN()
