/* stmfilter_cli.h - the `tracesim stmfilter` command (cli/stmfilter_cli.c). */
#ifndef TS_STMFILTER_CLI_H
#define TS_STMFILTER_CLI_H
#include "ts_opts.h"
/* the command: reads values on stdin, one per line, answers one line each (flushed) */
int ts_stmfilter_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
extern const ts_cmd_t ts_stmfilter_cmd;
#endif
