/* test_perf.c - perf protocol decoder on store sequences built by hand from the format
 * tables (trace-hw-facts.md 5.4/5.5): every count type, wrap with the counter width, 64-bit
 * addresses, 48-bit values, a second header, a record cut off by the end of the trace (and
 * what every writer prints for it), implausible headers, per-value times and the SiFive
 * files' Delta values (trace-hw-facts.md 6.2 item 7, 6.3). */
#include "decode_cli.h"
#include "perf_decode.h"
#include "ts_test.h"
#include <unistd.h>

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

/* ---- cut-off records: presence flags ---------------------------------------------------- */
TS_TEST(cut_after_type_byte) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL); st(4, 0x80001234); st(4, 500); st(4, 7);
    st(1, PERF_MANUAL);                          /* the trace ends here */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT(!out.r[0].truncated);
    TS_ASSERT(out.r[0].has_addr);
    TS_ASSERT(out.r[1].truncated);
    TS_ASSERT(!out.r[1].has_addr);
    TS_ASSERT(!out.r[1].has_call_site);
    TS_ASSERT_EQ_U(out.r[1].n, 0);
}

TS_TEST(cut_after_low_word_of_64_bit_address) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_ISR); st(4, 0x00001000 | 1);      /* bit 0: a high word should follow */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].truncated);
    TS_ASSERT(!out.r[0].has_addr);
    TS_ASSERT_EQ_U(out.r[0].n, 0);
}

TS_TEST(cut_after_first_address_of_enter) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_FUNC_ENTER); st(4, 0x80000200);   /* the call site never came */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].truncated);
    TS_ASSERT(out.r[0].has_addr);
    TS_ASSERT_EQ_U(out.r[0].addr, 0x80000200);
    TS_ASSERT(!out.r[0].has_call_site);
    TS_ASSERT_EQ_U(out.r[0].n, 0);
}

TS_TEST(cut_message_drops_pending_low_word) {
    /* the last perf store is a counter's low word and the trace ends in a cut-off message:
     * its 16-bit high part may be what was cut off, so the value is not reported */
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL); st(4, 0x80000000); st(4, 5); st(4, 6);
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.status = NXD_TRUNCATED;
    perf_dec_feed(&dec, &m);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].truncated);
    TS_ASSERT_EQ_U(out.r[0].n, 1);
    TS_ASSERT_EQ_U(out.r[0].value[0], 5);
}

/* ---- implausible header: a warning, decoding goes on -------------------------------------- */
typedef struct wlog { char text[4][200]; unsigned n; } wlog_t;
static void on_w(void *c, unsigned core, uint64_t off, const char *w) {
    wlog_t *l = c;
    (void)core; (void)off;
    if (l->n < 4) snprintf(l->text[l->n++], sizeof l->text[0], "%s", w);
}
static wlog_t wl;
static void on_w_rec(void *c, const perf_record_t *r) { (void)c; out.r[out.nr++ % 16] = *r; }

TS_TEST(implausible_header_warns) {
    memset(&out, 0, sizeof out);
    memset(&wl, 0, sizeof wl);
    perf_dec_cb_t cb = {&wl, NULL, on_w_rec, on_w};
    perf_dec_init(&dec, 6, &cb);
    st(4, PERF_MARKER); st(1, PERF_RAW);
    st(4, 0xF);                                  /* counters 0..3 */
    st(4, 0); st(4, 1); st(4, (63u << 12) | 0xC00);         /* cycles: fine */
    st(4, 0); st(4, 0x80); st(4, (39u << 12) | 0);          /* timestamp: CSR 0 is right */
    st(4, 0); st(4, 2); st(4, (63u << 12) | 0);             /* instructions with CSR 0 */
    st(4, 2); st(4, 0x600); st(4, 0); st(4, (0u << 12) | 0xC03);   /* 1 bit wide */
    TS_ASSERT_EQ_U(wl.n, 2);
    TS_ASSERT_EQ_U(dec.warnings, 2);
    TS_ASSERT_EQ_U(dec.errors, 0);
    TS_ASSERT(strstr(wl.text[0], "warning: ") == wl.text[0]);
    TS_ASSERT(strstr(wl.text[0], "counter 2 has CSR 0"));
    TS_ASSERT(strstr(wl.text[1], "counter 3 has a width of 1 bit"));
    /* decoding goes on: a record with all four values */
    st(1, PERF_MANUAL); st(4, 0x80000000); st(4, 10); st(4, 11); st(4, 12); st(4, 1);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT_EQ_U(out.r[0].n, 4);
    TS_ASSERT(!out.r[0].truncated);
}

/* ---- per-value times (SiFive's rule, trace-hw-facts.md 6.2 item 7) ------------------------ */
TS_TEST(value_times) {
    begin();                                     /* every store is 1 tick after the previous */
    header(PERF_RAW, 40);                        /* stores at 1000..1009 */
    st(1, PERF_MANUAL);                          /* 1010 */
    st(4, 0x80000000);                           /* 1011 */
    st(4, 5);                                    /* 1012 counter 0 low */
    st(4, 6);                                    /* 1013 counter 3 low: completes counter 0 */
    st(1, PERF_MANUAL);                          /* 1014: completes counter 3 */
    st(4, 0x80000000);                           /* 1015 */
    st(4, 7);                                    /* 1016 */
    st(2, 1);                                    /* 1017 high part: completes counter 0 */
    st(4, 8);                                    /* 1018 last store of the trace */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[0].tics, 1010);
    TS_ASSERT_EQ_U(out.r[0].vtics[0], 1013);
    TS_ASSERT_EQ_U(out.r[0].vtics[1], 1014);
    TS_ASSERT_EQ_U(out.r[1].tics, 1014);
    TS_ASSERT_EQ_U(out.r[1].vtics[0], 1017);
    TS_ASSERT_EQ_U(out.r[1].vtics[1], 1018);     /* nothing follows: its own low word */
    TS_ASSERT(out.r[1].vtics_valid[1]);
}

/* ---- the writers on a trace file: bytes built here from the Nexus rules (trace-hw-facts.md
 * 4.1, 4.7), decoded by `tracesim decode` ------------------------------------------------- */
typedef struct tb { uint8_t b[8192]; size_t n; unsigned pos; uint64_t last; } tb_t;
static void tb_bits(tb_t *tb, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++, tb->pos++)
        if (v >> i & 1) tb->b[tb->n + tb->pos / 6] |= (uint8_t)(1u << (2 + tb->pos % 6));
}
static void tb_var(tb_t *tb, uint64_t v) {                /* minimal bytes, ends with MSEO 01 */
    unsigned nb = 0;
    while (nb < 64 && (v >> nb)) nb++;
    if (!nb && tb->pos % 6 == 0) tb->pos += 6;
    tb_bits(tb, v, nb);
    tb->pos = (tb->pos + 5) / 6 * 6;
    tb->b[tb->n + tb->pos / 6 - 1] |= 1;
}
static void tb_end(tb_t *tb) { tb->n += tb->pos / 6; tb->b[tb->n - 1] |= 3; tb->pos = 0; }
/* a Data Acquisition message on channel 6 (IDTAG 24 + lane) at absolute time `time`
 * (0: no timestamp), XOR-compressed against the previous one */
static void tb_store(tb_t *tb, unsigned size, uint32_t v, uint64_t time) {
    tb_bits(tb, 7, 6);
    tb_var(tb, 24 + (size == 4 ? 0 : size == 2 ? 2 : 3));
    tb_var(tb, v);
    if (time) { tb_var(tb, tb->last ^ time); tb->last = time; }
    tb_end(tb);
}
static void tb_header(tb_t *tb, unsigned type, uint64_t *time) {
    uint64_t z = 0, *tm = time ? time : &z;
#define T (time ? ++*tm : 0)
    tb_store(tb, 4, PERF_MARKER, T); tb_store(tb, 1, type, T); tb_store(tb, 4, 0x9, T);
    tb_store(tb, 4, 0, T); tb_store(tb, 4, 1, T); tb_store(tb, 4, (63u << 12) | 0xC00, T);
    tb_store(tb, 4, 2, T); tb_store(tb, 4, 0x600, T); tb_store(tb, 4, 0, T); tb_store(tb, 4, (39u << 12) | 0xC03, T);
#undef T
}

static char dir[64];
static void decode_to(tb_t *tb, const char *format, const char *extra) {
    snprintf(dir, sizeof dir, "/tmp/ts_perf_XXXXXX");
    TS_ASSERT(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    FILE *f = fopen(path, "wb");
    TS_ASSERT(f);
    fwrite(tb->b, 1, tb->n, f);
    fclose(f);
    char *argv[8] = {"decode", "-f", (char *)format, "-o", dir, path, NULL, NULL};
    int argc = 6;
    if (extra) { argv[5] = (char *)extra; argv[6] = path; argc = 7; }
    TS_ASSERT_EQ_I(ts_decode_main(argc, argv), 0);
}
static char *slurp(const char *name) {
    static char buf[8192];
    char path[256];
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

/* ICT-WS Control(0,0) with the full time 0x1000 (trace-hw-facts.md 4.8) */
static void tb_start(tb_t *tb) {
    static const uint8_t ict[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07};
    memset(tb, 0, sizeof *tb);
    memcpy(tb->b, ict, sizeof ict);
    tb->n = sizeof ict;
    tb->last = 0x1000;
}

/* one complete manual record at time 4107, then a record cut as given (from 4111) */
static void cut_trace(tb_t *tb, int cut) {
    uint64_t time = 0x1000;                      /* each store one tick later: 4097.. */
    tb_start(tb);
    tb_header(tb, PERF_RAW, &time);              /* 4097..4106 */
    tb_store(tb, 1, PERF_MANUAL, 4107); tb_store(tb, 4, 0x80001234, 4108);
    tb_store(tb, 4, 500, 4109); tb_store(tb, 4, 7, 4110);
    if (cut == 0) tb_store(tb, 1, PERF_MANUAL, 4111);
    if (cut == 1) { tb_store(tb, 1, PERF_ISR, 4111); tb_store(tb, 4, 0x00001000 | 1, 4112); }
    if (cut == 2) { tb_store(tb, 1, PERF_FUNC_ENTER, 4111); tb_store(tb, 4, 0x80000200, 4112); }
}

static const char *const csv_want[3] = {
    "4111,0,manual(truncated),,,,,,,\n",
    "4111,0,isr(truncated),,,,,,,\n",
    "4111,0,enter(truncated),0x80000200,,,,,,\n"};

TS_TEST(writers_print_nothing_for_missing_parts) {
    for (int cut = 0; cut < 3; cut++) {
        tb_t tr;
        cut_trace(&tr, cut);
        /* CSV: empty fields, the record marked (truncated) */
        decode_to(&tr, "csv", NULL);
        char want[512];
        snprintf(want, sizeof want, "timestamp,hart,record,address,call_site,function,cycles,cycles_delta,raw_0x600,raw_0x600_delta\n"
                                    "4107,0,manual,0x80001234,,,500,500,7,7\n%s", csv_want[cut]);
        TS_ASSERT_STR_EQ(slurp("perf.csv"), want);
        TS_ASSERT(!strstr(slurp("perf.csv"), "0x00000000"));
        cleanup();
        /* SiFive's files: the complete record's lines only */
        decode_to(&tr, "perf", NULL);
        const char *agg = slurp("trace.perf");
        TS_ASSERT(strstr(agg, "[0] 4107 PC=0x80001234 [Address]\n[0] 4107 PC=0x80001234 [Perf Cntr] [Index=0] [Value=500] \n"
                              "[0] 4107 PC=0x80001234 [Perf Cntr] [Index=3] [Value=7] \n"));
        TS_ASSERT(!strstr(strstr(agg, "[Address]"), "0x00000000"));
        TS_ASSERT(!strstr(agg, "Func Enter"));
        TS_ASSERT(!strstr(strstr(agg, "[Address]") + 1, "[Address]"));
        cleanup();
        /* timeline: the manual record is an instant and two counter samples; a record cut
         * before its address is no event; the enter cut after its function is a slice start */
        decode_to(&tr, "timeline", NULL);
        const char *tl = slurp("timeline.json");
        TS_ASSERT(!strstr(tl, "0x00000000"));
        TS_ASSERT(strstr(tl, "{\"name\": \"manual 0x80001234\", \"ph\": \"i\", \"s\": \"t\", \"ts\": 41.070,"));
        unsigned events = 0;
        for (const char *q = tl; (q = strstr(q, "\"ph\"")); q++) events++;
        TS_ASSERT_EQ_U(events, cut == 2 ? 4 : 3);
        if (cut == 2) TS_ASSERT(strstr(tl, "{\"name\": \"0x80000200\", \"ph\": \"B\", \"ts\": 41.110,"));
        cleanup();
    }
}

/* Delta: SiFive's files print each delta as received; line times by --perf-line-time */
TS_TEST(sifive_delta_values_and_line_times) {
    static tb_t tr;
    tb_start(&tr);
    uint64_t time = 0x1000;                      /* each store one tick later: 4097.. */
    tb_header(&tr, PERF_DELTA, &time);            /* 4097..4106 */
    tb_store(&tr, 1, PERF_MANUAL, 4107); tb_store(&tr, 4, 0x80000010, 4108);
    tb_store(&tr, 4, 100, 4109); tb_store(&tr, 4, 30, 4110);
    tb_store(&tr, 1, PERF_MANUAL, 4111); tb_store(&tr, 4, 0x80000010, 4112);
    tb_store(&tr, 4, 40, 4113); tb_store(&tr, 4, 5, 4114);
    decode_to(&tr, "perf", NULL);
    const char *want_rec =
        "[0] 4107 PC=0x80000010 [Address]\n"
        "[0] 4107 PC=0x80000010 [Perf Cntr] [Index=0] [Value=100] \n"
        "[0] 4107 PC=0x80000010 [Perf Cntr] [Index=3] [Value=30] \n"
        "[0] 4111 PC=0x80000010 [Address]\n"
        "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=0] [Value=40] \n"   /* not 140 */
        "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=3] [Value=5] \n";
    TS_ASSERT(strstr(slurp("trace.perf"), "# COUNT_TYPE: Delta\n"));
    if (!strstr(slurp("trace.perf"), want_rec)) TS_FAIL("trace.perf:\n%s", slurp("trace.perf"));
    cleanup();
    decode_to(&tr, "perf", "--perf-line-time=value");
    const char *want_val =
        "[0] 4107 PC=0x80000010 [Address]\n"
        "[0] 4110 PC=0x80000010 [Perf Cntr] [Index=0] [Value=100] \n"  /* completed by 4110 */
        "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=3] [Value=30] \n"   /* by the next type byte */
        "[0] 4111 PC=0x80000010 [Address]\n"
        "[0] 4114 PC=0x80000010 [Perf Cntr] [Index=0] [Value=40] \n"
        "[0] 4114 PC=0x80000010 [Perf Cntr] [Index=3] [Value=5] \n";   /* last: its own time */
    if (!strstr(slurp("trace.perf"), want_val)) TS_FAIL("trace.perf:\n%s", slurp("trace.perf"));
    TS_ASSERT(strstr(slurp("perf/trace.perfchannel3"), "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=3] [Value=30] \n"));
    cleanup();
    /* CSV keeps both: the running value and the delta */
    decode_to(&tr, "csv", NULL);
    TS_ASSERT(strstr(slurp("perf.csv"), "4111,0,manual,0x80000010,,,140,40,35,5\n"));
    cleanup();
}

TS_TEST_MAIN()
