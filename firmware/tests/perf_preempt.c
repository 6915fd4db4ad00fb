/* perf_preempt.c - a test of `tracesim check` under preemption: three threads with their own
 * stacks, switched round robin by a timer interrupt (its own trap vector saves every register
 * on the running thread's stack, keeps its sp, takes the next thread's sp and writes its `tp`,
 * as the BSP and the software trace port expect of a thread switch), run instrumented
 * functions with the perf library in function entry/exit mode (Delta). Every tick switches
 * threads, and the ticks come 23 to 53 cycles apart (a fixed sequence), so some land in a
 * hook between its entry and the record it writes with interrupts off: that record is
 * written after the thread resumes, with the other threads' records in between
 * (tests/perf_preempt_test.sh finds those ticks in the ground truth and checks the run). */
#include <stdint.h>
#include <stdio.h>

#include "bsp.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "ctx_switch.h"

#define NO_INSTR __attribute__((no_instrument_function))
#define NTHREADS 3
#define ROUNDS 8
#define STACK_WORDS 512

typedef struct thread { uint32_t sp, tp; } thread_t;   /* the trap vector's offsets 0 and 4 */
static thread_t threads[NTHREADS];
thread_t *volatile pp_cur = &threads[0];
static uint32_t stacks[NTHREADS][STACK_WORDS] __attribute__((aligned(16)));
static volatile uint32_t done, ticks, sink[NTHREADS];
static volatile int stop_ticks;

/* instrumented work: small functions called from several places */
static __attribute__((noinline)) uint32_t leaf(uint32_t x) { return x * 3u + 1u; }
static __attribute__((noinline)) uint32_t mid(uint32_t x) { return leaf(x) ^ leaf(x >> 1); }
static __attribute__((noinline)) uint32_t rec(uint32_t n) { return n < 2 ? leaf(n) : rec(n - 1) + mid(n); }

static __attribute__((noinline)) void worker(uint32_t id) {
    uint32_t x = id;
    for (uint32_t r = 0; r < ROUNDS; r++) x += rec(3 + (r + id) % 3) + mid(r);
    sink[id] = x;
}

/* a new thread starts here (from its made-up trap frame), ends in a loop until main exits */
static NO_INSTR void thread_entry(void) {
    uint32_t id = (uint32_t)(pp_cur - threads);
    worker(id);
    done++;
    for (;;) __asm__ volatile("" ::: "memory");
}

/* called by the trap vector with the running thread's sp saved: the next thread, the next
 * tick (23 to 53 cycles: the gaps vary, so that ticks land at every place of a hook) */
NO_INSTR void pp_switch(void) {
    uint32_t t = ++ticks;
    ts_set_mtimecmp(stop_ticks ? ~0ull : ts_mtime() + 23 + (t * 7u) % 31u);
    pp_cur = &threads[(uint32_t)(pp_cur - threads + 1) % NTHREADS];
}

/* the timer's trap vector: every register but sp on the thread's stack (with mepc), sp into
 * its thread_t, then the next thread's sp and tp, its registers, mret */
CTX_SWITCH_TRAP(pp_trap, pp_cur, pp_switch);   /* ctx_switch.h */

int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
    /* threads 1 and 2: a trap frame at the top of their stacks that "returns" to
     * thread_entry; their tp: their own thread_t (thread 0, main, keeps the BSP's) */
    for (unsigned i = 1; i < NTHREADS; i++) {
        uint32_t *f = &stacks[i][STACK_WORDS - 32];
        for (unsigned k = 0; k < 32; k++) f[k] = 0;
        f[28] = (uint32_t)(uintptr_t)thread_entry;     /* mepc, offset 112 */
        threads[i].sp = (uint32_t)(uintptr_t)f;
        threads[i].tp = (uint32_t)(uintptr_t)&threads[i];
    }
    uint32_t old_mtvec = TS_CSR_READ(mtvec);
    TS_CSR_WRITE(mtvec, (uint32_t)(uintptr_t)pp_trap);
    perfTraceOn();
    ts_set_mtimecmp(ts_mtime() + 29);
    TS_CSR_SET(mie, 1u << 7);
    TS_CSR_SET(mstatus, 1u << 3);
    worker(0);
    while (done < NTHREADS - 1) __asm__ volatile("" ::: "memory");
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_CLEAR(mie, 1u << 7);
    stop_ticks = 1;
    ts_set_mtimecmp(~0ull);
    TS_CSR_WRITE(mtvec, old_mtvec);
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("perf_preempt: %lu ticks, %lu records%s\n", (unsigned long)ticks, (unsigned long)st.records,
           st.stopped ? " (buffer full)" : "");
    rc = perfWriteTrace(NULL);
    return rc ? rc : (sink[0] && sink[1] && sink[2]) ? 0 : 3;
}
