/* fib.c - the perf library's function entry/exit mode, written in the style of SiFive's
 * manual: recursive Fibonacci compiled with -finstrument-functions; every call and return
 * writes a record (function, call site, counters) to the trace. The trace is saved to the
 * run folder with perfWriteTrace(NULL) (trace.rtd); `tracesim report` turns it into a
 * profile. Counter list, count type and sink: perf_config.h. */
#include <stdio.h>
#include <stdlib.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"

#ifndef FIB_N
#define FIB_N 12
#endif

/* For `tracesim overhead`: PERF_COMPILED_OUT=1 (built without -finstrument-functions) runs
 * the same program with every perf call compiled to nothing; PERF_TRACE_OFF=1 sets the
 * library up but never calls perfTraceOn. */
#if PERF_COMPILED_OUT
#define perfInit(...) 0
#define perfFuncEntryExitInit(...) 0
#define perfTraceOn() ((void)0)
#define perfTraceOff() ((void)0)
#define perfGetTraceStatus(st) ((void)(*(st) = (perfTraceStatus_t){0}))
#define perfWriteTrace(file) 0
#endif

unsigned long fib(unsigned long f)
{
  if (f == 0) {
    return 0;
  }

  if (f == 1) {
    return 1;
  }

  return fib(f-2) + fib(f-1);
}

int main()
{
  unsigned long f;
  int rc;

  rc = perfInit(sizeof tmm / sizeof tmm[0], fmm != NULL);
  if (rc != 0) {
    printf("perfInit() failed: %s\n", perfErrorString(rc));
    return rc;
  }

  rc = perfFuncEntryExitInit(perfCntrList, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
  if (rc != 0) {
    printf("perfFuncEntryExitInit() failed: %s\n", perfErrorString(rc));
    return rc;
  }

#if !PERF_TRACE_OFF
  perfTraceOn();
#endif

  unsigned long i = FIB_N;

  f = fib(i);

  perfTraceOff();

  printf("fib(%lu) = %lu\n", i, f);

  perfTraceStatus_t st;
  perfGetTraceStatus(&st);
  printf("perf: %lu records, %lu of %lu trace bytes used%s\n", (unsigned long)st.records,
         (unsigned long)st.bytes, (unsigned long)st.size, st.stopped ? " (buffer full: tracing stopped)" : "");

  rc = perfWriteTrace(NULL);
  if (rc != 0) {
    printf("perfWriteTrace() failed: %s\n", perfErrorString(rc));
    return rc;
  }
  return 0;
}
