/* longjmp.c - the perf library's function entry/exit mode on a program whose control does
 * not always return the way it was called: main calls work(i) for i = 0..9; at i == 3 work's
 * callee thrower() longjmps back to the setjmp in main, so neither thrower nor work (3) ever
 * exits; an uninstrumented spin() runs after each call. A profiler that pops frames only on
 * exit records charges everything after the longjmp to thrower; `tracesim report` closes
 * work and thrower at the next enter, whose call site lies in main (docs/commands/report.md).
 * Built with -finstrument-functions; spin is not instrumented. */
#include <setjmp.h>
#include <stdio.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

#ifndef SPIN_N
#define SPIN_N 400
#endif

static jmp_buf env;
volatile unsigned long sink;

__attribute__((noinline, no_instrument_function)) void spin(unsigned n)
{
  for (unsigned k = 0; k < n; k++) sink += k;
}

__attribute__((noinline)) void thrower(int i)
{
  sink += (unsigned)i;
  longjmp(env, i + 1);
}

__attribute__((noinline)) void work(int i)
{
  for (int k = 0; k < 8; k++) sink += (unsigned)(k * i);
  if (i == 3) thrower(i);
}

int main()
{
  int rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
  if (rc == 0) rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
  if (rc != 0) {
    printf("perf setup failed: %s\n", perfErrorString(rc));
    return rc;
  }
  perfTraceOn();

  volatile int i = 0;
  if (setjmp(env)) {               /* back here from thrower: carry on with the next i */
    spin(SPIN_N);
    i++;
  }
  for (; i < 10; i++) {
    work(i);
    spin(SPIN_N);
  }

  perfTraceOff();
  printf("longjmp: done, sink %lu\n", sink);
  rc = perfWriteTrace(NULL);
  if (rc != 0) printf("perfWriteTrace() failed: %s\n", perfErrorString(rc));
  return rc;
}
