/* uart.h - UART model: the transmit register only (no receiver, no FIFO, no interrupts).
 *
 * One register, TXDATA at offset 0 (rtl_model/regs/soc_map.def): a store sends its low 8
 * bits, a load returns 0 (the transmitter is always ready). Any access size is taken at
 * offset 0 (firmware sends with byte or word stores); every other offset is a bus error.
 * Sent bytes go to up to two host streams given at init (an echo, e.g. stdout, and a log,
 * e.g. the run folder's uart.txt); either may be NULL. The model owns neither stream. */
#ifndef TS_UART_H
#define TS_UART_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct uart {
    FILE *echo, *log;  /* where sent bytes go; NULL: nowhere */
    uint64_t tx_bytes; /* bytes sent since reset */
} uart_t;

void uart_init(uart_t *u, FILE *echo, FILE *log);
void uart_reset(uart_t *u);
/* false: bus error (no such register) */
bool uart_read(uart_t *u, uint32_t off, unsigned size, uint32_t *val);
bool uart_write(uart_t *u, uint32_t off, unsigned size, uint32_t val);
/* flushes both streams */
void uart_flush(uart_t *u);
#endif
