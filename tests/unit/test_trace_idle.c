/* test_trace_idle.c - te_tick_idle() and funnel_tick_idle(), on which the simulator skips the
 * ticks of an idle trace subsystem (sim/soc.c trace_tick) and later gives the timestamp
 * units the ticks they missed (te_skip, funnel_skip): whenever they say idle, a tick changes
 * nothing but what te_skip/funnel_skip of one tick change (the encoder's or the funnel's
 * whole state compared byte by byte with a copy skipped instead); they say busy while a
 * message is queued, a sink word is out or a flush is pending; and idle again once the trace
 * has drained. Also tsunit_advance(n) against n ticks. */
#include "funnel.h"
#include "te.h"
#include "ts_test.h"
#include "te_test_regs.h"
#include <string.h>

enum { TSC = 0x040,
       ITCEN = 0x060,
       STIM = 0x080 };

/* one encoder tick; if te_tick_idle said idle, the tick must leave every byte as te_skip of
 * one tick leaves a copy. Returns whether it was idle. */
static bool tick_checked(te_t *t) {
    static te_t skipped;
    bool idle = te_tick_idle(t);
    memcpy(&skipped, t, sizeof *t);
    te_tick(t);
    if (idle) {
        te_skip(&skipped, 1);
        TS_ASSERT(memcmp(&skipped, t, sizeof *t) == 0);
    }
    return idle;
}

/* ticks until idle (at most limit); the ticks it took */
static unsigned until_idle(te_t *t, unsigned limit) {
    for (unsigned n = 0; n < limit; n++)
        if (tick_checked(t)) return n;
    TS_FAIL("the encoder never became idle");
    return 0;
}

TS_TEST(encoder_idle_ticks_change_nothing) {
    te_t t = make_prog_te(8, 0);
    TS_ASSERT(tick_checked(&t)); /* in reset */
    wr(&t, TE_CTRL, 1);
    wr(&t, TE_CTRL, 0x4FF04083u); /* SRAM sink, ITC mode 1, active + enable */
    wr(&t, TSC, 0x000C8001u);     /* timestamps stamped, not counting */
    wr(&t, ITCEN, 0xFFFFFFFFu);
    wr(&t, TE_CTRL, 0x4FF04087u); /* teTracing: a sync message is queued */
    TS_ASSERT(!te_tick_idle(&t));
    TS_ASSERT(until_idle(&t, 100) > 0);
    for (int i = 0; i < 5; i++) TS_ASSERT(tick_checked(&t));
    /* a stimulus store: busy until its message has left for the SRAM, then idle again */
    TS_ASSERT_EQ_I(te_write(&t, STIM + 4 * 3, 4, 0x12345678u), TE_OK);
    TS_ASSERT(!te_tick_idle(&t));
    TS_ASSERT(until_idle(&t, 100) > 0);
    TS_ASSERT(tick_checked(&t));
    /* a counting timestamp: still idle, the ticks move only its counter (as te_skip does) */
    wr(&t, TSC, 0x000C8003u);
    for (int i = 0; i < 5; i++) TS_ASSERT(tick_checked(&t));
    TS_ASSERT(tsunit_now(&t.ts) == 5);
    te_skip(&t, 1000); /* and 1000 skipped at once */
    TS_ASSERT(tsunit_now(&t.ts) == 1005);
    wr(&t, TSC, 0x000C8001u);
    TS_ASSERT(tick_checked(&t));
    /* teEnable cleared: the partial sink word is flushed, then idle */
    wr(&t, TE_CTRL, 0x4FF04081u);
    until_idle(&t, 100);
    TS_ASSERT(rd(&t, TE_CTRL) & 8); /* teEmpty */
    uint8_t got[64];
    unsigned n = drain_sram(&t, got, sizeof got, 10);
    TS_ASSERT(n >= 12); /* the sync and the data message are there */
    te_free(&t);
}

/* the funnel: idle only with nothing in hand, no sink word out, no flush pending, and (as
 * the simulator checks it) every encoder idle */
TS_TEST(funnel_idle_ticks_change_nothing) {
    static funnel_t f, before;
    static te_t te_before;
    TS_ASSERT_EQ_I(funnel_init(&f, 4, 1024, 40), 0);
    te_cfg_t c;
    te_default_cfg(&c);
    c.src_bits = 1;
    c.has_funnel = true;
    te_t a;
    TS_ASSERT_EQ_I(te_init(&a, &c), 0);
    funnel_attach(&f, &a);
    TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 1), TE_OK);
    TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 0x40004003u), TE_OK); /* SRAM, active + enable */
    wr(&a, TE_CTRL, 1);
    wr(&a, TE_CTRL, 0x8FF04083u); /* sink 8: the funnel */
    wr(&a, TSC, 0x00008001u);
    TS_ASSERT_EQ_I(funnel_write(&f, 0x40, 4, 0x00008003u), TE_OK); /* the master counts */
    wr(&a, ITCEN, 1);
    wr(&a, TE_CTRL, 0x8FF04087u);
    unsigned idle_ticks = 0, busy_ticks = 0;
    for (int k = 0; k < 200; k++) {
        if (k == 50 || k == 60) TS_ASSERT_EQ_I(te_write(&a, STIM, 4, 0x0AAAAAAAu), TE_OK);
        if (k == 150) TS_ASSERT_EQ_I(funnel_write(&f, 0, 4, 0x40004001u), TE_OK); /* flush */
        bool idle = te_tick_idle(&a) && funnel_tick_idle(&f);
        memcpy(&before, &f, sizeof f);
        memcpy(&te_before, &a, sizeof a);
        te_tick(&a);
        funnel_tick(&f);
        if (idle) {
            funnel_skip(&before, 1);
            te_skip(&te_before, 1);
            TS_ASSERT(memcmp(&before, &f, sizeof f) == 0);
            TS_ASSERT(memcmp(&te_before, &a, sizeof a) == 0);
            idle_ticks++;
        } else {
            busy_ticks++;
        }
    }
    TS_ASSERT(idle_ticks > 100); /* most ticks: nothing to do */
    TS_ASSERT(busy_ticks >= 3);  /* the sync, two stores, the flush */
    uint32_t ctl;
    TS_ASSERT_EQ_I(funnel_read(&f, 0, 4, &ctl), TE_OK);
    TS_ASSERT(ctl & 8); /* empty after the flush */
    TS_ASSERT(te_tick_idle(&a) && funnel_tick_idle(&f));
    TS_ASSERT(f.sink.wp >= 4 + 2 * 6);   /* the sync and two data messages went in */
    TS_ASSERT(tsunit_now(&f.ts) >= 195); /* the master counted through */
    te_free(&a);
    funnel_free(&f);
}

/* tsunit_advance(n) leaves the unit as n tsunit_tick()s do: every prescale, a prescale
 * lowered while part of a period had passed, stopped, a slave, and the counter's wrap */
TS_TEST(advance_is_n_ticks) {
    static const uint32_t ctl[] = {0x8003u, 0x8103u, 0x8203u, 0x8303u, 0x8001u, 0x8002u};
    uint64_t seed = 99;
    for (int round = 0; round < 400; round++) {
        tsunit_t a, b;
        tsunit_init(&a, 3, round % 3 ? 40 : 6, NULL); /* width 6: wraps */
        tsunit_write_control(&a, ctl[round % 6]);
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        unsigned warm = (unsigned)(seed >> 33) % 300;
        for (unsigned i = 0; i < warm; i++) tsunit_tick(&a);
        if (round % 5 == 0) tsunit_write_control(&a, 0x8003u); /* prescale lowered mid-period */
        b = a;
        uint64_t n = (seed >> 13) % 1000;
        for (uint64_t i = 0; i < n; i++) tsunit_tick(&a);
        tsunit_advance(&b, n);
        TS_ASSERT_EQ_U(b.counter, a.counter);
        TS_ASSERT_EQ_U(b.pre, a.pre);
    }
    tsunit_t m, s; /* a slave does not count */
    tsunit_init(&m, 2, 40, NULL);
    tsunit_init(&s, 4, 40, &m);
    tsunit_write_control(&s, 0x8003u);
    tsunit_advance(&s, 50);
    TS_ASSERT_EQ_U(s.counter, 0);
}

TS_TEST_MAIN()
