/* longjmp_inline.c - an instrumented function inlined into another (-O2, always_inline),
 * whose inlined body calls functions and, once, one that longjmps back to main.
 *
 * GCC gives the hooks of the inlined mix() the container's (work's) return address as call
 * site, and the calls mix's body makes have return addresses inside work. For k = 0..4 main
 * calls work(k) (mix inlined into it: op, thrower, op) and then other(k) (op). At k == 2
 * thrower longjmps back to main before mix's second op. By hand: work 5 calls, mix 5,
 * thrower 5, other 5, op 14 (9 from mix, 5 from other, none from work); after the longjmp
 * other's enter closes thrower, mix and work (tests/prof_truth/slices_test.sh, case inline;
 * docs/commands/report.md, "Frames left without an exit"). */
#include <setjmp.h>
#include <stdio.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

static jmp_buf env;
volatile unsigned sink;

__attribute__((noinline)) unsigned op(unsigned x) { return x * 7 + 1; }
__attribute__((noinline)) void thrower(unsigned x) {
    if (x == 2) longjmp(env, 1);
    sink += x;
}
static inline __attribute__((always_inline)) unsigned mix(unsigned x) {
    unsigned a = op(x);
    thrower(x);
    return a + op(a);
}
__attribute__((noinline)) unsigned work(unsigned x) { return mix(x) + 1; }
__attribute__((noinline)) unsigned other(unsigned x) { return op(x) + 2; }

int main(void) {
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return 1;
    }
    perfTraceOn();
    volatile unsigned r = 0, escapes = 0; /* volatile: kept across the longjmp */
    for (volatile unsigned k = 0; k < 5; k++) {
        if (setjmp(env) == 0) r += work(k);
        else escapes++;
        r += other(k);
    }
    perfTraceOff();
    printf("r=%u escapes=%u\n", (unsigned)r, (unsigned)escapes);
    rc = perfWriteTrace(NULL);
    if (rc) return 1;
    return escapes == 1 ? 0 : 2;
}
