/* overhead_run.c - what both modes of `tracesim overhead` (overhead.c, overhead_baseline.c) do
 * with one run: simulate an ELF into a run folder with this executable and read back what the
 * folder holds (stats.txt, events.csv, trace.json, the perf records of trace.rtd and itc.csv),
 * and the chart axis both draw. Neither mode's file is called from here (overhead_int.h). */
#include "overhead_int.h"
#include "cli_util.h"
#include "ts_decoder.h"
#include "ts_file.h"
#include "ts_json.h"
#include "ts_opts.h" /* ts_parse_uint */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* snprintf that reports truncation: 0, or -1 if the result did not fit */
int ovh_fmt(char *buf, size_t len, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(buf, len, f, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}


/* DIR/FILE, whole and NUL-terminated; NULL if missing or unreadable */
char *ovh_slurp(const char *dir, const char *file, size_t *len) {
    char path[OVH_PATH];
    if (ovh_fmt(path, sizeof path, "%s/%s", dir, file)) return NULL;
    char e[OVH_PATH + 64];
    FILE *f = ts_fopen_input(path, e, sizeof e); /* a FIFO or folder reads as missing, at once */
    if (!f) return NULL;
    struct stat sb;
    char *buf = NULL;
    if (!fstat(fileno(f), &sb) && S_ISREG(sb.st_mode) && (buf = malloc((size_t)sb.st_size + 1))) {
        *len = fread(buf, 1, (size_t)sb.st_size, f);
        buf[*len] = 0;
    }
    fclose(f);
    return buf;
}

static bool parse_u64(const char *p, uint64_t *v) {
    char *end;
    errno = 0;
    if (*p < '0' || *p > '9') return false;
    unsigned long long x = strtoull(p, &end, 10);
    if (errno) return false;
    *v = x;
    return true;
}

/* stats.txt: the value of a "key value" line */
bool ovh_stats_value(const char *text, const char *key, uint64_t *v) {
    size_t k = strlen(key);
    for (const char *p = text; p && *p;) {
        if (!strncmp(p, key, k) && p[k] == ' ') return parse_u64(p + k + 1, v);
        p = strchr(p, '\n');
        if (p) p++;
    }
    return false;
}

/* events.csv: one header line of column names, one line of values */
bool ovh_csv_value(const char *text, const char *col, uint64_t *v) {
    const char *nl = strchr(text, '\n');
    if (!nl) return false;
    size_t k = strlen(col);
    unsigned idx = 0;
    const char *p = text;
    for (;;) {
        const char *e = p;
        while (e < nl && *e != ',') e++;
        if ((size_t)(e - p) == k && !strncmp(p, col, k)) break;
        if (e == nl) return false;
        idx++;
        p = e + 1;
    }
    p = nl + 1;
    for (unsigned i = 0; i < idx; i++) {
        while (*p && *p != ',' && *p != '\n') p++;
        if (*p != ',') return false;
        p++;
    }
    return parse_u64(p, v);
}

/* trace.json's text through the strict JSON reader (sweep_json.h): a key of the wrong type
 * or out of range reads as absent, never as a number taken from the middle of the text */
static const sj_value_t *json_member(const char *text, const char *key, sj_value_t **root) {
    char jerr[128];
    *root = sj_parse(text, strlen(text), jerr, sizeof jerr);
    return *root ? sj_get(*root, key) : NULL;
}
bool ovh_json_true(const char *text, const char *key) {
    sj_value_t *root;
    const sj_value_t *v = json_member(text, key, &root);
    bool t = v && v->type == SJ_BOOL && v->b;
    sj_free(root);
    return t;
}
bool ovh_json_u64(const char *text, const char *key, uint64_t *out) {
    sj_value_t *root;
    const sj_value_t *v = json_member(text, key, &root);
    bool ok = v && v->type == SJ_NUMBER && !ts_parse_uint(v->s, 0, UINT64_MAX, 0, out);
    sj_free(root);
    return ok;
}

/* the last non-empty line of a file (the child's stderr), for a one-line error */
static void last_line(const char *dir, const char *file, char *out, size_t len) {
    size_t n;
    char *text = ovh_slurp(dir, file, &n);
    out[0] = 0;
    if (!text) return;
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r')) text[--n] = 0;
    char *start = strrchr(text, '\n');
    start = start ? start + 1 : text;
    if (!strncmp(start, "tracesim: ", 10)) start += 10;
    snprintf(out, len, "%s", start);
    free(text);
}

/* runs r->elf into r->dir with this executable; 0, or -1 with a reason in why */
int ovh_simulate(const ovh_run_t *r, char *why, size_t whylen) {
    char log[OVH_PATH];
    if (ovh_fmt(log, sizeof log, "%s/stderr.txt", r->dir)) {
        snprintf(why, whylen, "path too long");
        return -1;
    }
    /* what an earlier run left must not pass for this one's (no trace is written when
     * nothing was traced) */
    static const char *const outputs[] = {"stats.txt", "events.csv", "trace.rtd", "trace.json"};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        char p[OVH_PATH];
        if (!ovh_fmt(p, sizeof p, "%s/%s", r->dir, outputs[i])) unlink(p);
    }
    int lfd = ts_open_log(log, why, whylen); /* a planted link replaced, never followed */
    if (lfd < 0) return -1;
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) {
        close(lfd);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    if (posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) ||
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
        posix_spawn_file_actions_adddup2(&fa, lfd, 2)) {
        posix_spawn_file_actions_destroy(&fa);
        close(lfd);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    char a0[] = "tracesim", a1[] = "run", a2[] = "-q", a3[] = "-o", dir[OVH_PATH], path[OVH_PATH];
    snprintf(dir, sizeof dir, "%s", r->dir);
    snprintf(path, sizeof path, "%s", r->elf);
    char *argv[] = {a0, a1, a2, a3, dir, path, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(lfd);
    if (rc) {
        snprintf(why, whylen, "cannot start the simulator: %s", strerror(rc));
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, whylen, "waitpid: %s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
    char line[512];
    last_line(r->dir, "stderr.txt", line, sizeof line);
    if (WIFEXITED(st))
        snprintf(why, whylen, "exit status %d%s%s", WEXITSTATUS(st), line[0] ? ": " : "", line);
    else
        snprintf(why, whylen, "killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return -1;
}

static void on_header(void *ctx, const perf_header_t *h) {
    ovh_run_t *r = ctx;
    r->headers++;
    r->hdr_counters = h->n;
}
static void on_record(void *ctx, const perf_record_t *rec) {
    ovh_run_t *r = ctx;
    if (rec->truncated) r->truncated++;
    else
        r->records++;
}

/* the perf records in r->dir/trace.rtd (settings from trace.json) */
int ovh_count_records(ovh_run_t *r, const char *json, unsigned channel, char *why, size_t whylen) {
    size_t len;
    uint8_t *data = (uint8_t *)ovh_slurp(r->dir, "trace.rtd", &len);
    if (!data) {
        snprintf(why, whylen, "no trace.rtd in %s", r->dir);
        return -1;
    }
    uint64_t srcbits = 0, tsbits = 40;
    ovh_json_u64(json, "srcbits", &srcbits);
    ovh_json_u64(json, "tsbits", &tsbits);
    /* bytes -> messages -> elements -> perf records (ts_decoder.h) */
    ts_pipeline_cfg_t cfg = {.trace = {srcbits <= 8 ? (unsigned)srcbits : 0, tsbits >= 1 && tsbits <= 64 ? (unsigned)tsbits : 40},
                             .perf_channel = channel,
                             .perf_cb = {r, on_header, on_record, NULL}};
    int rc = ts_pipeline_run(&cfg, data, len, &r->perf_errors);
    free(data);
    if (rc) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    return 0;
}

static void count_made(void *ctx, const perf_record_t *rec) {
    ovh_run_t *r = ctx;
    if (!rec->truncated) r->made++;
}

int ovh_count_made(ovh_run_t *r, unsigned channel, char *why, size_t whylen) {
    r->made = 0;
    r->have_made = false;
    r->last_store = 0;
    r->last_hart = 0;
    char path[OVH_PATH];
    if (ovh_fmt(path, sizeof path, "%s/itc.csv", r->dir)) {
        snprintf(why, whylen, "path too long: %s", r->dir);
        return -1;
    }
    if (access(path, F_OK)) return 0; /* an older run folder: not known */
    char e[OVH_PATH + 64];
    FILE *f = ts_fopen_input(path, e, sizeof e);
    if (!f) {
        snprintf(why, whylen, "%s", e);
        return -1;
    }
    perf_dec_t *pd = malloc(sizeof *pd);
    if (!pd) {
        fclose(f);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    perf_dec_cb_t cb = {r, NULL, count_made, NULL};
    perf_dec_init(pd, channel, &cb);
    char line[256];
    int rc = 0;
    uint64_t lineno = 1;
    if (!fgets(line, sizeof line, f)) line[0] = 0; /* the header */
    while (fgets(line, sizeof line, f)) {
        lineno++;
        ts_itc_row_t row;
        if (!ts_itc_row(line, &row)) {
            snprintf(why, whylen, "%s line %" PRIu64 ": not an itc.csv row", path, lineno);
            rc = -1;
            break;
        }
        /* the firmware's stream as it wrote it: a store lost on the way is still a store made */
        perf_dec_feed_store(pd, row.hart, row.stim, row.off, row.value, row.cycle);
        if (row.stim == channel) {
            r->last_store = row.cycle;
            r->last_hart = row.hart;
        }
    }
    perf_dec_finish(pd);
    free(pd);
    fclose(f);
    if (!rc) r->have_made = true;
    else
        r->made = 0;
    return rc;
}

uint64_t ovh_per_record_n(const ovh_run_t *r) { return r->have_made ? r->made : r->records; }

/* a round tick step for a span: the smallest 1, 2 or 5 times a power of ten that gives at
 * most 5 steps; *decimals: digits after the point its multiples need */
double ovh_tick_step(double span, int *decimals) {
    static const int mant[] = {1, 2, 5};
    for (int e = -3; e < 30; e++) {
        double p = 1;
        for (int k = 0; k < (e < 0 ? -e : e); k++) p = e < 0 ? p / 10 : p * 10;
        for (int m = 0; m < 3; m++)
            if (mant[m] * p * 5 >= span) {
                *decimals = e < 0 ? -e : 0;
                return mant[m] * p;
            }
    }
    *decimals = 0;
    return span;
}
