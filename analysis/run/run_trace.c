/* run_trace.c - see run_trace.h. */
#include "run_trace.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "nexus_decode.h"
#include "ts_run_json.h"
#include "ts_file.h"

char *ts_read_file(const char *path, size_t *len, char *err, size_t errlen) {
    FILE *f = ts_fopen_input(path, err, errlen); /* a regular file only; a FIFO is refused at once */
    if (!f) return NULL;
    struct stat sb;
    if (fstat(fileno(f), &sb)) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    char *buf = malloc((size_t)sb.st_size + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %s", path);
        fclose(f);
        return NULL;
    }
    size_t n = fread(buf, 1, (size_t)sb.st_size, f);
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

void ts_perf_diag(uint64_t *errors, uint64_t *gaps, unsigned core, uint64_t offset, const char *what) {
    if (!strncmp(what, "warning: ", 9))
        fprintf(stderr, "tracesim: warning (hart %u, trace offset %" PRIu64 "): %s\n", core, offset, what + 9);
    else if (!strncmp(what, "gap: ", 5)) {
        if (!gaps || (*gaps)++ < 10)
            fprintf(stderr, "tracesim: note (hart %u, trace offset %" PRIu64 "): gap in the perf data: %s\n", core, offset, what + 5);
    } else if ((*errors)++ < 10)
        fprintf(stderr, "tracesim: perf data error (hart %u, trace offset %" PRIu64 "): %s\n", core, offset, what);
}

void ts_trace_info(const char *trace_path, ts_trace_info_t *ti) {
    memset(ti, 0, sizeof *ti);
    ts_trace_json_t tj;
    char err[512];
    if (ts_trace_json_beside(trace_path, &tj, err, sizeof err) || !tj.found) return; /* ts_trace_harts reports it */
    ti->found = true;
    ti->wrapped = tj.wrapped;
    ti->stopped = tj.stopped_on_wrap;
    ti->bytes = tj.bytes;
    ti->written = tj.bytes_written;
}

size_t ts_wrap_start(const uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++)
        if ((buf[i] & 3) == 3) return i + 1;
    return len;
}

void ts_wrap_note(const char *trace_path, const ts_trace_info_t *ti, size_t start) {
    if (ti->written > ti->bytes)
        fprintf(stderr, "tracesim: note: the sink buffer wrapped (trace.json): the oldest %" PRIu64 " bytes of the trace "
                        "were overwritten; decoding starts at offset %zu of %s, after the first message end\n",
                ti->written - ti->bytes, start, trace_path);
    else
        fprintf(stderr, "tracesim: note: the sink buffer wrapped (trace.json): its oldest data was overwritten; "
                        "decoding starts at offset %zu of %s, after the first message end\n",
                start, trace_path);
}

int ts_read_perf_config(const char *path, perf_header_t *h, unsigned max, unsigned *channel, char *err, size_t errlen) {
    size_t len;
    char e[300];
    char *text = ts_read_file(path, &len, e, sizeof e);
    if (!text) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    if (strlen(text) != len) {
        snprintf(err, errlen, "%s: not a text file", path);
        free(text);
        return -1;
    }
    int n = perf_config_parse(text, h, max, channel, e, sizeof e);
    free(text);
    if (n < 0) snprintf(err, errlen, "%s: %s", path, e);
    return n;
}

typedef struct pcw {
    perf_header_t h[PERF_MAX_CORES];
    bool have[PERF_MAX_CORES];
} pcw_t;
static void pcw_header(void *ctx, const perf_header_t *h) {
    pcw_t *w = ctx;
    w->h[h->core % PERF_MAX_CORES] = *h;
    w->have[h->core % PERF_MAX_CORES] = true;
}

int ts_perf_headers_from_itc(const char *itc_path, int want_channel, perf_header_t *h, unsigned max,
                             unsigned *channel, char *err, size_t errlen) {
    FILE *f = ts_fopen_input(itc_path, err, errlen);
    if (!f) return -1;
    /* one decoder per ITC channel (IDTAG folds stimulus n onto n mod 16), made when the
     * channel's first marker arrives: stores before it cannot belong to a header */
    perf_dec_t *dec[16] = {0};
    pcw_t *w[16] = {0};
    char line[256];
    int rc = 0;
    if (!fgets(line, sizeof line, f)) line[0] = 0; /* the column names */
    unsigned lineno = 1;
    while (fgets(line, sizeof line, f)) {
        ts_itc_row_t row;
        lineno++;
        if (!ts_itc_row(line, &row)) { /* a damaged itc.csv: say where, never stop quietly */
            snprintf(err, errlen, "%s:%u: not an itc.csv row", itc_path, lineno);
            rc = -1;
            break;
        }
        if (row.status != TS_ITC_TRACED) continue; /* not in the trace */
        unsigned hart = row.hart, off = row.off, size = row.size;
        uint32_t value = row.value;
        unsigned ch = row.stim & 15;
        if (want_channel >= 0 && ch != (unsigned)want_channel) continue;
        if (!dec[ch]) {
            if (size != TS_PW_BYTES_HEADER_MARKER || value != TS_PW_MARKER) continue;
            dec[ch] = malloc(sizeof *dec[ch]);
            w[ch] = calloc(1, sizeof *w[ch]);
            if (!dec[ch] || !w[ch]) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                break;
            }
            perf_dec_cb_t cb = {w[ch], pcw_header, NULL, NULL};
            perf_dec_init(dec[ch], ch, &cb);
        }
        perf_dec_feed_store(dec[ch], hart, ch, off & 3, value, 0);
    }
    fclose(f);
    int ch = -1;
    for (int c = 0; c < 16 && rc == 0 && ch < 0; c++)
        for (unsigned k = 0; w[c] && k < PERF_MAX_CORES; k++)
            if (w[c]->have[k]) {
                ch = c;
                break;
            }
    if (rc == 0 && ch >= 0) {
        for (unsigned k = 0; k < PERF_MAX_CORES && (unsigned)rc < max; k++)
            if (w[ch]->have[k]) h[rc++] = w[ch]->h[k];
        if (channel) *channel = (unsigned)ch;
    }
    for (int c = 0; c < 16; c++) {
        free(dec[c]);
        free(w[c]);
    }
    return rc;
}

int ts_write_perf_config(const char *run_dir, char *err, size_t errlen) {
    char path[4200];
    snprintf(path, sizeof path, "%s/itc.csv", run_dir);
    perf_header_t *h = malloc(PERF_MAX_CORES * sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    unsigned ch = 6;
    int n = ts_perf_headers_from_itc(path, -1, h, PERF_MAX_CORES, &ch, err, errlen);
    int rc = n < 0 ? -1 : ts_write_perf_config_headers(run_dir, h, (unsigned)n, ch, err, errlen);
    free(h);
    return rc;
}

int ts_write_perf_config_headers(const char *run_dir, const perf_header_t *h, unsigned n, unsigned ch, char *err,
                                 size_t errlen) {
    if (!n) return 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/perf_config.txt", run_dir);
    FILE *o = ts_fopen_output(path, "w", err, errlen);
    if (!o) return -1;
    fprintf(o, "# the perf header of this run (the last one each hart stored), for decoding a trace\n"
               "# whose header was overwritten: tracesim decode|report|check --perf-config %s\n",
            path);
    for (unsigned k = 0; k < n; k++) perf_config_write(o, ch, &h[k]);
    if (ts_fclose_output(o, path, err, errlen)) return -1;
    return 1;
}

void ts_trace_defaults(const char *trace_path, int *srcbits, int *tssize) {
    ts_trace_json_t tj;
    char err[512];
    if (!ts_trace_json_beside(trace_path, &tj, err, sizeof err)) {
        if (*srcbits < 0 && tj.has_srcbits) *srcbits = (int)tj.srcbits;
        if (*tssize < 0 && tj.has_tsbits) *tssize = (int)tj.tsbits;
    }
    if (*srcbits < 0) *srcbits = 0;
    if (*tssize < 0) *tssize = 40;
}

int ts_trace_harts(const char *trace_path, int *srcbits, int *tssize, int hart, unsigned *harts,
                   bool *harts_known, char *err, size_t errlen) {
    ts_trace_json_t tj;
    if (ts_trace_json_beside(trace_path, &tj, err, errlen)) return -1; /* a damaged trace.json: say where */
    unsigned jsrc = tj.srcbits, jharts = tj.harts;
    bool have_src = tj.has_srcbits, have_harts = tj.has_harts;
    if (*srcbits >= 0 && have_src && (unsigned)*srcbits != jsrc) {
        snprintf(err, errlen, "--srcbits %d does not match the trace: trace.json says srcbits %u (%u hart%s)", *srcbits,
                 jsrc, have_harts ? jharts : 1u, have_harts && jharts == 1 ? "" : have_harts ? "s" :
                                                                                               "");
        return -1;
    }
    ts_trace_defaults(trace_path, srcbits, tssize);
    unsigned sb = (unsigned)*srcbits;
    if (have_harts && sb && jharts > (1u << sb)) {
        snprintf(err, errlen, "trace.json says %u harts, more than %u SRC bit%s can tell apart", jharts, sb, sb == 1 ? "" : "s");
        return -1;
    }
    if (have_harts && jharts > 1 && !sb)
        fprintf(stderr, "tracesim: warning: trace.json says %u harts but the messages carry no SRC field (srcbits 0): "
                        "the harts' messages cannot be told apart, everything is decoded as hart 0\n",
                jharts);
    *harts = have_harts ? jharts : sb ? 1u << sb :
                                        1u;
    if (harts_known) *harts_known = have_harts;
    if (hart >= 0 && (unsigned)hart >= (sb ? *harts : 1u)) {
        if (!sb)
            snprintf(err, errlen, "--hart %d: the trace has no SRC field (srcbits 0), so all of it is hart 0", hart);
        else
            snprintf(err, errlen, "--hart %d: the trace has %u hart%s (0..%u%s)", hart, *harts, *harts == 1 ? "" : "s",
                     *harts - 1, have_harts ? ", trace.json" : ", from srcbits");
        return -1;
    }
    return 0;
}

int ts_mkdir_p(const char *path) {
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s", path);
    if (n < 0 || (size_t)n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    struct stat sb;
    if (stat(buf, &sb) || !S_ISDIR(sb.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static const char *dec_field(const char *p, uint64_t *v, char end) {
    if (*p < '0' || *p > '9') return NULL;
    uint64_t x = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (x > UINT64_MAX / 10 || (x == UINT64_MAX / 10 && d > UINT64_MAX % 10)) return NULL;
        x = x * 10 + d;
    }
    if (*p != end) return NULL;
    *v = x;
    return p + 1;
}

bool ts_itc_row(const char *line, ts_itc_row_t *r) {
    uint64_t f[5];
    const char *p = line;
    for (int i = 0; i < 5 && p; i++) p = dec_field(p, &f[i], ',');
    if (!p || f[1] > 0xFFFFFFFFu || f[2] > 0xFFFFFFFFu || f[3] > 3 || f[4] > 4) return false;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    uint32_t v = 0;
    int n = 0;
    for (;; p++, n++) {
        int d = (*p >= '0' && *p <= '9') ? *p - '0' : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10 :
                                                  (*p >= 'A' && *p <= 'F')     ? *p - 'A' + 10 :
                                                                                 -1;
        if (d < 0) break;
        if (n == 8) return false;
        v = v << 4 | (uint32_t)d;
    }
    if (!n) return false;
    r->status = TS_ITC_TRACED;
    if (*p == ',') {
        static const char *const st[] = {"traced", "dropped_fifo", "after_stop", "encoder_off"};
        size_t k = strcspn(++p, "\r\n");
        int s = 0;
        while (s < 4 && !(k == strlen(st[s]) && !strncmp(p, st[s], k))) s++;
        if (s == 4) return false;
        r->status = (enum ts_itc_status)s;
        p += k;
    }
    if (*p && *p != '\n' && *p != '\r') return false;
    r->cycle = f[0];
    r->hart = (unsigned)f[1];
    r->stim = (unsigned)f[2];
    r->off = (unsigned)f[3];
    r->size = (unsigned)f[4];
    r->value = v;
    return true;
}

bool ts_stm_row(const char *line, ts_stm_row_t *r) {
    static const char *const st[] = {"traced", "lost", "off"};
    char *end;
    uint64_t v[4];
    const char *p = line;
    for (int i = 0; i < 4; i++) {
        if (*p < '0' || *p > '9') return false; /* no sign, no blank */
        errno = 0;
        v[i] = strtoull(p, &end, i < 2 ? 10 : 16);
        if (errno || end == p || *end != ',') return false;
        p = end + 1;
    }
    if (v[1] > 0xFFFFFFFFu || v[2] > 0xFFFFu || v[3] > 0xFFFFFFFFu) return false;
    size_t n = strcspn(p, "\r\n");
    for (int s = 0; s < 3; s++)
        if (n == strlen(st[s]) && !strncmp(p, st[s], n)) {
            *r = (ts_stm_row_t){v[0], (unsigned)v[1], (unsigned)v[2], (uint32_t)v[3], (enum ts_stm_status)s};
            return true;
        }
    return false;
}
