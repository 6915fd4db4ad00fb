/* sweep_cli.h - `tracesim sweep SPEC`: runs every point of a sweep spec (sweep/
 * sweep_spec.h) with a local pool of workers or as a Slurm job array (sweep_run.h), one run
 * folder per point, and writes results.csv and summary.md (docs/commands/sweep.md). */
#ifndef TS_SWEEP_CLI_H
#define TS_SWEEP_CLI_H
/* argv[0] is "sweep"; returns the exit status: 0 every point ok, 1 a point failed or did not
 * run, 3 (--point) a live worker holds the point, 120 usage or a bad spec, 121 the spec or a firmware ELF is missing, 126 host error,
 * 130 interrupted */
int ts_sweep_main(int argc, char **argv);
/* its description: options, help, exit statuses (cli/opts/ts_opts.h) */
#include "ts_opts.h"
extern const ts_cmd_t ts_sweep_cmd;
/* `tracesim run`'s description (sim/main.c sets it before any command runs): which options
 * a spec's points may give (sw_plan_check_paths); without it sweep refuses to run */
void ts_sweep_set_run_cmd(const ts_cmd_t *run);
#endif
