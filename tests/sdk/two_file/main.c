/* main.c - a user's two-file program on the installed SDK (tests/sdk/sdk_test.sh two_file):
 * both files compiled with -finstrument-functions at -O0, -Os and -O2. run() (work.c) calls
 * twice() (here) ten times across the file boundary, so no -O can inline the calls: the perf
 * library records run once and twice ten times, 22 records. Exit status 0. */
#include <stdio.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"

struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

unsigned run(unsigned n);
unsigned twice(unsigned x);

unsigned twice(unsigned x) {
    return 2 * x;
}

int main(void) {
    static perfEvent counters[] = {{.type = perfEventHWGeneral, .code = HW_CPU_CYCLES}};
    if (perfInit(1, 0) || perfFuncEntryExitInit(counters, 1, 6, perfCount_Delta, 0)) return 1;
    perfTraceOn();
    unsigned s = run(10);
    perfTraceOff();
    printf("sum = %u\n", s);
    if (perfWriteTrace(NULL)) return 1;
    return s == 90 ? 0 : 2;
}
