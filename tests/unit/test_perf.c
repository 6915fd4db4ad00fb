/* test_perf.c - perf protocol decoder on store sequences built by hand from the format
 * tables (trace-hw-facts.md 5.4/5.5): every count type, wrap with the counter width, 64-bit
 * addresses, 48-bit values, a second header, a record cut off by the end of the trace. */
#include "perf_decode.h"
#include "ts_test.h"

typedef struct out { perf_header_t h[4]; perf_record_t r[16]; unsigned nh, nr, ne; } out_t;
static void on_h(void *c, const perf_header_t *h) { out_t *o = c; if (o->nh < 4) o->h[o->nh++] = *h; }
static void on_r(void *c, const perf_record_t *r) { out_t *o = c; if (o->nr < 16) o->r[o->nr++] = *r; }
static void on_e(void *c, unsigned core, uint64_t off, const char *w) { (void)core; (void)off; (void)w; ((out_t *)c)->ne++; }

static perf_dec_t dec;
static out_t out;
static uint64_t t;
static void begin(void) {
    memset(&out, 0, sizeof out);
    perf_dec_cb_t cb = {&out, on_h, on_r, on_e};
    perf_dec_init(&dec, 6, &cb);
    t = 1000;
}
/* one ITC store on channel 6 as the decoder sees it: size 4 at +0, 2 at +2, 1 at +3 */
static void st(unsigned size, uint64_t v) {
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.status = NXD_OK;
    m.tcode = 7;
    m.f[NXF_IDTAG] = 24 + (size == 4 ? 0 : size == 2 ? 2 : 3);
    m.f[NXF_DATA] = v;
    m.tics_valid = true;
    m.tics = t++;
    perf_dec_feed(&dec, &m);
}
/* header: count type, mask; counter 0 cycles (type 0 code 1, 64-bit mcycle), counter 3 a raw
 * event of the given width */
static void header(unsigned type, unsigned w3) {
    st(4, PERF_MARKER);
    st(1, type);
    st(4, 0x9);                                  /* counters 0 and 3 */
    st(4, 0); st(4, 1); st(4, (63u << 12) | 0xC00);
    st(4, 2); st(4, 0x600); st(4, 0); st(4, ((w3 - 1) << 12) | 0xC03);
}

TS_TEST(raw_header_and_records) {
    begin();
    header(PERF_RAW, 40);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.h[0].n, 2);
    TS_ASSERT_EQ_U(out.h[0].def[1].index, 3);
    TS_ASSERT_EQ_U(out.h[0].def[1].event_data, 0x600);
    TS_ASSERT_EQ_U(out.h[0].def[1].width, 40);
    st(1, PERF_MANUAL); st(4, 0x80001234); st(4, 500); st(4, 7);
    st(1, PERF_MANUAL); st(4, 0x80001240); st(4, 0x00000010); st(2, 0x0001); st(4, 9);
    perf_dec_finish(&dec);                       /* the last value is reported too */
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[0].addr, 0x80001234);
    TS_ASSERT_EQ_U(out.r[0].value[0], 500);
    TS_ASSERT_EQ_U(out.r[0].value[1], 7);
    TS_ASSERT_EQ_U(out.r[1].value[0], 0x100000010ull);    /* 16-bit high part */
    TS_ASSERT_EQ_U(out.r[1].delta[0], 0x100000010ull - 500);
    TS_ASSERT_EQ_U(out.r[1].value[1], 9);
    TS_ASSERT(!out.r[1].truncated);
    TS_ASSERT_EQ_U(out.ne, 0);
}

TS_TEST(delta_with_wrap) {
    begin();
    header(PERF_DELTA, 12);                      /* counter 3 is 12 bits wide */
    st(1, PERF_ISR); st(4, 0x80000100); st(4, 100); st(4, 4000);
    st(1, PERF_ISR); st(4, 0x80000100); st(4, 50); st(4, 200);   /* 4000 + 200 wraps */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[1].value[0], 150);      /* running: 100 + 50 */
    TS_ASSERT_EQ_U(out.r[1].value[1], (4000 + 200) % 4096);
    TS_ASSERT_EQ_U(out.r[1].delta[1], 200);
}

TS_TEST(delta_xor_values_and_addresses) {
    begin();
    header(PERF_DELTA_XOR, 40);
    /* enter: function 0x80000200, call site 0x80000104, XOR-chained */
    st(1, PERF_FUNC_ENTER); st(4, 0x80000200); st(4, 0x80000200 ^ 0x80000104);
    st(4, 1000); st(4, 30);
    st(1, PERF_FUNC_EXIT); st(4, 0x80000104 ^ 0x80000200); st(4, 0x80000200 ^ 0x80000104);
    st(4, 1000 ^ 1500); st(4, 30 ^ 45);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[0].addr, 0x80000200);
    TS_ASSERT_EQ_U(out.r[0].call_site, 0x80000104);
    TS_ASSERT_EQ_U(out.r[1].addr, 0x80000200);
    TS_ASSERT_EQ_U(out.r[1].call_site, 0x80000104);
    TS_ASSERT_EQ_U(out.r[1].value[0], 1500);
    TS_ASSERT_EQ_U(out.r[1].value[1], 45);
    TS_ASSERT_EQ_U(out.r[1].delta[0], 500);
}

TS_TEST(address_64_bit) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL); st(4, 0x00001000 | 1); st(4, 0x00000020); st(4, 1); st(4, 2);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.r[0].addr, 0x0000002000001000ull);
}

TS_TEST(second_header_and_truncated_record) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL); st(4, 0x80000000); st(4, 5); st(4, 6);
    header(PERF_DELTA, 40);                      /* trace switched off and on */
    st(1, PERF_MANUAL); st(4, 0x80000010); st(4, 7);            /* cut: one counter missing */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nh, 2);
    TS_ASSERT_EQ_U(out.h[1].count_type, PERF_DELTA);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[0].value[1], 6);
    TS_ASSERT(out.r[1].truncated);
    TS_ASSERT_EQ_U(out.r[1].n, 1);
    TS_ASSERT_EQ_U(out.r[1].value[0], 7);
}

TS_TEST(marker_value_as_counter_data) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL); st(4, 0x80000000); st(4, PERF_MARKER); st(4, 3);   /* a counter value */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.r[0].value[0], PERF_MARKER);
    TS_ASSERT_EQ_U(out.r[0].value[1], 3);
}

TS_TEST(bad_sequences_are_errors_not_crashes) {
    begin();
    st(4, PERF_MARKER); st(4, 5);                /* count type must be an 8-bit store */
    TS_ASSERT_EQ_U(out.ne, 1);
    header(PERF_RAW, 40);
    st(4, 0x80000000);                           /* record without a type byte */
    TS_ASSERT_EQ_U(out.ne, 2);
    uint32_t x = 7;
    for (int i = 0; i < 2000; i++) {             /* random stores: only errors, no crash */
        x = x * 1103515245u + 12345u;
        unsigned sz = (x >> 8) % 3;
        st(sz == 0 ? 1 : sz == 1 ? 2 : 4, x >> 4);
    }
    perf_dec_finish(&dec);
}

TS_TEST_MAIN()
