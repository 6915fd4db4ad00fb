/* waves_cli.h - the `tracesim waves` command (cli/waves_cli.c). */
#ifndef TS_WAVES_CLI_H
#define TS_WAVES_CLI_H
#include "ts_opts.h"
/* `tracesim waves RUNDIR [VIEW [HART]] [--no-gui]` */
int ts_waves_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
extern const ts_cmd_t ts_waves_cmd;
#endif
