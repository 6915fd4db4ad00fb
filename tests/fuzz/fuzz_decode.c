/* fuzz_decode.c - libFuzzer target over the whole decoder: bytes -> Nexus messages -> generic
 * elements -> perf records -> the profile of `tracesim report` (written to /dev/null), and the
 * parser of out-of-band perf headers (perf_config.txt) on the same bytes. The first input byte chooses the SRC width, the perf channel and the
 * timestamp width, so every configuration is explored. Built with clang
 * -fsanitize=fuzzer,address,undefined (tests/CMakeLists.txt: fuzz.decode); a crash, hang,
 * leak or out-of-bounds access is a failure. Also: the two-step decode of the threaded
 * messages output (nxd_parse, nxd_time) against nxd_decode. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "elements.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include "profile.h"

typedef struct fctx {
    perf_dec_t *pd;
    uint64_t n, chars;
    unsigned channel;
} fctx_t;

static void on_h(void *c, const perf_header_t *h) { prof_header(c, h); }
static void on_r(void *c, const perf_record_t *r) {
    volatile uint64_t sink = 0;
    for (unsigned i = 0; i < r->n; i++) sink += r->value[i] + r->delta[i] + r->vtics[i];
    sink += r->addr_wire + r->call_site_wire + r->value_unknown + r->delta_unknown;
    if (r->has_addr) sink += r->addr;
    if (r->has_call_site) sink += r->call_site;
    prof_record(c, r);
}
static void on_e(void *c, unsigned core, uint64_t off, const char *w) {
    (void)c;
    (void)core;
    (void)off;
    (void)w;
}

static int on_elem(void *vctx, const ts_elem_t *e) {
    fctx_t *c = vctx;
    c->n++;
    /* every byte of the message must lie inside the input (ASan checks the reads) */
    if (e->msg)
        for (uint32_t i = 0; i < e->msg->len; i++) c->chars += e->msg->bytes[i];
    perf_dec_feed_elem(c->pd, e);
    return 0;
}

/* the two-step decode of `decode -f messages` on several threads (msg_json_par.h): nxd_parse
 * of the bytes in two pieces cut anywhere, each followed by nxd_time, gives nxd_decode's
 * messages and leaves the decoder where it does; a difference is a crash */
typedef struct keep {
    nxd_msg_t m[512];
    size_t n;
} keep_t;
static int keep_msg(void *ctx, const nxd_msg_t *m) {
    keep_t *k = ctx;
    if (k->n < 512) k->m[k->n] = *m;
    k->n++;
    return 0;
}

static int same_msg(const nxd_msg_t *a, const nxd_msg_t *b) {
    if (a->offset != b->offset || a->len != b->len || a->status != b->status || a->tcode != b->tcode ||
        a->has_src != b->has_src || a->src != b->src || a->has_ts != b->has_ts || a->ts_field != b->ts_field || a->tics_valid != b->tics_valid ||
        (a->tics_valid && a->tics != b->tics) || a->fmask != b->fmask || a->error != b->error)
        return 0;
    for (unsigned f = 0; f < NXF__COUNT; f++)
        if ((a->fmask >> f & 1) && a->f[f] != b->f[f]) return 0;
    return 1;
}

static void two_step_check(const nxd_cfg_t *cfg, const uint8_t *b, size_t n, size_t cut) {
    static keep_t ref;
    static nxd_msg_t got[512];
    nxd_t a, p, t;
    nxd_init(&a, cfg);
    nxd_init(&p, cfg);
    nxd_init(&t, cfg);
    ref.n = 0;
    nxd_decode(&a, b, n, keep_msg, &ref);
    if (ref.n > 512 || n > 512) return; /* (the fuzzer's inputs are mostly shorter) */
    if (cut > n) cut = n;
    size_t k = nxd_parse(&p, b, n, cut, got);
    size_t at = (size_t)p.offset;
    k += nxd_parse(&p, b + at, n - at, n - at, got + k);
    nxd_time(&t, got, k);
    if (k != ref.n || p.offset != a.offset || p.messages != a.messages || p.bad != a.bad || p.skipped != a.skipped ||
        memcmp(t.last_time, a.last_time, sizeof a.last_time))
        __builtin_trap();
    for (size_t i = 0; i < k; i++)
        if (!same_msg(&ref.m[i], &got[i])) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    nxd_cfg_t cfg = {data[0] % 9, 8 + (data[0] >> 3) % 57};
    nxd_t d;
    if (nxd_init(&d, &cfg)) return 0;
    two_step_check(&cfg, data + 1, size - 1, size > 2 ? (size_t)(data[size - 1] | data[size - 2] << 8) % size : 0);
    prof_t *prof = prof_new(NULL);
    if (!prof) return 0;
    perf_dec_t pd;
    perf_dec_cb_t cb = {prof, on_h, on_r, on_e};
    perf_dec_init(&pd, (data[0] >> 4) % 32, &cb);
    /* the out-of-band header: the input as its text (mostly rejected: the parser must cope),
     * else for odd sizes a fixed one, so that decoding without a header in the trace is
     * explored too */
    static perf_header_t cfgh[4];
    char text[512], err[160];
    size_t tl = size - 1 < sizeof text - 1 ? size - 1 : sizeof text - 1;
    memcpy(text, data + 1, tl);
    text[tl] = 0;
    int ncfg = perf_config_parse(text, cfgh, 4, NULL, err, sizeof err);
    if (ncfg <= 0 && (size & 1))
        ncfg = perf_config_parse("count_type=DeltaXOR mask=0x5 counter=0 type=0 code=1 info=0x3fc00 "
                                 "counter=2 type=2 event_data=0x600 info=0x0bc02",
                                 cfgh, 4, NULL, err, sizeof err);
    for (int k = 0; k < ncfg; k++) perf_dec_set_config(&pd, &cfgh[k]);
    fctx_t c = {&pd, 0, 0, 0};
    ts_elem_stage_t es;
    ts_elem_init(&es, on_elem, &c);
    /* decode in two pieces: the state must carry over */
    size_t half = (size - 1) / 2;
    nxd_decode(&d, data + 1, half, ts_elem_from_msg, &es);
    nxd_decode(&d, data + 1 + half, size - 1 - half, ts_elem_from_msg, &es);
    ts_elem_eot(&es, size - 1);
    perf_dec_finish(&pd);
    prof_finish(prof);
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        prof_write_text(prof, devnull);
        prof_write_csv(prof, devnull);
        prof_write_csv_hart(prof, devnull, 1, true);
        fclose(devnull);
    }
    prof_free(prof);
    return 0;
}
