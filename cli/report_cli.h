/* report_cli.h - the `tracesim report` command: a gprof-like profile of a perf trace. */
#ifndef TS_REPORT_CLI_H
#define TS_REPORT_CLI_H
#include "ts_opts.h"
int ts_report_main(int argc, char **argv);
/* its description: options, help, exit statuses (ts_opts.h) */
extern const ts_cmd_t ts_report_cmd;
#endif
