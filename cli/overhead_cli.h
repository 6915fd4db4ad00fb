/* overhead_cli.h - the `tracesim overhead` command (cli/overhead_cli.c). */
#ifndef TS_OVERHEAD_CLI_H
#define TS_OVERHEAD_CLI_H
#include "ts_opts.h"
/* argv[0] is "overhead"; returns the exit status (0, 120 usage, 121 missing ELF, 126 cannot
 * write the outputs, 1 a run failed or left unusable results) */
int ts_overhead_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
extern const ts_cmd_t ts_overhead_cmd;
#endif
