/* symfilter_cli.h - the `tracesim symfilter FW.elf` command (cli/symfilter_cli.c). */
#ifndef TS_SYMFILTER_CLI_H
#define TS_SYMFILTER_CLI_H
#include "ts_opts.h"
/* the command: reads values on stdin, one per line, answers one line each (flushed) */
int ts_symfilter_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
extern const ts_cmd_t ts_symfilter_cmd;
#endif
