/* report_run.c - `tracesim report` (report.h): what the options say together, the inputs,
 * the perf decode through the decoder's pipeline into one profile per hart (report_perf.c)
 * or the profile of the program flow (report_flow.c), and the profile written
 * (report_out.c); -f irq and irq-csv are report_irq.c. report_int.h. */
#include "report.h"
#include "report_int.h"
#include "elf_syms.h"
#include "call_sites.h"
#include "run_input.h"
#include "trace_in.h"
#include "ts_decoder.h"
#include "ts_file.h"
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

/* what a report holds besides its profiles: big, so not on the stack (one per call) */
typedef struct report_state {
    rctx_t rc;
    ts_run_input_t ri;
    perf_header_t cfgh[PERF_MAX_CORES];
    hook_cost_t hc;
    rs_sites_t sites; /* the call sites of enter records (rec_stack.h) */
} report_state_t;

static void trace_in_free(ts_trace_in_t *t) {
    ts_trace_in_close(t);
    free(t);
}

static int report_main(report_state_t *rs, const ts_report_cfg_t *c) {
    const char *format = c->format, *out_path = c->out_dir, *elf = c->elf, *cfg_path = c->cfg_path, *fields = c->fields,
               *input = c->input, *from = c->from, *counter = c->counter, *baseline = c->baseline;
    bool compensate = c->compensate;
    int srcbits = c->srcbits, tssize = c->tssize, perf_channel = c->perf_channel, hart = c->hart;
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
    if (!input) {
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
    rctx_t *rc = &rs->rc; /* --fields: a usage error before the inputs are looked at */
    if (fields && prof_parse_fields(&rc->po, fields, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_USAGE;
    }
    ts_run_input_t *ri = &rs->ri; /* the run folder, the trace and the ELF (run_input.h) */
    if (irq) {                    /* interrupts and threads (report_irq.c): a run folder without a trace has its ground truth */
        int fin = ts_run_input_folder(ri, input);
        if (fin) return fin;
        return ts_report_irq(ri->ra.trace, ri->ra.run_dir, srcbits, tssize, hart, !strcmp(format, "irq-csv"), out_path, out_file);
    }
    int rin = ts_run_input(ri, input, elf, true);
    if (rin) return rin;
    const char *path = ri->ra.trace;
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
    elf = ri->elf;
    if (ri->no_elf[0]) fprintf(stderr, "tracesim: warning: %s: functions by address\n", ri->no_elf);
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
    perf_header_t *cfgh = rs->cfgh;
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
    hook_cost_t *hc = &rs->hc;
    bool have_hc = false;
    char hc_note[4600] = ""; /* why the hooks' cost is not measured */
    if (elf) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", path);
        const char *run_dir = dirname(dir);
        char gt[4200];
        snprintf(gt, sizeof gt, "%s/flow.csv", run_dir);
        bool have_gt = !access(gt, F_OK);
        if (have_gt || compensate) {
            if (hc_load(hc, run_dir, &syms, err, sizeof err)) {
                if (!compensate) /* said once the trace turns out to have a perf profile */
                    snprintf(hc_note, sizeof hc_note, "%s", err);
                else
                    fprintf(stderr, "tracesim: --compensate: %s\n", err);
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
    rc->po.sym = elf ? sym_of : NULL;
    rc->po.sym_ctx = elf ? &syms : NULL;
    if (rs_sites_open(&rs->sites, elf ? &syms : NULL, elf, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        if (elf) elf_syms_free(&syms);
        if (have_hc) hc_free(hc);
        trace_in_free(tin);
        return TS_EXIT_NO_FILE;
    }
    rc->po.site = rs_site;
    rc->po.site_ctx = &rs->sites;
    rc->po.warn = r_warn;
    rc->po.warn_ctx = rc;
    rc->po.compensate = compensate;
    src_lines_t *sl = elf ? src_lines_open(elf) : NULL;
    rc->po.line = sl ? line_of : NULL;
    rc->po.line_ctx = sl;
    rc->hc = have_hc ? hc : NULL;
    rc->hart = hart;
    rpaths_t *paths = NULL; /* -f folded: the call paths */
    html_tl_t *tl = NULL;   /* -f html: the timeline */
    if ((folded || callgrind || html) && (!(paths = rp_new()) || (html && !(tl = html_tl_new(rc->prof))))) {
        rp_free(paths);
        fprintf(stderr, "tracesim: out of memory\n");
        src_lines_close(sl);
        rs_sites_close(&rs->sites);
        if (elf) elf_syms_free(&syms);
        if (have_hc) hc_free(hc);
        trace_in_free(tin);
        return TS_EXIT_HOST;
    }
    if (paths) rp_attach(paths, &rc->po);
    if (tl) html_tl_attach(tl, &rc->po);

    /* bytes -> messages (read in pieces, trace_in.h) -> the decoder's pipeline (ts_decoder.h):
     * elements -> perf records -> profile, and the thread switches to the profile (r_elem) */
    r_elem_t rel = {NULL, rc};
    ts_pipeline_cfg_t pc = {.trace = cfg,
                            .perf_channel = (unsigned)perf_channel,
                            .perf_cb = {rc, r_header, r_record, r_error},
                            .headers = cfgh,
                            .nheaders = (unsigned)ncfg,
                            .elem_cb = r_elem,
                            .elem_ctx = &rel};
    ts_pipeline_t pl;
    int status = 0;
    if (ts_pipeline_init(&pl, &pc)) {
        fprintf(stderr, "tracesim: out of memory\n");
        status = TS_EXIT_HOST;
        goto done;
    }
    const perf_dec_t *pd = rel.pd = pl.perf;
    ts_trace_in_all(tin, ts_pipeline_msg, &pl);
    len = (size_t)tin->end;
    /* stopped on wrap or the file was cut: a pending low word may have lost its high part */
    ts_pipeline_end(&pl, len, ti.stopped || (ti.found && len < ti.bytes));
    unsigned nprof = 0;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++)
        if (rc->prof[k]) {
            prof_finish(rc->prof[k]);
            nprof++;
        }
    if (rc->oom) {
        fprintf(stderr, "tracesim: out of memory\n");
        status = TS_EXIT_HOST;
        goto done;
    }
    if (hart >= 0 && !rc->prof[hart] && (pd->headers || pd->config_used)) {
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
            fprintf(stderr, "tracesim: no perf header (marker 0x%08x)%s on ITC channel %d in %s%s\n", pd->marker,
                    cfg_path ? " and no perf record" : "", perf_channel, path,
                    html ? ": -f html is made from perf records; a program trace's profile is given by -f text, csv, "
                           "folded or callgrind (--from flow)" :
                           "");
        status = TS_EXIT_NO_FILE;
        goto done;
    }
    if (hc_note[0]) fprintf(stderr, "tracesim: note: instrumentation cost not measured: %s\n", hc_note);
    if (pd->config_used)
        fprintf(stderr, "tracesim: note: records decoded with the out-of-band perf header of %s\n", cfg_path);

    report_out_t ro = {path, elf, cfg_path, format, counter, out_path, out_path ? out_file : NULL, hart, perf_channel,
                       compensate, &ti, len, start, harts, nprof, harts_known, pd, rc, paths, tl, input, ri->ra.run_dir[0] ? ri->ra.run_dir : NULL, baseline, sl, false};
    status = report_write(&ro);
    if (ro.stop) goto done;
    if (have_hc && hc_failed(hc))
        fprintf(stderr, "tracesim: warning: instrumentation cost measured only in part: %s\n", hc_failed(hc));
    if (have_hc && hc->resume_guesses)
        fprintf(stderr, "tracesim: note: --compensate: flow.csv has no tp column (a run folder of an older version): %" PRIu64 " times several threads were left at the same instruction of a hook, and the one left first was "
                        "assumed to resume (a round robin); run the firmware again to follow the threads\n",
                hc->resume_guesses);
    if (rc->warnings > MAX_WARNINGS)
        fprintf(stderr, "tracesim: %u more warnings not shown (%u in all)\n", rc->warnings - MAX_WARNINGS, rc->warnings);
done:
    fflush(stdout);
    ts_pipeline_free(&pl);
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) prof_free(rc->prof[k]);
    rp_free(paths);
    html_tl_free(tl);
    rs_sites_close(&rs->sites);
    if (elf) elf_syms_free(&syms);
    if (have_hc) hc_free(hc);
    src_lines_close(sl);
    trace_in_free(tin);
    return status;
}

int ts_report_run(const ts_report_cfg_t *c) {
    report_state_t *rs = calloc(1, sizeof *rs);
    if (!rs) {
        fprintf(stderr, "tracesim: out of memory\n");
        return TS_EXIT_HOST;
    }
    int status = report_main(rs, c);
    free(rs);
    return status;
}
