/* fib_mh.c - fib.c on every hart (tracesim run --harts N, N >= 2): hart 0 calls
 * perfInit(ts_num_harts(), 1) and starts the other harts with ts_hart_start(); every hart
 * sets up its own encoder and counters (perfFuncEntryExitInit), records recursive Fibonacci
 * of its own size, fib(FIB_N - 2h) on hart h (so the per-hart profiles differ: 2 F(n+1) - 1
 * calls), and stops; hart 0 joins them, writes the one funnel buffer with perfWriteTrace and
 * exits with 0 only if every hart got the right value and wrote two records per call.
 * Counter list, count type and sink: perf_config.h (PERF_MH: all encoders, the funnel). */
#include <stdio.h>
#include <string.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "bsp.h"

#ifndef FIB_N
#define FIB_N 10
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

/* the expected value and call count, without instrumentation */
static TS_NOINSTR unsigned long fib_plain(unsigned long n, unsigned long *calls)
{
  unsigned long a = 0, b = 1;
  for (unsigned long i = 0; i < n; i++) { unsigned long t = a + b; a = b; b = t; }
  *calls = 2 * b - 1;                   /* b = F(n + 1) */
  return a;
}

static TS_NOINSTR int run_hart(void *arg)
{
  (void)arg;
  unsigned me = ts_hart_id();
  perfEvent list[PERF_N_EVENTS];
  memcpy(list, perfCntrList, sizeof list);
  int rc = perfFuncEntryExitInit(list, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
  if (rc != 0) {
    printf("hart %u: perfFuncEntryExitInit() failed: %s\n", me, perfErrorString(rc));
    return 1;
  }
  unsigned long n = FIB_N - 2 * me, calls, want = fib_plain(n, &calls);
  perfTraceOn();
  unsigned long f = fib(n);
  perfTraceOff();
  perfTraceStatus_t st;
  perfGetTraceStatus(&st);
  printf("hart %u: fib(%lu) = %lu, %lu records%s\n", me, n, f, (unsigned long)st.records,
         st.stopped ? " (buffer full: tracing stopped)" : "");
  return f == want && st.records == 2 * calls ? 0 : 1;
}

int main()
{
  unsigned harts = ts_num_harts();
  if (harts < 2 || harts > (FIB_N + 1) / 2) {
    printf("fib_mh: runs on 2 to %u harts (tracesim run --harts N); this SoC has %u\n", (FIB_N + 1) / 2, harts);
    return 2;
  }
  int rc = perfInit((int)harts, 1);
  if (rc != 0) {
    printf("perfInit() failed: %s\n", perfErrorString(rc));
    return 1;
  }
  for (unsigned h = 1; h < harts; h++)
    if (ts_hart_start(h, run_hart, NULL) != TS_HART_OK) {
      printf("fib_mh: hart %u did not start\n", h);
      return 1;
    }
  int bad = run_hart(NULL);
  for (unsigned h = 1; h < harts; h++) {
    int r = 1;
    ts_hart_join(h, &r);
    bad |= r;
  }
  perfTraceStatus_t st;
  perfGetTraceStatus(&st);
  printf("perf: %u harts, %lu of %lu trace bytes used\n", harts, (unsigned long)st.bytes, (unsigned long)st.size);
  rc = perfWriteTrace(NULL);
  if (rc != 0) {
    printf("perfWriteTrace() failed: %s\n", perfErrorString(rc));
    return 1;
  }
  return bad ? 1 : 0;
}
