/* report_cli.h - the `tracesim report` command: a gprof-like profile of a perf trace. */
#ifndef TS_REPORT_CLI_H
#define TS_REPORT_CLI_H
#include "ts_opts.h"
#include <stdbool.h>
int ts_report_main(int argc, char **argv);
/* its description: options, help, exit statuses (ts_opts.h) */
extern const ts_cmd_t ts_report_cmd;
/* -f irq / irq-csv (report_irq.c): the interrupts and threads of the trace at path (srcbits,
 * tssize: the options, -1 when not given; a run folder without a trace: its ground truth
 * only) and of run_dir's ground truth (""/NULL: none) to stdout or out_file (made in out_dir,
 * which may be NULL); the exit status */
int ts_report_irq(const char *path, const char *run_dir, int srcbits, int tssize, int hart, bool csv, const char *out_dir,
                  const char *out_file);
#endif
