/* check_cli.h - the `tracesim check` command (the check: ground_truth.h ts_check_run). */
#ifndef TS_CHECK_CLI_H
#define TS_CHECK_CLI_H
#include "ts_opts.h"
/* argv[0] is "check"; returns the exit status (0, 1 FAILED, 120 usage, 121, 126) */
int ts_check_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
extern const ts_cmd_t ts_check_cmd;
#endif
