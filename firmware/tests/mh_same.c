/* mh_same.c - the same work on every hart the SoC has, at the same time: hart 0 starts
 * work() on harts 1..N-1 (ts_hart_start) and runs it itself; each computes fib(15)
 * recursively (stack traffic: every hart competes for the RAM port) and prints one line of
 * the same length. tests/harts_test.sh uses it for the simulator's per-hart outputs (every
 * hart's instret, bus arbitration losses, N lines on the UART). Exit 0 if every hart got 610. */
#include <stdio.h>
#include "bsp.h"

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int work(void *arg) {
    (void)arg;
    unsigned f = fib(15);
    printf("hart %u: fib(15) = %u\n", ts_hart_id(), f);
    return f == 610 ? 0 : 1;
}

int main(void) {
    unsigned n = ts_num_harts();
    for (unsigned h = 1; h < n; h++)
        if (ts_hart_start(h, work, NULL) != TS_HART_OK) return 2;
    int bad = work(NULL);
    for (unsigned h = 1; h < n; h++) {
        int r = 1;
        ts_hart_join(h, &r);
        bad |= r;
    }
    return bad;
}
