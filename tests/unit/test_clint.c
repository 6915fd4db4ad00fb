/* test_clint.c - CLINT: mtime prescaling, mtimecmp compare, msip, access rules. */
#include "clint.h"
#include "ts_test.h"

TS_TEST(mtime_counts_every_div_cycles) {
    clint_t c;
    TS_ASSERT_EQ_I(clint_init(&c, 1, 100), 0);
    for (int i = 0; i < 99; i++) clint_tick(&c);
    TS_ASSERT_EQ_U(c.mtime, 0);
    clint_tick(&c);
    TS_ASSERT_EQ_U(c.mtime, 1);
    for (int i = 0; i < 1000; i++) clint_tick(&c);
    TS_ASSERT_EQ_U(c.mtime, 11);
}

TS_TEST(timer_irq_when_mtime_reaches_mtimecmp) {
    clint_t c;
    clint_init(&c, 1, 1);
    TS_ASSERT(!clint_timer_irq(&c, 0)); /* mtimecmp resets to all ones */
    TS_ASSERT(clint_write(&c, 0x4004, 4, 0));
    TS_ASSERT(clint_write(&c, 0x4000, 4, 3));
    clint_tick(&c);
    clint_tick(&c);
    TS_ASSERT(!clint_timer_irq(&c, 0));
    clint_tick(&c);
    TS_ASSERT(clint_timer_irq(&c, 0));
    uint32_t v;
    TS_ASSERT(clint_read(&c, 0xBFF8, 4, &v));
    TS_ASSERT_EQ_U(v, 3);
}

TS_TEST(msip_and_bad_accesses) {
    clint_t c;
    clint_init(&c, 1, 1);
    TS_ASSERT(clint_write(&c, 0, 4, 0xFFFFFFFF));
    TS_ASSERT(clint_soft_irq(&c, 0));
    uint32_t v;
    TS_ASSERT(clint_read(&c, 0, 4, &v));
    TS_ASSERT_EQ_U(v, 1);
    TS_ASSERT(!clint_write(&c, 0, 1, 1));      /* byte access */
    TS_ASSERT(!clint_read(&c, 0x4008, 4, &v)); /* mtimecmp of a hart that does not exist */
    TS_ASSERT(!clint_read(&c, 0x8000, 4, &v)); /* hole */
    TS_ASSERT_EQ_I(clint_init(&c, 0, 1), -1);
}

/* clint_tick() says when mtime or a line can have changed (the simulator drives the lines
 * and the HPM's time only then): the tick after reset, every div-th tick (mtime advances),
 * and the tick after a register write; false in every other tick */
TS_TEST(tick_reports_changes_only) {
    clint_t c;
    TS_ASSERT_EQ_I(clint_init(&c, 2, 4), 0);
    TS_ASSERT(clint_tick(&c)); /* after reset */
    TS_ASSERT(!clint_tick(&c));
    TS_ASSERT(!clint_tick(&c));
    TS_ASSERT(clint_tick(&c)); /* 4th tick: mtime 1 */
    TS_ASSERT_EQ_U(c.mtime, 1);
    TS_ASSERT(!clint_tick(&c));
    TS_ASSERT(clint_write(&c, 4, 4, 1)); /* msip of hart 1 */
    TS_ASSERT(clint_tick(&c));
    TS_ASSERT(clint_soft_irq(&c, 1));
    TS_ASSERT(!clint_tick(&c));
    TS_ASSERT(clint_tick(&c));                /* 8th: mtime 2 */
    TS_ASSERT(clint_write(&c, 0x4008, 4, 2)); /* mtimecmp[1] = 2: the line rises at once */
    TS_ASSERT(clint_write(&c, 0x400C, 4, 0));
    TS_ASSERT(clint_tick(&c));
    TS_ASSERT(clint_timer_irq(&c, 1));
    TS_ASSERT(!clint_timer_irq(&c, 0));
    TS_ASSERT(!clint_tick(&c));
    TS_ASSERT(!clint_write(&c, 0x4008, 2, 0)); /* refused: a halfword */
    TS_ASSERT(!clint_tick(&c));                /* it changed nothing */
    TS_ASSERT(clint_tick(&c));                 /* 12th: mtime 3 */
    TS_ASSERT_EQ_U(c.mtime, 3);
    clint_reset(&c);
    TS_ASSERT(clint_tick(&c));
}

TS_TEST_MAIN()
