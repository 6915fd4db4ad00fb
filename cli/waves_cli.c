/* waves_cli.c - the `tracesim waves` command: its options, help and usage messages; the
 * markers, the view and GTKWave are waves/gtkwave's ts_waves_run (markers.h). */
#include "waves_cli.h"
#include "markers.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { W_NO_GUI = 1,
       W_ELF,
       W_AT,
       W_OUT,
       W_HELP };
/* `tracesim waves`'s options: the parser, --help and docs/commands/waves.md (ts_opts.h) */
static const ts_opt_t waves_opts[] = {
    {W_NO_GUI, 0, "no-gui", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "write the view and the markers and print the GTKWave command\ninstead of running it"},
    {W_ELF, 0, "elf", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "name PCs after the functions of this ELF (default: the run's,\nfound through RUN_DIR/stats.txt; a warning if FILE is not it)"},
    {W_AT, 0, "at", TS_OPT_UINT, "CYCLE", 0, UINT64_MAX - 1, 0, 0, 0,
     "open zoomed on this cycle (default: the first trace stop or loss,\nelse the first perf record, else the first marker, else the start\nof the first dumped stretch); it must have been dumped"},
    {W_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, TS_OPT_REFUSE,
     "waves writes its files into the run folder, so it has no -o/--out"},
    {W_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t waves_exits[] = {
    {"0", "with --no-gui: the files were written; else GTKWave's own status"},
    {"120", "usage: bad option, no RUN_DIR, more than three arguments, a\nVIEW or HART the view script refuses"},
    {"121", "the run folder, its waves, its ELF or a file the markers come\nfrom is missing, unreadable or damaged"},
    {"126", "no display (use --no-gui), the files cannot be written, gtkwave\ncannot be run"},
    {NULL, NULL}};
const ts_cmd_t ts_waves_cmd = {
    "waves", "tracesim waves [options] RUN_DIR [VIEW [HART]]",
    "Opens the run's waves in GTKWave with a view (pipeline, bus, trace, hpm, harts; default\n"
    "pipeline) of hart HART (default 0), PCs named after the ELF's functions, named markers\n"
    "A..Z and the log of every marker (MARK writes, perf records, ITC stores and software\n"
    "trace events lost, the trace stopping). The waves and the ELF are the run's (stats.txt),\n"
    "wherever the run folder is now. Time in the waves is in cycles (one time unit per cycle;\n"
    "GTKWave labels it ns). GTKWave opens zoomed on --at CYCLE, else on the first marker, else\n"
    "on the start of the first dumped stretch (waves_windows.csv), with the primary marker\n"
    "there; markers outside the dumped stretches are left out. The signal probe_dumping_i is 0\n"
    "where the dump paused.\n",
    waves_opts, 0,
    "  RUN_DIR/markers.txt (the marker log), RUN_DIR/markers.tcl (the markers), RUN_DIR/view.gtkw\n"
    "  (the view); with --no-gui the GTKWave command on stdout\n",
    waves_exits, NULL};

int ts_waves_main(int argc, char **argv) {
    const char *run = NULL, *view = "pipeline", *hart = "0", *elf_opt = NULL;
    bool gui = true, has_at = false;
    uint64_t at = 0;
    int pos = 0, c;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_waves_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (c) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            if (pos == 0) run = op.arg;
            else if (pos == 1)
                view = op.arg;
            else if (pos == 2)
                hart = op.arg;
            else {
                fprintf(stderr, "tracesim: waves takes RUN_DIR [VIEW [HART]] (see tracesim waves --help)\n");
                return TS_EXIT_USAGE;
            }
            pos++;
            break;
        case W_NO_GUI: gui = false; break;
        case W_ELF: elf_opt = op.arg; break;
        case W_AT:
            at = op.u;
            has_at = true;
            break;
        case W_HELP: ts_cmd_help(stdout, &ts_waves_cmd); return 0;
        }
    }
    if (!run) {
        fprintf(stderr, "tracesim: waves needs a run folder (see tracesim waves --help)\n");
        return TS_EXIT_USAGE;
    }
    if (gui && !(getenv("DISPLAY") && *getenv("DISPLAY")) && !(getenv("WAYLAND_DISPLAY") && *getenv("WAYLAND_DISPLAY"))) {
        fprintf(stderr, "tracesim: no display: use --no-gui (writes the view and markers and prints the gtkwave command)\n");
        return TS_EXIT_HOST;
    }
    ts_waves_cfg_t cfg = {run, view, hart, elf_opt, gui, has_at, at};
    return ts_waves_run(&cfg);
}
