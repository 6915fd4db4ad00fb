/* decode_cli.c - `tracesim decode TRACE.rtd`: decodes a captured trace. Its options, help
 * and usage messages, its inputs (the run folder, the trace, the ELF, the trace's settings)
 * and the output file; the formats are in decode_msgs.c (messages), decode_perf.c (perf,
 * csv, timeline, perfetto) and decode_text.c (elements, instr, stm, itcprint), decode_int.h. */
#include "decode_cli.h"
#include "decode_int.h"
#include "ts_opts.h"
#include "run_input.h"
#include "run_losses.h"
#include "elf_syms.h"
#include "ts_file.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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


/* the trace's settings (trace.json beside it, the command line), the out-of-band perf
 * header, where a wrapped buffer's decoding starts, and the test that the file is a trace;
 * the notes on what the trace lacks. 0, or the exit status with the one line on stderr. */
static int decode_open(decode_job_t *j, int *srcbits, int *tssize, int perf_channel) {
    char err[4600];
    const char *path = j->path;
    unsigned harts; /* trace.json beside the trace */
    if (ts_trace_harts(path, srcbits, tssize, j->hart, &harts, NULL, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_USAGE;
    }
    j->srcbits = *srcbits;
    j->tssize = *tssize;
    j->cfg = (nxd_cfg_t){(unsigned)*srcbits, (unsigned)*tssize};
    /* the perf header out of band; its channel unless --perf-channel says otherwise */
    static perf_header_t cfgh[PERF_MAX_CORES];
    int ncfg = 0;
    unsigned cfg_channel = 6;
    if (j->cfg_path) {
        ncfg = ts_read_perf_config(j->cfg_path, cfgh, PERF_MAX_CORES, &cfg_channel, err, sizeof err);
        if (ncfg < 0) {
            fprintf(stderr, "tracesim: %s\n", err);
            return TS_EXIT_NO_FILE;
        }
    }
    j->cfgh = cfgh;
    j->ncfg = ncfg;
    j->perf_channel = perf_channel < 0 ? (int)cfg_channel : perf_channel;
    /* a wrapped buffer starts in the middle of a message: decode from the first message end */
    ts_trace_info(path, &j->ti);
    j->start = j->ti.wrapped ? ts_wrap_start(j->data, j->len) : 0;
    if (j->ti.wrapped) ts_wrap_note(path, &j->ti, j->start);
    uint64_t nbad[2];
    if (not_a_trace(&j->cfg, j->data + j->start, j->len - j->start, nbad)) {
        fprintf(stderr, "tracesim: %s is not a trace: %" PRIu64 " of the first %" PRIu64 " messages cannot be decoded (srcbits %d, "
                        "tssize %d; a trace.rtd of tracesim run is one)\n",
                path, nbad[1], nbad[0], *srcbits, *tssize);
        return TS_EXIT_NO_FILE;
    }
    /* what the trace lacks, from the run folder's ground truth */
    ts_losses_t loss;
    char lerr[512];
    if (!ts_losses_read_for_trace(path, j->perf_channel, &loss, lerr, sizeof lerr)) {
        loss.wrapped = false;                   /* the note above */
        loss.by_status[TS_ITC_ENCODER_OFF] = 0; /* never meant for the trace */
        ts_losses_print(stderr, "tracesim: note: ", &loss);
    }
    if (j->ti.found && j->len < j->ti.bytes)
        fprintf(stderr, "tracesim: note: %s holds %zu of the %" PRIu64 " bytes the sink kept (trace.json): the file was cut; "
                        "a record at the cut is marked truncated\n",
                path, j->len, j->ti.bytes);
    return 0;
}

int ts_decode_main(int argc, char **argv) {
    const char *format = "messages", *out_dir = NULL, *elf = NULL, *cfg_path = NULL, *input = NULL;
    int srcbits = -1, tssize = -1, channel = 0, perf_channel = -1, hart = -1, c, inputs = 0, time_cycles = -1;
    double tick_hz = 100e6;
    bool value_time = false;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_decode_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (c) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            input = op.arg;
            inputs++;
            break;
        case D_FORMAT: format = op.arg; break;
        case D_OUT: out_dir = op.arg; break;
        case D_SRCBITS: srcbits = (int)op.u; break;
        case D_TSSIZE: tssize = (int)op.u; break;
        case D_ITC_CHANNEL: channel = (int)op.u; break;
        case D_PERF_CHANNEL: perf_channel = (int)op.u; break;
        case D_ELF: elf = op.arg; break;
        case D_TICK_HZ: tick_hz = op.r; break;
        case D_PERF_LINE_TIME:
            if (strcmp(op.arg, "record") && strcmp(op.arg, "value")) {
                fprintf(stderr, "tracesim: invalid value '%s' for --perf-line-time (record or value)\n", op.arg);
                return TS_EXIT_USAGE;
            }
            value_time = !strcmp(op.arg, "value");
            break;
        case D_PERF_CONFIG: cfg_path = op.arg; break;
        case D_HART:
        case D_SRC: hart = (int)op.u; break;
        case D_HELP: ts_cmd_help(stdout, &ts_decode_cmd); return 0;
        case D_TIME:
            if (strcmp(op.arg, "cycles") && strcmp(op.arg, "ticks")) {
                fprintf(stderr, "tracesim: invalid value '%s' for --time (cycles or ticks)\n", op.arg);
                return TS_EXIT_USAGE;
            }
            time_cycles = !strcmp(op.arg, "cycles");
            break;
        }
    }
    if (strcmp(format, "messages") && strcmp(format, "itcprint") && strcmp(format, "csv") &&
        strcmp(format, "timeline") && strcmp(format, "perfetto") && strcmp(format, "elements") && strcmp(format, "perf") && strcmp(format, "stm") && strcmp(format, "instr")) {
        fprintf(stderr, "tracesim: unknown format '%s' (messages, elements, instr, itcprint, perf, csv, timeline, perfetto, stm)\n", format);
        return TS_EXIT_USAGE;
    }
    if (time_cycles >= 0 && strcmp(format, "csv") && strcmp(format, "timeline") && strcmp(format, "perfetto")) {
        fprintf(stderr, "tracesim: --time is for --format csv, timeline and perfetto\n");
        return TS_EXIT_USAGE;
    }
    if (inputs != 1) {
        fprintf(stderr, "tracesim: decode needs exactly one run folder or trace file (see tracesim decode --help)\n");
        return TS_EXIT_USAGE;
    }
    bool want_instr = !strcmp(format, "instr");
    if (want_instr && !elf && !ts_is_dir(input)) {
        fprintf(stderr, "tracesim: --format instr needs the program: --elf FILE (or give the run folder)\n");
        return TS_EXIT_USAGE;
    }
    if (out_dir) {
        struct stat osb;
        if (!*out_dir || (!stat(out_dir, &osb) && !S_ISDIR(osb.st_mode))) {
            fprintf(stderr, "tracesim: decode -o takes an output folder, not a file: '%s'\n", out_dir);
            return TS_EXIT_USAGE;
        }
    }
    static ts_run_input_t ri; /* the run folder, the trace and the ELF (run_input.h) */
    int st = ts_run_input(&ri, input, elf, !strcmp(format, "csv") || !strcmp(format, "perf") || !strcmp(format, "timeline") || !strcmp(format, "perfetto") || want_instr);
    if (st) return st;
    const char *path = ri.ra.trace;
    char err[4600];
    static ts_input_t in; /* mapped when big: no copy (ts_file.h) */
    if (ts_input_open(&in, path, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    elf = ri.elf;
    if (ri.no_elf[0]) {
        if (want_instr) { /* the flow cannot be followed without the program */
            fprintf(stderr, "tracesim: --format instr: %s; give the program: --elf FILE\n", ri.no_elf);
            ts_input_close(&in);
            return TS_EXIT_NO_FILE;
        }
        fprintf(stderr, "tracesim: warning: %s: addresses are not named\n", ri.no_elf);
    }
    if (elf) { /* the ELF readable before any output is made */
        elf_syms_t chk;
        if (elf_syms_load(&chk, elf, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            ts_input_close(&in);
            return TS_EXIT_NO_FILE;
        }
        elf_syms_free(&chk);
    }
    static decode_job_t j;
    memset(&j, 0, sizeof j);
    j.path = path;
    j.elf = elf;
    j.cfg_path = cfg_path;
    j.out_dir = out_dir;
    j.data = in.p;
    j.len = in.len;
    j.hart = hart;
    j.channel = channel;
    j.time_cycles = time_cycles;
    j.tick_hz = tick_hz;
    j.value_time = value_time;
    j.first_rec = UINT64_MAX;
    int rc = decode_open(&j, &srcbits, &tssize, perf_channel);
    if (rc) {
        ts_input_close(&in);
        return rc;
    }
    if (!strcmp(format, "perf")) {
        rc = decode_perf_files(&j);
        ts_input_close(&in);
        return rc;
    }
    char opath[4200];
    FILE *out = stdout;
    if (out_dir) {
        if (ts_mkdir_p(out_dir)) {
            fprintf(stderr, "tracesim: cannot create %s: %s\n", out_dir, strerror(errno));
            ts_input_close(&in);
            return TS_EXIT_HOST;
        }
        snprintf(opath, sizeof opath, "%s/%s", out_dir,
                 !strcmp(format, "messages") ? "messages.jsonl" : !strcmp(format, "csv")  ? "perf.csv" :
                                                              !strcmp(format, "timeline") ? "timeline.json" :
                                                              !strcmp(format, "perfetto") ? "trace.pftrace" :
                                                              !strcmp(format, "elements") ? "elements.txt" :
                                                              !strcmp(format, "stm")      ? "stm.txt" :
                                                              !strcmp(format, "instr")    ? "instr.txt" :
                                                                                            "itcprint.txt");
        out = ts_fopen_output(opath, "w", err, sizeof err); /* a temporary file, renamed at the end */
        if (!out) {
            fprintf(stderr, "tracesim: %s\n", err);
            ts_input_close(&in);
            return TS_EXIT_HOST;
        }
        ts_input_remove_on_cut(ts_output_tmp_name(out)); /* the trace cut by another process meanwhile: no half file */
    }
    /* one big output buffer: a write per MiB, not per 4 KiB (write errors stay sticky in the
     * stream: ts_fclose_output, and main's ts_check_stdout for stdout) */
    static char stdout_buf[1 << 20];
    char *obuf = NULL;
    if (!strcmp(format, "messages")) setvbuf(out, NULL, _IONBF, 0); /* msg_json's own 1 MiB blocks go out uncopied */
    else if (out == stdout)
        setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
    else if ((obuf = malloc(1 << 20)))
        setvbuf(out, obuf, _IOFBF, 1 << 20);
    j.out = out;
    if (!strcmp(format, "messages")) rc = decode_messages(&j);
    else if (!strcmp(format, "csv") || !strcmp(format, "timeline"))
        rc = decode_perf_stream(&j, !strcmp(format, "csv"));
    else if (!strcmp(format, "perfetto"))
        rc = decode_perfetto(&j);
    else if (!strcmp(format, "stm"))
        rc = decode_stm(&j);
    else if (!strcmp(format, "elements") || !strcmp(format, "instr"))
        rc = decode_elements(&j, !strcmp(format, "instr"));
    else
        rc = decode_itcprint(&j);
    if (j.abort_out) { /* an error before the output was complete: no half file */
        if (out != stdout) ts_output_abort(out);
        free(obuf);
        ts_input_close(&in);
        return rc;
    }
    char werr[4400];
    if (out != stdout && ts_fclose_output(out, opath, werr, sizeof werr)) { /* a full disk is never a silent short file */
        fprintf(stderr, "tracesim: %s\n", werr);
        rc = TS_EXIT_HOST;
    }
    free(obuf);
    fflush(stdout);
    ts_input_close(&in);
    return rc;
}
