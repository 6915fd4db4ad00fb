/* profile.c - gprof-like profile from perf records; see profile.h. */
#include "profile.h"
#include "ts_text.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- uint64 -> uint32 open-addressing map ---------------------------------------------- */
typedef struct idmap { uint64_t *key; uint32_t *val; size_t cap, n; } idmap_t;

static size_t slot_of(uint64_t k, size_t cap) {
    k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ull; k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static uint32_t idmap_get(const idmap_t *m, uint64_t key) {
    if (!m->cap) return PROF_NONE;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->val[i] == PROF_NONE) return PROF_NONE;
        if (m->key[i] == key) return m->val[i];
    }
}

/* key must be new; -1 when out of memory */
static int idmap_put(idmap_t *m, uint64_t key, uint32_t val) {
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        uint64_t *k = malloc(cap * sizeof *k);
        uint32_t *v = malloc(cap * sizeof *v);
        if (!k || !v) { free(k); free(v); return -1; }
        memset(v, 0xFF, cap * sizeof *v);
        for (size_t i = 0; i < m->cap; i++) {
            if (m->val[i] == PROF_NONE) continue;
            size_t j = slot_of(m->key[i], cap);
            while (v[j] != PROF_NONE) j = (j + 1) & (cap - 1);
            k[j] = m->key[i];
            v[j] = m->val[i];
        }
        free(m->key);
        free(m->val);
        m->key = k;
        m->val = v;
        m->cap = cap;
    }
    size_t i = slot_of(key, m->cap);
    while (m->val[i] != PROF_NONE) i = (i + 1) & (m->cap - 1);
    m->key[i] = key;
    m->val[i] = val;
    m->n++;
    return 0;
}

static void idmap_free(idmap_t *m) { free(m->key); free(m->val); }

/* room for n + 1 elements of size sz in *arr */
static bool reserve(void **arr, size_t *cap, size_t n, size_t sz) {
    if (n < *cap) return true;
    size_t nc = *cap ? 2 * *cap : 16;
    while (nc <= n) nc *= 2;
    void *a = realloc(*arr, nc * sz);
    if (!a) return false;
    *arr = a;
    *cap = nc;
    return true;
}

/* ---- state ------------------------------------------------------------------------------ */
typedef struct frame {
    uint32_t func, edge;
    uint64_t call_site;
    bool outer;                           /* no other activation of func below it */
    uint64_t cum[PERF_MAX_COUNTERS];      /* running totals at the enter */
    uint64_t hook_cum;                    /* running hook cycles at the enter */
} frame_t;

typedef struct pcore {
    uint64_t cum[PERF_MAX_COUNTERS];      /* running totals (sum of counted deltas) */
    bool based[PERF_MAX_COUNTERS];        /* the counter has a reference value since the header */
    bool have_manual;
    uint64_t manual_cum[PERF_MAX_COUNTERS], manual_hook_cum;
    frame_t *stack;
    size_t depth, cap;
    uint64_t hook_cum;                    /* running total of the hook cycles counted */
    uint64_t hook_post;                   /* the previous record's hook cycles after its read */
    bool hook_set;                        /* prof_hook gave the next record's cost */
    uint64_t hook_pre, hook_next_post;
} pcore_t;

typedef struct col { bool used; perf_counter_def_t def; char name[48]; } col_t;

struct prof {
    prof_opts_t o;
    prof_stats_t st;
    col_t col[PERF_MAX_COUNTERS];
    uint64_t trace_total[PERF_MAX_COUNTERS], outside[PERF_MAX_COUNTERS];
    pcore_t core[PERF_MAX_CORES];
    prof_func_t *func;
    uint32_t *active;                     /* [func * PERF_MAX_CORES + hart]: frames on the stack */
    size_t nfunc, capfunc, capactive;
    prof_edge_t *edge;
    size_t nedge, capedge;
    prof_site_t *site;
    size_t nsite, capsite;
    prof_isr_t *isr;
    size_t nisr, capisr;
    idmap_t fmap, emap, smap, imap;
    int cyc;                              /* counter index named cycles, or -1 */
    bool oom;
};

__attribute__((format(printf, 2, 3))) static void warn(prof_t *p, const char *fmt, ...) {
    if (!p->o.warn) return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    p->o.warn(p->o.warn_ctx, buf);
}

static const char *sym(const prof_t *p, uint64_t addr, uint64_t *start) {
    *start = addr;
    const char *n = p->o.sym ? p->o.sym(p->o.sym_ctx, addr, start) : NULL;
    if (!n) *start = addr;
    return n;
}

/* a function's name for text output */
static const char *fname(const prof_t *p, uint32_t f, char *buf, size_t len) {
    if (f == PROF_NONE) return "<spontaneous>";
    if (p->func[f].name) return ts_text_esc(p->func[f].name, buf, len);   /* no control character to a terminal */
    snprintf(buf, len, "0x%08" PRIx64, p->func[f].addr);
    return buf;
}

prof_t *prof_new(const prof_opts_t *o) {
    prof_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (o) p->o = *o;
    p->cyc = -1;
    return p;
}

/* ---- names of raw HPM events (rtl_model/regs/hpm_events.def) ---------------------------- */
typedef struct ev_name { int cls, bit; const char *name; } ev_name_t;
static const ev_name_t ev_names[] = {
#define TS_EVENT(id, sv, index, cls, bit, csv, desc) {cls, bit, csv},
#include "hpm_events.def"
#undef TS_EVENT
};

/* "load|store" for mhpmevent 0x600 (class 0, bits 9 and 10); false if a bit names no event */
static bool raw_event_name(uint64_t ed, char *buf, size_t len) {
    int cls = (int)(ed & 0xff);
    uint64_t mask = ed >> 8;
    size_t n = 0;
    buf[0] = 0;
    if (!mask || ed >> 40) return false;
    for (int b = 8; b < 40; b++) {
        if (!(ed >> b & 1)) continue;
        const char *nm = NULL;
        for (size_t i = 0; i < sizeof ev_names / sizeof ev_names[0]; i++)
            if (ev_names[i].cls == cls && ev_names[i].bit == b) nm = ev_names[i].name;
        if (!nm) return false;
        int w = snprintf(buf + n, len - n, "%s%s", n ? "|" : "", nm);
        if (w < 0 || (size_t)w >= len - n) return false;
        n += (size_t)w;
    }
    return true;
}

/* ---- --fields ----------------------------------------------------------------------------- */
static const char *const field_names[PF_NFIELDS] = {"percent", "calls", "self", "total", "self_mean", "total_mean",
                                                    "hook", "address", "function"};

int prof_parse_fields(prof_opts_t *o, const char *list, char *err, size_t errlen) {
    o->nfields = 0;
    const char *s = list;
    for (;;) {
        size_t n = strcspn(s, ",");
        unsigned k = 0;
        while (k < PF_NFIELDS && (strlen(field_names[k]) != n || strncmp(field_names[k], s, n))) k++;
        if (k == PF_NFIELDS) {
            snprintf(err, errlen, "unknown field '%.*s' for --fields (percent, calls, self, total, self_mean, "
                     "total_mean, hook, address, function)", (int)(n > 64 ? 64 : n), s);
            return -1;
        }
        if (o->nfields == PROF_MAX_FIELDS) { snprintf(err, errlen, "too many fields for --fields (%d at most)", PROF_MAX_FIELDS); return -1; }
        o->fields[o->nfields++] = (enum prof_field)k;
        if (!s[n]) break;
        s += n + 1;
    }
    return 0;
}

void prof_free(prof_t *p) {
    if (!p) return;
    for (unsigned i = 0; i < PERF_MAX_CORES; i++) free(p->core[i].stack);
    free(p->func);
    free(p->active);
    free(p->edge);
    free(p->site);
    free(p->isr);
    idmap_free(&p->fmap);
    idmap_free(&p->emap);
    idmap_free(&p->smap);
    idmap_free(&p->imap);
    free(p);
}

static uint32_t func_id(prof_t *p, uint64_t addr) {
    uint32_t f = idmap_get(&p->fmap, addr);
    if (f != PROF_NONE) return f;
    if (p->nfunc >= PROF_NONE - 1 || !reserve((void **)&p->func, &p->capfunc, p->nfunc, sizeof *p->func) ||
        !reserve((void **)&p->active, &p->capactive, (p->nfunc + 1) * PERF_MAX_CORES, sizeof *p->active) ||
        idmap_put(&p->fmap, addr, (uint32_t)p->nfunc)) { p->oom = true; return PROF_NONE; }
    prof_func_t *fn = &p->func[p->nfunc];
    memset(fn, 0, sizeof *fn);
    uint64_t start;
    fn->addr = addr;
    fn->name = sym(p, addr, &start);
    memset(&p->active[p->nfunc * PERF_MAX_CORES], 0, PERF_MAX_CORES * sizeof *p->active);
    return (uint32_t)p->nfunc++;
}

static uint64_t edge_key(uint32_t caller, uint32_t callee) { return (uint64_t)caller << 32 | callee; }

static uint32_t edge_id(prof_t *p, uint32_t caller, uint32_t callee) {
    uint32_t e = idmap_get(&p->emap, edge_key(caller, callee));
    if (e != PROF_NONE) return e;
    if (p->nedge >= PROF_NONE - 1 || !reserve((void **)&p->edge, &p->capedge, p->nedge, sizeof *p->edge) ||
        idmap_put(&p->emap, edge_key(caller, callee), (uint32_t)p->nedge)) { p->oom = true; return PROF_NONE; }
    prof_edge_t *ed = &p->edge[p->nedge];
    memset(ed, 0, sizeof *ed);
    ed->caller = caller;
    ed->callee = callee;
    return (uint32_t)p->nedge++;
}

static prof_site_t *site_of(prof_t *p, uint64_t addr) {
    uint32_t s = idmap_get(&p->smap, addr);
    if (s != PROF_NONE) return &p->site[s];
    if (p->nsite >= PROF_NONE - 1 || !reserve((void **)&p->site, &p->capsite, p->nsite, sizeof *p->site) ||
        idmap_put(&p->smap, addr, (uint32_t)p->nsite)) { p->oom = true; return NULL; }
    prof_site_t *st = &p->site[p->nsite++];
    memset(st, 0, sizeof *st);
    uint64_t start;
    st->addr = addr;
    st->name = sym(p, addr, &start);
    if (p->o.line) st->file = p->o.line(p->o.line_ctx, addr, &st->line);
    return st;
}

static prof_isr_t *isr_of(prof_t *p, uint64_t pc) {
    uint64_t start;
    const char *name = sym(p, pc, &start);
    uint32_t s = idmap_get(&p->imap, start);
    if (s != PROF_NONE) return &p->isr[s];
    if (p->nisr >= PROF_NONE - 1 || !reserve((void **)&p->isr, &p->capisr, p->nisr, sizeof *p->isr) ||
        idmap_put(&p->imap, start, (uint32_t)p->nisr)) { p->oom = true; return NULL; }
    prof_isr_t *is = &p->isr[p->nisr++];
    memset(is, 0, sizeof *is);
    is->addr = start;
    is->name = name;
    return is;
}

/* ---- events ----------------------------------------------------------------------------- */
void prof_header(void *vp, const perf_header_t *h) {
    prof_t *p = vp;
    pcore_t *c = &p->core[h->core % PERF_MAX_CORES];
    p->st.headers++;
    memset(c->based, 0, sizeof c->based);      /* new reference values, same call stack */
    c->have_manual = false;
    for (unsigned i = 0; i < h->n && i < PERF_MAX_COUNTERS; i++) {
        const perf_counter_def_t *d = &h->def[i];
        col_t *col = &p->col[d->index % PERF_MAX_COUNTERS];
        char name[48];
        perf_counter_name(d, name, sizeof name);
        if (d->type == 2 && d->index != 1) raw_event_name(d->event_data, name, sizeof name);
        if (!col->used) {
            col->used = true;
            col->def = *d;
            snprintf(col->name, sizeof col->name, "%s", name);
        } else if (strcmp(col->name, name)) {
            warn(p, "counter %u counts %s after counting %s: its columns add both up", d->index, name, col->name);
        }
    }
}

static void pop(prof_t *p, pcore_t *c, unsigned hart) {
    frame_t *fr = &c->stack[--c->depth];
    p->active[(size_t)fr->func * PERF_MAX_CORES + hart]--;
    if (!fr->outer) return;                  /* an inner activation of a recursion */
    p->func[fr->func].hook_total += c->hook_cum - fr->hook_cum;
    p->edge[fr->edge].hook_total += c->hook_cum - fr->hook_cum;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        uint64_t incl = c->cum[x] - fr->cum[x];
        p->func[fr->func].total[x] += incl;
        p->edge[fr->edge].total[x] += incl;
    }
}

static void enter(prof_t *p, pcore_t *c, unsigned hart, const perf_record_t *r, uint32_t top) {
    uint32_t f = func_id(p, r->addr);
    if (f == PROF_NONE) return;
    p->func[f].calls++;
    uint32_t e = edge_id(p, top, f);
    if (e == PROF_NONE) return;
    p->edge[e].calls++;
    if (c->depth >= PROF_MAX_DEPTH) {
        if (!p->st.too_deep++) warn(p, "hart %u: call stack deeper than %u frames: deeper calls are counted but not followed", hart, PROF_MAX_DEPTH);
        return;
    }
    if (!reserve((void **)&c->stack, &c->cap, c->depth, sizeof *c->stack)) { p->oom = true; return; }
    frame_t *fr = &c->stack[c->depth++];
    fr->func = f;
    fr->edge = e;
    fr->call_site = r->call_site;
    fr->outer = p->active[(size_t)f * PERF_MAX_CORES + hart]++ == 0;
    memcpy(fr->cum, c->cum, sizeof fr->cum);
    fr->hook_cum = c->hook_cum;
}

static void leave(prof_t *p, pcore_t *c, unsigned hart, const perf_record_t *r) {
    char b1[256], b2[256];
    uint32_t f = idmap_get(&p->fmap, r->addr);
    size_t k = c->depth;
    while (k > 0 && c->stack[k - 1].func != f) k--;
    if (!k) {
        p->st.unmatched_exits++;
        snprintf(b1, sizeof b1, "0x%08" PRIx64, r->addr);
        warn(p, "hart %u: exit from %s without a matching enter (ignored)", hart,
             f != PROF_NONE ? fname(p, f, b1, sizeof b1) : b1);
        return;
    }
    while (c->depth > k) {                   /* exits that never came: unwind to the frame */
        p->st.unwound++;
        warn(p, "hart %u: exit from %s while %s is on top of the call stack: %s ends there", hart,
             fname(p, f, b1, sizeof b1), fname(p, c->stack[c->depth - 1].func, b2, sizeof b2),
             fname(p, c->stack[c->depth - 1].func, b2, sizeof b2));
        pop(p, c, hart);
    }
    pop(p, c, hart);
}

int prof_cycles_index(const prof_t *p) {
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (p->col[x].used && !strcmp(p->col[x].name, "cycles")) return (int)x;
    return -1;
}

void prof_hook(prof_t *p, unsigned hart, bool measured, uint64_t pre, uint64_t post) {
    pcore_t *c = &p->core[hart % PERF_MAX_CORES];
    p->st.hooks = true;
    c->hook_set = measured;
    c->hook_pre = measured ? pre : 0;
    c->hook_next_post = measured ? post : 0;
}

void prof_record(void *vp, const perf_record_t *r) {
    prof_t *p = vp;
    if (p->oom) return;
    unsigned hart = r->core % PERF_MAX_CORES;
    pcore_t *c = &p->core[hart];
    p->st.records++;
    if (r->gap_before) {                     /* perf data lost: new stack, new baseline */
        p->st.gaps++;
        if (c->depth)
            warn(p, "hart %u: perf data lost before a record: the call stack (%zu frame(s)) ends at the last record before it",
                 hart, c->depth);
        while (c->depth) {                   /* charged up to the last record before the gap */
            p->st.gap_ended++;
            pop(p, c, hart);
        }
        memset(c->based, 0, sizeof c->based);
        c->have_manual = false;
        c->hook_post = 0;
    }
    /* the record's hook cost (prof_hook), by type */
    bool hook = c->hook_set;
    if (p->st.hooks) {
        if (hook && !r->truncated && (unsigned)r->type < 4) {
            p->st.hook_n[r->type]++;
            p->st.hook_cycles[r->type] += c->hook_pre + c->hook_next_post;
        } else {
            p->st.hook_unmeasured++;
        }
    }
    if (p->cyc < 0) p->cyc = prof_cycles_index(p);
    /* the counters' change since the previous record belongs to the function on top */
    uint32_t top = c->depth ? c->stack[c->depth - 1].func : PROF_NONE;
    for (unsigned i = 0; i < r->n && i < PERF_MAX_COUNTERS; i++) {
        unsigned x = r->index[i] % PERF_MAX_COUNTERS;
        if (r->delta_unknown >> i & 1) continue;             /* nothing known to count */
        if (!c->based[x]) { c->based[x] = true; continue; }   /* first value: the reference */
        uint64_t d = r->delta[i];
        c->cum[x] += d;
        p->trace_total[x] += d;
        if (top != PROF_NONE) p->func[top].self[x] += d;
        else p->outside[x] += d;
        if ((int)x == p->cyc) {              /* hook cycles inside this delta */
            uint64_t h = c->hook_post + c->hook_pre;
            if (h > d) h = d;
            c->hook_cum += h;
            p->st.hook_counted += h;
            if (top != PROF_NONE) p->func[top].hook_self += h;
            else p->st.hook_outside += h;
        }
    }
    c->hook_post = c->hook_next_post;
    c->hook_set = false;
    c->hook_pre = c->hook_next_post = 0;
    if (r->truncated) { p->st.truncated++; return; }
    if (r->addr_unknown) { p->st.unknown_addr++; return; }
    switch (r->type) {
    case PERF_FUNC_ENTER: p->st.enters++; enter(p, c, hart, r, top); break;
    case PERF_FUNC_EXIT: p->st.exits++; leave(p, c, hart, r); break;
    case PERF_MANUAL: {
        p->st.manual++;
        prof_site_t *s = site_of(p, r->addr);
        if (!s) return;
        s->records++;
        if (c->have_manual) {
            s->intervals++;
            for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) s->sum[x] += c->cum[x] - c->manual_cum[x];
            s->hook_sum += c->hook_cum - c->manual_hook_cum;
        }
        memcpy(c->manual_cum, c->cum, sizeof c->cum);
        c->manual_hook_cum = c->hook_cum;
        c->have_manual = true;
        break;
    }
    default: {
        p->st.isr++;
        prof_isr_t *s = isr_of(p, r->addr);
        if (s) s->samples++;
        break;
    }
    }
}

void prof_finish(prof_t *p) {
    if (p->oom) return;
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) {
        pcore_t *c = &p->core[h];
        while (c->depth) {                   /* charged up to the last record */
            p->func[c->stack[c->depth - 1].func].still_active++;
            p->st.still_active++;
            pop(p, c, h);
        }
    }
}

/* ---- queries ---------------------------------------------------------------------------- */
const prof_stats_t *prof_stats(const prof_t *p) { return &p->st; }
size_t prof_nfuncs(const prof_t *p) { return p->nfunc; }
const prof_func_t *prof_func_at(const prof_t *p, size_t i) { return i < p->nfunc ? &p->func[i] : NULL; }

const prof_func_t *prof_func(const prof_t *p, uint64_t addr) {
    uint32_t f = idmap_get(&p->fmap, addr);
    return f == PROF_NONE ? NULL : &p->func[f];
}

const prof_edge_t *prof_edge(const prof_t *p, const prof_func_t *caller, const prof_func_t *callee) {
    if (!callee) return NULL;
    uint32_t a = caller ? (uint32_t)(caller - p->func) : PROF_NONE, b = (uint32_t)(callee - p->func);
    uint32_t e = idmap_get(&p->emap, edge_key(a, b));
    return e == PROF_NONE ? NULL : &p->edge[e];
}

const prof_site_t *prof_site(const prof_t *p, uint64_t addr) {
    uint32_t s = idmap_get(&p->smap, addr);
    return s == PROF_NONE ? NULL : &p->site[s];
}

const prof_isr_t *prof_isr(const prof_t *p, uint64_t addr) {
    uint32_t s = idmap_get(&p->imap, addr);
    return s == PROF_NONE ? NULL : &p->isr[s];
}

uint64_t prof_trace_total(const prof_t *p, unsigned index) { return index < PERF_MAX_COUNTERS ? p->trace_total[index] : 0; }
uint64_t prof_outside(const prof_t *p, unsigned index) { return index < PERF_MAX_COUNTERS ? p->outside[index] : 0; }

/* ---- output ----------------------------------------------------------------------------- */
typedef struct key { uint64_t k1, k2, k3, k4; uint32_t i; } skey_t;

static int by_key(const void *a, const void *b) {   /* k1..k3 descending, k4 ascending */
    const skey_t *x = a, *y = b;
    if (x->k1 != y->k1) return x->k1 < y->k1 ? 1 : -1;
    if (x->k2 != y->k2) return x->k2 < y->k2 ? 1 : -1;
    if (x->k3 != y->k3) return x->k3 < y->k3 ? 1 : -1;
    if (x->k4 != y->k4) return x->k4 < y->k4 ? -1 : 1;
    return 0;
}

/* the counter percentages refer to: cycles, else the lowest index; -1 without counters */
static int primary(const prof_t *p) {
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (p->col[x].used && !strcmp(p->col[x].name, "cycles")) return (int)x;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (p->col[x].used) return (int)x;
    return -1;
}

/* the figures as output: with opts.compensate the cycles column without the hook cycles */
static bool comp(const prof_t *p, unsigned x) { return p->o.compensate && (int)x == p->cyc; }
static uint64_t f_self(const prof_t *p, const prof_func_t *f, unsigned x) { return f->self[x] - (comp(p, x) ? f->hook_self : 0); }
static uint64_t f_total(const prof_t *p, const prof_func_t *f, unsigned x) { return f->total[x] - (comp(p, x) ? f->hook_total : 0); }
static uint64_t e_total(const prof_t *p, const prof_edge_t *e, unsigned x) { return e->total[x] - (comp(p, x) ? e->hook_total : 0); }
static uint64_t t_total(const prof_t *p, unsigned x) { return p->trace_total[x] - (comp(p, x) ? p->st.hook_counted : 0); }
static uint64_t t_outside(const prof_t *p, unsigned x) { return p->outside[x] - (comp(p, x) ? p->st.hook_outside : 0); }
static void edge_totals(const prof_t *p, const prof_edge_t *e, uint64_t *out) {
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) out[x] = e_total(p, e, x);
}

/* functions in flat-profile order (self desc) or call-graph order (total desc); NULL: OOM */
static skey_t *sorted_funcs(const prof_t *p, bool by_total) {
    skey_t *k = malloc((p->nfunc ? p->nfunc : 1) * sizeof *k);
    if (!k) return NULL;
    int x = primary(p);
    for (size_t i = 0; i < p->nfunc; i++) {
        const prof_func_t *f = &p->func[i];
        uint64_t self = x >= 0 ? f_self(p, f, (unsigned)x) : 0, tot = x >= 0 ? f_total(p, f, (unsigned)x) : 0;
        k[i] = (skey_t){by_total ? tot : self, by_total ? self : tot, f->calls, f->addr, (uint32_t)i};
    }
    qsort(k, p->nfunc, sizeof *k, by_key);
    return k;
}

static unsigned width(const char *prefix, const char *name) {
    size_t w = strlen(prefix) + strlen(name);
    return w < 12 ? 12 : (unsigned)w;
}

static void pct(FILE *o, uint64_t part, uint64_t whole, int w) {
    if (whole) fprintf(o, "%*.2f", w, 100.0 * (double)part / (double)whole);
    else fprintf(o, "%*s", w, "-");
}

static const enum prof_field default_fields[] = {PF_PERCENT, PF_CALLS, PF_SELF, PF_TOTAL, PF_FUNCTION};

static const enum prof_field *fields_of(const prof_t *p, unsigned *n) {
    if (p->o.nfields) { *n = p->o.nfields; return p->o.fields; }
    *n = sizeof default_fields / sizeof default_fields[0];
    return default_fields;
}

/* one column heading of the flat profile (counter x for the per-counter fields) */
static void field_head(const prof_t *p, enum prof_field f, unsigned x, char *h, size_t len, bool csv) {
    static const char *const pre[] = {[PF_SELF] = "self", [PF_TOTAL] = "total", [PF_SELF_MEAN] = "mean self",
                                      [PF_TOTAL_MEAN] = "mean total"};
    static const char *const suf[] = {[PF_SELF] = "self", [PF_TOTAL] = "total", [PF_SELF_MEAN] = "self_mean",
                                      [PF_TOTAL_MEAN] = "total_mean"};
    switch (f) {
    case PF_SELF: case PF_TOTAL: case PF_SELF_MEAN: case PF_TOTAL_MEAN:
        if (csv) snprintf(h, len, "%s_%s", p->col[x].name, suf[f]);
        else snprintf(h, len, "%s %s", pre[f], p->col[x].name);
        break;
    case PF_PERCENT: snprintf(h, len, csv ? "percent" : "%%"); break;
    case PF_HOOK: snprintf(h, len, csv ? "hook_cycles" : "hook cycles"); break;
    default: snprintf(h, len, "%s", field_names[f]); break;
    }
}

static bool per_counter(enum prof_field f) { return f == PF_SELF || f == PF_TOTAL || f == PF_SELF_MEAN || f == PF_TOTAL_MEAN; }

/* one cell of the flat profile: field fl of function f (counter x), width w (0 in CSV) */
static void cell(const prof_t *p, FILE *o, const prof_func_t *f, uint32_t fi, enum prof_field fl, unsigned x, int w, bool csv) {
    int x0 = primary(p);
    char nb[256];
    switch (fl) {
    case PF_PERCENT:
        if (x0 >= 0 && t_total(p, (unsigned)x0))
            fprintf(o, "%*.2f", w, 100.0 * (double)f_self(p, f, (unsigned)x0) / (double)t_total(p, (unsigned)x0));
        else fprintf(o, "%*s", w, csv ? "" : "-");
        break;
    case PF_CALLS: fprintf(o, "%*" PRIu64, w, f->calls); break;
    case PF_SELF: fprintf(o, "%*" PRIu64, w, f_self(p, f, x)); break;
    case PF_TOTAL: fprintf(o, "%*" PRIu64, w, f_total(p, f, x)); break;
    case PF_SELF_MEAN: case PF_TOTAL_MEAN: {
        uint64_t v = fl == PF_SELF_MEAN ? f_self(p, f, x) : f_total(p, f, x);
        if (f->calls) fprintf(o, "%*.1f", w, (double)v / (double)f->calls);
        else fprintf(o, "%*s", w, csv ? "" : "-");
        break;
    }
    case PF_HOOK:
        if (p->st.hooks) fprintf(o, "%*" PRIu64, w, f->hook_self);
        else fprintf(o, "%*s", w, csv ? "" : "-");
        break;
    case PF_ADDRESS: fprintf(o, "%*s0x%08" PRIx64, w > 10 ? w - 10 : 0, "", f->addr); break;
    case PF_FUNCTION:
        if (csv) ts_csv_field(o, f->name ? f->name : "");
        else fprintf(o, "%s%s", fname(p, fi, nb, sizeof nb), f->still_active ? " (still active)" : "");
        break;
    default: break;
    }
}

/* the flat profile's column line (columns) and rows, text (aligned) or CSV (hart >= 0: a
 * first column). Consecutive per-counter fields are given counter by counter (self cycles,
 * total cycles, self load|store, ...). */
static void flat_rows(const prof_t *p, FILE *o, const skey_t *k, bool csv, int hart, bool columns) {
    unsigned nf;
    const enum prof_field *fl = fields_of(p, &nf);
    char h[96];
    for (long row = columns ? -1 : 0; row < (long)p->nfunc; row++) {
        const prof_func_t *f = row >= 0 ? &p->func[k[row].i] : NULL;
        uint32_t fi = row >= 0 ? k[row].i : 0;
        bool first = true;
        if (csv && hart >= 0) { if (f) fprintf(o, "%d", hart); else fputs("hart", o); first = false; }
        if (!csv) fputc(' ', o);
        for (unsigned i = 0; i < nf;) {
            unsigned j = i + 1;                       /* [i, j): one field, or a group of per-counter ones */
            if (per_counter(fl[i])) while (j < nf && per_counter(fl[j])) j++;
            for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
                if (per_counter(fl[i]) && !p->col[x].used) continue;
                for (unsigned g = i; g < j; g++) {
                    field_head(p, fl[g], x, h, sizeof h, csv);
                    int w = csv ? 0 : fl[g] == PF_PERCENT ? 7 : fl[g] == PF_CALLS ? 9 : fl[g] == PF_FUNCTION ? 0
                          : (int)(strlen(h) < 12 ? 12 : strlen(h));
                    if (csv) { if (!first) fputc(',', o); }
                    else fputs(fl[g] == PF_PERCENT || fl[g] == PF_CALLS ? " " : "  ", o);
                    first = false;
                    if (!f) fprintf(o, "%*s", w, h);
                    else cell(p, o, f, fi, fl[g], x, w, csv);
                }
                if (!per_counter(fl[i])) break;
            }
            i = j;
        }
        fputc('\n', o);
    }
}

static void flat(const prof_t *p, FILE *o, const skey_t *k) {
    int x0 = primary(p);
    fprintf(o, "Flat profile%s\n\n"
               "  One line per function (function enter/exit records). calls: enter records. self: the\n"
               "  counter's change while the function was on top of its hart's call stack. total: from\n"
               "  enter to exit, callees included; a recursive function counts only its outermost\n"
               "  activation. mean: per call. hook cycles: the perf hooks' cycles inside self cycles.\n"
               "  %%: self %s as a share of all %s from the first to the last record. Sorted by self %s.\n\n",
            p->o.compensate ? " (cycles compensated: the perf hooks' cycles subtracted)" : "",
            x0 >= 0 ? p->col[x0].name : "-", x0 >= 0 ? p->col[x0].name : "-", x0 >= 0 ? p->col[x0].name : "-");
    flat_rows(p, o, k, false, -1, true);
    if (x0 >= 0)
        fprintf(o, "\n  %s over the trace: %" PRIu64 ", of which outside any traced function: %" PRIu64 "\n",
                p->col[x0].name, t_total(p, (unsigned)x0), t_outside(p, (unsigned)x0));
}

/* one call-graph line: calls as "a/b" (or a alone), the totals, the name */
static void cg_line(const prof_t *p, FILE *o, const char *index, double share, bool with_share,
                    const char *calls, const uint64_t *tot, const char *name) {
    fprintf(o, "  %-7s", index);
    if (with_share) fprintf(o, " %7.2f", share); else fprintf(o, " %7s", "");
    fprintf(o, " %13s", calls);
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (p->col[x].used) fprintf(o, "  %*" PRIu64, (int)width("total ", p->col[x].name), tot[x]);
    fprintf(o, "  %s\n", name);
}

/* the edges into (callers) or out of f, by total of the primary counter (descending), then
 * calls, then the other function's rank; n gets the count; NULL when out of memory */
static skey_t *edges_of(const prof_t *p, uint32_t f, bool callers, const uint32_t *rank, size_t *n) {
    int x0 = primary(p);
    skey_t *k = malloc((p->nedge ? p->nedge : 1) * sizeof *k);
    *n = 0;
    if (!k) return NULL;
    for (size_t e = 0; e < p->nedge; e++) {
        const prof_edge_t *ed = &p->edge[e];
        if ((callers ? ed->callee : ed->caller) != f) continue;
        uint32_t other = callers ? ed->caller : ed->callee;
        k[(*n)++] = (skey_t){x0 >= 0 ? e_total(p, ed, (unsigned)x0) : 0, ed->calls, 0,
                             other == PROF_NONE ? 0 : rank[other], (uint32_t)e};
    }
    qsort(k, *n, sizeof *k, by_key);
    return k;
}

static void call_graph(const prof_t *p, FILE *o, const skey_t *k, const uint32_t *rank) {
    int x0 = primary(p);
    char nb[256], calls[48], idx[16];
    uint64_t et[PERF_MAX_COUNTERS], ft[PERF_MAX_COUNTERS];
    fprintf(o, "\nCall graph\n\n"
               "  One block per function, by total %s: the lines above it are its callers, the lines\n"
               "  below it the functions it called. calls: along that edge / all calls of the callee\n"
               "  (recursive calls included). total: the cost along the edge, i.e. of the callee's\n"
               "  activations from that caller (outermost activations only, so a recursive edge shows\n"
               "  0); on the function's own line its total and its share of the trace (%%). Callers and\n"
               "  callees are sorted by that total, highest first.\n"
               "  <spontaneous>: entered with no traced function on its hart's stack.\n\n",
            x0 >= 0 ? p->col[x0].name : "-");
    fprintf(o, "  %-7s %7s %13s", "index", "%", "calls");
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        if (!p->col[x].used) continue;
        char h[64];
        snprintf(h, sizeof h, "total %s", p->col[x].name);
        fprintf(o, "  %*s", (int)width("total ", p->col[x].name), h);
    }
    fputs("  name\n", o);
    for (size_t n = 0; n < p->nfunc; n++) {
        uint32_t f = k[n].i;
        const prof_func_t *fn = &p->func[f];
        fputs("  ------------------------------------------------------------------------------\n", o);
        size_t ne;
        skey_t *ek = edges_of(p, f, true, rank, &ne);
        for (size_t n2 = 0; ek && n2 < ne; n2++) {      /* callers */
            const prof_edge_t *ed = &p->edge[ek[n2].i];
            char nm[96];
            snprintf(calls, sizeof calls, "%" PRIu64 "/%" PRIu64, ed->calls, fn->calls);
            if (ed->caller == PROF_NONE) snprintf(nm, sizeof nm, "    <spontaneous>");
            else snprintf(nm, sizeof nm, "    %.60s [%u]", fname(p, ed->caller, nb, sizeof nb), rank[ed->caller]);
            edge_totals(p, ed, et);
            cg_line(p, o, "", 0, false, calls, et, nm);
        }
        free(ek);
        snprintf(idx, sizeof idx, "[%u]", rank[f]);
        snprintf(calls, sizeof calls, "%" PRIu64, fn->calls);
        char nm[96];
        snprintf(nm, sizeof nm, "%.60s [%u]%s", fname(p, f, nb, sizeof nb), rank[f], fn->still_active ? " (still active)" : "");
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) ft[x] = f_total(p, fn, x);
        double share = x0 >= 0 && t_total(p, (unsigned)x0) ? 100.0 * (double)ft[x0] / (double)t_total(p, (unsigned)x0) : 0;
        cg_line(p, o, idx, share, x0 >= 0 && t_total(p, (unsigned)x0), calls, ft, nm);
        ek = edges_of(p, f, false, rank, &ne);
        for (size_t n2 = 0; ek && n2 < ne; n2++) {      /* callees */
            const prof_edge_t *ed = &p->edge[ek[n2].i];
            snprintf(calls, sizeof calls, "%" PRIu64 "/%" PRIu64, ed->calls, p->func[ed->callee].calls);
            snprintf(nm, sizeof nm, "    %.60s [%u]", fname(p, ed->callee, nb, sizeof nb), rank[ed->callee]);
            edge_totals(p, ed, et);
            cg_line(p, o, "", 0, false, calls, et, nm);
        }
        free(ek);
    }
}

static void manual_table(const prof_t *p, FILE *o) {
    if (!p->nsite) return;
    fprintf(o, "\nManual records (perfWriteCntrs call sites)\n\n"
               "  records: manual records from that address. total and mean: the counters' change from\n"
               "  the previous manual record of the same hart to one from this address (the first manual\n"
               "  record of a hart, and the first after a new perf header, start no interval)%s. source:\n"
               "  the call site's file:line.\n\n", p->o.compensate ? "; cycles without the perf hooks' cycles" : "");
    int wsrc = 6;
    for (size_t i = 0; i < p->nsite; i++) {
        char b[300];
        int w = p->site[i].file ? snprintf(b, sizeof b, "%s:%u", p->site[i].file, p->site[i].line) : 1;
        if (w > wsrc) wsrc = w;
    }
    fprintf(o, "  %-18s %9s", "address", "records");
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        if (!p->col[x].used) continue;
        char h[64];
        snprintf(h, sizeof h, "mean %s", p->col[x].name);
        fprintf(o, "  %*s", (int)width("total ", p->col[x].name), h);
        snprintf(h, sizeof h, "total %s", p->col[x].name);
        fprintf(o, "  %*s", (int)width("total ", p->col[x].name), h);
    }
    fprintf(o, "  %-*s  function\n", wsrc, "source");
    skey_t *k = malloc(p->nsite * sizeof *k);
    if (!k) return;
    for (size_t i = 0; i < p->nsite; i++) k[i] = (skey_t){0, 0, 0, p->site[i].addr, (uint32_t)i};
    qsort(k, p->nsite, sizeof *k, by_key);                /* by address */
    for (size_t n = 0; n < p->nsite; n++) {
        const prof_site_t *s = &p->site[k[n].i];
        char a[24];
        snprintf(a, sizeof a, "0x%08" PRIx64, s->addr);
        fprintf(o, "  %-18s %9" PRIu64, a, s->records);
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
            if (!p->col[x].used) continue;
            int w = (int)width("total ", p->col[x].name);
            uint64_t sum = s->sum[x] - (comp(p, x) ? s->hook_sum : 0);
            if (s->intervals) fprintf(o, "  %*.1f", w, (double)sum / (double)s->intervals);
            else fprintf(o, "  %*s", w, "-");
            fprintf(o, "  %*" PRIu64, w, sum);
        }
        char src[300];
        if (s->file) snprintf(src, sizeof src, "%s:%u", s->file, s->line);
        else snprintf(src, sizeof src, "-");
        char eb[300], nb[256];
        fprintf(o, "  %-*s  %s\n", wsrc, ts_text_esc(src, eb, sizeof eb), s->name ? ts_text_esc(s->name, nb, sizeof nb) : "");
    }
    free(k);
}

static void isr_table(const prof_t *p, FILE *o) {
    if (!p->nisr) return;
    fprintf(o, "\nISR samples (the interrupted pc of each ISR record)\n\n"
               "  samples: ISR records whose pc lies in the function (or at the pc, without symbols);\n"
               "  %%: share of all %" PRIu64 " samples.\n\n  %9s %7s  function\n", p->st.isr, "samples", "%");
    skey_t *k = malloc(p->nisr * sizeof *k);
    if (!k) return;
    for (size_t i = 0; i < p->nisr; i++) k[i] = (skey_t){p->isr[i].samples, 0, 0, p->isr[i].addr, (uint32_t)i};
    qsort(k, p->nisr, sizeof *k, by_key);
    for (size_t n = 0; n < p->nisr; n++) {
        const prof_isr_t *s = &p->isr[k[n].i];
        fprintf(o, "  %9" PRIu64 " ", s->samples);
        pct(o, s->samples, p->st.isr, 7);
        if (s->name) { fputs("  ", o); ts_text_put(o, s->name); fputc('\n', o); }
        else fprintf(o, "  0x%08" PRIx64 "\n", s->addr);
    }
    free(k);
}

static void instrumentation(const prof_t *p, FILE *o) {
    const prof_stats_t *s = &p->st;
    static const char *const what[4] = {"enter (__cyg_profile_func_enter)", "exit (__cyg_profile_func_exit)",
                                        "manual (perfWriteCntrs)", "ISR (perf_timer_tick)"};
    fprintf(o, "\nInstrumentation cost\n\n");
    if (!s->hooks) {
        fputs("  not measured: needs --elf and the run folder's flow.csv and counters.csv beside the trace\n", o);
        return;
    }
    fputs("  cycles from the call of the perf hook that wrote a record to its return (flow.csv), per\n"
          "  record type; measured, not estimated (hook_cost.h).\n\n", o);
    fprintf(o, "  %-34s %9s %12s %10s\n", "records", "measured", "hook cycles", "mean");
    uint64_t n = 0, cyc = 0;
    for (unsigned t = 0; t < 4; t++) {
        n += s->hook_n[t];
        cyc += s->hook_cycles[t];
        if (!s->hook_n[t]) continue;
        fprintf(o, "  %-34s %9" PRIu64 " %12" PRIu64 " %10.1f\n", what[t], s->hook_n[t], s->hook_cycles[t],
                (double)s->hook_cycles[t] / (double)s->hook_n[t]);
    }
    fprintf(o, "  %-34s %9" PRIu64 " %12" PRIu64, "all", n, cyc);
    if (n) fprintf(o, " %10.1f\n", (double)cyc / (double)n); else fputc('\n', o);
    if (s->hook_unmeasured)
        fprintf(o, "  %" PRIu64 " record(s) not measured (from the first record after lost perf data, or with no hook call\n"
                   "    of its kind and cycle count in flow.csv/counters.csv, on: their hook cycles count as the function's own)\n",
                s->hook_unmeasured);
    int x = p->cyc;
    if (x >= 0) {
        fprintf(o, "  %" PRIu64 " of these cycles lie between the first and the last record: %.2f %% of the %" PRIu64
                   " cycles of the profile%s\n", s->hook_counted,
                p->trace_total[x] ? 100.0 * (double)s->hook_counted / (double)p->trace_total[x] : 0.0, p->trace_total[x],
                p->o.compensate ? "; subtracted from every cycles figure above (--compensate)"
                                : "; --compensate subtracts them from every cycles figure");
    } else {
        fputs("  the records carry no cycles counter: nothing to compensate\n", o);
    }
}

static void notes(const prof_t *p, FILE *o) {
    const prof_stats_t *s = &p->st;
    char nb[256];
    instrumentation(p, o);
    fprintf(o, "\nNotes\n\n");
    fprintf(o, "  %" PRIu64 " record(s): %" PRIu64 " enter, %" PRIu64 " exit, %" PRIu64 " manual, %" PRIu64
               " ISR; %" PRIu64 " perf header(s)\n", s->records, s->enters, s->exits, s->manual, s->isr, s->headers);
    if (s->truncated) fprintf(o, "  %" PRIu64 " record(s) cut off (truncated): not used\n", s->truncated);
    if (s->unmatched_exits) fprintf(o, "  %" PRIu64 " exit record(s) without a matching enter: ignored\n", s->unmatched_exits);
    if (s->unwound) fprintf(o, "  %" PRIu64 " frame(s) without an exit, ended by the exit of a function below them\n", s->unwound);
    if (s->too_deep) fprintf(o, "  %" PRIu64 " enter record(s) beyond %u frames: counted, not followed\n", s->too_deep, PROF_MAX_DEPTH);
    if (s->gaps)
        fprintf(o, "  %" PRIu64 " gap(s): perf data lost before a record (ITC overflow, or the start of a wrapped trace);\n"
                   "    at each the call stack was reset (%" PRIu64 " frame(s) ended at the last record before it) and the\n"
                   "    counters' change across it is not counted\n", s->gaps, s->gap_ended);
    if (s->unknown_addr)
        fprintf(o, "  %" PRIu64 " record(s) after a gap with unknown addresses (DeltaXOR): not used\n", s->unknown_addr);
    if (s->still_active) {
        fprintf(o, "  %" PRIu64 " activation(s) still active at the end of the trace, charged up to the last record:", s->still_active);
        for (size_t i = 0; i < p->nfunc; i++)
            if (p->func[i].still_active)
                fprintf(o, " %s (%" PRIu64 ")", fname(p, (uint32_t)i, nb, sizeof nb), p->func[i].still_active);
        fputc('\n', o);
    }
    if (p->oom) fprintf(o, "  out of memory: the profile is incomplete\n");
}

int prof_write_text(const prof_t *p, FILE *o) {
    skey_t *kf = sorted_funcs(p, false), *kc = sorted_funcs(p, true);
    uint32_t *rank = malloc((p->nfunc ? p->nfunc : 1) * sizeof *rank);
    if (!kf || !kc || !rank) { free(kf); free(kc); free(rank); return -1; }
    for (size_t n = 0; n < p->nfunc; n++) rank[kc[n].i] = (uint32_t)n + 1;
    fputs("Counters:", o);
    bool any = false;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (p->col[x].used) { fprintf(o, "%s %s (index %u)", any ? "," : "", p->col[x].name, x); any = true; }
    fputs(any ? "\n\n" : " none\n\n", o);
    if (p->nfunc) {
        flat(p, o, kf);
        call_graph(p, o, kc, rank);
    } else {
        fputs("No function enter/exit records: no flat profile, no call graph.\n", o);
    }
    manual_table(p, o);
    isr_table(p, o);
    notes(p, o);
    free(kf);
    free(kc);
    free(rank);
    return ferror(o) ? -1 : 0;
}

bool prof_same_counters(const prof_t *a, const prof_t *b) {
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (a->col[x].used != b->col[x].used || (a->col[x].used && strcmp(a->col[x].name, b->col[x].name))) return false;
    return true;
}

/* hart < 0: no hart column */
static int write_csv(const prof_t *p, FILE *o, int hart, bool columns) {
    skey_t *k = sorted_funcs(p, false);
    if (!k) return -1;
    if (p->o.nfields) {                      /* --fields: those columns */
        flat_rows(p, o, k, true, hart, columns);
        free(k);
        return ferror(o) ? -1 : 0;
    }
    int x0 = primary(p);
    if (columns) {
        fputs(hart >= 0 ? "hart,function,address,calls,still_active,percent" : "function,address,calls,still_active,percent", o);
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
            if (p->col[x].used) fprintf(o, ",%s_self,%s_total", p->col[x].name, p->col[x].name);
        fputc('\n', o);
    }
    for (size_t n = 0; n < p->nfunc; n++) {
        const prof_func_t *f = &p->func[k[n].i];
        if (hart >= 0) fprintf(o, "%d,", hart);
        ts_csv_field(o, f->name ? f->name : "");
        fprintf(o, ",0x%08" PRIx64 ",%" PRIu64 ",%" PRIu64 ",", f->addr, f->calls, f->still_active);
        if (x0 >= 0 && t_total(p, (unsigned)x0)) fprintf(o, "%.2f", 100.0 * (double)f_self(p, f, (unsigned)x0) / (double)t_total(p, (unsigned)x0));
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
            if (p->col[x].used) fprintf(o, ",%" PRIu64 ",%" PRIu64, f_self(p, f, x), f_total(p, f, x));
        fputc('\n', o);
    }
    free(k);
    return ferror(o) ? -1 : 0;
}

int prof_write_csv(const prof_t *p, FILE *o) { return write_csv(p, o, -1, true); }
int prof_write_csv_hart(const prof_t *p, FILE *o, unsigned hart, bool columns) { return write_csv(p, o, (int)hart, columns); }
