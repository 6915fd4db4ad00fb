/* help.c - `tracesim help [--markdown] COMMAND` and the list of commands (help.h). */
#include "help.h"
#include "decode_cli.h"
#include "exit_codes.h"
#include "check_cli.h"
#include "markers.h"
#include "overhead.h"
#include "run_cmd.h"
#include "stmfilter.h"
#include "sweep_cli.h"
#include "symfilter.h"
#include "ts_opts.h"
#include <stdbool.h>
#include <string.h>

/* tracesim --help: the commands */
void ts_cli_usage(FILE *f) {
    fputs("usage: tracesim run [options] FW.elf           (run firmware on the simulated SoC)\n"
          "       tracesim decode [options] RUN_DIR|TRACE.rtd (decode a trace)\n"
          "       tracesim check [options] RUN_DIR        (trace against the run's ground truth)\n"
          "       tracesim report [options] RUN_DIR|TRACE.rtd (gprof-like profile of perf records)\n"
          "       tracesim overhead [options] [FW...]     (what perf instrumentation costs)\n"
          "       tracesim waves [options] RUN_DIR [VIEW [HART]] (the run's waves in GTKWave with markers)\n"
          "       tracesim symfilter FW.elf               (GTKWave filter: PC -> function+offset)\n"
          "       tracesim stmfilter                      (GTKWave filter: software trace id -> group, name)\n"
          "       tracesim sweep [options] SPEC.json      (run a sweep of points, locally or on Slurm)\n"
          "       tracesim help [--markdown] COMMAND      (a command's options and exit statuses)\n"
          "       tracesim --version                      (version and the git commit it was built from)\n"
          "\n"
          "Every command has --help (the same as tracesim help COMMAND).\n",
          f);
}

/* tracesim help COMMAND: the command's --help; tracesim help --markdown COMMAND: its option
 * and exit status tables for its docs page (tests/check_docs.sh keeps the docs equal to them) */
int ts_help_main(int argc, char **argv) {
    bool md = argc >= 2 && !strcmp(argv[1], "--markdown");
    const char *cmd = argc == 2 + md ? argv[1 + md] : NULL;
    if (argc == 1) { /* tracesim help: the commands */
        ts_cli_usage(stdout);
        return 0;
    }
    if (!cmd) {
        fprintf(stderr, "tracesim: usage: tracesim help [--markdown] COMMAND\n");
        return TS_EXIT_USAGE;
    }
    /* every command, described once (cli/opts/ts_opts.h) */
    const ts_cmd_t *const all_cmds[] = {&ts_run_cmd, &ts_decode_cmd, &ts_check_cmd, &ts_report_cmd, &ts_overhead_cmd,
                                        &ts_waves_cmd, &ts_symfilter_cmd, &ts_stmfilter_cmd, &ts_sweep_cmd, &ts_sc_cmd};
    for (size_t i = 0; i < sizeof all_cmds / sizeof all_cmds[0]; i++) {
        if (strcmp(cmd, all_cmds[i]->name)) continue;
        if (md) ts_cmd_markdown(stdout, all_cmds[i]);
        else
            ts_cmd_help(stdout, all_cmds[i]);
        return 0;
    }
    fprintf(stderr, "tracesim: help: unknown command '%s' (commands: run, decode, check, report, overhead, waves, symfilter, stmfilter, sweep, tracesim-sc)\n", cmd);
    return TS_EXIT_USAGE;
}
