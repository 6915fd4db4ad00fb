/* traps_csv.c - see traps_csv.h */
#include "traps_csv.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char header[] = "cycle,hart,cause,pc,handler,pending,first,ret,depth";

/* the next CSV field of *p (up to ',' or the end): its start; *p moves past the comma */
static char *field(char **p) {
    char *f = *p, *c = strchr(f, ',');
    if (c) {
        *c = 0;
        *p = c + 1;
    } else
        *p = f + strlen(f);
    return f;
}

/* a number of the row (base 16: "0x" optional), false when empty or malformed */
static bool num(const char *f, int base, uint64_t *v) {
    if (!*f || *f == '-' || *f == '+' || *f == ' ') return false;
    char *e;
    errno = 0;
    unsigned long long x = strtoull(f, &e, base);
    if (*e || errno) return false;
    *v = x;
    return true;
}

int ts_traps_csv_open(ts_traps_csv_t *t, FILE *f, const char *path, unsigned harts, char *err, size_t errlen) {
    t->f = f;
    t->path = path;
    t->harts = harts;
    t->ln = 1;
    if (!fgets(t->line, sizeof t->line, f) || strncmp(t->line, header, sizeof header - 1)) {
        snprintf(err, errlen, "%s: not a traps.csv (its header line)", path);
        return -1;
    }
    return 0;
}

int ts_traps_csv_next(ts_traps_csv_t *t, ts_trap_row_t *r, char *err, size_t errlen) {
    if (!fgets(t->line, sizeof t->line, t->f)) {
        if (!ferror(t->f)) return 0;
        snprintf(err, errlen, "cannot read %s", t->path);
        return -1;
    }
    t->ln++;
    size_t l = strlen(t->line);
    if (l && t->line[l - 1] == '\n') t->line[--l] = 0;
    else if (!feof(t->f)) {
        snprintf(err, errlen, "%s:%llu: line too long", t->path, t->ln);
        return -1;
    }
    char *q = t->line, *fs[9];
    for (int i = 0; i < 9; i++) fs[i] = field(&q);
    uint64_t h, cause;
    *r = (ts_trap_row_t){0};
    r->has_pending = num(fs[5], 10, &r->pending);
    r->has_first = num(fs[6], 10, &r->first);
    r->has_ret = num(fs[7], 10, &r->ret);
    if (*q || !num(fs[0], 10, &r->cycle) || !num(fs[1], 10, &h) || h >= t->harts || !num(fs[2], 16, &cause) ||
        cause > UINT32_MAX || !num(fs[3], 16, &r->pc) || !num(fs[4], 16, &r->handler) || !num(fs[8], 10, &r->depth) ||
        (!r->has_pending && *fs[5]) || (!r->has_first && *fs[6]) || (!r->has_ret && *fs[7]) ||
        (r->has_ret && r->ret < r->cycle)) {
        snprintf(err, errlen, "%s:%llu: malformed row", t->path, t->ln);
        return -1;
    }
    r->hart = (unsigned)h;
    r->cause = (uint32_t)cause;
    return 1;
}
