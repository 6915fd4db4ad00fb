/* report_cli.c - `tracesim report [options] TRACE.rtd`: a gprof-like profile of the SiFive
 * perf library's records in a trace. Its options, help and the values of its options; the
 * report itself (what the options say together, the inputs, the decode, the profile in each
 * format) is analysis/report's ts_report_run (report.h). */
#include "report_cli.h"
#include "report.h"
#include "perf_decode.h" /* PERF_MAX_CORES */
#include "ts_opts.h"
#include <stdio.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

enum { R_FORMAT = 1,
       R_ELF,
       R_PERF_CHANNEL,
       R_SRCBITS,
       R_TSSIZE,
       R_HART,
       R_PERF_CONFIG,
       R_COMPENSATE,
       R_FIELDS,
       R_OUT,
       R_FROM,
       R_COUNTER,
       R_BASELINE,
       R_HELP };
/* `tracesim report`'s options: the parser, --help and docs/commands/report.md (ts_opts.h) */
static const ts_opt_t report_opts[] = {
    {R_FORMAT, 'f', "format", TS_OPT_STRING, "F", 0, 0, 0, 0, 0, "text (default), csv (the flat profile), folded (folded stacks\n"
                                                                 "of one counter for flame graphs: --counter), callgrind (for\n"
                                                                 "KCacheGrind and callgrind_annotate: one hart, --hart), html\n"
                                                                 "(one self-contained page: summary, flame graph, timeline,\n"
                                                                 "sortable profile, instrumentation cost, overhead), irq\n"
                                                                 "(interrupts and threads in numbers), irq-csv (the same as CSV)"},
    {R_COUNTER, 0, "counter", TS_OPT_STRING, "NAME", 0, 0, 0, 0, 0,
     "-f folded: the counter the stacks count (a perf counter's name\n"
     "as the text report heads its columns; default: cycles, else the\n"
     "first; from the program flow: instructions)"},
    {R_ELF, 0, "elf", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "name functions after the symbols of this ELF (default with\n"
     "RUN_DIR: the ELF that ran; a warning if FILE is not that one)"},
    {R_PERF_CHANNEL, 0, "perf-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0,
     "perf library channel (default: --perf-config's, else 6)"},
    {R_SRCBITS, 0, "srcbits", TS_OPT_UINT, "N", 0, 8, 0, 0, 0,
     "SRC field width of the trace's messages (default: trace.json\nbeside the trace, else 0)"},
    {R_TSSIZE, 0, "tssize", TS_OPT_UINT, "N", 1, 64, 0, 0, 0, "timestamp width in bits (default: trace.json, else 40)"},
    {R_HART, 0, "hart", TS_OPT_UINT, "N", 0, PERF_MAX_CORES - 1, 0, 0, 0,
     "the profile of hart (source) N only (default: one per hart)"},
    {R_PERF_CONFIG, 0, "perf-config", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "the perf header out of band (perf_config.txt of the run\n"
     "folder), for a trace whose header was overwritten (a wrapped\nbuffer)"},
    {R_COMPENSATE, 0, "compensate", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "subtract the perf hooks' cycles (measured from the run folder's\n"
     "flow.csv and counters.csv; needs the run's ELF or --elf) from\nevery cycles figure"},
    {R_FIELDS, 0, "fields", TS_OPT_STRING, "LIST", 0, 0, 0, 0, 0,
     "the flat profile's columns, comma-separated: percent, calls,\n"
     "self, total, self_mean, total_mean (per call), hook (hook cycles\n"
     "inside self cycles), address, function (default: percent,calls,\nself,total,function)"},
    {R_FROM, 0, "from", TS_OPT_STRING, "SRC", 0, 0, 0, 0, 0,
     "what the profile is made from: perf (the perf library's records)\n"
     "or flow (the program trace: instructions per function, calls\n"
     "and call graph, cycles from timestamps; needs the ELF); default:\n"
     "perf, or flow when the trace has no perf header"},
    {R_BASELINE, 0, "baseline", TS_OPT_STRING, "RUN_DIR", 0, 0, 0, 0, 0,
     "-f html: a run of the program built without the perf\n"
     "instrumentation; the page shows the overhead against it"},
    {R_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0,
     "output folder: write DIR/report.txt (csv: DIR/report.csv)\ninstead of stdout"},
    {R_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t report_exits[] = {
    {"0", "the profile was written"},
    {"120", "usage: bad option or value, unknown format or field, not exactly\n"
            "one RUN_DIR or trace, -o naming a file, --compensate without an\n"
            "ELF, --hart not one of the trace's harts, a damaged trace.json,\n"
            "--from not perf or flow, --from flow without an ELF"},
    {"121", "the trace, the ELF or the perf config is missing or unreadable,\n"
            "or the trace has no perf header (of --hart N) and no program\n"
            "trace (with --from flow: no program trace)"},
    {"126", "the output cannot be written, out of memory"},
    {NULL, NULL}};
const ts_cmd_t ts_report_cmd = {
    "report", "tracesim report [options] RUN_DIR|TRACE.rtd",
    "RUN_DIR: a run folder of tracesim run (its trace.rtd, and its ELF unless --elf says\n"
    "otherwise); TRACE.rtd: a trace file (functions by address unless --elf is given).\n"
    "\n"
    "A gprof-like profile from the SiFive perf library's records in a trace: flat profile\n"
    "(calls, self and total of every counter per function), call graph, manual records per\n"
    "call site, ISR samples per function. From an instruction trace (run --trace-insn) with\n"
    "--from flow: instructions per function, calls and call graph from the program flow alone.\n",
    report_opts, 0, "  stdout, or with -o DIR: DIR/report.txt (csv: DIR/report.csv, folded:\n"
                    "  DIR/report.folded, callgrind: DIR/report.callgrind, html:\n"
                    "  DIR/report.html, irq: DIR/report.irq.txt, irq-csv: DIR/report.irq.csv)\n",
    report_exits, NULL};

int ts_report_main(int argc, char **argv) {
    ts_report_cfg_t c = {.format = "text", .srcbits = -1, .tssize = -1, .perf_channel = -1, .hart = -1};
    int inputs = 0, oc;
    const char *input = NULL;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_report_cmd, argc, argv);
    while ((oc = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (oc) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            input = op.arg;
            inputs++;
            break;
        case R_FORMAT: c.format = op.arg; break;
        case R_OUT: c.out_dir = op.arg; break;
        case R_SRCBITS: c.srcbits = (int)op.u; break;
        case R_TSSIZE: c.tssize = (int)op.u; break;
        case R_PERF_CHANNEL: c.perf_channel = (int)op.u; break;
        case R_ELF: c.elf = op.arg; break;
        case R_PERF_CONFIG: c.cfg_path = op.arg; break;
        case R_HART: c.hart = (int)op.u; break;
        case R_COMPENSATE: c.compensate = true; break;
        case R_FIELDS: c.fields = op.arg; break;
        case R_FROM: c.from = op.arg; break;
        case R_COUNTER: c.counter = op.arg; break;
        case R_BASELINE: c.baseline = op.arg; break;
        case R_HELP: ts_cmd_help(stdout, &ts_report_cmd); return 0;
        }
    }
    c.input = inputs == 1 ? input : NULL; /* else ts_report_run's usage message */
    return ts_report_run(&c);
}
