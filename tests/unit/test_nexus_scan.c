/* test_nexus_scan.c - the message parser's hot loop (nexus_decode.c): nxd_scan_msg, which
 * frames one message 8 bytes a step and marks its field ends, and the two forms of the field
 * reader (a message of up to 10 bytes with 8 bytes readable is read from one 64-bit word; the
 * others, and those at the very end of the input, byte by byte). Byte sequences and their
 * fields are those of trace-hw-facts.md 4.1 and 4.8, or made by the encoder's packer
 * (rtl_model/trace/nexus.c) from known values. Runs under ASan: every buffer is exactly as
 * long as the bytes given, so a read past them fails. */
#include "nexus.h"
#include "nexus_decode.h"
#include "ts_test.h"
#include <stdlib.h>
#include <string.h>

/* nxd_scan_msg over a heap copy of exactly n bytes */
static int scan(const uint8_t *b, size_t n, uint64_t *fe) {
    uint8_t *h = malloc(n ? n : 1);
    memcpy(h, b, n);
    int r = nxd_scan_msg(h, n, fe);
    free(h);
    return r;
}

TS_TEST(scan_frames_the_worked_examples) {
    /* 4.8: IDTAG ends at byte 1 (MSEO 01), DATA at byte 6 (01), TSTAMP and the message at 7 (11) */
    static const uint8_t dq[] = {0x1c, 0x61, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97, 0xff, 0xff, 0x1c, 0x0d};
    uint64_t fe = 0;
    TS_ASSERT_EQ_I(scan(dq, sizeof dq, &fe), 8);
    TS_ASSERT_EQ_U(fe, 1u << 1 | 1u << 6 | 1u << 7);
    TS_ASSERT_EQ_I(scan(dq, 8, &fe), 8); /* exactly the message: the byte path */
    TS_ASSERT_EQ_U(fe, 1u << 1 | 1u << 6 | 1u << 7);
    /* the same store with 2 SRC bits: SRC and IDTAG share byte 1, IDTAG ends in byte 2 */
    static const uint8_t src[] = {0x1c, 0x84, 0x05, 0xe0, 0x64, 0x14, 0x34, 0x49, 0x97, 0xff};
    TS_ASSERT_EQ_I(scan(src, sizeof src, &fe), 9);
    TS_ASSERT_EQ_U(fe, 1u << 2 | 1u << 7 | 1u << 8);
    /* a timestamp-less store: DATA ends the message (itc_printf.rtd) */
    static const uint8_t nots[] = {0x1c, 0x0d, 0x2b};
    TS_ASSERT_EQ_I(scan(nots, sizeof nots, &fe), 3);
    TS_ASSERT_EQ_U(fe, 1u << 1 | 1u << 2);
    /* the reserved MSEO 10 ends a field, not the message (4.1) */
    static const uint8_t res[] = {0x1c, 0x62, 0xe0, 0x03, 0x1c, 0x1c, 0x1c, 0x1c, 0x1c};
    TS_ASSERT_EQ_I(scan(res, sizeof res, &fe), 4);
    TS_ASSERT_EQ_U(fe, 1u << 1 | 1u << 3);
}

TS_TEST(scan_cut_off_and_too_long) {
    uint8_t b[70];
    uint64_t fe;
    memset(b, 0x10, sizeof b);          /* MDO 4, MSEO 00: no end anywhere */
    TS_ASSERT_EQ_I(scan(b, 7, &fe), 0); /* cut off by the end of the input */
    TS_ASSERT_EQ_I(scan(b, 63, &fe), 0);
    TS_ASSERT_EQ_I(scan(b, 64, &fe), 0);  /* 64 bytes, input ends: still cut off */
    TS_ASSERT_EQ_I(scan(b, 65, &fe), -1); /* 64 bytes and more input: too long */
    TS_ASSERT_EQ_U(fe, 0);
    b[63] = 0x13; /* the 64th byte ends it: the longest message */
    TS_ASSERT_EQ_I(scan(b, 70, &fe), 64);
    TS_ASSERT_EQ_U(fe, 1ull << 63);
    b[20] = 0x11; /* a field end in the 3rd word */
    TS_ASSERT_EQ_I(scan(b, 64, &fe), 64);
    TS_ASSERT_EQ_U(fe, 1ull << 63 | 1ull << 20);
    b[9] = 0x13; /* an end in the 2nd word: later flags dropped */
    TS_ASSERT_EQ_I(scan(b, 70, &fe), 10);
    TS_ASSERT_EQ_U(fe, 1ull << 9);
}

typedef struct one {
    nxd_msg_t m;
    unsigned n;
} one_t;
static int keep(void *ctx, const nxd_msg_t *m) {
    one_t *o = ctx;
    if (!o->n++) o->m = *m;
    return 0;
}
/* decodes b[0..n) + `pad` idle bytes (0xFF) from a heap buffer of exactly that size */
static one_t decode1(const uint8_t *b, size_t n, size_t pad, unsigned srcbits) {
    uint8_t *h = malloc(n + pad);
    memcpy(h, b, n);
    memset(h + n, 0xff, pad);
    nxd_cfg_t cfg = {srcbits, 40};
    nxd_t d;
    nxd_init(&d, &cfg);
    one_t o = {.n = 0};
    nxd_decode(&d, h, n + pad, keep, &o);
    free(h);
    return o;
}

static uint32_t rs = 12345;
static uint64_t rnd_bits(unsigned bits) {
    uint64_t v = 0;
    for (int i = 0; i < 3; i++) {
        rs = rs * 1103515245u + 12345u;
        v = v << 21 ^ (rs >> 8);
    }
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

TS_TEST(both_field_readers_give_the_encoded_values) {
    static const unsigned tcodes[] = {NX_OWNERSHIP, NX_DIRECT_BRANCH, NX_INDIRECT_BRANCH, NX_DATA_ACQ, NX_ERROR, NX_SYNC,
                                      NX_DIRECT_BRANCH_WS, NX_INDIRECT_BRANCH_WS, NX_AUX_ACCESS_WRITE, NX_RESOURCE_FULL,
                                      NX_INDIRECT_BRANCH_HIST, NX_INDIRECT_BRANCH_HIST_WS, NX_CORRELATION, NX_ICT, NX_ICT_WS};
    static const unsigned widths[] = {1, 4, 6, 9, 13, 20, 27, 33, 44, 64};
    unsigned seen = 0; /* bit L: a message of L bytes was checked */
    for (int round = 0; round < 400; round++) {
        for (unsigned k = 0; k < sizeof tcodes / sizeof tcodes[0]; k++) {
            unsigned t = tcodes[k], srcbits = (unsigned)round % 9, src = (unsigned)rnd_bits(srcbits);
            bool ts = (round / 9) & 1;
            unsigned w = widths[(unsigned)round / 18 % 10];
            uint64_t f[4];
            for (int i = 0; i < 4; i++) f[i] = rnd_bits(1 + (unsigned)rnd_bits(6) % w);
            unsigned fx1 = (unsigned)rnd_bits(4), fx2 = (unsigned)rnd_bits(2) & 1, rcode = round & 1 ? 1 : 8;
            nx_msg_t m;
            nx_begin(&m);
            nx_fixed(&m, t, NX_W_TCODE);
            if (srcbits) nx_fixed(&m, src, srcbits);
            switch (t) {
            case NX_OWNERSHIP:
            case NX_DIRECT_BRANCH: nx_var(&m, f[0]); break;
            case NX_INDIRECT_BRANCH:
                nx_fixed(&m, fx2, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_DATA_ACQ:
            case NX_AUX_ACCESS_WRITE:
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_ERROR:
                nx_fixed(&m, fx1, 4);
                nx_var(&m, f[0]);
                break;
            case NX_SYNC:
            case NX_DIRECT_BRANCH_WS:
                nx_fixed(&m, fx1, 4);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_INDIRECT_BRANCH_WS:
                nx_fixed(&m, fx1, 4);
                nx_fixed(&m, fx2, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                break;
            case NX_RESOURCE_FULL:
                nx_fixed(&m, rcode, 4);
                nx_var(&m, f[0]);
                break;
            case NX_INDIRECT_BRANCH_HIST:
                nx_fixed(&m, fx2, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                nx_var(&m, f[2]);
                break;
            case NX_INDIRECT_BRANCH_HIST_WS:
                nx_fixed(&m, fx1, 4);
                nx_fixed(&m, fx2, 2);
                nx_var(&m, f[0]);
                nx_var(&m, f[1]);
                nx_var(&m, f[2]);
                break;
            case NX_CORRELATION:
                nx_fixed(&m, fx1, 4);
                nx_fixed(&m, fx2, 2);
                nx_var(&m, f[0]);
                if (fx2) nx_var(&m, f[1]);
                break;
            default:
                nx_fixed(&m, 9, 4);
                nx_fixed(&m, fx2, 2);
                nx_var(&m, f[0]);
                if (fx2) nx_var(&m, f[1]);
                break;
            }
            if (ts) nx_var(&m, f[3]);
            nx_end(&m);
            if (m.len > NXD_MAX_MSG) continue;
            if (m.len < 32) seen |= 1u << m.len;
            for (size_t pad = 0; pad <= 8; pad += 8) { /* alone (byte path below 8 bytes), then padded */
                one_t o = decode1(m.b, m.len, pad, srcbits);
                const nxd_msg_t *d = &o.m;
                if (o.n != 1 || d->status != NXD_OK)
                    TS_FAIL("TCODE %u, %u bytes, pad %zu: %s", t, m.len, pad, o.n ? d->error : "no message");
                TS_ASSERT_EQ_U(d->len, m.len);
                TS_ASSERT_EQ_U(d->tcode, t);
                TS_ASSERT_EQ_U(d->has_src, srcbits > 0);
                if (srcbits) TS_ASSERT_EQ_U(d->src, src);
                TS_ASSERT_EQ_U(d->has_ts, ts);
                if (ts) TS_ASSERT_EQ_U(d->ts_field, f[3]);
                switch (t) {
                case NX_OWNERSHIP: TS_ASSERT_EQ_U(d->f[NXF_PROCESS], f[0]); break;
                case NX_DIRECT_BRANCH: TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]); break;
                case NX_INDIRECT_BRANCH:
                    TS_ASSERT_EQ_U(d->f[NXF_B_TYPE], fx2);
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
                case NX_ERROR:
                    TS_ASSERT_EQ_U(d->f[NXF_ETYPE], fx1);
                    TS_ASSERT_EQ_U(d->f[NXF_ECODE], f[0]);
                    break;
                case NX_SYNC:
                case NX_DIRECT_BRANCH_WS:
                    TS_ASSERT_EQ_U(d->f[NXF_SYNC], fx1);
                    TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]);
                    TS_ASSERT_EQ_U(d->f[NXF_F_ADDR], f[1]);
                    break;
                case NX_INDIRECT_BRANCH_WS:
                    TS_ASSERT_EQ_U(d->f[NXF_SYNC], fx1);
                    TS_ASSERT_EQ_U(d->f[NXF_B_TYPE], fx2);
                    TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]);
                    TS_ASSERT_EQ_U(d->f[NXF_F_ADDR], f[1]);
                    break;
                case NX_RESOURCE_FULL:
                    TS_ASSERT_EQ_U(d->f[NXF_RCODE], rcode);
                    TS_ASSERT_EQ_U(d->f[rcode == 1 ? NXF_HISTORY : NXF_COUNT], f[0]);
                    break;
                case NX_INDIRECT_BRANCH_HIST:
                    TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]);
                    TS_ASSERT_EQ_U(d->f[NXF_U_ADDR], f[1]);
                    TS_ASSERT_EQ_U(d->f[NXF_HISTORY], f[2]);
                    break;
                case NX_INDIRECT_BRANCH_HIST_WS:
                    TS_ASSERT_EQ_U(d->f[NXF_SYNC], fx1);
                    TS_ASSERT_EQ_U(d->f[NXF_F_ADDR], f[1]);
                    TS_ASSERT_EQ_U(d->f[NXF_HISTORY], f[2]);
                    break;
                case NX_CORRELATION:
                    TS_ASSERT_EQ_U(d->f[NXF_EVCODE], fx1);
                    TS_ASSERT_EQ_U(d->f[NXF_CDF], fx2);
                    TS_ASSERT_EQ_U(d->f[NXF_I_CNT], f[0]);
                    if (fx2) TS_ASSERT_EQ_U(d->f[NXF_HISTORY], f[1]);
                    break;
                default:
                    TS_ASSERT_EQ_U(d->f[NXF_CKSRC], 9);
                    TS_ASSERT_EQ_U(d->f[NXF_CKDATA0], f[0]);
                    if (fx2) TS_ASSERT_EQ_U(d->f[NXF_CKDATA1], f[1]);
                    break;
                }
            }
        }
    }
    for (unsigned len = 2; len <= 14; len++) /* both readers and their border were exercised */
        if (!((seen >> len) & 1)) TS_FAIL("no message of %u bytes was made", len);
}

TS_TEST(both_field_readers_report_the_same_layout_errors) {
    static const struct {
        uint8_t b[12];
        unsigned n, srcbits;
        const char *err;
    } bad[] = {
        /* INDIRECT BRANCH whose I-CNT ends the message: U-ADDR is missing */
        {{0x10, 0x07}, 2, 0, "more fields than the message holds"},
        {{0x10, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x07}, 9, 0, "more fields than the message holds"},
        /* DIRECT BRANCH: I-CNT, TSTAMP, then a third field */
        {{0x0c, 0x05, 0x05, 0x07}, 4, 0, "fields after the timestamp"},
        /* 8 SRC bits fill the only payload byte after TCODE: no byte is left for I-CNT */
        {{0x0c, 0x07}, 2, 8, "variable field without an end"},
        /* RESOURCE FULL with RCODE 5 */
        {{0x6c, 0x14, 0x07}, 3, 0, "unsupported RESOURCE FULL RCODE"},
    };
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (size_t pad = 0; pad <= 8; pad += 8) {
            one_t o = decode1(bad[k].b, bad[k].n, pad, bad[k].srcbits);
            TS_ASSERT_EQ_U(o.n, 1);
            TS_ASSERT_EQ_U(o.m.status, NXD_BAD);
            TS_ASSERT_EQ_U(o.m.len, bad[k].n);
            TS_ASSERT_STR_EQ(o.m.error, bad[k].err);
        }
    }
}

TS_TEST_MAIN()
