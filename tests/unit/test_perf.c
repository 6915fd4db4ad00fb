/* test_perf.c - perf protocol decoder on store sequences built by hand from the format
 * tables (trace-hw-facts.md 5.4/5.5): every count type, wrap with the counter width, 64-bit
 * addresses, 48-bit values, a second header, a record cut off by the end of the trace (and
 * what every writer prints for it), implausible headers, per-value times and the SiFive
 * files' Delta values (trace-hw-facts.md 6.2 item 7, 6.3); gaps (lost stores: an Error
 * message, trace-hw-facts.md 1.8, 8.1 item 9) and what every writer and the profile make of
 * them; the out-of-band header (perf_config.txt) and a wrapped trace decoded with it. */
#include "run_trace.h"
#include "decode_cli.h"
#include "perf_decode.h"
#include "profile.h"
#include "ts_decoder.h"
#include "ts_test.h"
#include <unistd.h>

typedef struct out {
    perf_header_t h[4];
    perf_record_t r[16];
    unsigned nh, nr, ne;
} out_t;
static void on_h(void *c, const perf_header_t *h) {
    out_t *o = c;
    if (o->nh < 4) o->h[o->nh++] = *h;
}
static void on_r(void *c, const perf_record_t *r) {
    out_t *o = c;
    if (o->nr < 16) o->r[o->nr++] = *r;
}
static void on_e(void *c, unsigned core, uint64_t off, const char *w) {
    (void)core;
    (void)off;
    (void)w;
    ((out_t *)c)->ne++;
}

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
    perf_dec_feed_store(&dec, 0, 6, size == 4 ? 0 : size == 2 ? 2 :
                                                                3,
                        (uint32_t)v, t++);
}
/* header: count type, mask; counter 0 cycles (type 0 code 1, 64-bit mcycle), counter 3 a raw
 * event of the given width */
static void header(unsigned type, unsigned w3) {
    st(4, TS_PW_MARKER);
    st(1, type);
    st(4, 0x9); /* counters 0 and 3 */
    st(4, 0);
    st(4, 1);
    st(4, (63u << 12) | 0xC00);
    st(4, 2);
    st(4, 0x600);
    st(4, 0);
    st(4, ((w3 - 1) << 12) | 0xC03);
}

TS_TEST(raw_header_and_records) {
    begin();
    header(PERF_RAW, 40);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.h[0].n, 2);
    TS_ASSERT_EQ_U(out.h[0].def[1].index, 3);
    TS_ASSERT_EQ_U(out.h[0].def[1].event_data, 0x600);
    TS_ASSERT_EQ_U(out.h[0].def[1].width, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001234);
    st(4, 500);
    st(4, 7);
    st(1, PERF_MANUAL);
    st(4, 0x80001240);
    st(4, 0x00000010);
    st(2, 0x0001);
    st(4, 9);
    perf_dec_finish(&dec); /* the last value is reported too */
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[0].addr, 0x80001234);
    TS_ASSERT_EQ_U(out.r[0].value[0], 500);
    TS_ASSERT_EQ_U(out.r[0].value[1], 7);
    TS_ASSERT_EQ_U(out.r[1].value[0], 0x100000010ull); /* 16-bit high part */
    TS_ASSERT_EQ_U(out.r[1].delta[0], 0x100000010ull - 500);
    TS_ASSERT_EQ_U(out.r[1].value[1], 9);
    TS_ASSERT(!out.r[1].truncated);
    TS_ASSERT_EQ_U(out.ne, 0);
}

TS_TEST(delta_with_wrap) {
    begin();
    header(PERF_DELTA, 12); /* counter 3 is 12 bits wide */
    st(1, PERF_ISR);
    st(4, 0x80000100);
    st(4, 100);
    st(4, 4000);
    st(1, PERF_ISR);
    st(4, 0x80000100);
    st(4, 50);
    st(4, 200); /* 4000 + 200 wraps */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[1].value[0], 150); /* running: 100 + 50 */
    TS_ASSERT_EQ_U(out.r[1].value[1], (4000 + 200) % 4096);
    TS_ASSERT_EQ_U(out.r[1].delta[1], 200);
}

TS_TEST(delta_xor_values_and_addresses) {
    begin();
    header(PERF_DELTA_XOR, 40);
    /* enter: function 0x80000200, call site 0x80000104, XOR-chained */
    st(1, PERF_FUNC_ENTER);
    st(4, 0x80000200);
    st(4, 0x80000200 ^ 0x80000104);
    st(4, 1000);
    st(4, 30);
    st(1, PERF_FUNC_EXIT);
    st(4, 0x80000104 ^ 0x80000200);
    st(4, 0x80000200 ^ 0x80000104);
    st(4, 1000 ^ 1500);
    st(4, 30 ^ 45);
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
    st(1, PERF_MANUAL);
    st(4, 0x00001000 | 1);
    st(4, 0x00000020);
    st(4, 1);
    st(4, 2);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.r[0].addr, 0x0000002000001000ull);
}

TS_TEST(second_header_and_truncated_record) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80000000);
    st(4, 5);
    st(4, 6);
    header(PERF_DELTA, 40); /* trace switched off and on */
    st(1, PERF_MANUAL);
    st(4, 0x80000010);
    st(4, 7); /* cut: one counter missing */
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
    st(1, PERF_MANUAL);
    st(4, 0x80000000);
    st(4, TS_PW_MARKER);
    st(4, 3); /* a counter value */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.r[0].value[0], TS_PW_MARKER);
    TS_ASSERT_EQ_U(out.r[0].value[1], 3);
}

TS_TEST(bad_sequences_are_errors_not_crashes) {
    begin();
    st(4, TS_PW_MARKER);
    st(4, 5); /* count type must be an 8-bit store */
    TS_ASSERT_EQ_U(out.ne, 1);
    header(PERF_RAW, 40);
    st(4, 0x80000000); /* record without a type byte */
    TS_ASSERT_EQ_U(out.ne, 2);
    uint32_t x = 7;
    for (int i = 0; i < 2000; i++) { /* random stores: only errors, no crash */
        x = x * 1103515245u + 12345u;
        unsigned sz = (x >> 8) % 3;
        st(sz == 0 ? 1 : sz == 1 ? 2 :
                                   4,
           x >> 4);
    }
    perf_dec_finish(&dec);
}

/* ---- cut-off records: presence flags ---------------------------------------------------- */
TS_TEST(cut_after_type_byte) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001234);
    st(4, 500);
    st(4, 7);
    st(1, PERF_MANUAL); /* the trace ends here */
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
    st(1, PERF_ISR);
    st(4, 0x00001000 | 1); /* bit 0: a high word should follow */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].truncated);
    TS_ASSERT(!out.r[0].has_addr);
    TS_ASSERT_EQ_U(out.r[0].n, 0);
}

TS_TEST(cut_after_first_address_of_enter) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_FUNC_ENTER);
    st(4, 0x80000200); /* the call site never came */
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
    st(1, PERF_MANUAL);
    st(4, 0x80000000);
    st(4, 5);
    st(4, 6);
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
typedef struct wlog {
    char text[4][200];
    unsigned n;
} wlog_t;
static void on_w(void *c, unsigned core, uint64_t off, const char *w) {
    wlog_t *l = c;
    (void)core;
    (void)off;
    if (l->n < 4) snprintf(l->text[l->n++], sizeof l->text[0], "%s", w);
}
static wlog_t wl;
static void on_w_rec(void *c, const perf_record_t *r) {
    (void)c;
    out.r[out.nr++ % 16] = *r;
}

TS_TEST(implausible_header_warns) {
    memset(&out, 0, sizeof out);
    memset(&wl, 0, sizeof wl);
    perf_dec_cb_t cb = {&wl, NULL, on_w_rec, on_w};
    perf_dec_init(&dec, 6, &cb);
    st(4, TS_PW_MARKER);
    st(1, PERF_RAW);
    st(4, 0xF); /* counters 0..3 */
    st(4, 0);
    st(4, 1);
    st(4, (63u << 12) | 0xC00); /* cycles: fine */
    st(4, 0);
    st(4, 0x80);
    st(4, (39u << 12) | 0); /* timestamp: CSR 0 is right */
    st(4, 0);
    st(4, 2);
    st(4, (63u << 12) | 0); /* instructions with CSR 0 */
    st(4, 2);
    st(4, 0x600);
    st(4, 0);
    st(4, (0u << 12) | 0xC03); /* 1 bit wide */
    TS_ASSERT_EQ_U(wl.n, 2);
    TS_ASSERT_EQ_U(dec.warnings, 2);
    TS_ASSERT_EQ_U(dec.errors, 0);
    TS_ASSERT(strstr(wl.text[0], "warning: ") == wl.text[0]);
    TS_ASSERT(strstr(wl.text[0], "counter 2 has CSR 0"));
    TS_ASSERT(strstr(wl.text[1], "counter 3 has a width of 1 bit"));
    /* decoding goes on: a record with all four values */
    st(1, PERF_MANUAL);
    st(4, 0x80000000);
    st(4, 10);
    st(4, 11);
    st(4, 12);
    st(4, 1);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT_EQ_U(out.r[0].n, 4);
    TS_ASSERT(!out.r[0].truncated);
}

/* the definitions no counter of the hardware can have (trace-hw-facts.md 5.4; the SiFive
 * library's corrupted one is type 0, code 0): one warning each */
TS_TEST(implausible_header_definitions_warn) {
    memset(&out, 0, sizeof out);
    memset(&wl, 0, sizeof wl);
    perf_dec_cb_t cb = {&wl, NULL, on_w_rec, on_w};
    perf_dec_init(&dec, 6, &cb);
    st(4, TS_PW_MARKER);
    st(1, PERF_RAW);
    st(4, 0x72); /* counters 1, 4, 5, 6 */
    st(4, 0);
    st(4, 5);
    st(4, (39u << 12) | 0); /* counter 1 is not the timestamp */
    st(4, 0);
    st(4, 0);
    st(4, (39u << 12) | 0xC04); /* general event code 0 */
    st(4, 0);
    st(4, 5);
    st(4, (39u << 12) | 0xC07); /* counter 5 names counter 7's CSR */
    st(4, 2);
    st(4, 0);
    st(4, 0);
    st(4, (39u << 12) | 0xC06); /* raw event data 0 */
    TS_ASSERT_EQ_U(wl.n, 4);
    TS_ASSERT_EQ_U(dec.errors, 0);
    TS_ASSERT(strstr(wl.text[0], "counter 1 (the timestamp) is defined as type 0 code 0x5"));
    TS_ASSERT(strstr(wl.text[1], "counter 4 is a general event with code 0"));
    TS_ASSERT(strstr(wl.text[2], "counter 5 names CSR 0xc07, which is not counter 5's (0xc05)"));
    TS_ASSERT(strstr(wl.text[3], "counter 6 is a raw event with event data 0"));
}

/* ---- per-value times (SiFive's rule, trace-hw-facts.md 6.2 item 7) ------------------------ */
TS_TEST(value_times) {
    begin();              /* every store is 1 tick after the previous */
    header(PERF_RAW, 40); /* stores at 1000..1009 */
    st(1, PERF_MANUAL);   /* 1010 */
    st(4, 0x80000000);    /* 1011 */
    st(4, 5);             /* 1012 counter 0 low */
    st(4, 6);             /* 1013 counter 3 low: completes counter 0 */
    st(1, PERF_MANUAL);   /* 1014: completes counter 3 */
    st(4, 0x80000000);    /* 1015 */
    st(4, 7);             /* 1016 */
    st(2, 1);             /* 1017 high part: completes counter 0 */
    st(4, 8);             /* 1018 last store of the trace */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT_EQ_U(out.r[0].tics, 1010);
    TS_ASSERT_EQ_U(out.r[0].vtics[0], 1013);
    TS_ASSERT_EQ_U(out.r[0].vtics[1], 1014);
    TS_ASSERT_EQ_U(out.r[1].tics, 1014);
    TS_ASSERT_EQ_U(out.r[1].vtics[0], 1017);
    TS_ASSERT_EQ_U(out.r[1].vtics[1], 1018); /* nothing follows: its own low word */
    TS_ASSERT(out.r[1].vtics_valid[1]);
}

/* ---- the writers on a trace file: bytes built here from the Nexus rules (trace-hw-facts.md
 * 4.1, 4.7), decoded by `tracesim decode` ------------------------------------------------- */
typedef struct tb {
    uint8_t b[8192];
    size_t n;
    unsigned pos;
    uint64_t last;
} tb_t;
static void tb_bits(tb_t *tb, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++, tb->pos++)
        if (v >> i & 1) tb->b[tb->n + tb->pos / 6] |= (uint8_t)(1u << (2 + tb->pos % 6));
}
static void tb_var(tb_t *tb, uint64_t v) { /* minimal bytes, ends with MSEO 01 */
    unsigned nb = 0;
    while (nb < 64 && (v >> nb)) nb++;
    if (!nb && tb->pos % 6 == 0) tb->pos += 6;
    tb_bits(tb, v, nb);
    tb->pos = (tb->pos + 5) / 6 * 6;
    tb->b[tb->n + tb->pos / 6 - 1] |= 1;
}
static void tb_end(tb_t *tb) {
    tb->n += tb->pos / 6;
    tb->b[tb->n - 1] |= 3;
    tb->pos = 0;
}
/* a Data Acquisition message on channel 6 (IDTAG 24 + lane) at absolute time `time`
 * (0: no timestamp), XOR-compressed against the previous one */
static void tb_store(tb_t *tb, unsigned size, uint32_t v, uint64_t time) {
    tb_bits(tb, 7, 6);
    tb_var(tb, 24 + (size == 4 ? 0 : size == 2 ? 2 :
                                                 3));
    tb_var(tb, v);
    if (time) {
        tb_var(tb, tb->last ^ time);
        tb->last = time;
    }
    tb_end(tb);
}
static void tb_header(tb_t *tb, unsigned type, uint64_t *time) {
    uint64_t z = 0, *tm = time ? time : &z;
#define T (time ? ++*tm : 0)
    tb_store(tb, 4, TS_PW_MARKER, T);
    tb_store(tb, 1, type, T);
    tb_store(tb, 4, 0x9, T);
    tb_store(tb, 4, 0, T);
    tb_store(tb, 4, 1, T);
    tb_store(tb, 4, (63u << 12) | 0xC00, T);
    tb_store(tb, 4, 2, T);
    tb_store(tb, 4, 0x600, T);
    tb_store(tb, 4, 0, T);
    tb_store(tb, 4, (39u << 12) | 0xC03, T);
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
    if (extra) {
        argv[5] = (char *)extra;
        argv[6] = path;
        argc = 7;
    }
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
    uint64_t time = 0x1000; /* each store one tick later: 4097.. */
    tb_start(tb);
    tb_header(tb, PERF_RAW, &time); /* 4097..4106 */
    tb_store(tb, 1, PERF_MANUAL, 4107);
    tb_store(tb, 4, 0x80001234, 4108);
    tb_store(tb, 4, 500, 4109);
    tb_store(tb, 4, 7, 4110);
    if (cut == 0) tb_store(tb, 1, PERF_MANUAL, 4111);
    if (cut == 1) {
        tb_store(tb, 1, PERF_ISR, 4111);
        tb_store(tb, 4, 0x00001000 | 1, 4112);
    }
    if (cut == 2) {
        tb_store(tb, 1, PERF_FUNC_ENTER, 4111);
        tb_store(tb, 4, 0x80000200, 4112);
    }
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
                                    "4107,0,manual,0x80001234,,,500,500,7,7\n%s",
                 csv_want[cut]);
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
         * before its address is no event; the enter cut after its function is an instant (a
         * cut-off record is no event of the call stack, as in report: no slice left open) */
        decode_to(&tr, "timeline", NULL);
        const char *tl = slurp("timeline.json");
        TS_ASSERT(!strstr(tl, "0x00000000"));
        TS_ASSERT(strstr(tl, "{\"name\": \"manual 0x80001234\", \"ph\": \"i\", \"ts\": 41.070,"));
        unsigned events = 0;
        for (const char *q = tl; (q = strstr(q, "\"ph\"")); q++) events++;
        TS_ASSERT_EQ_U(events, cut == 2 ? 6 : 5); /* with the hart's track name and the cut mark */
        TS_ASSERT(strstr(tl, "{\"name\": \"record cut off (truncated): 0 of 2 values\", \"ph\": \"i\""));
        if (cut == 2) TS_ASSERT(strstr(tl, "{\"name\": \"enter 0x80000200\", \"ph\": \"i\", \"ts\": 41.110,"));
        TS_ASSERT(!strstr(tl, "\"ph\": \"B\""));
        cleanup();
    }
}

/* Delta: SiFive's files print each delta as received; line times by --perf-line-time */
TS_TEST(sifive_delta_values_and_line_times) {
    static tb_t tr;
    tb_start(&tr);
    uint64_t time = 0x1000;            /* each store one tick later: 4097.. */
    tb_header(&tr, PERF_DELTA, &time); /* 4097..4106 */
    tb_store(&tr, 1, PERF_MANUAL, 4107);
    tb_store(&tr, 4, 0x80000010, 4108);
    tb_store(&tr, 4, 100, 4109);
    tb_store(&tr, 4, 30, 4110);
    tb_store(&tr, 1, PERF_MANUAL, 4111);
    tb_store(&tr, 4, 0x80000010, 4112);
    tb_store(&tr, 4, 40, 4113);
    tb_store(&tr, 4, 5, 4114);
    decode_to(&tr, "perf", NULL);
    const char *want_rec =
        "[0] 4107 PC=0x80000010 [Address]\n"
        "[0] 4107 PC=0x80000010 [Perf Cntr] [Index=0] [Value=100] \n"
        "[0] 4107 PC=0x80000010 [Perf Cntr] [Index=3] [Value=30] \n"
        "[0] 4111 PC=0x80000010 [Address]\n"
        "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=0] [Value=40] \n" /* not 140 */
        "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=3] [Value=5] \n";
    TS_ASSERT(strstr(slurp("trace.perf"), "# COUNT_TYPE: Delta\n"));
    if (!strstr(slurp("trace.perf"), want_rec)) TS_FAIL("trace.perf:\n%s", slurp("trace.perf"));
    cleanup();
    decode_to(&tr, "perf", "--perf-line-time=value");
    const char *want_val =
        "[0] 4108 PC=0x80000010 [Address]\n"                          /* by its address store */
        "[0] 4110 PC=0x80000010 [Perf Cntr] [Index=0] [Value=100] \n" /* completed by 4110 */
        "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=3] [Value=30] \n"  /* by the next type byte */
        "[0] 4112 PC=0x80000010 [Address]\n"
        "[0] 4114 PC=0x80000010 [Perf Cntr] [Index=0] [Value=40] \n"
        "[0] 4114 PC=0x80000010 [Perf Cntr] [Index=3] [Value=5] \n"; /* last: its own time */
    if (!strstr(slurp("trace.perf"), want_val)) TS_FAIL("trace.perf:\n%s", slurp("trace.perf"));
    TS_ASSERT(strstr(slurp("perf/trace.perfchannel3"), "[0] 4111 PC=0x80000010 [Perf Cntr] [Index=3] [Value=30] \n"));
    /* the header's lines: the mask's store (4099), each definition's counter_info store (4102,
     * 4106: counter 3 is a raw event, type, event data low and high, info) */
    const char *want_hdr_val =
        "[0] 4099 [Perf Cntr Mask] [Mask=0x00000009]\n"
        "[0] 4102 [Perf Cntr Def] [Counter=0] [Type=0] [Code=1] [EventData=0x00000000] [CntrCSR=0xc00] [CntrBits=64]\n"
        "[0] 4106 [Perf Cntr Def] [Counter=3] [Type=2] [Code=0] [EventData=0x00000600] [CntrCSR=0xc03] [CntrBits=40]\n";
    if (!strstr(slurp("trace.perf"), want_hdr_val)) TS_FAIL("trace.perf:\n%s", slurp("trace.perf"));
    TS_ASSERT(strstr(slurp("perf/trace.perfchannel3"), "[0] 4106 [Perf Cntr Def] [Counter=3]"));
    cleanup();
    /* the default rule: every header line has the marker's time */
    decode_to(&tr, "perf", NULL);
    TS_ASSERT(strstr(slurp("trace.perf"), "[0] 4097 [Perf Cntr Mask] [Mask=0x00000009]\n[0] 4097 [Perf Cntr Def] [Counter=0]"));
    TS_ASSERT(strstr(slurp("trace.perf"), "\n[0] 4097 [Perf Cntr Def] [Counter=3]"));
    cleanup();
    /* CSV keeps both: the running value and the delta */
    decode_to(&tr, "csv", NULL);
    TS_ASSERT(strstr(slurp("perf.csv"), "4111,0,manual,0x80000010,,,140,40,35,5\n"));
    cleanup();
}

/* enter/exit lines by --perf-line-time: the record's type byte (default) or the store that
 * completed its call site (value, SiFive's rule), here a high word that bit 0 announced */
TS_TEST(sifive_enter_exit_line_times) {
    static tb_t tr;
    tb_start(&tr);
    uint64_t time = 0x2000; /* header 8193..8202 */
    tb_header(&tr, PERF_RAW, &time);
    tb_store(&tr, 1, PERF_FUNC_ENTER, 8203);
    tb_store(&tr, 4, 0x80000020, 8204); /* function, bit 0 clear: whole */
    tb_store(&tr, 4, 0x80000041, 8205); /* call site low word, bit 0: a high word follows */
    tb_store(&tr, 4, 0x00000000, 8206); /* its high word: completes the call site */
    tb_store(&tr, 4, 11, 8207);
    tb_store(&tr, 4, 12, 8208);
    tb_store(&tr, 1, PERF_FUNC_EXIT, 8209);
    tb_store(&tr, 4, 0x80000020, 8210);
    tb_store(&tr, 4, 0x80000040, 8211);
    tb_store(&tr, 4, 13, 8212);
    tb_store(&tr, 4, 14, 8213);
    decode_to(&tr, "perf", "--perf-line-time=value");
    const char *want_val =
        "[0] 8206 [Func Enter at 0x80000020] [Called From 0x80000040]\n"
        "[0] 8211 [Func Exit] [Func at 0x80000020] [Returning to 0x80000040]\n";
    if (!strstr(slurp("perf/trace.callret"), want_val)) TS_FAIL("trace.callret:\n%s", slurp("perf/trace.callret"));
    cleanup();
    decode_to(&tr, "perf", NULL);
    const char *want_rec =
        "[0] 8203 [Func Enter at 0x80000020] [Called From 0x80000040]\n"
        "[0] 8209 [Func Exit] [Func at 0x80000020] [Returning to 0x80000040]\n";
    if (!strstr(slurp("perf/trace.callret"), want_rec)) TS_FAIL("trace.callret:\n%s", slurp("perf/trace.callret"));
    cleanup();
}

/* ---- gaps: stores lost between an Error message's neighbours --------------------------- */
typedef struct glog {
    char text[8][200];
    unsigned n;
} glog_t;
static glog_t gl;
static void on_g(void *c, unsigned core, uint64_t off, const char *w) {
    (void)c;
    (void)core;
    (void)off;
    if (gl.n < 8) snprintf(gl.text[gl.n], sizeof gl.text[0], "%s", w);
    gl.n++;
}
static void gbegin(void) {
    memset(&out, 0, sizeof out);
    memset(&gl, 0, sizeof gl);
    perf_dec_cb_t cb = {&out, on_h, on_r, on_g};
    perf_dec_init(&dec, 6, &cb);
    t = 1000;
}
/* an Error message (TCODE 8) of source 0 as perf_dec_feed sees it */
static void err_msg(void) {
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.status = NXD_OK;
    m.tcode = 8;
    m.offset = 77;
    perf_dec_feed(&dec, &m);
}

TS_TEST(gap_cuts_record_and_resyncs_raw) {
    gbegin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001000);
    st(4, 500);
    st(4, 7);
    st(1, PERF_MANUAL);
    st(4, 0x80001010);
    st(4, 600); /* counter 0's low word: pending */
    err_msg();  /* stores lost here */
    st(4, 8);
    st(2, 1);
    st(4, 0x80001020); /* tails of lost records: ignored */
    st(1, 9);          /* an 8-bit store that is no record type */
    st(1, PERF_MANUAL);
    st(4, 0x80001030);
    st(4, 900);
    st(4, 20);
    st(1, PERF_MANUAL);
    st(4, 0x80001030);
    st(4, 950);
    st(4, 26);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(dec.gaps, 1);
    TS_ASSERT_EQ_U(dec.errors, 0);
    TS_ASSERT_EQ_U(gl.n, 1);
    TS_ASSERT(!strncmp(gl.text[0], "gap: ", 5));
    TS_ASSERT(strstr(gl.text[0], "Error message"));
    TS_ASSERT_EQ_U(out.nr, 4);
    /* the record in progress: cut, its pending low word dropped (the high part may be lost) */
    TS_ASSERT(out.r[1].truncated);
    TS_ASSERT(out.r[1].has_addr);
    TS_ASSERT_EQ_U(out.r[1].addr, 0x80001010);
    TS_ASSERT_EQ_U(out.r[1].n, 0);
    /* the next record: Raw values are absolute; the change since the previous one is not known */
    const perf_record_t *r = &out.r[2];
    TS_ASSERT(r->gap_before && !r->truncated);
    TS_ASSERT_EQ_U(r->addr, 0x80001030);
    TS_ASSERT_EQ_U(r->value[0], 900);
    TS_ASSERT_EQ_U(r->value[1], 20);
    TS_ASSERT_EQ_U(r->value_unknown, 0);
    TS_ASSERT_EQ_U(r->delta_unknown, 3);
    TS_ASSERT_EQ_U(r->delta[0], 0);
    /* and the one after: whole again */
    r = &out.r[3];
    TS_ASSERT(!r->gap_before);
    TS_ASSERT_EQ_U(r->delta_unknown, 0);
    TS_ASSERT_EQ_U(r->delta[0], 50);
    TS_ASSERT_EQ_U(r->delta[1], 6);
}

TS_TEST(gap_drops_last_low_word_and_waits_for_type_byte) {
    gbegin();
    header(PERF_RAW, 40);
    st(1, PERF_ISR);
    st(4, 0x80000100);
    st(4, 5);
    st(4, 6); /* all values, the last pending */
    err_msg();
    st(4, 0x80000200);
    st(4, 1);
    st(4, 2); /* no record without its type byte */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].truncated); /* 6 may have had a high part */
    TS_ASSERT_EQ_U(out.r[0].n, 1);
    TS_ASSERT_EQ_U(out.r[0].value[0], 5);
    TS_ASSERT_EQ_U(dec.errors, 0);
}

TS_TEST(gap_delta_running_values_unknown_deltas_kept) {
    gbegin();
    header(PERF_DELTA, 12);
    st(1, PERF_MANUAL);
    st(4, 0x80000100);
    st(4, 100);
    st(4, 4000);
    err_msg();
    st(1, PERF_MANUAL);
    st(4, 0x80000100);
    st(4, 50);
    st(4, 200);
    st(1, PERF_MANUAL);
    st(4, 0x80000100);
    st(4, 70);
    st(4, 4095);
    header(PERF_DELTA, 12); /* a new header: known again */
    st(1, PERF_MANUAL);
    st(4, 0x80000100);
    st(4, 30);
    st(4, 3);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 4);
    TS_ASSERT(out.r[0].truncated); /* its last value was pending */
    TS_ASSERT_EQ_U(out.r[0].n, 1);
    TS_ASSERT_EQ_U(out.r[0].value[0], 100);
    for (int k = 1; k <= 2; k++) {
        TS_ASSERT_EQ_U(out.r[k].value_unknown, 3); /* the running sums are lost */
        TS_ASSERT_EQ_U(out.r[k].delta_unknown, 0); /* the deltas are what arrived */
        TS_ASSERT_EQ_U(out.r[k].value[0], 0);
        TS_ASSERT_EQ_U(out.r[k].value[1], 0);
    }
    TS_ASSERT(out.r[1].gap_before && !out.r[2].gap_before);
    TS_ASSERT_EQ_U(out.r[1].delta[0], 50);
    TS_ASSERT_EQ_U(out.r[1].delta[1], 200);
    TS_ASSERT_EQ_U(out.r[2].delta[1], 4095);
    TS_ASSERT_EQ_U(out.r[3].value_unknown, 0);
    TS_ASSERT_EQ_U(out.r[3].value[0], 30);
    TS_ASSERT_EQ_U(out.r[3].value[1], 3);
}

TS_TEST(gap_delta_xor_values_and_addresses_unknown) {
    gbegin();
    header(PERF_DELTA_XOR, 40);
    st(1, PERF_FUNC_ENTER);
    st(4, 0x80000200);
    st(4, 0x80000200 ^ 0x80000104);
    st(4, 1000);
    st(4, 30);
    err_msg(); /* e.g. a whole exit record lost */
    st(1, PERF_FUNC_ENTER);
    st(4, 0x80000300 ^ 0x80000104);
    st(4, 0x80000300 ^ 0x80000110);
    st(4, 2000 ^ 1500);
    st(4, 45 ^ 40);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    const perf_record_t *r = &out.r[1];
    TS_ASSERT(r->gap_before && !r->truncated);
    TS_ASSERT(r->addr_unknown);
    TS_ASSERT(!r->has_addr && !r->has_call_site);
    TS_ASSERT_EQ_U(r->addr, 0);
    TS_ASSERT_EQ_U(r->call_site, 0);
    TS_ASSERT_EQ_U(r->addr_wire, 0x80000300 ^ 0x80000104); /* as received */
    TS_ASSERT_EQ_U(r->call_site_wire, 0x80000300 ^ 0x80000110);
    TS_ASSERT_EQ_U(r->n, 2);
    TS_ASSERT_EQ_U(r->value_unknown, 3);
    TS_ASSERT_EQ_U(r->delta_unknown, 3);
    TS_ASSERT_EQ_U(r->raw[0], 2000 ^ 1500);
    TS_ASSERT_EQ_U(r->value[0], 0);
    TS_ASSERT_EQ_U(r->delta[0], 0);
}

TS_TEST(gap_in_header_waits_for_next_marker) {
    gbegin();
    st(4, TS_PW_MARKER);
    st(1, PERF_RAW);
    st(4, 0x9);
    err_msg(); /* the definitions are lost */
    st(4, 2);
    st(4, 0x600);
    st(4, 0);
    st(4, (39u << 12) | 0xC03);
    st(1, PERF_MANUAL);
    st(4, 0x80000000);
    st(4, 1);
    st(4, 2); /* no header: ignored */
    TS_ASSERT_EQ_U(out.nh, 0);
    TS_ASSERT_EQ_U(out.nr, 0);
    TS_ASSERT(strstr(gl.text[0], "in the middle of a perf header"));
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80000000);
    st(4, 1);
    st(4, 2);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].gap_before);            /* data was lost before it */
    TS_ASSERT_EQ_U(out.r[0].delta_unknown, 0); /* but the header is new */
}

TS_TEST(gap_from_elements_and_corrupt_messages) {
    gbegin();
    perf_dec_gap(&dec, 0, 5, "test"); /* no header yet: nothing */
    TS_ASSERT_EQ_U(dec.gaps, 0);
    header(PERF_RAW, 40);
    ts_elem_t e;
    memset(&e, 0, sizeof e);
    e.type = TS_ELEM_OVERFLOW;
    e.src = 0;
    perf_dec_feed_elem(&dec, &e);
    TS_ASSERT_EQ_U(dec.gaps, 1);
    e.src = 1; /* another source: no header */
    perf_dec_feed_elem(&dec, &e);
    TS_ASSERT_EQ_U(dec.gaps, 1);
    nxd_msg_t bad; /* a corrupt message: every hart */
    memset(&bad, 0, sizeof bad);
    bad.status = NXD_BAD;
    e.type = TS_ELEM_CORRUPT;
    e.msg = &bad;
    perf_dec_feed_elem(&dec, &e);
    TS_ASSERT_EQ_U(dec.gaps, 2);
    TS_ASSERT(strstr(gl.text[1], "corrupt"));
    perf_dec_feed(&dec, &bad);
    TS_ASSERT_EQ_U(dec.gaps, 3);
}

/* ---- the out-of-band header ------------------------------------------------------------- */
static const char cfg_text[] =
    "# a comment\n"
    "channel=6\n"
    "hart=0\n"
    "count_type=Delta   mask=0x00000009   # two items on a line\n"
    "counter=0 type=0 code=1 info=0x0003fc00\n"
    "counter=3 type=2 event_data=0x600 info=0x00027c03\n";

TS_TEST(config_parse_and_write) {
    perf_header_t h[2];
    char err[200];
    unsigned ch = 99;
    TS_ASSERT_EQ_I(perf_config_parse(cfg_text, h, 2, &ch, err, sizeof err), 1);
    TS_ASSERT_EQ_U(ch, 6);
    TS_ASSERT_EQ_U(h[0].core, 0);
    TS_ASSERT_EQ_U(h[0].count_type, PERF_DELTA);
    TS_ASSERT_EQ_U(h[0].mask, 9);
    TS_ASSERT_EQ_U(h[0].n, 2);
    TS_ASSERT_EQ_U(h[0].def[0].index, 0);
    TS_ASSERT_EQ_U(h[0].def[0].code, 1);
    TS_ASSERT_EQ_U(h[0].def[0].width, 64);
    TS_ASSERT_EQ_U(h[0].def[1].index, 3);
    TS_ASSERT_EQ_U(h[0].def[1].type, 2);
    TS_ASSERT_EQ_U(h[0].def[1].event_data, 0x600);
    TS_ASSERT_EQ_U(h[0].def[1].width, 40);
    /* written and read back: the same header */
    char buf[1024];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    TS_ASSERT(f);
    TS_ASSERT_EQ_I(perf_config_write(f, 6, &h[0]), 0);
    fclose(f);
    TS_ASSERT_STR_EQ(buf, "channel=6\nhart=0\ncount_type=Delta\nmask=0x00000009\n"
                          "counter=0 type=0 code=1 info=0x0003fc00\n"
                          "counter=3 type=2 event_data=0x600 info=0x00027c03\n");
    TS_ASSERT_EQ_I(perf_config_parse(buf, &h[1], 1, NULL, err, sizeof err), 1);
    TS_ASSERT(!memcmp(&h[0], &h[1], sizeof h[0]));
    /* two harts */
    TS_ASSERT_EQ_I(perf_config_parse("hart=1 count_type=raw mask=0\nhart=0 count_type=2 mask=0x1 "
                                     "counter=0 type=0 code=1 info=0x3fc00",
                                     h, 2, NULL, err, sizeof err),
                   2);
    TS_ASSERT_EQ_U(h[0].core, 1);
    TS_ASSERT_EQ_U(h[0].n, 0);
    TS_ASSERT_EQ_U(h[1].count_type, PERF_DELTA_XOR);
}

TS_TEST(config_parse_errors) {
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"", "no perf header"},
        {"count_type=Delta", "mask missing"},
        {"mask=1 counter=0 type=0 code=1 info=1", "count_type missing"},
        {"count_type=Delta mask=0x9 counter=0 type=0 code=1 info=1", "2 counters, 1 counter lines"},
        {"count_type=Delta mask=0x9 counter=3 type=0 code=1 info=1 counter=0", "ascend"},
        {"count_type=Delta mask=0x9 counter=1", "bits of the"},
        {"count_type=Delta mask=0x1 counter=0 type=2 code=1 info=1", "needs type, info and event_data"},
        {"count_type=Delta mask=0x1 counter=0 type=0 info=1", "needs type, info and code"},
        {"count_type=Delta mask=0x1 counter=0 type=0 code=1 code=2 info=1", "given twice"},
        {"count_type=Delta mask=0x1 counter=0 type=3", "bad value"},
        {"count_type=Delta\nmask=0x1\ncounter=0 type=0 code=-1", "line 3: bad value"},
        {"count_type=Delta mask=0x1 counter=0 type=0 code=0x100000000", "bad value"},
        {"count_type=Sum", "bad value"},
        {"channel=32", "bad value"},
        {"hart=16", "bad value"},
        {"hart=0 count_type=Raw mask=0 hart=0", "hart 0 given twice"},
        {"count_type=Raw mask=0 colour=blue", "unknown key 'colour'"},
        {"count_type Raw", "not key=value"},
        {"type=0", "before any counter"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        perf_header_t h[2];
        char err[200] = "";
        if (perf_config_parse(bad[i].text, h, 2, NULL, err, sizeof err) != -1)
            TS_FAIL("accepted: %s", bad[i].text);
        if (!strstr(err, bad[i].why)) TS_FAIL("'%s': error '%s' does not say '%s'", bad[i].text, err, bad[i].why);
    }
}

TS_TEST(config_decodes_records_of_a_trace_without_header) {
    gbegin();
    perf_header_t h;
    char err[200];
    TS_ASSERT_EQ_I(perf_config_parse("count_type=Raw mask=0x9 counter=0 type=0 code=1 info=0x3fc00 "
                                     "counter=3 type=2 event_data=0x600 info=0x27c03",
                                     &h, 1, NULL, err, sizeof err),
                   1);
    perf_dec_set_config(&dec, &h);
    TS_ASSERT_EQ_U(out.nh, 0); /* reported when used */
    st(4, 123);
    st(2, 4);
    st(4, 7); /* the end of a record */
    st(1, PERF_MANUAL);
    st(4, 0x80000040);
    st(4, 1000);
    st(4, 9);
    st(1, PERF_MANUAL);
    st(4, 0x80000040);
    st(4, 1100);
    st(4, 12);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.h[0].mask, 9);
    TS_ASSERT_EQ_U(dec.headers, 0); /* none in the trace */
    TS_ASSERT_EQ_U(dec.config_used, 1);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].gap_before);
    TS_ASSERT_EQ_U(out.r[0].value[0], 1000);
    TS_ASSERT_EQ_U(out.r[0].delta_unknown, 3);
    /* the trace's own header, different from the configuration: a warning */
    header(PERF_DELTA, 40);
    TS_ASSERT_EQ_U(dec.headers, 1);
    TS_ASSERT_EQ_U(dec.warnings, 1);
    TS_ASSERT(strstr(gl.text[gl.n - 1], "differs from the out-of-band configuration"));
    st(1, PERF_MANUAL);
    st(4, 0x80000040);
    st(4, 10);
    st(4, 2);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 3);
    TS_ASSERT_EQ_U(out.r[1].value[0], 1100); /* completed by the marker */
    TS_ASSERT_EQ_U(out.r[1].delta[0], 100);
    TS_ASSERT(!out.r[2].gap_before);
    TS_ASSERT_EQ_U(out.r[2].value_unknown, 0);
}

TS_TEST(config_unused_when_the_trace_has_its_header) {
    gbegin();
    perf_header_t h;
    char err[200];
    TS_ASSERT_EQ_I(perf_config_parse("count_type=Raw mask=0", &h, 1, NULL, err, sizeof err), 1);
    perf_dec_set_config(&dec, &h);
    header(PERF_RAW, 40); /* no warning: not used */
    st(1, PERF_MANUAL);
    st(4, 0x80000040);
    st(4, 1000);
    st(4, 9);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(dec.warnings, 0);
    TS_ASSERT_EQ_U(dec.config_used, 0);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.h[0].n, 2);
    TS_ASSERT(!out.r[0].gap_before);
}

/* ---- the profile: a gap resets the call stack ------------------------------------------- */
TS_TEST(profile_gap_resets_call_stack) {
    prof_t *p = prof_new(NULL);
    TS_ASSERT(p);
    perf_header_t h;
    memset(&h, 0, sizeof h);
    h.count_type = PERF_DELTA;
    h.mask = 1;
    h.n = 1;
    h.def[0].index = 0;
    h.def[0].code = 1;
    h.def[0].width = 64;
    prof_header(p, &h);
    perf_record_t r;
    memset(&r, 0, sizeof r);
    r.n = 1;
    r.has_addr = r.has_call_site = true;
    r.type = PERF_FUNC_ENTER;
    r.addr = 0x100;
    r.call_site = 0x10;
    r.delta[0] = 5;
    prof_record(p, &r);
    r.type = PERF_FUNC_ENTER;
    r.addr = 0x200;
    r.call_site = 0x110;
    r.delta[0] = 10;
    prof_record(p, &r);
    /* lost: the exit of 0x200 and more; the next record comes after a gap */
    r.gap_before = true;
    r.type = PERF_FUNC_ENTER;
    r.addr = 0x300;
    r.call_site = 0x10;
    r.delta[0] = 1000;
    prof_record(p, &r);
    r.gap_before = false;
    r.type = PERF_FUNC_EXIT;
    r.addr = 0x300;
    r.call_site = 0x10;
    r.delta[0] = 7;
    prof_record(p, &r);
    /* DeltaXOR after a gap: no addresses, no deltas: not used */
    r.gap_before = true;
    r.has_addr = r.has_call_site = false;
    r.addr_unknown = true;
    r.delta_unknown = r.value_unknown = 1;
    r.type = PERF_FUNC_EXIT;
    r.addr = 0;
    r.delta[0] = 0;
    prof_record(p, &r);
    prof_finish(p);
    const prof_stats_t *s = prof_stats(p);
    TS_ASSERT_EQ_U(s->gaps, 2);
    TS_ASSERT_EQ_U(s->gap_ended, 2); /* 0x100 and 0x200 */
    TS_ASSERT_EQ_U(s->unmatched_exits, 0);
    TS_ASSERT_EQ_U(s->unknown_addr, 1);
    TS_ASSERT_EQ_U(s->still_active, 0);
    /* 0x200 ran from its enter to the last record before the gap: nothing after it; the 1000
     * across the gap is nobody's; 0x300 costs the 7 between its enter and exit */
    TS_ASSERT_EQ_U(prof_func(p, 0x100)->total[0], 10);
    TS_ASSERT_EQ_U(prof_func(p, 0x200)->total[0], 0);
    TS_ASSERT_EQ_U(prof_func(p, 0x300)->total[0], 7);
    TS_ASSERT_EQ_U(prof_trace_total(p, 0), 17);
    char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    TS_ASSERT(f);
    TS_ASSERT_EQ_I(prof_write_text(p, f), 0);
    fclose(f);
    TS_ASSERT(strstr(buf, "2 gap(s): perf data lost before a record"));
    TS_ASSERT(strstr(buf, "2 frame(s) ended at the last record before it"));
    TS_ASSERT(strstr(buf, "1 record(s) after a gap with unknown addresses (DeltaXOR): not used"));
    prof_free(p);
}

/* ---- the writers on traces with a gap, and a wrapped trace ------------------------------ */
/* an Error message (TCODE 8, ETYPE 0, ECODE 0: 0x20 0x03) and the ICT-WS Control(0,0) with a
 * full timestamp that follows it (trace-hw-facts.md 4.4, 4.8) */
static void tb_error(tb_t *tb) {
    tb_bits(tb, 8, 6);
    tb_bits(tb, 0, 4);
    tb_var(tb, 0);
    tb_end(tb);
}
static void tb_sync(tb_t *tb, uint64_t time) {
    tb_bits(tb, 35, 6);
    tb_bits(tb, 0, 6);
    tb_var(tb, 0);
    tb_var(tb, time);
    tb_end(tb);
    tb->last = time;
}
static void tb_rec(tb_t *tb, uint32_t addr, uint32_t v0, uint32_t v3, uint64_t time) {
    tb_store(tb, 1, PERF_MANUAL, time);
    tb_store(tb, 4, addr, time + 1);
    tb_store(tb, 4, v0, time + 2);
    tb_store(tb, 4, v3, time + 3);
}
/* header (count type `type`), a record at 4107, one cut by lost stores at 4111, the Error
 * and sync (time 5000), a record at 5001 and one at 5005 */
static void gap_trace(tb_t *tb, unsigned type) {
    uint64_t time = 0x1000;
    tb_start(tb);
    tb_header(tb, type, &time); /* 4097..4106 */
    tb_rec(tb, 0x80001234, 500, 7, 4107);
    tb_store(tb, 1, PERF_MANUAL, 4111);
    tb_store(tb, 4, 0x80001234, 4112);
    tb_error(tb);
    tb_sync(tb, 5000);
    tb_rec(tb, 0x80001240, 900, 20, 5001);
    tb_rec(tb, 0x80001240, 950, 26, 5005);
}

TS_TEST(error_message_bytes) {
    tb_t tb;
    memset(&tb, 0, sizeof tb);
    tb_error(&tb);
    TS_ASSERT_EQ_U(tb.n, 2);
    TS_ASSERT_EQ_U(tb.b[0], 0x20);
    TS_ASSERT_EQ_U(tb.b[1], 0x03);
    tb_sync(&tb, 0x1000); /* the bytes of tb_start */
    static const uint8_t ict[] = {0x8c, 0x00, 0x01, 0x00, 0x00, 0x07};
    TS_ASSERT_EQ_U(tb.n, 8);
    TS_ASSERT(!memcmp(tb.b + 2, ict, sizeof ict));
}

TS_TEST(writers_report_gaps) {
    static tb_t tr;
    /* CSV: the cut record, a gap row, Raw values whole and the first deltas empty */
    gap_trace(&tr, PERF_RAW);
    decode_to(&tr, "csv", NULL);
    TS_ASSERT_STR_EQ(slurp("perf.csv"),
                     "timestamp,hart,record,address,call_site,function,cycles,cycles_delta,raw_0x600,raw_0x600_delta\n"
                     "4107,0,manual,0x80001234,,,500,500,7,7\n"
                     "4111,0,manual(truncated),0x80001234,,,,,,\n"
                     ",0,gap,,,,,,,\n"
                     "5001,0,manual,0x80001240,,,900,,20,\n"
                     "5005,0,manual,0x80001240,,,950,50,26,6\n");
    cleanup();
    /* Delta: the running values are unknown after the gap, the deltas are not */
    gap_trace(&tr, PERF_DELTA);
    decode_to(&tr, "csv", NULL);
    TS_ASSERT(strstr(slurp("perf.csv"), ",0,gap,,,,,,,\n5001,0,manual,0x80001240,,,,900,,20\n5005,0,manual,0x80001240,,,,950,,26\n"));
    cleanup();
    /* DeltaXOR: nothing but the record type and time */
    gap_trace(&tr, PERF_DELTA_XOR);
    decode_to(&tr, "csv", NULL);
    TS_ASSERT(strstr(slurp("perf.csv"), ",0,gap,,,,,,,\n5001,0,manual,,,,,,,\n5005,0,manual,,,,,,,\n"));
    cleanup();
    /* SiFive's files: a comment line at the gap; DeltaXOR writes nothing it does not know */
    decode_to(&tr, "perf", NULL);
    const char *agg = slurp("trace.perf");
    TS_ASSERT(strstr(agg, "# GAP: [0] perf data lost before the next record"));
    TS_ASSERT(!strstr(agg, "0x80001240"));
    TS_ASSERT(!strstr(agg, "[0] 5001"));
    cleanup();
    gap_trace(&tr, PERF_DELTA);
    decode_to(&tr, "perf", NULL);
    agg = slurp("trace.perf");
    TS_ASSERT(strstr(agg, "# GAP: [0] perf data lost before the next record (messages lost or overwritten)\n"
                          "[0] 5001 PC=0x80001240 [Address]\n"
                          "[0] 5001 PC=0x80001240 [Perf Cntr] [Index=0] [Value=900] \n"));
    cleanup();
    /* timeline: an instant for the gap; no counter sample without a delta */
    gap_trace(&tr, PERF_RAW);
    decode_to(&tr, "timeline", NULL);
    const char *tl = slurp("timeline.json");
    TS_ASSERT(strstr(tl, "{\"name\": \"gap: perf data lost\", \"ph\": \"i\", \"ts\": 50.010,"));
    unsigned samples = 0;
    for (const char *q = tl; (q = strstr(q, "\"ph\": \"C\"")); q++) samples++;
    TS_ASSERT_EQ_U(samples, 2 + 0 + 2); /* 4107, (5001: none), 5005 */
    cleanup();
}

TS_TEST(timeline_gap_ends_open_slices) {
    static tb_t tr;
    uint64_t time = 0x1000;
    tb_start(&tr);
    tb_header(&tr, PERF_RAW, &time);
    tb_store(&tr, 1, PERF_FUNC_ENTER, 4107);
    tb_store(&tr, 4, 0x80000200, 4108);
    tb_store(&tr, 4, 0x80000104, 4109);
    tb_store(&tr, 4, 1, 4110);
    tb_store(&tr, 4, 2, 4111);
    tb_error(&tr);
    tb_sync(&tr, 5000);
    tb_rec(&tr, 0x80001240, 900, 20, 5001);
    decode_to(&tr, "timeline", NULL);
    const char *tl = slurp("timeline.json");
    /* the enter was cut off by the loss: like report (no event of the call stack), it is an
     * instant, not a slice left open; the gap follows */
    const char *b = strstr(tl, "\"ph\": \"B\""), *e = strstr(tl, "\"ph\": \"E\""), *i = strstr(tl, "{\"name\": \"enter 0x80000200\", \"ph\": \"i\""),
               *g = strstr(tl, "gap: perf data lost");
    TS_ASSERT(!b && !e && i && g && i < g);
    cleanup();
}

/* a wrapped buffer: the image starts in the middle of a message and has no header; with the
 * configuration the records after the first record start are decoded */
static void wrapped_dir(const tb_t *tb) {
    snprintf(dir, sizeof dir, "/tmp/ts_perf_XXXXXX");
    TS_ASSERT(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    FILE *f = fopen(path, "wb");
    TS_ASSERT(f);
    fwrite(tb->b, 1, tb->n, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/trace.json", dir);
    f = fopen(path, "w");
    TS_ASSERT(f);
    fprintf(f, "{\n  \"srcbits\": 0,\n  \"tsbits\": 40,\n  \"wrapped\": true,\n  \"bytes\": %zu,\n  \"bytes_written\": 5000\n}\n", tb->n);
    fclose(f);
    snprintf(path, sizeof path, "%s/perf_config.txt", dir);
    f = fopen(path, "w");
    TS_ASSERT(f);
    fputs("channel=6\nhart=0\ncount_type=Delta\nmask=0x00000009\ncounter=0 type=0 code=1 info=0x0003f000\n"
          "counter=3 type=2 event_data=0x600 info=0x00027000\n",
          f);
    fclose(f);
}
static int decode_in_dir(const char *format, bool with_config) {
    char path[128], cfg[128], odir[128];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    snprintf(cfg, sizeof cfg, "%s/perf_config.txt", dir);
    snprintf(odir, sizeof odir, "%s", dir);
    char *argv[10] = {"decode", "-f", (char *)format, "-o", odir, path};
    int argc = 6;
    if (with_config) {
        argv[5] = "--perf-config";
        argv[6] = cfg;
        argv[7] = path;
        argc = 8;
    }
    return ts_decode_main(argc, argv);
}

TS_TEST(wrapped_trace_with_out_of_band_header) {
    static tb_t full, tr;
    /* the stream: header, then records at 4107, 4111, 4115; keep the bytes from the middle of
     * the first record's address message on (the wrap overwrote everything before) */
    uint64_t time = 0x1000;
    tb_start(&full);
    tb_header(&full, PERF_DELTA, &time);
    tb_store(&full, 1, PERF_MANUAL, 4107);
    size_t cut = full.n + 2; /* 2 bytes into the address's message */
    tb_store(&full, 4, 0x80001234, 4108);
    tb_store(&full, 4, 100, 4109);
    tb_store(&full, 4, 7, 4110);
    tb_rec(&full, 0x80001234, 40, 5, 4111);
    tb_rec(&full, 0x80001234, 60, 6, 4115);
    memset(&tr, 0, sizeof tr);
    memcpy(tr.b, full.b + cut, full.n - cut);
    tr.n = full.n - cut;
    TS_ASSERT(tr.b[0] != 0 && (tr.b[0] & 3) == 0); /* a byte dqr would take for a message start */
    wrapped_dir(&tr);
    /* without the header: nothing, and a hint */
    TS_ASSERT_EQ_I(decode_in_dir("csv", false), 0);
    TS_ASSERT_STR_EQ(slurp("perf.csv"), "");
    TS_ASSERT_EQ_I(decode_in_dir("csv", true), 0);
    /* the records of 4111 and 4115: deltas as received, running values unknown, no time (no
     * full timestamp after the wrap) */
    TS_ASSERT_STR_EQ(slurp("perf.csv"),
                     "timestamp,hart,record,address,call_site,function,cycles,cycles_delta,raw_0x600,raw_0x600_delta\n"
                     ",0,gap,,,,,,,\n"
                     ",0,manual,0x80001234,,,,40,,5\n"
                     ",0,manual,0x80001234,,,,60,,6\n");
    /* messages: the cut first message is not decoded */
    TS_ASSERT_EQ_I(decode_in_dir("messages", false), 0);
    TS_ASSERT(!strstr(slurp("messages.jsonl"), "\"error\""));
    TS_ASSERT(!strstr(slurp("messages.jsonl"), "\"offset\": 0,"));
    /* report: the profile of the same records */
    char path[128], cfg[128], rep[128];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    snprintf(cfg, sizeof cfg, "%s/perf_config.txt", dir);
    snprintf(rep, sizeof rep, "%s", dir); /* -o: the output folder of report.txt */
    char *rargv[] = {"report", "--perf-config", cfg, "-o", rep, path};
    TS_ASSERT_EQ_I(ts_report_main(6, rargv), 0);
    const char *r = slurp("report.txt");
    TS_ASSERT(strstr(r, "the buffer wrapped: the oldest"));
    TS_ASSERT(strstr(r, "2 record(s): 0 enter, 0 exit, 2 manual"));
    char *rargv2[] = {"report", "-o", rep, path};
    TS_ASSERT_EQ_I(ts_report_main(4, rargv2), 121); /* no header: exit 121 */
    cleanup();
}

/* ---- no invented values (issue 23 item 3): a value whose high part may be lost ----------- */
/* the case: Raw, a 64-bit counter at 0x1_0000_0010, then a record whose value's high
 * part (0x0001) was cut by the stop on wrap after its low word 0x8f: taken as whole, the value
 * would be 0x8f and its delta 0x8f - 0x100000010 mod 2^64 = 18446744069414584447 */
static void record_then_cut_low(void) {
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001234);
    st(4, 0x10);
    st(2, 0x0001);
    st(4, 7);
    st(1, PERF_MANUAL);
    st(4, 0x80001240);
    st(4, 0x8f);
}

TS_TEST(stop_on_wrap_after_low_word_invents_no_value) {
    begin();
    record_then_cut_low();
    perf_dec_ended_early(&dec); /* trace.json: stopped_on_wrap */
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT(!out.r[0].truncated);
    TS_ASSERT_EQ_U(out.r[0].value[0], 0x100000010ull);
    TS_ASSERT(out.r[1].truncated);
    TS_ASSERT_EQ_U(out.r[1].n, 0); /* the low word alone is not a value */
    for (unsigned i = 0; i < out.nr; i++)
        for (unsigned k = 0; k < out.r[i].n; k++) TS_ASSERT(out.r[i].delta[k] != 18446744069414584447ull);
    /* a trace that ended where the firmware stopped writing: the low word is whole */
    begin();
    record_then_cut_low();
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT(out.r[1].truncated); /* the second counter never came */
    TS_ASSERT_EQ_U(out.r[1].n, 1);
    TS_ASSERT_EQ_U(out.r[1].value[0], 0x8f);
}

/* an ICT Control trace-off (TCODE 34, CKSRC 0, control 3) of source 0 */
static void trace_off_msg(void) {
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.status = NXD_OK;
    m.tcode = 34;
    m.fmask = 1u << NXF_CKSRC | 1u << NXF_CONTROL;
    m.f[NXF_CKSRC] = 0;
    m.f[NXF_CONTROL] = 3;
    m.offset = 55;
    perf_dec_feed(&dec, &m);
}

TS_TEST(trace_off_between_low_word_and_high_part_cuts_the_record) {
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001234);
    st(4, 0x10);
    trace_off_msg(); /* tracing off (and on again) between the parts */
    st(2, 0x0001);   /* the high part: not joined across the off */
    st(4, 7);        /* no record without its type byte */
    st(1, PERF_MANUAL);
    st(4, 0x80001240);
    st(4, 0x20);
    st(4, 8);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT(out.r[0].truncated);
    TS_ASSERT_EQ_U(out.r[0].n, 0); /* 0x10 was not reported, nor 0x1_0000_0010 */
    TS_ASSERT(out.r[1].gap_before);
    TS_ASSERT(!out.r[1].truncated);
    TS_ASSERT_EQ_U(out.r[1].value[0], 0x20);
    TS_ASSERT_EQ_U(dec.gaps, 1);
    TS_ASSERT_EQ_U(dec.errors, 0);
    /* the same off from the element stage */
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001234);
    st(4, 0x10);
    ts_elem_t e;
    memset(&e, 0, sizeof e);
    e.type = TS_ELEM_TRACE_OFF;
    perf_dec_feed_elem(&dec, &e);
    st(2, 0x0001);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 1);
    TS_ASSERT(out.r[0].truncated);
    TS_ASSERT_EQ_U(out.r[0].n, 0);
    /* an off after a whole value (the next store is not a high part) cuts nothing */
    begin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001234);
    st(4, 0x10);
    st(4, 7);
    trace_off_msg();
    st(1, PERF_MANUAL);
    st(4, 0x80001240);
    st(4, 0x20);
    st(4, 8);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT(!out.r[0].truncated);
    TS_ASSERT_EQ_U(out.r[0].value[1], 7);
    TS_ASSERT_EQ_U(dec.gaps, 0);
}

TS_TEST(error_between_low_word_and_high_part_cuts_the_record) {
    gbegin();
    header(PERF_RAW, 40);
    st(1, PERF_MANUAL);
    st(4, 0x80001234);
    st(4, 0x10);
    err_msg();     /* stores lost between the parts */
    st(2, 0x0001); /* ignored: waiting for a record type */
    st(1, PERF_MANUAL);
    st(4, 0x80001240);
    st(4, 0x20);
    st(4, 8);
    perf_dec_finish(&dec);
    TS_ASSERT_EQ_U(out.nr, 2);
    TS_ASSERT(out.r[0].truncated);
    TS_ASSERT_EQ_U(out.r[0].n, 0);
    TS_ASSERT(out.r[1].gap_before);
    TS_ASSERT_EQ_U(out.r[1].value[0], 0x20);
    TS_ASSERT_EQ_U(dec.errors, 0);
}

/* itc.csv rows as sim/ground_truth_log.c writes them, and what is not one */
TS_TEST(itc_csv_row_parser) {
    ts_itc_row_t r;
    TS_ASSERT(ts_itc_row("5434,0,6,0,4,0x70657266\n", &r));
    TS_ASSERT_EQ_U(r.cycle, 5434);
    TS_ASSERT_EQ_U(r.hart, 0);
    TS_ASSERT_EQ_U(r.stim, 6);
    TS_ASSERT_EQ_U(r.off, 0);
    TS_ASSERT_EQ_U(r.size, 4);
    TS_ASSERT_EQ_U(r.value, 0x70657266u);
    TS_ASSERT(ts_itc_row("18446744073709551615,7,31,3,1,0x000000ff", &r)); /* no newline at EOF */
    TS_ASSERT(r.cycle == UINT64_MAX);
    TS_ASSERT_EQ_U(r.hart, 7);
    TS_ASSERT_EQ_U(r.stim, 31);
    TS_ASSERT_EQ_U(r.off, 3);
    TS_ASSERT_EQ_U(r.value, 0xFFu);
    TS_ASSERT(ts_itc_row("1,2,3,2,2,0xABCD\r\n", &r));
    TS_ASSERT_EQ_U(r.value, 0xABCDu);
    TS_ASSERT_EQ_U(r.status, TS_ITC_TRACED); /* no status column: traced */
    static const struct {
        const char *row;
        enum ts_itc_status st;
    } sts[] = {
        {"5,0,6,0,4,0x1,traced\n", TS_ITC_TRACED}, {"5,0,6,0,4,0x1,dropped_fifo\n", TS_ITC_DROPPED_FIFO}, {"5,0,6,0,4,0x1,after_stop\r\n", TS_ITC_AFTER_STOP}, {"5,0,6,0,4,0x1,encoder_off", TS_ITC_ENCODER_OFF}};
    for (unsigned i = 0; i < sizeof sts / sizeof sts[0]; i++) {
        TS_ASSERT(ts_itc_row(sts[i].row, &r));
        TS_ASSERT_EQ_U(r.status, sts[i].st);
        TS_ASSERT_EQ_U(r.value, 1);
    }
    static const char *bad[] = {
        "cycle,hart,stimulus,offset,size,value\n", /* the header */
        "",
        "1,2,3,0,4\n",
        "1,2,3,0,4,\n",
        "1,2,3,0,4,0x\n",
        "1,2,3,0,4,0x123456789\n",
        "1,2,3,4,4,0x1\n",                    /* offset > 3 */
        "1,2,3,0,5,0x1\n",                    /* size > 4 */
        "18446744073709551616,0,0,0,4,0x1\n", /* cycle > 2^64 - 1 */
        "-1,0,0,0,4,0x1\n",
        "1,0,0,0,4,0x1g\n",
        " 1,0,0,0,4,0x1\n",
        "1,0,0,0,4,0x1,\n",
        "1,0,0,0,4,0x1,lost\n",
        "1,0,0,0,4,0x1,traced,x\n",
        "1,0,0,0,4,0x1,tracedx\n",
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) TS_ASSERT(!ts_itc_row(bad[i], &r));
}

TS_TEST_MAIN()

/* ---- the whole pipeline in one call (ts_decoder.h): bytes -> messages -> elements -> perf
 * records, on a trace built here (a raw header, two manual records, no timestamps) -------- */
TS_TEST(pipeline_one_call) {
    tb_t tb;
    tb_start(&tb);
    tb_header(&tb, PERF_RAW, NULL);
    tb_store(&tb, 1, PERF_MANUAL, 0);
    tb_store(&tb, 4, 0x80001234, 0);
    tb_store(&tb, 4, 500, 0);
    tb_store(&tb, 4, 7, 0);
    tb_store(&tb, 1, PERF_MANUAL, 0);
    tb_store(&tb, 4, 0x80001240, 0);
    tb_store(&tb, 4, 600, 0);
    tb_store(&tb, 4, 9, 0);
    memset(&out, 0, sizeof out);
    ts_pipeline_cfg_t cfg = {.trace = {0, 40}, .perf_channel = 6, .perf_cb = {&out, on_h, on_r, on_e}};
    uint64_t errors = 99;
    TS_ASSERT_EQ_I(ts_pipeline_run(&cfg, tb.b, tb.n, &errors), 0);
    TS_ASSERT_EQ_U(errors, 0);
    TS_ASSERT_EQ_U(out.nh, 1);
    TS_ASSERT_EQ_U(out.h[0].def[1].width, 40);
    TS_ASSERT_EQ_U(out.nr, 2); /* the last one too: the pipeline's end finishes the perf stage */
    TS_ASSERT_EQ_U(out.r[0].addr, 0x80001234);
    TS_ASSERT_EQ_U(out.r[0].value[0], 500);
    TS_ASSERT_EQ_U(out.r[0].value[1], 7);
    TS_ASSERT_EQ_U(out.r[1].addr, 0x80001240);
    TS_ASSERT_EQ_U(out.r[1].delta[0], 100);
    TS_ASSERT_EQ_U(out.r[1].value[1], 9);
    TS_ASSERT_EQ_U(out.ne, 0);
    /* the same on a channel that carries nothing: no header, no record */
    memset(&out, 0, sizeof out);
    cfg.perf_channel = 5;
    TS_ASSERT_EQ_I(ts_pipeline_run(&cfg, tb.b, tb.n, NULL), 0);
    TS_ASSERT_EQ_U(out.nh + out.nr, 0);
    /* a trace configuration the decoder cannot take (SRC wider than 8 bits) */
    cfg.trace.srcbits = 9;
    TS_ASSERT_EQ_I(ts_pipeline_run(&cfg, tb.b, tb.n, NULL), -1);
}
