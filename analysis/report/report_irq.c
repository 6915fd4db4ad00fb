/* report_irq.c - `tracesim report -f irq|irq-csv` (analysis/report/irq_stats.h): the trace's
 * trap events and thread switches, and the run folder's ground truth (traps.csv, stm.csv). */
#include "report.h"
#include "run_trace.h"
#include "elements.h"
#include "irq_stats.h"
#include "trace_in.h"
#include "ts_file.h"
#include <errno.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_exit_status.h"

typedef struct irq_walk {
    irqs_t *s;
    int hart;
    bool oom;
    uint64_t events, switches;
} irq_walk_t;

static int irq_elem(void *v, const ts_elem_t *e) {
    irq_walk_t *w = v;
    if (irqs_trace_elem(w->s, e, w->hart)) w->oom = true;
    return 0;
}

int ts_report_irq(const char *path, const char *run_dir, int srcbits, int tssize, int hart, bool csv, const char *out_dir,
                  const char *out_file) {
    irqs_t *trace = irqs_new(), *truth = irqs_new();
    ts_elem_stage_t *es = malloc(sizeof *es);
    ts_trace_in_t *tin = calloc(1, sizeof *tin);
    int status = 0;
    char err[4600];
    irq_walk_t w = {trace, hart, false, 0, 0};
    bool have_trace = false, tin_open = false;
    if (!trace || !truth || !es || !tin) {
        fprintf(stderr, "tracesim: out of memory\n");
        status = TS_EXIT_HOST;
        goto done;
    }
    /* a run folder without a trace (the firmware did not trace): its ground truth only */
    bool no_trace = run_dir && run_dir[0] && access(path, F_OK) && errno == ENOENT;
    if (!no_trace) {
        FILE *probe = ts_fopen_input(path, err, sizeof err); /* a regular file only */
        if (!probe) {
            fprintf(stderr, "tracesim: %s\n", err);
            status = TS_EXIT_NO_FILE;
            goto done;
        }
        fclose(probe);
        unsigned harts;
        bool harts_known;
        if (ts_trace_harts(path, &srcbits, &tssize, hart, &harts, &harts_known, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            status = TS_EXIT_USAGE;
            goto done;
        }
        ts_trace_info_t ti;
        ts_trace_info(path, &ti);
        nxd_cfg_t cfg = {(unsigned)srcbits, (unsigned)tssize};
        if (ts_trace_in_open(tin, path, &cfg, ti.wrapped)) {
            fprintf(stderr, "tracesim: cannot read %s\n", path);
            status = TS_EXIT_NO_FILE;
            goto done;
        }
        tin_open = true;
        if (ti.wrapped) ts_wrap_note(path, &ti, (size_t)tin->start);
        ts_elem_init(es, irq_elem, &w);
        ts_trace_in_all(tin, ts_elem_from_msg, es);
        ts_elem_eot(es, tin->end);
        have_trace = true;
    }
    bool have_truth = false;
    if (run_dir && run_dir[0]) {
        int lr = irqs_load_truth(truth, run_dir, hart, err, sizeof err);
        if (lr < 0) {
            fprintf(stderr, "tracesim: %s\n", err);
            status = TS_EXIT_NO_FILE;
            goto done;
        }
        have_truth = lr == 0;
    }
    if (w.oom) {
        fprintf(stderr, "tracesim: out of memory\n");
        status = TS_EXIT_HOST;
        goto done;
    }
    if (out_dir && ts_mkdir_p(out_dir)) {
        fprintf(stderr, "tracesim: cannot create %s: %s\n", out_dir, strerror(errno));
        status = TS_EXIT_HOST;
        goto done;
    }
    FILE *out = out_dir ? ts_fopen_output(out_file, "w", err, sizeof err) : stdout;
    if (!out) {
        fprintf(stderr, "tracesim: %s\n", err);
        status = TS_EXIT_HOST;
        goto done;
    }
    const irq_stats_t *ts = have_trace ? irqs_result(trace) : NULL, *gs = have_truth ? irqs_result(truth) : NULL;
    int wrc = csv ? irqs_write_csv(ts, gs, out) : irqs_write_text(ts, gs, have_trace ? NULL : "the run folder has no trace", out);
    if (out != stdout) {
        if (wrc) ts_output_abort(out);
        else if (ts_fclose_output(out, out_file, err, sizeof err))
            wrc = -1;
    } else if (fflush(stdout)) {
        wrc = -1;
    }
    if (wrc) {
        fprintf(stderr, "tracesim: cannot write the report%s%s\n", out_dir ? ": " : "", out_dir ? err : "");
        status = TS_EXIT_HOST;
    }
done:
    if (tin_open) ts_trace_in_close(tin);
    free(tin);
    free(es);
    irqs_free(trace);
    irqs_free(truth);
    return status;
}
