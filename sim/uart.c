/* uart.c - UART transmit model; see uart.h. */
#include "uart.h"

#define TS_REG(block, name, off, acc, desc) enum { block##_##name = off };
#include "soc_map.def"

void uart_init(uart_t *u, FILE *echo, FILE *log) {
    u->echo = echo;
    u->log = log;
    uart_reset(u);
}

void uart_reset(uart_t *u) { u->tx_bytes = 0; }

bool uart_read(uart_t *u, uint32_t off, unsigned size, uint32_t *val) {
    if (off != UART_TXDATA) return false;
    *val = 0;
    return true;
}

bool uart_write(uart_t *u, uint32_t off, unsigned size, uint32_t val) {
    if (off != UART_TXDATA) return false;
    int c = (uint8_t)val;
    if (u->echo) putc(c, u->echo);
    if (u->log) putc(c, u->log);
    u->tx_bytes++;
    return true;
}

void uart_flush(uart_t *u) {
    if (u->log) fflush(u->log);
    if (u->echo) fflush(u->echo);
}
