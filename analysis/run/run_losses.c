/* run_losses.c - what a run's trace lacks; see run_losses.h. */
#include "run_losses.h"
#include "run_trace.h"
#include "perf_decode.h"
#include "ts_run_json.h"
#include "ts_file.h"
#include <unistd.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *dir, const char *name) {
    char path[4200], err[256];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ts_read_file(path, &len, err, sizeof err);
}

typedef struct rec_count {
    uint64_t n, after;
    bool stopped;
    uint64_t stop;
} rec_count_t;
static void count_record(void *ctx, const perf_record_t *r) {
    rec_count_t *c = ctx;
    c->n++;
    if (c->stopped && r->tics_valid && r->tics >= c->stop) c->after++;
}

int ts_losses_read(const char *run_dir, int channel, ts_losses_t *l, char *err, size_t errlen) {
    memset(l, 0, sizeof *l);
    char jpath[4200];
    snprintf(jpath, sizeof jpath, "%s/trace.json", run_dir);
    ts_trace_json_t tj;
    if (ts_trace_json_read(jpath, &tj, err, errlen)) return -1; /* damaged: say where */
    char *stats = slurp(run_dir, "stats.txt");
    if (tj.found) {
        l->stopped = tj.stopped_on_wrap;
        l->wrapped = tj.wrapped;
        l->stop_cycle = tj.stopped_at_cycle;
        if (tj.bytes_written > tj.bytes) l->overwritten = tj.bytes_written - tj.bytes;
    }
    if (stats) {
        const char *p = strstr(stats, "cycles ");
        while (p && p != stats && p[-1] != '\n') p = strstr(p + 1, "cycles ");
        if (p) l->cycles = strtoull(p + 7, NULL, 10);
    }
    free(stats);
    if (channel < 0) {
        char path[4200], e[256];
        perf_header_t *h = calloc(PERF_MAX_CORES, sizeof *h);
        unsigned ch = 6;
        snprintf(path, sizeof path, "%s/perf_config.txt", run_dir);
        if (h && !access(path, F_OK)) ts_read_perf_config(path, h, PERF_MAX_CORES, &ch, e, sizeof e);
        free(h);
        channel = (int)ch;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/itc.csv", run_dir);
    if (access(path, F_OK)) return 0;            /* no itc.csv: nothing to count */
    FILE *f = ts_fopen_input(path, err, errlen); /* a FIFO or folder is refused at once */
    if (!f) return -1;
    l->have_itc = true;
    perf_dec_t *pd = malloc(sizeof *pd);
    rec_count_t rc = {0, 0, l->stopped, l->stop_cycle};
    if (!pd) {
        fclose(f);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    perf_dec_cb_t cb = {&rc, NULL, count_record, NULL};
    perf_dec_init(pd, (unsigned)channel, &cb);
    char line[256];
    int rcode = 0;
    uint64_t lineno = 1;
    if (!fgets(line, sizeof line, f)) line[0] = 0;
    l->has_status = strstr(line, ",status") != NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        ts_itc_row_t r;
        if (!ts_itc_row(line, &r)) {
            snprintf(err, errlen, "%s line %" PRIu64 ": not an itc.csv row", path, lineno);
            rcode = -1;
            break;
        }
        l->stores++;
        l->by_status[r.status]++;
        /* the stream the firmware wrote into the encoder: what it accepted and what came
         * after the stop (dropped and encoder-off stores never were in the stream) */
        if (r.status == TS_ITC_TRACED || r.status == TS_ITC_AFTER_STOP)
            perf_dec_feed_store(pd, r.hart, r.stim, r.off, r.value, r.cycle);
    }
    perf_dec_finish(pd);
    fclose(f);
    free(pd);
    l->perf_records = rc.n;
    l->perf_after_stop = rc.after;
    return rcode;
}

int ts_losses_read_for_trace(const char *trace_path, int channel, ts_losses_t *l, char *err, size_t errlen) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", trace_path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    return ts_losses_read(dir, channel, l, err, errlen);
}

bool ts_losses_stop_text(const ts_losses_t *l, char *buf, size_t len) {
    if (!l->stopped) return false;
    char pct[48] = "";
    if (l->cycles && l->stop_cycle <= l->cycles)
        snprintf(pct, sizeof pct, " (%.1f %% of the run)", 100.0 * (double)l->stop_cycle / (double)l->cycles);
    uint64_t later = l->by_status[TS_ITC_AFTER_STOP];
    if (l->have_itc && l->has_status)
        snprintf(buf, len, "trace stopped on wrap at cycle %" PRIu64 "%s: %" PRIu64 " later ITC store%s, about %" PRIu64 " perf record%s, %s not in the trace", l->stop_cycle, pct, later, later == 1 ? "" : "s", l->perf_after_stop,
                 l->perf_after_stop == 1 ? "" : "s", later + l->perf_after_stop == 1 ? "is" : "are");
    else
        snprintf(buf, len, "trace stopped on wrap at cycle %" PRIu64 "%s: what the firmware wrote later is not in the trace",
                 l->stop_cycle, pct);
    return true;
}

int ts_losses_print(FILE *f, const char *prefix, const ts_losses_t *l) {
    int n = 0;
    char buf[512];
    if (ts_losses_stop_text(l, buf, sizeof buf)) {
        fprintf(f, "%s%s\n", prefix, buf);
        n++;
    }
    uint64_t drop = l->by_status[TS_ITC_DROPPED_FIFO], off = l->by_status[TS_ITC_ENCODER_OFF];
    if (drop) {
        fprintf(f, "%s%" PRIu64 " of %" PRIu64 " ITC stores were dropped on a full ITC FIFO (teStallEnable 0): "
                   "Error messages in the trace mark the gaps\n",
                prefix, drop, l->stores);
        n++;
    }
    if (l->wrapped) {
        if (l->overwritten)
            fprintf(f, "%sthe trace buffer wrapped: the oldest %" PRIu64 " bytes of the trace were overwritten\n", prefix, l->overwritten);
        else
            fprintf(f, "%sthe trace buffer wrapped: its oldest data was overwritten\n", prefix);
        n++;
    }
    if (off) {
        fprintf(f, "%s%" PRIu64 " ITC store%s made while the encoder was not tracing %s channel: not in the trace\n", prefix, off,
                off == 1 ? "" : "s", off == 1 ? "its" : "their");
        n++;
    }
    return n;
}
