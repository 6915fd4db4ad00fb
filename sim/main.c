/* main.c - the tracesim command line: `tracesim run FW.elf [options]`. */
#include "cli_util.h"
#include "ts_file.h"
#include "ts_opts.h"
#include "run_losses.h"
#include "decode_cli.h"
#include "ground_truth.h"
#include "elf_load.h"
#include "overhead.h"
#include "exit_codes.h"
#include "run_outputs.h"
#include "run_folder.h"
#include "sweep_cli.h"
#include "soc.h"
#include "gdb/gdb_stub.h"
#include "stmfilter.h"
#include "symfilter.h"
#include "markers.h"
#include "elf_syms.h"
#include "ts_version.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run_cmd.h"

/* the run command (sim/run_cmd.c) under the names the dispatcher below uses */
#define run_cmd ts_run_cmd
#define sc_cmd ts_sc_cmd
static int cmd_run(int argc, char **argv) { return ts_run_main(argc, argv, &ts_run_soc); }

/* tracesim --help: the commands */
static void usage(FILE *f) {
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
          "Every command has --help (the same as tracesim help COMMAND).\n", f);
}

/* every command, described once (harness/cli/ts_opts.h) */
static const ts_cmd_t *const all_cmds[] = {&run_cmd, &ts_decode_cmd, &ts_check_cmd, &ts_report_cmd, &ts_overhead_cmd,
                                           &ts_waves_cmd, &ts_symfilter_cmd, &ts_stmfilter_cmd, &ts_sweep_cmd, &sc_cmd};

/* tracesim help COMMAND: the command's --help; tracesim help --markdown COMMAND: its option
 * and exit status tables for its docs page (tests/check_docs.sh keeps the docs equal to them) */
static int cmd_help(int argc, char **argv) {
    bool md = argc >= 2 && !strcmp(argv[1], "--markdown");
    const char *cmd = argc == 2 + md ? argv[1 + md] : NULL;
    if (argc == 1) {                      /* tracesim help: the commands */
        usage(stdout);
        return 0;
    }
    if (!cmd) {
        fprintf(stderr, "tracesim: usage: tracesim help [--markdown] COMMAND\n");
        return TS_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof all_cmds / sizeof all_cmds[0]; i++) {
        if (strcmp(cmd, all_cmds[i]->name)) continue;
        if (md) ts_cmd_markdown(stdout, all_cmds[i]);
        else ts_cmd_help(stdout, all_cmds[i]);
        return 0;
    }
    fprintf(stderr, "tracesim: help: unknown command '%s' (commands: run, decode, check, report, overhead, waves, symfilter, stmfilter, sweep, tracesim-sc)\n", cmd);
    return TS_EXIT_USAGE;
}

#ifdef TS_SYSTEMC
/* tracesim-sc: sc_main (sim/systemc/ts_sc_main.cpp) calls this with argv[1] = "run" */
int ts_cli_main(int argc, char **argv);
#define main ts_cli_main
#endif
int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TS_EXIT_USAGE : ts_check_stdout() ? TS_EXIT_HOST : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("tracesim %s (commit %s)\n", TS_VERSION, TS_GIT_COMMIT);
        return ts_check_stdout() ? TS_EXIT_HOST : 0;
    }
    if (!strcmp(argv[1], "help")) {
        int rc = cmd_help(argc - 1, argv + 1);
        return ts_check_stdout() && rc == 0 ? TS_EXIT_HOST : rc;
    }
    ts_sweep_set_run_cmd(&run_cmd);   /* which run options a sweep spec may give (TS_OPT_PATH ones not) */
    static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
        {"run", cmd_run},           {"decode", ts_decode_main},       {"check", ts_check_main},
        {"report", ts_report_main}, {"overhead", ts_overhead_main},   {"symfilter", ts_symfilter_main},
        {"stmfilter", ts_stmfilter_main}, {"waves", ts_waves_main}, {"sweep", ts_sweep_main}};
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
