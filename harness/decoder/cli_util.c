/* cli_util.c - see cli_util.h. */
#include "cli_util.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool ts_json_uint(const char *text, const char *key, unsigned *out) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(text, pat);
    if (!p) return false;
    p = strchr(p + strlen(pat), ':');
    if (!p) return false;
    char *end;
    unsigned long v = strtoul(p + 1, &end, 10);
    if (end == p + 1) return false;
    *out = (unsigned)v;
    return true;
}

char *ts_read_file(const char *path, size_t *len, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)); return NULL; }
    struct stat sb;
    if (fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s is not a regular file", path);
        fclose(f);
        return NULL;
    }
    char *buf = malloc((size_t)sb.st_size + 1);
    if (!buf) { snprintf(err, errlen, "out of memory reading %s", path); fclose(f); return NULL; }
    size_t n = fread(buf, 1, (size_t)sb.st_size, f);
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

void ts_perf_diag(uint64_t *errors, unsigned core, uint64_t offset, const char *what) {
    if (!strncmp(what, "warning: ", 9))
        fprintf(stderr, "tracesim: warning (hart %u, trace offset %" PRIu64 "): %s\n", core, offset, what + 9);
    else if ((*errors)++ < 10)
        fprintf(stderr, "tracesim: perf data error (hart %u, trace offset %" PRIu64 "): %s\n", core, offset, what);
}

void ts_trace_defaults(const char *trace_path, int *srcbits, int *tssize) {
    char jpath[4096], err[256];
    snprintf(jpath, sizeof jpath, "%s", trace_path);
    char *slash = strrchr(jpath, '/');
    snprintf(slash ? slash + 1 : jpath, sizeof jpath - (size_t)(slash ? slash + 1 - jpath : 0), "trace.json");
    size_t jlen;
    char *json = ts_read_file(jpath, &jlen, err, sizeof err);
    unsigned u;
    if (json && *srcbits < 0 && ts_json_uint(json, "srcbits", &u) && u <= 8) *srcbits = (int)u;
    if (json && *tssize < 0 && ts_json_uint(json, "tsbits", &u) && u >= 1 && u <= 64) *tssize = (int)u;
    free(json);
    if (*srcbits < 0) *srcbits = 0;
    if (*tssize < 0) *tssize = 40;
}
