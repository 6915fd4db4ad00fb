/* isa_support.c - failure reporting for the assembly ISA tests. Uses only shifts and masks
 * to print, so a broken divider cannot garble the report. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "bsp.h"

static void put(const char *s) { while (*s) TS_UART(TXDATA) = (uint8_t)*s++; }
static void puthex(uint32_t v) {
    put("0x");
    for (int i = 28; i >= 0; i -= 4) TS_UART(TXDATA) = (uint8_t)"0123456789abcdef"[(v >> i) & 15];
}

void isa_fail(uint32_t n, uint32_t got, uint32_t expected);
void isa_fail(uint32_t n, uint32_t got, uint32_t expected) {
    put("FAIL test ");
    puthex(n);
    put(": got ");
    puthex(got);
    put(", expected ");
    puthex(expected);
    put("\n");
    _exit(1);
}
