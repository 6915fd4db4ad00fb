/* rv64_support.c - the RV64 conformance tests' failure report (UART) and exit: prints with
 * shifts and masks only, so that a broken divider cannot garble the report. */
#include <stdint.h>
#include "ts_soc.h"
#include "rv64_test.h"

static void put(const char *s) {
    while (*s) TS_UART(TXDATA) = (uint8_t)*s++;
}
static void puthex(uint64_t v) {
    put("0x");
    static const char hex[] = "0123456789abcdef";
    for (int i = 60; i >= 0; i -= 4) TS_UART(TXDATA) = (uint8_t)hex[(v >> i) & 15];
}

void rv64_fail(uint64_t n, uint64_t got, uint64_t expected) {
    put("FAIL test ");
    puthex(n);
    put(": got ");
    puthex(got);
    put(", expected ");
    puthex(expected);
    put("\n");
    rv64_exit(1);
}

void rv64_puts(const char *s) { put(s); }

/* what GCC may call for block copies and clears (no C library here) */
void *memset(void *d, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n);
void *memset(void *d, int c, unsigned long n) {
    unsigned char *p = d;
    while (n--) *p++ = (unsigned char)c;
    return d;
}
void *memcpy(void *d, const void *s, unsigned long n) {
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--) *p++ = *q++;
    return d;
}
