/* irq.c - machine timer and software interrupts: direct and vectored mtvec, mcause, mepc,
 * masking by mie and mstatus.MIE, and WFI wake-up (also with interrupts globally off). */
#include <stdint.h>
#include "bsp.h"
#include "check.h"

static volatile uint32_t timer_hits, soft_hits, last_cause, vec_slot;

static uint32_t on_timer(uint32_t cause, uint32_t epc, uint32_t tval) {
    timer_hits++;
    last_cause = cause;
    ts_set_mtimecmp(~0ull);           /* acknowledge: no further timer interrupt */
    return epc;
}
static uint32_t on_soft(uint32_t cause, uint32_t epc, uint32_t tval) {
    soft_hits++;
    last_cause = cause;
    TS_CLINT(MSIP) = 0;
    return epc;
}

/* vectored table: slot n records n, then joins the common entry */
void vec_table(void);
__asm__(".section .text.vec_table, \"ax\"\n"
        ".balign 64\n"
        "vec_table:\n"
        ".option push\n.option norvc\n"
        "  j vec_other\n  j vec_other\n  j vec_other\n  j vec_slot3\n"
        "  j vec_other\n  j vec_other\n  j vec_other\n  j vec_slot7\n"
        "  j vec_other\n  j vec_other\n  j vec_other\n  j vec_other\n"
        ".option pop\n"
        "vec_slot3: addi sp, sp, -16\n sw t0, 0(sp)\n li t0, 3\n j vec_record\n"
        "vec_slot7: addi sp, sp, -16\n sw t0, 0(sp)\n li t0, 7\n j vec_record\n"
        "vec_other: addi sp, sp, -16\n sw t0, 0(sp)\n li t0, 99\n"
        "vec_record: sw t1, 4(sp)\n la t1, vec_slot\n sw t0, 0(t1)\n"
        "  lw t0, 0(sp)\n lw t1, 4(sp)\n addi sp, sp, 16\n"
        "  j ts_trap_entry\n");

int main(void) {
    ts_set_trap_handler(0x80000007u, on_timer);
    ts_set_trap_handler(0x80000003u, on_soft);

    /* 1. timer interrupt, direct mode */
    TS_CSR_SET(mie, 1u << 7);
    TS_CSR_SET(mstatus, 1u << 3);
    ts_set_mtimecmp(ts_mtime() + 5);
    while (!timer_hits) { }
    CHECK_EQ(timer_hits, 1);
    CHECK_EQ(last_cause, 0x80000007u);

    /* 2. masked by mie: no interrupt while MTIE is clear, taken when it is set */
    TS_CSR_CLEAR(mie, 1u << 7);
    ts_set_mtimecmp(ts_mtime() + 2);
    uint64_t t0 = ts_mtime();
    while (ts_mtime() < t0 + 10) { }
    CHECK_EQ(timer_hits, 1);
    CHECK_EQ((TS_CSR_READ(mip) >> 7) & 1, 1);      /* pending */
    TS_CSR_SET(mie, 1u << 7);
    __asm__ volatile("nop; nop; nop");
    CHECK_EQ(timer_hits, 2);

    /* 3. software interrupt through CLINT msip */
    TS_CSR_SET(mie, 1u << 3);
    TS_CLINT(MSIP) = 1;
    __asm__ volatile("nop; nop; nop");
    CHECK_EQ(soft_hits, 1);
    CHECK_EQ(last_cause, 0x80000003u);

    /* 4. WFI with interrupts enabled: wakes and takes the interrupt */
    ts_set_mtimecmp(ts_mtime() + 20);
    __asm__ volatile("wfi");
    CHECK_EQ(timer_hits, 3);

    /* 5. WFI with mstatus.MIE = 0: wakes on a pending enabled interrupt, no trap */
    TS_CSR_CLEAR(mstatus, 1u << 3);
    ts_set_mtimecmp(ts_mtime() + 20);
    __asm__ volatile("wfi");
    CHECK_EQ(timer_hits, 3);
    CHECK_EQ((TS_CSR_READ(mip) >> 7) & 1, 1);
    ts_set_mtimecmp(~0ull);
    CHECK_EQ((TS_CSR_READ(mip) >> 7) & 1, 0);

    /* 6. vectored mode: the timer goes to slot 7, the software interrupt to slot 3 */
    uint32_t saved = TS_CSR_READ(mtvec);
    TS_CSR_WRITE(mtvec, (uint32_t)(uintptr_t)vec_table | 1);
    TS_CSR_SET(mstatus, 1u << 3);
    ts_set_mtimecmp(ts_mtime() + 3);
    while (timer_hits < 4) { }
    CHECK_EQ(vec_slot, 7);
    TS_CLINT(MSIP) = 1;
    while (soft_hits < 2) { }
    CHECK_EQ(vec_slot, 3);
    /* exceptions in vectored mode go to the base (slot 0) */
    vec_slot = 0;
    ts_set_trap_handler(11, 0);
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_WRITE(mtvec, saved);

    /* 7. the interrupted code resumes exactly: a counting loop loses no iteration */
    TS_CSR_SET(mstatus, 1u << 3);
    volatile uint32_t count = 0;
    ts_set_mtimecmp(ts_mtime() + 2);
    for (int i = 0; i < 2000; i++) count++;
    CHECK_EQ(count, 2000);
    CHECK_EQ(timer_hits, 5);
    printf("irq: all checks passed\n");
    return 0;
}
