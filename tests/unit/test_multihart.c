/* test_multihart.c - several harts in one trace (issue 12): the funnel merges whole messages of
 * one encoder per hart, each with its SRC field. Synthetic streams packed here from the
 * framing rules of trace-hw-facts.md 4.1-4.3 (the packer is checked against the worked
 * example with SRC of 4.8), expected values worked out by hand in the comments: decoding
 * per source (time, elements, perf records with a gap on one source only), `tracesim decode`
 * with --hart and its bad uses, `tracesim report` per hart, and `tracesim check` on
 * hand-written run folders (two harts storing in the same cycle, a message lost on one hart,
 * a hart whose ground truth disagrees). */
#include "cli_util.h"
#include "decode_cli.h"
#include "elements.h"
#include "check_cli.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include "report_cli.h"
#include "ts_test.h"
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a Nexus packer: fields LSB first, 6 MDO bits per byte, variable fields minimal and
 * ending on a byte boundary with MSEO 01 (11 for the last field of the message) ------------ */
typedef struct pk {
    uint8_t b[16384];
    size_t n;
    unsigned pos;
    unsigned srcbits;
} pk_t;
static void pk_bit(pk_t *p, unsigned v) {
    if (v) p->b[p->n + p->pos / 6] |= (uint8_t)(1u << (2 + p->pos % 6));
    p->pos++;
}
static void pk_fixed(pk_t *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++) pk_bit(p, (unsigned)(v >> i & 1));
}
static void pk_var(pk_t *p, uint64_t v, bool last) {
    do {
        pk_bit(p, (unsigned)(v & 1));
        v >>= 1;
    } while (v || p->pos % 6);
    p->b[p->n + p->pos / 6 - 1] |= last ? 3 : 1;
}
static void pk_end(pk_t *p) {
    p->n += p->pos / 6;
    p->pos = 0;
}
static void pk_head(pk_t *p, unsigned tcode, unsigned src) {
    pk_fixed(p, tcode, 6);
    if (p->srcbits) pk_fixed(p, src, p->srcbits);
}
/* Data Acquisition: IDTAG, DATA, TSTAMP (the XOR of the time with the source's last one) */
static uint64_t last_t[16];
static void dqm(pk_t *p, unsigned src, unsigned idtag, uint32_t data, uint64_t t) {
    pk_head(p, 7, src);
    pk_var(p, idtag, false);
    pk_var(p, data, false);
    pk_var(p, last_t[src] ^ t, true);
    last_t[src] = t;
    pk_end(p);
}
/* ICT-WS Control(0,0) with a full timestamp (trace start, and the sync after an overflow) */
static void ictws(pk_t *p, unsigned src, uint64_t t) {
    pk_head(p, 35, src);
    pk_fixed(p, 0, 4);   /* CKSRC 0 */
    pk_fixed(p, 0, 2);   /* CKDF 0 */
    pk_var(p, 0, false); /* CKDATA0 = control 0 */
    pk_var(p, t, true);
    last_t[src] = t;
    pk_end(p);
}
/* Error, ETYPE 0 (messages lost), no timestamp */
static void err_msg(pk_t *p, unsigned src) {
    pk_head(p, 8, src);
    pk_fixed(p, 0, 4);
    pk_var(p, 0, true);
    pk_end(p);
}
static void pk_init(pk_t *p, unsigned srcbits) {
    memset(p, 0, sizeof *p);
    p->srcbits = srcbits;
    memset(last_t, 0, sizeof last_t);
}

TS_TEST(packer_matches_worked_example_with_src) {
    /* trace-hw-facts.md 4.8: 32-bit store 0x12345678 to stimulus 6 at 0x1025 after a
     * timestamped message at 0x1000, 2 SRC bits, SRC 1: 1c 84 05 e0 64 14 34 49 97 */
    static pk_t p;
    pk_init(&p, 2);
    last_t[1] = 0x1000;
    dqm(&p, 1, 0x18, 0x12345678, 0x1025);
    static const uint8_t want[] = {0x1c, 0x84, 0x05, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97};
    TS_ASSERT_EQ_U(p.n, sizeof want);
    TS_ASSERT_MEM_EQ(p.b, want, sizeof want);
}

/* ---- messages and elements per source -------------------------------------------------- */
typedef struct coll {
    nxd_msg_t m[64];
    unsigned n;
} coll_t;
static int collect(void *ctx, const nxd_msg_t *m) {
    coll_t *c = ctx;
    if (c->n < 64) c->m[c->n++] = *m;
    return 0;
}
static void decode(const pk_t *p, unsigned srcbits, coll_t *c) {
    nxd_cfg_t cfg = {srcbits, 40};
    nxd_t d;
    TS_ASSERT_EQ_I(nxd_init(&d, &cfg), 0);
    memset(c, 0, sizeof *c);
    nxd_decode(&d, p->b, p->n, collect, c);
}

/* two sources, each started with its own ICT-WS; both store in cycle 0x1005 (the funnel took
 * hart 1's message first), hart 1 stores again at 0x1007 before hart 0's store of 0x1006
 * leaves the funnel. Every message keeps its source and its own time. */
static void two_sources(pk_t *p) {
    pk_init(p, 1);
    ictws(p, 0, 0x1000);
    ictws(p, 1, 0x1002);
    dqm(p, 1, 0x18, 0xB, 0x1005); /* TSTAMP field 0x1002 ^ 0x1005 = 7 */
    dqm(p, 0, 0x18, 0xA, 0x1005); /* 0x1000 ^ 0x1005 = 5 */
    dqm(p, 1, 0x1B, 0xC, 0x1007); /* 8-bit store, 0x1005 ^ 0x1007 = 2 */
    dqm(p, 0, 0x1A, 0xD, 0x1006); /* 16-bit store, 0x1005 ^ 0x1006 = 3 */
}

TS_TEST(two_sources_keep_their_source_and_time) {
    static pk_t p;
    two_sources(&p);
    coll_t c;
    decode(&p, 1, &c);
    TS_ASSERT_EQ_U(c.n, 6);
    static const unsigned src[] = {0, 1, 1, 0, 1, 0};
    static const uint64_t tics[] = {0x1000, 0x1002, 0x1005, 0x1005, 0x1007, 0x1006};
    static const uint32_t data[] = {0, 0, 0xB, 0xA, 0xC, 0xD};
    for (unsigned i = 0; i < 6; i++) {
        TS_ASSERT_EQ_I(c.m[i].status, NXD_OK);
        TS_ASSERT(c.m[i].has_src);
        TS_ASSERT_EQ_U(c.m[i].src, src[i]);
        TS_ASSERT(c.m[i].tics_valid);
        TS_ASSERT_EQ_U(c.m[i].tics, tics[i]);
        if (i >= 2) TS_ASSERT_EQ_U(c.m[i].f[NXF_DATA], data[i]);
    }
    TS_ASSERT_EQ_U(c.m[2].ts_field, 7);
    TS_ASSERT_EQ_U(c.m[3].ts_field, 5);
}

/* an Error message of source 1 (its encoder lost messages): source 1's time is unknown until
 * its next full timestamp; source 0's relative timestamps stay exact */
TS_TEST(error_on_one_source_keeps_the_others_time) {
    static pk_t p;
    pk_init(&p, 1);
    ictws(&p, 0, 0x1000);
    ictws(&p, 1, 0x1000);
    err_msg(&p, 1);
    dqm(&p, 0, 0x18, 1, 0x1001); /* field 1: 0x1001 */
    dqm(&p, 1, 0x18, 2, 0x1003); /* field 0x1000 ^ 0x1003 = 3, but source 1 forgot 0x1000 */
    ictws(&p, 1, 0x1010);
    dqm(&p, 1, 0x18, 3, 0x1011); /* field 1: 0x1011 */
    dqm(&p, 0, 0x18, 4, 0x1012); /* field 0x1001 ^ 0x1012 = 0x13: 0x1012 */
    coll_t c;
    decode(&p, 1, &c);
    TS_ASSERT_EQ_U(c.n, 8);
    TS_ASSERT_EQ_U(c.m[2].tcode, 8);
    TS_ASSERT_EQ_U(c.m[2].src, 1);
    TS_ASSERT(c.m[3].tics_valid);
    TS_ASSERT_EQ_U(c.m[3].tics, 0x1001);
    TS_ASSERT(!c.m[4].tics_valid);
    TS_ASSERT(c.m[6].tics_valid);
    TS_ASSERT_EQ_U(c.m[6].tics, 0x1011);
    TS_ASSERT(c.m[7].tics_valid);
    TS_ASSERT_EQ_U(c.m[7].tics, 0x1012);
}

typedef struct ecoll {
    ts_elem_t e[64];
    unsigned n;
} ecoll_t;
static int ecollect(void *ctx, const ts_elem_t *e) {
    ecoll_t *c = ctx;
    if (c->n < 64) c->e[c->n++] = *e;
    return 0;
}

TS_TEST(elements_carry_the_source) {
    static pk_t p;
    two_sources(&p);
    err_msg(&p, 0);
    nxd_cfg_t cfg = {1, 40};
    nxd_t d;
    nxd_init(&d, &cfg);
    ts_elem_stage_t es;
    static ecoll_t c;
    memset(&c, 0, sizeof c);
    ts_elem_init(&es, ecollect, &c);
    nxd_decode(&d, p.b, p.n, ts_elem_from_msg, &es);
    /* TIMESTAMP(0), TIMESTAMP(1), SWTRACE(1) channel 6 lane 0 size 4, SWTRACE(0),
     * SWTRACE(1) lane 3 size 1, SWTRACE(0) lane 2 size 2, OVERFLOW(0) */
    TS_ASSERT_EQ_U(c.n, 7);
    static const unsigned type[] = {TS_ELEM_TIMESTAMP, TS_ELEM_TIMESTAMP, TS_ELEM_SWTRACE, TS_ELEM_SWTRACE,
                                    TS_ELEM_SWTRACE, TS_ELEM_SWTRACE, TS_ELEM_OVERFLOW};
    static const unsigned src[] = {0, 1, 1, 0, 1, 0, 0};
    for (unsigned i = 0; i < 7; i++) {
        TS_ASSERT_EQ_U(c.e[i].type, type[i]);
        TS_ASSERT_EQ_U(c.e[i].src, src[i]);
    }
    TS_ASSERT_EQ_U(c.e[4].u.sw.channel, 6);
    TS_ASSERT_EQ_U(c.e[4].u.sw.size, 1);
    TS_ASSERT_EQ_U(c.e[5].u.sw.size, 2);
    TS_ASSERT(es.synced[1]); /* the overflow of source 0 leaves source 1 synchronised */
    TS_ASSERT(!es.synced[0]);
}

/* ---- perf records of four interleaved sources ------------------------------------------ */
typedef struct pout {
    perf_header_t h[8];
    perf_record_t r[64];
    unsigned nh, nr, ngap, nerr;
} pout_t;
static void o_h(void *c, const perf_header_t *h) {
    pout_t *o = c;
    if (o->nh < 8) o->h[o->nh++] = *h;
}
static void o_r(void *c, const perf_record_t *r) {
    pout_t *o = c;
    if (o->nr < 64) o->r[o->nr++] = *r;
}
static void o_e(void *c, unsigned core, uint64_t off, const char *w) {
    (void)core;
    (void)off;
    pout_t *o = c;
    if (!strncmp(w, "gap: ", 5)) o->ngap++;
    else if (strncmp(w, "warning: ", 9))
        o->nerr++;
}
static perf_dec_t pdec;
static pout_t pout;
static uint64_t ptime;
static void pstore(unsigned src, unsigned size, uint32_t v) {
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.status = NXD_OK;
    m.tcode = 7;
    m.has_src = true;
    m.src = src;
    m.f[NXF_IDTAG] = 24 + (size == 4 ? 0 : size == 2 ? 2 :
                                                       3);
    m.f[NXF_DATA] = v;
    m.tics_valid = true;
    m.tics = ptime++;
    m.offset = ptime;
    perf_dec_feed(&pdec, &m);
}
static void perror_msg(unsigned src) { /* an Error message of one source */
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.status = NXD_OK;
    m.tcode = 8;
    m.has_src = true;
    m.src = src;
    m.offset = ptime++;
    perf_dec_feed(&pdec, &m);
}
TS_TEST(four_sources_interleaved_with_a_gap_on_one) {
    memset(&pout, 0, sizeof pout);
    perf_dec_cb_t cb = {&pout, o_h, o_r, o_e};
    perf_dec_init(&pdec, 6, &cb);
    ptime = 100;
    /* harts 0 and 2 Delta, hart 1 Raw, hart 3 DeltaXOR; headers interleaved store by store */
    static const unsigned type[4] = {PERF_DELTA, PERF_RAW, PERF_DELTA, PERF_DELTA_XOR};
    uint32_t hv[4][6];
    for (unsigned s = 0; s < 4; s++) {
        uint32_t v[6] = {TS_PW_MARKER, type[s], 0x1, 0, 1, (63u << 12) | 0xC00};
        memcpy(hv[s], v, sizeof v);
    }
    for (unsigned k = 0; k < 6; k++)
        for (unsigned s = 0; s < 4; s++) pstore(s, k == 1 ? 1 : 4, hv[s][k]);
    TS_ASSERT_EQ_U(pout.nh, 4);
    /* round 1: each hart a manual record at 0x80000100 + 0x10 s, value 10 + s; stores of the
     * four records interleave (type bytes, then addresses, then values) */
    for (unsigned s = 0; s < 4; s++) pstore(s, 1, PERF_MANUAL);
    for (unsigned s = 0; s < 4; s++) pstore(s, 4, 0x80000100 + 0x10 * s);
    for (unsigned s = 0; s < 4; s++) pstore(s, 4, 10 + s);
    /* round 2: hart 2 loses its value (Error message of source 2 after its address), the others
     * store 20 + s (Delta: a delta; Raw: the count; DeltaXOR: the XOR with the last count;
     * DeltaXOR addresses are XORed with the previous one too) */
    for (unsigned s = 0; s < 4; s++) pstore(s, 1, PERF_MANUAL);
    for (unsigned s = 0; s < 4; s++) pstore(s, 4, (0x80000200 + 0x10 * s) ^ (s == 3 ? 0x80000130 : 0));
    perror_msg(2);
    for (unsigned s = 0; s < 4; s++)
        if (s != 2) pstore(s, 4, 20 + s);
    /* round 3: every hart stores 30 + s */
    for (unsigned s = 0; s < 4; s++) pstore(s, 1, PERF_MANUAL);
    for (unsigned s = 0; s < 4; s++) pstore(s, 4, (0x80000300 + 0x10 * s) ^ (s == 3 ? 0x80000230 : 0));
    for (unsigned s = 0; s < 4; s++) pstore(s, 4, 30 + s);
    perf_dec_finish(&pdec);
    TS_ASSERT_EQ_U(pout.nerr, 0);
    TS_ASSERT_EQ_U(pout.ngap, 1);
    TS_ASSERT_EQ_U(pout.nr, 12);
    /* per hart, in order */
    const perf_record_t *r[4][3];
    unsigned n[4] = {0};
    for (unsigned i = 0; i < pout.nr; i++) {
        unsigned s = pout.r[i].core;
        TS_ASSERT(s < 4 && n[s] < 3);
        r[s][n[s]++] = &pout.r[i];
    }
    for (unsigned s = 0; s < 4; s++) {
        TS_ASSERT_EQ_U(n[s], 3);
        for (unsigned k = 0; k < 3; k++) TS_ASSERT_EQ_U(r[s][k]->addr, 0x80000100u + 0x100 * k + 0x10 * s);
    }
    /* hart 0 (Delta): running values 10, 30, 60; deltas 10, 20, 30; untouched by hart 2's gap */
    TS_ASSERT_EQ_U(r[0][1]->value[0], 30);
    TS_ASSERT_EQ_U(r[0][2]->value[0], 60);
    TS_ASSERT_EQ_U(r[0][2]->delta[0], 30);
    TS_ASSERT(!r[0][2]->gap_before && !r[0][2]->value_unknown && !r[0][1]->truncated);
    /* hart 1 (Raw): 11, 21, 31 with deltas 10 and 10 */
    TS_ASSERT_EQ_U(r[1][1]->value[0], 21);
    TS_ASSERT_EQ_U(r[1][2]->delta[0], 10);
    /* hart 3 (DeltaXOR): 13, 13 ^ 23 = 26, 26 ^ 33 = 59; addresses XOR-chained from 0 */
    TS_ASSERT_EQ_U(r[3][1]->value[0], 13u ^ 23u);
    TS_ASSERT_EQ_U(r[3][2]->value[0], 13u ^ 23u ^ 33u);
    TS_ASSERT_EQ_U(r[3][2]->delta[0], (13u ^ 23u ^ 33u) - (13u ^ 23u));
    /* hart 2: record 2 cut by the gap (its address arrived, no value); record 3 after the gap:
     * the delta as received (32) but the running value unknown */
    TS_ASSERT(r[2][1]->truncated);
    TS_ASSERT(r[2][1]->has_addr);
    TS_ASSERT_EQ_U(r[2][1]->n, 0);
    TS_ASSERT(r[2][2]->gap_before);
    TS_ASSERT_EQ_U(r[2][2]->raw[0], 32);
    TS_ASSERT_EQ_U(r[2][2]->delta[0], 32);
    TS_ASSERT_EQ_U(r[2][2]->value_unknown, 1);
}

/* ---- the commands on hand-written files ------------------------------------------------- */
static char dir[64];
static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/ts_mh_XXXXXX");
    TS_ASSERT(mkdtemp(dir));
}
static void write_file(const char *name, const void *data, size_t n) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    TS_ASSERT(f);
    TS_ASSERT_EQ_U(fwrite(data, 1, n, f), n);
    fclose(f);
}
static void write_text(const char *name, const char *text) { write_file(name, text, strlen(text)); }
static void write_json(unsigned harts, unsigned srcbits, unsigned lost) {
    char j[512];
    snprintf(j, sizeof j, "{\n  \"format\": \"tracesim-trace-1\",\n  \"sink\": \"sram\",\n  \"through_funnel\": true,\n"
                          "  \"harts\": %u,\n  \"srcbits\": %u,\n  \"tsbits\": 40,\n  \"wrapped\": false,\n"
                          "  \"stopped_on_wrap\": false,\n  \"itc_lost\": %u\n}\n",
             harts, srcbits, lost);
    write_text("trace.json", j);
}
static char outbuf[65536];
/* runs a command's main with stdout and stderr into DIR/out.txt; returns its status, the
 * output in outbuf */
static int run(int (*fn)(int, char **), int argc, char **argv) {
    char path[128];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    fflush(stdout);
    fflush(stderr);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), o1 = dup(1), o2 = dup(2);
    TS_ASSERT(fd >= 0);
    dup2(fd, 1);
    dup2(fd, 2);
    int rc = fn(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(o1, 1);
    dup2(o2, 2);
    close(fd);
    close(o1);
    close(o2);
    FILE *f = fopen(path, "rb");
    TS_ASSERT(f);
    size_t n = fread(outbuf, 1, sizeof outbuf - 1, f);
    outbuf[n] = 0;
    fclose(f);
    return rc;
}
static char *slurp(const char *name) {
    static char buf[65536];
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) TS_FAIL("no file %s", path);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}
static void cleanup(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    TS_ASSERT_EQ_I(system(cmd), 0);
}
static int count(const char *s, const char *needle) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++) n++;
    return n;
}

TS_TEST(decode_hart_filter_and_bad_uses) {
    static pk_t p;
    make_dir();
    two_sources(&p);
    write_file("trace.rtd", p.b, p.n);
    write_json(2, 1, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    /* all messages, each with its "src" */
    char *a1[] = {"decode", path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 2, a1), 0);
    TS_ASSERT_EQ_I(count(outbuf, "\"src\": 0"), 3);
    TS_ASSERT_EQ_I(count(outbuf, "\"src\": 1"), 3);
    /* --hart 1: hart 1's three messages, with their times */
    char *a2[] = {"decode", "--hart", "1", path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 4, a2), 0);
    TS_ASSERT_EQ_I(count(outbuf, "\"src\": 1"), 3);
    TS_ASSERT_EQ_I(count(outbuf, "\"src\": 0"), 0);
    TS_ASSERT(strstr(outbuf, "\"tics\": 4103")); /* 0x1007 */
    /* elements of hart 0 only */
    char *a3[] = {"decode", "-f", "elements", "--hart", "0", path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 6, a3), 0);
    TS_ASSERT_EQ_I(count(outbuf, " [0] "), 4); /* TIMESTAMP, 2 SWTRACE, EOT */
    TS_ASSERT_EQ_I(count(outbuf, " [1] "), 0);
    /* bad uses: one line, status 120 */
    char *b1[] = {"decode", "--hart", "9", path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 4, b1), 120);
    TS_ASSERT_STR_EQ(outbuf, "tracesim: --hart 9: the trace has 2 harts (0..1, trace.json)\n");
    char *b2[] = {"decode", "--srcbits", "2", path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 4, b2), 120);
    TS_ASSERT_STR_EQ(outbuf, "tracesim: --srcbits 2 does not match the trace: trace.json says srcbits 1 (2 harts)\n");
    char *b3[] = {"report", "--hart", "2", path};
    TS_ASSERT_EQ_I(run(ts_report_main, 4, b3), 120);
    TS_ASSERT_STR_EQ(outbuf, "tracesim: --hart 2: the trace has 2 harts (0..1, trace.json)\n");
    write_json(4, 1, 0); /* 4 harts do not fit in 1 SRC bit */
    TS_ASSERT_EQ_I(run(ts_decode_main, 2, a1), 120);
    TS_ASSERT_STR_EQ(outbuf, "tracesim: trace.json says 4 harts, more than 1 SRC bit can tell apart\n");
    cleanup();
}

/* ITC print: strings of two harts interleave store by store; each comes out whole, tagged */
TS_TEST(itcprint_per_hart) {
    static pk_t p;
    make_dir();
    pk_init(&p, 1);
    ictws(&p, 0, 0x1000);
    ictws(&p, 1, 0x1000);
    dqm(&p, 0, 0, 0x6c6c6548, 0x1001); /* "Hell" on channel 0 */
    dqm(&p, 1, 0, 0x6c726f57, 0x1001); /* "Worl" */
    dqm(&p, 0, 2, 0x0a6f, 0x1002);     /* "o\n" (16-bit) */
    dqm(&p, 1, 2, 0x0a64, 0x1002);     /* "d\n" */
    write_file("trace.rtd", p.b, p.n);
    write_json(2, 1, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    char *a[] = {"decode", "-f", "itcprint", path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 4, a), 0);
    TS_ASSERT_STR_EQ(outbuf, "[0] Hello\n[1] World\n");
    cleanup();
}

/* perf records of two harts through the CSV, the timeline and the report */
static void perf_trace(pk_t *p) {
    pk_init(p, 1);
    ictws(p, 0, 0x1000);
    ictws(p, 1, 0x1000);
    uint64_t t = 0x1001;
    /* headers: hart 0 Raw cycles, hart 1 Raw cycles + instructions (index 2) */
    static const uint32_t h0[] = {TS_PW_MARKER, PERF_RAW, 0x1, 0, 1, (63u << 12) | 0xC00};
    static const uint32_t h1[] = {TS_PW_MARKER, PERF_RAW, 0x5, 0, 1, (63u << 12) | 0xC00, 0, 2, (63u << 12) | 0xC02};
    for (unsigned k = 0; k < 9; k++) {
        if (k < 6) dqm(p, 0, k == 1 ? 0x1B : 0x18, h0[k], t);
        dqm(p, 1, k == 1 ? 0x1B : 0x18, h1[k], t);
        t++;
    }
    /* hart 0: enter f (0x80000200, called from 0x80000100) at 1000 cycles, exit at 1500;
     * hart 1: enter g (0x80000300) at 2000 cycles / 10 instructions, exit at 2600 / 70 */
    dqm(p, 0, 0x1B, PERF_FUNC_ENTER, t);
    dqm(p, 1, 0x1B, PERF_FUNC_ENTER, t);
    t++;
    dqm(p, 0, 0x18, 0x80000200, t);
    dqm(p, 1, 0x18, 0x80000300, t);
    t++;
    dqm(p, 0, 0x18, 0x80000100, t);
    dqm(p, 1, 0x18, 0x80000104, t);
    t++;
    dqm(p, 0, 0x18, 1000, t);
    dqm(p, 1, 0x18, 2000, t);
    t++;
    dqm(p, 1, 0x18, 10, t);
    t++;
    dqm(p, 0, 0x1B, PERF_FUNC_EXIT, t);
    dqm(p, 1, 0x1B, PERF_FUNC_EXIT, t);
    t++;
    dqm(p, 0, 0x18, 0x80000200, t);
    dqm(p, 1, 0x18, 0x80000300, t);
    t++;
    dqm(p, 0, 0x18, 0x80000100, t);
    dqm(p, 1, 0x18, 0x80000104, t);
    t++;
    dqm(p, 0, 0x18, 1500, t);
    dqm(p, 1, 0x18, 2600, t);
    t++;
    dqm(p, 1, 0x18, 70, t);
}

TS_TEST(perf_csv_timeline_and_report_per_hart) {
    static pk_t p;
    make_dir();
    perf_trace(&p);
    write_file("trace.rtd", p.b, p.n);
    write_json(2, 1, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    /* CSV: the column line switches with the hart whose counters differ */
    char *a1[] = {"decode", "-f", "csv", "-o", dir, path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 6, a1), 0);
    const char *csv = slurp("perf.csv");
    TS_ASSERT_STR_EQ(csv,
                     "timestamp,hart,record,address,call_site,function,cycles,cycles_delta\n"
                     "4106,0,enter,0x80000200,0x80000100,,1000,1000\n"
                     "timestamp,hart,record,address,call_site,function,cycles,cycles_delta,instructions,instructions_delta\n"
                     "4106,1,enter,0x80000300,0x80000104,,2000,2000,10,10\n"
                     "timestamp,hart,record,address,call_site,function,cycles,cycles_delta\n"
                     "4111,0,exit,0x80000200,0x80000100,,1500,500\n"
                     "timestamp,hart,record,address,call_site,function,cycles,cycles_delta,instructions,instructions_delta\n"
                     "4111,1,exit,0x80000300,0x80000104,,2600,600,70,60\n");
    /* --hart 1: one column line, hart 1's rows */
    char *a2[] = {"decode", "-f", "csv", "--hart", "1", "-o", dir, path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 8, a2), 0);
    csv = slurp("perf.csv");
    TS_ASSERT_STR_EQ(csv,
                     "timestamp,hart,record,address,call_site,function,cycles,cycles_delta,instructions,instructions_delta\n"
                     "4106,1,enter,0x80000300,0x80000104,,2000,2000,10,10\n"
                     "4111,1,exit,0x80000300,0x80000104,,2600,600,70,60\n");
    /* timeline: one named track (tid) per hart, a slice on each */
    char *a3[] = {"decode", "-f", "timeline", "-o", dir, path};
    TS_ASSERT_EQ_I(run(ts_decode_main, 6, a3), 0);
    const char *tl = slurp("timeline.json");
    TS_ASSERT(strstr(tl, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 0, \"args\": {\"name\": \"hart 0\"}}"));
    TS_ASSERT(strstr(tl, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 1, \"args\": {\"name\": \"hart 1\"}}"));
    TS_ASSERT(strstr(tl, "{\"name\": \"0x80000300\", \"ph\": \"B\", \"ts\": 41.060, \"pid\": 0, \"tid\": 1, \"args\": {\"record\": \"enter\""));
    TS_ASSERT(strstr(tl, "{\"name\": \"0x80000200\", \"ph\": \"E\", \"ts\": 41.110, \"pid\": 0, \"tid\": 0, \"args\": {\"record\": \"exit\""));
    TS_ASSERT_EQ_I(count(tl, "\"ph\": \"B\""), 2);
    /* report: a section per hart; f's self cycles 500 on hart 0, g's 600 cycles and 60
     * instructions on hart 1 */
    char *a4[] = {"report", path};
    TS_ASSERT_EQ_I(run(ts_report_main, 2, a4), 0);
    TS_ASSERT(strstr(outbuf, "2 harts with perf records: 0 1\n"));
    const char *s0 = strstr(outbuf, "==== hart 0 ====\n"), *s1 = strstr(outbuf, "==== hart 1 ====\n");
    TS_ASSERT(s0 && s1 && s0 < s1);
    const char *f0 = strstr(s0, "\n   100.00         1           500           500  0x80000200\n");
    TS_ASSERT(f0 && f0 < s1);
    TS_ASSERT(strstr(s1, "\n   100.00         1           600           600                 60                  60  0x80000300\n"));
    TS_ASSERT(!strstr(s1, "0x80000200"));
    /* CSV report: the hart in the first column, a column line per counter set */
    char *a5[] = {"report", "-f", "csv", path};
    TS_ASSERT_EQ_I(run(ts_report_main, 4, a5), 0);
    TS_ASSERT_STR_EQ(outbuf,
                     "hart,function,address,calls,still_active,percent,cycles_self,cycles_total\n"
                     "0,,0x80000200,1,0,100.00,500,500\n"
                     "hart,function,address,calls,still_active,percent,cycles_self,cycles_total,instructions_self,instructions_total\n"
                     "1,,0x80000300,1,0,100.00,600,600,60,60\n");
    char *a6[] = {"report", "-f", "csv", "--hart", "1", path};
    TS_ASSERT_EQ_I(run(ts_report_main, 6, a6), 0);
    TS_ASSERT_STR_EQ(outbuf,
                     "hart,function,address,calls,still_active,percent,cycles_self,cycles_total,instructions_self,instructions_total\n"
                     "1,,0x80000300,1,0,100.00,600,600,60,60\n");
    cleanup();
}

/* ---- tracesim check on hand-written run folders ----------------------------------------- */
/* Two harts, ITC stores only (no counters.csv: the perf check is skipped). Hart 0 stores 0xA at
 * cycle 100 and 0xD at 101, hart 1 0xB at 100 and 0xC at 102; the timestamp counts from cycle
 * 0 + 0x1000 - 90, so every timestamp is the store cycle + 4006. The funnel emits hart 1's
 * store of cycle 100 first and hart 1's store of 102 before hart 0's of 101. */
static void check_folder(pk_t *p, bool drop_hart1_second, uint32_t hart1_first) {
    make_dir();
    pk_init(p, 1);
    ictws(p, 0, 4096);
    ictws(p, 1, 4096);
    dqm(p, 1, 0x18, 0xB, 4106);
    dqm(p, 0, 0x18, 0xA, 4106);
    if (!drop_hart1_second) dqm(p, 1, 0x1B, 0xC, 4108);
    dqm(p, 0, 0x1A, 0xD, 4107);
    write_file("trace.rtd", p->b, p->n);
    write_json(2, 1, 0);
    char itc[512];
    snprintf(itc, sizeof itc, "cycle,hart,stimulus,offset,size,value\n"
                              "100,0,6,0,4,0x0000000a\n100,1,6,0,4,0x%08x\n101,0,6,2,2,0x0000000d\n102,1,6,3,1,0x0000000c\n",
             hart1_first);
    write_text("itc.csv", itc);
    /* the rest of the ground truth a run folder has (no perf record to check) */
    write_text("counters.csv", "cycle,hart,pc,csr,value\n");
    write_text("flow.csv", "cycle,hart,kind,pc,target,link\n");
    write_text("stats.txt", "cycles 200\nend ok\n"); /* a run that finished (its end marker) */
}
static int check(void) {
    char *a[] = {"check", dir};
    return run(ts_check_main, 2, a);
}

TS_TEST(check_two_harts_same_cycle) {
    static pk_t p;
    check_folder(&p, false, 0xB);
    TS_ASSERT_EQ_I(check(), 0);
    TS_ASSERT(strstr(outbuf, "check: hart 0: 2 of 2 ITC stores found in the trace, in order, with their values; 2 timestamps equal the store cycle + 4006\n"));
    TS_ASSERT(strstr(outbuf, "check: hart 1: 2 of 2 ITC stores found in the trace, in order, with their values; 2 timestamps equal the store cycle + 4006\n"));
    TS_ASSERT(strstr(outbuf, "check: funnel: 4 ITC messages of 2 harts, each a whole message (none corrupt), each hart's in order, "
                             "none lost or duplicated; one time base: 4 timestamps equal the store cycle + 4006\n"));
    TS_ASSERT(strstr(outbuf, "check: hart 0: 2 stores, 0 perf records, OK\ncheck: hart 1: 2 stores, 0 perf records, OK\n"));
    cleanup();
}

TS_TEST(check_names_the_hart_that_lost_a_message) {
    static pk_t p;
    check_folder(&p, true, 0xB);
    TS_ASSERT_EQ_I(check(), 1);
    TS_ASSERT_STR_EQ(outbuf, "tracesim: check FAILED: hart 1: 1 stores are missing from the trace (first: cycle 102)\n");
    cleanup();
}

TS_TEST(check_names_the_hart_whose_ground_truth_disagrees) {
    static pk_t p;
    check_folder(&p, false, 0xBB);
    TS_ASSERT_EQ_I(check(), 1);
    TS_ASSERT_STR_EQ(outbuf, "tracesim: check FAILED: hart 1: store 1 (cycle 100, stimulus 6+0, value 0xbb) decoded as IDTAG 0x18 "
                             "DATA 0xb at offset 12\n");
    cleanup();
}

TS_TEST(check_one_time_base_for_all_harts) {
    /* hart 1's encoder 3 cycles late: its timestamps disagree with hart 0's time base */
    static pk_t p;
    make_dir();
    pk_init(&p, 1);
    ictws(&p, 0, 4096);
    ictws(&p, 1, 4096);
    dqm(&p, 0, 0x18, 0xA, 4106);
    dqm(&p, 1, 0x18, 0xB, 4109);
    write_file("trace.rtd", p.b, p.n);
    write_json(2, 1, 0);
    write_text("itc.csv", "cycle,hart,stimulus,offset,size,value\n100,0,6,0,4,0x0000000a\n100,1,6,0,4,0x0000000b\n");
    TS_ASSERT_EQ_I(check(), 1);
    TS_ASSERT_STR_EQ(outbuf, "tracesim: check FAILED: hart 1: store 1 at cycle 100 has timestamp 4109: 3 cycles off (expected store "
                             "cycle + 4006, the one time base of every hart)\n");
    cleanup();
}

TS_TEST(check_rejects_a_source_that_is_not_a_hart) {
    static pk_t p;
    make_dir();
    pk_init(&p, 2);
    ictws(&p, 0, 4096);
    ictws(&p, 2, 4096);
    dqm(&p, 0, 0x18, 0xA, 4106);
    dqm(&p, 2, 0x18, 0xB, 4106);
    write_file("trace.rtd", p.b, p.n);
    write_json(2, 2, 0);
    write_text("itc.csv", "cycle,hart,stimulus,offset,size,value\n100,0,6,0,4,0x0000000a\n");
    TS_ASSERT_EQ_I(check(), 1);
    TS_ASSERT(strstr(outbuf, "comes from source 2, but the run has 2 harts"));
    cleanup();
}

TS_TEST_MAIN()
