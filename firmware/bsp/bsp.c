/* bsp.c - tracesim board support (see bsp.h). */
#include "bsp.h"
#include <stdio.h>
#include <stdlib.h>

/* ---- stdio on the UART --------------------------------------------------------------- */
static int ts_uart_putc(char c, FILE *f) {
    (void)f;
    TS_UART(TXDATA) = (uint8_t)c;
    return (unsigned char)c;
}
static int ts_uart_getc(FILE *f) {
    (void)f;
    return EOF;
}

/* not static: ts_harts.c switches its put function to line-locked output (ts_harts.h) */
FILE ts_stdio = FDEV_SETUP_STREAM(ts_uart_putc, ts_uart_getc, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &ts_stdio;
FILE *const stdout = &ts_stdio;
FILE *const stderr = &ts_stdio;

void _exit(int code) {
    ts_flush_line(); /* several harts: this hart's unterminated line */
    TS_SIMCTRL(EXIT) = (uint32_t)code;
    for (;;) __asm__ volatile("wfi");
}

/* ---- traps ---------------------------------------------------------------------------- */
static ts_trap_handler_t exc_handlers[16];
static ts_trap_handler_t irq_handlers[16];

void ts_set_trap_handler(uint32_t cause, ts_trap_handler_t h) {
    if (cause & 0x80000000u) irq_handlers[cause & 15] = h;
    else
        exc_handlers[cause & 15] = h;
}

ts_reg_t ts_trap_dispatch(ts_reg_t mcause, ts_reg_t mepc, ts_reg_t mtval);
ts_reg_t ts_trap_dispatch(ts_reg_t mcause, ts_reg_t mepc, ts_reg_t mtval) {
    ts_reg_t n = mcause & ~TS_CAUSE_IRQ;
    ts_trap_handler_t h = n < 16 ? ((mcause & TS_CAUSE_IRQ) ? irq_handlers : exc_handlers)[n] : 0;
    if (h) return h(mcause, mepc, mtval);
    printf("unhandled %s %lu at mepc 0x%08lx, mtval 0x%08lx\n",
           (mcause & TS_CAUSE_IRQ) ? "interrupt" : "exception", (unsigned long)n,
           (unsigned long)mepc, (unsigned long)mtval);
    _exit((mcause & TS_CAUSE_IRQ) ? 160 + (int)(n & 15) : 128 + (int)(n & 15));
}

/* ---- timer, counters, host files ------------------------------------------------------ */
uint64_t ts_mtime(void) {
    uint32_t hi, lo;
    do {
        hi = TS_MMIO32(TS_CLINT_BASE + TS_CLINT_MTIME + 4);
        lo = TS_MMIO32(TS_CLINT_BASE + TS_CLINT_MTIME);
    } while (hi != TS_MMIO32(TS_CLINT_BASE + TS_CLINT_MTIME + 4));
    return ((uint64_t)hi << 32) | lo;
}

void ts_set_mtimecmp(uint64_t t) {
    /* the calling hart's mtimecmp; no spurious interrupt while the two halves are written */
    volatile uint32_t *cmp = (volatile uint32_t *)(uintptr_t)(TS_CLINT_BASE + TS_CLINT_MTIMECMP + 8u * ts_hart_id());
    cmp[1] = 0xFFFFFFFFu;
    cmp[0] = (uint32_t)t;
    cmp[1] = (uint32_t)(t >> 32);
}

uint64_t ts_sim_cycles(void) {
    uint32_t hi, lo;
    do {
        hi = TS_SIMCTRL(CYCLE_HI);
        lo = TS_SIMCTRL(CYCLE_LO);
    } while (hi != TS_SIMCTRL(CYCLE_HI));
    return ((uint64_t)hi << 32) | lo;
}

uint64_t ts_sim_instret(void) {
    uint32_t hi, lo;
    do {
        hi = TS_SIMCTRL(INSTRET_HI);
        lo = TS_SIMCTRL(INSTRET_LO);
    } while (hi != TS_SIMCTRL(INSTRET_HI));
    return ((uint64_t)hi << 32) | lo;
}

int ts_host_write(const char *name, const void *data, uint32_t len, int append) {
    TS_SIMCTRL(FILE_NAME) = (uint32_t)(uintptr_t)name;
    TS_SIMCTRL(FILE_ADDR) = (uint32_t)(uintptr_t)data;
    TS_SIMCTRL(FILE_LEN) = len;
    TS_SIMCTRL(FILE_CMD) = append ? 2u : 1u;
    return (int)TS_SIMCTRL(FILE_STATUS);
}
