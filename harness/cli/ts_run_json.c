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

#define TS_RUN_JSON_MAX (16u << 20)   /* a trace.json is a few hundred bytes; more is not one */

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
        snprintf(err, errlen, "%s: %s", path, !text ? "out of memory" : rerr ? "read error" : "larger than 16 MiB");
        free(text);
        return -1;
    }
    char jerr[256];
    j->root = sj_parse(text, n, jerr, sizeof jerr);
    free(text);
    if (!j->root) {
        snprintf(err, errlen, "%s:%s", path, jerr + 5);     /* "line N: what" -> "PATH:N: what" */
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
