/* test_callstack.c - the call-stack model (decoder/include/callstack.h): every route out
 * of a frame, checked by the order and reasons of the frames closed. Functions are numbers;
 * a closed frame is logged as "func:why" in close order. */
#include <stdio.h>
#include <string.h>
#include "callstack.h"
#include "ts_test.h"

static char log_[512];
static void on_close(void *ctx, uint64_t thread, const cs_frame_t *f, void *user, cs_why_t why) {
    (void)ctx;
    size_t n = strlen(log_);
    snprintf(log_ + n, sizeof log_ - n, "%s%llu/%u:%s(%d)", n ? " " : "", (unsigned long long)thread, f->func,
             cs_why_name(why), user ? *(int *)user : -1);
}

static cs_t m;
static void begin(void) {
    log_[0] = 0;
    cs_init(&m, sizeof(int), on_close, NULL);
}
static void push(uint32_t func, uint64_t site, uint64_t sp, bool trap) {
    int *u = cs_push(&m, func, site, sp, trap);
    TS_ASSERT(u);
    *u = (int)func * 10;
}

/* a return closes its frame; an exit below the top unwinds the frames above it first */
TS_TEST(return_and_unwound) {
    begin();
    push(1, 0, 0, false);
    push(2, 0, 0, false);
    push(3, 0, 0, false);
    TS_ASSERT_EQ_I(cs_exit(&m, 3), 0);
    TS_ASSERT_STR_EQ(log_, "0/3:return(30)");
    push(4, 0, 0, false);
    TS_ASSERT_EQ_I(cs_exit(&m, 1), 0);
    TS_ASSERT_STR_EQ(log_, "0/3:return(30) 0/4:unwound(40) 0/2:unwound(20) 0/1:return(10)");
    TS_ASSERT_EQ_U(cs_stats(&m)->unwound, 2);
    push(5, 0, 0, false);
    push(6, 0, 0, false);
    TS_ASSERT_EQ_U(cs_unwind_above(&m, 5), 1);
    TS_ASSERT_EQ_U(cs_unwind_above(&m, 9), 0);
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    TS_ASSERT_EQ_I(cs_exit(&m, 7), -1);
    TS_ASSERT_EQ_U(cs_stats(&m)->unmatched, 1);
    cs_free(&m);
}

/* records' frames (cs_push_call): function f begins at f * 0x100, a call site s lies in the
 * function at s & ~0xff */
static void call(uint32_t func, uint64_t site) {
    int *u = cs_push_call(&m, func, (uint64_t)func * 0x100, site, site & ~(uint64_t)0xff);
    TS_ASSERT(u);
    *u = (int)func * 10;
}
/* an enter of func from site (in the function at site & ~0xff, instrumented when traced) */
static size_t enter_from(uint32_t func, uint64_t site, bool traced) {
    return cs_unwind_call(&m, (uint64_t)func * 0x100, site & ~(uint64_t)0xff, traced, site);
}

/* the case: main(1) -> work(2) -> thrower(3) longjmps to main; the next enter's call
 * site lies in main: work and thrower close as repairs, main stays */
TS_TEST(longjmp_call_site) {
    begin();
    call(1, 0x10);
    call(2, 0x104);
    call(3, 0x208);
    TS_ASSERT_EQ_U(enter_from(2, 0x108, true), 2);
    TS_ASSERT_STR_EQ(log_, "0/3:repair(30) 0/2:repair(20)");
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    TS_ASSERT_EQ_U(cs_stats(&m)->repairs, 1);
    TS_ASSERT_EQ_U(cs_stats(&m)->repaired, 2);
    /* a call from the top frame's own function: nothing to repair */
    call(2, 0x104);
    TS_ASSERT_EQ_U(enter_from(3, 0x220, true), 0);
    /* a call from code without frames (an uninstrumented function): nothing closes */
    TS_ASSERT_EQ_U(enter_from(3, 0x900, false), 0);
    /* an instrumented function inlined into work: its hooks get work's own return address */
    call(3, 0x208);
    TS_ASSERT_EQ_U(enter_from(5, 0x104, true), 1);
    TS_ASSERT_STR_EQ(log_, "0/3:repair(30) 0/2:repair(20) 0/3:repair(30)");
    TS_ASSERT_EQ_U(cs_depth(&m), 2);
    cs_free(&m);
}

/* main without a frame (tracing switched on inside it): work(2) called from 0x104 in main
 * -> thrower(3) longjmps to main, which calls work again from the same site: the enter
 * closes thrower and the old work frame; recursion from one site is not a repair */
TS_TEST(longjmp_no_caller_frame) {
    begin();
    call(2, 0x104);
    call(3, 0x208);
    TS_ASSERT_EQ_U(enter_from(2, 0x104, true), 2);
    TS_ASSERT_STR_EQ(log_, "0/3:repair(30) 0/2:repair(20)");
    TS_ASSERT_EQ_U(cs_depth(&m), 0);
    call(2, 0x104);
    call(2, 0x230);
    TS_ASSERT_EQ_U(enter_from(2, 0x230, true), 0); /* work calls itself */
    TS_ASSERT_EQ_U(cs_depth(&m), 2);
    cs_free(&m);
}

/* firmware/tests/longjmp_deep.c: main (no frame, instrumented) calls dive(2), which recurses
 * 3 times and longjmps back to main; main then calls ANOTHER function, iter(4): its call
 * site lies in the function that called the bottom frame, so all 4 dive frames were left */
TS_TEST(longjmp_to_untraced_caller_then_another_function) {
    begin();
    call(2, 0x104);
    for (int i = 0; i < 3; i++) call(2, 0x240);
    TS_ASSERT_EQ_U(enter_from(4, 0x110, true), 4);
    TS_ASSERT_STR_EQ(log_, "0/2:repair(20) 0/2:repair(20) 0/2:repair(20) 0/2:repair(20)");
    TS_ASSERT_EQ_U(cs_depth(&m), 0);
    /* the same longjmp to a traced middle frame: main(1) -> work(5) -> dive(2) x 3; work has
     * the setjmp and then calls iter: dive's frames close, work's stays */
    log_[0] = 0;
    call(1, 0x10);
    call(5, 0x120);
    call(2, 0x530);
    call(2, 0x240);
    call(2, 0x240);
    TS_ASSERT_EQ_U(enter_from(4, 0x540, true), 3);
    TS_ASSERT_EQ_U(cs_depth(&m), 2);
    /* the caller of work is main: a call from main closes work too */
    TS_ASSERT_EQ_U(enter_from(4, 0x130, true), 1);
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    cs_free(&m);
}

/* a caller that is not instrumented may run again without a record (an interrupt handler's
 * dispatcher at 0x700 calling on_tick(2), and, nested, on_soft(3); an interpreter): its
 * calls close nothing */
TS_TEST(uninstrumented_caller_runs_again) {
    begin();
    call(2, 0x710);
    TS_ASSERT_EQ_U(enter_from(3, 0x740, false), 0);
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    /* the same with the dispatcher instrumented: on_tick was left */
    TS_ASSERT_EQ_U(enter_from(3, 0x740, true), 1);
    cs_free(&m);
}

/* an instrumented function g(5) inlined into C(3) (C called from B(1) at 0x104): g's enter
 * has C's return address; the calls g's inlined body makes lie in C (the symbols name the
 * container): they are g's calls, nothing closes; after g's exit a call from C is C's */
TS_TEST(inlined_function_calls) {
    begin();
    call(1, 0x10);
    call(3, 0x104);
    TS_ASSERT_EQ_U(enter_from(5, 0x104, true), 0);
    call(5, 0x104);
    TS_ASSERT_EQ_U(enter_from(6, 0x320, true), 0); /* leaf from g's body */
    call(6, 0x320);
    TS_ASSERT_EQ_U(cs_exit(&m, 6), 0);
    TS_ASSERT_EQ_U(enter_from(6, 0x330, true), 0); /* again */
    TS_ASSERT_EQ_U(cs_depth(&m), 3);
    /* a call from B: C and g were left (a longjmp to B) */
    TS_ASSERT_EQ_U(enter_from(6, 0x108, true), 2);
    TS_ASSERT_STR_EQ(log_, "0/6:return(60) 0/5:repair(50) 0/3:repair(30)");
    cs_free(&m);
}

/* the template's fib (-O2): GCC inlines fib into itself; the outermost fib, called from main
 * (no frame), enters its inlined copy with its own return address as the call site: that
 * is not a repair (README's profile: 177 calls, no warning) */
TS_TEST(inlined_recursion_is_not_a_repair) {
    begin();
    call(2, 0x104);
    TS_ASSERT_EQ_U(enter_from(2, 0x104, true), 0);
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    call(2, 0x104);
    TS_ASSERT_EQ_U(enter_from(2, 0x260, true), 0); /* the inlined copy calls fib */
    TS_ASSERT_EQ_U(cs_stats(&m)->repairs, 0);
    cs_free(&m);
}

/* a return landing in a function below the top (program flow): the frames above its
 * topmost frame close */
TS_TEST(return_target) {
    begin();
    push(1, 0, 0, false);
    push(2, 0, 0, false);
    push(3, 0, 0, false);
    TS_ASSERT_EQ_U(cs_unwind_to(&m, 2), 1);
    TS_ASSERT_EQ_U(cs_unwind_to(&m, 7), 0);
    TS_ASSERT_EQ_U(cs_depth(&m), 2);
    cs_free(&m);
}

/* the stack pointer back above a frame's call closes it (stack grows down) */
TS_TEST(stack_pointer) {
    begin();
    push(1, 0, 0x1000, false);
    push(2, 0, 0xff0, false);
    push(3, 0, 0xfe0, false);
    TS_ASSERT_EQ_U(cs_unwind_sp(&m, 0xfe0), 0); /* at its own call's sp: still in it */
    TS_ASSERT_EQ_U(cs_unwind_sp(&m, 0xff8), 2);
    TS_ASSERT_STR_EQ(log_, "0/3:sp(30) 0/2:sp(20)");
    cs_free(&m);
}

/* nested traps: an xRET closes the handler's frames down to its trap frame only */
TS_TEST(nested_traps) {
    begin();
    push(1, 0, 0, false);
    push(8, 0, 0, true);
    push(2, 0, 0, false);
    push(9, 0, 0, true);
    push(3, 0, 0, false);
    TS_ASSERT_EQ_U(cs_trap_return(&m), 2);
    TS_ASSERT_STR_EQ(log_, "0/3:trap return(30) 0/9:trap return(90)");
    TS_ASSERT_EQ_U(cs_trap_return(&m), 2);
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    TS_ASSERT_EQ_U(cs_trap_return(&m), 0); /* no trap frame: nothing */
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    cs_free(&m);
}

/* a tail call replaces the top frame, keeping its call site and trap mark */
TS_TEST(tail_call) {
    begin();
    push(1, 0, 0, false);
    push(2, 0x44, 0x800, true);
    int *u = cs_tail(&m, 5);
    TS_ASSERT(u);
    TS_ASSERT_STR_EQ(log_, "0/2:tail call(20)");
    const cs_frame_t *t = cs_top(&m);
    TS_ASSERT_EQ_U(t->func, 5);
    TS_ASSERT_EQ_U(t->call_site, 0x44);
    TS_ASSERT_EQ_U(t->sp, 0x800);
    TS_ASSERT(t->trap);
    TS_ASSERT_EQ_I(*u, 0);
    cs_free(&m);
}

/* threads: each its own stack, parked while switched out; an exit on one thread never
 * closes another's frames; the end closes every thread's */
TS_TEST(threads) {
    begin();
    TS_ASSERT_EQ_I(cs_switch(&m, 7), 0);
    push(1, 0, 0, false);
    push(2, 0, 0, false);
    TS_ASSERT_EQ_I(cs_switch(&m, 8), 0);
    TS_ASSERT_EQ_U(cs_depth(&m), 0);
    push(3, 0, 0, false);
    push(2, 0, 0, false);
    TS_ASSERT_EQ_I(cs_switch(&m, 7), 0);
    TS_ASSERT_EQ_U(cs_depth(&m), 2);
    TS_ASSERT_EQ_I(cs_exit(&m, 2), 0);
    TS_ASSERT_STR_EQ(log_, "7/2:return(20)");
    TS_ASSERT_EQ_I(cs_exit(&m, 3), -1);        /* thread 8's frame: not here */
    TS_ASSERT_EQ_U(cs_stats(&m)->switches, 2); /* 7 -> 8 -> 7 */
    cs_clear_all(&m);
    TS_ASSERT_STR_EQ(log_, "7/2:return(20) 7/1:clear(10) 8/2:clear(20) 8/3:clear(30)");
    cs_free(&m);
}

/* the first switch names the thread that ran before it (its frames stay) */
TS_TEST(name_the_first_thread) {
    begin();
    push(1, 0, 0, false);
    TS_ASSERT_EQ_I(cs_name(&m, 7), 0);
    TS_ASSERT_EQ_U(cs_thread_id(&m), 7);
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    TS_ASSERT_EQ_I(cs_switch(&m, 8), 0);
    TS_ASSERT_EQ_I(cs_name(&m, 7), -1); /* another thread has it */
    TS_ASSERT_EQ_U(cs_thread_id(&m), 8);
    TS_ASSERT_EQ_I(cs_switch(&m, 7), 0);
    TS_ASSERT_EQ_U(cs_depth(&m), 1);
    cs_clear_all(&m);
    cs_free(&m);
}

TS_TEST_MAIN()
