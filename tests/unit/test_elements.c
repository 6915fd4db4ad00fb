/* test_elements.c - generic trace elements from messages: no-sync before the first sync,
 * address reconstruction (F-ADDR << 1, U-ADDR XORed in, as SiFive's decoder does), software
 * trace lanes, trace on/off, corrupt and end-of-trace elements. Inputs are byte streams from
 * the real capture itc-timestamp.rtd (offsets 625..657) and hand-built ones. */
#include "elements.h"
#include "ts_test.h"

typedef struct col {
    ts_elem_t e[32];
    unsigned n;
} col_t;
static int put(void *c, const ts_elem_t *e) {
    col_t *o = c;
    if (o->n < 32) o->e[o->n++] = *e;
    return 0;
}

static col_t run(const uint8_t *b, size_t n) {
    static col_t c;
    memset(&c, 0, sizeof c);
    nxd_cfg_t cfg = {0, 40};
    nxd_t d;
    nxd_init(&d, &cfg);
    ts_elem_stage_t s;
    ts_elem_init(&s, put, &c);
    nxd_decode(&d, b, n, ts_elem_from_msg, &s);
    ts_elem_eot(&s, n);
    return c;
}

TS_TEST(sync_then_indirect_branch_address) {
    /* SYNC (reason 5, F-ADDR 268437979) then INDIRECT BRANCH (U-ADDR 1950), from the capture */
    static const uint8_t b[] = {0x24, 0x15, 0x6c, 0x9c, 0x00, 0x00, 0x41, 0xa4, 0x3c, 0x17,
                                0x10, 0x20, 0x09, 0x78, 0x79, 0xd8, 0x77};
    col_t c = run(b, sizeof b);
    TS_ASSERT_EQ_U(c.n, 3);
    TS_ASSERT_EQ_I(c.e[0].type, TS_ELEM_SYNC);
    TS_ASSERT_EQ_U(c.e[0].u.sync.reason, 5);
    TS_ASSERT_EQ_U(c.e[0].u.sync.addr, 268437979ull << 1);
    TS_ASSERT_EQ_I(c.e[1].type, TS_ELEM_BRANCH);
    TS_ASSERT(c.e[1].u.br.indirect);
    TS_ASSERT_EQ_U(c.e[1].u.br.addr, (268437979ull << 1) ^ (1950ull << 1));
    TS_ASSERT_EQ_I(c.e[2].type, TS_ELEM_EOT);
}

TS_TEST(no_sync_swtrace_lanes_and_trace_off) {
    static const uint8_t b[] = {0x1c, 0x6d, 0x09, 0x07,             /* DQM IDTAG 0x1B (ch 6 lane 3), TS */
                                0x1c, 0x69, 0xbc, 0xec, 0x2d, 0x57, /* IDTAG 0x1A: lane 2 */
                                0x88, 0x00, 0x0d, 0x03};            /* ICT control 3: trace off */
    col_t c = run(b, sizeof b);
    TS_ASSERT_EQ_U(c.n, 5);
    TS_ASSERT_EQ_I(c.e[0].type, TS_ELEM_NO_SYNC);
    TS_ASSERT_EQ_I(c.e[1].type, TS_ELEM_SWTRACE);
    TS_ASSERT_EQ_U(c.e[1].u.sw.channel, 6);
    TS_ASSERT_EQ_U(c.e[1].u.sw.size, 1);
    TS_ASSERT_EQ_U(c.e[1].u.sw.value, 2);
    TS_ASSERT_EQ_U(c.e[2].u.sw.size, 2);
    TS_ASSERT_EQ_U(c.e[2].u.sw.value, 0xBEEF);
    TS_ASSERT_EQ_I(c.e[3].type, TS_ELEM_TRACE_OFF);
    TS_ASSERT_EQ_I(c.e[4].type, TS_ELEM_EOT);
}

TS_TEST(overflow_corrupt_truncated) {
    static const uint8_t b[] = {0x20, 0x03,  /* ERROR */
                                0x04, 0x03,  /* TCODE 1: corrupt */
                                0x1c, 0x61}; /* cut off */
    col_t c = run(b, sizeof b);
    TS_ASSERT_EQ_U(c.n, 5);
    TS_ASSERT_EQ_I(c.e[0].type, TS_ELEM_NO_SYNC);
    TS_ASSERT_EQ_I(c.e[1].type, TS_ELEM_OVERFLOW);
    TS_ASSERT_EQ_I(c.e[2].type, TS_ELEM_CORRUPT);
    TS_ASSERT_EQ_I(c.e[3].type, TS_ELEM_TRUNCATED);
    TS_ASSERT_EQ_I(c.e[4].type, TS_ELEM_EOT);
}

TS_TEST(ict_ws_control_without_address) {
    /* the first message of itc-timestamp.rtd: ICT-WS, CKSRC 0, CKDF 0, control 0, full time
     * 849: a TIMESTAMP element that carries no address (trace-hw-facts.md 4.4) */
    static const uint8_t b[] = {0x8c, 0x00, 0x01, 0x44, 0x37};
    col_t c = run(b, sizeof b);
    TS_ASSERT_EQ_U(c.n, 2);
    TS_ASSERT_EQ_I(c.e[0].type, TS_ELEM_TIMESTAMP);
    TS_ASSERT_EQ_U(c.e[0].time, 849);
    TS_ASSERT(!c.e[0].u.ict.has_addr);
    TS_ASSERT_EQ_U(c.e[0].u.ict.addr, 0);
}

TS_TEST_MAIN()
