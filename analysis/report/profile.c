/* profile.c - gprof-like profile from perf records; see profile.h. */
#include "profile.h"
#include "callstack.h"
#include "rec_stack.h"
#include "ts_text.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- uint64 -> uint32 open-addressing map ---------------------------------------------- */
typedef struct idmap {
    uint64_t *key;
    uint32_t *val;
    size_t cap, n;
} idmap_t;

static size_t slot_of(uint64_t k, size_t cap) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
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
        if (!k || !v) {
            free(k);
            free(v);
            return -1;
        }
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

static void idmap_free(idmap_t *m) {
    free(m->key);
    free(m->val);
}

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
typedef struct frame { /* a frame's payload in the call-stack model */
    uint32_t func, edge;
    uint32_t thr;                    /* its thread (prof_t.thr) */
    bool outer;                      /* no other activation of func below it */
    uint64_t cum[PERF_MAX_COUNTERS]; /* running totals at the enter */
    uint64_t hook_cum;               /* running hook cycles at the enter */
} frame_t;

struct prof;
typedef struct pcore {
    struct prof *p;
    unsigned hart;
    cs_t cs;                         /* the call stack (callstack.h) */
    uint64_t cum[PERF_MAX_COUNTERS]; /* running totals (sum of counted deltas) */
    bool based[PERF_MAX_COUNTERS];   /* the counter has a reference value since the header */
    bool have_manual;
    uint64_t manual_cum[PERF_MAX_COUNTERS], manual_hook_cum;
    uint64_t hook_cum;  /* running total of the hook cycles counted */
    uint64_t hook_post; /* the previous record's hook cycles after its read */
    bool hook_set;      /* prof_hook gave the next record's cost */
    uint64_t hook_pre, hook_next_post;
    uint64_t hook_traps; /* prof_hook_traps: handler and late hook cycles of the next record's interval */
    uint64_t hook_moved; /* the next record's hook cycles given to a later interval */
    uint32_t thr;        /* the running thread (prof_t.thr), PROF_NONE before the first record */
    bool switched;       /* a thread switch since the previous record */
} pcore_t;

/* a thread (THREAD_SWITCH events), or a hart's thread before its first switch: its own call
 * stack (the model's thread id is the slot's index) and running totals while it runs */
typedef struct pthr {
    unsigned hart;
    uint64_t id;                               /* the THREAD_SWITCH value (tp) */
    bool named;                                /* id known (else: what ran before the first switch) */
    uint64_t cum[PERF_MAX_COUNTERS], hook_cum; /* parked running totals (current: pcore_t's) */
    uint64_t switches_in;
} pthr_t;

/* a function in one thread */
typedef struct pthfunc {
    uint32_t thr, func;
    uint32_t active; /* its frames on the thread's stack */
    uint64_t calls, self[PERF_MAX_COUNTERS], hook_self;
} pthfunc_t;

typedef struct col {
    bool used;
    perf_counter_def_t def;
    char name[48];
} col_t;

struct prof {
    prof_opts_t o;
    prof_stats_t st;
    col_t col[PERF_MAX_COUNTERS];
    uint64_t trace_total[PERF_MAX_COUNTERS], outside[PERF_MAX_COUNTERS];
    uint64_t unattributed[PERF_MAX_COUNTERS];                      /* intervals split in unknown shares (longjmp, thread switch) */
    uint64_t unattr_switch[PERF_MAX_COUNTERS], hook_unattr_switch; /* of them around a thread switch */
    pthr_t *thr;
    size_t nthr, capthr;
    pthfunc_t *tf;
    size_t ntf, captf;
    idmap_t tfmap;         /* thr << 32 | func -> tf */
    bool finishing;        /* prof_finish: frames closing are still active */
    uint64_t unnamed_open; /* of them, frames of a hart's thread before its first switch, after a switch */
    pcore_t core[PERF_MAX_CORES];
    prof_func_t *func;
    size_t nfunc, capfunc;
    prof_edge_t *edge;
    size_t nedge, capedge;
    prof_site_t *site;
    size_t nsite, capsite;
    prof_isr_t *isr;
    size_t nisr, capisr;
    idmap_t fmap, emap, smap, imap;
    int cyc; /* counter index named cycles, or -1 */
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
    if (p->func[f].name) return ts_text_esc(p->func[f].name, buf, len); /* no control character to a terminal */
    snprintf(buf, len, "0x%08" PRIx64, p->func[f].addr);
    return buf;
}

static void frame_closed(void *ctx, uint64_t thread, const cs_frame_t *cf, void *user, cs_why_t why);

prof_t *prof_new(const prof_opts_t *o) {
    prof_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (o) p->o = *o;
    p->cyc = -1;
    for (unsigned i = 0; i < PERF_MAX_CORES; i++) {
        p->core[i].p = p;
        p->core[i].hart = i;
        p->core[i].thr = PROF_NONE;
        cs_init(&p->core[i].cs, sizeof(frame_t), frame_closed, &p->core[i]);
    }
    return p;
}

/* ---- names of raw HPM events (rtl_model/regs/hpm_events.def) ---------------------------- */
typedef struct ev_name {
    int cls, bit;
    const char *name;
} ev_name_t;
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
                                  "total_mean, hook, address, function)",
                     (int)(n > 64 ? 64 : n), s);
            return -1;
        }
        if (o->nfields == PROF_MAX_FIELDS) {
            snprintf(err, errlen, "too many fields for --fields (%d at most)", PROF_MAX_FIELDS);
            return -1;
        }
        o->fields[o->nfields++] = (enum prof_field)k;
        if (!s[n]) break;
        s += n + 1;
    }
    return 0;
}

void prof_free(prof_t *p) {
    if (!p) return;
    for (unsigned i = 0; i < PERF_MAX_CORES; i++) cs_free(&p->core[i].cs);
    free(p->func);
    free(p->thr);
    free(p->tf);
    idmap_free(&p->tfmap);
    free(p->edge);
    free(p->site);
    for (size_t i = 0; i < p->nisr; i++) free(p->isr[i].func);
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
        idmap_put(&p->fmap, addr, (uint32_t)p->nfunc)) {
        p->oom = true;
        return PROF_NONE;
    }
    prof_func_t *fn = &p->func[p->nfunc];
    memset(fn, 0, sizeof *fn);
    uint64_t start;
    fn->addr = addr;
    fn->name = sym(p, addr, &start);
    return (uint32_t)p->nfunc++;
}

/* the function func in thread t (created on first use), or NULL */
static pthfunc_t *tf_of(prof_t *p, uint32_t t, uint32_t func) {
    uint64_t key = (uint64_t)t << 32 | func;
    uint32_t i = idmap_get(&p->tfmap, key);
    if (i != PROF_NONE) return &p->tf[i];
    if (p->ntf >= PROF_NONE - 1 || !reserve((void **)&p->tf, &p->captf, p->ntf, sizeof *p->tf) ||
        idmap_put(&p->tfmap, key, (uint32_t)p->ntf)) {
        p->oom = true;
        return NULL;
    }
    pthfunc_t *x = &p->tf[p->ntf++];
    memset(x, 0, sizeof *x);
    x->thr = t;
    x->func = func;
    return x;
}

/* a new thread slot of a hart; PROF_NONE when out of memory */
static uint32_t thr_new(prof_t *p, unsigned hart, uint64_t id, bool named) {
    if (p->nthr >= PROF_NONE - 1 || !reserve((void **)&p->thr, &p->capthr, p->nthr, sizeof *p->thr)) {
        p->oom = true;
        return PROF_NONE;
    }
    pthr_t *t = &p->thr[p->nthr];
    memset(t, 0, sizeof *t);
    t->hart = hart;
    t->id = id;
    t->named = named;
    return (uint32_t)p->nthr++;
}

/* the hart's running thread (its slot made on first use, the model's stack switched to it) */
static uint32_t cur_thr(prof_t *p, pcore_t *c) {
    if (c->thr == PROF_NONE && (c->thr = thr_new(p, c->hart, 0, false)) != PROF_NONE && cs_switch(&c->cs, c->thr))
        p->oom = true;
    return c->thr;
}

static uint64_t edge_key(uint32_t caller, uint32_t callee) { return (uint64_t)caller << 32 | callee; }

static uint32_t edge_id(prof_t *p, uint32_t caller, uint32_t callee) {
    uint32_t e = idmap_get(&p->emap, edge_key(caller, callee));
    if (e != PROF_NONE) return e;
    if (p->nedge >= PROF_NONE - 1 || !reserve((void **)&p->edge, &p->capedge, p->nedge, sizeof *p->edge) ||
        idmap_put(&p->emap, edge_key(caller, callee), (uint32_t)p->nedge)) {
        p->oom = true;
        return PROF_NONE;
    }
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
        idmap_put(&p->smap, addr, (uint32_t)p->nsite)) {
        p->oom = true;
        return NULL;
    }
    prof_site_t *st = &p->site[p->nsite++];
    memset(st, 0, sizeof *st);
    uint64_t start;
    st->addr = addr;
    st->name = sym(p, addr, &start);
    if (p->o.line) st->file = p->o.line(p->o.line_ctx, addr, &st->line);
    return st;
}

/* one clone suffix at s ("." and a known word, then ".N" digits for the numbered ones): its length, or 0 */
static size_t clone_suffix(const char *s) {
    static const struct {
        const char *w;
        bool num;
    } sfx[] = {
        {".constprop", true}, {".isra", true}, {".part", true}, {".lto_priv", true}, {".cold", false}};
    for (unsigned i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        size_t n = strlen(sfx[i].w);
        if (strncmp(s, sfx[i].w, n)) continue;
        if (sfx[i].num) {
            if (s[n] != '.' || s[n + 1] < '0' || s[n + 1] > '9') continue;
            n++;
            while (s[n] >= '0' && s[n] <= '9') n++;
        }
        if (s[n] == 0 || s[n] == '.') return n;
    }
    return 0;
}

size_t prof_source_name_len(const char *name) {
    size_t len = strlen(name);
    /* the name ends with clone suffixes only from the first dot that starts one */
    for (const char *d = strchr(name, '.'); d; d = strchr(d + 1, '.')) {
        const char *q = d;
        size_t n;
        while ((n = clone_suffix(q))) q += n;
        if (!*q && d != name) return (size_t)(d - name);
    }
    return len;
}

static prof_isr_t *isr_of(prof_t *p, uint64_t pc) {
    uint64_t start;
    const char *name = sym(p, pc, &start);
    uint32_t s = idmap_get(&p->imap, start);
    if (s != PROF_NONE) return &p->isr[s];
    size_t blen = name ? prof_source_name_len(name) : 0;
    for (size_t i = 0; name && i < p->nisr; i++) /* another clone of the same function */
        if (p->isr[i].func && strlen(p->isr[i].func) == blen && !strncmp(p->isr[i].func, name, blen)) {
            if (idmap_put(&p->imap, start, (uint32_t)i)) {
                p->oom = true;
                return NULL;
            }
            p->isr[i].symbols++;
            return &p->isr[i];
        }
    char *base = NULL;
    if (name) {
        if (!(base = malloc(blen + 1))) {
            p->oom = true;
            return NULL;
        }
        memcpy(base, name, blen);
        base[blen] = 0;
    }
    if (p->nisr >= PROF_NONE - 1 || !reserve((void **)&p->isr, &p->capisr, p->nisr, sizeof *p->isr) ||
        idmap_put(&p->imap, start, (uint32_t)p->nisr)) {
        free(base);
        p->oom = true;
        return NULL;
    }
    prof_isr_t *is = &p->isr[p->nisr++];
    memset(is, 0, sizeof *is);
    is->addr = start;
    is->name = name;
    is->func = base;
    is->symbols = 1;
    return is;
}

/* ---- events ----------------------------------------------------------------------------- */
void prof_header(void *vp, const perf_header_t *h) {
    prof_t *p = vp;
    pcore_t *c = &p->core[h->core % PERF_MAX_CORES];
    p->st.headers++;
    memset(c->based, 0, sizeof c->based); /* new reference values, same call stack */
    c->have_manual = false;
    for (unsigned i = 0; i < h->n && i < PERF_MAX_COUNTERS; i++) {
        const perf_counter_def_t *d = &h->def[i];
        col_t *col = &p->col[d->index % PERF_MAX_COUNTERS];
        char name[48];
        perf_counter_name(d, name, sizeof name);
        if (d->type == TS_PW_EV_HW_RAW && d->index != TS_PW_COUNTER_TS) raw_event_name(d->event_data, name, sizeof name);
        if (!col->used) {
            col->used = true;
            col->def = *d;
            snprintf(col->name, sizeof col->name, "%s", name);
        } else if (strcmp(col->name, name)) {
            warn(p, "counter %u counts %s after counting %s: its columns add both up", d->index, name, col->name);
        }
    }
}

/* a frame closes (callstack.h): its total is the running totals' change since its enter */
static void frame_closed(void *ctx, uint64_t thread, const cs_frame_t *cf, void *user, cs_why_t why) {
    pcore_t *c = ctx;
    prof_t *p = c->p;
    const frame_t *fr = user;
    char b1[32];
    (void)thread;
    (void)cf;
    if (p->finishing) { /* charged up to the last record */
        p->func[fr->func].still_active++;
        p->st.still_active++;
        if (!p->thr[fr->thr].named && p->st.switches) p->unnamed_open++;
    }
    if (why == CS_UNWOUND)
        warn(p, "hart %u: %s left without its exit record: it ends at the exit of a function below it", c->hart,
             fname(p, fr->func, b1, sizeof b1));
    else if (why == CS_REPAIR && p->o.warn)
        warn(p, "hart %u: %s left without its exit record (longjmp or the like): it ends at the record before an enter "
                "called from below it",
             c->hart, fname(p, fr->func, b1, sizeof b1));
    pthfunc_t *tf = tf_of(p, fr->thr, fr->func);
    if (tf) tf->active--;
    if (!fr->outer) return; /* an inner activation of a recursion */
    /* the running totals of the frame's thread: the hart's while it runs, else as parked */
    const uint64_t *cum = fr->thr == c->thr ? c->cum : p->thr[fr->thr].cum;
    uint64_t hook_cum = fr->thr == c->thr ? c->hook_cum : p->thr[fr->thr].hook_cum;
    p->func[fr->func].hook_total += hook_cum - fr->hook_cum;
    p->edge[fr->edge].hook_total += hook_cum - fr->hook_cum;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        uint64_t incl = cum[x] - fr->cum[x];
        p->func[fr->func].total[x] += incl;
        p->edge[fr->edge].total[x] += incl;
    }
}

static uint32_t top_func(const pcore_t *c) {
    size_t n = cs_depth(&c->cs);
    return n ? ((const frame_t *)cs_user_at(&c->cs, n - 1))->func : PROF_NONE;
}

static void enter(prof_t *p, pcore_t *c, unsigned hart, const perf_record_t *r, uint32_t top, const rs_pre_t *pre) {
    uint32_t f = func_id(p, r->addr);
    if (f == PROF_NONE) return;
    p->func[f].calls++;
    pthfunc_t *tf = tf_of(p, c->thr, f);
    if (!tf) return;
    tf->calls++;
    uint32_t e = edge_id(p, top, f);
    if (e == PROF_NONE) return;
    p->edge[e].calls++;
    if (cs_depth(&c->cs) >= PROF_MAX_DEPTH) {
        if (!p->st.too_deep++) warn(p, "hart %u: call stack deeper than %u frames: deeper calls are counted but not followed", hart, PROF_MAX_DEPTH);
        return;
    }
    frame_t *fr = rs_push(&c->cs, r, f, pre);
    if (!fr) {
        p->oom = true;
        return;
    }
    fr->func = f;
    fr->edge = e;
    fr->thr = c->thr;
    fr->outer = tf->active++ == 0; /* per thread: a parked thread's frames are not below it */
    memcpy(fr->cum, c->cum, sizeof fr->cum);
    fr->hook_cum = c->hook_cum;
    if (p->o.path_enter) p->o.path_enter(p->o.path_ctx, hart, c->thr, &c->cs);
}

static void leave(prof_t *p, pcore_t *c, unsigned hart, const perf_record_t *r) {
    char b1[256];
    uint32_t f = idmap_get(&p->fmap, r->addr);
    if (f == PROF_NONE || cs_exit(&c->cs, f)) {
        p->st.unmatched_exits++;
        snprintf(b1, sizeof b1, "0x%08" PRIx64, r->addr);
        warn(p, "hart %u: exit from %s without a matching enter (ignored)", hart,
             f != PROF_NONE ? fname(p, f, b1, sizeof b1) : b1);
    }
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

void prof_hook_traps(prof_t *p, unsigned hart, uint64_t handler, uint64_t late, uint64_t moved) {
    pcore_t *c = &p->core[hart % PERF_MAX_CORES];
    c->hook_traps = handler + late;
    c->hook_moved = moved;
    p->st.handler_in_hooks += handler;
    if (handler) p->st.handler_traps++;
}

void prof_record(void *vp, const perf_record_t *r) {
    prof_t *p = vp;
    if (p->oom) return;
    unsigned hart = r->core % PERF_MAX_CORES;
    pcore_t *c = &p->core[hart];
    p->st.records++;
    if (cur_thr(p, c) == PROF_NONE || p->oom) return;
    if (r->gap_before) { /* perf data lost: new stack, new baseline */
        p->st.gaps++;
        size_t d = cs_depth(&c->cs);
        if (d)
            warn(p, "hart %u: perf data lost before a record: the call stack (%zu frame(s)) ends at the last record before it",
                 hart, d);
        p->st.gap_ended += d; /* charged up to the last record before the gap */
        cs_clear(&c->cs);
        memset(c->based, 0, sizeof c->based);
        c->have_manual = false;
        c->hook_post = 0;
    }
    /* the record's hook cost (prof_hook), by type */
    bool hook = c->hook_set;
    if (p->st.hooks) {
        if (hook && !r->truncated && (unsigned)r->type < 4) {
            p->st.hook_n[r->type]++;
            p->st.hook_cycles[r->type] += c->hook_pre + c->hook_next_post + c->hook_moved;
        } else {
            p->st.hook_unmeasured++;
        }
    }
    if (p->cyc < 0) p->cyc = prof_cycles_index(p);
    /* frames control left by another route than their exit records (callstack.h): an enter
     * called from below the top of the stack (longjmp), an exit of a function below the top;
     * they end at the previous record, and this record's interval is split between them and
     * the frame control went to in unknown shares: not attributed */
    bool split = c->switched; /* a thread switch in the interval: the threads' shares
                                                are unknown, and no frame has it all */
    rs_pre_t pre = {.top = CS_NO_FUNC};
    if (!r->truncated && !r->addr_unknown && (r->type == PERF_FUNC_ENTER || r->type == PERF_FUNC_EXIT)) {
        rs_before(&c->cs, p->o.site, p->o.site_ctx, r, r->type == PERF_FUNC_EXIT ? idmap_get(&p->fmap, r->addr) : CS_NO_FUNC, &pre);
        if (pre.closed) {
            split = true;
            p->func[pre.top].left_top++;
            if (pre.repair) {
                p->st.repairs++;
                p->st.repaired += pre.closed;
            } else
                p->st.unwound += pre.closed;
        }
    }
    /* the counters' change since the previous record belongs to the function on top */
    uint32_t top = top_func(c);
    pthfunc_t *ttf = top != PROF_NONE && !split ? tf_of(p, c->thr, top) : NULL;
    uint64_t dl[PERF_MAX_COUNTERS], dh = 0; /* this record's counted changes (ISR samples) */
    uint32_t known = 0;
    for (unsigned i = 0; i < r->n && i < PERF_MAX_COUNTERS; i++) {
        unsigned x = r->index[i] % PERF_MAX_COUNTERS;
        if (r->delta_unknown >> i & 1) continue; /* nothing known to count */
        if (!c->based[x]) {
            c->based[x] = true;
            continue;
        } /* first value: the reference */
        uint64_t d = r->delta[i];
        dl[x] = d;
        known |= 1u << x;
        if (!c->switched) c->cum[x] += d; /* the running thread's totals */
        p->trace_total[x] += d;
        if (split) p->unattributed[x] += d;
        else if (top != PROF_NONE) {
            p->func[top].self[x] += d;
            if (ttf) ttf->self[x] += d;
        } else
            p->outside[x] += d;
        if (c->switched) p->unattr_switch[x] += d;
        if ((int)x == p->cyc) { /* hook cycles inside this delta */
            uint64_t h = c->hook_post + c->hook_pre + c->hook_traps;
            if (h > d) h = d;
            if (!c->switched) c->hook_cum += h;
            dh = h;
            p->st.hook_counted += h;
            if (split) p->st.hook_unattributed += h;
            else if (top != PROF_NONE) {
                p->func[top].hook_self += h;
                if (ttf) ttf->hook_self += h;
            } else
                p->st.hook_outside += h;
            if (c->switched) p->hook_unattr_switch += h;
        }
    }
    if (p->o.path_interval && known) p->o.path_interval(p->o.path_ctx, hart, c->thr, &c->cs, split, dl, known, dh);
    if (split && !c->switched) p->st.unattributed_intervals++;
    if (c->switched) p->st.switch_intervals++;
    c->switched = false;
    c->hook_post = c->hook_next_post;
    c->hook_set = false;
    c->hook_pre = c->hook_next_post = c->hook_traps = c->hook_moved = 0;
    if (r->truncated) {
        p->st.truncated++;
        return;
    }
    if (r->addr_unknown) {
        p->st.unknown_addr++;
        return;
    }
    switch (r->type) {
    case PERF_FUNC_ENTER:
        p->st.enters++;
        enter(p, c, hart, r, top, &pre);
        break;
    case PERF_FUNC_EXIT:
        p->st.exits++;
        leave(p, c, hart, r);
        break;
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
        if (!s) return;
        s->samples++;
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
            if (known >> x & 1) {
                s->intervals[x]++;
                s->sum[x] += dl[x];
            }
        s->hook_sum += dh;
        break;
    }
    }
}

void prof_finish(prof_t *p) {
    if (p->oom) return;
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) {
        pcore_t *c = &p->core[h];
        p->finishing = true; /* every thread's frames: still active (frame_closed) */
        cs_clear_all(&c->cs);
        p->finishing = false;
    }
}

void prof_thread(prof_t *p, unsigned hart, uint64_t id) {
    pcore_t *c = &p->core[hart % PERF_MAX_CORES];
    if (p->oom) return;
    uint32_t cur = cur_thr(p, c);
    if (cur == PROF_NONE) return;
    p->st.switch_events++;
    if (p->thr[cur].named && p->thr[cur].id == id) return; /* a tp write that keeps the thread */
    uint32_t nt = PROF_NONE;
    for (size_t i = 0; i < p->nthr && nt == PROF_NONE; i++)
        if (p->thr[i].hart == c->hart && p->thr[i].named && p->thr[i].id == id) nt = (uint32_t)i;
    if (nt == PROF_NONE && !p->thr[cur].named && !cs_depth(&c->cs)) {
        p->thr[cur].named = true; /* what ran before has no frames: it was this thread */
        p->thr[cur].id = id;
        p->thr[cur].switches_in++;
        return;
    }
    if (nt == PROF_NONE && (nt = thr_new(p, c->hart, id, true)) == PROF_NONE) return;
    pthr_t *t = &p->thr[cur];
    memcpy(t->cum, c->cum, sizeof t->cum); /* parked */
    t->hook_cum = c->hook_cum;
    if (cs_switch(&c->cs, nt)) {
        p->oom = true;
        return;
    }
    c->thr = nt;
    memcpy(c->cum, p->thr[nt].cum, sizeof c->cum);
    c->hook_cum = p->thr[nt].hook_cum;
    p->thr[nt].switches_in++;
    p->st.switches++;
    c->switched = true;
}

/* ---- queries ---------------------------------------------------------------------------- */
bool prof_thread_info(const prof_t *p, uint32_t thread, unsigned *hart, uint64_t *id) {
    if (thread >= p->nthr) return false;
    *hart = p->thr[thread].hart;
    *id = p->thr[thread].id;
    return p->thr[thread].named;
}
const char *prof_counter_name(const prof_t *p, unsigned x) { return x < PERF_MAX_COUNTERS && p->col[x].used ? p->col[x].name : NULL; }
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
uint64_t prof_unattributed(const prof_t *p, unsigned index) { return index < PERF_MAX_COUNTERS ? p->unattributed[index] : 0; }

/* ---- output ----------------------------------------------------------------------------- */
typedef struct key {
    uint64_t k1, k2, k3, k4;
    uint32_t i;
} skey_t;

static int by_key(const void *a, const void *b) { /* k1..k3 descending, k4 ascending */
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
static uint64_t t_unattr(const prof_t *p, unsigned x) { return p->unattributed[x] - (comp(p, x) ? p->st.hook_unattributed : 0); }
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
    else
        fprintf(o, "%*s", w, "-");
}

static const enum prof_field default_fields[] = {PF_PERCENT, PF_CALLS, PF_SELF, PF_TOTAL, PF_FUNCTION};

static const enum prof_field *fields_of(const prof_t *p, unsigned *n) {
    if (p->o.nfields) {
        *n = p->o.nfields;
        return p->o.fields;
    }
    *n = sizeof default_fields / sizeof default_fields[0];
    return default_fields;
}

/* one column heading of the flat profile (counter x for the per-counter fields) */
static void field_head(const prof_t *p, enum prof_field f, unsigned x, char *h, size_t len, bool csv) {
    static const char *const pre[] = {[PF_SELF] = "self", [PF_TOTAL] = "total", [PF_SELF_MEAN] = "mean self", [PF_TOTAL_MEAN] = "mean total"};
    static const char *const suf[] = {[PF_SELF] = "self", [PF_TOTAL] = "total", [PF_SELF_MEAN] = "self_mean", [PF_TOTAL_MEAN] = "total_mean"};
    switch (f) {
    case PF_SELF:
    case PF_TOTAL:
    case PF_SELF_MEAN:
    case PF_TOTAL_MEAN:
        if (csv) snprintf(h, len, "%s_%s", p->col[x].name, suf[f]);
        else
            snprintf(h, len, "%s %s", pre[f], p->col[x].name);
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
        else
            fprintf(o, "%*s", w, csv ? "" : "-");
        break;
    case PF_CALLS: fprintf(o, "%*" PRIu64, w, f->calls); break;
    case PF_SELF: fprintf(o, "%*" PRIu64, w, f_self(p, f, x)); break;
    case PF_TOTAL: fprintf(o, "%*" PRIu64, w, f_total(p, f, x)); break;
    case PF_SELF_MEAN:
    case PF_TOTAL_MEAN: {
        uint64_t v = fl == PF_SELF_MEAN ? f_self(p, f, x) : f_total(p, f, x);
        if (f->calls) fprintf(o, "%*.1f", w, (double)v / (double)f->calls);
        else
            fprintf(o, "%*s", w, csv ? "" : "-");
        break;
    }
    case PF_HOOK:
        if (p->st.hooks) fprintf(o, "%*" PRIu64, w, f->hook_self);
        else
            fprintf(o, "%*s", w, csv ? "" : "-");
        break;
    case PF_ADDRESS: fprintf(o, "%*s0x%08" PRIx64, w > 10 ? w - 10 : 0, "", f->addr); break;
    case PF_FUNCTION:
        if (csv) ts_csv_field(o, f->name ? f->name : "");
        else
            fprintf(o, "%s%s", fname(p, fi, nb, sizeof nb), f->still_active ? " (still active)" : "");
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
        if (csv && hart >= 0) {
            if (f) fprintf(o, "%d", hart);
            else
                fputs("hart", o);
            first = false;
        }
        if (!csv) fputc(' ', o);
        for (unsigned i = 0; i < nf;) {
            unsigned j = i + 1; /* [i, j): one field, or a group of per-counter ones */
            if (per_counter(fl[i]))
                while (j < nf && per_counter(fl[j])) j++;
            for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
                if (per_counter(fl[i]) && !p->col[x].used) continue;
                for (unsigned g = i; g < j; g++) {
                    field_head(p, fl[g], x, h, sizeof h, csv);
                    int w = csv ? 0 : fl[g] == PF_PERCENT ? 7 :
                                  fl[g] == PF_CALLS       ? 9 :
                                  fl[g] == PF_FUNCTION    ? 0 :
                                                            (int)(strlen(h) < 12 ? 12 : strlen(h));
                    if (csv) {
                        if (!first) fputc(',', o);
                    } else
                        fputs(fl[g] == PF_PERCENT || fl[g] == PF_CALLS ? " " : "  ", o);
                    first = false;
                    if (!f) fprintf(o, "%*s", w, h);
                    else
                        cell(p, o, f, fi, fl[g], x, w, csv);
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
    if (x0 >= 0) {
        fprintf(o, "\n  %s over the trace: %" PRIu64 ", of which outside any traced function: %" PRIu64, p->col[x0].name,
                t_total(p, (unsigned)x0), t_outside(p, (unsigned)x0));
        if (p->st.unattributed_intervals || p->st.switch_intervals)
            fprintf(o, ", not attributed: %" PRIu64 " (%s: Notes)", t_unattr(p, (unsigned)x0),
                    !p->st.switch_intervals ? "control left a function without its exit record" : !p->st.unattributed_intervals ? "intervals with a thread switch" :
                                                                                                                                  "intervals with a thread switch, or in which control left a function without its exit record");
        fputc('\n', o);
    }
}

/* one call-graph line: calls as "a/b" (or a alone), the totals, the name */
static void cg_line(const prof_t *p, FILE *o, const char *index, double share, bool with_share,
                    const char *calls, const uint64_t *tot, const char *name) {
    fprintf(o, "  %-7s", index);
    if (with_share) fprintf(o, " %7.2f", share);
    else
        fprintf(o, " %7s", "");
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
        for (size_t n2 = 0; ek && n2 < ne; n2++) { /* callers */
            const prof_edge_t *ed = &p->edge[ek[n2].i];
            char nm[96];
            snprintf(calls, sizeof calls, "%" PRIu64 "/%" PRIu64, ed->calls, fn->calls);
            if (ed->caller == PROF_NONE) snprintf(nm, sizeof nm, "    <spontaneous>");
            else
                snprintf(nm, sizeof nm, "    %.60s [%u]", fname(p, ed->caller, nb, sizeof nb), rank[ed->caller]);
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
        for (size_t n2 = 0; ek && n2 < ne; n2++) { /* callees */
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
               "  the call site's file:line.\n\n",
            p->o.compensate ? "; cycles without the perf hooks' cycles" : "");
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
    qsort(k, p->nsite, sizeof *k, by_key); /* by address */
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
            else
                fprintf(o, "  %*s", w, "-");
            fprintf(o, "  %*" PRIu64, w, sum);
        }
        char src[300];
        if (s->file) snprintf(src, sizeof src, "%s:%u", s->file, s->line);
        else
            snprintf(src, sizeof src, "-");
        char eb[300], nb[256];
        fprintf(o, "  %-*s  %s\n", wsrc, ts_text_esc(src, eb, sizeof eb), s->name ? ts_text_esc(s->name, nb, sizeof nb) : "");
    }
    free(k);
}

/* per thread (with thread switches): its functions' calls and self of the primary counter */
static void threads_table(const prof_t *p, FILE *o) {
    if (!p->st.switch_events || !p->ntf) return;
    int x0 = primary(p);
    char nb[48];
    fprintf(o, "\nThreads (a call stack per thread from the THREAD_SWITCH events; each thread's functions' calls and\n"
               "self %s%s; the intervals with a switch are not attributed: Notes)\n",
            x0 >= 0 ? p->col[x0].name : "-",
            p->o.compensate ? ", compensated" : "");
    skey_t *k = malloc(p->ntf * sizeof *k);
    if (!k) return;
    for (size_t t = 0; t < p->nthr; t++) {
        size_t nk = 0;
        uint64_t self = 0;
        for (size_t i = 0; i < p->ntf; i++) {
            const pthfunc_t *x = &p->tf[i];
            if (x->thr != t) continue;
            uint64_t v = x0 >= 0 ? x->self[x0] - (comp(p, (unsigned)x0) ? x->hook_self : 0) : 0;
            self += v;
            k[nk++] = (skey_t){v, x->calls, 0, p->func[x->func].addr, (uint32_t)i};
        }
        if (!nk) continue;
        qsort(k, nk, sizeof *k, by_key);
        const pthr_t *th = &p->thr[t];
        uint64_t start;
        const char *n = th->named ? sym(p, th->id, &start) : NULL;
        if (!th->named) fprintf(o, "\n  hart %u, before its first thread switch", th->hart);
        else if (n && th->id != start)
            fprintf(o, "\n  hart %u, thread 0x%08" PRIx64 " (%s+0x%" PRIx64 ")", th->hart, th->id, n, th->id - start);
        else if (n)
            fprintf(o, "\n  hart %u, thread 0x%08" PRIx64 " (%s)", th->hart, th->id, n);
        else
            fprintf(o, "\n  hart %u, thread 0x%08" PRIx64, th->hart, th->id);
        fprintf(o, ": switched in %" PRIu64 " time(s), self %s %" PRIu64 "\n\n  %12s %14s  function\n", th->switches_in,
                x0 >= 0 ? p->col[x0].name : "-", self, "calls", "self");
        for (size_t i = 0; i < nk; i++) {
            const pthfunc_t *x = &p->tf[k[i].i];
            fprintf(o, "  %12" PRIu64 " %14" PRIu64 "  %s\n", x->calls, k[i].k1, fname(p, x->func, nb, sizeof nb));
        }
    }
    free(k);
}

static void isr_table(const prof_t *p, FILE *o) {
    if (!p->nisr) return;
    fprintf(o, "\nISR samples (the interrupted pc of each ISR record)\n\n"
               "  samples: ISR records whose pc lies in the source function (GCC's clones such as\n"
               "  f.constprop.0, f.isra.0, f.part.0, f.cold counted as f; the symbols merged in brackets),\n"
               "  or at the pc without symbols; %%: share of all %" PRIu64 " samples. Per counter the sum of\n"
               "  the counter's change from the hart's previous record to the sample (the sampling period\n"
               "  before the interrupt) and its mean per sample%s.\n\n  %9s %7s",
            p->st.isr, p->o.compensate ? "; cycles compensated" : "", "samples", "%");
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        if (!p->col[x].used) continue;
        char h[64];
        snprintf(h, sizeof h, "mean %s", p->col[x].name);
        fprintf(o, "  %*s", (int)width("mean ", p->col[x].name), h);
        snprintf(h, sizeof h, "sum %s", p->col[x].name);
        fprintf(o, "  %*s", (int)width("total ", p->col[x].name), h);
    }
    fputs("  function\n", o);
    skey_t *k = malloc(p->nisr * sizeof *k);
    if (!k) return;
    for (size_t i = 0; i < p->nisr; i++) k[i] = (skey_t){p->isr[i].samples, 0, 0, p->isr[i].addr, (uint32_t)i};
    qsort(k, p->nisr, sizeof *k, by_key);
    for (size_t n = 0; n < p->nisr; n++) {
        const prof_isr_t *s = &p->isr[k[n].i];
        fprintf(o, "  %9" PRIu64 " ", s->samples);
        pct(o, s->samples, p->st.isr, 7);
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
            if (!p->col[x].used) continue;
            uint64_t sum = s->sum[x] - (comp(p, x) ? s->hook_sum : 0);
            if (s->intervals[x]) fprintf(o, "  %*.1f", (int)width("mean ", p->col[x].name), (double)sum / (double)s->intervals[x]);
            else
                fprintf(o, "  %*s", (int)width("mean ", p->col[x].name), "-");
            fprintf(o, "  %*" PRIu64, (int)width("total ", p->col[x].name), sum);
        }
        if (!s->func) {
            fprintf(o, "  0x%08" PRIx64 "\n", s->addr);
            continue;
        }
        fputs("  ", o); /* names from the ELF: control characters escaped (ts_text.h) */
        ts_text_put(o, s->func);
        if (s->symbols > 1 || strcmp(s->func, s->name)) {
            fputs(" (", o);
            ts_text_put(o, s->name);
            if (s->symbols > 1) fprintf(o, " and %u other symbol(s)", s->symbols - 1);
            fputc(')', o);
        }
        fputc('\n', o);
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
          "  record type; measured, not estimated (hook_cost.h).\n\n",
          o);
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
    if (n) fprintf(o, " %10.1f\n", (double)cyc / (double)n);
    else
        fputc('\n', o);
    if (s->hook_unmeasured)
        fprintf(o, "  %" PRIu64 " record(s) not measured (from the first record after lost perf data, or with no hook call\n"
                   "    of its kind and cycle count in flow.csv/counters.csv, on: their hook cycles count as the function's own)\n",
                s->hook_unmeasured);
    int x = p->cyc;
    if (x >= 0) {
        fprintf(o, "  %" PRIu64 " of these cycles lie between the first and the last record: %.2f %% of the %" PRIu64 " cycles of the profile%s\n", s->hook_counted,
                p->trace_total[x] ? 100.0 * (double)s->hook_counted / (double)p->trace_total[x] : 0.0, p->trace_total[x],
                p->o.compensate ? "; subtracted from every cycles figure above (--compensate)" : "; --compensate subtracts them from every cycles figure");
        if (s->handler_in_hooks)
            fprintf(o, "  with them %" PRIu64 " cycles of trap handlers taken inside a hook, outside any hook (the handler's own\n"
                       "    entry and exit code, in %" PRIu64 " interval(s)): neither the hook's cost nor the interrupted function's\n",
                    s->handler_in_hooks, s->handler_traps);
    } else {
        fputs("  the records carry no cycles counter: nothing to compensate\n", o);
    }
}

static void notes(const prof_t *p, FILE *o) {
    const prof_stats_t *s = &p->st;
    char nb[256];
    instrumentation(p, o);
    fprintf(o, "\nNotes\n\n");
    fprintf(o, "  %" PRIu64 " record(s): %" PRIu64 " enter, %" PRIu64 " exit, %" PRIu64 " manual, %" PRIu64 " ISR; %" PRIu64 " perf header(s)\n", s->records, s->enters, s->exits, s->manual, s->isr, s->headers);
    if (s->truncated) fprintf(o, "  %" PRIu64 " record(s) cut off (truncated): not used\n", s->truncated);
    if (s->unmatched_exits) fprintf(o, "  %" PRIu64 " exit record(s) without a matching enter: ignored\n", s->unmatched_exits);
    if (s->unwound) fprintf(o, "  %" PRIu64 " frame(s) without an exit, ended by the exit of a function below them\n", s->unwound);
    if (s->repairs)
        fprintf(o, "  %" PRIu64 " enter record(s) called from below the top of the call stack (the call site is not in the\n"
                   "    top frame's function: a longjmp or another non-local exit): %" PRIu64 " frame(s) without an exit\n"
                   "    closed there (repairs)\n",
                s->repairs, s->repaired);
    if (s->switches || s->switch_events) {
        int x0 = primary(p);
        fprintf(o, "  %" PRIu64 " thread switch(es) (THREAD_SWITCH events: %" PRIu64 "): a call stack per thread; the %" PRIu64 " interval(s)\n    between two records with a switch in them are not attributed",
                s->switches, s->switch_events, s->switch_intervals);
        if (x0 >= 0)
            fprintf(o, " (%" PRIu64 " %s)", p->unattr_switch[x0] - (comp(p, (unsigned)x0) ? p->hook_unattr_switch : 0),
                    p->col[x0].name);
        fputs(" and\n    count in no frame's total (a thread's frames do not go on while it is switched out)\n", o);
    }
    if (s->unattributed_intervals) {
        int x0 = primary(p);
        uint64_t u = x0 >= 0 ? t_unattr(p, (unsigned)x0) - (p->unattr_switch[x0] - (comp(p, (unsigned)x0) ? p->hook_unattr_switch : 0)) : 0;
        fprintf(o, "  %" PRIu64 " interval(s) between two records in which control left a function without its exit\n"
                   "    record: the frames left end at the record before, and the interval's",
                s->unattributed_intervals);
        if (x0 >= 0) fprintf(o, " %" PRIu64 " %s are\n    not", u, p->col[x0].name);
        else
            fputs(" counts are\n    not", o);
        fputs(" attributed (the trace does not say where control left): left from", o);
        for (size_t i = 0; i < p->nfunc; i++)
            if (p->func[i].left_top) fprintf(o, " %s (%" PRIu64 ")", fname(p, (uint32_t)i, nb, sizeof nb), p->func[i].left_top);
        fputc('\n', o);
    }
    if (s->too_deep) fprintf(o, "  %" PRIu64 " enter record(s) beyond %u frames: counted, not followed\n", s->too_deep, PROF_MAX_DEPTH);
    if (s->gaps)
        fprintf(o, "  %" PRIu64 " gap(s): perf data lost before a record (ITC overflow, or the start of a wrapped trace);\n"
                   "    at each the call stack was reset (%" PRIu64 " frame(s) ended at the last record before it) and the\n"
                   "    counters' change across it is not counted\n",
                s->gaps, s->gap_ended);
    if (s->unknown_addr)
        fprintf(o, "  %" PRIu64 " record(s) after a gap with unknown addresses (DeltaXOR): not used\n", s->unknown_addr);
    if (s->still_active) {
        fprintf(o, "  %" PRIu64 " activation(s) still active at the end of the trace, charged up to the last record:", s->still_active);
        for (size_t i = 0; i < p->nfunc; i++)
            if (p->func[i].still_active)
                fprintf(o, " %s (%" PRIu64 ")", fname(p, (uint32_t)i, nb, sizeof nb), p->func[i].still_active);
        fputc('\n', o);
    }
    if (p->unnamed_open)
        fprintf(o, "  %" PRIu64 " of them opened before their hart's first thread switch, by a thread that had not written\n"
                   "    tp before it: the switch cannot say which thread that was, so its frames stay parked under \"before\n"
                   "    its first thread switch\" and their exits, made after the thread ran again under its tp, count as\n"
                   "    exits without an enter. Write tp once before the first switch (mv tp, tp; docs/commands/report.md, Threads)\n",
                p->unnamed_open);
    if (p->oom) fprintf(o, "  out of memory: the profile is incomplete\n");
}

int prof_write_text(const prof_t *p, FILE *o) {
    skey_t *kf = sorted_funcs(p, false), *kc = sorted_funcs(p, true);
    uint32_t *rank = malloc((p->nfunc ? p->nfunc : 1) * sizeof *rank);
    if (!kf || !kc || !rank) {
        free(kf);
        free(kc);
        free(rank);
        return -1;
    }
    for (size_t n = 0; n < p->nfunc; n++) rank[kc[n].i] = (uint32_t)n + 1;
    fputs("Counters:", o);
    bool any = false;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (p->col[x].used) {
            fprintf(o, "%s %s (index %u)", any ? "," : "", p->col[x].name, x);
            any = true;
        }
    fputs(any ? "\n\n" : " none\n\n", o);
    if (p->nfunc) {
        flat(p, o, kf);
        call_graph(p, o, kc, rank);
    } else {
        fputs("No function enter/exit records: no flat profile, no call graph.\n", o);
    }
    threads_table(p, o);
    manual_table(p, o);
    isr_table(p, o);
    notes(p, o);
    free(kf);
    free(kc);
    free(rank);
    return ferror(o) ? -1 : 0;
}

/* the CSV has a thread column: the trace has thread switches and per-thread figures */
static bool csv_threads(const prof_t *p) { return p->st.switch_events && p->ntf; }

bool prof_same_counters(const prof_t *a, const prof_t *b) {
    if (csv_threads(a) != csv_threads(b)) return false;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (a->col[x].used != b->col[x].used || (a->col[x].used && strcmp(a->col[x].name, b->col[x].name))) return false;
    return true;
}

/* with thread switches, after the totals (thread "all"): per thread (its tp, "0x%08x", or
 * "-" for what ran before the hart's first switch) and function, its calls, the share of
 * the trace total and self per counter (compensated as the totals); still_active and the
 * totals are empty (a thread's frames are counted in the totals of "all" rows). Threads in
 * the order they appeared, functions by self of the primary counter. */
static int thread_rows(const prof_t *p, FILE *o, int hart) {
    int x0 = primary(p);
    skey_t *k = malloc(p->ntf * sizeof *k);
    if (!k) return -1;
    for (size_t t = 0; t < p->nthr; t++) {
        size_t nk = 0;
        for (size_t i = 0; i < p->ntf; i++) {
            const pthfunc_t *x = &p->tf[i];
            if (x->thr != t) continue;
            uint64_t v = x0 >= 0 ? x->self[x0] - (comp(p, (unsigned)x0) ? x->hook_self : 0) : 0;
            k[nk++] = (skey_t){v, x->calls, 0, p->func[x->func].addr, (uint32_t)i};
        }
        qsort(k, nk, sizeof *k, by_key);
        const pthr_t *th = &p->thr[t];
        for (size_t i = 0; i < nk; i++) {
            const pthfunc_t *x = &p->tf[k[i].i];
            const prof_func_t *f = &p->func[x->func];
            if (hart >= 0) fprintf(o, "%d,", hart);
            if (th->named) fprintf(o, "0x%08" PRIx64 ",", th->id);
            else
                fputs("-,", o);
            ts_csv_field(o, f->name ? f->name : "");
            fprintf(o, ",0x%08" PRIx64 ",%" PRIu64 ",,", f->addr, x->calls);
            if (x0 >= 0 && t_total(p, (unsigned)x0)) fprintf(o, "%.2f", 100.0 * (double)k[i].k1 / (double)t_total(p, (unsigned)x0));
            for (unsigned c = 0; c < PERF_MAX_COUNTERS; c++)
                if (p->col[c].used) fprintf(o, ",%" PRIu64 ",", x->self[c] - (comp(p, c) ? x->hook_self : 0));
            fputc('\n', o);
        }
    }
    free(k);
    return 0;
}

/* hart < 0: no hart column */
static int write_csv(const prof_t *p, FILE *o, int hart, bool columns) {
    skey_t *k = sorted_funcs(p, false);
    if (!k) return -1;
    if (p->o.nfields) { /* --fields: those columns */
        flat_rows(p, o, k, true, hart, columns);
        free(k);
        return ferror(o) ? -1 : 0;
    }
    int x0 = primary(p);
    bool thr = csv_threads(p);
    if (columns) {
        if (hart >= 0) fputs("hart,", o);
        if (thr) fputs("thread,", o);
        fputs("function,address,calls,still_active,percent", o);
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
            if (p->col[x].used) fprintf(o, ",%s_self,%s_total", p->col[x].name, p->col[x].name);
        fputc('\n', o);
    }
    for (size_t n = 0; n < p->nfunc; n++) {
        const prof_func_t *f = &p->func[k[n].i];
        if (hart >= 0) fprintf(o, "%d,", hart);
        if (thr) fputs("all,", o);
        ts_csv_field(o, f->name ? f->name : "");
        fprintf(o, ",0x%08" PRIx64 ",%" PRIu64 ",%" PRIu64 ",", f->addr, f->calls, f->still_active);
        if (x0 >= 0 && t_total(p, (unsigned)x0)) fprintf(o, "%.2f", 100.0 * (double)f_self(p, f, (unsigned)x0) / (double)t_total(p, (unsigned)x0));
        for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
            if (p->col[x].used) fprintf(o, ",%" PRIu64 ",%" PRIu64, f_self(p, f, x), f_total(p, f, x));
        fputc('\n', o);
    }
    free(k);
    if (thr && thread_rows(p, o, hart)) return -1;
    return ferror(o) ? -1 : 0;
}

int prof_write_csv(const prof_t *p, FILE *o) { return write_csv(p, o, -1, true); }
int prof_write_csv_hart(const prof_t *p, FILE *o, unsigned hart, bool columns) { return write_csv(p, o, (int)hart, columns); }
