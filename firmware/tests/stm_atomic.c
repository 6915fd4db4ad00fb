/* stm_atomic.c - the software trace port's atomicity (docs/firmware/software-trace.md): N events
 * (id, value(id)) while the machine timer interrupts every few dozen cycles, at a varying
 * phase; the interrupt entry clobbers a0 (the BSP saves it, reads mcause into it and restores
 * it by a load) and the handler also writes junk into a0. tests/stm/atomic_test.sh checks in
 * flow.csv that some interrupt was taken on a `csrw 0x7c0` right after `mv a0, ...` and in
 * stm.csv that every event's value is value(id). Then the CSR write from U- and S-mode: an
 * illegal instruction (mcause 2, mtval the instruction) and no event. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "priv_support.h"
#include "ts_stm.h"

#define N 3000u
#define U_ID 0x3abc                          /* the id the lower modes try to emit */

static volatile uint32_t irqs, step;

/* the value of event id: anything a0 could not hold by accident (test script: same formula) */
static inline uint32_t value_of(uint32_t id) { return (id * 0x9E3779B1u) ^ 0xA5A5A5A5u; }

static uint32_t on_timer(uint32_t mcause, uint32_t mepc, uint32_t mtval) {
    irqs++;
    step = step % 7u + 1u;
    /* the next interrupt 1..7 ticks (100..700 cycles) away: every phase of the loop */
    ts_set_mtimecmp(ts_mtime() + step);
    __asm__ volatile("li a0, 0xdeadbeef" ::: "a0");
    return mepc;
}

static volatile uint32_t m_cause, m_tval, m_traps;
static uint32_t on_illegal(uint32_t mcause, uint32_t mepc, uint32_t mtval) {
    m_traps++;
    m_cause = mcause;
    m_tval = mtval;
    return mepc + insn_len(mepc);
}

static uint32_t lower_event(uint32_t v) {
    ts_stm_event(U_ID, v);
    return v + 1;
}

int main(void) {
    ts_stm_start(0, 0);
    ts_set_trap_handler(0x80000007u, on_timer);
    ts_set_mtimecmp(ts_mtime() + 1);
    TS_CSR_SET(mie, 1u << 7);
    TS_CSR_SET(mstatus, 8u);
    for (uint32_t id = 1; id <= N; id++) ts_stm_event((uint16_t)id, value_of(id));
    TS_CSR_CLEAR(mstatus, 8u);
    TS_CSR_CLEAR(mie, 1u << 7);
    uint32_t n_irqs = irqs;

    priv_init();
    ts_set_trap_handler(2, on_illegal);
    CHECK_EQ(priv_call(PRIV_U, lower_event, 0x55), 0x56);
    CHECK_EQ(m_traps, 1);
    CHECK_EQ(m_cause, 2);
    CHECK_EQ(m_tval & 0xFFF0007Fu, 0x7C000073u);     /* csrrw/csrrs with csr 0x7c0: SYSTEM */
    CHECK_EQ(priv_call(PRIV_S, lower_event, 0x77), 0x78);
    CHECK_EQ(m_traps, 2);
    CHECK_EQ(m_cause, 2);
    ts_trace_flush(0);
    printf("stm_atomic: %u events, %lu timer interrupts, stmLost %lu\n", N, (unsigned long)n_irqs,
           (unsigned long)ts_stm_lost(0));
    return n_irqs < 20;
}
