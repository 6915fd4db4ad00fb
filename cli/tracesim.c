/* tracesim.c - the tracesim command line: one dispatcher for every command (ts_cli.h). Each
 * command is a main of its own (argv[0] its name): run in sim/ (run_cmd.c), sweep in sweep/
 * (sweep_cli.c: a tool of its own), every other one here, one front end per command
 * (NAME_cli.c: its options, help and usage messages) calling its module's entry point. */
#include "ts_cli.h"
#include "decode_cli.h"
#include "help.h"
#include "exit_codes.h"
#include "check_cli.h"
#include "waves_cli.h"
#include "overhead_cli.h"
#include "run_cmd.h"
#include "stmfilter_cli.h"
#include "sweep_cli.h"
#include "symfilter_cli.h"
#include "ts_file.h"
#include "ts_opts.h"
#include "ts_version.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* the run-folder module's own name for the inputs' exit status (ts_file.h: it includes no
 * other module) is exit_status.def's */
_Static_assert(TS_FILE_EXIT_CUT == TS_EXIT_NO_FILE, "ts_file.h TS_FILE_EXIT_CUT differs from exit_status.def NO_FILE");

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
