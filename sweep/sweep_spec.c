/* sweep_spec.c - sweep specs and their points: see sweep_spec.h. */
#include "sweep_spec.h"
#include "ts_file.h"
#include "ts_json.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NAME_MAX_LEN 48 /* longer point names are cut and get a hash */

typedef struct ctx {
    sw_spec_t *s;
    const char *fname;
    char *err;
    size_t errlen;
} ctx_t;

static int bad(ctx_t *c, unsigned line, const char *f, ...) __attribute__((format(printf, 3, 4)));
static int bad(ctx_t *c, unsigned line, const char *f, ...) {
    int k = snprintf(c->err, c->errlen, "%s:%u: ", c->fname, line);
    if (k >= 0 && (size_t)k < c->errlen) {
        va_list ap;
        va_start(ap, f);
        vsnprintf(c->err + k, c->errlen - (size_t)k, f, ap);
        va_end(ap);
    }
    return -1;
}

static char *dup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* sw_index_t equality: value `item` of the axis ctx has the text key */
static bool value_eq(const void *ctx, size_t item, const void *key) {
    return !strcmp(((const sw_axis_t *)ctx)->values[item].text, key);
}

/* members of obj must be among the NULL-terminated names */
static int known_keys(ctx_t *c, const sj_value_t *obj, const char *what, const char *const *names) {
    for (size_t i = 0; i < obj->n; i++) {
        bool ok = false;
        for (const char *const *n = names; *n; n++) ok |= !strcmp(*n, obj->keys[i]);
        if (ok) continue;
        char list[256] = "";
        for (const char *const *n = names; *n; n++) {
            size_t k = strlen(list);
            snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", *n);
        }
        return bad(c, obj->key_lines[i], "unknown key \"%s\" in %s (known: %s)", obj->keys[i], what, list);
    }
    return 0;
}

static int want(ctx_t *c, const sj_value_t *v, enum sj_type t, const char *what) {
    if (v->type == t) return 0;
    return bad(c, v->line, "%s must be %s, not %s", what, sj_type_name(t), sj_type_name(v->type));
}

static int axis_index(const sw_spec_t *s, const char *name, size_t n) {
    for (size_t a = 0; a < s->n_axes; a++)
        if (strlen(s->axes[a].name) == n && !strncmp(s->axes[a].name, name, n)) return (int)a;
    return -1;
}

/* {name} placeholders of a template must name axes, "build" or "spec_dir" */
static int check_template(ctx_t *c, const char *t, unsigned line, const char *what) {
    for (const char *p = t; (p = strchr(p, '{')); p++) {
        const char *e = strchr(p, '}');
        if (!e) return bad(c, line, "%s \"%s\": '{' without '}'", what, t);
        size_t n = (size_t)(e - p - 1);
        if (axis_index(c->s, p + 1, n) < 0 && !(n == 5 && !strncmp(p + 1, "build", 5)) &&
            !(n == 8 && !strncmp(p + 1, "spec_dir", 8)))
            return bad(c, line, "%s \"%s\": unknown placeholder {%.*s} (axes, {build} or {spec_dir})", what, t, (int)n, p + 1);
    }
    return 0;
}

/* an array of strings (options); numbers are taken as written */
static int string_list(ctx_t *c, const sj_value_t *v, const char *what, char ***out, size_t *n) {
    if (want(c, v, SJ_ARRAY, what)) return -1;
    *out = calloc(v->n ? v->n : 1, sizeof **out);
    if (!*out) return bad(c, v->line, "out of memory");
    for (size_t i = 0; i < v->n; i++) {
        const sj_value_t *it = v->items[i];
        if (it->type != SJ_STRING && it->type != SJ_NUMBER)
            return bad(c, it->line, "%s: items must be strings, not %s", what, sj_type_name(it->type));
        if (!((*out)[i] = dup(it->s))) return bad(c, it->line, "out of memory");
        *n = i + 1;
        if (check_template(c, it->s, it->line, what)) return -1;
    }
    return 0;
}

/* a value of an axis: "text", a number, or {"value": ..., "run": [...], "firmware": "...", "ignore": [...]} */
static int parse_value(ctx_t *c, sw_axis_t *ax, size_t a, const sj_value_t *v, sw_value_t *out) {
    out->line = v->line;
    const sj_value_t *val = v;
    if (v->type == SJ_OBJECT) {
        static const char *const keys[] = {"value", "run", "firmware", "ignore", NULL};
        if (known_keys(c, v, "an axis value", keys)) return -1;
        val = sj_get(v, "value");
        if (!val) return bad(c, v->line, "axis \"%s\": a value object needs \"value\"", ax->name);
    }
    if (val->type != SJ_STRING && val->type != SJ_NUMBER)
        return bad(c, val->line, "axis \"%s\": a value must be a string, a number or an object, not %s", ax->name,
                   sj_type_name(val->type));
    if (!val->s[0]) return bad(c, val->line, "axis \"%s\": empty value", ax->name);
    if (!strcmp(val->s, "-")) return bad(c, val->line, "axis \"%s\": \"-\" is reserved (an ignored axis)", ax->name);
    if (!(out->text = dup(val->s))) return bad(c, val->line, "out of memory");
    if (v->type != SJ_OBJECT) return 0;
    const sj_value_t *r = sj_get(v, "run"), *fw = sj_get(v, "firmware"), *ig = sj_get(v, "ignore");
    if (r && string_list(c, r, "\"run\"", &out->run, &out->n_run)) return -1;
    if (fw) {
        if (want(c, fw, SJ_STRING, "\"firmware\"") || check_template(c, fw->s, fw->line, "\"firmware\"")) return -1;
        if (!(out->firmware = dup(fw->s))) return bad(c, fw->line, "out of memory");
        out->fw_line = fw->line;
    }
    if (ig) {
        if (want(c, ig, SJ_ARRAY, "\"ignore\"")) return -1;
        for (size_t i = 0; i < ig->n; i++) {
            const sj_value_t *it = ig->items[i];
            if (want(c, it, SJ_STRING, "\"ignore\" items")) return -1;
            int b = axis_index(c->s, it->s, strlen(it->s));
            /* axes after this one are not parsed yet: names are checked in a second pass */
            if (b == (int)a) return bad(c, it->line, "axis \"%s\": a value cannot ignore its own axis", ax->name);
            (void)b;
        }
    }
    return 0;
}

static bool valid_name(const char *n) {
    if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') || *n == '_')) return false;
    for (const char *p = n; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
    static const char *const reserved[] = {"build", "spec_dir", "point", "status", "exit", "check", "seconds", "error", NULL};
    for (const char *const *r = reserved; *r; r++)
        if (!strcmp(n, *r)) return false;
    return true;
}

static int parse_axes(ctx_t *c, const sj_value_t *axes) {
    sw_spec_t *s = c->s;
    if (want(c, axes, SJ_ARRAY, "\"axes\"")) return -1;
    if (!axes->n) return bad(c, axes->line, "\"axes\" is empty (at least one axis)");
    if (axes->n > SW_MAX_AXES) return bad(c, axes->line, "more than %d axes", SW_MAX_AXES);
    /* names first: templates and "ignore" may name any axis */
    for (size_t a = 0; a < axes->n; a++) {
        const sj_value_t *ax = axes->items[a];
        if (want(c, ax, SJ_OBJECT, "an axis")) return -1;
        static const char *const keys[] = {"name", "values", "run", NULL};
        if (known_keys(c, ax, "an axis", keys)) return -1;
        const sj_value_t *nm = sj_get(ax, "name");
        if (!nm) return bad(c, ax->line, "an axis needs \"name\"");
        if (want(c, nm, SJ_STRING, "an axis \"name\"")) return -1;
        if (!valid_name(nm->s))
            return bad(c, nm->line, "axis name \"%s\": letters, digits and '_', not starting with a digit "
                                    "(and not build, spec_dir, point, status, exit, check, seconds or error)",
                       nm->s);
        for (size_t b = 0; b < a; b++)
            if (!strcmp(s->axes[b].name, nm->s))
                return bad(c, nm->line, "duplicate axis \"%s\" (first on line %u)", nm->s, s->axes[b].line);
        if (!(s->axes[a].name = dup(nm->s))) return bad(c, nm->line, "out of memory");
        s->axes[a].line = nm->line;
        s->n_axes = a + 1;
    }
    for (size_t a = 0; a < axes->n; a++) {
        const sj_value_t *ax = axes->items[a];
        sw_axis_t *x = &s->axes[a];
        const sj_value_t *vals = sj_get(ax, "values"), *r = sj_get(ax, "run");
        if (!vals) return bad(c, ax->line, "axis \"%s\" needs \"values\"", x->name);
        if (want(c, vals, SJ_ARRAY, "\"values\"")) return -1;
        if (!vals->n) return bad(c, vals->line, "axis \"%s\" has no values", x->name);
        if (r && string_list(c, r, "\"run\"", &x->run, &x->n_run)) return -1;
        if (!(x->values = calloc(vals->n, sizeof *x->values))) return bad(c, vals->line, "out of memory");
        for (size_t i = 0; i < vals->n; i++) {
            x->n_values = i + 1;
            if (parse_value(c, x, a, vals->items[i], &x->values[i])) return -1;
            uint64_t h = sw_hash64_str(x->values[i].text);
            size_t j = sw_index_find(&x->by_text, h, x->values[i].text, value_eq, x);
            if (j != SW_INDEX_NONE)
                return bad(c, x->values[i].line, "axis \"%s\": duplicate value \"%s\" (first on line %u)", x->name,
                           x->values[i].text, x->values[j].line);
            if (sw_index_add(&x->by_text, h, i)) return bad(c, x->values[i].line, "out of memory");
            const sj_value_t *ig = vals->items[i]->type == SJ_OBJECT ? sj_get(vals->items[i], "ignore") : NULL;
            for (size_t k = 0; ig && k < ig->n; k++) {
                int b = axis_index(s, ig->items[k]->s, strlen(ig->items[k]->s));
                if (b < 0) return bad(c, ig->items[k]->line, "\"ignore\": unknown axis \"%s\"", ig->items[k]->s);
                x->values[i].ignore |= 1u << b;
            }
        }
    }
    return 0;
}

/* value index of a string or number in an axis, or -1 */
static int value_index(const sw_axis_t *x, const sj_value_t *v) {
    if (v->type != SJ_STRING && v->type != SJ_NUMBER) return -1;
    size_t i = sw_index_find(&x->by_text, sw_hash64_str(v->s), v->s, value_eq, x);
    return i == SW_INDEX_NONE ? -1 : (int)i;
}

/* exclude[e]: per axis a, -1 (any value) or the offset in the same row of a 0/1 flag per value */
static int parse_exclude(ctx_t *c, const sj_value_t *ex) {
    sw_spec_t *s = c->s;
    if (want(c, ex, SJ_ARRAY, "\"exclude\"")) return -1;
    if (!(s->exclude = calloc(ex->n ? ex->n : 1, sizeof *s->exclude))) return bad(c, ex->line, "out of memory");
    size_t slots = s->n_axes;
    for (size_t a = 0; a < s->n_axes; a++) slots += s->axes[a].n_values;
    for (size_t e = 0; e < ex->n; e++) {
        const sj_value_t *o = ex->items[e];
        if (want(c, o, SJ_OBJECT, "an \"exclude\" item")) return -1;
        if (!o->n) return bad(c, o->line, "an empty \"exclude\" item would exclude every point");
        int *row = calloc(slots, sizeof *row);
        if (!row) return bad(c, o->line, "out of memory");
        s->exclude[e] = row;
        s->n_exclude = e + 1;
        for (size_t a = 0; a < s->n_axes; a++) row[a] = -1;
        size_t off = s->n_axes;
        for (size_t m = 0; m < o->n; m++) {
            int a = axis_index(s, o->keys[m], strlen(o->keys[m]));
            if (a < 0) return bad(c, o->key_lines[m], "\"exclude\": unknown axis \"%s\"", o->keys[m]);
            const sw_axis_t *x = &s->axes[a];
            row[a] = (int)off;
            off += x->n_values;
            const sj_value_t *v = o->items[m];
            size_t nv = v->type == SJ_ARRAY ? v->n : 1;
            if (!nv) return bad(c, v->line, "\"exclude\": no values for axis \"%s\"", x->name);
            for (size_t k = 0; k < nv; k++) {
                const sj_value_t *it = v->type == SJ_ARRAY ? v->items[k] : v;
                int vi = value_index(x, it);
                if (vi < 0) {
                    bool scalar = it->type == SJ_STRING || it->type == SJ_NUMBER;
                    return bad(c, it->line, "\"exclude\": axis \"%s\" has no value %s%s%s", x->name, scalar ? "\"" : "",
                               scalar ? it->s : sj_type_name(it->type), scalar ? "\"" : "");
                }
                row[row[a] + vi] = 1;
            }
        }
    }
    return 0;
}

/* one baseline: {"axis": value, ...} into vi */
static int parse_baseline(ctx_t *c, const sj_value_t *b, const char *what, int *vi) {
    sw_spec_t *s = c->s;
    for (int a = 0; a < SW_MAX_AXES; a++) vi[a] = -1;
    if (want(c, b, SJ_OBJECT, what)) return -1;
    if (!b->n) return bad(c, b->line, "%s is empty (name an axis and its baseline value)", what);
    for (size_t m = 0; m < b->n; m++) {
        int a = axis_index(s, b->keys[m], strlen(b->keys[m]));
        if (a < 0) return bad(c, b->key_lines[m], "%s: unknown axis \"%s\"", what, b->keys[m]);
        int v = value_index(&s->axes[a], b->items[m]);
        if (v < 0)
            return bad(c, b->items[m]->line, "%s: axis \"%s\" has no value %s", what, s->axes[a].name,
                       b->items[m]->s ? b->items[m]->s : sj_type_name(b->items[m]->type));
        vi[a] = v;
    }
    return 0;
}

static int parse_baselines(ctx_t *c, const sj_value_t *base, const sj_value_t *named) {
    sw_spec_t *s = c->s;
    s->n_baselines = 1; /* slot 0: "baseline", set or not */
    if (!(s->baselines[0].name = dup(""))) return bad(c, 1, "out of memory");
    if (base) {
        if (parse_baseline(c, base, "\"baseline\"", s->baselines[0].vi)) return -1;
        s->has_baseline = true;
    }
    if (!named) return 0;
    if (want(c, named, SJ_OBJECT, "\"baselines\"")) return -1;
    if (named->n > sizeof s->baselines / sizeof s->baselines[0] - 1)
        return bad(c, named->line, "more than %zu named baselines", sizeof s->baselines / sizeof s->baselines[0] - 1);
    for (size_t m = 0; m < named->n; m++) {
        const char *n = named->keys[m];
        bool ok = *n != 0;
        for (const char *q = n; *q; q++)
            ok &= (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_';
        if (!ok) return bad(c, named->key_lines[m], "baseline name \"%s\": letters, digits and '_'", n);
        struct sw_baseline *bl = &s->baselines[s->n_baselines];
        if (!(bl->name = dup(n))) return bad(c, named->key_lines[m], "out of memory");
        s->n_baselines++;
        char what[128];
        snprintf(what, sizeof what, "baseline \"%.64s\"", n);
        if (parse_baseline(c, named->items[m], what, bl->vi)) return -1;
    }
    return 0;
}

/* NULL if key names a value a run writes (docs/reference/run-folder.md) for a figure of kind, else
 * what the keys are: a key that names nothing would give an empty column in every point */
static const char *known_key(enum sw_fig_kind kind, const char *key) {
    static const char *const stats[] = {"elf", "exit_reason", "exit_code", "cycles", "instret", "ipc", "sim_seconds",
                                        "sim_hz", "guest_errors", "harts", "stm_events", "waves", NULL};
    static const char *const trace[] = {"format", "sink", "through_funnel", "srcbits", "tsbits", "sink_width", "start", "wp",
                                        "wrapped", "stopped_on_wrap", "stopped_at_cycle", "bytes", "messages", "itc_lost",
                                        "itc_stall_cycles", "queued_at_exit", "bytes_written", "harts", "other_sink_bytes", NULL};
    static const char *const events[] = {
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) csv,
#include "hpm_events.def"
#undef TS_EVENT
        NULL};
    const char *const *list = kind == FIG_STATS ? stats : kind == FIG_TRACE ? trace :
                                                      kind == FIG_EVENTS    ? events :
                                                                              NULL;
    if (kind == FIG_HPM) {
        if (!strcmp(key, "mcycle") || !strcmp(key, "minstret")) return NULL;
        char *end;
        if (!strncmp(key, "mhpmcounter", 11) && key[11] >= '0' && key[11] <= '9') {
            unsigned long n = strtoul(key + 11, &end, 10);
            if (!*end && n >= 3 && n <= 31) return NULL;
        }
        return "hpm.csv's counters are mcycle, minstret and mhpmcounter3..31";
    }
    if (!list) return NULL;
    for (size_t i = 0; list[i]; i++)
        if (!strcmp(key, list[i])) return NULL;
    if (kind == FIG_STATS && !strncmp(key, "instret_hart", 12) && key[12] >= '0' && key[12] <= '9') return NULL;
    return kind == FIG_STATS ? "not a key of stats.txt (cycles, instret, ipc, exit_code, guest_errors, ...)" : kind == FIG_TRACE ? "not a key of trace.json (bytes, messages, itc_lost, wrapped, ...)" :
                                                                                                                                   "not a column of events.csv (the event names of docs/reference/hpm-events.md)";
}

static int add_fig(ctx_t *c, const char *name, unsigned line, bool hidden) {
    sw_spec_t *s = c->s;
    for (size_t i = 0; i < s->n_figs; i++)
        if (!strcmp(s->figs[i].name, name)) {
            if (!hidden && !s->figs[i].hidden) return bad(c, line, "\"collect\": \"%s\" twice (first on line %u)", name, s->figs[i].line);
            if (!hidden) {
                s->figs[i].hidden = false;
                s->figs[i].line = line;
            }
            return (int)i;
        }
    sw_figure_t *f = realloc(s->figs, (s->n_figs + 1) * sizeof *f);
    if (!f) return bad(c, line, "out of memory");
    s->figs = f;
    f = &s->figs[s->n_figs];
    memset(f, 0, sizeof *f);
    if (!(f->name = dup(name))) return bad(c, line, "out of memory");
    f->line = line;
    f->hidden = hidden;
    f->base = -1;
    s->n_figs++;
    int idx = (int)s->n_figs - 1;
    static const struct {
        const char *prefix;
        enum sw_fig_kind kind;
    } kinds[] = {
        {"stats.", FIG_STATS}, {"hpm.", FIG_HPM}, {"events.", FIG_EVENTS}, {"trace.", FIG_TRACE}, {"overhead.", FIG_OVERHEAD}, {"per_record.", FIG_PER_RECORD}};
    if (!strcmp(name, "check")) {
        if (!s->check) return bad(c, line, "\"collect\": \"check\" needs \"check\": true");
        s->figs[idx].kind = FIG_CHECK;
        return idx;
    }
    if (!strcmp(name, "perf.records")) {
        s->figs[idx].kind = FIG_RECORDS;
        return idx;
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t pl = strlen(kinds[k].prefix);
        if (strncmp(name, kinds[k].prefix, pl)) continue;
        if (!name[pl]) break;
        s->figs[idx].kind = kinds[k].kind;
        s->figs[idx].arg = s->figs[idx].name + pl;
        if (kinds[k].kind != FIG_OVERHEAD && kinds[k].kind != FIG_PER_RECORD) {
            for (const char *p = s->figs[idx].arg; *p; p++)
                if (*p == ',' || *p == ' ' || *p == '"' || (unsigned char)*p < 0x20)
                    return bad(c, line, "\"collect\": \"%s\": a key cannot hold ',', blanks or quotes", name);
            const char *why = known_key(kinds[k].kind, s->figs[idx].arg);
            if (why) return bad(c, line, "\"collect\": \"%s\" names no column: %s", name, why);
            return idx;
        }
        char arg[256];
        snprintf(arg, sizeof arg, "%s", s->figs[idx].arg);
        char *at = strchr(arg, '@');
        s->figs[idx].baseline = 0;
        if (at) {
            *at++ = 0;
            size_t b;
            for (b = 1; b < s->n_baselines && strcmp(s->baselines[b].name, at); b++) {}
            if (b == s->n_baselines)
                return bad(c, line, "\"collect\": \"%s\": no baseline \"%s\" in \"baselines\"", name, at);
            s->figs[idx].baseline = (int)b;
        } else if (!s->has_baseline)
            return bad(c, line, "\"collect\": \"%s\" needs a \"baseline\"", name);
        if (!strncmp(arg, "overhead.", 9) || !strncmp(arg, "per_record.", 11) || !strcmp(arg, "check"))
            return bad(c, line, "\"collect\": \"%s\": the base must be a collected number (stats., hpm., events., trace., perf.records)", name);
        if (kinds[k].kind == FIG_PER_RECORD && add_fig(c, "perf.records", line, true) < 0) return -1;
        int base = add_fig(c, arg, line, true);
        if (base < 0) return -1;
        s->figs[idx].base = base;
        return idx;
    }
    return bad(c, line, "\"collect\": unknown figure \"%s\" (stats.KEY, hpm.COUNTER, events.COLUMN, trace.KEY, "
                        "perf.records, check, overhead.FIGURE, per_record.FIGURE)",
               name);
}

static int parse_root(ctx_t *c, const sj_value_t *root) {
    sw_spec_t *s = c->s;
    if (want(c, root, SJ_OBJECT, "a sweep spec")) return -1;
    static const char *const keys[] = {"name", "firmware", "run", "axes", "exclude", "check", "expect_exit",
                                       "perf_channel", "baseline", "baselines", "collect", NULL};
    if (known_keys(c, root, "the spec", keys)) return -1;
    const sj_value_t *v;
    if ((v = sj_get(root, "name"))) {
        if (want(c, v, SJ_STRING, "\"name\"")) return -1;
        if (!v->s[0]) return bad(c, v->line, "\"name\" is empty");
        free(s->name);
        if (!(s->name = dup(v->s))) return bad(c, v->line, "out of memory");
    }
    const sj_value_t *axes = sj_get(root, "axes");
    if (!axes) return bad(c, root->line, "the spec needs \"axes\"");
    if (parse_axes(c, axes)) return -1;
    v = sj_get(root, "firmware");
    if (!v) return bad(c, root->line, "the spec needs \"firmware\" (an ELF path; {axis} placeholders allowed)");
    if (want(c, v, SJ_STRING, "\"firmware\"") || check_template(c, v->s, v->line, "\"firmware\"")) return -1;
    if (!v->s[0]) return bad(c, v->line, "\"firmware\" is empty");
    if (!(s->firmware = dup(v->s))) return bad(c, v->line, "out of memory");
    s->fw_line = v->line;
    if ((v = sj_get(root, "run")) && string_list(c, v, "\"run\"", &s->run, &s->n_run)) return -1;
    if (v) s->run_line = v->line;
    if ((v = sj_get(root, "exclude")) && parse_exclude(c, v)) return -1;
    if ((v = sj_get(root, "check"))) {
        if (v->type == SJ_BOOL) s->check = v->b;
        else if (v->type == SJ_OBJECT) {
            static const char *const ckeys[] = {"args", NULL};
            if (known_keys(c, v, "\"check\"", ckeys)) return -1;
            s->check = true;
            const sj_value_t *a = sj_get(v, "args");
            if (a && string_list(c, a, "\"args\"", &s->check_args, &s->n_check_args)) return -1;
        } else
            return bad(c, v->line, "\"check\" must be true, false or an object, not %s", sj_type_name(v->type));
    }
    if ((v = sj_get(root, "expect_exit"))) {
        char *end;
        long x = v->type == SJ_NUMBER ? strtol(v->s, &end, 10) : -1;
        if (v->type != SJ_NUMBER || *end || x < 0 || x > 255) return bad(c, v->line, "\"expect_exit\" must be an integer 0..255");
        s->expect_exit = (int)x;
    }
    if ((v = sj_get(root, "perf_channel"))) {
        char *end;
        long x = v->type == SJ_NUMBER ? strtol(v->s, &end, 10) : -1;
        if (v->type != SJ_NUMBER || *end || x < 0 || x > 31) return bad(c, v->line, "\"perf_channel\" must be an integer 0..31");
        s->perf_channel = (unsigned)x;
    }
    if (parse_baselines(c, sj_get(root, "baseline"), sj_get(root, "baselines"))) return -1;
    if ((v = sj_get(root, "collect"))) {
        if (want(c, v, SJ_ARRAY, "\"collect\"")) return -1;
        for (size_t i = 0; i < v->n; i++) {
            if (want(c, v->items[i], SJ_STRING, "\"collect\" items")) return -1;
            if (add_fig(c, v->items[i]->s, v->items[i]->line, false) < 0) return -1;
        }
    }
    return 0;
}

int sw_spec_parse(sw_spec_t *s, const char *text, size_t len, const char *fname, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    s->perf_channel = 6;
    ctx_t c = {s, fname, err, errlen};
    s->path = dup(fname);
    s->dir = dup(fname);
    if (!s->path || !s->dir) return bad(&c, 1, "out of memory");
    char *slash = strrchr(s->dir, '/');
    if (slash) *(slash == s->dir ? slash + 1 : slash) = 0;
    else
        strcpy(s->dir, ".");
    const char *base = slash ? strrchr(fname, '/') + 1 : fname;
    if (!(s->name = dup(base))) return bad(&c, 1, "out of memory");
    size_t bl = strlen(s->name);
    if (bl > 5 && !strcmp(s->name + bl - 5, ".json")) s->name[bl - 5] = 0;
    char jerr[256];
    sj_value_t *root = sj_parse(text, len, jerr, sizeof jerr);
    if (!root) {
        snprintf(err, errlen, "%s:%s", fname, jerr + 5); /* "line N: what" -> "FILE:N: what" */
        return -1;
    }
    int rc = parse_root(&c, root);
    sj_free(root);
    return rc;
}

int sw_spec_load(sw_spec_t *s, const char *path, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    FILE *f = ts_fopen_input(path, err, errlen); /* a FIFO is refused, never waited on */
    struct stat sb;
    if (!f) return -2;
    if (fstat(fileno(f), &sb)) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        fclose(f);
        return -2;
    }
    char *text = malloc((size_t)sb.st_size + 1);
    size_t n = text ? fread(text, 1, (size_t)sb.st_size, f) : 0;
    fclose(f);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -2;
    }
    text[n] = 0;
    if (memchr(text, 0, n)) {
        free(text);
        snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
        return -1;
    }
    int rc = sw_spec_parse(s, text, n, path, err, errlen);
    free(text);
    return rc;
}

static void free_list(char **l, size_t n) {
    for (size_t i = 0; i < n; i++) free(l[i]);
    free(l);
}

void sw_spec_free(sw_spec_t *s) {
    free(s->path);
    free(s->dir);
    free(s->name);
    free(s->firmware);
    free_list(s->run, s->n_run);
    for (size_t a = 0; a < s->n_axes; a++) {
        sw_axis_t *x = &s->axes[a];
        free(x->name);
        free_list(x->run, x->n_run);
        for (size_t i = 0; i < x->n_values; i++) {
            free(x->values[i].text);
            free(x->values[i].firmware);
            free_list(x->values[i].run, x->values[i].n_run);
        }
        free(x->values);
        sw_index_free(&x->by_text);
    }
    for (size_t e = 0; e < s->n_exclude; e++) free(s->exclude[e]);
    free(s->exclude);
    free_list(s->check_args, s->n_check_args);
    for (size_t i = 0; i < s->n_figs; i++) free(s->figs[i].name);
    for (size_t i = 0; i < s->n_baselines; i++) free(s->baselines[i].name);
    free(s->figs);
    memset(s, 0, sizeof *s);
}

int sw_only_parse(const sw_spec_t *s, const char *arg, int **only, char *err, size_t errlen) {
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1]) {
        snprintf(err, errlen, "--only takes AXIS=VALUE[,VALUE...], not '%s'", arg);
        return -1;
    }
    int a = axis_index(s, arg, (size_t)(eq - arg));
    if (a < 0) {
        snprintf(err, errlen, "--only: %s has no axis \"%.*s\"", s->path, (int)(eq - arg), arg);
        return -1;
    }
    const sw_axis_t *x = &s->axes[a];
    if (!only[a] && !(only[a] = calloc(x->n_values, sizeof *only[a]))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (const char *p = eq + 1;;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *v = malloc(n + 1);
        if (!v) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        memcpy(v, p, n);
        v[n] = 0;
        size_t i = sw_index_find(&x->by_text, sw_hash64_str(v), v, value_eq, x);
        free(v);
        if (i == SW_INDEX_NONE) {
            snprintf(err, errlen, "--only: axis \"%s\" has no value \"%.*s\"", x->name, (int)n, p);
            return -1;
        }
        only[a][i] = 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

void sw_sanitize(const char *in, char *out, size_t len) {
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < len; p++) {
        char ch = *p;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                  ch == '+' || ch == '-' || ch == '_';
        out[k] = ok && !(k == 0 && ch == '.') ? ch : '-';
        k++;
    }
    out[k] = 0;
}

uint32_t sw_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

/* template with placeholders filled in; NULL with err */
static char *subst(ctx_t *c, const char *t, unsigned line, const int *vi, const char *build) {
    const sw_spec_t *s = c->s;
    size_t cap = strlen(t) + 1, k = 0;
    char *out = malloc(cap);
    if (!out) {
        bad(c, line, "out of memory");
        return NULL;
    }
    for (const char *p = t; *p;) {
        const char *rep = NULL;
        size_t skip = 1;
        if (*p == '{') {
            const char *e = strchr(p, '}');
            size_t n = e ? (size_t)(e - p - 1) : 0;
            int a = e ? axis_index(s, p + 1, n) : -1;
            if (a >= 0 && vi[a] == SW_IGNORED) {
                bad(c, line, "\"%s\" uses {%s}, which the point's value of another axis ignores", t, s->axes[a].name);
                free(out);
                return NULL;
            }
            if (a >= 0) rep = s->axes[a].values[vi[a]].text;
            else if (n == 5 && !strncmp(p + 1, "build", 5))
                rep = build;
            else if (n == 8 && !strncmp(p + 1, "spec_dir", 8))
                rep = s->dir;
            if (rep) skip = n + 2;
        }
        size_t rl = rep ? strlen(rep) : 1;
        if (k + rl + 1 > cap) {
            cap = 2 * (k + rl + 1);
            char *o = realloc(out, cap);
            if (!o) {
                free(out);
                bad(c, line, "out of memory");
                return NULL;
            }
            out = o;
        }
        memcpy(out + k, rep ? rep : p, rl);
        k += rl;
        p += skip;
    }
    out[k] = 0;
    return out;
}

static int add_arg(ctx_t *c, sw_point_t *pt, const char *t, unsigned line, const char *build) {
    char **a = realloc(pt->args, (pt->n_args + 1) * sizeof *a);
    if (!a) return bad(c, line, "out of memory");
    pt->args = a;
    if (!(a[pt->n_args] = subst(c, t, line, pt->vi, build))) return -1;
    pt->n_args++;
    return 0;
}

static bool excluded(const sw_spec_t *s, const int *vi) {
    for (size_t e = 0; e < s->n_exclude; e++) {
        const int *row = s->exclude[e];
        bool all = true;
        for (size_t a = 0; a < s->n_axes && all; a++)
            if (row[a] >= 0) all = row[row[a] + vi[a]] != 0;
        if (all) return true;
    }
    return false;
}

/* the ignore rule: a value's ignored axes read SW_IGNORED (in axis order, so a value of an
 * ignored axis ignores nothing) */
static void apply_ignore(const sw_spec_t *s, int *vi) {
    for (size_t a = 0; a < s->n_axes; a++)
        if (vi[a] != SW_IGNORED) {
            uint32_t ig = s->axes[a].values[vi[a]].ignore;
            for (size_t b = 0; b < s->n_axes; b++)
                if ((ig >> b) & 1) vi[b] = SW_IGNORED;
        }
}

/* sw_index_t equality of points by their value indices (all SW_MAX_AXES of them: the
 * unused ones are 0 in both) */
static bool point_eq(const void *ctx, size_t item, const void *key) {
    return !memcmp(((const sw_plan_t *)ctx)->points[item].vi, key, SW_MAX_AXES * sizeof(int));
}

static uint64_t vi_hash(const int *vi) { return sw_hash64(vi, SW_MAX_AXES * sizeof *vi); }

const sw_point_t *sw_plan_find(const sw_spec_t *s, const sw_plan_t *p, const int *vi) {
    int key[SW_MAX_AXES] = {0};
    memcpy(key, vi, s->n_axes * sizeof *vi);
    size_t i = sw_index_find(&p->by_vi, vi_hash(key), key, point_eq, p);
    return i == SW_INDEX_NONE ? NULL : &p->points[i];
}

const sw_point_t *sw_plan_baseline(const sw_spec_t *s, const sw_plan_t *p, const sw_point_t *pt, int b) {
    if (b < 0 || (size_t)b >= s->n_baselines || (b == 0 && !s->has_baseline)) return NULL;
    int vi[SW_MAX_AXES];
    memcpy(vi, pt->vi, sizeof vi);
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->baselines[b].vi[a] >= 0) vi[a] = s->baselines[b].vi[a];
    /* values that the baseline values ignore become "-"; axes the point ignored but the
     * baseline does not cannot be told: no baseline then */
    int merged[SW_MAX_AXES];
    memcpy(merged, vi, sizeof merged);
    for (size_t a = 0; a < s->n_axes; a++)
        if (merged[a] == SW_IGNORED) merged[a] = 0;
    apply_ignore(s, merged);
    for (size_t a = 0; a < s->n_axes; a++)
        if (vi[a] == SW_IGNORED && merged[a] != SW_IGNORED) return NULL;
    return sw_plan_find(s, p, merged);
}

static char *point_name(const sw_spec_t *s, const int *vi) {
    char buf[4096], part[512];
    size_t k = 0;
    buf[0] = 0;
    for (size_t a = 0; a < s->n_axes; a++) {
        if (vi[a] == SW_IGNORED) continue;
        sw_sanitize(s->axes[a].values[vi[a]].text, part, sizeof part);
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", k ? "_" : "", part);
        if (k >= sizeof buf) k = sizeof buf - 1;
    }
    if (!k) snprintf(buf, sizeof buf, "all");
    return dup(buf);
}

/* the identity of a point for its hash: axis=value lines */
static uint32_t point_hash(const sw_spec_t *s, const int *vi) {
    char buf[8192];
    size_t k = 0;
    buf[0] = 0;
    for (size_t a = 0; a < s->n_axes && k < sizeof buf; a++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s=%s\n", s->axes[a].name,
                              vi[a] == SW_IGNORED ? "-" : s->axes[a].values[vi[a]].text);
    return sw_hash(buf);
}

static int add_hash(ctx_t *c, sw_point_t *pt, size_t keep) {
    char buf[NAME_MAX_LEN + 16];
    snprintf(buf, sizeof buf, "%.*s-%08x", (int)keep, pt->name, point_hash(c->s, pt->vi));
    free(pt->name);
    if (!(pt->name = dup(buf))) return bad(c, 1, "out of memory");
    return 0;
}

/* sw_index_t equality of points by name */
static bool name_eq(const void *ctx, size_t item, const void *key) {
    return !strcmp(((const sw_plan_t *)ctx)->points[item].name, key);
}

static int plan(const sw_spec_t *s, int *const *only, const char *build, sw_plan_t *p, char *err, size_t errlen) {
    ctx_t c = {(sw_spec_t *)s, s->path, err, errlen};
    memset(p, 0, sizeof *p);
    size_t total = 1;
    for (size_t a = 0; a < s->n_axes; a++) {
        total *= s->axes[a].n_values;
        if (total > 1000000) return bad(&c, s->axes[a].line, "more than 1000000 points");
    }
    if (!(p->points = calloc(total, sizeof *p->points))) return bad(&c, 1, "out of memory");
    /* p->n counts the points whose strings may need freeing */
    int idx[SW_MAX_AXES] = {0};
    for (size_t n = 0; n < total; n++) {
        size_t r = n;
        for (size_t a = s->n_axes; a-- > 0;) {
            idx[a] = (int)(r % s->axes[a].n_values);
            r /= s->axes[a].n_values;
        }
        bool skip = excluded(s, idx);
        for (size_t a = 0; a < s->n_axes && !skip && only; a++) skip = only[a] && !only[a][idx[a]];
        if (skip) continue;
        int vi[SW_MAX_AXES] = {0};
        memcpy(vi, idx, s->n_axes * sizeof *vi);
        apply_ignore(s, vi);
        if (sw_plan_find(s, p, vi)) continue;
        sw_point_t *pt = &p->points[p->n];
        memcpy(pt->vi, vi, sizeof vi);
        if (sw_index_add(&p->by_vi, vi_hash(vi), p->n)) return bad(&c, 1, "out of memory");
        pt->index = p->n++;
        if (!(pt->name = point_name(s, vi))) return bad(&c, 1, "out of memory");
        if (strlen(pt->name) > NAME_MAX_LEN && add_hash(&c, pt, NAME_MAX_LEN - 9)) return -1;
        /* firmware: the last value (in axis order) that sets one, else the spec's */
        const char *fw = s->firmware;
        unsigned fl = s->fw_line;
        for (size_t a = 0; a < s->n_axes; a++)
            if (vi[a] != SW_IGNORED && s->axes[a].values[vi[a]].firmware) {
                fw = s->axes[a].values[vi[a]].firmware;
                fl = s->axes[a].values[vi[a]].fw_line;
            }
        if (!(pt->elf = subst(&c, fw, fl, vi, build))) return -1;
        struct stat sb;
        if (stat(pt->elf, &sb) || !S_ISREG(sb.st_mode))
            return bad(&c, fl, "firmware %s of point %s %s", pt->elf, pt->name,
                       stat(pt->elf, &sb) ? "not found" : "is not a regular file");
        for (size_t i = 0; i < s->n_run; i++)
            if (add_arg(&c, pt, s->run[i], s->run_line, build)) return -1;
        for (size_t a = 0; a < s->n_axes; a++) {
            if (vi[a] == SW_IGNORED) continue;
            const sw_axis_t *x = &s->axes[a];
            for (size_t i = 0; i < x->n_run; i++)
                if (add_arg(&c, pt, x->run[i], x->line, build)) return -1;
            const sw_value_t *v = &x->values[vi[a]];
            for (size_t i = 0; i < v->n_run; i++)
                if (add_arg(&c, pt, v->run[i], v->line, build)) return -1;
        }
    }
    if (!p->n) return bad(&c, 1, "no points (every combination is excluded or left out by --only)");
    /* names that clash after sanitising get the hash of their values */
    bool *clash = calloc(p->n, sizeof *clash);
    if (!clash) return bad(&c, 1, "out of memory");
    sw_index_t names = {0};
    int rc = 0;
    for (size_t i = 0; i < p->n && !rc; i++) {
        uint64_t h = sw_hash64_str(p->points[i].name);
        size_t j = sw_index_find(&names, h, p->points[i].name, name_eq, p);
        if (j != SW_INDEX_NONE) clash[i] = clash[j] = true;
        else if (sw_index_add(&names, h, i))
            rc = bad(&c, 1, "out of memory");
    }
    sw_index_free(&names);
    for (size_t i = 0; i < p->n && !rc; i++)
        if (clash[i]) rc = add_hash(&c, &p->points[i], NAME_MAX_LEN - 9);
    free(clash);
    for (size_t i = 0; i < p->n && !rc; i++) {
        uint64_t h = sw_hash64_str(p->points[i].name);
        size_t j = sw_index_find(&names, h, p->points[i].name, name_eq, p);
        if (j != SW_INDEX_NONE) rc = bad(&c, 1, "points %zu and %zu both get the name %s", j, i, p->points[i].name);
        else if (sw_index_add(&names, h, i))
            rc = bad(&c, 1, "out of memory");
    }
    sw_index_free(&names);
    return rc;
}

int sw_plan(const sw_spec_t *s, int *const *only, const char *build, sw_plan_t *p, char *err, size_t errlen) {
    int rc = plan(s, only, build, p, err, errlen);
    if (rc) sw_plan_free(p);
    return rc;
}

void sw_plan_free(sw_plan_t *p) {
    for (size_t i = 0; i < p->n; i++) {
        free(p->points[i].name);
        free(p->points[i].elf);
        free_list(p->points[i].args, p->points[i].n_args);
    }
    free(p->points);
    sw_index_free(&p->by_vi);
    memset(p, 0, sizeof *p);
}

/* ---- sweep specs stay in the sweep ------------------------------------------------------- */

int sw_plan_check_paths(const sw_spec_t *s, const sw_plan_t *p, const ts_cmd_t *run, char *err, size_t errlen) {
    for (size_t i = 0; i < p->n; i++) {
        const sw_point_t *pt = &p->points[i];
        /* where each argument came from, in sw_plan's order: the spec, then per axis its run
         * options and its value's */
        size_t n = pt->n_args;
        char **argv = calloc(n + 2, sizeof *argv);
        int *axis = calloc(n + 1, sizeof *axis), *val = calloc(n + 1, sizeof *val);
        unsigned *line = calloc(n + 1, sizeof *line);
        if (!argv || !axis || !val || !line) {
            free(argv);
            free(axis);
            free(val);
            free(line);
            snprintf(err, errlen, "%s: out of memory", s->path);
            return -1;
        }
        size_t k = 0;
        for (size_t j = 0; j < s->n_run && k < n; j++, k++) {
            axis[k] = -1;
            val[k] = -1;
            line[k] = s->run_line;
        }
        for (size_t a = 0; a < s->n_axes; a++) {
            if (pt->vi[a] == SW_IGNORED) continue;
            const sw_axis_t *x = &s->axes[a];
            for (size_t j = 0; j < x->n_run && k < n; j++, k++) {
                axis[k] = (int)a;
                val[k] = -1;
                line[k] = x->line;
            }
            const sw_value_t *v = &x->values[pt->vi[a]];
            for (size_t j = 0; j < v->n_run && k < n; j++, k++) {
                axis[k] = (int)a;
                val[k] = pt->vi[a];
                line[k] = v->line;
            }
        }
        argv[0] = "run";
        for (size_t j = 0; j < n; j++) argv[j + 1] = pt->args[j];
        ts_opts_t op;
        ts_cmd_opts_init(&op, run, (int)n + 1, argv);
        int c, rc = 0;
        size_t at = 1; /* the argument the option's name is in */
        while (!rc && (at = (size_t)op.i, c = ts_opts_next(&op)) != TS_OPTS_END && c != TS_OPTS_ERROR) {
            if (c == TS_OPTS_POSITIONAL || !op.opt || !(op.opt->flags & TS_OPT_PATH)) continue;
            size_t j = at >= 1 && at - 1 < n ? at - 1 : 0;
            char where[512] = "\"run\"";
            if (axis[j] >= 0 && val[j] >= 0)
                snprintf(where, sizeof where, "axis \"%s\" value \"%s\"", s->axes[axis[j]].name,
                         s->axes[axis[j]].values[val[j]].text);
            else if (axis[j] >= 0)
                snprintf(where, sizeof where, "axis \"%s\"", s->axes[axis[j]].name);
            snprintf(err, errlen, "%s:%u: %s: run option --%s names a path (point %s: '%s'); a sweep writes only "
                                  "into its points' folders, so a spec may not give -o, --waves, --retire-log or any other "
                                  "option that names a file (docs/commands/sweep.md)",
                     s->path, line[j], where, op.opt->name,
                     pt->name, op.arg ? op.arg : "");
            rc = -1;
        }
        free(argv);
        free(axis);
        free(val);
        free(line);
        if (rc) return -1;
    }
    return 0;
}
