/* test_msg_json_par.c - `decode -f messages` on several threads (msg_json_par.h) writes the
 * one-thread output byte for byte: on random traces (corrupt bytes, idle bytes, timestamps
 * made from the one before, a cut-off last message) cut into parts of 1 byte to 20 kB, so that
 * every kind of message and every corrupt byte lands next to a cut somewhere; on the real
 * captures against their reference files (../shared/captures, independent of the
 * splitting); and the state after it (lines, corrupt and cut-off counts, the decoder's times
 * and counters) is the one-thread state. Also the threads' two-step decode (nxd_parse, then
 * nxd_time) against nxd_decode, and fmt_ctr_set against snprintf. */
#include "msg_json.h"
#include "msg_json_par.h"
#include "nexus_decode.h"
#include "rnd_trace.h"
#include "ts_test.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { return rnd_next(&rng); }

static char *read_all(FILE *f, size_t *n) {
    fflush(f);
    long sz = ftell(f);
    char *b = malloc((size_t)sz + 1);
    TS_ASSERT(b);
    rewind(f);
    *n = fread(b, 1, (size_t)sz, f);
    b[*n] = 0;
    return b;
}

/* the random traces of rnd_trace.h, on this file's generator state */
static size_t rnd_trace(uint8_t *b, size_t cap) { return rnd_trace_gen(&rng, b, cap, true); }

typedef struct out {
    char *text;
    size_t len;
    uint64_t n, bad, truncated;
    nxd_t d;
} out_t;

/* the lines of buf with `threads` threads and parts of `part` bytes (threads 1: mj_decode) */
static uint64_t base; /* the offset of buf[0] (a wrapped trace starts after its first message end) */

static void run(out_t *o, const uint8_t *buf, size_t len, unsigned srcbits, unsigned threads, size_t part) {
    static mj_t c;
    FILE *f = tmpfile();
    TS_ASSERT(f);
    nxd_cfg_t cfg = {srcbits, 40};
    TS_ASSERT_EQ_I(nxd_init(&o->d, &cfg), 0);
    o->d.offset = base;
    mj_init(&c, f, false);
    if (threads == 1) mj_decode(&c, &o->d, buf, len);
    else
        TS_ASSERT_EQ_I(mjp_decode(&c, &o->d, buf, len, threads, part), 0);
    mj_flush(&c);
    o->text = read_all(f, &o->len);
    TS_ASSERT(!ferror(f));
    fclose(f);
    o->n = c.n;
    o->bad = c.bad;
    o->truncated = c.truncated;
}

static void same(const out_t *a, const out_t *b, unsigned threads, size_t part) {
    if (a->len != b->len || memcmp(a->text, b->text, a->len)) {
        size_t i = 0;
        while (i < a->len && i < b->len && a->text[i] == b->text[i]) i++;
        TS_FAIL("%u threads, parts of %zu bytes: output differs at byte %zu (%zu against %zu bytes)", threads, part, i,
                b->len, a->len);
    }
    TS_ASSERT_EQ_U(b->n, a->n);
    TS_ASSERT_EQ_U(b->bad, a->bad);
    TS_ASSERT_EQ_U(b->truncated, a->truncated);
    TS_ASSERT_EQ_U(b->d.messages, a->d.messages);
    TS_ASSERT_EQ_U(b->d.bad, a->d.bad);
    TS_ASSERT_EQ_U(b->d.skipped, a->d.skipped);
    TS_ASSERT_EQ_U(b->d.offset, a->d.offset);
    TS_ASSERT(!memcmp(b->d.last_time, a->d.last_time, sizeof a->d.last_time));
}

static size_t count(const char *s, const char *what) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++) n++;
    return n;
}

TS_TEST(random_traces_any_cut_any_threads) {
    size_t cap = 30000;
    uint8_t *t = malloc(cap);
    TS_ASSERT(t);
    size_t len = rnd_trace(t, cap);
    static const size_t parts[] = {1, 7, 64, 1000, 20000};
    for (unsigned srcbits = 0; srcbits <= 4; srcbits += 2) {
        out_t ref;
        run(&ref, t, len, srcbits, 1, 0);
        /* the trace has what the cuts must carry: corrupt messages, times, a cut-off end */
        TS_ASSERT(ref.bad > 100);
        TS_ASSERT_EQ_U(ref.truncated, 1);
        TS_ASSERT(count(ref.text, "\"tics\": ") > 150);
        for (unsigned threads = 2; threads <= 3; threads++)
            for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
                out_t o;
                run(&o, t, len, srcbits, threads, parts[p]);
                same(&ref, &o, threads, parts[p]);
                free(o.text);
            }
        free(ref.text);
    }
    free(t);
}

/* a trace decoded from an offset other than 0 (decode of a wrapped buffer): the offsets go on
 * from there in every part */
TS_TEST(offsets_from_the_start_given) {
    size_t cap = 20000;
    uint8_t *t = malloc(cap);
    TS_ASSERT(t);
    size_t len = rnd_trace(t, cap);
    base = 123456789;
    out_t ref, o;
    run(&ref, t, len, 0, 1, 0);
    TS_ASSERT(strstr(ref.text, "\"offset\": 1234"));
    run(&o, t, len, 0, 2, 100);
    same(&ref, &o, 2, 100);
    TS_ASSERT_EQ_U(o.d.offset, base + len);
    base = 0;
    free(ref.text);
    free(o.text);
    free(t);
}

/* parts of more than 1 MiB of lines each: a block fills up in the middle of a part, and waits
 * until the parts before it are written */
TS_TEST(parts_longer_than_a_block) {
    size_t cap = 300000;
    uint8_t *t = malloc(cap);
    TS_ASSERT(t);
    size_t len = rnd_trace(t, cap);
    out_t ref;
    run(&ref, t, len, 0, 1, 0);
    TS_ASSERT(ref.len > 4 * (1u << 20)); /* about 1.7 MiB a part */
    for (unsigned threads = 2; threads <= 3; threads++) {
        out_t o;
        run(&o, t, len, 0, threads, len / 3);
        same(&ref, &o, threads, len / 3);
        free(o.text);
    }
    free(ref.text);
    free(t);
}

/* a trace like bench_perf's: one full timestamp, then only timestamps made from the one
 * before (XOR): every part's times come from all the parts before it */
TS_TEST(xor_times_across_every_cut) {
    size_t cap = 1 << 14, n = 0;
    uint8_t *t = malloc(cap);
    TS_ASSERT(t);
    /* SYNC (TCODE 9): SYNC 4 bits, I-CNT, F-ADDR, TSTAMP 0x3F */
    t[n++] = 9 << 2;
    t[n++] = 0x05 << 2;     /* SYNC 5, I-CNT's first 2 bits */
    t[n++] = 1 | 0x01 << 2; /* I-CNT ends */
    t[n++] = 1 | 0x10 << 2; /* F-ADDR ends */
    t[n++] = 3 | 0x3F << 2; /* TSTAMP, message ends */
    while (n + 8 < cap) {   /* DATA ACQUISITION: IDTAG, DATA, TSTAMP (XOR) */
        t[n++] = 7 << 2;
        t[n++] = 1 | (uint8_t)((rnd() % 16) << 2);
        t[n++] = 1 | (uint8_t)((rnd() % 64) << 2);
        t[n++] = 3 | (uint8_t)((1 + rnd() % 63) << 2);
    }
    out_t ref;
    run(&ref, t, n, 0, 1, 0);
    TS_ASSERT_EQ_U(ref.bad, 0);
    TS_ASSERT_EQ_U(count(ref.text, "\"tics\": "), ref.n); /* every line has its time */
    TS_ASSERT(ref.n > 4000);
    static const size_t parts[] = {1, 3, 100, 4096};
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        out_t o;
        run(&o, t, n, 0, 2, parts[p]);
        same(&ref, &o, 2, parts[p]);
        free(o.text);
    }
    free(ref.text);
    free(t);
}

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) TS_FAIL("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    rewind(f);
    uint8_t *b = malloc((size_t)sz + 1);
    TS_ASSERT(b);
    *len = fread(b, 1, (size_t)sz, f);
    b[*len] = 0;
    fclose(f);
    return b;
}

/* the real captures, cut everywhere, against their reference files */
TS_TEST(real_captures_equal_reference) {
    static const struct {
        const char *name;
        unsigned srcbits;
    } caps[] = {
        {"itc-timestamp", 0}, {"itc_printf", 0}, {"timestamp", 0}, {"dv-650", 4}};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        char path[4096];
        size_t len, rlen;
        snprintf(path, sizeof path, "%s/%s.rtd", TS_CAPTURES, caps[i].name);
        uint8_t *t = read_file(path, &len);
        snprintf(path, sizeof path, "%s/%s.messages.jsonl", TS_CAPTURES, caps[i].name);
        char *want = (char *)read_file(path, &rlen);
        out_t ref;
        run(&ref, t, len, caps[i].srcbits, 1, 0);
        TS_ASSERT_EQ_U(ref.len, rlen);
        TS_ASSERT(!memcmp(ref.text, want, rlen));
        for (size_t part = 1; part <= 97; part += 12)
            for (unsigned threads = 2; threads <= 3; threads++) {
                out_t o;
                run(&o, t, len, caps[i].srcbits, threads, part);
                if (o.len != rlen || memcmp(o.text, want, rlen))
                    TS_FAIL("%s, %u threads, parts of %zu bytes: not the reference file", caps[i].name, threads, part);
                same(&ref, &o, threads, part);
                free(o.text);
            }
        free(ref.text);
        free(want);
        free(t);
    }
}

/* the two-step decode of the threads (nexus_decode.h): nxd_parse of pieces of any size in
 * order, each followed by nxd_time of its messages, gives the messages nxd_decode gives (the
 * same fields, status, error, times) and leaves the decoder where it does */
typedef struct msgs {
    nxd_msg_t *m;
    size_t n, cap;
} msgs_t;
static int keep_cb(void *ctx, const nxd_msg_t *m) {
    msgs_t *k = ctx;
    TS_ASSERT(k->n < k->cap);
    k->m[k->n++] = *m;
    return 0;
}

static void same_msg(const nxd_msg_t *a, const nxd_msg_t *b, size_t i) {
    if (a->offset != b->offset || a->len != b->len || a->status != b->status || a->tcode != b->tcode ||
        a->has_src != b->has_src || a->src != b->src || a->has_ts != b->has_ts || a->ts_field != b->ts_field ||
        a->tics_valid != b->tics_valid || (a->tics_valid && a->tics != b->tics) || a->fmask != b->fmask ||
        a->bytes != b->bytes || (a->error == NULL) != (b->error == NULL) || (a->error && strcmp(a->error, b->error)))
        TS_FAIL("message %zu (offset %" PRIu64 ") differs in the two-step decode", i, a->offset);
    for (unsigned f = 0; f < NXF__COUNT; f++)
        if ((a->fmask >> f & 1) && a->f[f] != b->f[f]) TS_FAIL("message %zu: field %u differs", i, f);
}

TS_TEST(parse_then_time_is_decode) {
    size_t cap = 60000;
    uint8_t *t = malloc(cap);
    TS_ASSERT(t);
    size_t len = rnd_trace(t, cap);
    msgs_t ref = {malloc(len * sizeof(nxd_msg_t)), 0, len};
    nxd_msg_t *got = malloc(len * sizeof(nxd_msg_t));
    TS_ASSERT(ref.m && got);
    static const size_t steps[] = {1, 2, 5, 64, 999, 60000};
    for (unsigned srcbits = 0; srcbits <= 2; srcbits += 2) {
        nxd_cfg_t cfg = {srcbits, 40};
        nxd_t a;
        nxd_init(&a, &cfg);
        ref.n = 0;
        nxd_decode(&a, t, len, keep_cb, &ref);
        TS_ASSERT(a.bad > 50 && ref.n > 1000);
        for (size_t si = 0; si < sizeof steps / sizeof steps[0]; si++) {
            nxd_t p, tm; /* the parse's counters, the times */
            nxd_init(&p, &cfg);
            nxd_init(&tm, &cfg);
            size_t n = 0;
            while (p.offset < len) {
                size_t at = (size_t)p.offset, lim = steps[si] < len - at ? steps[si] : len - at;
                size_t k = nxd_parse(&p, t + at, len - at, lim, got + n);
                TS_ASSERT(k <= lim);
                TS_ASSERT(p.offset > at); /* every step moves on */
                nxd_time(&tm, got + n, k);
                n += k;
            }
            TS_ASSERT_EQ_U(n, ref.n);
            for (size_t j = 0; j < n; j++) same_msg(&ref.m[j], &got[j], j);
            TS_ASSERT_EQ_U(p.offset, a.offset);
            TS_ASSERT_EQ_U(p.messages, a.messages);
            TS_ASSERT_EQ_U(p.bad, a.bad);
            TS_ASSERT_EQ_U(p.skipped, a.skipped);
            TS_ASSERT(!memcmp(tm.last_time, a.last_time, sizeof a.last_time));
        }
    }
    free(ref.m);
    free(got);
    free(t);
}

TS_TEST(counter_set_prints_as_printf) {
    static const uint64_t v[] = {0, 1, 9, 10, 99, 100, 12345, 99999999, 100000000, 18446744073709551615ull};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        fmt_ctr_t c;
        fmt_ctr_set(&c, v[i]);
        char got[64] = {0}, want[32];
        *fmt_ctr_put(got, &c) = 0;
        snprintf(want, sizeof want, "%" PRIu64, v[i]);
        TS_ASSERT_STR_EQ(got, want);
        if (v[i] == UINT64_MAX) continue;
        fmt_ctr_inc(&c); /* and counts on from there */
        memset(got, 0, sizeof got);
        *fmt_ctr_put(got, &c) = 0;
        snprintf(want, sizeof want, "%" PRIu64, v[i] + 1);
        TS_ASSERT_STR_EQ(got, want);
    }
}

TS_TEST_MAIN()
