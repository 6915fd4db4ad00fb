/* decode_cli.c - `tracesim decode TRACE.rtd`: decodes a captured trace. Its options, help
 * and the values of its options; the decode itself (what the options say together, the
 * inputs, the output file, the formats) is analysis/decode's ts_decode_run (decode.h). */
#include "decode_cli.h"
#include "decode.h"
#include "nexus_decode.h" /* NXD_MAX_SRC */
#include "ts_opts.h"
#include <stdio.h>
#include <string.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

enum { D_FORMAT = 1,
       D_TICK_HZ,
       D_SRCBITS,
       D_TSSIZE,
       D_HART,
       D_SRC,
       D_ITC_CHANNEL,
       D_PERF_CHANNEL,
       D_ELF,
       D_PERF_LINE_TIME,
       D_PERF_CONFIG,
       D_TIME,
       D_OUT,
       D_HELP };
/* `tracesim decode`'s options: the parser, --help and docs/commands/decode.md (ts_opts.h) */
static const ts_opt_t decode_opts[] = {
    {D_FORMAT, 'f', "format", TS_OPT_STRING, "F", 0, 0, 0, 0, 0,
     "messages (JSON lines, default), elements (generic trace elements),\n"
     "instr (the program flow, one instruction a line; needs the ELF:\n"
     "RUN_DIR's, or --elf),\n"
     "itcprint, perf (SiFive decoder's perf files in DIR), csv (perf\n"
     "records), timeline (Chrome/Perfetto trace-event JSON: perf records,\n"
     "software trace thread slices and events), perfetto (a Perfetto\n"
     "protobuf trace: perf records on a track per hart and thread, counter\n"
     "tracks, source lines; software trace events and thread slices;\n"
     "program-flow calls; traps.csv's traps; for big traces) or stm (software trace\n"
     "port events, one a line: time hart group id name value)"},
    {D_TICK_HZ, 0, "tick-hz", TS_OPT_REAL, "HZ", 0, 0, 1, 1e15, 0, "timestamp ticks per second for the timeline (default 100e6)"},
    {D_TIME, 0, "time", TS_OPT_STRING, "cycles|ticks", 0, 0, 0, 0, 0,
     "csv, timeline and perfetto times: simulator cycles (the default for a run\n"
     "folder whose trace.json gives ts_cycle_offset; timeline: 1 us =\n"
     "1 cycle, perfetto: 1 ns = 1 cycle) or trace timestamp ticks (the default otherwise)"},
    {D_SRCBITS, 0, "srcbits", TS_OPT_UINT, "N", 0, 8, 0, 0, 0,
     "SRC field width of the trace's messages (default: trace.json\nbeside the trace, else 0)"},
    {D_TSSIZE, 0, "tssize", TS_OPT_UINT, "N", 1, 64, 0, 0, 0, "timestamp width in bits (default: trace.json, else 40)"},
    {D_HART, 0, "hart", TS_OPT_UINT, "N", 0, NXD_MAX_SRC - 1, 0, 0, 0,
     "keep only the messages of hart (source) N (SRC field); every\nformat shows the source of each message and record"},
    {D_SRC, 0, "src", TS_OPT_UINT, "N", 0, NXD_MAX_SRC - 1, 0, 0, 0, "the same as --hart"},
    {D_ITC_CHANNEL, 0, "itc-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0, "itcprint: the ITC print channel (default 0)"},
    {D_PERF_CHANNEL, 0, "perf-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0,
     "perf library channel (default: --perf-config's, else 6)"},
    {D_ELF, 0, "elf", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "name addresses after the functions of this ELF (csv, perf,\n"
     "timeline, perfetto; default with RUN_DIR: the ELF that ran; a warning if\n"
     "FILE is not it); instr, elements: the program the flow follows\n"
     "(instr: default with RUN_DIR the ELF that ran)"},
    {D_PERF_LINE_TIME, 0, "perf-line-time", TS_OPT_STRING, "record|value", 0, 0, 0, 0, 0,
     "perf: stamp a record's lines with its time and the header's\n"
     "with the header's (record, default), or each line with the time\n"
     "of the message that completed it (value, SiFive's)"},
    {D_PERF_CONFIG, 0, "perf-config", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "the perf header out of band (perf_config.txt of the run\n"
     "folder), for a trace whose header was overwritten (a wrapped\nbuffer)"},
    {D_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0,
     "output folder: write DIR/messages.jsonl, elements.txt,\n"
     "instr.txt, itcprint.txt, perf.csv, timeline.json,\n"
     "trace.pftrace or stm.txt\n"
     "instead of stdout (perf: the SiFive files in DIR instead of the\ntrace's folder)"},
    {D_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t decode_exits[] = {
    {"0", "decoded (corrupt messages are listed and counted, not fatal)"},
    {"120", "usage: bad option or value, unknown format, instr on a trace file\n"
            "without --elf, instr on an event / PC-sample trace (teInstruction\n"
            "1) or on a trace without program trace (teInstruction 0),\n"
            "not exactly one RUN_DIR or trace, -o naming a file, --hart not\n"
            "one of the trace's harts, --srcbits differing from trace.json's,\na damaged trace.json"},
    {"121", "the trace, the ELF or the perf config is missing or unreadable,\nor the file is not a trace, or it was cut while being read"},
    {"126", "an output cannot be written, out of memory"},
    {NULL, NULL}};
const ts_cmd_t ts_decode_cmd = {
    "decode", "tracesim decode [options] RUN_DIR|TRACE.rtd",
    "Decodes a captured Nexus trace (the sink image, oldest byte first): RUN_DIR/trace.rtd of a\n"
    "run folder (with its ELF for csv, perf, timeline and instr unless --elf says otherwise),\n"
    "or a trace file.\n",
    decode_opts, 0,
    "  stdout, or with -o DIR the file of the format in DIR (see -o); perf: the SiFive perf\n"
    "  files in the trace's folder or DIR\n",
    decode_exits,
    "messages: Ownership messages show their PROCESS field (\"process\") when trace.json is beside\n"
    "the trace (a tracesim run); without it the fields are those of the reference files of real\n"
    "captures, which leave PROCESS out.\n"};


int ts_decode_main(int argc, char **argv) {
    ts_decode_cfg_t c = {.format = "messages", .srcbits = -1, .tssize = -1, .perf_channel = -1, .hart = -1, .time_cycles = -1, .tick_hz = 100e6};
    int inputs = 0, oc;
    const char *input = NULL;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_decode_cmd, argc, argv);
    while ((oc = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (oc) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            input = op.arg;
            inputs++;
            break;
        case D_FORMAT: c.format = op.arg; break;
        case D_OUT: c.out_dir = op.arg; break;
        case D_SRCBITS: c.srcbits = (int)op.u; break;
        case D_TSSIZE: c.tssize = (int)op.u; break;
        case D_ITC_CHANNEL: c.channel = (int)op.u; break;
        case D_PERF_CHANNEL: c.perf_channel = (int)op.u; break;
        case D_ELF: c.elf = op.arg; break;
        case D_TICK_HZ: c.tick_hz = op.r; break;
        case D_PERF_LINE_TIME:
            if (strcmp(op.arg, "record") && strcmp(op.arg, "value")) {
                fprintf(stderr, "tracesim: invalid value '%s' for --perf-line-time (record or value)\n", op.arg);
                return TS_EXIT_USAGE;
            }
            c.value_time = !strcmp(op.arg, "value");
            break;
        case D_PERF_CONFIG: c.cfg_path = op.arg; break;
        case D_HART:
        case D_SRC: c.hart = (int)op.u; break;
        case D_HELP: ts_cmd_help(stdout, &ts_decode_cmd); return 0;
        case D_TIME:
            if (strcmp(op.arg, "cycles") && strcmp(op.arg, "ticks")) {
                fprintf(stderr, "tracesim: invalid value '%s' for --time (cycles or ticks)\n", op.arg);
                return TS_EXIT_USAGE;
            }
            c.time_cycles = !strcmp(op.arg, "cycles");
            break;
        }
    }
    c.input = inputs == 1 ? input : NULL; /* else ts_decode_run's usage message */
    return ts_decode_run(&c);
}
