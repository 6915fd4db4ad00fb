/* check_cli.c - the `tracesim check` command: its options, help and usage messages; the
 * check itself is analysis/check's ts_check_run (ground_truth.h). */
#include "check_cli.h"
#include "ground_truth.h"
#include "ts_opts.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <stdio.h>

enum { C_PERF_CHANNEL = 1,
       C_ELF,
       C_PERF_CONFIG,
       C_OUT,
       C_HELP };
/* `tracesim check`'s options: the parser, --help and docs/commands/check.md (ts_opts.h) */
static const ts_opt_t check_opts[] = {
    {C_PERF_CHANNEL, 0, "perf-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0, "perf library channel (default 6)"},
    {C_ELF, 0, "elf", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "the ELF for the perf records' addresses (default: the run's,\n"
     "found through RUN_DIR/stats.txt; a warning if FILE is not the\nELF that ran)"},
    {C_PERF_CONFIG, 0, "perf-config", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "the perf header of a wrapped trace (default:\nRUN_DIR/perf_config.txt, else the header in itc.csv)"},
    {C_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, TS_OPT_REFUSE,
     "check writes no files, so it has no -o/--out (it prints its verdict)"},
    {C_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t check_exits[] = {
    {"0", "the trace matches the ground truth"},
    {"1", "check FAILED: the trace differs from the ground truth (the first\ndifference is printed)"},
    {"120", "usage: bad option or value, not exactly one RUN_DIR"},
    {"121", "the run folder, its trace.rtd, trace.json, itc.csv, stm.csv or\n"
            "ground truth, or the ELF is missing, unreadable or damaged"},
    {"126", "out of memory, bad trace settings, more harts than check handles"},
    {NULL, NULL}};
const ts_cmd_t ts_check_cmd = {
    "check", "tracesim check [options] RUN_DIR",
    "Compares the run's trace with the simulator's ground truth: every ITC store (itc.csv),\n"
    "every software trace port event (stm.csv: traced ones in order with their timestamps,\n"
    "lost ones matched by Error messages), every perf record (counters.csv, flow.csv, the\n"
    "ELF's symbols) and, with program trace, the flow rebuilt from the trace and the ELF,\n"
    "instruction by instruction (prog_flow.csv). RUN_DIR is a run folder of tracesim run\n"
    "(RUN_DIR/trace.rtd also works: its folder is the run folder). With several harts every\n"
    "hart is checked against its own rows (the messages of SRC n against hart n's), with one\n"
    "time base, and the verdict is given per hart.\n",
    check_opts, 0, "  the verdict on stdout (\"check: ...\" lines); no files\n", check_exits, NULL};

int ts_check_main(int argc, char **argv) {
    unsigned perf_channel = 6;
    const char *elf = NULL, *dir = NULL, *perf_config = NULL;
    int oc;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_check_cmd, argc, argv);
    while ((oc = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (oc) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            if (dir) {
                fprintf(stderr, "tracesim: check takes one run folder (see tracesim check --help)\n");
                return TS_EXIT_USAGE;
            }
            dir = op.arg;
            break;
        case C_PERF_CHANNEL: perf_channel = (unsigned)op.u; break;
        case C_ELF: elf = op.arg; break;
        case C_PERF_CONFIG: perf_config = op.arg; break;
        case C_HELP: ts_cmd_help(stdout, &ts_check_cmd); return 0;
        }
    }
    if (!dir) {
        fprintf(stderr, "tracesim: check needs a run folder of tracesim run (see tracesim check --help)\n");
        return TS_EXIT_USAGE;
    }
    ts_check_cfg_t cfg = {dir, elf, perf_config, perf_channel};
    return ts_check_run(&cfg);
}
