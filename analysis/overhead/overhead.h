/* overhead.h - `tracesim overhead`: what the perf library's instrumentation costs.
 *
 * Runs the ovh_* firmware variants (firmware/examples/CMakeLists.txt) on the simulator (this
 * executable, `run -q`), one run folder each under OUTDIR/runs/: per example (fib, manual,
 * timer_isr) the workload with the perf calls compiled out ("out"), and the library set up
 * with tracing never switched on ("off") or on ("on"), per sink (SRAM, SBA) and counter list
 * (PERF_EVENTS 1, 4, 8). From each run folder it takes cycles and instructions (stats.txt),
 * the simulator's ITC stall and SBA conflict totals (events.csv), and the number of perf
 * records (trace.rtd through the decoder); it writes OUTDIR/overhead.md (a table per
 * example) and OUTDIR/overhead.svg (overhead in % of cycles as grouped bars). Then the
 * ovh_events_* variants (firmware/examples/events.c: a loop with no event, a software trace
 * event, an ITC store or a perf record per round) give the table "one event": (cycles -
 * cycles without events) / events, likewise instructions, the events counted in the run's
 * stm.csv, itc.csv or trace.rtd. */
#ifndef TS_OVERHEAD_H
#define TS_OVERHEAD_H
/* argv[0] is "overhead"; returns the exit status (0, 120 usage, 121 missing ELF, 126 cannot
 * write the outputs, 1 a run failed or left unusable results) */
#include "ts_opts.h"
int ts_overhead_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
extern const ts_cmd_t ts_overhead_cmd;
#endif
