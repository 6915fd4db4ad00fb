/* decode_cli.h - the `tracesim decode` command (and, through report_cli.h, `tracesim report`,
 * so that the command dispatch in sim/main.c needs no further include). */
#ifndef TS_DECODE_CLI_H
#define TS_DECODE_CLI_H
#include "report_cli.h"
#include "ts_opts.h"
int ts_decode_main(int argc, char **argv);
/* its description: options, help, exit statuses (ts_opts.h) */
extern const ts_cmd_t ts_decode_cmd;
#endif
