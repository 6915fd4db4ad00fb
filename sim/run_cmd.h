/* run_cmd.h - `tracesim run` as the command-line front end sees it (cli/tracesim.c): the
 * command (sim/main.c) and its descriptions (options, help, exit statuses: ts_opts.h). */
#ifndef TS_RUN_CMD_H
#define TS_RUN_CMD_H
#include "ts_opts.h"
#ifdef __cplusplus
extern "C" {
#endif
/* argv[0] is "run"; the exit status (docs/commands/run.md). In tracesim-sc (TS_SYSTEMC) the
 * run on the SystemC platform. */
int ts_run_main(int argc, char **argv);
/* `tracesim run`, and `tracesim-sc` (the same options but --systemc and --record-trace-bus) */
const ts_cmd_t *ts_run_command(void);
const ts_cmd_t *ts_sc_command(void);
#ifdef __cplusplus
}
#endif
#endif
