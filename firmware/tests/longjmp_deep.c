/* longjmp_deep.c - a longjmp out of a deep recursion back to main, which was never traced
 * (its enter hook ran before perfInit), followed by a call of ANOTHER function from main.
 *
 * For k = 0..5 main calls dive(8, k, k) (9 nested frames of dive) and then iter(6); at the
 * bottom of the recursion dive longjmps back to main's setjmp when k is odd (3 times: 27
 * frames of dive left without their exits), else it makes one call through a function
 * pointer. iter makes 6 calls through the same table. By hand: dive 54 calls, iter 6 (all
 * from main), op_add, op_mul, op_xor 13 each (12 from iter, 1 from dive); 99 enter and 72
 * exit records. After each longjmp the next enter is iter's, whose call site lies in main,
 * a function with no frame, while 9 dive frames left by the longjmp are open
 * (tests/prof_truth/profile_truth_test.sh, case records_deep; docs/commands/report.md,
 * "Frames left without an exit"). */
#include <setjmp.h>
#include <stdio.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

typedef unsigned (*op_t)(unsigned);
static jmp_buf escape;
volatile unsigned sel = 0;

__attribute__((noinline)) unsigned op_add(unsigned x) { return x + 3; }
__attribute__((noinline)) unsigned op_mul(unsigned x) { return x * 5; }
__attribute__((noinline)) unsigned op_xor(unsigned x) { return x ^ 0x55; }
op_t ops[3];

/* d + 1 calls of dive; at the bottom a longjmp (k odd) or one call through ops */
__attribute__((noinline)) unsigned dive(unsigned d, unsigned x, unsigned k) {
    if (d == 0) {
        if (k & 1) longjmp(escape, 1);
        return ops[x % 3](x);
    }
    return dive(d - 1, x + 1, k) + 1;
}

/* n calls through ops */
__attribute__((noinline)) unsigned iter(unsigned n) {
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++) s += ops[(i + sel) % 3](i);
    return s;
}

int main(void) {
    ops[0] = op_add;
    ops[1] = op_mul;
    ops[2] = op_xor;
    int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
    if (!rc) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("perf init failed: %s\n", perfErrorString(rc));
        return 1;
    }
    perfTraceOn();
    volatile unsigned r = 0, escapes = 0; /* volatile: kept across the longjmp */
    for (volatile unsigned k = 0; k < 6; k++) {
        if (setjmp(escape) == 0) r += dive(8, k, k);
        else escapes++;
        r += iter(6);
    }
    perfTraceOff();
    printf("r=%u escapes=%u\n", (unsigned)r, (unsigned)escapes);
    rc = perfWriteTrace(NULL);
    if (rc) return 1;
    return r == 1388 && escapes == 3 ? 0 : 2; /* by hand: 101 + 58 + 23 + 6 * 201 */
}
