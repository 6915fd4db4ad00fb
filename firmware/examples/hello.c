/* hello.c - the first program: UART output and a short counter printout. */
#include <stdio.h>
#include "bsp.h"

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
    printf("Hello from tracesim!\n");
    uint64_t c0 = ts_rdcycle(), i0 = ts_rdinstret();
    unsigned f = fib(15);
    uint64_t c1 = ts_rdcycle(), i1 = ts_rdinstret();
    printf("fib(15) = %u\n", f);
    printf("fib(15) took %lu cycles for %lu instructions (mcycle/minstret)\n",
           (unsigned long)(c1 - c0), (unsigned long)(i1 - i0));
    printf("mtime now %lu us\n", (unsigned long)ts_rdtime());
    return f == 610 ? 0 : 1;
}
