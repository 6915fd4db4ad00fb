/* ts_opts.c - see ts_opts.h */
#include "ts_opts.h"
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ts_opts_init(ts_opts_t *o, const char *cmd, const ts_opt_t *table, int argc, char **argv) {
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->table = table;
    o->argc = argc;
    o->argv = argv;
    o->i = 1;
}

void ts_cmd_opts_init(ts_opts_t *o, const ts_cmd_t *cmd, int argc, char **argv) {
    ts_opts_init(o, cmd->name, cmd->table, argc, argv);
    o->without = cmd->without;
}

int ts_parse_uint(const char *s, uint64_t min, uint64_t max, unsigned flags, uint64_t *out) {
    if (!s || !((*s >= '0' && *s <= '9'))) return -1; /* no sign, no space, not empty */
    uint64_t v = 0;
    const char *p = s;
    unsigned base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
        if (!*p) return -1;
    }
    for (; *p; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9') d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = (unsigned)(*p - 'A' + 10);
        else
            break;
        if (v > (UINT64_MAX - d) / base) return -1; /* overflow */
        v = v * base + d;
    }
    if (*p && (flags & TS_OPT_SUFFIX) && !p[1]) {
        unsigned shift = (*p == 'K' || *p == 'k') ? 10 : (*p == 'M' || *p == 'm') ? 20 :
                                                     (*p == 'G' || *p == 'g')     ? 30 :
                                                                                    0;
        if (!shift) return -1;
        if (v > (UINT64_MAX >> shift)) return -1; /* overflow */
        v <<= shift;
        p++;
    }
    if (*p || v < min || v > max) return -1;
    *out = v;
    return 0;
}

/* a number as the range text says it: with a K/M/G suffix when the option takes them and
 * the number is an exact multiple */
static void fmt_num(uint64_t v, unsigned flags, char *buf, size_t len) {
    static const char sfx[] = "GMK";
    for (unsigned k = 0; (flags & TS_OPT_SUFFIX) && v && k < 3; k++) {
        unsigned shift = 30 - 10 * k;
        if (!(v & ((1ull << shift) - 1))) {
            snprintf(buf, len, "%" PRIu64 "%c", v >> shift, sfx[k]);
            return;
        }
    }
    snprintf(buf, len, "%" PRIu64, v);
}

void ts_opt_range(const ts_opt_t *opt, char *buf, size_t len) {
    char a[32], b[32];
    if (opt->kind == TS_OPT_REAL) {
        snprintf(buf, len, "%g to %g", opt->rmin, opt->rmax);
        return;
    }
    fmt_num(opt->min, opt->flags, a, sizeof a);
    fmt_num(opt->max, opt->flags, b, sizeof b);
    if (opt->max == UINT64_MAX) snprintf(buf, len, "%s or more", a);
    else
        snprintf(buf, len, "%s to %s", a, b);
    if (opt->flags & TS_OPT_SUFFIX) {
        size_t k = strlen(buf);
        snprintf(buf + k, len - k, "; suffixes K, M, G");
    }
}

static int fail(ts_opts_t *o, const char *f, ...) __attribute__((format(printf, 2, 3)));
static int fail(ts_opts_t *o, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    vsnprintf(o->err, sizeof o->err, f, ap);
    va_end(ap);
    size_t k = strlen(o->err);
    /* "tracesim run --help", "tracesim-sc --help" */
    snprintf(o->err + k, sizeof o->err - k, " (see %s%s --help)", strncmp(o->cmd, "tracesim", 8) ? "tracesim " : "", o->cmd);
    return TS_OPTS_ERROR;
}

/* the edit distance of a and b (insertions, deletions, substitutions, swaps of neighbours),
 * for names up to 63 characters (longer ones: a large number) */
static unsigned edit_distance(const char *a, size_t n, const char *b, size_t m) {
    if (n > 63 || m > 63) return 1000;
    unsigned d[64][64];
    for (size_t i = 0; i <= n; i++) d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            unsigned v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v) v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

static bool is_option(const ts_opt_t *t, unsigned without) { return !(t->flags & (without | TS_OPT_REFUSE)); }

const char *ts_opts_closest(const ts_opt_t *table, unsigned without, const char *name, size_t n) {
    const char *best = NULL;
    unsigned best_key = UINT32_MAX;
    for (const ts_opt_t *t = table; t->id; t++) {
        if (!is_option(t, without)) continue;
        size_t m = strlen(t->name);
        bool prefix = n && n < m && !strncmp(t->name, name, n);
        unsigned dist = edit_distance(name, n, t->name, m);
        if (!prefix && (dist > 2 || dist >= n)) continue;
        unsigned key = (prefix ? 0 : 1000) + dist; /* an abbreviation first, then a typo */
        if (key < best_key) {
            best_key = key;
            best = t->name;
        }
    }
    return best;
}

/* checks and converts o->arg for o->opt */
static int take_value(ts_opts_t *o) {
    const ts_opt_t *t = o->opt;
    char range[96], name[80];
    snprintf(name, sizeof name, "--%s", t->name);
    if (t->kind == TS_OPT_UINT) {
        if (ts_parse_uint(o->arg, t->min, t->max, t->flags, &o->u)) {
            ts_opt_range(t, range, sizeof range);
            snprintf(o->err, sizeof o->err, "invalid value '%.200s' for %s (%s)", o->arg, name, range);
            return TS_OPTS_ERROR;
        }
    } else if (t->kind == TS_OPT_REAL) {
        char *end;
        errno = 0;
        const char *s = o->arg;
        o->r = (*s == ' ' || *s == '\t' || !*s) ? NAN : strtod(s, &end);
        if (isnan(o->r) || *end || errno || !isfinite(o->r) || o->r < t->rmin || o->r > t->rmax) {
            ts_opt_range(t, range, sizeof range);
            snprintf(o->err, sizeof o->err, "invalid value '%.200s' for %s (%s)", o->arg, name, range);
            return TS_OPTS_ERROR;
        }
    } else if (t->kind == TS_OPT_STRING && !*o->arg) {
        return fail(o, "empty value for %s", name);
    }
    return t->id;
}

int ts_opts_next(ts_opts_t *o) {
    o->opt = NULL;
    o->arg = NULL;
    if (o->i >= o->argc) return TS_OPTS_END;
    const char *a = o->argv[o->i++];
    if (o->only_positional || a[0] != '-' || !a[1]) {
        o->arg = a;
        return TS_OPTS_POSITIONAL;
    }
    if (!strcmp(a, "--")) {
        o->only_positional = true;
        return ts_opts_next(o);
    }
    const char *inline_val = NULL;
    if (a[1] == '-') {
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        for (const ts_opt_t *t = o->table; t->id; t++)
            if (strlen(t->name) == n && !strncmp(t->name, name, n)) {
                o->opt = t;
                break;
            }
        if (o->opt && (o->opt->flags & o->without)) /* tracesim run's, not tracesim-sc's */
            return fail(o, "--%s is not an option of %s%s", o->opt->name, strncmp(o->cmd, "tracesim", 8) ? "tracesim " : "", o->cmd);
        if (!o->opt) {
            char shown[128];
            snprintf(shown, sizeof shown, "%.*s", (int)(eq ? (size_t)(eq - a) : strlen(a)), a);
            const char *near = ts_opts_closest(o->table, o->without, name, n);
            if (near) return fail(o, "unknown option '%.100s'; did you mean --%.100s?", shown, near);
            return fail(o, "unknown option '%.100s'", shown);
        }
        if (o->opt->flags & TS_OPT_REFUSE) return fail(o, "%s", o->opt->help);
        if (eq) inline_val = eq + 1;
    } else {
        for (const ts_opt_t *t = o->table; t->id; t++)
            if (!(t->flags & o->without) && t->short_name && t->short_name == a[1]) {
                o->opt = t;
                break;
            }
        if (!o->opt) {
            char shown[3] = {'-', a[1], 0};
            return fail(o, "unknown option '%s'", shown);
        }
        if (o->opt->flags & TS_OPT_REFUSE) return fail(o, "%s", o->opt->help);
        if (a[2]) inline_val = a + 2;
    }
    char name[80];
    snprintf(name, sizeof name, "--%s", o->opt->name);
    if (o->opt->kind == TS_OPT_FLAG) {
        if (inline_val) return fail(o, "%s takes no value", name);
        return o->opt->id;
    }
    if (inline_val) {
        o->arg = inline_val;
    } else {
        if (o->i >= o->argc) return fail(o, "option %s needs a value", name);
        o->arg = o->argv[o->i++];
        /* "--retire-log --stm-thread-switch": the next word is one of this command's own
         * options, not a value (a file of that name can still be given as --opt=./--name) */
        if (o->arg[0] == '-' && o->arg[1] == '-' && !o->only_positional) {
            const char *v = o->arg + 2, *eq = strchr(v, '=');
            size_t n = eq ? (size_t)(eq - v) : strlen(v);
            for (const ts_opt_t *t = o->table; t->id; t++)
                if (is_option(t, o->without) && strlen(t->name) == n && !strncmp(t->name, v, n))
                    return fail(o, "option %s needs a value, not the option --%s (a value that starts with '--': %s=VALUE)", name, t->name, name);
        }
    }
    return take_value(o);
}

/* "  -o, --out DIR" for the help, "`-o, --out DIR`" for a table cell */
static void left_part(const ts_opt_t *t, char *buf, size_t len, bool markdown) {
    char sh[8] = "    ";
    if (t->short_name) snprintf(sh, sizeof sh, "-%c, ", t->short_name);
    else if (markdown)
        sh[0] = 0;
    snprintf(buf, len, "%s%s--%s%s%s%s", markdown ? "`" : "  ", sh, t->name, t->metavar ? " " : "",
             t->metavar ? t->metavar : "", markdown ? "`" : "");
}

/* the help text with the range of a number appended */
static void full_help(const ts_opt_t *t, char *buf, size_t len) {
    snprintf(buf, len, "%s", t->help ? t->help : "");
    if (t->kind == TS_OPT_UINT || t->kind == TS_OPT_REAL) {
        char range[96];
        ts_opt_range(t, range, sizeof range);
        size_t k = strlen(buf);
        snprintf(buf + k, len - k, " [%s]", range);
    }
}

void ts_opts_help(FILE *f, const ts_opt_t *table) { ts_opts_help_without(f, table, 0); }
void ts_opts_markdown(FILE *f, const ts_opt_t *table) { ts_opts_markdown_without(f, table, 0); }

/* text with '\n' as lines indented by `indent` after the first */
static void indented(FILE *f, const char *text, int indent) {
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(f, "%.*s\n", (int)n, p);
        p += n;
        if (*p == '\n') {
            p++;
            if (*p) fprintf(f, "%*s", indent, "");
        }
    }
}

void ts_opts_help_without(FILE *f, const ts_opt_t *table, unsigned without) {
    for (const ts_opt_t *t = table; t->id; t++) {
        if (!is_option(t, without)) continue;
        char left[128], help[2048];
        left_part(t, left, sizeof left, false);
        full_help(t, help, sizeof help);
        size_t l = strlen(left);
        if (l < 24) fprintf(f, "%-25s", left);
        else
            fprintf(f, "%s\n%25s", left, "");
        indented(f, help, 25);
    }
}

/* a table cell: lines joined, | < > escaped */
static void cell(FILE *f, const char *p) {
    for (; *p; p++) {
        if (*p == '\n') fputc(' ', f);
        else if (*p == '|')
            fputs("\\|", f);
        else if (*p == '<')
            fputs("&lt;", f);
        else if (*p == '>')
            fputs("&gt;", f);
        else
            fputc(*p, f);
    }
}

void ts_opts_markdown_without(FILE *f, const ts_opt_t *table, unsigned without) {
    fputs("| option | meaning |\n|---|---|\n", f);
    for (const ts_opt_t *t = table; t->id; t++) {
        if (!is_option(t, without)) continue;
        char left[128], help[2048];
        left_part(t, left, sizeof left, true);
        full_help(t, help, sizeof help);
        fputs("| ", f);
        for (const char *p = left; *p; p++) { /* a | in a code span still ends the cell */
            if (*p == '|') fputc('\\', f);
            fputc(*p, f);
        }
        fputs(" | ", f);
        cell(f, help);
        fputs(" |\n", f);
    }
}

void ts_cmd_help(FILE *f, const ts_cmd_t *cmd) {
    fputs("usage: ", f);
    indented(f, cmd->synopsis, 7);
    if (cmd->about) fprintf(f, "\n%s", cmd->about);
    fputs("\noptions:\n", f);
    ts_opts_help_without(f, cmd->table, cmd->without);
    if (cmd->outputs) fprintf(f, "\noutputs:\n%s", cmd->outputs);
    fputs("\nexit status:\n", f);
    for (const ts_exit_t *e = cmd->exits; e && e->status; e++) {
        fprintf(f, "  %-7s ", e->status);
        indented(f, e->meaning, 10);
    }
    if (cmd->notes) fprintf(f, "\n%s", cmd->notes);
}

void ts_cmd_markdown(FILE *f, const ts_cmd_t *cmd) {
    ts_opts_markdown_without(f, cmd->table, cmd->without);
    fputs("\n| exit status | meaning |\n|---|---|\n", f);
    for (const ts_exit_t *e = cmd->exits; e && e->status; e++) {
        fprintf(f, "| %s | ", e->status);
        cell(f, e->meaning);
        fputs(" |\n", f);
    }
}

int ts_opt_uint(const char *opt, const char *val, uint64_t min, uint64_t max, uint64_t *out) {
    if (!ts_parse_uint(val, min, max, 0, out)) return 0;
    fprintf(stderr, "tracesim: invalid value '%.200s' for %s (%" PRIu64 " to %" PRIu64 ")\n", val, opt, min, max);
    return -1;
}

int ts_opt_real(const char *opt, const char *val, double rmin, double rmax, double *out) {
    char *end;
    errno = 0;
    double r = (*val == ' ' || *val == '\t' || !*val) ? NAN : strtod(val, &end);
    if (!isnan(r) && !*end && !errno && isfinite(r) && r >= rmin && r <= rmax) {
        *out = r;
        return 0;
    }
    fprintf(stderr, "tracesim: invalid value '%.200s' for %s (%g to %g)\n", val, opt, rmin, rmax);
    return -1;
}
