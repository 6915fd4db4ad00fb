/* report_cli.c - `tracesim report [options] TRACE.rtd`: decodes the SiFive perf library's
 * records from a trace (decoder stages of decoder/) and writes the profile of
 * profile.h as text or, with --format csv, the flat profile as CSV. One profile per hart
 * (source): a trace of several harts gets a section per hart (--hart N: that one only), and
 * the CSV's first column is the hart. This file: the options, help and usage messages, the
 * inputs and the perf decode; the parts are named in report_int.h. */
#include "report_cli.h"
#include "report_int.h"
#include "elf_syms.h"
#include "ts_opts.h"
#include "run_input.h"
#include "trace_in.h"
#include "ts_file.h"
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
static void trace_in_free(ts_trace_in_t *t) {
    ts_trace_in_close(t);
    free(t);
}

int ts_report_main(int argc, char **argv) {
    const char *format = "text", *out_path = NULL, *elf = NULL, *cfg_path = NULL, *fields = NULL, *input = NULL, *from = NULL,
               *counter = NULL, *baseline = NULL;
    bool compensate = false;
    int srcbits = -1, tssize = -1, perf_channel = -1, hart = -1, c, inputs = 0;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_report_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (c) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            input = op.arg;
            inputs++;
            break;
        case R_FORMAT: format = op.arg; break;
        case R_OUT: out_path = op.arg; break;
        case R_SRCBITS: srcbits = (int)op.u; break;
        case R_TSSIZE: tssize = (int)op.u; break;
        case R_PERF_CHANNEL: perf_channel = (int)op.u; break;
        case R_ELF: elf = op.arg; break;
        case R_PERF_CONFIG: cfg_path = op.arg; break;
        case R_HART: hart = (int)op.u; break;
        case R_COMPENSATE: compensate = true; break;
        case R_FIELDS: fields = op.arg; break;
        case R_FROM: from = op.arg; break;
        case R_COUNTER: counter = op.arg; break;
        case R_BASELINE: baseline = op.arg; break;
        case R_HELP: ts_cmd_help(stdout, &ts_report_cmd); return 0;
        }
    }
    bool irq = !strcmp(format, "irq") || !strcmp(format, "irq-csv");
    if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "folded") && strcmp(format, "callgrind") && strcmp(format, "html") && !irq) {
        fprintf(stderr, "tracesim: unknown format '%s' for report (text, csv, folded, callgrind, html, irq, irq-csv)\n", format);
        return TS_EXIT_USAGE;
    }
    bool folded = !strcmp(format, "folded"), callgrind = !strcmp(format, "callgrind"), html = !strcmp(format, "html");
    if (baseline && !html) {
        fprintf(stderr, "tracesim: --baseline is for -f html\n");
        return TS_EXIT_USAGE;
    }
    if (html && from && !strcmp(from, "flow")) {
        fprintf(stderr, "tracesim: -f html is made from perf records, not --from flow\n");
        return TS_EXIT_USAGE;
    }
    if (counter && !folded) {
        fprintf(stderr, "tracesim: --counter is for -f folded\n");
        return TS_EXIT_USAGE;
    }
    if (from && strcmp(from, "perf") && strcmp(from, "flow")) {
        fprintf(stderr, "tracesim: unknown --from '%s' for report (perf, flow)\n", from);
        return TS_EXIT_USAGE;
    }
    if (from && !strcmp(from, "flow") && (compensate || fields || cfg_path)) {
        fprintf(stderr, "tracesim: --compensate, --fields and --perf-config are for perf records, not --from flow\n");
        return TS_EXIT_USAGE;
    }
    if (inputs != 1) {
        fprintf(stderr, "tracesim: report needs exactly one run folder or trace file (see tracesim report --help)\n");
        return TS_EXIT_USAGE;
    }
    char out_file[4400];
    if (out_path) { /* -o: an output folder, as in run, decode and overhead */
        size_t ol = strlen(out_path);
        struct stat osb;
        if (!ol || (!stat(out_path, &osb) && !S_ISDIR(osb.st_mode)) ||
            (ol > 4 && (!strcmp(out_path + ol - 4, ".txt") || !strcmp(out_path + ol - 4, ".csv") || !strcmp(out_path + ol - 4, "html")))) {
            fprintf(stderr, "tracesim: report -o takes an output folder (report.txt or report.csv is written in it), "
                            "not a file: '%s' (for one file: tracesim report ... > FILE)\n",
                    out_path);
            return TS_EXIT_USAGE;
        }
        snprintf(out_file, sizeof out_file, "%s/report.%s", out_path, folded || callgrind || html ? format : !strcmp(format, "irq") ? "irq.txt" :
                                                                                                         !strcmp(format, "irq-csv") ? "irq.csv" :
                                                                                                         strcmp(format, "csv")      ? "txt" :
                                                                                                                                      "csv");
    }
    char err[4600];
    static rctx_t rc; /* --fields: a usage error before the inputs are looked at */
    memset(&rc, 0, sizeof rc);
    if (fields && prof_parse_fields(&rc.po, fields, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_USAGE;
    }
    static ts_run_input_t ri; /* the run folder, the trace and the ELF (run_input.h) */
    if (irq) {                /* interrupts and threads (report_irq.c): a run folder without a trace has its ground truth */
        int fin = ts_run_input_folder(&ri, input);
        if (fin) return fin;
        return ts_report_irq(ri.ra.trace, ri.ra.run_dir, srcbits, tssize, hart, !strcmp(format, "irq-csv"), out_path, out_file);
    }
    int rin = ts_run_input(&ri, input, elf, true);
    if (rin) return rin;
    const char *path = ri.ra.trace;
    /* the trace is decoded in pieces (trace_in.h): what report holds of it is one buffer */
    size_t len;
    {
        FILE *probe = ts_fopen_input(path, err, sizeof err); /* a regular file only */
        struct stat st;
        if (!probe) {
            fprintf(stderr, "tracesim: %s\n", err);
            return TS_EXIT_NO_FILE;
        }
        len = fstat(fileno(probe), &st) ? 0 : (size_t)st.st_size;
        fclose(probe);
    }
    ts_trace_in_t *tin = calloc(1, sizeof *tin); /* closed and freed on every way out */
    if (!tin) {
        fprintf(stderr, "tracesim: out of memory\n");
        return TS_EXIT_HOST;
    }
    elf = ri.elf;
    if (ri.no_elf[0]) fprintf(stderr, "tracesim: warning: %s: functions by address\n", ri.no_elf);
    if (compensate && !elf) {
        fprintf(stderr, "tracesim: --compensate needs the run's ELF (the perf hooks' addresses): give --elf\n");
        trace_in_free(tin);
        return TS_EXIT_USAGE;
    }
    unsigned harts;
    bool harts_known;
    if (ts_trace_harts(path, &srcbits, &tssize, hart, &harts, &harts_known, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        trace_in_free(tin);
        return TS_EXIT_USAGE;
    }
    static perf_header_t cfgh[PERF_MAX_CORES];
    int ncfg = 0;
    unsigned cfg_channel = 6;
    if (cfg_path && (ncfg = ts_read_perf_config(cfg_path, cfgh, PERF_MAX_CORES, &cfg_channel, err, sizeof err)) < 0) {
        fprintf(stderr, "tracesim: %s\n", err);
        trace_in_free(tin);
        return TS_EXIT_NO_FILE;
    }
    if (perf_channel < 0) perf_channel = (int)cfg_channel;
    ts_trace_info_t ti; /* a wrapped buffer: decode from the first message end */
    ts_trace_info(path, &ti);
    nxd_cfg_t cfg = {(unsigned)srcbits, (unsigned)tssize};
    if (ts_trace_in_open(tin, path, &cfg, ti.wrapped)) {
        fprintf(stderr, "tracesim: cannot read %s\n", path);
        trace_in_free(tin);
        return TS_EXIT_NO_FILE;
    }
    size_t start = (size_t)tin->start;
    if (ti.wrapped) ts_wrap_note(path, &ti, start);
    if (from && !strcmp(from, "flow")) {
        trace_in_free(tin);
        if (!elf) {
            fprintf(stderr, "tracesim: --from flow needs the program the flow follows: give --elf FILE or a run folder\n");
            return TS_EXIT_USAGE;
        }
        return flow_report(path, &cfg, ti.wrapped, elf, hart, format, counter, out_path, out_file, true);
    }
    elf_syms_t syms;
    if (elf && elf_syms_load(&syms, elf, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        trace_in_free(tin);
        return TS_EXIT_NO_FILE;
    }
    /* the hooks' cost: the run folder's ground truth beside the trace */
    static hook_cost_t hc;
    bool have_hc = false;
    if (elf) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", path);
        const char *run_dir = dirname(dir);
        char gt[4200];
        snprintf(gt, sizeof gt, "%s/flow.csv", run_dir);
        bool have_gt = !access(gt, F_OK);
        if (have_gt || compensate) {
            if (hc_load(&hc, run_dir, &syms, err, sizeof err)) {
                fprintf(stderr, "tracesim: %s%s\n", compensate ? "--compensate: " : "note: instrumentation cost not measured: ", err);
                if (compensate) {
                    elf_syms_free(&syms);
                    trace_in_free(tin);
                    return TS_EXIT_NO_FILE;
                }
            } else {
                have_hc = true;
            }
        }
    }
    rc.po.sym = elf ? sym_of : NULL;
    rc.po.sym_ctx = elf ? &syms : NULL;
    rc.po.warn = r_warn;
    rc.po.warn_ctx = &rc;
    rc.po.compensate = compensate;
    src_lines_t *sl = elf ? src_lines_open(elf) : NULL;
    rc.po.line = sl ? line_of : NULL;
    rc.po.line_ctx = sl;
    rc.hc = have_hc ? &hc : NULL;
    rc.hart = hart;
    rpaths_t *paths = NULL; /* -f folded: the call paths */
    html_tl_t *tl = NULL;   /* -f html: the timeline */
    if ((folded || callgrind || html) && (!(paths = rp_new()) || (html && !(tl = html_tl_new(rc.prof))))) {
        rp_free(paths);
        fprintf(stderr, "tracesim: out of memory\n");
        src_lines_close(sl);
        if (elf) elf_syms_free(&syms);
        if (have_hc) hc_free(&hc);
        trace_in_free(tin);
        return TS_EXIT_HOST;
    }
    if (paths) rp_attach(paths, &rc.po);
    if (tl) html_tl_attach(tl, &rc.po);

    /* bytes -> messages -> elements -> perf records -> profile */
    perf_dec_cb_t cb = {&rc, r_header, r_record, r_error};
    perf_dec_t *pd = malloc(sizeof *pd);
    ts_elem_stage_t *es = malloc(sizeof *es);
    int status = 0;
    if (!pd || !es) {
        fprintf(stderr, "tracesim: out of memory\n");
        status = TS_EXIT_HOST;
        goto done;
    }
    perf_dec_init(pd, (unsigned)perf_channel, &cb);
    for (int k = 0; k < ncfg; k++) perf_dec_set_config(pd, &cfgh[k]);
    r_elem_t rel = {pd, &rc};
    ts_elem_init(es, elem_to_perf, &rel);
    ts_trace_in_all(tin, ts_elem_from_msg, es);
    len = (size_t)tin->end;
    ts_elem_eot(es, len);
    if (ti.stopped || (ti.found && len < ti.bytes)) perf_dec_ended_early(pd); /* stopped on wrap or the file was cut: a pending low word may have lost its high part */
    perf_dec_finish(pd);
    unsigned nprof = 0;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++)
        if (rc.prof[k]) {
            prof_finish(rc.prof[k]);
            nprof++;
        }
    if (rc.oom) {
        fprintf(stderr, "tracesim: out of memory\n");
        status = TS_EXIT_HOST;
        goto done;
    }
    if (hart >= 0 && !rc.prof[hart] && (pd->headers || pd->config_used)) {
        fprintf(stderr, "tracesim: no perf header of hart %d (marker 0x%08x) on ITC channel %d in %s\n", hart, pd->marker,
                perf_channel, path);
        status = TS_EXIT_NO_FILE;
        goto done;
    }
    if (!pd->headers && !pd->config_used && !from && elf && !fields && !compensate && !html) {
        /* no perf header: the profile from the program flow, if the trace has one */
        int frc = flow_report(path, &cfg, ti.wrapped, elf, hart, format, counter, out_path, out_file, false);
        if (frc >= 0) {
            status = frc;
            goto done;
        }
    }
    if (!pd->headers && !pd->config_used) {
        if (ti.wrapped && !cfg_path)
            fprintf(stderr, "tracesim: no perf header (marker 0x%08x) on ITC channel %d in %s: the buffer wrapped and the "
                            "header was overwritten; give it with --perf-config RUN_DIR/perf_config.txt\n",
                    pd->marker, perf_channel, path);
        else
            fprintf(stderr, "tracesim: no perf header (marker 0x%08x)%s on ITC channel %d in %s\n", pd->marker,
                    cfg_path ? " and no perf record" : "", perf_channel, path);
        status = TS_EXIT_NO_FILE;
        goto done;
    }
    if (pd->config_used)
        fprintf(stderr, "tracesim: note: records decoded with the out-of-band perf header of %s\n", cfg_path);

    report_out_t ro = {path, elf, cfg_path, format, counter, out_path, out_path ? out_file : NULL, hart, perf_channel,
                       compensate, &ti, len, start, harts, nprof, harts_known, pd, &rc, paths, tl, input, ri.ra.run_dir[0] ? ri.ra.run_dir : NULL, baseline, sl, false};
    status = report_write(&ro);
    if (ro.stop) goto done;
    if (have_hc && hc_failed(&hc))
        fprintf(stderr, "tracesim: warning: instrumentation cost measured only in part: %s\n", hc_failed(&hc));
    if (have_hc && hc.resume_guesses)
        fprintf(stderr, "tracesim: note: --compensate: flow.csv has no tp column (a run folder of an older version): %" PRIu64 " times several threads were left at the same instruction of a hook, and the one left first was "
                        "assumed to resume (a round robin); run the firmware again to follow the threads\n",
                hc.resume_guesses);
    if (rc.warnings > MAX_WARNINGS)
        fprintf(stderr, "tracesim: %u more warnings not shown (%u in all)\n", rc.warnings - MAX_WARNINGS, rc.warnings);
done:
    fflush(stdout);
    free(pd);
    free(es);
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) prof_free(rc.prof[k]);
    rp_free(paths);
    html_tl_free(tl);
    if (elf) elf_syms_free(&syms);
    if (have_hc) hc_free(&hc);
    src_lines_close(sl);
    trace_in_free(tin);
    return status;
}
