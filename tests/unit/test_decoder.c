/* test_decoder.c - Nexus decoder: hand-built messages for the TCODEs the encoder emits, and
 * corrupt, truncated and random input (it must never read out of bounds or loop: this file
 * runs under ASan/UBSan). Expected fields are written from the field tables. */
#include "nexus_decode.h"
#include "ts_test.h"

typedef struct coll { nxd_msg_t m[64]; unsigned n; } coll_t;
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
    TS_ASSERT_EQ_U(c.m[1].tics, 4133);                 /* 0x1000 ^ 0x25 */
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
    static const uint8_t b[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07,   /* full 0x1000 */
                                0x20, 0x03,                           /* Error */
                                0x1c, 0x01, 0x05, 0x07};              /* DQM, TS xor 1 */
    coll_t c = run(b, sizeof b, 0);
    TS_ASSERT_EQ_U(c.n, 3);
    TS_ASSERT_EQ_U(c.m[1].tcode, 8);
    TS_ASSERT(!c.m[2].tics_valid);
}

TS_TEST(unknown_tcode_and_resync) {
    static const uint8_t b[] = {0x04, 0x03,                          /* TCODE 1: unsupported */
                                0x1c, 0x0d, 0x2b};                    /* DQM IDTAG 3 DATA 0x0A */
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
    uint8_t b[20] = {0x1c, 0x01};                     /* DQM, IDTAG 0, then 13 DATA bytes */
    for (int i = 2; i < 15; i++) b[i] = 0xFC;
    b[15] = 0xFF;                                     /* ends the message: field > 64 bits */
    coll_t c = run(b, 16, 0);
    TS_ASSERT_EQ_U(c.n, 1);
    TS_ASSERT_EQ_I(c.m[0].status, NXD_BAD);
}

TS_TEST(overlong_message_is_bad) {
    uint8_t b[80];
    b[0] = 0x1c;
    for (int i = 1; i < 80; i++) b[i] = 0x04;         /* never ends */
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
        for (size_t i = 0; i < n; i++) { x = x * 1103515245u + 12345u; b[i] = (uint8_t)(x >> 16); }
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

TS_TEST(bad_config_rejected) {
    nxd_t d;
    nxd_cfg_t cfg = {9, 40};
    TS_ASSERT_EQ_I(nxd_init(&d, &cfg), -1);
    cfg.srcbits = 0;
    cfg.tsbits = 0;
    TS_ASSERT_EQ_I(nxd_init(&d, &cfg), -1);
}

TS_TEST_MAIN()
