/* nested_traps.c - exceptions and nested interrupts under the perf library's function
 * entry/exit mode (built with -finstrument-functions): main calls work(r) for ROUNDS rounds;
 * a CLINT timer interrupt every TICK_US microseconds runs on_tick(), which raises a machine
 * software interrupt and turns interrupts back on, so that on_soft() runs nested inside it;
 * every third round work() makes an ecall, whose handler runs on_ecall() and returns past
 * the ecall. The handlers' own code (the BSP's trap entry and dispatch) is not
 * instrumented; on_tick, on_soft, on_ecall and what they call are.
 *
 *   tracesim run build/firmware/examples/nested_traps.elf && tracesim report --compensate RUN */
#include <stdint.h>
#include <stdio.h>

#include "bsp.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

#ifndef TICK_US
#define TICK_US 150                   /* 15000 core cycles at 100 MHz */
#endif
#ifndef ROUNDS
#define ROUNDS 12
#endif

volatile uint32_t sink;
static volatile uint32_t ticks, softs, ecalls;

__attribute__((noinline)) uint32_t leaf(uint32_t x) { return x * 2654435761u + (x >> 3); }

__attribute__((noinline)) void on_soft(void) {
    TS_CLINT(MSIP) = 0;
    softs++;
    sink += leaf(softs);
}

__attribute__((noinline)) void on_tick(void) {
    ticks++;
    ts_set_mtimecmp(ts_mtime() + TICK_US);
    /* a nested trap's mret leaves MPP = U and MPIE = 1: the trap's mstatus is kept for ours */
    uint32_t ms = TS_CSR_READ(mstatus);
    TS_CLINT(MSIP) = 1;               /* pending: taken as soon as interrupts are on */
    TS_CSR_SET(mstatus, 1u << 3);     /* nested: on_soft runs inside this function */
    for (uint32_t i = 0; i < 4; i++) sink += leaf(i + ticks);
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_WRITE(mstatus, ms);
}

__attribute__((noinline)) void on_ecall(uint32_t a) {
    ecalls++;
    sink += leaf(a);
}

__attribute__((noinline)) void work(uint32_t r) {
    for (uint32_t i = 0; i < 40; i++) sink += leaf(i ^ r);
    if (r % 3 == 0) {
        register uint32_t a0 __asm__("a0") = r;
        __asm__ volatile("ecall" : "+r"(a0) :: "memory");
    }
}

static TS_NOINSTR ts_reg_t timer_handler(ts_reg_t mcause, ts_reg_t mepc, ts_reg_t mtval) {
    (void)mcause; (void)mtval;
    on_tick();
    return mepc;
}

static TS_NOINSTR ts_reg_t soft_handler(ts_reg_t mcause, ts_reg_t mepc, ts_reg_t mtval) {
    (void)mcause; (void)mtval;
    on_soft();
    return mepc;
}

static TS_NOINSTR ts_reg_t ecall_handler(ts_reg_t mcause, ts_reg_t mepc, ts_reg_t mtval) {
    (void)mcause; (void)mtval;
    on_ecall(mepc);
    return mepc + 4;                  /* past the ecall */
}

int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return rc;
    }
    ts_set_trap_handler(0x80000007u, timer_handler);
    ts_set_trap_handler(0x80000003u, soft_handler);
    ts_set_trap_handler(11, ecall_handler);
    perfTraceOn();
    ts_set_mtimecmp(ts_mtime() + TICK_US);
    TS_CSR_SET(mie, (1u << 7) | (1u << 3));
    TS_CSR_SET(mstatus, 1u << 3);
    for (uint32_t r = 0; r < ROUNDS; r++) work(r);
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_CLEAR(mie, (1u << 7) | (1u << 3));
    ts_set_mtimecmp(~0ull);
    perfTraceOff();
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("nested_traps: %lu ticks, %lu nested software interrupts, %lu ecalls, %lu records%s\n",
           (unsigned long)ticks, (unsigned long)softs, (unsigned long)ecalls, (unsigned long)st.records,
           st.stopped ? " (buffer full: tracing stopped)" : "");
    rc = perfWriteTrace(NULL);
    return rc ? rc : (ticks && softs == ticks && ecalls == (ROUNDS + 2) / 3) ? 0 : 3;
}
