/* switch_msip.c - a preemptive switcher written apart from the examples: CLINT timer switches 3 threads round robin; thread 1
 * also raises the machine software interrupt (a second source) every 4th item; the trap
 * vector restores tp from the frame it resumes (a tp write = THREAD_SWITCH with
 * --stm-thread-switch). Unlike rr_threads.c, main never writes tp before the first switch.
 * By hand: sum_r 160 calls (main 8 x 11, thread 2 12 x 6), mix 36 (24 + 12), on_soft 6 (every
 * 4th of thread 1's 24 items), t0_body, t1_body, t2_body 1 each, on_tick one per timer
 * interrupt (the count main prints as ticks=); software-interrupt traps rewrite the same tp
 * (not a switch). tests/outside_switch_test.sh. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "ts_stm.h"

#define NI __attribute__((no_instrument_function))
struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;
static perfEvent counters[] = {
    {.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
    {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
};

#define TICK 20 /* mtime ticks (1 MHz): 2000 core cycles */
typedef struct { uint32_t sp; uint32_t tp_tag; volatile uint32_t done; } kthread_t;
static kthread_t th[3];
static volatile unsigned cur, stopping, nticks, nsoft;
static uint32_t stk[2][512] __attribute__((aligned(16)));

/* the frame k_trap pushes: 32 words, word i = x_i (x2 unused), word 0 = mepc */
__asm__(".section .text.k_trap,\"ax\"\n.align 4\n.globl k_trap\nk_trap:\n"
        "  addi sp, sp, -128\n"
        "  .irp i,1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        "  sw x\\i, (\\i*4)(sp)\n  .endr\n"
        "  csrr t0, mepc\n  sw t0, 0(sp)\n"
        "  mv a0, sp\n  call k_dispatch\n  mv sp, a0\n"
        "  lw t0, 0(sp)\n  csrw mepc, t0\n"
        "  .irp i,1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        "  lw x\\i, (\\i*4)(sp)\n  .endr\n"
        "  addi sp, sp, 128\n  mret\n.text\n");
void k_trap(void);

/* instrumented work */
__attribute__((noinline)) unsigned sum_r(unsigned n) { return n ? n + sum_r(n - 1) : 0; }
__attribute__((noinline)) unsigned mix(unsigned x) {
    for (unsigned i = 0; i < 16; i++) x = (x ^ (x >> 5)) * 0x9E3779B1u + i;
    return x;
}
__attribute__((noinline)) void on_tick(unsigned n) { nticks = n; }
__attribute__((noinline)) void on_soft(void) { nsoft++; }

__attribute__((noinline)) unsigned t0_body(void) {
    unsigned s = 0;
    for (unsigned r = 0; r < 8; r++) s += sum_r(10);
    return s;
}
__attribute__((noinline)) void t1_body(void) {
    unsigned s = 1;
    for (unsigned r = 0; r < 24; r++) {
        s = mix(s + r);
        if (r % 4 == 3) TS_CLINT(MSIP) = 1; /* taken right here */
    }
    th[1].done = s | 1;
}
__attribute__((noinline)) void t2_body(void) {
    unsigned s = 2;
    for (unsigned r = 0; r < 12; r++) s += sum_r(5) + mix(r);
    th[2].done = s | 1;
}

static NI void t_entry(unsigned id) {
    if (id == 1) t1_body(); else t2_body();
    for (;;) __asm__ volatile("" ::: "memory");
}

static unsigned ticks;
NI uint32_t k_dispatch(uint32_t sp) {
    uint32_t mcause = TS_CSR_READ(mcause);
    if (mcause == 0x80000007u) {
        ticks++;
        on_tick(ticks);
        ts_set_mtimecmp(stopping ? ~0ull : ts_mtime() + TICK);
        th[cur].sp = sp;
        cur = (cur + 1) % 3;
        return th[cur].sp;
    }
    if (mcause == 0x80000003u) {
        TS_CLINT(MSIP) = 0;
        on_soft();
        return sp;
    }
    printf("unexpected mcause %lx\n", (unsigned long)mcause);
    for (;;) ;
}

int main(void) {
    int rc = perfInit(1, 0);
    if (rc == 0) rc = perfFuncEntryExitInit(counters, 2, 6, perfCount_Delta, 0);
    if (rc != 0) { printf("perf: %s\n", perfErrorString(rc)); return 1; }
    ts_stm_enable(0);
    uint32_t gp;
    __asm__ volatile("mv %0, gp" : "=r"(gp));
    for (unsigned i = 1; i < 3; i++) {
        uint32_t *f = &stk[i - 1][512 - 32];
        for (unsigned j = 0; j < 32; j++) f[j] = 0;
        f[0] = (uint32_t)t_entry; /* mepc */
        f[3] = gp;
        f[4] = (uint32_t)&th[i]; /* tp: the control block */
        f[10] = i;               /* a0 */
        th[i].sp = (uint32_t)f;
    }
    TS_CSR_WRITE(mtvec, (uint32_t)k_trap);
    perfTraceOn();
    ts_set_mtimecmp(ts_mtime() + TICK);
    TS_CSR_SET(mie, (1u << 7) | (1u << 3));
    TS_CSR_SET(mstatus, 1u << 3);
    unsigned s = t0_body();
    while (!th[1].done || !th[2].done) __asm__ volatile("" ::: "memory");
    stopping = 1;
    TS_CSR_CLEAR(mstatus, 1u << 3);
    perfTraceOff();
    printf("s=%u ticks=%u soft=%u\n", s, ticks, nsoft);
    rc = perfWriteTrace(NULL);
    return rc ? 1 : 0;
}
