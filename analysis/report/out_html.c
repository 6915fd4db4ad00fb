/* out_html.c - `tracesim report -f html` (out_html.h): one self-contained page. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "out_html.h"
#include "callstack.h"
#include "irq_stats.h"
#include "run_folder.h"
#include "run_losses.h"
#include "stack_tree.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define W 1200       /* the pictures' width in SVG units */
#define ROW 17       /* a frame's height */
#define MAX_ROWS 160 /* frames drawn per stack (deeper ones are counted in a note) */
#define TL_LEVELS 256
#define TL_MAX_SLICES 1000000

void html_esc(FILE *o, const char *s) {
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&#39;", o); break;
        default:
            if (*p < 0x20 || *p == 0x7f) fprintf(o, "\\x%02x", *p);
            else
                fputc(*p, o);
        }
    }
}

/* ---- the timeline's slices -------------------------------------------------------------- */
typedef struct tl_slice {
    uint64_t start, end;
    uint32_t func;   /* a function number, ST_THREAD (level 0) or ST_SPLIT */
    uint32_t thread; /* the profile's thread slot */
    uint16_t level;  /* 0: the thread; 1: the outermost frame */
    uint8_t hart;
} tl_slice_t;

typedef struct tl_open {
    uint32_t func, thread;
    uint64_t start;
} tl_open_t;

typedef struct tl_hart {
    uint64_t x;   /* the hart's counted cycles so far */
    unsigned n;   /* open levels */
    unsigned cut; /* levels from here on were opened anew (an enter) since the last interval */
    tl_open_t open[TL_LEVELS];
} tl_hart_t;

struct html_tl {
    prof_t *const *profs;
    void (*prev_interval)(void *, unsigned, uint32_t, const struct cs *, bool, const uint64_t *, uint32_t, uint64_t);
    void (*prev_enter)(void *, unsigned, uint32_t, const struct cs *);
    void *prev_ctx;
    tl_hart_t h[PERF_MAX_CORES];
    tl_slice_t *s;
    size_t n, cap;
    uint64_t dropped; /* slices beyond TL_MAX_SLICES or memory */
    unsigned deep;    /* deepest stack seen beyond TL_LEVELS */
};

html_tl_t *html_tl_new(prof_t *const *profs) {
    html_tl_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->profs = profs;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) t->h[k].cut = TL_LEVELS;
    return t;
}

void html_tl_free(html_tl_t *t) {
    if (!t) return;
    free(t->s);
    free(t);
}

static void tl_emit(html_tl_t *t, unsigned hart, unsigned level, const tl_open_t *o, uint64_t end) {
    if (end == o->start) return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        tl_slice_t *n = cap <= TL_MAX_SLICES ? realloc(t->s, cap * sizeof *n) : NULL;
        if (!n) {
            t->dropped++;
            return;
        }
        t->s = n;
        t->cap = cap;
    }
    t->s[t->n++] = (tl_slice_t){o->start, end, o->func, o->thread, (uint16_t)level, (uint8_t)hart};
}

/* the counter the timeline's x counts: cycles, else the lowest one known */
static int tl_counter(const html_tl_t *t, unsigned hart, uint32_t known) {
    const prof_t *p = t->profs[hart];
    int c = p ? prof_cycles_index(p) : -1;
    if (c >= 0) return c;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (p && prof_counter_name(p, x)) return (int)x;
    (void)known;
    return -1;
}

static void tl_interval(void *v, unsigned hart, uint32_t thread, const struct cs *cs, bool split, const uint64_t *delta,
                        uint32_t known, uint64_t hook) {
    html_tl_t *t = v;
    if (t->prev_interval) t->prev_interval(t->prev_ctx, hart, thread, cs, split, delta, known, hook);
    hart %= PERF_MAX_CORES;
    tl_hart_t *h = &t->h[hart];
    /* the levels wanted: the thread, then the frames (or "not attributed") */
    tl_open_t want[TL_LEVELS];
    unsigned n = 0;
    want[n++] = (tl_open_t){ST_THREAD, thread, 0};
    if (split) {
        want[n++] = (tl_open_t){ST_SPLIT, thread, 0};
    } else {
        size_t d = cs_depth(cs);
        if (d >= TL_LEVELS && d > t->deep) t->deep = (unsigned)d;
        for (size_t i = 0; i < d && n < TL_LEVELS; i++) want[n++] = (tl_open_t){cs_at(cs, i)->func, thread, 0};
    }
    unsigned k = 0; /* the levels kept */
    while (k < n && k < h->n && k < h->cut && want[k].func == h->open[k].func && want[k].thread == h->open[k].thread) k++;
    for (unsigned i = h->n; i-- > k;) tl_emit(t, hart, i, &h->open[i], h->x);
    for (unsigned i = k; i < n; i++) {
        h->open[i] = want[i];
        h->open[i].start = h->x;
    }
    h->n = n;
    h->cut = TL_LEVELS;
    int c = tl_counter(t, hart, known);
    if (c >= 0 && (known >> c & 1)) h->x += delta[c];
}

static void tl_enter(void *v, unsigned hart, uint32_t thread, const struct cs *cs) {
    html_tl_t *t = v;
    if (t->prev_enter) t->prev_enter(t->prev_ctx, hart, thread, cs);
    tl_hart_t *h = &t->h[hart % PERF_MAX_CORES];
    size_t d = cs_depth(cs); /* the new frame is level d (level 0 is the thread) */
    if (d && d < h->cut) h->cut = (unsigned)d;
}

void html_tl_attach(html_tl_t *t, prof_opts_t *o) {
    t->prev_interval = o->path_interval;
    t->prev_enter = o->path_enter;
    t->prev_ctx = o->path_ctx;
    o->path_interval = tl_interval;
    o->path_enter = tl_enter;
    o->path_ctx = t;
}

/* the open slices end at the hart's last interval */
static void tl_close(html_tl_t *t) {
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        tl_hart_t *h = &t->h[k];
        for (unsigned i = h->n; i-- > 0;) tl_emit(t, k, i, &h->open[i], h->x);
        h->n = 0;
    }
}

/* ---- names and colours ------------------------------------------------------------------ */
static void func_name(const prof_t *p, uint32_t f, char *buf, size_t len, const char **name) {
    *name = NULL;
    if (f == ST_OUTSIDE) *name = "[outside]";
    else if (f == ST_SPLIT)
        *name = "[not attributed]";
    else {
        const prof_func_t *x = prof_func_at(p, f);
        if (x && x->name) *name = x->name;
        else
            snprintf(buf, len, "0x%08" PRIx64, x ? x->addr : 0);
    }
    if (!*name) *name = buf;
}

static void thread_label(const prof_t *p, uint32_t thread, char *buf, size_t len) {
    uint64_t id;
    unsigned h;
    if (prof_thread_info(p, thread, &h, &id)) snprintf(buf, len, "thread 0x%08" PRIx64, id);
    else
        snprintf(buf, len, "thread before the first switch");
}

/* a warm colour from the name (the same function has the same colour in every picture) */
static void colour(FILE *o, uint32_t f, const char *name) {
    uint32_t h = 2166136261u;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++) h = (h ^ *s) * 16777619u;
    if (f == ST_THREAD) { /* threads: cool colours, one per thread */
        fprintf(o, "hsl(%u,45%%,%u%%)", 170 + h % 110, 72 + (h >> 8) % 12);
        return;
    }
    if (f >= ST_SPECIAL) {
        fputs(f == ST_SPLIT ? "#c8c8d8" : "#d8d8d8", o);
        return;
    }
    fprintf(o, "hsl(%u,%u%%,%u%%)", 8 + h % 42, 70 + (h >> 8) % 25, 55 + (h >> 16) % 15);
}

/* a frame: its rectangle, its label when it fits (cut at a character), its tooltip */
static void frame(FILE *o, double x, double y, double w, uint32_t f, const char *name, const char *tip) {
    fputs("<g class=\"fr\"><title>", o);
    html_esc(o, name);
    fputs(tip, o);
    fprintf(o, "</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"", x, y, w, ROW - 1);
    colour(o, f, name);
    fputs("\"/>", o);
    size_t fit = w > 24 ? (size_t)((w - 6) / 7) : 0, len = strlen(name);
    if (fit >= 3) {
        fprintf(o, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + ROW - 5);
        if (len <= fit) html_esc(o, name);
        else {
            size_t k = fit - 2;
            while (k && ((unsigned char)name[k] & 0xC0) == 0x80) k--;
            char *cut = strndup(name, k);
            html_esc(o, cut ? cut : "");
            free(cut);
            fputs("..", o);
        }
        fputs("</text>", o);
    }
    fputs("</g>\n", o);
}

/* ---- the flame graph: a hart's tree with the nodes of one function under one parent merged - */
typedef struct fg {
    const prof_t *p;
    st_t m;
    uint64_t *incl;
    uint32_t *first, *next; /* children lists, sorted by name */
    int col;
    unsigned maxd;
    bool threads;
} fg_t;

static const char *node_name(const fg_t *g, uint32_t n, char *buf, size_t len) {
    const st_node_t *x = &g->m.node[n];
    const char *name;
    if (x->func == ST_HART) snprintf(buf, len, "hart %" PRIu64, x->site);
    else if (x->func == ST_THREAD)
        thread_label(g->p, (uint32_t)x->site, buf, len);
    else {
        func_name(g->p, x->func, buf, len, &name);
        return name;
    }
    return buf;
}

static const fg_t *sort_g;
static int by_name(const void *a, const void *b) {
    char ba[64], bb[64];
    const char *x = node_name(sort_g, *(const uint32_t *)a, ba, sizeof ba), *y = node_name(sort_g, *(const uint32_t *)b, bb, sizeof bb);
    int c = strcmp(x, y);
    return c ? c : (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* 0, or -1 out of memory */
static int fg_build(fg_t *g, const st_t *t, const prof_t *p, int col, bool compensate) {
    memset(g, 0, sizeof *g);
    g->p = p;
    g->col = col;
    g->threads = prof_stats(p)->switch_events > 0;
    st_init(&g->m, 1);
    uint32_t *map = malloc((t->n + 1) * sizeof *map);
    if (!map) return -1;
    int cyc = prof_cycles_index(p);
    for (size_t i = 0; i < t->n; i++) {
        const st_node_t *x = &t->node[i];
        uint32_t par = x->parent == ST_NONE ? ST_NONE : map[x->parent];
        bool root = x->func == ST_HART || x->func == ST_THREAD;
        if (x->parent != ST_NONE && par == ST_NONE) {
            free(map);
            return -1;
        }
        map[i] = st_child(&g->m, par, x->func, root ? x->site : 0);
        if (map[i] == ST_NONE) {
            free(map);
            return -1;
        }
        uint64_t v = st_cost(t, (uint32_t)i, (unsigned)col);
        if (compensate && col == cyc) v -= st_cost(t, (uint32_t)i, RP_HOOK_COL);
        st_add(&g->m, map[i], 0, v);
        g->m.node[map[i]].calls += x->calls;
    }
    free(map);
    size_t n = g->m.n;
    g->incl = calloc(n + 1, sizeof *g->incl);
    g->first = malloc((n + 1) * sizeof *g->first);
    g->next = malloc((n + 1) * sizeof *g->next);
    uint32_t *kids = malloc((n + 1) * sizeof *kids), *cnt = calloc(n + 1, sizeof *cnt);
    if (!g->incl || !g->first || !g->next || !kids || !cnt) {
        free(kids);
        free(cnt);
        return -1;
    }
    for (size_t i = 0; i < n; i++) g->incl[i] = st_cost(&g->m, (uint32_t)i, 0);
    for (size_t i = n; i-- > 0;) /* a child comes after its parent */
        if (g->m.node[i].parent != ST_NONE) g->incl[g->m.node[i].parent] += g->incl[i];
    /* children sorted by name: grouped by parent (counting sort), then each group sorted */
    for (size_t i = 0; i < n; i++)
        if (g->m.node[i].parent != ST_NONE) cnt[g->m.node[i].parent]++;
    uint32_t *at = malloc((n + 1) * sizeof *at);
    if (!at) {
        free(kids);
        free(cnt);
        return -1;
    }
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) {
        at[i] = s;
        s += cnt[i];
    }
    for (size_t i = 0; i < n; i++)
        if (g->m.node[i].parent != ST_NONE) kids[at[g->m.node[i].parent]++] = (uint32_t)i;
    sort_g = g;
    for (size_t i = 0, b = 0; i < n; i++) {
        uint32_t *k = kids + b;
        qsort(k, cnt[i], sizeof *k, by_name);
        g->first[i] = cnt[i] ? k[0] : ST_NONE;
        for (uint32_t j = 0; j < cnt[i]; j++) g->next[k[j]] = j + 1 < cnt[i] ? k[j + 1] : ST_NONE;
        b += cnt[i];
    }
    free(at);
    free(kids);
    free(cnt);
    return 0;
}

static void fg_free(fg_t *g) {
    st_free(&g->m);
    free(g->incl);
    free(g->first);
    free(g->next);
}

/* the depth drawn (levels of frames at least 0.3 wide) */
static void fg_depth(fg_t *g, uint32_t n, unsigned d, double scale) {
    if (d > g->maxd) g->maxd = d;
    if (d + 1 >= MAX_ROWS) return;
    for (uint32_t c = g->first[n]; c != ST_NONE; c = g->next[c])
        if (g->incl[c] * scale >= 0.3) fg_depth(g, c, d + 1, scale);
}

static void fg_draw(const fg_t *g, FILE *o, uint32_t n, unsigned d, double x, double scale, uint64_t whole, const char *unit,
                    double height) {
    char buf[96], tip[200];
    const st_node_t *nd = &g->m.node[n];
    bool skip = nd->func == ST_THREAD && !g->threads; /* one thread: no thread frame */
    double w = (double)g->incl[n] * scale;
    if (!skip) {
        const char *name = node_name(g, n, buf, sizeof buf);
        int k = snprintf(tip, sizeof tip, "\n%" PRIu64 " %s (%.2f %%)", g->incl[n], unit, whole ? 100.0 * (double)g->incl[n] / (double)whole : 0.0);
        if (nd->func < ST_SPECIAL && k > 0 && (size_t)k < sizeof tip)
            snprintf(tip + k, sizeof tip - (size_t)k, ", self %" PRIu64 ", calls %" PRIu64, st_cost(&g->m, n, 0), nd->calls);
        frame(o, x, height - (double)(d + 1) * ROW, w, nd->func, name, tip);
    } else if (d) {
        d--;
    }
    if (d + 1 >= MAX_ROWS) return;
    for (uint32_t c = g->first[n]; c != ST_NONE; c = g->next[c]) {
        if (g->incl[c] * scale >= 0.3) fg_draw(g, o, c, d + 1, x, scale, whole, unit, height);
        x += (double)g->incl[c] * scale;
    }
}

static int flame(FILE *o, const html_report_t *r, unsigned k) {
    const prof_t *p = r->profs[k];
    const st_t *t = rp_tree(r->paths, k);
    int col = prof_cycles_index(p);
    for (unsigned x = 0; col < 0 && x < PERF_MAX_COUNTERS; x++)
        if (prof_counter_name(p, x)) col = (int)x;
    if (col < 0 || t->oom) {
        fprintf(o, "<p>hart %u: %s</p>\n", k, t->oom ? "out of memory for the call paths" : "no counter");
        return t->oom ? -1 : 0;
    }
    fg_t g;
    if (fg_build(&g, t, p, col, r->compensate)) {
        fg_free(&g);
        return -1;
    }
    uint32_t root = ST_NONE;
    for (uint32_t i = 0; i < g.m.n; i++)
        if (g.m.node[i].func == ST_HART) root = i;
    const char *unit = prof_counter_name(p, (unsigned)col);
    if (root == ST_NONE || !g.incl[root]) {
        fprintf(o, "<p>hart %u: nothing counted</p>\n", k);
        fg_free(&g);
        return 0;
    }
    double scale = (double)W / (double)g.incl[root];
    fg_depth(&g, root, 0, scale);
    unsigned rows = g.maxd + 1 - (g.threads ? 0 : 1);
    double height = (double)(rows + 1) * ROW;
    fprintf(o, "<h3>hart %u</h3>\n<svg class=\"flame\" data-hart=\"%u\" viewBox=\"0 0 %d %.0f\" width=\"100%%\" role=\"img\">\n", k, k, W, height);
    fg_draw(&g, o, root, 0, 0, scale, g.incl[root], unit, height);
    fputs("</svg>\n", o);
    fprintf(o, "<p class=\"note\">Width: %s%s (the self cost of every frame and of the frames above it, summed over the "
               "trace). Bottom: the hart%s; above it the functions it called, the callers below their callees, each "
               "level sorted by name. Hover a frame for its figures; click one to zoom to it, double-click to zoom out.",
            r->compensate && col == prof_cycles_index(p) ? "compensated " : "", unit, g.threads ? ", then its threads" : "");
    if (g.maxd + 1 >= MAX_ROWS) fprintf(o, " Stacks deeper than %d frames are cut.", MAX_ROWS - 1);
    fputs("</p>\n", o);
    fg_free(&g);
    return 0;
}

/* ---- the timeline -------------------------------------------------------------------------- */
static void timeline(FILE *o, const html_report_t *r, unsigned k) {
    html_tl_t *t = r->tl;
    const prof_t *p = r->profs[k];
    uint64_t end = t->h[k].x;
    bool threads = prof_stats(p)->switch_events > 0;
    unsigned maxl = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->s[i].hart == k && t->s[i].level > maxl) maxl = t->s[i].level;
    if (!end) {
        fprintf(o, "<p>hart %u: nothing counted</p>\n", k);
        return;
    }
    if (maxl >= MAX_ROWS) maxl = MAX_ROWS - 1;
    unsigned rows = maxl + (threads ? 1 : 0);
    double scale = (double)W / (double)end, height = (double)(rows + 1) * ROW + 14;
    int c = tl_counter(t, k, 0);
    const char *unit = c >= 0 ? prof_counter_name(p, (unsigned)c) : "";
    fprintf(o, "<h3>hart %u</h3>\n<svg class=\"timeline\" data-hart=\"%u\" viewBox=\"0 0 %d %.0f\" width=\"100%%\" role=\"img\">\n", k, k, W, height);
    uint64_t hidden = 0, nk = 0;
    char buf[64], tip[160];
    for (size_t i = 0; i < t->n; i++) nk += t->s[i].hart == k;
    double minw = nk <= 30000 ? 0 : 0.3; /* all frames when there are few: zooming shows them */
    for (size_t i = 0; i < t->n; i++) {
        const tl_slice_t *s = &t->s[i];
        if (s->hart != k || s->level > maxl || (!threads && !s->level)) continue;
        double w = (double)(s->end - s->start) * scale;
        if (w <= 0 || w < minw) {
            hidden++;
            continue;
        }
        const char *name = buf;
        if (s->func == ST_THREAD) thread_label(p, s->thread, buf, sizeof buf);
        else
            func_name(p, s->func, buf, sizeof buf, &name);
        snprintf(tip, sizeof tip, "\n%s %" PRIu64 " to %" PRIu64 " (%" PRIu64 ")", unit, s->start, s->end, s->end - s->start);
        frame(o, (double)s->start * scale, (double)(s->level - (threads ? 0 : 1)) * ROW, w, s->func, name, tip);
    }
    /* an axis: 0, the middle, the end */
    double y = (double)(rows + 1) * ROW - 4;
    fprintf(o, "<text class=\"ax\" x=\"2\" y=\"%.0f\">0</text><text class=\"ax\" x=\"%d\" y=\"%.0f\" text-anchor=\"middle\">%" PRIu64 "</text><text class=\"ax\" x=\"%d\" y=\"%.0f\" text-anchor=\"end\">%" PRIu64 " %s</text>\n",
            y + 12, W / 2, y + 12, end / 2, W - 2, y + 12, end, unit);
    fputs("</svg>\n", o);
    fprintf(o, "<p class=\"note\">Left to right: the %s counted from the hart's first record (the sum of the records' %s "
               "deltas; the perf hooks' own cycles included); top to bottom: %sthe call stack from the outermost frame. "
               "[not attributed]: an interval the records cannot split (a longjmp, a thread switch).",
            unit, unit, threads ? "the running thread, then " : "");
    if (hidden) fprintf(o, " %" PRIu64 " frame(s) narrower than 0.3 of the 1200 units are not drawn.", hidden);
    fputs(" Click a frame to zoom to it, double-click to zoom out.", o);
    if (t->dropped) fprintf(o, " The timeline is cut: %" PRIu64 " frame(s) beyond %d were not kept.", t->dropped, TL_MAX_SLICES);
    fputs("</p>\n", o);
}

/* ---- the flat profile ------------------------------------------------------------------- */
static const prof_t *sort_p;
static int sort_x;
static bool sort_comp;
static uint64_t fself(const prof_t *p, const prof_func_t *f, unsigned x, bool comp) {
    return f->self[x] - (comp && (int)x == prof_cycles_index(p) ? f->hook_self : 0);
}
static uint64_t ftotal(const prof_t *p, const prof_func_t *f, unsigned x, bool comp) {
    return f->total[x] - (comp && (int)x == prof_cycles_index(p) ? f->hook_total : 0);
}
static int by_self(const void *a, const void *b) {
    const prof_func_t *x = prof_func_at(sort_p, *(const uint32_t *)a), *y = prof_func_at(sort_p, *(const uint32_t *)b);
    uint64_t u = sort_x >= 0 ? fself(sort_p, x, (unsigned)sort_x, sort_comp) : 0, v = sort_x >= 0 ? fself(sort_p, y, (unsigned)sort_x, sort_comp) : 0;
    if (u != v) return u < v ? 1 : -1;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

static int primary(const prof_t *p) {
    int c = prof_cycles_index(p);
    for (unsigned x = 0; c < 0 && x < PERF_MAX_COUNTERS; x++)
        if (prof_counter_name(p, x)) c = (int)x;
    return c;
}

static uint64_t trace_total(const prof_t *p, unsigned x, bool comp) {
    return prof_trace_total(p, x) - (comp && (int)x == prof_cycles_index(p) ? prof_stats(p)->hook_counted : 0);
}

static int flat(FILE *o, const html_report_t *r, unsigned k) {
    const prof_t *p = r->profs[k];
    size_t n = prof_nfuncs(p);
    uint32_t *ix = malloc((n + 1) * sizeof *ix);
    if (!ix) return -1;
    for (size_t i = 0; i < n; i++) ix[i] = (uint32_t)i;
    sort_p = p;
    sort_x = primary(p);
    sort_comp = r->compensate;
    qsort(ix, n, sizeof *ix, by_self);
    int x0 = primary(p);
    bool hooks = prof_stats(p)->hooks;
    fprintf(o, "<h3>hart %u</h3>\n<table class=\"flat sortable\" data-hart=\"%u\">\n<thead><tr><th data-col=\"percent\" title=\"self %s as a share of the trace's\">%%</th><th data-col=\"calls\">calls</th>", k, k,
            x0 >= 0 ? prof_counter_name(p, (unsigned)x0) : "-");
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        const char *c = prof_counter_name(p, x);
        if (!c) continue;
        fputs("<th data-col=\"", o);
        html_esc(o, c);
        fputs("_self\">self ", o);
        html_esc(o, c);
        fputs("</th><th data-col=\"", o);
        html_esc(o, c);
        fputs("_total\">total ", o);
        html_esc(o, c);
        fputs("</th>", o);
    }
    if (hooks) fputs("<th data-col=\"hook_cycles\">hook cycles</th>", o);
    fputs("<th data-col=\"function\" data-type=\"text\">function</th><th data-col=\"address\" data-type=\"text\">address</th></tr></thead>\n<tbody>\n", o);
    uint64_t whole = x0 >= 0 ? trace_total(p, (unsigned)x0, r->compensate) : 0;
    for (size_t i = 0; i < n; i++) {
        const prof_func_t *f = prof_func_at(p, ix[i]);
        fputs("<tr>", o);
        if (whole) {
            double v = 100.0 * (double)fself(p, f, (unsigned)x0, r->compensate) / (double)whole;
            fprintf(o, "<td>%.2f</td>", v);
        } else {
            fputs("<td>-</td>", o);
        }
        fprintf(o, "<td>%" PRIu64 "</td>", f->calls);
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
            if (prof_counter_name(p, x))
                fprintf(o, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td>", fself(p, f, x, r->compensate), ftotal(p, f, x, r->compensate));
        if (hooks) fprintf(o, "<td>%" PRIu64 "</td>", f->hook_self);
        fputs("<td class=\"fn\">", o);
        if (f->name) html_esc(o, f->name);
        else
            fprintf(o, "0x%08" PRIx64, f->addr);
        if (f->still_active) fputs(" <span class=\"tag\">(still active)</span>", o);
        fprintf(o, "</td><td class=\"ad\">0x%08" PRIx64 "</td></tr>\n", f->addr);
    }
    free(ix);
    fputs("</tbody>\n</table>\n", o);
    if (x0 >= 0) {
        const char *c = prof_counter_name(p, (unsigned)x0);
        fprintf(o, "<p class=\"note\">%s over the trace: %" PRIu64 ", of which outside any traced function: %" PRIu64, c, whole,
                prof_outside(p, (unsigned)x0) - (r->compensate && x0 == prof_cycles_index(p) ? prof_stats(p)->hook_outside : 0));
        uint64_t un = prof_unattributed(p, (unsigned)x0) - (r->compensate && x0 == prof_cycles_index(p) ? prof_stats(p)->hook_unattributed : 0);
        if (un) fprintf(o, ", not attributed: %" PRIu64 " (a longjmp or a thread switch: see the text report's notes)", un);
        fprintf(o, ". Click a column's heading to sort by it (again: the other way).%s</p>\n",
                r->compensate ? " Cycles compensated (--compensate): the perf hooks' cycles are subtracted." : "");
    }
    return 0;
}

/* ---- the instrumentation cost ----------------------------------------------------------- */
static void cost(FILE *o, const html_report_t *r, unsigned k) {
    static const char *const what[4] = {"enter (__cyg_profile_func_enter)", "exit (__cyg_profile_func_exit)",
                                        "manual (perfWriteCntrs)", "ISR (perf_timer_tick)"};
    const prof_t *p = r->profs[k];
    const prof_stats_t *s = prof_stats(p);
    fprintf(o, "<h3>hart %u</h3>\n", k);
    if (!s->hooks) {
        fputs("<p>Not measured: it needs the program's ELF and the run folder's flow.csv and counters.csv beside the trace.</p>\n", o);
        return;
    }
    fputs("<table class=\"cost\"><thead><tr><th>records</th><th>measured</th><th>hook cycles</th><th>mean per record</th></tr></thead><tbody>\n", o);
    uint64_t n = 0, cyc = 0;
    for (unsigned t = 0; t < 4; t++) {
        n += s->hook_n[t];
        cyc += s->hook_cycles[t];
        if (s->hook_n[t])
            fprintf(o, "<tr><td>%s</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%.1f</td></tr>\n", what[t], s->hook_n[t], s->hook_cycles[t],
                    (double)s->hook_cycles[t] / (double)s->hook_n[t]);
    }
    fprintf(o, "<tr class=\"sum\"><td>all</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%.1f</td></tr>\n</tbody></table>\n", n, cyc,
            n ? (double)cyc / (double)n : 0.0);
    int x = prof_cycles_index(p);
    if (x >= 0) {
        uint64_t tot = prof_trace_total(p, (unsigned)x);
        double share = tot ? 100.0 * (double)s->hook_counted / (double)tot : 0.0;
        fprintf(o, "<div class=\"bar\" title=\"%.2f %% hook cycles\"><div style=\"width:%.2f%%\"></div></div>\n", share, share);
        fprintf(o, "<p>%" PRIu64 " of these cycles lie between the first and the last record: <b>%.2f %%</b> of the %" PRIu64 " cycles of the profile (measured from the run's flow.csv, not estimated); %s.</p>\n",
                s->hook_counted, share, tot,
                r->compensate ? "they are subtracted from every cycles figure of this page (--compensate)" :
                                "report --compensate subtracts them from every cycles figure");
    }
    if (s->hook_unmeasured) fprintf(o, "<p>%" PRIu64 " record(s) not measured: their hook cycles count as the function's own.</p>\n", s->hook_unmeasured);
}

/* ---- the summary and the overhead --------------------------------------------------------- */
static bool stat_u64(const char *dir, const char *key, uint64_t *v) {
    char buf[64], *e;
    if (!dir || !ts_run_stat(dir, key, buf, sizeof buf)) return false;
    *v = strtoull(buf, &e, 10);
    return e != buf && !*e;
}

static void kv(FILE *o, const char *k, const char *v) {
    fprintf(o, "<tr><th>%s</th><td>", k);
    html_esc(o, v);
    fputs("</td></tr>\n", o);
}

static void summary(FILE *o, const html_report_t *r) {
    uint64_t cyc, ins;
    char buf[256];
    fputs("<table class=\"kv\">\n", o);
    kv(o, "trace", r->trace);
    kv(o, "program", r->elf ? r->elf : "none: functions by address");
    if (r->run_dir && stat_u64(r->run_dir, "cycles", &cyc)) {
        snprintf(buf, sizeof buf, "%" PRIu64, cyc);
        kv(o, "cycles (the run)", buf);
    } else {
        kv(o, "cycles (the run)", "unknown (no run folder with stats.txt)");
    }
    if (r->run_dir && stat_u64(r->run_dir, "instret", &ins)) {
        snprintf(buf, sizeof buf, "%" PRIu64, ins);
        kv(o, "instructions (the run)", buf);
    }
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        if (!r->profs[k]) continue;
        const prof_stats_t *s = prof_stats(r->profs[k]);
        int x = primary(r->profs[k]);
        int w = snprintf(buf, sizeof buf, "%" PRIu64 " (%" PRIu64 " enter, %" PRIu64 " exit, %" PRIu64 " manual, %" PRIu64 " ISR)", s->records, s->enters,
                         s->exits, s->manual, s->isr);
        if (s->truncated && w > 0 && (size_t)w < sizeof buf) snprintf(buf + w, sizeof buf - (size_t)w, "; %" PRIu64 " truncated", s->truncated);
        char key[64];
        snprintf(key, sizeof key, "perf records, hart %u", k);
        kv(o, key, buf);
        if (x >= 0) {
            snprintf(key, sizeof key, "profiled %s, hart %u", prof_counter_name(r->profs[k], (unsigned)x), k);
            snprintf(buf, sizeof buf, "%" PRIu64 " (from the first record to the last%s)", trace_total(r->profs[k], (unsigned)x, r->compensate),
                     r->compensate && x == prof_cycles_index(r->profs[k]) ? ", compensated" : "");
            kv(o, key, buf);
        }
        if (s->gaps) {
            snprintf(key, sizeof key, "lost perf data, hart %u", k);
            snprintf(buf, sizeof buf, "%" PRIu64 " gap(s) in the records: the call stack was reset there", s->gaps);
            kv(o, key, buf);
        }
    }
    /* losses: the run folder's ground truth (run_losses.h), the same lines as the text report */
    fputs("<tr><th>losses</th><td>", o);
    ts_losses_t l;
    char err[256];
    char *text = NULL;
    size_t len = 0;
    if (ts_losses_read_for_trace(r->trace, r->perf_channel, &l, err, sizeof err)) {
        fputs("unknown: ", o);
        html_esc(o, err);
    } else if (!l.have_itc) {
        fputs("unknown (no run folder with itc.csv beside the trace)", o);
    } else {
        l.by_status[3] = 0; /* TS_ITC_ENCODER_OFF: never meant for the trace */
        FILE *m = open_memstream(&text, &len);
        int lines = m ? ts_losses_print(m, "", &l) : -1;
        if (m) fclose(m);
        if (lines == 0) fputs("<span class=\"ok\">none</span>: every ITC store the firmware made is in the trace", o);
        else if (lines > 0 && text) {
            fputs("<ul class=\"loss\">", o);
            for (char *s = text, *e; *s; s = e + (*e != 0)) {
                e = strchr(s, '\n');
                if (!e) e = s + strlen(s);
                fputs("<li>", o);
                char c = *e;
                *e = 0;
                html_esc(o, s);
                *e = c;
                fputs("</li>", o);
            }
            fputs("</ul>", o);
        } else {
            fputs("unknown (out of memory)", o);
        }
        free(text);
    }
    fputs("</td></tr>\n", o);
    for (const char *const *n = r->notes; n && *n; n++) kv(o, "note", *n);
    kv(o, "check", "not checked: tracesim check writes no verdict into the run folder (run tracesim check on it for one)");
    fputs("</table>\n", o);
}

/* the overhead: this run against a baseline run (the program without the perf instrumentation) */
static void overhead(FILE *o, const html_report_t *r, uint64_t bc, uint64_t bi, uint64_t records) {
    uint64_t c, i = 0;
    if (!r->baseline) {
        fputs("<p>No baseline: give <code>--baseline RUN_DIR</code>, a run of the same program built without the perf "
              "instrumentation, to see what the instrumentation costs the whole run (<code>tracesim overhead --baseline</code> "
              "measures it for several builds).</p>\n",
              o);
        return;
    }
    if (!stat_u64(r->run_dir, "cycles", &c)) {
        fputs("<p>This run's cycles are unknown (no run folder with stats.txt): no overhead.</p>\n", o);
        return;
    }
    bool ins = stat_u64(r->run_dir, "instret", &i) && bi;
    uint64_t top = c > bc ? c : bc;
    if (ins && i > top) top = i;
    if (ins && bi > top) top = bi;
    fputs("<p>Baseline: ", o);
    html_esc(o, r->baseline);
    fputs("</p>\n", o);
    struct {
        const char *what;
        uint64_t v;
        const char *cls;
    } bars[4] = {{"cycles, baseline", bc, "b"}, {"cycles, this run", c, "r"}, {"instructions, baseline", bi, "b"}, {"instructions, this run", i, "r"}};
    unsigned nb = ins ? 4 : 2;
    double h = nb * 26 + 10;
    fprintf(o, "<svg class=\"ovh\" viewBox=\"0 0 %d %.0f\" width=\"100%%\" role=\"img\">\n", W, h);
    for (unsigned b = 0; b < nb; b++) {
        double w = top ? 900.0 * (double)bars[b].v / (double)top : 0;
        fprintf(o, "<text x=\"170\" y=\"%u\" text-anchor=\"end\">%s</text><rect class=\"%s\" x=\"180\" y=\"%u\" width=\"%.1f\" height=\"20\"/>"
                   "<text x=\"%.1f\" y=\"%u\">%" PRIu64 "</text>\n",
                b * 26 + 19, bars[b].what, bars[b].cls, b * 26 + 4, w, 186 + w, b * 26 + 19, bars[b].v);
    }
    fputs("</svg>\n", o);
    double pc = bc ? 100.0 * ((double)c - (double)bc) / (double)bc : 0;
    fprintf(o, "<p>Extra cycles: <b>%" PRId64 "</b> (<b>%.2f %%</b> of the baseline's %" PRIu64 ")", (int64_t)(c - bc), pc, bc);
    if (records) fprintf(o, "; per perf record in the trace (%" PRIu64 "): %.1f", records, ((double)c - (double)bc) / (double)records);
    if (ins) fprintf(o, "; extra instructions: %" PRId64, (int64_t)(i - bi));
    fputs(".</p>\n", o);
}

/* one row of irqs_write_csv's table split at its commas (its fields hold none): n fields */
static size_t csv_split(char *line, char **f, size_t max) {
    size_t n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = 0;
        p = c + 1;
    }
    return n;
}

/* min / mean / max of a span as irqs_write_csv gives them (empty: no value) */
static void span_cells(FILE *o, char **f) {
    for (int k = 0; k < 3; k++) {
        fputs("<td>", o);
        html_esc(o, f[k]);
        fputs("</td>", o);
    }
}

/* the run folder's ground truth (traps.csv, stm.csv: irq_stats.h) as two tables, the rows of
 * `tracesim report -f irq-csv` whose source is truth */
void html_section_irq_threads(FILE *o, const html_report_t *r) {
    fputs("<section id=\"irq\"><h2>Interrupts and threads</h2>\n", o);
    if (!r->run_dir) {
        fputs("<p class=\"note\">A trace file alone: the statistics come from a run folder's ground truth "
              "(traps.csv, stm.csv); give the run folder.</p></section>\n",
              o);
        return;
    }
    char err[4600] = "out of memory";
    irqs_t *s = irqs_new();
    int lr = s ? irqs_load_truth(s, r->run_dir, -1, err, sizeof err) : -1;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = lr == 0 ? open_memstream(&buf, &len) : NULL;
    if (m) {
        irqs_write_csv(NULL, irqs_result(s), m);
        fclose(m);
    }
    irqs_free(s);
    if (lr == 1) {
        fputs("<p class=\"note\">The run folder has no traps.csv (a run of an older version): run the firmware again.</p></section>\n", o);
        return;
    }
    if (lr < 0 || !buf) {
        fputs("<p class=\"note\">Not available: ", o);
        html_esc(o, lr < 0 ? err : "out of memory");
        fputs("</p></section>\n", o);
        free(buf);
        return;
    }
    fputs("<p class=\"note\">From the simulator's ground truth (the run folder's traps.csv and stm.csv), in cycles: "
          "per trap cause, the visits, those taken while another handler ran (nested) and the deepest nesting, the "
          "time from the trap to its mret/sret (nested handlers included), the latency from the interrupt's pending "
          "to its handler's first instruction; per thread (its tp), the times it was switched in, the time it ran "
          "each time and how often an interrupt's handler switched it out. <code>tracesim report -f irq</code> "
          "also gives what the trace itself shows.</p>\n",
          o);
    for (int pass = 0; pass < 2; pass++) {
        bool any = false;
        for (char *line = buf, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next) *next++ = 0;
            char copy[1024], *f[19];
            snprintf(copy, sizeof copy, "%s", line);
            if (csv_split(copy, f, 19) != 19 || strcmp(f[0], "truth") || strcmp(f[1], pass ? "thread" : "cause")) {
                if (next) next[-1] = '\n';
                continue;
            }
            if (!any) {
                fputs(pass ? "<h3>Threads</h3><table><tr><th>hart</th><th data-type=text>thread (tp)</th><th>visits</th>"
                             "<th>preemptions</th><th>still running</th><th>time min</th><th>mean</th><th>max</th></tr>\n" :
                             "<h3>Trap causes</h3><table><tr><th>hart</th><th data-type=text>cause</th><th>visits</th>"
                             "<th>nested</th><th>max depth</th><th>never returned</th><th>time min</th><th>mean</th>"
                             "<th>max</th><th>latency min</th><th>mean</th><th>max</th></tr>\n",
                      o);
                any = true;
            }
            fputs("<tr class=\"irq\"><td>", o);
            html_esc(o, f[2]);
            fputs("</td><td class=\"fn\">", o);
            if (pass) html_esc(o, f[3]);
            else {
                html_esc(o, f[4]);
                fputs(" (", o);
                html_esc(o, f[3]);
                fputs(")", o);
            }
            fputs("</td>", o);
            if (pass) {
                const char *cells[] = {f[5], f[18], f[8]};
                for (int k = 0; k < 3; k++) {
                    fputs("<td>", o);
                    html_esc(o, cells[k]);
                    fputs("</td>", o);
                }
                span_cells(o, f + 9);
            } else {
                for (int k = 5; k < 9; k++) {
                    fputs("<td>", o);
                    html_esc(o, f[k]);
                    fputs("</td>", o);
                }
                span_cells(o, f + 9);
                span_cells(o, f + 12);
            }
            fputs("</tr>\n", o);
            if (next) next[-1] = '\n';
        }
        if (any) fputs("</table>\n", o);
        else
            fputs(pass ? "<p class=\"note\">No thread switch (THREAD_SWITCH) in the run.</p>\n" : "<p class=\"note\">No trap in the run.</p>\n", o);
    }
    fputs("</section>\n", o);
    free(buf);
}

/* ---- the page --------------------------------------------------------------------------- */
static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0 24px 40px;color:#222;max-width:1400px}"
    "h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:2px;margin-top:28px}"
    "h3{font-size:15px;margin:14px 0 4px}nav a{margin-right:14px}.note{color:#555;font-size:12.5px}"
    "table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:right}"
    "table.kv th{text-align:left;color:#444;font-weight:600;vertical-align:top}table.kv td{text-align:left}"
    "td.fn,td.ad,th[data-type=text]{text-align:left}td.fn{font-family:monospace}td.ad{font-family:monospace;color:#666}"
    "table.sortable th{cursor:pointer;background:#f4f4f4;user-select:none}table.sortable th:hover{background:#e6e6e6}"
    "th.asc::after{content:' \\25B2'}th.desc::after{content:' \\25BC'}.tag{color:#a60;font-family:system-ui}"
    "table.cost td:first-child{text-align:left}tr.sum td{font-weight:600}"
    "ul.loss{margin:0;padding-left:18px}.ok{color:#070;font-weight:600}"
    ".bar{width:400px;height:12px;background:#eee;border:1px solid #bbb}.bar div{height:100%;background:#e07020}"
    "svg{display:block;border:1px solid #ddd;background:#fafafa;margin:4px 0}svg text{font:11px monospace;fill:#000;pointer-events:none}"
    "svg text.ax{fill:#555}g.fr rect{stroke:#fff;stroke-width:.5}g.fr:hover rect{stroke:#000;stroke-width:1}"
    "svg.ovh rect.b{fill:#8aa}svg.ovh rect.r{fill:#e07020}svg.ovh text{font:12px system-ui}";

/* sorting: a click on a heading sorts the rows by that column (numbers as numbers), again the
 * other way; window.tsSelfTest() clicks through the headings and checks the order (the tests) */
static const char js[] =
    "function tsSort(th){var t=th.closest('table'),b=t.tBodies[0],i=th.cellIndex,txt=th.dataset.type==='text',"
    "d=th.classList.contains('desc')?1:-1;if(txt&&!th.classList.contains('asc')&&!th.classList.contains('desc'))d=1;"
    "for(var h of t.tHead.rows[0].cells)h.classList.remove('asc','desc');th.classList.add(d>0?'asc':'desc');"
    "var rows=Array.from(b.rows);rows.sort(function(x,y){var a=x.cells[i].textContent,c=y.cells[i].textContent;"
    "if(!txt){a=parseFloat(a);c=parseFloat(c);if(isNaN(a))a=-1;if(isNaN(c))c=-1;return d*(a-c)}"
    "return d*(a<c?-1:a>c?1:0)});for(var r of rows)b.appendChild(r)}\n"
    "document.querySelectorAll('table.sortable th').forEach(function(th){th.addEventListener('click',function(){tsSort(th)})});\n"
    "window.tsSelfTest=function(){var bad=[];document.querySelectorAll('table.sortable').forEach(function(t){"
    "Array.from(t.tHead.rows[0].cells).forEach(function(th){for(var k=0;k<2;k++){th.click();"
    "var d=th.classList.contains('asc')?1:-1,txt=th.dataset.type==='text',v=Array.from(t.tBodies[0].rows).map(function(r){"
    "var s=r.cells[th.cellIndex].textContent;return txt?s:parseFloat(s)});"
    "for(var j=1;j<v.length;j++)if(d*(v[j]<v[j-1]?-1:v[j]>v[j-1]?1:0)<0){bad.push(th.textContent);break}}})});"
    "return bad.length?'sort FAILED: '+bad.join(', '):'sort ok'};\n"
    "function tsZoom(svg,a,b){var s=1200/(b-a);svg.querySelectorAll('g.fr').forEach(function(g){var r=g.querySelector('rect'),"
    "t=g.querySelector('text');if(!g.dataset.x){g.dataset.x=r.getAttribute('x');g.dataset.w=r.getAttribute('width');"
    "g.dataset.n=g.querySelector('title').textContent.split('\\n')[0]}var x=(g.dataset.x-a)*s,w=g.dataset.w*s;"
    "if(x+w<=0||x>=1200){g.style.display='none';return}g.style.display='';if(x<0){w+=x;x=0}if(x+w>1200)w=1200-x;"
    "r.setAttribute('x',x.toFixed(2));r.setAttribute('width',w.toFixed(2));var n=g.dataset.n,fit=w>24?Math.floor((w-6)/7):0;"
    "if(fit<3){if(t)t.remove();return}if(!t){t=document.createElementNS('http://www.w3.org/2000/svg','text');"
    "t.setAttribute('y',+r.getAttribute('y')+12);g.appendChild(t)}t.setAttribute('x',(x+3).toFixed(2));"
    "t.textContent=n.length<=fit?n:n.slice(0,fit-2)+'..'})}\n"
    "document.querySelectorAll('svg.flame,svg.timeline').forEach(function(svg){svg.addEventListener('click',function(e){"
    "var g=e.target.closest('g.fr');if(!g)return;var r=g.querySelector('rect'),a=+(g.dataset.x||r.getAttribute('x')),"
    "w=+(g.dataset.w||r.getAttribute('width'));if(w>0)tsZoom(svg,a,a+w)});svg.addEventListener('dblclick',function(){tsZoom(svg,0,1200)})});\n"
    "if(location.hash==='#selftest'){var p=document.createElement('pre');p.id='selftest';p.textContent=tsSelfTest()+"
    "'; errors: '+window.tsErrors.length;document.body.appendChild(p)}\n";

int html_write(const html_report_t *r, FILE *o, char *err, size_t errlen) {
    uint64_t bc = 0, bi = 0;
    if (r->baseline) {
        if (!stat_u64(r->baseline, "cycles", &bc)) {
            snprintf(err, errlen, "--baseline %s: not a run folder with its cycles (stats.txt)", r->baseline);
            return -1;
        }
        if (!stat_u64(r->baseline, "instret", &bi)) bi = 0;
    }
    if (r->tl) tl_close(r->tl);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>tracesim report: ", o);
    html_esc(o, r->input);
    fputs("</title>\n<script>window.tsErrors=[];window.addEventListener('error',function(e){window.tsErrors.push(String(e.message))});</script>\n", o);
    fprintf(o, "<style>%s</style>\n</head><body>\n<h1>tracesim report</h1>\n<p class=\"src\">", css);
    html_esc(o, r->input);
    fputs("</p>\n<nav><a href=\"#summary\">Summary</a><a href=\"#flame\">Flame graph</a><a href=\"#timeline\">Timeline</a>"
          "<a href=\"#flat\">Flat profile</a><a href=\"#cost\">Instrumentation cost</a><a href=\"#overhead\">Overhead</a>"
          "<a href=\"#irq\">Interrupts and threads</a></nav>\n",
          o);
    fputs("<section id=\"summary\"><h2>Summary</h2>\n", o);
    summary(o, r);
    fputs("</section>\n<section id=\"flame\"><h2>Flame graph</h2>\n", o);
    int rc = 0;
    uint64_t records = 0;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++)
        if (r->profs[k]) {
            records += prof_stats(r->profs[k])->records;
            if (flame(o, r, k)) rc = -2;
        }
    fputs("</section>\n<section id=\"timeline\"><h2>Timeline</h2>\n", o);
    for (unsigned k = 0; k < PERF_MAX_CORES; k++)
        if (r->profs[k] && r->tl) timeline(o, r, k);
    fputs("</section>\n<section id=\"flat\"><h2>Flat profile</h2>\n<p class=\"note\">One row per function. calls: enter "
          "records; self: the counter's change while the function was on top of its hart's call stack; total: from enter "
          "to exit, callees included (a recursive function's outermost activation only); %: self as a share of the "
          "trace's.</p>\n",
          o);
    for (unsigned k = 0; k < PERF_MAX_CORES; k++)
        if (r->profs[k] && flat(o, r, k)) rc = -2;
    fputs("</section>\n<section id=\"cost\"><h2>Instrumentation cost</h2>\n<p class=\"note\">Cycles from the call of the perf "
          "hook that wrote a record to its return (the run's flow.csv), per record type.</p>\n",
          o);
    for (unsigned k = 0; k < PERF_MAX_CORES; k++)
        if (r->profs[k]) cost(o, r, k);
    fputs("</section>\n<section id=\"overhead\"><h2>Overhead</h2>\n", o);
    overhead(o, r, bc, bi, records);
    fputs("</section>\n", o);
    html_section_irq_threads(o, r);
    fprintf(o, "<p class=\"note\">Made by tracesim report -f html: one file, nothing fetched from the network.</p>\n<script>\n%s</script>\n</body></html>\n", js);
    if (ferror(o)) rc = -2;
    return rc;
}
