/* test_profile.c - the profile behind `tracesim report` (analysis/report/profile.c) on record
 * sequences built by hand and fed through the perf protocol decoder (Raw header: counter 0
 * cycles, 64 bits; counter 3 a raw event, 12 bits wide). Every expected number is worked out
 * in the comments from the counter readings: the first record after the header is the
 * reference, each later record's change is charged to the function on top of the stack
 * ("self"), a function's "total" runs from its enter to its exit (outermost activation only). */
#include "perf_decode.h"
#include "profile.h"
#include "ts_test.h"

static perf_dec_t dec;
static prof_t *prof;
static unsigned warnings;
static uint64_t t;

static void on_warn(void *c, const char *m) {
    (void)c;
    (void)m;
    warnings++;
}

/* symbols: main 0x100, a 0x200, b 0x300, f 0x400 (16 bytes each); work [0x1000, 0x1100),
 * idle [0x2000, 0x2040); GCC's clones of isort at 0x3000, 0x3200 and isort itself at 0x3100 */
static const char *syms(void *c, uint64_t addr, uint64_t *start) {
    static const struct {
        uint64_t a, n;
        const char *name;
    } s[] = {
        {0x100, 16, "main"}, {0x200, 16, "a"}, {0x300, 16, "b"}, {0x400, 16, "f"}, {0x1000, 0x100, "work"}, {0x2000, 0x40, "idle"}, {0x3000, 0x40, "isort.constprop.0"}, {0x3100, 0x40, "isort"}, {0x3200, 0x40, "isort.part.0.isra.1"}};
    (void)c;
    for (unsigned i = 0; i < sizeof s / sizeof s[0]; i++)
        if (addr >= s[i].a && addr < s[i].a + s[i].n) {
            *start = s[i].a;
            return s[i].name;
        }
    return NULL;
}

/* the call sites (rec_stack.h's rs_site_fn) from the same symbols: the function holding the
 * call instruction (ret - 1); every function instrumented but idle */
static uint64_t sites(void *c, uint64_t ret, bool *instrumented) {
    uint64_t start;
    const char *n = ret ? syms(c, ret - 1, &start) : NULL;
    *instrumented = n && strcmp(n, "idle");
    return n ? start : 0;
}

static void st(unsigned size, uint64_t v) {
    perf_dec_feed_store(&dec, 0, 6, size == 4 ? 0 : size == 2 ? 2 :
                                                                3,
                        (uint32_t)v, t++);
}

/* hook costs given to the next records in turn (prof_hook), as report_cli.c does from the
 * ground truth */
static uint64_t hook_pre[16], hook_post[16];
static unsigned hook_n, hook_i;
static void rec_hook(void *c, const perf_record_t *r) {
    if (hook_i < hook_n) {
        prof_hook(c, r->core, true, hook_pre[hook_i], hook_post[hook_i]);
        hook_i++;
    }
    prof_record(c, r);
}

static void begin_with(const prof_opts_t *opts) {
    if (prof) prof_free(prof);
    prof_opts_t o = {.sym = syms, .site = sites, .warn = on_warn};
    if (opts) o = *opts;
    prof = prof_new(&o);
    TS_ASSERT(prof);
    warnings = 0;
    t = 1000;
    hook_i = 0;
    perf_dec_cb_t cb = {prof, prof_header, hook_n ? rec_hook : prof_record, NULL};
    perf_dec_init(&dec, 6, &cb);
    st(4, TS_PW_MARKER);
    st(1, PERF_RAW);
    st(4, 0x9);
    st(4, 0);
    st(4, 1);
    st(4, (63u << 12) | 0xC00); /* cycles, 64 bits */
    st(4, 2);
    st(4, 0x600);
    st(4, 0);
    st(4, (11u << 12) | 0xC03); /* raw 0x600, 12 bits */
}
static void begin(void) {
    hook_n = 0;
    begin_with(NULL);
}
static void end(void) {
    perf_dec_finish(&dec);
    prof_finish(prof);
}

/* records: cycles reading c, event reading e (default: c mod 4096) */
static void rec2(unsigned type, uint64_t addr, uint64_t site, uint64_t c, uint64_t e) {
    st(1, type);
    st(4, addr);
    if (type < 2) st(4, site);
    st(4, c);
    st(4, e);
}
static void E(uint64_t fn, uint64_t c) { rec2(PERF_FUNC_ENTER, fn, 0x90, c, c % 4096); }
static void X(uint64_t fn, uint64_t c) { rec2(PERF_FUNC_EXIT, fn, 0x90, c, c % 4096); }

#define MAIN 0x100
#define A 0x200
#define B 0x300
#define F 0x400

static const prof_func_t *fn(uint64_t addr) {
    const prof_func_t *f = prof_func(prof, addr);
    if (!f) TS_FAIL("no function at 0x%" PRIx64, addr);
    return f;
}
static const prof_edge_t *edge(uint64_t caller, uint64_t callee) {
    const prof_edge_t *e = prof_edge(prof, caller ? fn(caller) : NULL, fn(callee));
    if (!e) TS_FAIL("no edge 0x%" PRIx64 " -> 0x%" PRIx64, caller, callee);
    return e;
}

TS_TEST(nested_calls) {
    begin();
    E(MAIN, 1000); /* reference */
    E(A, 1100);    /* +100 main */
    E(B, 1150);    /* +50 a */
    X(B, 1200);    /* +50 b;  b total 50 */
    X(A, 1300);    /* +100 a; a total 200 */
    E(B, 1400);    /* +100 main */
    X(B, 1450);    /* +50 b;  b total 50 */
    X(MAIN, 1500); /* +50 main; main total 500 */
    end();
    /* self: main 100+100+50 = 250, a 50+100 = 150, b 50+50 = 100; trace 500 */
    TS_ASSERT_EQ_U(fn(MAIN)->self[0], 250);
    TS_ASSERT_EQ_U(fn(A)->self[0], 150);
    TS_ASSERT_EQ_U(fn(B)->self[0], 100);
    TS_ASSERT_EQ_U(fn(MAIN)->total[0], 500);
    TS_ASSERT_EQ_U(fn(A)->total[0], 200);
    TS_ASSERT_EQ_U(fn(B)->total[0], 100);
    TS_ASSERT_EQ_U(fn(B)->self[3], 100); /* the event counter follows the same steps */
    TS_ASSERT_EQ_U(fn(MAIN)->calls, 1);
    TS_ASSERT_EQ_U(fn(B)->calls, 2);
    TS_ASSERT_EQ_U(prof_trace_total(prof, 0), 500);
    TS_ASSERT_EQ_U(prof_outside(prof, 0), 0);
    /* edges: <spontaneous> -> main 1 call 500; main -> a 1, 200; a -> b 1, 50; main -> b 1, 50 */
    TS_ASSERT_EQ_U(edge(0, MAIN)->calls, 1);
    TS_ASSERT_EQ_U(edge(0, MAIN)->total[0], 500);
    TS_ASSERT_EQ_U(edge(MAIN, A)->total[0], 200);
    TS_ASSERT_EQ_U(edge(A, B)->calls, 1);
    TS_ASSERT_EQ_U(edge(A, B)->total[0], 50);
    TS_ASSERT_EQ_U(edge(MAIN, B)->calls, 1);
    TS_ASSERT_EQ_U(edge(MAIN, B)->total[0], 50);
    TS_ASSERT(!prof_edge(prof, fn(B), fn(A)));
    TS_ASSERT_EQ_U(warnings, 0);
    TS_ASSERT_EQ_U(prof_stats(prof)->still_active, 0);
    /* the flat profile as CSV: by self cycles; % = self / 500 */
    char buf[2048] = {0};
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_csv(prof, o), 0);
    fclose(o);
    /* raw event 0x600 is named from hpm_events.def: class 0, bits 9 (load) and 10 (store) */
    TS_ASSERT_STR_EQ(buf, "function,address,calls,still_active,percent,cycles_self,cycles_total,load|store_self,load|store_total\n"
                          "main,0x00000100,1,0,50.00,250,500,250,500\n"
                          "a,0x00000200,1,0,30.00,150,200,150,200\n"
                          "b,0x00000300,2,0,20.00,100,100,100,100\n");
}

TS_TEST(text_report) {
    begin();
    E(MAIN, 1000);
    E(A, 1100);
    E(B, 1150);
    X(B, 1200);
    X(A, 1300);
    E(B, 1400);
    X(B, 1450);
    X(MAIN, 1500);
    end();
    static char buf[16384];
    memset(buf, 0, sizeof buf);
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
    fclose(o);
    /* flat line of a: 30 %, 1 call, self/total cycles 150/200 (columns: "%" 7 wide, calls 9,
     * "self cycles" 12, "total cycles" 12, "self load|store" 15, "total load|store" 16) */
    if (!strstr(buf, "    30.00         1           150           200              150               200  a\n"))
        TS_FAIL("flat line of a missing:\n%s", buf);
    /* call graph, numbered by total: main [1] 500, a [2] 200, b [3] 100; b's callers */
    TS_ASSERT(strstr(buf, "    1/2            50                50      a [2]\n"));
    TS_ASSERT(strstr(buf, "    1/2            50                50      main [1]\n"));
    TS_ASSERT(strstr(buf, "  [3]       20.00             2           100               100  b [3]\n"));
    TS_ASSERT(strstr(buf, "    1/1           500               500      <spontaneous>\n"));
    TS_ASSERT(strstr(buf, "cycles over the trace: 500, of which outside any traced function: 0\n"));
}

TS_TEST(recursion_counts_outermost_activation) {
    begin();
    E(MAIN, 0);   /* reference */
    E(F, 10);     /* +10 main */
    E(F, 20);     /* +10 f (outer) */
    E(F, 30);     /* +10 f (middle) */
    X(F, 40);     /* +10 f (inner) */
    X(F, 55);     /* +15 f (middle) */
    X(F, 75);     /* +20 f (outer): outermost activation 10..75 = 65 */
    X(MAIN, 100); /* +25 main */
    end();
    TS_ASSERT_EQ_U(fn(F)->calls, 3);
    TS_ASSERT_EQ_U(fn(F)->self[0], 10 + 10 + 10 + 15 + 20);
    TS_ASSERT_EQ_U(fn(F)->total[0], 65); /* not 65 + 35 + 10 */
    TS_ASSERT_EQ_U(fn(MAIN)->self[0], 35);
    TS_ASSERT_EQ_U(fn(MAIN)->total[0], 100);
    TS_ASSERT_EQ_U(edge(MAIN, F)->calls, 1);
    TS_ASSERT_EQ_U(edge(MAIN, F)->total[0], 65);
    TS_ASSERT_EQ_U(edge(F, F)->calls, 2);
    TS_ASSERT_EQ_U(edge(F, F)->total[0], 0);
    TS_ASSERT_EQ_U(warnings, 0);
}

TS_TEST(mutual_recursion) {
    begin();
    E(MAIN, 0);
    E(A, 10);    /* +10 main */
    E(B, 20);    /* +10 a (outer) */
    E(A, 30);    /* +10 b (outer) */
    E(B, 40);    /* +10 a (inner) */
    X(B, 45);    /* +5 b (inner) */
    X(A, 50);    /* +5 a (inner) */
    X(B, 60);    /* +10 b: b outer total 20..60 = 40 */
    X(A, 70);    /* +10 a: a outer total 10..70 = 60 */
    X(MAIN, 80); /* +10 main */
    end();
    TS_ASSERT_EQ_U(fn(A)->total[0], 60);
    TS_ASSERT_EQ_U(fn(B)->total[0], 40);
    TS_ASSERT_EQ_U(fn(A)->self[0], 10 + 10 + 5 + 10);
    TS_ASSERT_EQ_U(fn(B)->self[0], 10 + 5 + 10);
    TS_ASSERT_EQ_U(edge(A, B)->calls, 2);
    TS_ASSERT_EQ_U(edge(A, B)->total[0], 40); /* only b's outermost activation */
    TS_ASSERT_EQ_U(edge(B, A)->calls, 1);
    TS_ASSERT_EQ_U(edge(B, A)->total[0], 0); /* a was already active below */
}

TS_TEST(mismatched_exits) {
    begin();
    E(MAIN, 0);
    E(A, 10);     /* +10 main */
    E(B, 20);     /* +10 a */
    X(A, 50);     /* +30: b has no exit: control left b for a somewhere in these 30 cycles,
                          the trace does not say where: b ends at the previous record (20:
                          total 0), the 30 are not attributed; a ends here (total 40) */
    X(0x500, 60); /* +10 main; never entered: ignored */
    X(B, 70);     /* +10 main; b is not on the stack: ignored */
    X(MAIN, 100); /* +30 main */
    end();
    TS_ASSERT_EQ_U(fn(B)->total[0], 0);
    TS_ASSERT_EQ_U(fn(B)->self[0], 0);
    TS_ASSERT_EQ_U(fn(B)->left_top, 1);
    TS_ASSERT_EQ_U(prof_unattributed(prof, 0), 30);
    TS_ASSERT_EQ_U(prof_stats(prof)->unattributed_intervals, 1);
    TS_ASSERT_EQ_U(fn(A)->total[0], 40);
    TS_ASSERT_EQ_U(fn(A)->self[0], 10);
    TS_ASSERT_EQ_U(fn(MAIN)->self[0], 10 + 10 + 10 + 30);
    TS_ASSERT_EQ_U(fn(MAIN)->total[0], 100);
    TS_ASSERT_EQ_U(prof_stats(prof)->unwound, 1);
    TS_ASSERT_EQ_U(prof_stats(prof)->unmatched_exits, 2);
    TS_ASSERT_EQ_U(warnings, 3);
    TS_ASSERT(!prof_func(prof, 0x500));
}

/* the longjmp case: main calls work from 0x108; work calls a (the thrower) from
 * 0x1010; a longjmps back into main, which runs uninstrumented code and calls work again
 * from 0x108. That enter's call site lies in main, below the top frame (a): a and the first
 * work end at their last record (20), the 80 cycles from it to the enter are not attributed
 * (a's last instructions, the longjmp, main's code), and work's second call is main's. */
TS_TEST(longjmp_enter_from_below) {
    begin();
    E(MAIN, 0);
    rec2(PERF_FUNC_ENTER, 0x1000, 0x108, 10, 10);   /* +10 main */
    rec2(PERF_FUNC_ENTER, A, 0x1010, 20, 20);       /* +10 work */
    rec2(PERF_FUNC_ENTER, 0x1000, 0x108, 100, 100); /* +80: not attributed */
    rec2(PERF_FUNC_EXIT, 0x1000, 0x108, 130, 130);  /* +30 work */
    X(MAIN, 150);                                   /* +20 main */
    end();
    TS_ASSERT_EQ_U(fn(A)->self[0], 0);
    TS_ASSERT_EQ_U(fn(A)->total[0], 0);
    TS_ASSERT(!prof_edge(prof, fn(A), fn(0x1000)));
    TS_ASSERT_EQ_U(edge(MAIN, 0x1000)->calls, 2);
    TS_ASSERT_EQ_U(edge(MAIN, 0x1000)->total[0], 10 + 30);
    TS_ASSERT_EQ_U(fn(0x1000)->self[0], 10 + 30);
    TS_ASSERT_EQ_U(fn(0x1000)->total[0], 10 + 30);
    TS_ASSERT_EQ_U(fn(MAIN)->self[0], 10 + 20);
    TS_ASSERT_EQ_U(fn(MAIN)->total[0], 150);
    TS_ASSERT_EQ_U(fn(MAIN)->still_active, 0);
    TS_ASSERT_EQ_U(prof_stats(prof)->still_active, 0);
    TS_ASSERT_EQ_U(prof_stats(prof)->repairs, 1);
    TS_ASSERT_EQ_U(prof_stats(prof)->repaired, 2);
    TS_ASSERT_EQ_U(fn(A)->left_top, 1);
    TS_ASSERT_EQ_U(prof_unattributed(prof, 0), 80);
    TS_ASSERT_EQ_U(prof_trace_total(prof, 0), 150);
    static char buf[8192];
    memset(buf, 0, sizeof buf);
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
    fclose(o);
    if (!strstr(buf, "not attributed: 80 (control left") ||
        !strstr(buf, "  1 enter record(s) called from below the top of the call stack") ||
        !strstr(buf, "the interval's 80 cycles are\n    not attributed (the trace does not say where control left): left from a (1)\n"))
        TS_FAIL("report:\n%s", buf);
}

/* recursion through one call site, and a call from code inlined into the caller (the
 * hook's call site is then the caller's own return address), are not repairs */
TS_TEST(recursion_and_inlined_calls_are_not_repairs) {
    begin();
    E(MAIN, 0);
    rec2(PERF_FUNC_ENTER, 0x1000, 0x108, 10, 10);  /* work from main */
    rec2(PERF_FUNC_ENTER, 0x1000, 0x1020, 20, 20); /* work from work */
    rec2(PERF_FUNC_ENTER, 0x1000, 0x1020, 30, 30); /* again */
    rec2(PERF_FUNC_ENTER, A, 0x1020, 40, 40);      /* a inlined into work: work's return address */
    rec2(PERF_FUNC_EXIT, A, 0x1020, 50, 50);
    rec2(PERF_FUNC_EXIT, 0x1000, 0x1020, 60, 60);
    rec2(PERF_FUNC_EXIT, 0x1000, 0x1020, 70, 70);
    rec2(PERF_FUNC_EXIT, 0x1000, 0x108, 80, 80);
    X(MAIN, 90);
    end();
    TS_ASSERT_EQ_U(prof_stats(prof)->repairs, 0);
    TS_ASSERT_EQ_U(prof_unattributed(prof, 0), 0);
    TS_ASSERT_EQ_U(edge(0x1000, 0x1000)->calls, 2);
    TS_ASSERT_EQ_U(edge(0x1000, A)->calls, 1);
    TS_ASSERT_EQ_U(fn(0x1000)->self[0], 60);
    TS_ASSERT_EQ_U(fn(A)->self[0], 10);
}

TS_TEST(open_frames_and_truncated_record) {
    begin();
    E(MAIN, 0);
    E(A, 10);                             /* +10 main */
    E(B, 30);                             /* +20 a */
    rec2(PERF_MANUAL, 0x1010, 0, 45, 45); /* +15 b */
    st(1, PERF_FUNC_ENTER);
    st(4, F); /* cut off: no call site, no values */
    end();
    /* still active: charged up to the last record (45) */
    TS_ASSERT_EQ_U(fn(B)->total[0], 15);
    TS_ASSERT_EQ_U(fn(A)->total[0], 35);
    TS_ASSERT_EQ_U(fn(MAIN)->total[0], 45);
    TS_ASSERT_EQ_U(fn(MAIN)->self[0], 10);
    TS_ASSERT_EQ_U(fn(B)->still_active, 1);
    TS_ASSERT_EQ_U(fn(MAIN)->still_active, 1);
    TS_ASSERT_EQ_U(prof_stats(prof)->still_active, 3);
    TS_ASSERT_EQ_U(prof_stats(prof)->truncated, 1);
    TS_ASSERT(!prof_func(prof, F)); /* the cut record is not used */
    TS_ASSERT_EQ_U(prof_stats(prof)->records, 5);
}

TS_TEST(counter_wrap_12_bits) {
    begin();
    rec2(PERF_FUNC_ENTER, MAIN, 0x90, 0, 4000); /* reference */
    rec2(PERF_FUNC_ENTER, A, 0x90, 10, 4090);   /* +90 main */
    rec2(PERF_FUNC_EXIT, A, 0x90, 20, 10);      /* wraps: 10 - 4090 + 4096 = +16 a */
    rec2(PERF_FUNC_EXIT, MAIN, 0x90, 30, 100);  /* +90 main */
    end();
    TS_ASSERT_EQ_U(fn(A)->self[3], 16);
    TS_ASSERT_EQ_U(fn(A)->total[3], 16);
    TS_ASSERT_EQ_U(fn(MAIN)->self[3], 180);
    TS_ASSERT_EQ_U(fn(MAIN)->total[3], 196);
    TS_ASSERT_EQ_U(prof_trace_total(prof, 3), 196);
}

TS_TEST(manual_sites) {
    begin();
    rec2(PERF_MANUAL, 0x1010, 0, 100, 0); /* first: no interval */
    rec2(PERF_MANUAL, 0x1020, 0, 130, 0); /* 0x1020: +30 */
    rec2(PERF_MANUAL, 0x1010, 0, 180, 0); /* 0x1010: +50 */
    rec2(PERF_MANUAL, 0x1020, 0, 200, 0); /* 0x1020: +20 */
    end();
    const prof_site_t *s1 = prof_site(prof, 0x1010), *s2 = prof_site(prof, 0x1020);
    TS_ASSERT(s1 && s2);
    TS_ASSERT_EQ_U(s1->records, 2);
    TS_ASSERT_EQ_U(s1->intervals, 1);
    TS_ASSERT_EQ_U(s1->sum[0], 50);
    TS_ASSERT_EQ_U(s2->records, 2);
    TS_ASSERT_EQ_U(s2->intervals, 2);
    TS_ASSERT_EQ_U(s2->sum[0], 50); /* mean 25 */
    TS_ASSERT_STR_EQ(s1->name, "work");
    TS_ASSERT_EQ_U(prof_nfuncs(prof), 0);
    static char buf[8192];
    memset(buf, 0, sizeof buf);
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
    fclose(o);
    /* address, records, mean/total cycles (12 wide), mean/total load|store (16 wide), source
     * (no line lookup: "-", 6 wide), function */
    if (!strstr(buf, "  0x00001020                 2          25.0            50               0.0                 0  -       work\n"))
        TS_FAIL("manual table:\n%s", buf);
}

TS_TEST(isr_samples) {
    begin();
    static const uint64_t pcs[] = {0x1004, 0x1080, 0x20a0, 0x2010, 0x1010};
    for (unsigned i = 0; i < 5; i++) rec2(PERF_ISR, pcs[i], 0, 100 * i, 0);
    end();
    TS_ASSERT_EQ_U(prof_isr(prof, 0x1000)->samples, 3); /* work */
    /* the first record's values are the reference: work's samples at 100 and 400 carry
     * +100 cycles each, the load|store reading stays 0 */
    TS_ASSERT_EQ_U(prof_isr(prof, 0x1000)->intervals[0], 2);
    TS_ASSERT_EQ_U(prof_isr(prof, 0x1000)->sum[0], 200);
    TS_ASSERT_EQ_U(prof_isr(prof, 0x1000)->intervals[3], 2);
    TS_ASSERT_EQ_U(prof_isr(prof, 0x1000)->sum[3], 0);
    TS_ASSERT_EQ_U(prof_isr(prof, 0x2000)->sum[0], 100); /* 200 -> 300 */
    TS_ASSERT_EQ_U(prof_isr(prof, 0x2000)->samples, 1);  /* idle */
    TS_ASSERT_EQ_U(prof_isr(prof, 0x20a0)->samples, 1);  /* no symbol: by pc */
    TS_ASSERT(!prof_isr(prof, 0x1004));
    static char buf[8192];
    memset(buf, 0, sizeof buf);
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
    fclose(o);
    /* samples, %, mean and sum cycles (12 wide), mean and sum load|store (15, 16 wide) */
    if (!strstr(buf, "          3   60.00         100.0           200              0.0                 0  work\n") ||
        !strstr(buf, "          1   20.00         100.0           100              0.0                 0  0x000020a0\n"))
        TS_FAIL("ISR table:\n%s", buf);
}

/* timer-ISR samples in GCC's clones of a function count for the source function */
TS_TEST(isr_samples_by_source_function) {
    begin();
    static const uint64_t pcs[] = {0x1004, 0x3010, 0x3104, 0x3208, 0x3020};
    for (unsigned i = 0; i < 5; i++) rec2(PERF_ISR, pcs[i], 0, 100 * i + i * i, 0);
    end();
    const prof_isr_t *s = prof_isr(prof, 0x3000);
    TS_ASSERT(s);
    TS_ASSERT(prof_isr(prof, 0x3100) == s && prof_isr(prof, 0x3200) == s);
    TS_ASSERT_STR_EQ(s->func, "isort");
    TS_ASSERT_EQ_U(s->symbols, 3);
    TS_ASSERT_EQ_U(s->samples, 4);
    /* cycles 0, 101, 204, 309, 416: the clones' samples carry 101 + 103 + 105 + 107 */
    TS_ASSERT_EQ_U(s->sum[0], 416);
    static char buf[8192];
    memset(buf, 0, sizeof buf);
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
    fclose(o);
    if (!strstr(buf, "          4   80.00         104.0           416              0.0                 0  isort "
                     "(isort.constprop.0 and 2 other symbol(s))\n"))
        TS_FAIL("ISR table:\n%s", buf);
    TS_ASSERT_EQ_U(prof_source_name_len("isort.constprop.0"), 5);
    TS_ASSERT_EQ_U(prof_source_name_len("f.isra.0.constprop.1"), 1);
    TS_ASSERT_EQ_U(prof_source_name_len("f.part.12.cold"), 1);
    TS_ASSERT_EQ_U(prof_source_name_len("f.cold"), 1);
    TS_ASSERT_EQ_U(prof_source_name_len("g.lto_priv.0"), 1);
    TS_ASSERT_EQ_U(prof_source_name_len("x.y"), 3);          /* not a clone suffix */
    TS_ASSERT_EQ_U(prof_source_name_len("f.constprop"), 11); /* no number */
    TS_ASSERT_EQ_U(prof_source_name_len("f.cold.x"), 8);
    TS_ASSERT_EQ_U(prof_source_name_len(".cold"), 5);
    TS_ASSERT_EQ_U(prof_source_name_len("main"), 4);
}

TS_TEST(random_records_survive) {
    /* arbitrary enter/exit/manual/ISR sequences, headers and cut records: no crash, and
     * self costs plus the outside part always add up to the trace total */
    uint32_t x = 4242;
    for (int round = 0; round < 20; round++) {
        begin();
        uint64_t c = 0;
        for (int i = 0; i < 400; i++) {
            x = x * 1103515245u + 12345u;
            unsigned type = (x >> 8) % 4, which = (x >> 12) % 5;
            c += (x >> 16) % 100;
            if ((x >> 20) % 97 == 0) { /* a new header: trace off and on */
                st(4, TS_PW_MARKER);
                st(1, PERF_RAW);
                st(4, 0x9);
                st(4, 0);
                st(4, 1);
                st(4, (63u << 12) | 0xC00);
                st(4, 2);
                st(4, 0x600);
                st(4, 0);
                st(4, (11u << 12) | 0xC03);
            }
            rec2(type, 0x100 * (which + 1), 0x90, c, c % 4096);
        }
        st(1, PERF_FUNC_EXIT);
        end();
        uint64_t sum = prof_outside(prof, 0) + prof_unattributed(prof, 0);
        for (size_t i = 0; i < prof_nfuncs(prof); i++) sum += prof_func_at(prof, i)->self[0];
        TS_ASSERT_EQ_U(sum, prof_trace_total(prof, 0));
        FILE *o = fopen("/dev/null", "w");
        TS_ASSERT(o);
        TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
        TS_ASSERT_EQ_I(prof_write_csv(prof, o), 0);
        fclose(o);
    }
    prof_free(prof);
    prof = NULL;
}

/* the output of the profile: text (csv false) or CSV */
static void write_out(char *buf, size_t len, bool csv) {
    memset(buf, 0, len);
    FILE *o = fmemopen(buf, len - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(csv ? prof_write_csv(prof, o) : prof_write_text(prof, o), 0);
    fclose(o);
}

/* Instrumentation cost (docs/commands/report.md): main calls a; every record's hook spends 10 cycles
 * before its cycle counter read and 20 after it. Intervals (cycles delta, hook cycles in it =
 * the previous record's post + this record's pre = 20 + 10):
 *   (1000, 1100] main: 100, 30;  (1100, 1300] a: 200, 30;  (1300, 1500] main: 200, 30.
 * hook_self main 60, a 30 (a's enter post + a's exit pre); hook_total a 30, main 90.
 * Compensated: self main 300 - 60 = 240, a 200 - 30 = 170; total main 500 - 90 = 410, a 170;
 * trace 410; % a = 170 / 410 = 41.46, main 58.54. The event counter is not compensated. */
static void hooked_main_a(bool compensate, const char *fields) {
    prof_opts_t o = {.sym = syms, .site = sites, .warn = on_warn, .compensate = compensate};
    char err[200];
    if (fields) TS_ASSERT_EQ_I(prof_parse_fields(&o, fields, err, sizeof err), 0);
    hook_n = 4;
    for (unsigned i = 0; i < 4; i++) {
        hook_pre[i] = 10;
        hook_post[i] = 20;
    }
    begin_with(&o);
    E(MAIN, 1000);
    E(A, 1100);
    X(A, 1300);
    X(MAIN, 1500);
    end();
    hook_n = 0;
}

TS_TEST(hook_cost_and_compensate) {
    hooked_main_a(false, NULL);
    const prof_stats_t *s = prof_stats(prof);
    TS_ASSERT(s->hooks);
    TS_ASSERT_EQ_U(s->hook_n[PERF_FUNC_ENTER], 2);
    TS_ASSERT_EQ_U(s->hook_n[PERF_FUNC_EXIT], 2);
    TS_ASSERT_EQ_U(s->hook_cycles[PERF_FUNC_ENTER] + s->hook_cycles[PERF_FUNC_EXIT], 120);
    TS_ASSERT_EQ_U(s->hook_counted, 90); /* the first pre and the last post lie outside */
    TS_ASSERT_EQ_U(fn(MAIN)->hook_self, 60);
    TS_ASSERT_EQ_U(fn(A)->hook_self, 30);
    TS_ASSERT_EQ_U(fn(MAIN)->hook_total, 90);
    TS_ASSERT_EQ_U(fn(A)->hook_total, 30);
    TS_ASSERT_EQ_U(edge(MAIN, A)->hook_total, 30);
    static char buf[16384];
    write_out(buf, sizeof buf, true); /* uncompensated: the figures as counted */
    TS_ASSERT_STR_EQ(buf, "function,address,calls,still_active,percent,cycles_self,cycles_total,load|store_self,load|store_total\n"
                          "main,0x00000100,1,0,60.00,300,500,300,500\n"
                          "a,0x00000200,1,0,40.00,200,200,200,200\n");
    write_out(buf, sizeof buf, false);
    TS_ASSERT(strstr(buf, "  enter (__cyg_profile_func_enter)           2           60       30.0\n"));
    TS_ASSERT(strstr(buf, "  90 of these cycles lie between the first and the last record: 18.00 % of the 500 cycles"));

    hooked_main_a(true, NULL);
    write_out(buf, sizeof buf, true);
    TS_ASSERT_STR_EQ(buf, "function,address,calls,still_active,percent,cycles_self,cycles_total,load|store_self,load|store_total\n"
                          "main,0x00000100,1,0,58.54,240,410,300,500\n"
                          "a,0x00000200,1,0,41.46,170,170,200,200\n");
    write_out(buf, sizeof buf, false);
    TS_ASSERT(strstr(buf, "cycles over the trace: 410, of which outside any traced function: 0\n"));
    TS_ASSERT(strstr(buf, "                          1/1           170               200      a [2]\n")); /* main's callee */
}

/* --fields picks and orders the flat profile's columns; per-counter fields side by side */
TS_TEST(fields_select_and_order) {
    hooked_main_a(true, "function,self,hook,calls");
    static char buf[8192];
    write_out(buf, sizeof buf, true);
    TS_ASSERT_STR_EQ(buf, "function,cycles_self,load|store_self,hook_cycles,calls\n"
                          "main,240,300,60,1\n"
                          "a,170,200,30,1\n");
    hooked_main_a(false, "calls,self_mean,total,function");
    write_out(buf, sizeof buf, false);
    /* calls 9 wide, "mean self cycles" 16, "total cycles" 12, "mean self load|store" 20,
     * "total load|store" 16 */
    if (!strstr(buf, "      calls  mean self cycles  total cycles  mean self load|store  total load|store  function\n"
                     "          1             300.0           500                 300.0               500  main\n"))
        TS_FAIL("flat profile with --fields:\n%s", buf);
    prof_opts_t o = {0};
    char err[200];
    TS_ASSERT_EQ_I(prof_parse_fields(&o, "calls,bogus", err, sizeof err), -1);
    TS_ASSERT(strstr(err, "unknown field 'bogus' for --fields") != NULL);
    TS_ASSERT_EQ_I(prof_parse_fields(&o, "calls,", err, sizeof err), -1); /* an empty name */
}

/* callers and callees in the call graph by total cost: main calls b (50) before a (200) */
TS_TEST(callees_sorted_by_cost) {
    begin();
    E(MAIN, 1000);
    E(B, 1100);
    X(B, 1150);
    E(A, 1200);
    X(A, 1400);
    X(MAIN, 1500);
    end();
    static char buf[16384];
    write_out(buf, sizeof buf, false);
    const char *m = strstr(buf, "  [1] ");
    TS_ASSERT(m != NULL);
    const char *a = strstr(m, "      a [2]\n"), *b = strstr(m, "      b [3]\n");
    TS_ASSERT(a && b && a < b);
}

/* a record straight to the profile (no decoder: the thread switches come between records as
 * report_cli.c hands them over), cycles change d */
static void R(unsigned type, uint64_t addr, uint64_t d) {
    perf_record_t r = {.core = 0, .type = type, .has_addr = true, .addr = addr, .has_call_site = true, .call_site = 0x90, .n = 1};
    r.index[0] = 0;
    r.delta[0] = d;
    prof_record(prof, &r);
}

/* two threads: T1 (0x10, named by the first switch) runs a -> f, T2 (0x20) runs b while T1
 * is switched out. Intervals: f's enter 10 (a's self), b's enter 7 (a switch in it: not
 * attributed), b's exit 5 (b's self), f's exit 3 (a switch: not attributed), a's exit 4 (a's
 * self). Totals count only their thread's intervals: a 10 + 4 = 14, f 0, b 5. */
TS_TEST(threads_switch_stacks) {
    begin();
    end(); /* the header only */
    prof_thread(prof, 0, 0x10);
    R(PERF_FUNC_ENTER, A, 0); /* the reference */
    R(PERF_FUNC_ENTER, F, 10);
    prof_thread(prof, 0, 0x20);
    R(PERF_FUNC_ENTER, B, 7);
    R(PERF_FUNC_EXIT, B, 5);
    prof_thread(prof, 0, 0x10);
    R(PERF_FUNC_EXIT, F, 3);
    R(PERF_FUNC_EXIT, A, 4);
    prof_finish(prof);
    const prof_stats_t *s = prof_stats(prof);
    TS_ASSERT_EQ_U(fn(A)->self[0], 14);
    TS_ASSERT_EQ_U(fn(A)->total[0], 14);
    TS_ASSERT_EQ_U(fn(F)->self[0], 0);
    TS_ASSERT_EQ_U(fn(F)->total[0], 0);
    TS_ASSERT_EQ_U(fn(B)->self[0], 5);
    TS_ASSERT_EQ_U(fn(B)->total[0], 5);
    TS_ASSERT_EQ_U(prof_unattributed(prof, 0), 10);
    TS_ASSERT_EQ_U(prof_trace_total(prof, 0), 29);
    TS_ASSERT_EQ_U(s->switches, 2);
    TS_ASSERT_EQ_U(s->switch_events, 3);
    TS_ASSERT_EQ_U(s->switch_intervals, 2);
    TS_ASSERT_EQ_U(s->unattributed_intervals, 0);
    TS_ASSERT_EQ_U(s->unwound + s->unmatched_exits + s->still_active + s->repairs, 0);
    TS_ASSERT(edge(A, F) && edge(0, B) && edge(0, A));
    static char buf[8192];
    memset(buf, 0, sizeof buf);
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
    fclose(o);
    TS_ASSERT(strstr(buf, "hart 0, thread 0x00000010: switched in 2 time(s), self cycles 14"));
    TS_ASSERT(strstr(buf, "hart 0, thread 0x00000020: switched in 1 time(s), self cycles 5"));
    TS_ASSERT(!strstr(buf, "before its first thread switch"));
}

/* frames open at the first switch stay with a thread of their own */
TS_TEST(threads_frames_before_the_first_switch) {
    begin();
    end();
    R(PERF_FUNC_ENTER, A, 0);
    prof_thread(prof, 0, 0x20);
    R(PERF_FUNC_ENTER, B, 6); /* not attributed */
    R(PERF_FUNC_EXIT, B, 2);
    prof_finish(prof);
    TS_ASSERT_EQ_U(fn(A)->still_active, 1);
    TS_ASSERT_EQ_U(fn(B)->total[0], 2);
    TS_ASSERT_EQ_U(prof_stats(prof)->unmatched_exits, 0);
    static char buf[8192];
    memset(buf, 0, sizeof buf);
    FILE *o = fmemopen(buf, sizeof buf - 1, "w");
    TS_ASSERT(o);
    TS_ASSERT_EQ_I(prof_write_text(prof, o), 0);
    fclose(o);
    TS_ASSERT(strstr(buf, "hart 0, before its first thread switch"));
}

TS_TEST_MAIN()
