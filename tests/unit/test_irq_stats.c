/* test_irq_stats.c - interrupts and threads in numbers (analysis/report/irq_stats.c) on event
 * sequences written by hand; every expected number is worked out in the comments. */
#include "irq_stats.h"
#include "ts_test.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TIMER 0x80000007u
#define SOFT 0x80000003u
#define ECALL 0x0000000Bu

static const irq_cause_t *cause(const irq_stats_t *st, unsigned hart, uint32_t c) {
    for (size_t i = 0; i < st->ncause; i++)
        if (st->cause[i].hart == hart && st->cause[i].cause == c) return &st->cause[i];
    TS_FAIL("no row for hart %u cause 0x%08x", hart, c);
}

static const irq_thread_t *thread(const irq_stats_t *st, unsigned hart, uint64_t id) {
    for (size_t i = 0; i < st->nthread; i++)
        if (st->thread[i].hart == hart && st->thread[i].id == id) return &st->thread[i];
    TS_FAIL("no row for hart %u thread 0x%" PRIx64, hart, id);
}

/* hart 0, a kernel of two threads A (tp 0xA0) and B (0xB0):
 *   t=100 switch to A
 *   t=200 timer entered (depth 0)
 *   t=210   software interrupt entered inside it (depth 1, nested)
 *   t=230   its return: software time 20
 *   t=240   switch to B inside the timer handler: A's stretch 240-100 = 140, preempted
 *   t=260 timer's return: time 60 (inclusive of the nested 20)
 *   t=300 ecall entered (depth 0)
 *   t=305   switch to A inside the ecall: B's stretch 305-240 = 65, a yield (no preemption)
 *   t=320 ecall's return: time 20
 *   t=400 timer entered; t=410 switch to B: A's stretch 410-305 = 105, preempted; t=450 return: time 50
 *   t=500 timer entered, never returned: open
 * timer: 3 visits, none nested, time 50/55/60 (n 2), open 1; software: 1 visit, nested 1,
 * depth 1, time 20; ecall: 1 visit, time 20. A: 2 visits, 2 preemptions, time 105/122.5/140;
 * B: 2 visits, 0 preemptions, 1 stretch (65) and running at the end.
 * latency: timer pending 195, taken 200, first 204 -> 9 and 5; pending 398, taken 400, first
 * 405 -> 7 and 2: latency 7/8/9, pending->taken 2/3.5/5. */
static irqs_t *kernel(void) {
    irqs_t *s = irqs_new();
    TS_ASSERT(s);
    TS_ASSERT(!irqs_switch(s, 0, 0xA0, 100));
    TS_ASSERT(!irqs_enter(s, 0, TIMER, 200));
    TS_ASSERT(!irqs_enter(s, 0, SOFT, 210));
    TS_ASSERT(!irqs_return(s, 0, 230));
    TS_ASSERT(!irqs_switch(s, 0, 0xB0, 240));
    TS_ASSERT(!irqs_return(s, 0, 260));
    TS_ASSERT(!irqs_enter(s, 0, ECALL, 300));
    TS_ASSERT(!irqs_switch(s, 0, 0xA0, 305));
    TS_ASSERT(!irqs_return(s, 0, 320));
    TS_ASSERT(!irqs_enter(s, 0, TIMER, 400));
    TS_ASSERT(!irqs_switch(s, 0, 0xB0, 410));
    TS_ASSERT(!irqs_return(s, 0, 450));
    TS_ASSERT(!irqs_enter(s, 0, TIMER, 500));
    TS_ASSERT(!irqs_latency(s, 0, TIMER, 195, 200, 204));
    TS_ASSERT(!irqs_latency(s, 0, TIMER, 398, 400, 405));
    return s;
}

TS_TEST(causes_time_nesting_latency) {
    irqs_t *s = kernel();
    const irq_stats_t *st = irqs_result(s);
    TS_ASSERT(st->traps && st->returns && st->switches && st->latency);
    TS_ASSERT_EQ_U(st->ncause, 3);
    const irq_cause_t *t = cause(st, 0, TIMER);
    TS_ASSERT_EQ_U(t->visits, 3);
    TS_ASSERT_EQ_U(t->nested, 0);
    TS_ASSERT_EQ_U(t->max_depth, 0);
    TS_ASSERT_EQ_U(t->open, 1);
    TS_ASSERT_EQ_U(t->time.n, 2);
    TS_ASSERT_EQ_U(t->time.min, 50);
    TS_ASSERT_EQ_U(t->time.max, 60);
    TS_ASSERT_EQ_U(t->time.sum, 110);
    TS_ASSERT_EQ_U(t->latency.n, 2);
    TS_ASSERT_EQ_U(t->latency.min, 7);
    TS_ASSERT_EQ_U(t->latency.max, 9);
    TS_ASSERT_EQ_U(t->to_take.min, 2);
    TS_ASSERT_EQ_U(t->to_take.max, 5);
    const irq_cause_t *sw = cause(st, 0, SOFT);
    TS_ASSERT_EQ_U(sw->visits, 1);
    TS_ASSERT_EQ_U(sw->nested, 1);
    TS_ASSERT_EQ_U(sw->max_depth, 1);
    TS_ASSERT_EQ_U(sw->time.n, 1);
    TS_ASSERT_EQ_U(sw->time.sum, 20);
    const irq_cause_t *ec = cause(st, 0, ECALL);
    TS_ASSERT_EQ_U(ec->visits, 1);
    TS_ASSERT_EQ_U(ec->time.sum, 20);
    TS_ASSERT_EQ_U(ec->open, 0);
    irqs_free(s);
}

TS_TEST(threads_preemptions) {
    irqs_t *s = kernel();
    const irq_stats_t *st = irqs_result(s);
    TS_ASSERT_EQ_U(st->nthread, 2);
    const irq_thread_t *a = thread(st, 0, 0xA0), *b = thread(st, 0, 0xB0);
    TS_ASSERT_EQ_U(a->visits, 2);
    TS_ASSERT_EQ_U(a->preemptions, 2);
    TS_ASSERT_EQ_U(a->running, 0);
    TS_ASSERT_EQ_U(a->time.n, 2);
    TS_ASSERT_EQ_U(a->time.min, 105);
    TS_ASSERT_EQ_U(a->time.max, 140);
    TS_ASSERT_EQ_U(a->time.sum, 245);
    TS_ASSERT_EQ_U(b->visits, 2);
    TS_ASSERT_EQ_U(b->preemptions, 0);
    TS_ASSERT_EQ_U(b->running, 1);
    TS_ASSERT_EQ_U(b->time.n, 1);
    TS_ASSERT_EQ_U(b->time.sum, 65);
    irqs_free(s);
}

/* a source without returns (the trace's events): a switch is a preemption when the newest
 * trap entered since the thread was switched in is an interrupt.
 *   t=10 switch to A; t=20 timer; t=25 switch to B (A preempted: the timer came after A
 *   started); t=30 ecall; t=35 switch to A (B not preempted: the newest trap is an ecall);
 *   t=50 switch to B (A not preempted: no trap since t=35). Nothing nested is known. */
TS_TEST(trace_without_returns) {
    irqs_t *s = irqs_new();
    TS_ASSERT(!irqs_switch(s, 0, 0xA0, 10));
    TS_ASSERT(!irqs_enter(s, 0, TIMER, 20));
    TS_ASSERT(!irqs_switch(s, 0, 0xB0, 25));
    TS_ASSERT(!irqs_enter(s, 0, ECALL, 30));
    TS_ASSERT(!irqs_switch(s, 0, 0xA0, 35));
    TS_ASSERT(!irqs_switch(s, 0, 0xB0, 50));
    const irq_stats_t *st = irqs_result(s);
    TS_ASSERT(!st->returns);
    TS_ASSERT_EQ_U(thread(st, 0, 0xA0)->preemptions, 1);
    TS_ASSERT_EQ_U(thread(st, 0, 0xB0)->preemptions, 0);
    TS_ASSERT_EQ_U(thread(st, 0, 0xA0)->time.sum, 15 + 15);
    TS_ASSERT_EQ_U(cause(st, 0, TIMER)->time.n, 0);
    /* the text says what the trace cannot know */
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    TS_ASSERT(!irqs_write_text(st, NULL, NULL, o));
    fclose(o);
    TS_ASSERT(strstr(buf, "no handler time, no nesting"));
    TS_ASSERT(strstr(buf, "M timer interrupt"));
    free(buf);
    irqs_free(s);
}

/* harts are apart: a return on hart 1 does not close hart 0's trap; a switch to the running
 * thread changes nothing; a return with nothing open is counted, ignored */
TS_TEST(harts_apart) {
    irqs_t *s = irqs_new();
    TS_ASSERT(!irqs_enter(s, 0, TIMER, 100));
    TS_ASSERT(!irqs_enter(s, 1, TIMER, 110));
    TS_ASSERT(!irqs_return(s, 1, 120));
    TS_ASSERT(!irqs_return(s, 1, 130));
    TS_ASSERT(!irqs_return(s, 0, 170));
    TS_ASSERT(!irqs_switch(s, 1, 0xC0, 200));
    TS_ASSERT(!irqs_switch(s, 1, 0xC0, 210));
    const irq_stats_t *st = irqs_result(s);
    TS_ASSERT_EQ_U(cause(st, 0, TIMER)->time.sum, 70);
    TS_ASSERT_EQ_U(cause(st, 1, TIMER)->time.sum, 10);
    TS_ASSERT_EQ_U(cause(st, 0, TIMER)->nested, 0);
    TS_ASSERT_EQ_U(st->unmatched, 1);
    TS_ASSERT_EQ_U(thread(st, 1, 0xC0)->visits, 1);
    irqs_free(s);
}

/* the ground truth's reader on a hand-written run folder: two timer traps, the second
 * nested in an ecall's handler; a THREAD_SWITCH inside the first */
TS_TEST(load_truth) {
    char dir[] = "/tmp/ts_irq_XXXXXX", path[64];
    TS_ASSERT(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/traps.csv", dir);
    FILE *f = fopen(path, "w");
    /* rows in order of return, as the simulator writes them */
    fputs("cycle,hart,cause,pc,handler,pending,first,ret,depth\n"
          "100,0,0x80000007,0x00000200,0x00000080,97,104,150,0\n"
          "210,0,0x80000007,0x00000300,0x00000080,200,214,240,1\n"
          "200,0,0x0000000b,0x00000400,0x00000080,,204,260,0\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/stm.csv", dir);
    f = fopen(path, "w");
    fputs("cycle,hart,id,value,status\n120,0,0x8000,0x000000a0,traced\n130,0,0x0005,0x00000001,traced\n", f);
    fclose(f);
    irqs_t *s = irqs_new();
    char err[256];
    TS_ASSERT_EQ_I(irqs_load_truth(s, dir, -1, err, sizeof err), 0);
    const irq_stats_t *st = irqs_result(s);
    const irq_cause_t *t = cause(st, 0, TIMER);
    TS_ASSERT_EQ_U(t->visits, 2);
    TS_ASSERT_EQ_U(t->nested, 1);
    TS_ASSERT_EQ_U(t->max_depth, 1);
    TS_ASSERT_EQ_U(t->time.min, 30);    /* 240 - 210 */
    TS_ASSERT_EQ_U(t->time.max, 50);    /* 150 - 100 */
    TS_ASSERT_EQ_U(t->latency.min, 7);  /* 104 - 97 */
    TS_ASSERT_EQ_U(t->latency.max, 14); /* 214 - 200 */
    TS_ASSERT_EQ_U(cause(st, 0, ECALL)->time.sum, 60);
    TS_ASSERT_EQ_U(cause(st, 0, ECALL)->latency.n, 0);
    TS_ASSERT_EQ_U(st->nthread, 1);
    TS_ASSERT_EQ_U(thread(st, 0, 0xA0)->visits, 1);
    irqs_free(s);
    /* a malformed row: one line naming the file and line */
    snprintf(path, sizeof path, "%s/traps.csv", dir);
    f = fopen(path, "w");
    fputs("cycle,hart,cause,pc,handler,pending,first,ret,depth\n100,0,0x80000007,0x0,0x0,x,104,150,0\n", f);
    fclose(f);
    s = irqs_new();
    TS_ASSERT_EQ_I(irqs_load_truth(s, dir, -1, err, sizeof err), -1);
    TS_ASSERT(strstr(err, "traps.csv:2: malformed row"));
    irqs_free(s);
    remove(path);
    snprintf(path, sizeof path, "%s/stm.csv", dir);
    remove(path);
    s = irqs_new();
    TS_ASSERT_EQ_I(irqs_load_truth(s, dir, -1, err, sizeof err), 1); /* no traps.csv */
    irqs_free(s);
    rmdir(dir);
}

TS_TEST_MAIN()
