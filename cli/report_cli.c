/* report_cli.c - `tracesim report [options] TRACE.rtd`: decodes the SiFive perf library's
 * records from a trace (decoder stages of decoder/) and writes the profile of
 * profile.h as text or, with --format csv, the flat profile as CSV. One profile per hart
 * (source): a trace of several harts gets a section per hart (--hart N: that one only), and
 * the CSV's first column is the hart. */
#include "report_cli.h"
#include "cli_util.h"
#include "run_losses.h"
#include "elements.h"
#include "elf_syms.h"
#include "flow_profile.h"
#include "hook_cost.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include "profile.h"
#include "out_paths.h"
#include "ts_opts.h"
#include "run_folder.h"
#include <sys/stat.h>
#include "src_lines.h"
#include "trace_in.h"
#include "ts_file.h"
#include <unistd.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#define MAX_WARNINGS 10

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
       R_HELP };
/* `tracesim report`'s options: the parser, --help and docs/commands/report.md (ts_opts.h) */
static const ts_opt_t report_opts[] = {
    {R_FORMAT, 'f', "format", TS_OPT_STRING, "F", 0, 0, 0, 0, 0, "text (default), csv (the flat profile), folded (folded stacks\n"
                                                                 "of one counter for flame graphs: --counter), callgrind (for\n"
                                                                 "KCacheGrind and callgrind_annotate: one hart, --hart)"},
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
                    "  DIR/report.folded, callgrind: DIR/report.callgrind)\n",
    report_exits, NULL};

typedef struct rctx {
    prof_t *prof[PERF_MAX_CORES]; /* per hart, made when its first header arrives */
    prof_opts_t po;
    int hart;        /* --hart, or -1 */
    hook_cost_t *hc; /* the hooks' cost from the ground truth, or NULL */
    bool oom;
    uint64_t errors, gaps;
    unsigned warnings;
    /* THREAD_SWITCH events that came while a record was assembled (the decoder hands a record
     * over when the next one starts), in order; beyond SWITCH_QUEUE only the last is kept */
#define SWITCH_QUEUE 16
    unsigned switch_n[PERF_MAX_CORES];
    uint64_t switch_id[PERF_MAX_CORES][SWITCH_QUEUE];
} rctx_t;
static prof_t *hart_prof(rctx_t *c, unsigned core) {
    core %= PERF_MAX_CORES;
    if (c->hart >= 0 && core != (unsigned)c->hart) return NULL;
    if (!c->prof[core] && !(c->prof[core] = prof_new(&c->po))) c->oom = true;
    return c->prof[core];
}
static void r_header(void *v, const perf_header_t *h) {
    prof_t *p = hart_prof(v, h->core);
    if (p) prof_header(p, h);
}
static void r_record(void *v, const perf_record_t *r) {
    rctx_t *c = v;
    if (c->hart >= 0 && r->core % PERF_MAX_CORES != (unsigned)c->hart) return;
    prof_t *p = c->prof[r->core % PERF_MAX_CORES];
    if (!p) return;
    if (c->hc) { /* the record's hook call in the ground truth */
        if (r->gap_before) hc_reset(c->hc, r->core);
        int cyc = prof_cycles_index(p);
        uint64_t d = UINT64_MAX, pre = 0, post = 0;
        for (unsigned i = 0; i < r->n; i++)
            if ((int)r->index[i] == cyc && !(r->delta_unknown >> i & 1)) d = r->delta[i];
        /* a truncated record still pairs (its cycles value moves the next record's delta) */
        bool ok = hc_match(c->hc, r, d, &pre, &post);
        prof_hook(p, r->core, ok, pre, post);
        if (ok) {
            uint64_t handler, late, moved;
            hc_match_traps(c->hc, r, &handler, &late, &moved);
            prof_hook_traps(p, r->core, handler, late, moved);
        }
    }
    prof_record(p, r);
    unsigned k = r->core % PERF_MAX_CORES;
    for (unsigned i = 0; i < c->switch_n[k]; i++) /* the record's stores came before them */
        prof_thread(p, k, c->switch_id[k][i]);
    c->switch_n[k] = 0;
}
static void r_error(void *v, unsigned core, uint64_t off, const char *w) { ts_perf_diag(&((rctx_t *)v)->errors, &((rctx_t *)v)->gaps, core, off, w); }
static void r_warn(void *v, const char *msg) {
    rctx_t *c = v;
    if (c->warnings++ < MAX_WARNINGS) fprintf(stderr, "tracesim: warning: %s\n", msg);
}
/* elements to the perf decoder; THREAD_SWITCH events (software trace port) to the profile,
 * after the record being assembled when one is */
typedef struct r_elem {
    perf_dec_t *pd;
    rctx_t *rc;
} r_elem_t;
static int elem_to_perf(void *v, const ts_elem_t *e) {
    r_elem_t *x = v;
    if (e->type == TS_ELEM_STM && e->u.stm.event && !strcmp(e->u.stm.event, "THREAD_SWITCH")) {
        unsigned k = e->src % PERF_MAX_CORES;
        prof_t *p = x->rc->hart >= 0 && k != (unsigned)x->rc->hart ? NULL : x->rc->prof[k];
        if (!p) return 0; /* before the hart's perf header: nothing to follow */
        if (x->pd->core[k].in_record) {
            rctx_t *c = x->rc;
            if (c->switch_n[k] == SWITCH_QUEUE) c->switch_n[k]--; /* the last replaces the one before */
            c->switch_id[k][c->switch_n[k]++] = e->u.stm.value;
        } else {
            prof_thread(p, k, e->u.stm.value);
        }
        return 0;
    }
    perf_dec_feed_elem(x->pd, e);
    return 0;
}
/* a manual record's address is the return address of its call of perfWriteCntrs: the line of
 * the call instruction (2 or 4 bytes before it) */
static const char *line_of(void *sl, uint64_t addr, unsigned *line) { return addr >= 2 ? src_lines_at(sl, addr - 2, line) : NULL; }
static const char *sym_of(void *syms, uint64_t addr, uint64_t *start) {
    const elf_sym_t *s = elf_syms_lookup(syms, addr);
    if (!s) return NULL;
    *start = s->addr;
    return s->name;
}

/* --from flow (or no perf header): the flow profile (flow_profile.h) to stdout or
 * out_path/out_file; the exit status, or -1 (not required: the trace has no program trace) */
static int flow_report(const char *path, const nxd_cfg_t *cfg, bool wrapped, const char *elf, int hart, const char *format,
                       const char *counter, const char *out_path, const char *out_file, bool required) {
    char err[4600];
    bool made = out_path && access(out_path, F_OK); /* a folder this call makes goes again if it writes nothing */
    if (out_path && ts_mkdir_p(out_path)) {
        fprintf(stderr, "tracesim: cannot create %s: %s\n", out_path, strerror(errno));
        return TS_EXIT_HOST;
    }
    FILE *out = out_path ? ts_fopen_output(out_file, "w", err, sizeof err) : stdout;
    if (!out) {
        fprintf(stderr, "tracesim: %s\n", err);
        if (made) rmdir(out_path);
        return TS_EXIT_HOST;
    }
    bool paths = !strcmp(format, "folded") || !strcmp(format, "callgrind");
    int rc = paths ? fpath_report(path, cfg, wrapped, elf, hart, counter, !strcmp(format, "callgrind"), out, err, sizeof err) : fp_report(path, cfg, wrapped, elf, hart, !strcmp(format, "csv"), out, err, sizeof err);
    int status = 0;
    if (rc == 1) {
        if (required) {
            if (hart >= 0) fprintf(stderr, "tracesim: no program trace of hart %d in %s\n", hart, path);
            else
                fprintf(stderr, "tracesim: no program trace in %s (run with --trace-insn btm|htm|htm-ret)\n", path);
        }
        status = required ? TS_EXIT_NO_FILE : -1;
    } else if (rc == -1) {
        fprintf(stderr, "tracesim: %s\n", err);
        status = TS_EXIT_NO_FILE;
    } else if (rc == -3) { /* fpath_report: a counter the flow does not have */
        fprintf(stderr, "tracesim: %s\n", err);
        status = TS_EXIT_USAGE;
    } else if (rc) {
        status = TS_EXIT_HOST;
    }
    char werr[4400];
    if (out != stdout) {
        if (status) ts_output_abort(out); /* the name keeps what it had */
        else if (ts_fclose_output(out, out_file, werr, sizeof werr)) {
            fprintf(stderr, "tracesim: %s\n", werr);
            status = TS_EXIT_HOST;
        }
        if (status && made) rmdir(out_path);
    } else if (status == TS_EXIT_HOST) {
        fprintf(stderr, "tracesim: writing the report to stdout failed\n");
    }
    return status;
}

static void trace_in_free(ts_trace_in_t *t) {
    ts_trace_in_close(t);
    free(t);
}

int ts_report_main(int argc, char **argv) {
    const char *format = "text", *out_path = NULL, *elf = NULL, *cfg_path = NULL, *fields = NULL, *input = NULL, *from = NULL,
               *counter = NULL;
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
        case R_HELP: ts_cmd_help(stdout, &ts_report_cmd); return 0;
        }
    }
    if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "folded") && strcmp(format, "callgrind")) {
        fprintf(stderr, "tracesim: unknown format '%s' for report (text, csv, folded, callgrind)\n", format);
        return TS_EXIT_USAGE;
    }
    bool folded = !strcmp(format, "folded"), callgrind = !strcmp(format, "callgrind");
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
            (ol > 4 && (!strcmp(out_path + ol - 4, ".txt") || !strcmp(out_path + ol - 4, ".csv")))) {
            fprintf(stderr, "tracesim: report -o takes an output folder (report.txt or report.csv is written in it), "
                            "not a file: '%s' (for one file: tracesim report ... > FILE)\n",
                    out_path);
            return TS_EXIT_USAGE;
        }
        snprintf(out_file, sizeof out_file, "%s/report.%s", out_path, folded || callgrind ? format : strcmp(format, "csv") ? "txt" :
                                                                                                                             "csv");
    }
    ts_run_arg_t ra;
    ts_run_arg(input, &ra);
    if (ra.run_dir[0] && ts_run_say_unfinished(ra.run_dir) == TS_RUN_INCOMPLETE) return TS_EXIT_NO_FILE;
    const char *path = ra.trace;
    static char elf_found[4400];
    char err[4600];
    if (ra.run_dir[0] && ts_run_folder_check(ra.run_dir, err, sizeof err)) { /* the strict reader (ts_file.h) */
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    static rctx_t rc;
    memset(&rc, 0, sizeof rc);
    if (fields && prof_parse_fields(&rc.po, fields, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_USAGE;
    }
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
    if (ra.is_dir || elf) { /* the run's ELF, or a check of --elf against it */
        int er = ts_run_elf(ra.run_dir, elf, elf_found, sizeof elf_found, err, sizeof err);
        if (er < 0) {
            fprintf(stderr, "tracesim: %s\n", err);
            trace_in_free(tin);
            return TS_EXIT_NO_FILE;
        }
        if (er) elf = elf_found;
        else
            fprintf(stderr, "tracesim: warning: %s: functions by address\n", err);
    }
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
    if ((folded || callgrind) && (!(paths = rp_new()))) {
        fprintf(stderr, "tracesim: out of memory\n");
        src_lines_close(sl);
        if (elf) elf_syms_free(&syms);
        if (have_hc) hc_free(&hc);
        trace_in_free(tin);
        return TS_EXIT_HOST;
    }
    if (paths) rp_attach(paths, &rc.po);

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
    if (!pd->headers && !pd->config_used && !from && elf && !fields && !compensate) {
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

    if (out_path && ts_mkdir_p(out_path)) {
        fprintf(stderr, "tracesim: cannot create %s: %s\n", out_path, strerror(errno));
        status = TS_EXIT_HOST;
        goto done;
    }
    char oerr[4600];
    FILE *out = out_path ? ts_fopen_output(out_file, "w", oerr, sizeof oerr) : stdout;
    if (!out) {
        fprintf(stderr, "tracesim: %s\n", oerr);
        status = TS_EXIT_HOST;
        goto done;
    }
    int wrc = 0;
    /* a section per hart for a trace of several harts (or one chosen with --hart) */
    bool sections = hart >= 0 || nprof > 1 || (harts_known && harts > 1);
    if (folded) {
        int frc = rp_write_folded(paths, rc.prof, counter, compensate, out, oerr, sizeof oerr);
        if (frc == -1) {
            fprintf(stderr, "tracesim: %s\n", oerr);
            if (out != stdout) ts_output_abort(out);
            status = TS_EXIT_USAGE;
            goto done;
        }
        wrc = frc;
    } else if (callgrind) {
        char cmd[4400];
        snprintf(cmd, sizeof cmd, "tracesim report %s%s%s", path, elf ? " (program " : "", elf ? elf : "");
        if (elf) strncat(cmd, ")", sizeof cmd - strlen(cmd) - 1);
        int crc = rp_write_callgrind(paths, rc.prof, compensate, sl, cmd, out, oerr, sizeof oerr);
        if (crc == -1) {
            fprintf(stderr, "tracesim: %s\n", oerr);
            if (out != stdout) ts_output_abort(out);
            status = TS_EXIT_USAGE;
            goto done;
        }
        wrc = crc;
    } else if (!strcmp(format, "csv")) {
        const prof_t *last = NULL;
        for (unsigned k = 0; k < PERF_MAX_CORES && !wrc; k++) {
            if (!rc.prof[k]) continue;
            wrc = prof_write_csv_hart(rc.prof[k], out, k, !last || !prof_same_counters(last, rc.prof[k]));
            last = rc.prof[k];
        }
    } else {
        fprintf(out, "tracesim report %s (perf channel %d%s%s)\n", path, perf_channel,
                elf ? "; symbols from " : "; no ELF: functions by address", elf ? elf : "");
        if (ti.wrapped) {
            fputs("the buffer wrapped: ", out);
            if (ti.written > ti.bytes) fprintf(out, "the oldest %" PRIu64 " bytes of the trace were overwritten", ti.written - ti.bytes);
            else
                fputs("the oldest part of the trace was overwritten", out);
            fprintf(out, "; decoding starts at offset %zu%s%s\n", start, pd->config_used ? "; perf header from " : "",
                    pd->config_used ? cfg_path : "");
        }
        /* which part of the run the profile covers, and what the trace lacks (the run
         * folder's ground truth, when the trace is in one) */
        ts_losses_t loss;
        char lerr[512];
        if (!ts_losses_read_for_trace(path, perf_channel, &loss, lerr, sizeof lerr) && (loss.have_itc || ti.found)) {
            if (ti.found && len < ti.bytes)
                fprintf(out, "the trace file holds %zu of the %" PRIu64 " bytes the sink kept (trace.json): it was cut, the profile "
                             "covers the records before the cut\n",
                        len, ti.bytes);
            if (loss.stopped && loss.cycles && loss.stop_cycle <= loss.cycles)
                fprintf(out, "the profile covers the run up to the stop on wrap at cycle %" PRIu64 " (the first %.1f %% of its %" PRIu64 " cycles)\n", loss.stop_cycle, 100.0 * (double)loss.stop_cycle / (double)loss.cycles, loss.cycles);
            else if (loss.stopped)
                fprintf(out, "the profile covers the run up to the stop on wrap at cycle %" PRIu64 "\n", loss.stop_cycle);
            else if (ti.wrapped)
                fputs("the profile covers the newest part of the run only (the buffer wrapped)\n", out);
            else if (!(ti.found && len < ti.bytes))
                fputs("the profile covers every record in the trace (the buffer neither stopped nor wrapped)\n", out);
            loss.wrapped = false;                   /* said above */
            loss.by_status[TS_ITC_ENCODER_OFF] = 0; /* never meant for the trace */
            ts_losses_print(out, "", &loss);
        }
        if (sections) {
            fprintf(out, "%u hart%s with perf records:", nprof, nprof == 1 ? "" : "s");
            for (unsigned k = 0; k < PERF_MAX_CORES; k++)
                if (rc.prof[k]) fprintf(out, " %u", k);
            if (hart >= 0) fprintf(out, " (--hart %d)", hart);
            else if (harts_known && harts > nprof)
                fprintf(out, " (the trace has %u harts; the others wrote no perf header)", harts);
            fputc('\n', out);
        }
        for (unsigned k = 0; k < PERF_MAX_CORES && !wrc; k++) {
            if (!rc.prof[k]) continue;
            if (sections) fprintf(out, "\n==== hart %u ====\n", k);
            fputc('\n', out);
            wrc = prof_write_text(rc.prof[k], out);
        }
    }
    char werr[4400];
    if (out != stdout && ts_fclose_output(out, out_file, werr, sizeof werr)) { /* write errors included */
        fprintf(stderr, "tracesim: %s\n", werr);
        status = TS_EXIT_HOST;
    } else if (wrc) {
        fprintf(stderr, "tracesim: writing the report to %s failed\n", out_path ? out_file : "stdout");
        status = TS_EXIT_HOST;
    }
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
    if (elf) elf_syms_free(&syms);
    if (have_hc) hc_free(&hc);
    src_lines_close(sl);
    trace_in_free(tin);
    return status;
}
