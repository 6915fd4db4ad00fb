/* stm_threads.c - software trace events from a tiny cooperative scheduler
 * (docs/firmware/software-trace.md): three named threads take turns; a switch loads the next thread's tp, which
 * `tracesim run --stm-thread-switch` turns into THREAD_SWITCH events (value = the new tp).
 *
 * Each thread's tp is the address of its control block, which starts with the thread's own
 * copy of picolibc's thread-local storage (errno and friends, set up by picolibc's
 * _init_tls), so the threads may call printf. Each thread names itself once
 * (ts_stm_thread_name: THREAD_NAME, a COM event) and emits a USER event per work item:
 * EV_ITEM (id 1, value = thread << 16 | item) before and EV_RESULT (id 2, value = result)
 * after the work. The scheduler (main, tp = __tls_base) runs them round robin until all are
 * done.
 *
 *   tracesim run --stm-thread-switch build/firmware/examples/stm_threads.elf */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "ts_stm.h"

enum { EV_ITEM = 1, EV_RESULT = 2 };
#define N_THREADS 3
#define STACK_WORDS 512                       /* 2 KiB per thread */
#define TLS_BYTES 0x400                       /* tracesim.ld: __tls_size <= 1 KiB */

typedef struct {
    uint32_t ra, sp, s[12], tp;               /* ctx_switch's layout */
} ctx_t;

typedef struct thread {
    uint8_t tls[TLS_BYTES] __attribute__((aligned(16)));  /* first: tp = the block's address = its TLS */
    ctx_t ctx;
    const char *name;
    unsigned id, items, done;
    uint32_t stack[STACK_WORDS];
} thread_t;

static thread_t threads[N_THREADS];
static ctx_t sched_ctx;
static thread_t *current;

void _init_tls(void *tls);                    /* picolibc */
extern char __tls_size[];                     /* tracesim.ld */

/* ctx_switch(save, load): callee-saved registers, sp, ra and tp; the tp load is the thread
 * switch the core reports */
void ctx_switch(ctx_t *save, const ctx_t *load);
__asm__(".pushsection .text.ctx_switch, \"ax\"\n"
        ".globl ctx_switch\n"
        "ctx_switch:\n"
        "  sw ra, 0(a0)\n  sw sp, 4(a0)\n"
        "  sw s0, 8(a0)\n  sw s1, 12(a0)\n  sw s2, 16(a0)\n  sw s3, 20(a0)\n"
        "  sw s4, 24(a0)\n  sw s5, 28(a0)\n  sw s6, 32(a0)\n  sw s7, 36(a0)\n"
        "  sw s8, 40(a0)\n  sw s9, 44(a0)\n  sw s10, 48(a0)\n  sw s11, 52(a0)\n  sw tp, 56(a0)\n"
        "  lw ra, 0(a1)\n  lw sp, 4(a1)\n"
        "  lw s0, 8(a1)\n  lw s1, 12(a1)\n  lw s2, 16(a1)\n  lw s3, 20(a1)\n"
        "  lw s4, 24(a1)\n  lw s5, 28(a1)\n  lw s6, 32(a1)\n  lw s7, 36(a1)\n"
        "  lw s8, 40(a1)\n  lw s9, 44(a1)\n  lw s10, 48(a1)\n  lw s11, 52(a1)\n  lw tp, 56(a1)\n"
        "  ret\n"
        ".popsection\n");

static void yield(void) { ctx_switch(&current->ctx, &sched_ctx); }

static uint32_t work(uint32_t x) {            /* some arithmetic per item */
    uint32_t h = x;
    for (int i = 0; i < 20; i++) h = h * 1664525u + 1013904223u;
    return h >> 8;
}

static void thread_body(thread_t *t) {
    ts_stm_thread_name(t->name);
    for (unsigned item = 1; item <= t->items; item++) {
        ts_stm_event(EV_ITEM, t->id << 16 | item);
        uint32_t r = work(t->id << 16 | item);
        ts_stm_event(EV_RESULT, r);
        printf("  %-6s item %u -> 0x%06lx\n", t->name, item, (unsigned long)r);
        yield();
    }
}

static __attribute__((noreturn)) void thread_start(void) {
    thread_body(current);
    current->done = 1;
    for (;;) yield();
}

int main(void) {
    static const char *const names[N_THREADS] = {"alpha", "beta", "gamma"};
    if ((uintptr_t)__tls_size > TLS_BYTES) return 2;
    ts_stm_start(0, 0);
    for (unsigned i = 0; i < N_THREADS; i++) {
        thread_t *t = &threads[i];
        _init_tls(t->tls);
        t->name = names[i];
        t->id = i + 1;
        t->items = 2 + i;
        t->ctx.ra = (uint32_t)(uintptr_t)thread_start;
        t->ctx.sp = (uint32_t)(uintptr_t)&t->stack[STACK_WORDS];
        t->ctx.tp = (uint32_t)(uintptr_t)t;
        printf("thread %u %-6s tp 0x%08lx\n", t->id, t->name, (unsigned long)t->ctx.tp);
    }
    unsigned switches = 0, running;
    do {
        running = 0;
        for (unsigned i = 0; i < N_THREADS; i++) {
            if (threads[i].done) continue;
            current = &threads[i];
            ctx_switch(&sched_ctx, &current->ctx);
            switches++;
            running += !threads[i].done;
        }
    } while (running);
    ts_trace_flush(0);
    printf("stm_threads: %u switches into threads, stmLost %lu\n", switches, (unsigned long)ts_stm_lost(0));
    return ts_stm_lost(0) != 0;
}
