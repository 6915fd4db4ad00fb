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
#include <stdbool.h>
#include <stddef.h>

#define OVH_PERF_CHANNEL 6 /* PERF_CHANNEL of firmware/examples/perf_config.h */

/* `tracesim overhead` with its options checked (cli/overhead_cli.c): the exit status (0, 120
 * usage, 121 missing ELF, 126 cannot write the outputs, 1 a run failed or left unusable
 * results), with one line on stderr for any failure */
typedef struct ts_overhead_cfg {
    const char *firmware_dir; /* --firmware-dir DIR, or NULL: beside this executable */
    const char *out;          /* -o DIR */
    const char *baseline;     /* --baseline PLAIN, or NULL: the self-measuring mode */
    bool quick;               /* --quick (self-measuring mode) */
    unsigned channel;         /* --perf-channel (--baseline) */
    size_t nfw;               /* --baseline: the FW... arguments */
    char *const *fws;
} ts_overhead_cfg_t;
int ts_overhead_run(const ts_overhead_cfg_t *cfg);
#endif
