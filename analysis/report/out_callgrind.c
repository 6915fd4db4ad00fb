/* out_callgrind.c - the callgrind format writer of a calling-context tree (stack_tree.h).
 *
 * The tree is folded into callgrind's per-function view: a record per (function, kind, source
 * position, callee): self costs by line, and calls with their inclusive costs; records with
 * the same key are merged, then written function by function. */
#include "stack_tree.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct cgrec {
    uint32_t func;    /* the function (client number, or ST_OUTSIDE/ST_SPLIT, or
                                          ST_THREAD: the caller of a thread's outermost frames) */
    uint32_t tnode;   /* ST_THREAD: the thread's node */
    uint32_t callee;  /* ST_NONE: a self-cost line */
    const char *file; /* self: the line's file; call: the call site's file */
    unsigned line;
    const char *cfile; /* call: the callee's file, and its first line */
    unsigned cline;
    uint64_t calls;
    uint64_t cost[ST_MAX_COLS]; /* by the output's event */
} cgrec_t;

static int strcmp0(const char *a, const char *b) { return a == b ? 0 : !a ? -1 :
                                                                   !b     ? 1 :
                                                                            strcmp(a, b); }

static int by_key(const void *va, const void *vb) {
    const cgrec_t *a = va, *b = vb;
    if (a->func != b->func) return a->func < b->func ? -1 : 1;
    if (a->tnode != b->tnode) return a->tnode < b->tnode ? -1 : 1;
    if (a->callee != b->callee) return a->callee == ST_NONE ? -1 : b->callee == ST_NONE ? 1 :
                                                               a->callee < b->callee    ? -1 :
                                                                                          1;
    int c = strcmp0(a->file, b->file);
    if (c) return c;
    return a->line < b->line ? -1 : a->line > b->line;
}

static bool real_func(uint32_t f) { return f < ST_SPECIAL; }

/* a name or file on one line: no line break or other control character */
static void put_name(FILE *o, const char *s) {
    for (; *s; s++) fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '_' : *s, o);
}

static const char *func_name(const st_t *t, const st_names_t *nm, uint32_t f, uint32_t tnode, char *buf, size_t len) {
    if (f == ST_THREAD) { /* the frames opened with none below: [hart N] or [thread ...] */
        unsigned hart = (unsigned)t->node[t->node[tnode].parent].site;
        char tb[56];
        if (nm && nm->thread && nm->thread(nm->ctx, hart, t->node[tnode].site, tb, sizeof tb)) snprintf(buf, len, "[hart %u %s]", hart, tb);
        else
            snprintf(buf, len, "[hart %u]", hart);
        return buf;
    }
    if (f == ST_OUTSIDE) return "[outside]";
    if (f == ST_SPLIT) return "[not attributed]";
    const char *n = nm && nm->func ? nm->func(nm->ctx, f) : NULL;
    if (n && *n) return n;
    snprintf(buf, len, "0x%08" PRIx64, nm && nm->addr ? nm->addr(nm->ctx, f) : (uint64_t)f);
    return buf;
}

/* the file and first line of a function */
static const char *func_pos(const st_names_t *nm, uint32_t f, unsigned *line) {
    *line = 0;
    if (!real_func(f) || !nm || !nm->line || !nm->addr) return NULL;
    const char *file = nm->line(nm->ctx, nm->addr(nm->ctx, f), line);
    if (!file) *line = 0;
    return file;
}

int st_write_callgrind(const st_t *t, const unsigned *cols, const char *const *events, const char *const *desc,
                       unsigned k, const st_names_t *nm, const char *cmd, FILE *out) {
    if (t->oom) return -1;
    if (k > ST_MAX_COLS) k = ST_MAX_COLS;
    /* calls' inclusive costs (callgrind's: a call's cost is the callee's inclusive cost, and
     * a function's inclusive cost the sum of its calls'): the cost of a frame's subtree, for
     * the outermost frame of its function on the path only (a recursion's inner calls cost
     * nothing there: their costs are in the outer call's), as the profile's totals count */
    uint64_t *edge = calloc(t->n ? t->n * k : 1, sizeof *edge);
    size_t capr = 2 * t->n + t->nlc + 16, nr = 0;
    cgrec_t *r = malloc(capr * sizeof *r);
    uint64_t *rest = malloc((t->n ? t->n : 1) * k * sizeof *rest); /* self not placed by st_add_at */
    int rc = 0;
    if (!edge || !r || !rest) {
        rc = -1;
        goto done;
    }
    for (size_t i = 0; i < t->n; i++) /* self, then the subtrees (a child comes after its parent) */
        for (unsigned j = 0; j < k; j++) edge[i * k + j] = st_cost(t, (uint32_t)i, cols[j]);
    for (size_t i = t->n; i-- > 0;)
        if (t->node[i].parent != ST_NONE)
            for (unsigned j = 0; j < k; j++) edge[(size_t)t->node[i].parent * k + j] += edge[i * k + j];
    for (size_t i = 0; i < t->n; i++) { /* not the outermost frame of its function: no cost */
        uint32_t f = t->node[i].func;
        if (!real_func(f)) continue;
        for (uint32_t a = t->node[i].parent; a != ST_NONE; a = t->node[a].parent)
            if (t->node[a].func == f) {
                memset(&edge[i * k], 0, k * sizeof *edge);
                break;
            }
    }
    /* self costs: by address where given, the rest at the function's first line */
    for (size_t i = 0; i < t->n; i++)
        for (unsigned j = 0; j < k; j++) rest[i * k + j] = st_cost(t, (uint32_t)i, cols[j]);
    for (size_t i = 0; i < t->nlc; i++) {
        const st_at_cost_t *a = &t->lc[i];
        cgrec_t *x = &r[nr++];
        memset(x, 0, sizeof *x);
        x->func = t->node[a->node].func;
        x->callee = ST_NONE;
        x->file = nm && nm->line ? nm->line(nm->ctx, a->addr, &x->line) : NULL;
        if (!x->file) x->line = 0;
        for (unsigned j = 0; j < k; j++) {
            x->cost[j] = a->cost[cols[j]];
            rest[(size_t)a->node * k + j] -= a->cost[cols[j]];
        }
    }
    for (size_t i = 0; i < t->n; i++) {
        const st_node_t *n = &t->node[i];
        if (n->func == ST_HART || n->func == ST_THREAD) continue;
        bool any = false;
        for (unsigned j = 0; j < k; j++) any |= rest[i * k + j] != 0;
        if (any) {
            cgrec_t *x = &r[nr++];
            memset(x, 0, sizeof *x);
            x->func = n->func;
            x->callee = ST_NONE;
            x->file = func_pos(nm, n->func, &x->line);
            for (unsigned j = 0; j < k; j++) x->cost[j] = rest[i * k + j];
        }
        uint32_t a = n->parent;
        if (!real_func(n->func) || a == ST_NONE || (!real_func(t->node[a].func) && t->node[a].func != ST_THREAD)) continue;
        cgrec_t *x = &r[nr++];
        memset(x, 0, sizeof *x);
        x->func = t->node[a].func;
        if (x->func == ST_THREAD) x->tnode = a;
        x->callee = n->func;
        x->file = n->site && nm && nm->site_line ? nm->site_line(nm->ctx, n->site, &x->line) : NULL;
        if (!x->file) x->line = 0;
        x->cfile = func_pos(nm, n->func, &x->cline);
        x->calls = n->calls;
        for (unsigned j = 0; j < k; j++) x->cost[j] = edge[i * k + j];
    }
    qsort(r, nr, sizeof *r, by_key);
    size_t m = 0; /* merge equal keys */
    for (size_t i = 0; i < nr; i++) {
        if (m && !by_key(&r[m - 1], &r[i])) {
            r[m - 1].calls += r[i].calls;
            for (unsigned j = 0; j < k; j++) r[m - 1].cost[j] += r[i].cost[j];
        } else {
            r[m++] = r[i];
        }
    }
    nr = m;
    uint64_t sum[ST_MAX_COLS] = {0};
    for (size_t i = 0; i < nr; i++)
        if (r[i].callee == ST_NONE)
            for (unsigned j = 0; j < k; j++) sum[j] += r[i].cost[j];
    fputs("# callgrind format\nversion: 1\ncreator: tracesim report\n", out);
    if (cmd) {
        fputs("cmd: ", out);
        put_name(out, cmd);
        fputc('\n', out);
    }
    fputs("positions: line\n", out);
    for (unsigned j = 0; j < k; j++)
        if (desc && desc[j]) {
            fprintf(out, "event: %s : ", events[j]);
            put_name(out, desc[j]);
            fputc('\n', out);
        }
    fputs("events:", out);
    for (unsigned j = 0; j < k; j++) fprintf(out, " %s", events[j]);
    fputs("\nsummary:", out);
    for (unsigned j = 0; j < k; j++) fprintf(out, " %" PRIu64, sum[j]);
    fputc('\n', out);
    char nb[128], cb[128];
    const char *ff = NULL; /* the function's file (fl=) */
    for (size_t i = 0; i < nr; i++) {
        const cgrec_t *x = &r[i];
        if (!i || r[i - 1].func != x->func || r[i - 1].tnode != x->tnode) {
            unsigned l;
            const char *f = func_pos(nm, x->func, &l);
            if (!f) f = x->file; /* a pseudo function: its first position's file */
            ff = f;
            fputs("\nfl=", out);
            put_name(out, f ? f : "???");
            fputs("\nfn=", out);
            put_name(out, func_name(t, nm, x->func, x->tnode, nb, sizeof nb));
            fputc('\n', out);
        }
        /* a position in another file than the function's (inlined code): fi= before, fe= back */
        bool other = x->file && strcmp0(ff, x->file);
        if (other) {
            fputs("fi=", out);
            put_name(out, x->file);
            fputc('\n', out);
        }
        if (x->callee != ST_NONE) {
            fputs("cfi=", out);
            put_name(out, x->cfile ? x->cfile : "???");
            fputs("\ncfn=", out);
            put_name(out, func_name(t, nm, x->callee, 0, cb, sizeof cb));
            /* a frame already open when the trace began (main under program trace) was never
             * called in it: calls=0, which callgrind_annotate reads as no call, adding the
             * inclusive cost on the next line to the caller's self cost; it counts as 1 */
            fprintf(out, "\ncalls=%" PRIu64 " %u\n", x->calls ? x->calls : 1, x->cline);
        }
        fprintf(out, "%u", x->line);
        for (unsigned j = 0; j < k; j++) fprintf(out, " %" PRIu64, x->cost[j]);
        fputc('\n', out);
        if (other) {
            fputs("fe=", out);
            put_name(out, ff ? ff : "???");
            fputc('\n', out);
        }
    }
    if (ferror(out)) rc = -1;
done:
    free(edge);
    free(r);
    free(rest);
    return rc;
}
