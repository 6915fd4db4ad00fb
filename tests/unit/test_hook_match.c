/* test_hook_match.c - which perf-hook call wrote a record (analysis/check/hook_match.c, the
 * matcher of `tracesim check`), on hand-made sequences of hook calls (hooks.csv rows), thread
 * switches (flow.csv tp after a trap's mret) and records. The expected pairings are reasoned
 * by hand in each case from what the firmware did: a thread writes the record of its own
 * hook call, whatever ran in between. */
#include "ts_test.h"
#include "hook_match.h"

#define F 0x80000100u  /* the instrumented function (a0 of enter/exit) */
#define S1 0x80000200u /* call sites (a1) */
#define S2 0x80000300u
#define R 0x8000010cu  /* the hook's return address in F (ra) */
#define TA 0x80001000u /* threads (tp) */
#define TB 0x80001008u

static hook_call_t call(uint64_t cycle, int kind, uint32_t a0, uint32_t a1, uint32_t ra, uint32_t tp) {
    return (hook_call_t){.cycle = cycle, .kind = kind, .has_tp = true, .pc = ra - 4, .a0 = a0, .a1 = a1, .ra = ra, .tp = tp};
}
static void enter(hook_match_t *m, hook_call_t c) { TS_ASSERT(!hm_enter(m, &c)); }
/* a thread switch: the mret that resumes thread tp (flow.csv's tp of the mret row) */
static void resume(hook_match_t *m, uint32_t tp) { hm_running(m, true, tp); }

/* Thread A enters the enter hook of F (call site S1) and is preempted before its record;
 * thread B enters the same hook with the same arguments and is preempted inside the hook
 * before its record too; A resumes and writes its record first. Both calls have equal hart,
 * hook and arguments: only the thread tells that the record is A's (the call of cycle 10),
 * not B's later call - matched by arguments and "the latest", it would be B's. A returns to
 * its ra: that ends A's call, B's stays open; B resumes, its record is its own call's. */
TS_TEST(preempted_record_matches_its_threads_call) {
    hook_match_t m;
    hm_init(&m);
    enter(&m, call(10, HK_ENTER, F, S1, R, TA));
    resume(&m, TB);
    enter(&m, call(20, HK_ENTER, F, S1, R, TB));
    resume(&m, TA);
    const hook_call_t *c = hm_record(&m, HK_ENTER, true, F, S1);
    TS_ASSERT(c);
    TS_ASSERT_EQ_U(c->cycle, 10);
    TS_ASSERT_EQ_U(c->tp, TA);
    hm_running(&m, true, TA); /* the hook's return (flow.csv ret row, tp A) */
    TS_ASSERT(hm_return(&m, R));
    TS_ASSERT_EQ_U(m.n, 1);
    TS_ASSERT_EQ_U(m.open[0].c.cycle, 20);
    resume(&m, TB);
    c = hm_record(&m, HK_ENTER, true, F, S1);
    TS_ASSERT(c);
    TS_ASSERT_EQ_U(c->cycle, 20);
    TS_ASSERT(hm_return(&m, R));
    TS_ASSERT_EQ_U(m.n, 0);
    hm_free(&m);
}

/* The other order: B, called second, writes its record first (A was preempted, B ran its
 * hook through); then A resumes and writes its own. */
TS_TEST(second_called_thread_records_first) {
    hook_match_t m;
    hm_init(&m);
    enter(&m, call(10, HK_ENTER, F, S1, R, TA));
    resume(&m, TB);
    enter(&m, call(20, HK_ENTER, F, S1, R, TB));
    const hook_call_t *c = hm_record(&m, HK_ENTER, true, F, S1);
    TS_ASSERT(c && c->cycle == 20);
    TS_ASSERT(hm_return(&m, R));
    resume(&m, TA);
    c = hm_record(&m, HK_ENTER, true, F, S1);
    TS_ASSERT(c && c->cycle == 10);
    TS_ASSERT(hm_return(&m, R));
    TS_ASSERT_EQ_U(m.n, 0);
    hm_free(&m);
}

/* A record that carries another thread's arguments: A (call site S1) is preempted in its
 * hook, B enters the hook from call site S2 and is preempted there; A resumes and its record
 * says S2 (a library that kept the arguments in a shared variable would do this). The call
 * A made is matched - its a1 is S1, so check reports the difference - not B's open call
 * whose arguments the record happens to carry. */
TS_TEST(record_with_another_threads_arguments_is_not_theirs) {
    hook_match_t m;
    hm_init(&m);
    enter(&m, call(10, HK_ENTER, F, S1, R, TA));
    resume(&m, TB);
    enter(&m, call(20, HK_ENTER, F, S2, R, TB));
    resume(&m, TA);
    const hook_call_t *c = hm_record(&m, HK_ENTER, true, F, S2);
    TS_ASSERT(c);
    TS_ASSERT_EQ_U(c->cycle, 10);
    TS_ASSERT_EQ_U(c->a1, S1);
    hm_free(&m);
}

/* Both threads wrote their records and were preempted inside the hook after it (before its
 * return); A resumes and returns: A's call ends (the one of cycle 10), B's stays open for
 * B's return. */
TS_TEST(return_ends_the_running_threads_call) {
    hook_match_t m;
    hm_init(&m);
    enter(&m, call(10, HK_ENTER, F, S1, R, TA));
    TS_ASSERT(hm_record(&m, HK_ENTER, true, F, S1));
    resume(&m, TB);
    enter(&m, call(20, HK_ENTER, F, S1, R, TB));
    TS_ASSERT(hm_record(&m, HK_ENTER, true, F, S1));
    resume(&m, TA);
    TS_ASSERT(hm_return(&m, R));
    TS_ASSERT_EQ_U(m.n, 1);
    TS_ASSERT_EQ_U(m.open[0].c.cycle, 20);
    TS_ASSERT_EQ_U(m.open[0].c.tp, TB);
    hm_free(&m);
}

/* A run folder of an older version (no tp column): the thread is unknown, the match is by
 * arguments, the latest such call; other arguments pick their own call. */
TS_TEST(without_tp_by_arguments_only) {
    hook_match_t m;
    hm_init(&m);
    hook_call_t a = call(10, HK_ENTER, F, S1, R, 0), b = call(20, HK_ENTER, F, S1, R, 0), d = call(30, HK_ENTER, F, S2, R, 0);
    a.has_tp = b.has_tp = d.has_tp = false;
    enter(&m, a);
    hm_running(&m, false, 0);
    enter(&m, b);
    enter(&m, d);
    const hook_call_t *c = hm_record(&m, HK_ENTER, true, F, S1);
    TS_ASSERT(c && c->cycle == 20);
    c = hm_record(&m, HK_ENTER, true, F, S1);
    TS_ASSERT(c && c->cycle == 10);
    c = hm_record(&m, HK_ENTER, true, F, S2);
    TS_ASSERT(c && c->cycle == 30);
    TS_ASSERT(!hm_record(&m, HK_ENTER, true, F, S2)); /* every open call wrote its record */
    hm_free(&m);
}

/* The fallbacks that let check report a difference: a record whose addresses fit no open
 * call gets the latest call of its hook in the running thread; a record of a hook none of
 * whose calls is open gets the latest open call (check then says the type is wrong); a
 * manual record is matched by ra. */
TS_TEST(fallbacks_and_manual_records) {
    hook_match_t m;
    hm_init(&m);
    enter(&m, call(10, HK_MANUAL, 0, 0, 0x80000400u, TA));
    enter(&m, call(20, HK_ENTER, F, S1, R, TA));
    enter(&m, call(30, HK_MANUAL, 0, 0, 0x80000500u, TA));
    const hook_call_t *c = hm_record(&m, HK_MANUAL, true, 0x80000400u, 0);
    TS_ASSERT(c && c->cycle == 10);
    c = hm_record(&m, HK_EXIT, true, F, S1);
    TS_ASSERT(c && c->cycle == 30 && c->kind == HK_MANUAL);
    c = hm_record(&m, HK_ENTER, false, 0, 0); /* addresses unknown (a gap) */
    TS_ASSERT(c && c->cycle == 20);
    TS_ASSERT(!hm_record(&m, HK_ENTER, true, F, S1));
    hm_free(&m);
}

/* No bound on the nesting (report --compensate used to give up beyond 8 nested hook calls):
 * 3000 threads each preempted inside the same hook with the same arguments (the calls nest
 * 3000 deep), resumed in the order they were called (the opposite of the nesting) - each
 * record is its own thread's call, and each return ends it; then 3000 nested calls of one
 * thread (handlers' hooks in hooks, different call sites) matched innermost first. */
TS_TEST(deep_nesting_has_no_bound) {
    enum { N = 3000 };
    hook_match_t m;
    hm_init(&m);
    for (uint32_t i = 0; i < N; i++) {
        resume(&m, TA + 8 * i);
        enter(&m, call(100 + i, HK_ENTER, F, S1, R, TA + 8 * i));
    }
    TS_ASSERT_EQ_U(m.n, N);
    for (uint32_t i = 0; i < N; i++) {
        resume(&m, TA + 8 * i);
        const hook_call_t *c = hm_record(&m, HK_ENTER, true, F, S1);
        TS_ASSERT(c);
        TS_ASSERT_EQ_U(c->cycle, 100 + i);
        TS_ASSERT(hm_return(&m, R));
        TS_ASSERT_EQ_U(m.n, N - 1 - i);
        if (m.n) TS_ASSERT_EQ_U(m.open[0].c.cycle, 100 + i + 1); /* the call that ended was this one */
    }
    for (uint32_t i = 0; i < N; i++) enter(&m, call(10000 + i, HK_EXIT, F, S1 + 4 * i, R, TA));
    for (uint32_t i = N; i--;) {
        const hook_call_t *c = hm_record(&m, HK_EXIT, true, F, S1 + 4 * i);
        TS_ASSERT(c);
        TS_ASSERT_EQ_U(c->cycle, 10000 + i);
    }
    hm_free(&m);
}

TS_TEST_MAIN()
