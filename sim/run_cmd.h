/* run_cmd.h - the run command (sim/run_cmd.c) for whichever platform runs the SoC: `tracesim
 * run` (sim/soc.c's cycle loop) and tracesim-sc (the SystemC platform, sim/systemc/) are the
 * same code with a different ts_run_platform_t. */
#ifndef TS_RUN_CMD_H
#define TS_RUN_CMD_H
#include <stdbool.h>
#include "soc.h"
#include "ts_opts.h"

typedef struct ts_run_platform {
    const ts_cmd_t *cmd; /* its options, --help and exit statuses */
    /* runs an initialised and reset SoC to its end (soc_run() or what does the same) and
     * returns the stop reason; everything after (outputs, stats) is the command's */
    enum soc_stop (*run)(soc_t *s);
    /* --waves-around-mark's first run in a child process (a SystemC kernel elaborates once
     * per process) */
    bool fork_first_run;
    bool exec_systemc; /* --systemc: exec tracesim-sc next to this program */
} ts_run_platform_t;

extern const ts_cmd_t ts_run_cmd;          /* tracesim run */
extern const ts_cmd_t ts_sc_cmd;           /* tracesim-sc: the same but --systemc, --record-trace-bus */
extern const ts_run_platform_t ts_run_soc; /* tracesim run: soc_run() */

/* the command with argv[0] its name ("run"): an exit status (sim/exit_codes.h) */
int ts_run_main(int argc, char **argv, const ts_run_platform_t *plat);
#endif
