/* report_out.c - `tracesim report`: the profiles written as text (flat profile, call graph,
 * what part of the run they cover and what the trace lacks), CSV (the flat profile), folded
 * stacks or callgrind (out_paths.h) or one HTML page (out_html.h), to stdout or -o DIR. report_int.h. */
#include "report_int.h"
#include "out_html.h"
#include "run_losses.h"
#include "ts_file.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

int report_write(report_out_t *o) {
    const char *path = o->path, *elf = o->elf, *cfg_path = o->cfg_path, *format = o->format, *counter = o->counter;
    const char *out_path = o->out_path, *out_file = o->out_file;
    int hart = o->hart, perf_channel = o->perf_channel;
    bool compensate = o->compensate, harts_known = o->harts_known;
    const ts_trace_info_t ti = *o->ti;
    size_t len = o->len, start = o->start;
    unsigned harts = o->harts, nprof = o->nprof;
    const perf_dec_t *pd = o->pd;
    const rctx_t *rc = o->rc;
    rpaths_t *paths = o->paths;
    src_lines_t *sl = o->sl;
    bool folded = !strcmp(format, "folded"), callgrind = !strcmp(format, "callgrind");
    int status = 0;
    if (out_path && ts_mkdir_p(out_path)) {
        fprintf(stderr, "tracesim: cannot create %s: %s\n", out_path, strerror(errno));
        status = TS_EXIT_HOST;
        o->stop = true;
        return status;
    }
    char oerr[4600];
    FILE *out = out_path ? ts_fopen_output(out_file, "w", oerr, sizeof oerr) : stdout;
    if (!out) {
        fprintf(stderr, "tracesim: %s\n", oerr);
        status = TS_EXIT_HOST;
        o->stop = true;
        return status;
    }
    int wrc = 0;
    /* a section per hart for a trace of several harts (or one chosen with --hart) */
    bool sections = hart >= 0 || nprof > 1 || (harts_known && harts > 1);
    if (folded) {
        int frc = rp_write_folded(paths, rc->prof, counter, compensate, out, oerr, sizeof oerr);
        if (frc == -1) {
            fprintf(stderr, "tracesim: %s\n", oerr);
            if (out != stdout) ts_output_abort(out);
            status = TS_EXIT_USAGE;
            o->stop = true;
            return status;
        }
        wrc = frc;
    } else if (callgrind) {
        char cmd[4400];
        snprintf(cmd, sizeof cmd, "tracesim report %s%s%s", path, elf ? " (program " : "", elf ? elf : "");
        if (elf) strncat(cmd, ")", sizeof cmd - strlen(cmd) - 1);
        int crc = rp_write_callgrind(paths, rc->prof, compensate, sl, cmd, out, oerr, sizeof oerr);
        if (crc == -1) {
            fprintf(stderr, "tracesim: %s\n", oerr);
            if (out != stdout) ts_output_abort(out);
            status = TS_EXIT_USAGE;
            o->stop = true;
            return status;
        }
        wrc = crc;
    } else if (!strcmp(format, "html")) {
        html_report_t hr = {o->input, path, o->run_dir, elf, rc->prof, paths, o->tl, compensate, perf_channel, o->baseline, NULL};
        int hrc = html_write(&hr, out, oerr, sizeof oerr);
        if (hrc == -1) {
            fprintf(stderr, "tracesim: %s\n", oerr);
            if (out != stdout) ts_output_abort(out);
            status = TS_EXIT_NO_FILE;
            o->stop = true;
            return status;
        }
        wrc = hrc;
    } else if (!strcmp(format, "csv")) {
        const prof_t *last = NULL;
        for (unsigned k = 0; k < PERF_MAX_CORES && !wrc; k++) {
            if (!rc->prof[k]) continue;
            wrc = prof_write_csv_hart(rc->prof[k], out, k, !last || !prof_same_counters(last, rc->prof[k]));
            last = rc->prof[k];
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
                if (rc->prof[k]) fprintf(out, " %u", k);
            if (hart >= 0) fprintf(out, " (--hart %d)", hart);
            else if (harts_known && harts > nprof)
                fprintf(out, " (the trace has %u harts; the others wrote no perf header)", harts);
            fputc('\n', out);
        }
        for (unsigned k = 0; k < PERF_MAX_CORES && !wrc; k++) {
            if (!rc->prof[k]) continue;
            if (sections) fprintf(out, "\n==== hart %u ====\n", k);
            fputc('\n', out);
            wrc = prof_write_text(rc->prof[k], out);
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
    return status;
}
