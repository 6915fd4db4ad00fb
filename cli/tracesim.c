/* tracesim.c - the tracesim command line: one dispatcher for every command (ts_cli.h). Each
 * command is a main of its own (argv[0] its name) in its module: run in sim/, decode,
 * report and help here, check and overhead in analysis/, waves, symfilter and stmfilter in
 * waves/gtkwave/, sweep in sweep/. */
#include "ts_cli.h"
#include "decode_cli.h"
#include "help.h"
#include "exit_codes.h"
#include "check_cli.h"
#include "markers.h"
#include "overhead.h"
#include "run_cmd.h"
#include "stmfilter.h"
#include "sweep_cli.h"
#include "symfilter.h"
#include "ts_file.h"
#include "ts_opts.h"
#include "ts_version.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* tracesim run: the run command (sim/run_cmd.h) on the SoC's own cycle loop */
static int run_main(int argc, char **argv) { return ts_run_main(argc, argv, &ts_run_soc); }

int ts_cli_main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        ts_cli_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TS_EXIT_USAGE : ts_check_stdout() ? TS_EXIT_HOST :
                                                              0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("tracesim %s (commit %s)\n", TS_VERSION, TS_GIT_COMMIT);
        return ts_check_stdout() ? TS_EXIT_HOST : 0;
    }
    if (!strcmp(argv[1], "help")) {
        int rc = ts_help_main(argc - 1, argv + 1);
        return ts_check_stdout() && rc == 0 ? TS_EXIT_HOST : rc;
    }
    ts_sweep_set_run_cmd(&ts_run_cmd); /* which run options a sweep spec may give (TS_OPT_PATH ones not) */
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {
        {"run", run_main}, {"decode", ts_decode_main}, {"check", ts_check_main}, {"report", ts_report_main}, {"overhead", ts_overhead_main}, {"symfilter", ts_symfilter_main}, {"stmfilter", ts_stmfilter_main}, {"waves", ts_waves_main}, {"sweep", ts_sweep_main}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(argv[1], cmds[i].name)) continue;
        int rc = cmds[i].fn(argc - 1, argv + 1);
        /* whatever a command printed must have reached stdout (a full disk, /dev/full, a
         * closed pipe): one line and a non-zero status otherwise */
        if (ts_check_stdout() && rc == 0) rc = TS_EXIT_HOST;
        return rc;
    }
    fprintf(stderr, "tracesim: unknown command '%s' (commands: run, decode, check, report, overhead, symfilter, stmfilter, waves, sweep)\n", argv[1]);
    return TS_EXIT_USAGE;
}
