/* ground_truth.h - the `tracesim check` command. */
#ifndef TS_GROUND_TRUTH_H
#define TS_GROUND_TRUTH_H
#include "ts_opts.h"
int ts_check_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
extern const ts_cmd_t ts_check_cmd;
#endif
