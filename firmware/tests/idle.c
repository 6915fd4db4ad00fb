/* idle.c - idle loops that an interrupt ends: not hangs (sim/hang.h). Each wait lasts about
 * 20 000 cycles (mtimecmp 200 ticks ahead, 100 cycles per tick), so several of tracesim's
 * hang probes (every 4096 cycles) see it. Exits 9 from the timer ISR of the last part.
 *   1. wfi with interrupts globally off and MTIE set: the timer wakes it (no trap)
 *   2. a loop polling a UART register until the timer ISR sets a flag
 *   3. wfi with the timer interrupt enabled: the ISR runs, then main carries on
 *   4. wfi with only LCOFIE enabled, interrupts globally off: mhpmcounter3 counts the wfi
 *      cycles from 2^40 - 20000 (40-bit counters, the default) and its overflow wakes it
 *   5. `j .` with the timer interrupt enabled: the ISR skips the jump
 *   6. `j .` in U-mode with mstatus.MIE clear and MTIE set: a machine interrupt is taken in a
 *      lower mode whatever MIE says (the privilege rule); the ISR exits 9 */
#include <stdint.h>
#include <stdlib.h>
#include "bsp.h"
#include "ts_hpm.h"
#include "check.h"

static volatile uint32_t ticks;

static uint32_t on_timer(uint32_t cause, uint32_t epc, uint32_t tval) {
    (void)cause; (void)tval;
    ts_set_mtimecmp(~0ull);
    ++ticks;
    if (ticks == 3) return epc + (((*(volatile uint16_t *)(uintptr_t)epc) & 3) == 3 ? 4 : 2);
    if (ticks == 4) exit(9);
    return epc;
}

int main(void) {
    ts_set_trap_handler(0x80000007u, on_timer);
    TS_CSR_WRITE(mie, 1u << 7);

    /* 1 */
    ts_set_mtimecmp(ts_mtime() + 200);
    __asm__ volatile("wfi");
    CHECK_EQ((TS_CSR_READ(mip) >> 7) & 1, 1);
    ts_set_mtimecmp(~0ull);

    /* 2 */
    TS_CSR_SET(mstatus, 1u << 3);
    ts_set_mtimecmp(ts_mtime() + 200);
    while (!ticks) (void)TS_UART(TXDATA);
    CHECK_EQ(ticks, 1);

    /* 3 */
    ts_set_mtimecmp(ts_mtime() + 200);
    while (ticks < 2) __asm__ volatile("wfi");

    /* 4 */
    TS_CSR_CLEAR(mstatus, 1u << 3);
    TS_CSR_WRITE(mie, 1u << 13);
    TS_CSR_WRITE(mcountinhibit, 0);
    TS_CSR_WRITE(mhpmevent3, TS_HPM_WFI);
    TS_CSR_WRITE(mhpmcounter3, 0);
    TS_CSR_WRITE(mhpmcounter3h, 0xFF);
    TS_CSR_WRITE(mhpmcounter3, (uint32_t)-20000);
    __asm__ volatile("wfi");
    CHECK_EQ((TS_CSR_READ(mip) >> 13) & 1, 1);
    TS_CSR_WRITE(mhpmevent3, 0);
    TS_CSR_CLEAR(mip, 1u << 13);
    TS_CSR_WRITE(mie, 1u << 7);
    TS_CSR_SET(mstatus, 1u << 3);

    /* 5 */
    ts_set_mtimecmp(ts_mtime() + 200);
    __asm__ volatile("1: j 1b");
    CHECK_EQ(ticks, 3);

    /* 6: mret to U-mode with MPP = U, MPIE = 0 */
    ts_set_mtimecmp(ts_mtime() + 200);
    __asm__ volatile("la t0, 1f\n csrw mepc, t0\n li t0, 0x1888\n csrc mstatus, t0\n mret\n"
                     "1: j 1b" ::: "t0", "memory");
    return 1;
}
