/* test_decoder.c - Nexus decoder: hand-built messages for the TCODEs the encoder emits, and
 * corrupt, truncated and random input (it must never read out of bounds or loop: this file
 * runs under ASan/UBSan). Expected fields are written from the field tables. */
#include "decode_cli.h"
#include "elements.h"
#include "nexus.h"
#include "nexus_decode.h"
#include "trace_in.h"
#include "run_trace.h"
#include "ts_test.h"
#include <stdlib.h>
#include <unistd.h>

typedef struct coll {
    nxd_msg_t m[64];
    unsigned n;
} coll_t;
static int collect(void *ctx, const nxd_msg_t *m) {
    coll_t *c = ctx;
    if (c->n < 64) c->m[c->n++] = *m;
    return 0;
}
static coll_t run(const uint8_t *b, size_t n, unsigned srcbits) {
    nxd_cfg_t cfg = {srcbits, 40};
    nxd_t d;
    nxd_init(&d, &cfg);
    coll_t c = {.n = 0};
    nxd_decode(&d, b, n, collect, &c);
    return c;
}

TS_TEST(worked_example_with_timestamps) {
    /* ICT-WS @0x1000, DQM 0x18/0x12345678 at TS xor 0x25 (trace-hw-facts.md 4.8) */
    static const uint8_t b[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07,
                                0x1c, 0x61, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97, 0xff, 0xff};
    coll_t c = run(b, sizeof b, 0);
    TS_ASSERT_EQ_U(c.n, 2);
    TS_ASSERT_EQ_U(c.m[0].tcode, 35);
    TS_ASSERT_EQ_U(c.m[0].tics, 0x1000);
    TS_ASSERT_EQ_U(c.m[1].tcode, 7);
    TS_ASSERT_EQ_U(c.m[1].f[NXF_IDTAG], 0x18);
    TS_ASSERT_EQ_U(c.m[1].f[NXF_DATA], 0x12345678);
    TS_ASSERT_EQ_U(c.m[1].tics, 4133); /* 0x1000 ^ 0x25 */
    TS_ASSERT_EQ_U(c.m[1].offset, 6);
}

TS_TEST(relative_time_unknown_before_full) {
    static const uint8_t b[] = {0x1c, 0x61, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97};
    coll_t c = run(b, sizeof b, 0);
    TS_ASSERT_EQ_U(c.n, 1);
    TS_ASSERT(c.m[0].has_ts);
    TS_ASSERT(!c.m[0].tics_valid);
}

TS_TEST(src_field) {
    static const uint8_t b[] = {0x1c, 0x84, 0x05, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97};
    coll_t c = run(b, sizeof b, 2);
    TS_ASSERT_EQ_U(c.n, 1);
    TS_ASSERT_EQ_U(c.m[0].src, 1);
    TS_ASSERT_EQ_U(c.m[0].f[NXF_IDTAG], 0x18);
}

TS_TEST(error_forgets_time) {
    static const uint8_t b[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07, /* full 0x1000 */
                                0x20, 0x03,                         /* Error */
                                0x1c, 0x01, 0x05, 0x07};            /* DQM, TS xor 1 */
    coll_t c = run(b, sizeof b, 0);
    TS_ASSERT_EQ_U(c.n, 3);
    TS_ASSERT_EQ_U(c.m[1].tcode, 8);
    TS_ASSERT(!c.m[2].tics_valid);
}

TS_TEST(unknown_tcode_and_resync) {
    static const uint8_t b[] = {0x04, 0x03,        /* TCODE 1: unsupported */
                                0x1c, 0x0d, 0x2b}; /* DQM IDTAG 3 DATA 0x0A */
    coll_t c = run(b, sizeof b, 0);
    TS_ASSERT_EQ_U(c.n, 2);
    TS_ASSERT_EQ_I(c.m[0].status, NXD_BAD);
    TS_ASSERT_EQ_I(c.m[1].status, NXD_OK);
    TS_ASSERT_EQ_U(c.m[1].f[NXF_DATA], 0x0A);
}

TS_TEST(truncated_at_end) {
    static const uint8_t b[] = {0x1c, 0x0d, 0x2b, 0x1c, 0x61, 0xe0};
    coll_t c = run(b, sizeof b, 0);
    TS_ASSERT_EQ_U(c.n, 2);
    TS_ASSERT_EQ_I(c.m[1].status, NXD_TRUNCATED);
    TS_ASSERT_EQ_U(c.m[1].len, 3);
}

TS_TEST(field_wider_than_64_bits_is_bad) {
    uint8_t b[20] = {0x1c, 0x01}; /* DQM, IDTAG 0, then 13 DATA bytes */
    for (int i = 2; i < 15; i++) b[i] = 0xFC;
    b[15] = 0xFF; /* ends the message: field > 64 bits */
    coll_t c = run(b, 16, 0);
    TS_ASSERT_EQ_U(c.n, 1);
    TS_ASSERT_EQ_I(c.m[0].status, NXD_BAD);
}

TS_TEST(overlong_message_is_bad) {
    uint8_t b[80];
    b[0] = 0x1c;
    for (int i = 1; i < 80; i++) b[i] = 0x04; /* never ends */
    coll_t c = run(b, sizeof b, 0);
    TS_ASSERT(c.n >= 1);
    TS_ASSERT_EQ_I(c.m[0].status, NXD_BAD);
}

/* deterministic pseudo-random input: nothing may crash, hang or read past the buffer */
TS_TEST(random_bytes_survive) {
    uint32_t x = 12345;
    for (int round = 0; round < 300; round++) {
        uint8_t b[512];
        size_t n = 1 + (size_t)(round * 7 % 511);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            b[i] = (uint8_t)(x >> 16);
        }
        for (unsigned sb = 0; sb <= 8; sb += 4) {
            nxd_cfg_t cfg = {sb, 40};
            nxd_t d;
            nxd_init(&d, &cfg);
            coll_t c = {.n = 0};
            nxd_decode(&d, b, n, collect, &c);
            for (unsigned k = 0; k < c.n; k++) {
                TS_ASSERT(c.m[k].offset + c.m[k].len <= n);
                TS_ASSERT(c.m[k].len <= NXD_MAX_MSG);
            }
        }
    }
}

/* nxd_decode_stream: a trace given in pieces of any size (1 byte, around the 64-byte message
 * limit, random, empty ones) decodes to exactly the messages of nxd_decode of the whole
 * trace - offsets, lengths, bytes, statuses, errors, fields, times - and the same counts,
 * on well-formed traces (messages spanning pieces), random bytes (corrupt, truncated) and
 * runs without a message end (messages longer than 64 bytes, resync inside the carry) */
typedef struct smsg {
    nxd_msg_t m;
    uint8_t b[NXD_MAX_MSG];
} smsg_t;
typedef struct scoll {
    smsg_t *m;
    unsigned n, cap;
} scoll_t;
static int scollect(void *ctx, const nxd_msg_t *m) {
    scoll_t *c = ctx;
    if (c->n < c->cap) {
        c->m[c->n].m = *m;
        memcpy(c->m[c->n].b, m->bytes, m->len);
        c->n++;
    }
    return 0;
}
TS_TEST(stream_pieces_equal_whole) {
    static uint8_t b[6000];
    static smsg_t whole[3000], part[3000];
    static const uint8_t ex[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07, 0x1c, 0x61, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97, 0xff};
    uint32_t x = 777;
    for (int flavour = 0; flavour < 3; flavour++) {
        size_t n = sizeof b;
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            uint8_t r = (uint8_t)(x >> 16);
            if (flavour == 0) b[i] = ex[i % sizeof ex]; /* well-formed messages */
            else if (flavour == 1)
                b[i] = r; /* anything */
            else
                b[i] = (r & 0xFC) | ((x >> 8) % 97 == 0 ? 3 : (r & 1)); /* message ends rare: long runs */
        }
        for (unsigned sb = 0; sb <= 4; sb += 4) {
            nxd_cfg_t cfg = {sb, 40};
            nxd_t d, e;
            nxd_init(&d, &cfg);
            d.offset = 5;
            scoll_t cw = {whole, 0, 3000};
            nxd_decode(&d, b, n, scollect, &cw);
            TS_ASSERT(cw.n > 20 && cw.n < 3000);
            static const size_t sizes[] = {1, 2, 3, 7, 63, 64, 65, 127, 128, 129, 1000, 6000, 0};
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                nxd_init(&e, &cfg);
                e.offset = 5;
                scoll_t cp = {part, 0, 3000};
                size_t at = 0;
                while (at < n) {
                    size_t len = sizes[k];
                    if (!len) {
                        x = x * 1103515245u + 12345u;
                        len = (x >> 16) % 150;
                    } /* random, some empty */
                    if (len > n - at) len = n - at;
                    nxd_decode_stream(&e, b + at, len, true, scollect, &cp);
                    at += len;
                }
                nxd_decode_stream(&e, NULL, 0, false, scollect, &cp);
                TS_ASSERT_EQ_U(cp.n, cw.n);
                TS_ASSERT_EQ_U(e.messages, d.messages);
                TS_ASSERT_EQ_U(e.bad, d.bad);
                TS_ASSERT_EQ_U(e.skipped, d.skipped);
                TS_ASSERT_EQ_U(e.offset, d.offset);
                for (unsigned i = 0; i < cw.n; i++) {
                    const nxd_msg_t *a = &cw.m[i].m, *p = &cp.m[i].m;
                    TS_ASSERT_EQ_U(p->offset, a->offset);
                    TS_ASSERT_EQ_U(p->len, a->len);
                    TS_ASSERT(!memcmp(cp.m[i].b, cw.m[i].b, a->len));
                    TS_ASSERT_EQ_U(p->status, a->status);
                    TS_ASSERT((!a->error && !p->error) || (a->error && p->error && !strcmp(a->error, p->error)));
                    TS_ASSERT_EQ_U(p->tcode, a->tcode);
                    TS_ASSERT_EQ_U(p->src, a->src);
                    TS_ASSERT_EQ_U(p->tics_valid, a->tics_valid);
                    TS_ASSERT_EQ_U(p->tics, a->tics);
                    TS_ASSERT_EQ_U(p->fmask, a->fmask);
                    for (unsigned f = 0; f < NXF__COUNT; f++)
                        if (a->fmask >> f & 1u) TS_ASSERT_EQ_U(p->f[f], a->f[f]);
                }
            }
            TS_ASSERT(flavour != 2 || d.bad > 0);
        }
    }
}

/* ts_trace_in (check's reader of trace.rtd in pieces): the messages of the file equal
 * nxd_decode of the whole; a wrapped trace starts after the first byte with MSEO 11 even when
 * it lies beyond the first read buffer (run_trace.h ts_wrap_start gives the expected offset) */
TS_TEST(trace_in_pieces_and_wrap_start) {
    static uint8_t b[TS_TRACE_IN_BUF + 9000];
    static smsg_t whole[3000], part[3000];
    static const uint8_t ex[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07, 0x1c, 0x61, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97, 0xff};
    size_t n = sizeof b, lead = TS_TRACE_IN_BUF + 100;
    for (size_t i = 0; i < n; i++) b[i] = i < lead ? 0x04 : ex[(i - lead) % sizeof ex]; /* no message end before lead */
    char path[] = "/tmp/ts_trace_in_XXXXXX";
    int fd = mkstemp(path);
    TS_ASSERT(fd >= 0);
    TS_ASSERT(write(fd, b, n) == (ssize_t)n);
    close(fd);
    nxd_cfg_t cfg = {0, 40};
    for (int wrapped = 0; wrapped <= 1; wrapped++) {
        size_t start = wrapped ? ts_wrap_start(b, n) : 0;
        TS_ASSERT(!wrapped || start > lead);
        nxd_t d;
        nxd_init(&d, &cfg);
        d.offset = start;
        scoll_t cw = {whole, 0, 3000}, cp = {part, 0, 3000};
        nxd_decode(&d, b + start, n - start, scollect, &cw);
        ts_trace_in_t *t = malloc(sizeof *t);
        TS_ASSERT(t && !ts_trace_in_open(t, path, &cfg, wrapped));
        TS_ASSERT_EQ_U(t->start, start);
        while (!t->done) ts_trace_in_step(t, 333, scollect, &cp);
        TS_ASSERT_EQ_U(t->end, n);
        ts_trace_in_close(t);
        free(t);
        TS_ASSERT(cw.n > 100);
        TS_ASSERT_EQ_U(cp.n, cw.n);
        for (unsigned i = 0; i < cw.n; i++) {
            TS_ASSERT_EQ_U(cp.m[i].m.offset, cw.m[i].m.offset);
            TS_ASSERT_EQ_U(cp.m[i].m.len, cw.m[i].m.len);
            TS_ASSERT_EQ_U(cp.m[i].m.status, cw.m[i].m.status);
            TS_ASSERT_EQ_U(cp.m[i].m.tics, cw.m[i].m.tics);
            TS_ASSERT(!memcmp(cp.m[i].b, cw.m[i].b, cw.m[i].m.len));
        }
    }
    unlink(path);
}

TS_TEST(bad_config_rejected) {
    nxd_t d;
    nxd_cfg_t cfg = {9, 40};
    TS_ASSERT_EQ_I(nxd_init(&d, &cfg), -1);
    cfg.srcbits = 0;
    cfg.tsbits = 0;
    TS_ASSERT_EQ_I(nxd_init(&d, &cfg), -1);
}

/* every TCODE of the field tables: fields packed by the encoder's packer (rtl_model/trace/
 * nexus.c, itself checked against the worked byte examples) must decode to the same values,
 * with and without SRC and timestamp, for random field values */
static uint32_t rnd_state = 99;
static uint64_t rnd(unsigned bits) {
    uint64_t v = 0;
    for (int i = 0; i < 3; i++) {
        rnd_state = rnd_state * 1103515245u + 12345u;
        v = v << 21 ^ (rnd_state >> 8);
    }
    unsigned shift = (unsigned)(rnd_state >> 3) % (bits + 1); /* mix small and large values */
    return bits >= 64 ? v >> shift : (v & ((1ull << bits) - 1)) >> shift;
}

TS_TEST(every_tcode_round_trip) {
    static const unsigned tcodes[] = {NX_OWNERSHIP, NX_DIRECT_BRANCH, NX_INDIRECT_BRANCH, NX_DATA_ACQ, NX_ERROR, NX_SYNC,
                                      NX_DIRECT_BRANCH_WS, NX_INDIRECT_BRANCH_WS, NX_AUX_ACCESS_WRITE, NX_RESOURCE_FULL,
                                      NX_INDIRECT_BRANCH_HIST, NX_INDIRECT_BRANCH_HIST_WS, NX_CORRELATION, NX_ICT, NX_ICT_WS};
    for (int round = 0; round < 200; round++) {
        for (unsigned k = 0; k < sizeof tcodes / sizeof tcodes[0]; k++) {
            unsigned t = tcodes[k], srcbits = round % 3 ? 2 : 0;
            bool ts = round & 1;
            uint64_t f[6];
            for (int i = 0; i < 6; i++) f[i] = rnd(40);
            nx_msg_t m;
            nx_begin(&m);
            nx_fixed(&m, t, NX_W_TCODE);
            if (srcbits) nx_fixed(&m, 2, srcbits);
            unsigned fx = 0, cdf = 0, rcode = 0;
            switch (t) {
            case NX_OWNERSHIP:
            case NX_DIRECT_BRANCH: nx_var(&m, f[0]); break;
            case NX_INDIRECT_BRANCH:
                nx_fixed(&m, fx = 1, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_DATA_ACQ:
            case NX_AUX_ACCESS_WRITE:
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_ERROR:
                nx_fixed(&m, 0, 4);
                nx_var(&m, f[0]);
                break;
            case NX_SYNC:
            case NX_DIRECT_BRANCH_WS:
                nx_fixed(&m, fx = 5, 4);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_INDIRECT_BRANCH_WS:
                nx_fixed(&m, 5, 4);
                nx_fixed(&m, 1, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_RESOURCE_FULL:
                nx_fixed(&m, rcode = (round % 2) ? 1 : 9, 4);
                nx_var(&m, f[0]);
                break;
            case NX_INDIRECT_BRANCH_HIST:
                nx_fixed(&m, 0, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                nx_var(&m, f[2]);
                break;
            case NX_INDIRECT_BRANCH_HIST_WS:
                nx_fixed(&m, 2, 4);
                nx_fixed(&m, 0, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                nx_var(&m, f[2]);
                break;
            case NX_CORRELATION:
                nx_fixed(&m, 4, 4);
                nx_fixed(&m, cdf = round % 2, 2);
                nx_var(&m, f[0]);
                if (cdf) nx_var(&m, f[1]);
                break;
            default:
                nx_fixed(&m, 8, 4);
                nx_fixed(&m, cdf = round % 2, 2);
                nx_var(&m, f[0]);
                if (cdf) nx_var(&m, f[1]);
                break;
            }
            if (ts) nx_var(&m, f[5]);
            nx_end(&m);
            coll_t c = run(m.b, m.len, srcbits);
            if (c.n != 1 || c.m[0].status != NXD_OK) TS_FAIL("TCODE %u round %d: not decoded (%s)", t, round, c.n ? c.m[0].error : "no message");
            const nxd_msg_t *d = &c.m[0];
            TS_ASSERT_EQ_U(d->tcode, t);
            if (srcbits) TS_ASSERT_EQ_U(d->src, 2);
            TS_ASSERT_EQ_U(d->has_ts, ts);
            if (ts) TS_ASSERT_EQ_U(d->ts_field, f[5]);
            switch (t) {
            case NX_OWNERSHIP: TS_ASSERT_EQ_U(d->f[NXF_PROCESS], f[0]); break;
            case NX_DIRECT_BRANCH: TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]); break;
            case NX_INDIRECT_BRANCH:
                TS_ASSERT_EQ_U(d->f[NXF_B_TYPE], fx);
                TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]);
                TS_ASSERT_EQ_U(d->f[NXF_U_ADDR], f[1]);
                break;
            case NX_DATA_ACQ:
                TS_ASSERT_EQ_U(d->f[NXF_IDTAG], f[0]);
                TS_ASSERT_EQ_U(d->f[NXF_DATA], f[1]);
                break;
            case NX_AUX_ACCESS_WRITE:
                TS_ASSERT_EQ_U(d->f[NXF_ADDR], f[0]);
                TS_ASSERT_EQ_U(d->f[NXF_DATA], f[1]);
                break;
            case NX_ERROR: TS_ASSERT_EQ_U(d->f[NXF_ECODE], f[0]); break;
            case NX_SYNC:
            case NX_DIRECT_BRANCH_WS:
                TS_ASSERT_EQ_U(d->f[NXF_SYNC], fx);
                TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]);
                TS_ASSERT_EQ_U(d->f[NXF_F_ADDR], f[1]);
                break;
            case NX_INDIRECT_BRANCH_WS:
                TS_ASSERT_EQ_U(d->f[NXF_B_TYPE], 1);
                TS_ASSERT_EQ_U(d->f[NXF_F_ADDR], f[1]);
                break;
            case NX_RESOURCE_FULL:
                TS_ASSERT_EQ_U(d->f[NXF_RCODE], rcode);
                TS_ASSERT_EQ_U(d->f[rcode == 1 ? NXF_HISTORY : NXF_COUNT], f[0]);
                break;
            case NX_INDIRECT_BRANCH_HIST:
                TS_ASSERT_EQ_U(d->f[NXF_U_ADDR], f[1]);
                TS_ASSERT_EQ_U(d->f[NXF_HISTORY], f[2]);
                break;
            case NX_INDIRECT_BRANCH_HIST_WS:
                TS_ASSERT_EQ_U(d->f[NXF_SYNC], 2);
                TS_ASSERT_EQ_U(d->f[NXF_HISTORY], f[2]);
                break;
            case NX_CORRELATION:
                TS_ASSERT_EQ_U(d->f[NXF_EVCODE], 4);
                TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]);
                if (cdf) TS_ASSERT_EQ_U(d->f[NXF_HISTORY], f[1]);
                break;
            default:
                TS_ASSERT_EQ_U(d->f[NXF_CKSRC], 8);
                TS_ASSERT_EQ_U(d->f[NXF_CKDATA0], f[0]);
                if (cdf) TS_ASSERT_EQ_U(d->f[NXF_CKDATA1], f[1]);
                break;
            }
        }
    }
}

/* ICT and ICT-WS messages with an address (trace-hw-facts.md 4.4: CKDATA0 is an address for
 * every CKSRC but 0, and for CKSRC 0 with CKDF 1; full in TCODE 35, XOR-compressed against the
 * source's last address in TCODE 34, like U-ADDR, 4.6). Packed here, one after the other, with
 * an indirect branch in the middle that must XOR against the address the ICT left. */
typedef struct ict_case {
    unsigned tcode, cksrc, ckdf;
    uint64_t addr;        /* absolute address carried (0: none, CKSRC 0 CKDF 0) */
    uint64_t data1, ctl0; /* CKDATA1 when CKDF 1; CKDATA0 when it is a control code */
    enum ts_elem_type type;
} ict_case_t;
static const ict_case_t ict_cases[] = {
    {35, 0, 1, 0x80000200, 2, 0, TS_ELEM_TRACE_ON},               /* control: trace on, with address */
    {34, 9, 0, 0x80000480, 0, 0, TS_ELEM_ICT_EVENT},              /* inferable call */
    {34, 10, 1, 0x80000010, 7, 0, TS_ELEM_ICT_EVENT},             /* exception, cause 7 */
    {35, 15, 0, 0x80001000, 0, 0, TS_ELEM_ICT_EVENT},             /* PC sample */
    {34, 0, 0, 0, 0, 3, TS_ELEM_TRACE_OFF},                       /* control 3, no address */
    {4, 0, 0, 0x80001100, 0, 0, TS_ELEM_BRANCH},                  /* indirect branch, U-ADDR */
    {34, 14, 1, 0x80001104, 3, 0, TS_ELEM_ICT_EVENT},             /* watchpoint 3 */
    {34, 8, 0, 0x80000ff0, 0, 0, TS_ELEM_ICT_EVENT},              /* external trigger */
    {34, 11, 1, 0x80000020, 0x8000000bu, 0, TS_ELEM_ICT_EVENT},   /* interrupt */
    {34, 13, 1, 0x80000024, (5u << 2) | 2, 0, TS_ELEM_ICT_EVENT}, /* context */
    {34, 0, 1, 0x80002000, 2, 0, TS_ELEM_TRACE_ON},               /* control with a compressed address */
};
#define N_ICT (sizeof ict_cases / sizeof ict_cases[0])
static uint64_t ict_field[N_ICT]; /* the address field as sent (>> 1) */

static size_t ict_stream(uint8_t *b) {
    size_t n = 0;
    uint64_t last = 0;
    for (unsigned k = 0; k < N_ICT; k++) {
        const ict_case_t *c = &ict_cases[k];
        nx_msg_t m;
        nx_begin(&m);
        nx_fixed(&m, c->tcode, 6);
        ict_field[k] = c->tcode == NX_ICT_WS ? c->addr >> 1 : (c->addr ^ last) >> 1;
        if (c->tcode == NX_INDIRECT_BRANCH) {
            nx_fixed(&m, 0, 2);
            nx_var(&m, 5);
            nx_var(&m, ict_field[k]);
        } else {
            nx_fixed(&m, c->cksrc, 4);
            nx_fixed(&m, c->ckdf, 2);
            nx_var(&m, c->addr ? ict_field[k] : c->ctl0);
            if (c->ckdf) nx_var(&m, c->data1);
        }
        nx_end(&m);
        memcpy(b + n, m.b, m.len);
        n += m.len;
        if (c->addr) last = c->addr;
    }
    return n;
}

typedef struct ecol {
    ts_elem_t e[32];
    unsigned n;
} ecol_t;
static int put_elem(void *c, const ts_elem_t *e) {
    ecol_t *o = c;
    if (o->n < 32) o->e[o->n++] = *e;
    return 0;
}

TS_TEST(ict_addresses_in_elements) {
    uint8_t b[512];
    size_t n = ict_stream(b);
    static ecol_t c;
    memset(&c, 0, sizeof c);
    nxd_cfg_t cfg = {0, 40};
    nxd_t d;
    nxd_init(&d, &cfg);
    ts_elem_stage_t s;
    ts_elem_init(&s, put_elem, &c);
    nxd_decode(&d, b, n, ts_elem_from_msg, &s);
    TS_ASSERT_EQ_U(c.n, N_ICT);
    for (unsigned k = 0; k < N_ICT; k++) {
        const ict_case_t *w = &ict_cases[k];
        const ts_elem_t *e = &c.e[k];
        if (e->type != w->type) TS_FAIL("message %u: element %s", k, ts_elem_name(e->type));
        if (w->tcode == NX_INDIRECT_BRANCH) {
            TS_ASSERT_EQ_U(e->u.br.addr, w->addr);
            continue;
        }
        TS_ASSERT_EQ_U(e->u.ict.cksrc, w->cksrc);
        TS_ASSERT_EQ_U(e->u.ict.has_addr, w->addr != 0);
        if (e->u.ict.addr != w->addr) TS_FAIL("message %u: addr 0x%" PRIx64 ", expected 0x%" PRIx64, k, e->u.ict.addr, w->addr);
        if (w->ckdf) TS_ASSERT_EQ_U(e->u.ict.data1, w->data1);
    }
}

TS_TEST(ict_addresses_in_messages_json) {
    uint8_t b[512];
    size_t n = ict_stream(b);
    char dir[64] = "/tmp/ts_dec_XXXXXX", path[128], cmd[160];
    TS_ASSERT(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.rtd", dir);
    FILE *f = fopen(path, "wb");
    TS_ASSERT(f);
    fwrite(b, 1, n, f);
    fclose(f);
    char *argv[] = {"decode", "--srcbits", "0", "-o", dir, path, NULL};
    TS_ASSERT_EQ_I(ts_decode_main(6, argv), 0);
    snprintf(path, sizeof path, "%s/messages.jsonl", dir);
    f = fopen(path, "r");
    TS_ASSERT(f);
    char line[1024];
    for (unsigned k = 0; k < N_ICT; k++) {
        TS_ASSERT(fgets(line, sizeof line, f));
        const ict_case_t *w = &ict_cases[k];
        char want[256];
        uint64_t a = ict_field[k];
        /* fields in alphabetical order, as the reference files have them */
        if (w->tcode == NX_INDIRECT_BRANCH)
            snprintf(want, sizeof want, "\"fields\": {\"b_type\": 0, \"i_cnt\": 5, \"u_addr\": %" PRIu64 "}", a);
        else if (w->cksrc == NX_CKSRC_CONTROL && !w->ckdf)
            snprintf(want, sizeof want, "\"fields\": {\"cksrc\": 0, \"control\": %" PRIu64 "}", w->ctl0);
        else if (w->cksrc == NX_CKSRC_CONTROL)
            snprintf(want, sizeof want, "\"fields\": {\"cksrc\": 0, \"control\": %" PRIu64 ", \"%s\": %" PRIu64 "}",
                     w->data1, w->tcode == NX_ICT_WS ? "f_addr" : "u_addr", a);
        else if (w->ckdf)
            snprintf(want, sizeof want, "\"fields\": {\"ckdata1\": %" PRIu64 ", \"cksrc\": %u, \"%s\": %" PRIu64 "}",
                     w->data1, w->cksrc, w->tcode == NX_ICT_WS ? "f_addr" : "u_addr", a);
        else
            snprintf(want, sizeof want, "\"fields\": {\"cksrc\": %u, \"%s\": %" PRIu64 "}",
                     w->cksrc, w->tcode == NX_ICT_WS ? "f_addr" : "u_addr", a);
        if (!strstr(line, want)) TS_FAIL("message %u:\n  got:  %s  want: %s", k, line, want);
    }
    TS_ASSERT(!fgets(line, sizeof line, f));
    fclose(f);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    TS_ASSERT_EQ_I(system(cmd), 0);
}

TS_TEST_MAIN()
