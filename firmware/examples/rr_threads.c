/* rr_threads.c - a preemptive round-robin scheduler with three threads, profiled by the perf
 * library in function entry/exit mode (built with -finstrument-functions).
 *
 * A CLINT timer interrupt every TICK_US microseconds enters the program's own trap vector
 * (rr_trap): it saves every register and mepc on the running thread's stack, keeps that sp
 * in the thread's control block, takes the next thread's sp and loads its tp, restores its
 * registers and returns with mret. The tp load is the thread switch: `tracesim run
 * --stm-thread-switch` turns every write to tp into a THREAD_SWITCH event (value = the new
 * tp, the address of the thread's control block), from which `tracesim report` keeps one
 * call stack per thread (docs/commands/report.md).
 *
 * The threads: alpha (main itself, tp as the BSP set it) sums a recursive walk (rr_tree),
 * beta hashes in a loop (rr_hash), gamma does both through a shared helper (rr_mix). Every
 * function but the scheduler's is instrumented. After the three are done main switches the
 * timer off and writes the trace.
 *
 *   tracesim run --stm-thread-switch build/firmware/examples/rr_threads.elf
 *   tracesim report runs/rr_threads          # a profile per thread and in total */
#include <stdint.h>
#include <stdio.h>

#include "bsp.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "ctx_switch.h"
#include "ts_stm.h"

#define NO_INSTR __attribute__((no_instrument_function))
#define N_THREADS 3
#define STACK_WORDS 1024
#ifndef TICK_US
#define TICK_US 25                    /* 2500 core cycles at 100 MHz */
#endif
#ifndef ROUNDS
#define ROUNDS 6
#endif

typedef struct rr_thread {
    uint32_t sp, tp;                  /* rr_trap's offsets 0 and 4 */
    const char *name;
    volatile uint32_t done, result;
} rr_thread_t;

static rr_thread_t threads[N_THREADS];
rr_thread_t *volatile rr_cur = &threads[0];
static uint32_t stacks[N_THREADS][STACK_WORDS] __attribute__((aligned(16)));
static volatile uint32_t ticks, stopping;

/* the threads' work (instrumented) */
__attribute__((noinline)) uint32_t rr_leaf(uint32_t x) { return x * 2654435761u + 12345u; }

__attribute__((noinline)) uint32_t rr_tree(uint32_t depth, uint32_t x) {
    if (!depth) return rr_leaf(x);
    return rr_tree(depth - 1, x) ^ rr_tree(depth - 1, x + depth);
}

__attribute__((noinline)) uint32_t rr_hash(uint32_t x) {
    for (unsigned i = 0; i < 64; i++) x = (x ^ (x >> 7)) * 0x9E3779B1u + i;
    return x;
}

__attribute__((noinline)) uint32_t rr_mix(uint32_t x) { return rr_hash(x) + rr_tree(3, x); }

__attribute__((noinline)) void rr_alpha(rr_thread_t *t) {
    uint32_t s = 0;
    for (unsigned r = 0; r < ROUNDS; r++) s += rr_tree(5, r);
    t->result = s;
}

__attribute__((noinline)) void rr_beta(rr_thread_t *t) {
    uint32_t s = 1;
    for (unsigned r = 0; r < 4 * ROUNDS; r++) s = rr_hash(s + r);
    t->result = s;
}

__attribute__((noinline)) void rr_gamma(rr_thread_t *t) {
    uint32_t s = 2;
    for (unsigned r = 0; r < 2 * ROUNDS; r++) s = rr_mix(s) + rr_leaf(r);
    t->result = s;
}

/* a new thread starts here (from the trap frame main made for it) and, once done, waits for
 * the others in a loop the next ticks take it out of */
static NO_INSTR void thread_entry(void) {
    rr_thread_t *t = rr_cur;
    if (t == &threads[1]) rr_beta(t);
    else rr_gamma(t);
    t->done = 1;
    for (;;) __asm__ volatile("" ::: "memory");
}

/* called by rr_trap with the running thread's sp saved: the next thread, the next tick */
NO_INSTR void rr_schedule(void) {
    ticks++;
    ts_set_mtimecmp(stopping ? ~0ull : ts_mtime() + TICK_US);
    rr_cur = &threads[(uint32_t)(rr_cur - threads + 1) % N_THREADS];
}

/* the timer's trap vector: every register but sp (and mepc) on the thread's stack, sp and
 * tp into its control block; then the next thread's sp and tp (the thread switch), its
 * registers, mret */
CTX_SWITCH_TRAP(rr_trap, rr_cur, rr_schedule);   /* ctx_switch.h */

int main(void) {
    static const char *const names[N_THREADS] = {"alpha", "beta", "gamma"};
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
    ts_stm_enable(0);                 /* the software trace port: THREAD_SWITCH events */
    /* alpha is main (tp: the BSP's TLS block); beta and gamma start from a made-up trap frame
     * at the top of their stacks that "returns" to thread_entry, tp their control block
     * (they call nothing that uses thread-local storage) */
    uint32_t tp0;
    __asm__ volatile("mv %0, tp" : "=r"(tp0));
    threads[0].tp = tp0;
    for (unsigned i = 0; i < N_THREADS; i++) threads[i].name = names[i];
    for (unsigned i = 1; i < N_THREADS; i++) {
        uint32_t *f = &stacks[i][STACK_WORDS - 32];
        for (unsigned k = 0; k < 32; k++) f[k] = 0;
        f[28] = (uint32_t)(uintptr_t)thread_entry;     /* mepc, offset 112 */
        threads[i].sp = (uint32_t)(uintptr_t)f;
        threads[i].tp = (uint32_t)(uintptr_t)&threads[i];
    }
    uint32_t old_mtvec = TS_CSR_READ(mtvec);
    TS_CSR_WRITE(mtvec, (uint32_t)(uintptr_t)rr_trap);
    perfTraceOn();
    /* names the running thread (alpha) in the trace before the first tick: a write to tp is a
     * THREAD_SWITCH, and the profilers give it the frames opened before any switch */
    __asm__ volatile("mv tp, tp");
    ts_set_mtimecmp(ts_mtime() + TICK_US);
    TS_CSR_SET(mie, 1u << 7);
    TS_CSR_SET(mstatus, 1u << 3);
    rr_alpha(&threads[0]);
    threads[0].done = 1;
    while (!threads[1].done || !threads[2].done) __asm__ volatile("" ::: "memory");
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_CLEAR(mie, 1u << 7);
    stopping = 1;
    ts_set_mtimecmp(~0ull);
    TS_CSR_WRITE(mtvec, old_mtvec);
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("rr_threads: %lu ticks, %lu records%s\n", (unsigned long)ticks, (unsigned long)st.records,
           st.stopped ? " (buffer full: tracing stopped)" : "");
    for (unsigned i = 0; i < N_THREADS; i++)
        printf("  %-5s tp 0x%08lx result 0x%08lx\n", threads[i].name, (unsigned long)threads[i].tp,
               (unsigned long)threads[i].result);
    rc = perfWriteTrace(NULL);
    return rc;
}
