/* ts_run_json.c - see ts_run_json.h */
#include "ts_run_json.h"
#include "ts_file.h"
#include "ts_opts.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TS_RUN_JSON_MAX (16u << 20) /* a trace.json is a few hundred bytes; more is not one */

int ts_run_json_open(ts_run_json_t *j, const char *path, char *err, size_t errlen) {
    memset(j, 0, sizeof *j);
    snprintf(j->path, sizeof j->path, "%s", path);
    struct stat sb;
    if (lstat(path, &sb) && errno == ENOENT) return 0;
    FILE *f = ts_fopen_input(path, err, errlen);
    if (!f) return -1;
    char *text = malloc(TS_RUN_JSON_MAX + 1);
    size_t n = text ? fread(text, 1, TS_RUN_JSON_MAX + 1, f) : 0;
    bool rerr = ferror(f);
    fclose(f);
    if (!text || rerr || n > TS_RUN_JSON_MAX) {
        snprintf(err, errlen, "%s: %s", path, !text ? "out of memory" : rerr ? "read error" :
                                                                               "larger than 16 MiB");
        free(text);
        return -1;
    }
    char jerr[256];
    j->root = sj_parse(text, n, jerr, sizeof jerr);
    free(text);
    if (!j->root) {
        snprintf(err, errlen, "%s:%s", path, jerr + 5); /* "line N: what" -> "PATH:N: what" */
        return -1;
    }
    if (j->root->type != SJ_OBJECT) {
        snprintf(err, errlen, "%s:%u: the top level must be an object, not %s", path, j->root->line,
                 sj_type_name(j->root->type));
        ts_run_json_close(j);
        return -1;
    }
    return 1;
}

void ts_run_json_close(ts_run_json_t *j) {
    if (j->root) sj_free(j->root);
    j->root = NULL;
}

static const sj_value_t *member(const ts_run_json_t *j, const char *key) { return j->root ? sj_get(j->root, key) : NULL; }

int ts_run_json_uint(const ts_run_json_t *j, const char *key, uint64_t min, uint64_t max, uint64_t *out, char *err,
                     size_t errlen) {
    const sj_value_t *v = member(j, key);
    if (!v) return 0;
    uint64_t x;
    if (v->type != SJ_NUMBER || ts_parse_uint(v->s, min, max, 0, &x)) {
        snprintf(err, errlen, "%s:%u: \"%s\" must be a whole number from %" PRIu64 " to %" PRIu64 ", not %s",
                 j->path, v->line, key, min, max, v->type == SJ_NUMBER ? v->s : sj_type_name(v->type));
        return -1;
    }
    *out = x;
    return 1;
}

int ts_run_json_int(const ts_run_json_t *j, const char *key, int64_t min, int64_t max, int64_t *out, char *err,
                    size_t errlen) {
    const sj_value_t *v = member(j, key);
    if (!v) return 0;
    uint64_t x;
    bool neg = v->type == SJ_NUMBER && v->s[0] == '-';
    if (v->type != SJ_NUMBER || ts_parse_uint(v->s + neg, 0, (uint64_t)INT64_MAX, 0, &x) ||
        (neg ? -(int64_t)x < min : (int64_t)x > max)) {
        snprintf(err, errlen, "%s:%u: \"%s\" must be an integer of %" PRId64 " to %" PRId64 ", not %s",
                 j->path, v->line, key, min, max, v->type == SJ_NUMBER ? v->s : sj_type_name(v->type));
        return -1;
    }
    *out = neg ? -(int64_t)x : (int64_t)x;
    return 1;
}

int ts_run_json_bool(const ts_run_json_t *j, const char *key, bool *out, char *err, size_t errlen) {
    const sj_value_t *v = member(j, key);
    if (!v) return 0;
    if (v->type != SJ_BOOL) {
        snprintf(err, errlen, "%s:%u: \"%s\" must be true or false, not %s", j->path, v->line, key,
                 v->type == SJ_NUMBER ? v->s : sj_type_name(v->type));
        return -1;
    }
    *out = v->b;
    return 1;
}

int ts_run_json_string(const ts_run_json_t *j, const char *key, const char **out, char *err, size_t errlen) {
    const sj_value_t *v = member(j, key);
    if (!v) return 0;
    if (v->type != SJ_STRING) {
        snprintf(err, errlen, "%s:%u: \"%s\" must be a string, not %s", j->path, v->line, key,
                 v->type == SJ_NUMBER ? v->s : sj_type_name(v->type));
        return -1;
    }
    *out = v->s;
    return 1;
}

int ts_trace_json_read(const char *path, ts_trace_json_t *t, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    ts_run_json_t j;
    int r = ts_run_json_open(&j, path, err, errlen);
    if (r <= 0) return r;
    const char *fmt = NULL, *sink = NULL;
    uint64_t u;
    int bad = 0;
#define U(key, min, max, field, has)                                  \
    if (!bad) {                                                       \
        int k = ts_run_json_uint(&j, key, min, max, &u, err, errlen); \
        if (k < 0) bad = 1;                                           \
        else if (k) {                                                 \
            field = u;                                                \
            has;                                                      \
        }                                                             \
    }
#define B(key, field) \
    if (!bad && ts_run_json_bool(&j, key, &field, err, errlen) < 0) bad = 1;
    if (!bad && ts_run_json_string(&j, "format", &fmt, err, errlen) < 0) bad = 1;
    if (!bad && fmt && strcmp(fmt, "tracesim-trace-1")) {
        snprintf(err, errlen, "%s: \"format\" is \"%.40s\", not tracesim-trace-1 (a trace.json of another program?)", path, fmt);
        bad = 1;
    }
    if (!bad && ts_run_json_string(&j, "sink", &sink, err, errlen) < 0) bad = 1;
    if (!bad && sink) snprintf(t->sink, sizeof t->sink, "%s", sink);
    U("srcbits", 0, 8, t->srcbits, t->has_srcbits = true)
    U("tsbits", 1, 64, t->tsbits, t->has_tsbits = true)
    U("harts", 1, 8, t->harts, t->has_harts = true)
    U("sink_width", 4, 32, t->sink_width, (void)0)
    U("start", 0, UINT64_MAX, t->start, (void)0)
    U("wp", 0, UINT64_MAX, t->wp, (void)0)
    U("stopped_at_cycle", 0, UINT64_MAX, t->stopped_at_cycle, (void)0)
    U("bytes", 0, UINT64_MAX, t->bytes, t->has_bytes = true)
    U("messages", 0, UINT64_MAX, t->messages, (void)0)
    U("itc_lost", 0, UINT64_MAX, t->itc_lost, (void)0)
    U("itc_stall_cycles", 0, UINT64_MAX, t->itc_stall_cycles, (void)0)
    U("queued_at_exit", 0, UINT64_MAX, t->queued_at_exit, (void)0)
    U("bytes_written", 0, UINT64_MAX, t->bytes_written, (void)0)
    U("other_sink_bytes", 0, UINT64_MAX, t->other_sink_bytes, (void)0)
    if (!bad) {
        int k = ts_run_json_int(&j, "ts_cycle_offset", -((int64_t)1 << 62), (int64_t)1 << 62, &t->ts_cycle_offset, err, errlen);
        if (k < 0) bad = 1;
        t->has_ts_cycle_offset = k > 0;
    }
    B("through_funnel", t->through_funnel)
    B("wrapped", t->wrapped)
    B("stopped_on_wrap", t->stopped_on_wrap)
#undef U
#undef B
    ts_run_json_close(&j);
    if (bad) return -1;
    t->found = true;
    return 0;
}

int ts_trace_json_beside(const char *trace_path, ts_trace_json_t *t, char *err, size_t errlen) {
    char jpath[4200];
    const char *slash = strrchr(trace_path, '/');
    if (slash) snprintf(jpath, sizeof jpath, "%.*s/trace.json", (int)(slash - trace_path), trace_path);
    else
        snprintf(jpath, sizeof jpath, "trace.json");
    return ts_trace_json_read(jpath, t, err, errlen);
}
