/* test_msg_json.c - the messages JSON lines of `tracesim decode -f messages` (msg_json.h)
 * against a reference written here with snprintf from the documented layout
 * (docs/commands/decode.md, ../shared/captures/README.md): keys in strcmp order, the bytes as
 * "hh:hh", the printed fields sorted by name here (not through the decoder's table), "src"
 * with SRC fields, "tics" when known, corrupt messages with "error". Also: the decoder's loop
 * with the formatter compiled in (mj_decode) writes exactly what nxd_decode with the mj_msg
 * callback writes, across the 1 MiB blocks, and cut-off messages are counted, not listed. */
#include "msg_json.h"
#include "nexus_decode.h"
#include "rnd_trace.h"
#include "ts_test.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) { return rnd_next(&rng); }
/* a value of any magnitude, with the digit-count edges often */
static uint64_t rnd_value(void) {
    static const uint64_t edge[] = {0, 9, 10, 99, 100, 99999999, 100000000, 4294967295ull, 9999999999ull,
                                    10000000000ull, UINT64_MAX};
    uint64_t r = rnd();
    if (r % 5 == 0) return edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
    return rnd() >> (r % 64);
}

static int by_name(const void *a, const void *b) {
    return strcmp(nxd_field_name(*(const enum nxd_field *)a), nxd_field_name(*(const enum nxd_field *)b));
}

#define PUT(...) (w += (size_t)snprintf(o + w, cap - w, __VA_ARGS__))

/* the reference line of message number n */
static size_t ref_line(char *o, size_t cap, uint64_t n, const nxd_msg_t *m, bool process) {
    size_t w = 0;
    PUT("{\"bytes\": \"");
    for (uint32_t i = 0; i < m->len; i++) PUT("%s%02x", i ? ":" : "", m->bytes[i]);
    PUT("\"");
    if (m->status == NXD_BAD) {
        PUT(", \"error\": \"%s\", \"n\": %" PRIu64 ", \"offset\": %" PRIu64 ", \"tcode\": %u}\n", m->error, n, m->offset,
            (unsigned)m->tcode);
        return w;
    }
    /* printed: the main numeric fields; never etype, ecode, ckdf, ckdata0; process only for a
     * tracesim run; b_type not for TCODE 12 and 29; ckdata1 only in ICT (34, 35) with CKSRC not 0 */
    enum nxd_field f[NXF__COUNT];
    int nf = 0;
    for (int k = 0; k < NXF__COUNT; k++) {
        if (!(m->fmask >> k & 1)) continue;
        if (k == NXF_ETYPE || k == NXF_ECODE || k == NXF_CKDF || k == NXF_CKDATA0) continue;
        if (k == NXF_PROCESS && !process) continue;
        if (k == NXF_B_TYPE && (m->tcode == NX_INDIRECT_BRANCH_WS || m->tcode == NX_INDIRECT_BRANCH_HIST_WS)) continue;
        if (k == NXF_CKDATA1 && !((m->tcode == NX_ICT || m->tcode == NX_ICT_WS) && m->f[NXF_CKSRC] != NX_CKSRC_CONTROL)) continue;
        f[nf++] = (enum nxd_field)k;
    }
    qsort(f, (size_t)nf, sizeof f[0], by_name);
    PUT(", \"fields\": {");
    for (int k = 0; k < nf; k++) PUT("%s\"%s\": %" PRIu64, k ? ", " : "", nxd_field_name(f[k]), m->f[f[k]]);
    PUT("}, \"n\": %" PRIu64 ", \"name\": \"%s\", \"offset\": %" PRIu64, n, nxd_tcode_name(m->tcode), m->offset);
    if (m->has_src) PUT(", \"src\": %" PRIu32, m->src);
    PUT(", \"tcode\": %u", (unsigned)m->tcode);
    if (m->tics_valid) PUT(", \"tics\": %" PRIu64, m->tics);
    PUT("}\n");
    return w;
}

/* a random message: any TCODE (the known ones mostly), any set of fields, every value size,
 * 1..64 bytes, with or without SRC and time, now and then corrupt */
static void rnd_msg(nxd_msg_t *m, uint8_t *bytes) {
    static const uint8_t known[] = {NX_OWNERSHIP, NX_DIRECT_BRANCH, NX_INDIRECT_BRANCH, NX_DATA_ACQ, NX_ERROR, NX_SYNC,
                                    NX_DIRECT_BRANCH_WS, NX_INDIRECT_BRANCH_WS, NX_AUX_ACCESS_WRITE, NX_RESOURCE_FULL,
                                    NX_INDIRECT_BRANCH_HIST, NX_INDIRECT_BRANCH_HIST_WS, NX_CORRELATION, NX_ICT, NX_ICT_WS};
    static const char *const errs[] = {"unsupported TCODE", "message longer than 64 bytes", "fields after the timestamp"};
    memset(m, 0, sizeof *m);
    uint64_t r = rnd();
    m->len = 1 + (uint32_t)(r % 64);
    for (uint32_t i = 0; i < m->len; i++) bytes[i] = (uint8_t)rnd();
    m->bytes = bytes;
    m->offset = rnd_value();
    m->tcode = (r >> 8) % 4 ? known[(r >> 12) % sizeof known] : (uint8_t)((r >> 16) % 64);
    m->status = (r >> 24) % 16 == 0 ? NXD_BAD : NXD_OK;
    if (m->status == NXD_BAD) {
        m->error = errs[(r >> 28) % 3];
        return;
    }
    m->fmask = (uint32_t)rnd() & ((1u << NXF__COUNT) - 1);
    if ((r >> 30) % 3 == 0) m->fmask &= (uint32_t)rnd(); /* fewer fields */
    for (int k = 0; k < NXF__COUNT; k++) m->f[k] = rnd_value();
    if ((r >> 34) % 2) m->f[NXF_CKSRC] = 0;
    m->has_src = (r >> 36) % 2;
    m->src = (uint32_t)(rnd() % 256);
    m->tics_valid = (r >> 38) % 4 != 0;
    m->tics = rnd_value();
}

TS_TEST(lines_as_printf_writes_them) {
    static mj_t c[2]; /* without and with PROCESS */
    mj_init(&c[0], stdout, false);
    mj_init(&c[1], stdout, true);
    static char got[MJ_LINE_MAX], want[4096];
    uint8_t bytes[64];
    for (unsigned k = 0; k < 60000; k++) {
        nxd_msg_t m;
        rnd_msg(&m, bytes);
        mj_t *x = &c[k % 2];
        char *e = mj_line(x, got, &m);
        size_t wl = ref_line(want, sizeof want, x->n, &m, k % 2);
        TS_ASSERT(e > got && (size_t)(e - got) < MJ_LINE_MAX - 64);
        *e = 0;
        if (strcmp(got, want)) TS_FAIL("message %u:\n got  %s want %s", k, got, want);
        TS_ASSERT_EQ_U((size_t)(e - got), wl);
    }
    TS_ASSERT(c[0].bad > 0 && c[1].bad > 0);
}

/* the longest line: 64 bytes, every field at 20 digits, SRC, time */
TS_TEST(longest_line_fits) {
    static mj_t c;
    mj_init(&c, stdout, true);
    uint8_t bytes[64];
    memset(bytes, 0xab, sizeof bytes);
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.bytes = bytes;
    m.len = 64;
    m.tcode = 34;
    m.fmask = (1u << NXF__COUNT) - 1;
    for (int k = 0; k < NXF__COUNT; k++) m.f[k] = UINT64_MAX;
    m.offset = m.tics = UINT64_MAX;
    m.has_src = m.tics_valid = true;
    m.src = 255;
    static char got[MJ_LINE_MAX], want[4096];
    char *e = mj_line(&c, got, &m);
    size_t wl = ref_line(want, sizeof want, 1, &m, true);
    *e = 0;
    TS_ASSERT_STR_EQ(got, want);
    TS_ASSERT_EQ_U((size_t)(e - got), wl);
}

/* the whole file of a stream through both paths */
static char *read_all(FILE *f, size_t *n) {
    fflush(f);
    long sz = ftell(f);
    char *b = malloc((size_t)sz + 1);
    TS_ASSERT(b);
    rewind(f);
    *n = fread(b, 1, (size_t)sz, f);
    return b;
}

/* the random traces of rnd_trace.h, on this file's generator state */
static size_t rnd_trace(uint8_t *b, size_t cap) { return rnd_trace_gen(&rng, b, cap, false); }

TS_TEST(loop_with_formatter_equals_callback) {
    size_t cap = 400000;
    uint8_t *t = malloc(cap);
    TS_ASSERT(t);
    size_t len = rnd_trace(t, cap);
    static mj_t a, b;
    for (unsigned srcbits = 0; srcbits <= 4; srcbits += 4) {
        FILE *fa = tmpfile(), *fb = tmpfile();
        TS_ASSERT(fa && fb);
        nxd_cfg_t cfg = {srcbits, 40};
        nxd_t da, db;
        nxd_init(&da, &cfg);
        nxd_init(&db, &cfg);
        mj_init(&a, fa, false);
        mj_init(&b, fb, false);
        mj_decode(&a, &da, t, len);
        mj_flush(&a);
        nxd_decode(&db, t, len, mj_msg, &b);
        mj_flush(&b);
        size_t na, nb;
        char *ta = read_all(fa, &na), *tb = read_all(fb, &nb);
        TS_ASSERT(na > (1u << 20)); /* more than one block */
        TS_ASSERT_EQ_U(na, nb);
        TS_ASSERT(!memcmp(ta, tb, na));
        TS_ASSERT_EQ_U(a.n, b.n);
        TS_ASSERT_EQ_U(a.bad, b.bad);
        TS_ASSERT(a.bad > 0);
        TS_ASSERT_EQ_U(a.truncated, 1); /* the cut-off message: counted, not listed */
        size_t lines = 0;
        for (size_t i = 0; i < na; i++) lines += ta[i] == '\n';
        TS_ASSERT_EQ_U(lines, a.n);
        TS_ASSERT_EQ_U(a.n + a.truncated, da.messages);
        free(ta);
        free(tb);
        fclose(fa);
        fclose(fb);
    }
    free(t);
}

TS_TEST_MAIN()
