/* flow_sort.c - a program-trace-only program written apart from the examples (no perf library:
 * the BSP starts the trace, run --trace-insn btm makes it program trace): an insertion sort of
 * 12 numbers comparing through a function pointer. By hand (the same algorithm on the host):
 * less is called 40 times, isort once. tests/outside_sort_test.sh. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "ts_trace.h"

typedef int (*cmp_t)(int, int);
static int data[12] = {9, 3, 7, 1, 12, 5, 8, 2, 11, 4, 10, 6};
volatile unsigned ncmp;

__attribute__((noinline)) int less(int a, int b) { ncmp++; return a < b; }
__attribute__((noinline)) void isort(int *v, unsigned n, cmp_t lt) {
    for (unsigned i = 1; i < n; i++) {
        int x = v[i];
        unsigned j = i;
        while (j > 0 && lt(x, v[j - 1])) { v[j] = v[j - 1]; j--; }
        v[j] = x;
    }
}
cmp_t volatile the_cmp = less;

int main(void) {
    ts_trace_itc_start(0, 0, 0);
    isort(data, 12, the_cmp);
    ts_trace_flush(0);
    int ok = 1;
    for (unsigned i = 0; i < 12; i++) ok &= data[i] == (int)i + 1;
    printf("sorted=%d cmp=%u\n", ok, ncmp);
    return ok ? 0 : 1;
}
