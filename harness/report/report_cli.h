/* report_cli.h - the `tracesim report` command: a gprof-like profile of a perf trace. */
#ifndef TS_REPORT_CLI_H
#define TS_REPORT_CLI_H
int ts_report_main(int argc, char **argv);
#endif
