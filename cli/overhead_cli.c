/* overhead_cli.c - the `tracesim overhead` command: its options (both modes), help and usage
 * messages; the measuring itself is analysis/overhead's ts_overhead_run (overhead.h). */
#include "overhead_cli.h"
#include "overhead.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

enum { V_BUILD_GONE = 1,
       V_FIRMWARE_DIR,
       V_QUICK,
       V_BASELINE,
       V_PERF_CHANNEL,
       V_OUT,
       V_HELP };
/* `tracesim overhead`'s options, both modes: the parser, --help and docs/commands/overhead.md */
static const ts_opt_t overhead_opts[] = {
    {V_FIRMWARE_DIR, 0, "firmware-dir", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0,
     "folder with the ovh_*.elf firmware (default: firmware/examples\nin the build folder of this executable)"},
    {V_BUILD_GONE, 0, "build", TS_OPT_STRING, "DIR", 0, 0, 0, 0, TS_OPT_REFUSE,
     "overhead's --build is now --firmware-dir DIR (the folder of the ovh_*.elf; "
     "--build DIR names a build folder in tracesim sweep)"},
    {V_QUICK, 0, "quick", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "only fib with 1 counter, and the per-event runs (10 runs)"},
    {V_BASELINE, 0, "baseline", TS_OPT_STRING, "PLAIN", 0, 0, 0, 0, 0,
     "the overhead of your own builds FW... over PLAIN (an ELF or a run\nfolder)"},
    {V_PERF_CHANNEL, 0, "perf-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0,
     "with --baseline: the perf library channel (default 6)"},
    {V_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0, "output folder (default runs/overhead)"},
    {V_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t overhead_exits[] = {
    {"0", "the report was written"},
    {"1", "a run failed (non-zero exit) or left unusable results"},
    {"120", "usage: bad option or value, options of the other mode, no FW\nwith --baseline, -o naming a file"},
    {"121", "a firmware ELF or run folder is missing or unreadable"},
    {"126", "the outputs cannot be written, out of memory"},
    {NULL, NULL}};
const ts_cmd_t ts_overhead_cmd = {
    "overhead",
    "tracesim overhead [--firmware-dir DIR] [-o DIR] [--quick]\n"
    "tracesim overhead --baseline PLAIN [-o DIR] [--perf-channel N] FW...",
    "Without --baseline: what the perf library's instrumentation costs. Runs the ovh_*\n"
    "firmware variants (each example with the perf calls compiled out, with tracing never\n"
    "switched on, and tracing, into the SRAM sink and an SBA buffer, with 1, 4 and 10\n"
    "counters), then the ovh_events_* variants (one loop without an event, with a software\n"
    "trace event, an ITC store or a perf record per round) for a table of what one event\n"
    "costs.\n"
    "\n"
    "With --baseline: the overhead of your own builds. PLAIN and each FW are an ELF (run into\n"
    "DIR/runs/NAME/) or the run folder of one; per FW: cycles, extra cycles and percent over\n"
    "PLAIN, perf records (decoded from its trace) and extra cycles per record.\n",
    overhead_opts, 0,
    "  a table per example on stdout and in DIR/overhead.md, a chart in DIR/overhead.svg, the\n"
    "  run folders in DIR/runs/; with --baseline also DIR/overhead.csv\n",
    overhead_exits, NULL};

int ts_overhead_main(int argc, char **argv) {
    const char *build = NULL, *out = "runs/overhead", *baseline = NULL;
    bool quick = false, channel_given = false;
    unsigned channel = OVH_PERF_CHANNEL;
    size_t nfw = 0;
    int c;
    char **fws = calloc((size_t)argc + 1, sizeof *fws);
    if (!fws) {
        fprintf(stderr, "tracesim: overhead: out of memory\n");
        return TS_EXIT_HOST;
    }
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_overhead_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (c) {
        case TS_OPTS_ERROR:
            fprintf(stderr, "tracesim: %s\n", op.err);
            free(fws);
            return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL: fws[nfw++] = (char *)op.arg; break;
        case V_FIRMWARE_DIR: build = op.arg; break;
        case V_QUICK: quick = true; break;
        case V_BASELINE: baseline = op.arg; break;
        case V_PERF_CHANNEL:
            channel = (unsigned)op.u;
            channel_given = true;
            break;
        case V_OUT: out = op.arg; break;
        case V_HELP:
            ts_cmd_help(stdout, &ts_overhead_cmd);
            free(fws);
            return 0;
        }
    }
    if (baseline) { /* the overhead of the user's own builds */
        int rc = TS_EXIT_USAGE;
        if (build || quick)
            fprintf(stderr, "tracesim: overhead: %s belongs to the self-measuring mode, not to --baseline\n",
                    build ? "--firmware-dir" : "--quick");
        else
            rc = ts_overhead_run(&(ts_overhead_cfg_t){build, out, baseline, quick, channel, nfw, fws});
        free(fws);
        return rc;
    }
    free(fws);
    if (channel_given) {
        fprintf(stderr, "tracesim: overhead: --perf-channel belongs to --baseline (the ovh_* firmware uses channel %d)\n",
                OVH_PERF_CHANNEL);
        return TS_EXIT_USAGE;
    }
    if (nfw) {
        fprintf(stderr, "tracesim: overhead takes firmware arguments only with --baseline PLAIN.elf (see tracesim overhead --help)\n");
        return TS_EXIT_USAGE;
    }
    if (!*out) {
        fprintf(stderr, "tracesim: overhead: empty output folder name\n");
        return TS_EXIT_USAGE;
    }
    struct stat osb;
    if (!stat(out, &osb) && !S_ISDIR(osb.st_mode)) {
        fprintf(stderr, "tracesim: overhead -o takes an output folder, not a file: '%s'\n", out);
        return TS_EXIT_USAGE;
    }
    ts_overhead_cfg_t cfg = {build, out, NULL, quick, channel, 0, NULL};
    return ts_overhead_run(&cfg);
}
