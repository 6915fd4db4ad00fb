/* prof_accept.c - the acceptance program of the profilers (issue 35): written apart from the
 * examples, it mixes everything that makes control leave a function some other way than by
 * its return. Built with -finstrument-functions (the perf library's entry/exit mode); run with
 * --stm-thread-switch (every write to tp is a THREAD_SWITCH event).
 *
 * A kernel of its own: one trap vector (kv_vector) for the timer interrupt and for ecall. It
 * pushes x1 and x3..x31 and mepc onto the running stack (a 144-byte frame, tp at offset 16),
 * hands the frame to kv_trap, and restores whatever frame kv_trap returns: the same one, or
 * another thread's (the load of tp from that frame is the thread switch).
 *  - timer: kv_trap calls the instrumented tick_account (an interrupt handler calling
 *    instrumented functions: tick_account -> fold), rearms the timer and switches to the next
 *    thread that has not finished (preemption, round robin; built with KV_PRIO_MAIN, as
 *    prof_accept_prio, every other switch goes to main: not the order the threads left);
 *  - ecall: a7 = 1 yields (a switch), a7 = 2 returns checksum(a0) in a0 (instrumented, run
 *    inside the trap); either way mepc moves past the ecall.
 * Three threads with their own stacks and tp:
 *  - main: a recursive tree walk (walk), and checksum ecalls;
 *  - pipe: jobs of three nested instrumented stages; every third job's last stage longjmps
 *    back to the setjmp in pipe_main, out of stage_c, stage_b and stage_a;
 *  - sorter: a recursive quicksort (qsort_rec, partition), yielding by ecall between rounds.
 * A thread that finishes returns into kv_exit (uninstrumented), which marks it done and
 * yields for ever; main waits for the two others by yielding. */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bsp.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "ts_stm.h"

#define KV_NOINSTR __attribute__((no_instrument_function))
#define KV_NTHR 3
#define KV_STACK 1024                 /* words per thread */
#define KV_FRAME 36                   /* words: x0..x31 slots (x0, x2 unused), mepc at 32, pad */
#ifndef KV_TICK
#define KV_TICK 17                    /* mtime units (100 core cycles each) */
#endif

typedef struct kv_thread { uint32_t *frame; volatile uint32_t done; uint32_t id; } kv_thread_t;
static kv_thread_t kv_thr[KV_NTHR];
static kv_thread_t *volatile kv_cur = &kv_thr[0];
static uint32_t kv_stacks[KV_NTHR - 1][KV_STACK] __attribute__((aligned(16)));
static volatile uint32_t kv_ticks, kv_ecalls, kv_switches, kv_off;
volatile uint32_t acc_sink;

/* ---- instrumented work ---------------------------------------------------------------- */
__attribute__((noinline)) uint32_t fold(uint32_t a, uint32_t b) { return (a ^ (b << 5)) * 0x01000193u + (b >> 3); }

/* run inside the timer interrupt, on the interrupted thread's stack */
__attribute__((noinline)) void tick_account(uint32_t thread, uint32_t n) { acc_sink += fold(thread, n) + fold(n, acc_sink); }

__attribute__((noinline)) uint32_t checksum(uint32_t x) {
    uint32_t s = 0;
    for (unsigned i = 0; i < 6; i++) s = fold(s, x + i);
    return s;
}

__attribute__((noinline)) uint32_t walk(uint32_t depth, uint32_t seed) {
    if (!depth) return fold(seed, 7);
    return walk(depth - 1, seed * 3u + 1u) + walk(depth - 1, seed ^ depth);
}

static jmp_buf pipe_env;

__attribute__((noinline)) uint32_t stage_c(uint32_t job, uint32_t v) {
    v = fold(v, job);
    if (job % 3 == 2) longjmp(pipe_env, (int)job + 1);   /* out of stage_c, stage_b, stage_a */
    return v;
}
__attribute__((noinline)) uint32_t stage_b(uint32_t job, uint32_t v) { return stage_c(job, v + 11u) ^ job; }
__attribute__((noinline)) uint32_t stage_a(uint32_t job) {
    uint32_t v = job * 0x9E3779B9u;
    for (unsigned i = 0; i < 3; i++) v = fold(v, i);
    return stage_b(job, v) + 1u;
}

static uint32_t sort_buf[48];

__attribute__((noinline)) unsigned partition(uint32_t *a, unsigned lo, unsigned hi) {
    uint32_t p = a[hi];
    unsigned i = lo;
    for (unsigned j = lo; j < hi; j++)
        if (a[j] < p) { uint32_t t = a[i]; a[i] = a[j]; a[j] = t; i++; }
    uint32_t t = a[i]; a[i] = a[hi]; a[hi] = t;
    return i;
}

__attribute__((noinline)) void qsort_rec(uint32_t *a, unsigned lo, unsigned hi) {
    if (lo >= hi) return;
    unsigned m = partition(a, lo, hi);
    if (m > lo) qsort_rec(a, lo, m - 1);
    qsort_rec(a, m + 1, hi);
}

static inline KV_NOINSTR uint32_t kv_ecall(uint32_t num, uint32_t arg) {
    register uint32_t a0 __asm__("a0") = arg;
    register uint32_t a7 __asm__("a7") = num;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

__attribute__((noinline)) void pipe_main(uint32_t jobs) {
    volatile uint32_t job = 0, sum = 0;
    if (setjmp(pipe_env)) job++;      /* a job's last stage left by longjmp: the next job */
    for (; job < jobs; job++) sum += stage_a(job);
    acc_sink += sum;
}

__attribute__((noinline)) void sorter_main(uint32_t rounds) {
    for (uint32_t r = 0; r < rounds; r++) {
        for (unsigned i = 0; i < sizeof sort_buf / sizeof sort_buf[0]; i++) sort_buf[i] = fold(i, r) % 1000u;
        qsort_rec(sort_buf, 0, sizeof sort_buf / sizeof sort_buf[0] - 1);
        kv_ecall(1, 0);               /* yield */
    }
}

__attribute__((noinline)) void main_work(uint32_t rounds) {
    for (uint32_t r = 0; r < rounds; r++) {
        acc_sink += walk(4, r);
        acc_sink += kv_ecall(2, r);   /* checksum in the trap */
    }
}

/* ---- the kernel (not instrumented) ---------------------------------------------------- */
#ifdef KV_PRIO_MAIN
/* the variant prof_accept_prio: main has priority, every other switch goes back to it (the
 * order 0 1 0 2 0 1 ...), so a thread does not resume in the order the threads were left -
 * at a 2 -> 0 switch thread 1 has waited longer than main (a round robin would resume it) */
static const uint8_t kv_order[4] = {1, 0, 2, 0};
static uint32_t kv_slot;
static KV_NOINSTR uint32_t *kv_next(uint32_t *frame) {
    kv_cur->frame = frame;
    for (unsigned k = 0; k < 4; k++) {
        kv_thread_t *t = &kv_thr[kv_order[kv_slot++ % 4]];
        if (!t->done || t == kv_cur) {
            if (t != kv_cur) kv_switches++;
            kv_cur = t;
            return t->frame;
        }
    }
    return frame;
}
#else
static KV_NOINSTR uint32_t *kv_next(uint32_t *frame) {
    kv_cur->frame = frame;
    unsigned i = (unsigned)(kv_cur - kv_thr);
    for (unsigned k = 1; k <= KV_NTHR; k++) {
        kv_thread_t *t = &kv_thr[(i + k) % KV_NTHR];
        if (!t->done || t == kv_cur) {
            if (t != kv_cur) kv_switches++;
            kv_cur = t;
            return t->frame;
        }
    }
    return frame;
}
#endif

KV_NOINSTR uint32_t *kv_trap(uint32_t *frame, uint32_t mcause) {
    if (mcause == 0x80000007u) {
        kv_ticks++;
        tick_account(kv_cur->id, kv_ticks);
        ts_set_mtimecmp(kv_off ? ~0ull : ts_mtime() + KV_TICK);
        return kv_next(frame);
    }
    if (mcause == 11u) {
        kv_ecalls++;
        frame[32] += 4;               /* past the ecall */
        if (frame[17] == 1u) return kv_next(frame);
        frame[10] = checksum(frame[10]);
        return frame;
    }
    exit(90);                         /* nothing else is expected */
    return frame;
}

/* a thread's entry function returns here: done, then yield until the program ends */
static KV_NOINSTR void kv_exit(void) {
    kv_cur->done = 1;
    for (;;) kv_ecall(1, 0);
}

__asm__(".section .text.kv_vector, \"ax\"\n"
        ".align 4\n"
        ".globl kv_vector\nkv_vector:\n"
        "  addi sp, sp, -144\n"
        "  sw x1, 4(sp)\n  sw x3, 12(sp)\n  sw x4, 16(sp)\n  sw x5, 20(sp)\n  sw x6, 24(sp)\n  sw x7, 28(sp)\n"
        "  sw x8, 32(sp)\n  sw x9, 36(sp)\n  sw x10, 40(sp)\n  sw x11, 44(sp)\n  sw x12, 48(sp)\n  sw x13, 52(sp)\n"
        "  sw x14, 56(sp)\n  sw x15, 60(sp)\n  sw x16, 64(sp)\n  sw x17, 68(sp)\n  sw x18, 72(sp)\n  sw x19, 76(sp)\n"
        "  sw x20, 80(sp)\n  sw x21, 84(sp)\n  sw x22, 88(sp)\n  sw x23, 92(sp)\n  sw x24, 96(sp)\n  sw x25, 100(sp)\n"
        "  sw x26, 104(sp)\n  sw x27, 108(sp)\n  sw x28, 112(sp)\n  sw x29, 116(sp)\n  sw x30, 120(sp)\n  sw x31, 124(sp)\n"
        "  csrr t0, mepc\n  sw t0, 128(sp)\n"
        "  mv a0, sp\n  csrr a1, mcause\n"
        "  call kv_trap\n"
        "  mv sp, a0\n"
        "  lw t0, 128(sp)\n  csrw mepc, t0\n"
        "  lw x1, 4(sp)\n  lw x3, 12(sp)\n  lw x4, 16(sp)\n  lw x5, 20(sp)\n  lw x6, 24(sp)\n  lw x7, 28(sp)\n"
        "  lw x8, 32(sp)\n  lw x9, 36(sp)\n  lw x10, 40(sp)\n  lw x11, 44(sp)\n  lw x12, 48(sp)\n  lw x13, 52(sp)\n"
        "  lw x14, 56(sp)\n  lw x15, 60(sp)\n  lw x16, 64(sp)\n  lw x17, 68(sp)\n  lw x18, 72(sp)\n  lw x19, 76(sp)\n"
        "  lw x20, 80(sp)\n  lw x21, 84(sp)\n  lw x22, 88(sp)\n  lw x23, 92(sp)\n  lw x24, 96(sp)\n  lw x25, 100(sp)\n"
        "  lw x26, 104(sp)\n  lw x27, 108(sp)\n  lw x28, 112(sp)\n  lw x29, 116(sp)\n  lw x30, 120(sp)\n  lw x31, 124(sp)\n"
        "  addi sp, sp, 144\n"
        "  mret\n"
        ".text\n");
void kv_vector(void);

/* a new thread's first frame at the top of its stack: mret "returns" to entry(arg), whose
 * return goes to kv_exit */
static KV_NOINSTR void kv_spawn(unsigned i, void (*entry)(uint32_t), uint32_t arg) {
    uint32_t *f = &kv_stacks[i - 1][KV_STACK - KV_FRAME];
    uint32_t gp;
    __asm__ volatile("mv %0, gp" : "=r"(gp));
    for (unsigned k = 0; k < KV_FRAME; k++) f[k] = 0;
    f[1] = (uint32_t)(uintptr_t)kv_exit;       /* ra */
    f[3] = gp; /* gp: the linker may relax accesses to globals to gp-relative ones (binutils 2.44) */
    f[4] = (uint32_t)(uintptr_t)&kv_thr[i];    /* tp */
    f[10] = arg;                               /* a0 */
    f[32] = (uint32_t)(uintptr_t)entry;        /* mepc */
    kv_thr[i].frame = f;
    kv_thr[i].id = i;
}

int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
    ts_stm_enable(0);
    kv_spawn(1, pipe_main, 9);
    kv_spawn(2, sorter_main, 4);
    uint32_t old_mtvec = TS_CSR_READ(mtvec);
    TS_CSR_WRITE(mtvec, (uint32_t)(uintptr_t)kv_vector);
    perfTraceOn();
    __asm__ volatile("mv tp, tp");    /* names main's thread before the first switch */
    ts_set_mtimecmp(ts_mtime() + KV_TICK);
    TS_CSR_SET(mie, 1u << 7);
    TS_CSR_SET(mstatus, 1u << 3);
    main_work(5);
    while (!kv_thr[1].done || !kv_thr[2].done) kv_ecall(1, 0);
    kv_off = 1;
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_CLEAR(mie, 1u << 7);
    ts_set_mtimecmp(~0ull);
    TS_CSR_WRITE(mtvec, old_mtvec);
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("prof_accept: %lu ticks, %lu ecalls, %lu switches, %lu records%s\n", (unsigned long)kv_ticks,
           (unsigned long)kv_ecalls, (unsigned long)kv_switches, (unsigned long)st.records,
           st.stopped ? " (buffer full: tracing stopped)" : "");
    rc = perfWriteTrace(NULL);
    return rc ? rc : st.stopped ? 4 : 0;
}
