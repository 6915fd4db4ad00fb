/* perf_stream.c - decodes A and B of perf_check.c in step with the check; see perf_stream.h. */
#include "perf_stream.h"
#include <stdlib.h>
#include <string.h>

#define A_PIECE 1024 /* bytes of the trace decoded per step: a few records at most */

static bool rq_push(ps_rq_t *q, const perf_record_t *r, bool cut_by_gap) {
    if (q->head + q->n == q->cap) {
        if (q->head) {
            memmove(q->r, q->r + q->head, q->n * sizeof *q->r);
            q->head = 0;
        } else {
            size_t nc = q->cap ? 2 * q->cap : 16;
            crec_t *p = realloc(q->r, nc * sizeof *p);
            if (!p) return false;
            q->r = p;
            q->cap = nc;
        }
    }
    crec_t *c = &q->r[q->head + q->n++];
    memset(c, 0, sizeof *c);
    *c = (crec_t){r->type, r->has_addr, r->has_call_site, r->tics_valid, r->truncated, r->gap_before, r->addr_unknown, cut_by_gap, r->n, r->value_unknown, r->delta_unknown, r->addr, r->call_site, r->tics, r->addr_wire, r->call_site_wire, {0}};
    for (unsigned i = 0; i < r->n && i < PERF_MAX_COUNTERS; i++) c->raw[i] = r->raw[i];
    return true;
}

void ps_rq_pop(ps_rq_t *q) {
    if (!q->n) return;
    q->head++;
    q->n--;
    if (!q->n) q->head = 0;
}

/* ---- A ---- */
static void a_header(void *ctx, const perf_header_t *h) {
    (void)ctx;
    (void)h;
}
static void a_record(void *ctx, const perf_record_t *r) {
    ps_a_t *a = ctx;
    unsigned h = r->core % PS_NH;
    a->records[h]++;
    if (a->queue_recs && h == a->hart && !rq_push(&a->q, r, false)) a->oom = true;
}
static void a_error(void *ctx, unsigned core, uint64_t off, const char *what) {
    (void)off;
    if (strncmp(what, "warning: ", 9) && strncmp(what, "gap: ", 5)) ((ps_a_t *)ctx)->errors[core % PS_NH]++;
}
/* counts each source's ITC stores and notes after which one each Error message came */
static int a_elem(void *ctx, const ts_elem_t *e) {
    ps_a_t *a = ctx;
    unsigned h = e->src % PS_NH;
    if (e->type == TS_ELEM_OVERFLOW) {
        a->gaps[h]++;
        if (h == a->hart) {
            if (a->gh + a->gn == a->gcap) {
                if (a->gh) {
                    memmove(a->gq, a->gq + a->gh, a->gn * sizeof *a->gq);
                    a->gh = 0;
                } else {
                    size_t nc = a->gcap ? 2 * a->gcap : 16;
                    uint64_t *p = realloc(a->gq, nc * sizeof *p);
                    if (!p) {
                        a->oom = true;
                        goto feed;
                    }
                    a->gq = p;
                    a->gcap = nc;
                }
            }
            a->gq[a->gh + a->gn++] = a->stores[h];
        }
    }
feed:
    if (e->type == TS_ELEM_SWTRACE || e->type == TS_ELEM_OWNERSHIP) a->stores[h]++;
    perf_dec_feed_elem(a->pd, e);
    return 0;
}

int ps_a_open(ps_a_t *a, const char *path, const nxd_cfg_t *ncfg, const perf_check_cfg_t *cfg, const perf_header_t *cfgh,
              int ncfgh, unsigned hart, bool queue_recs) {
    memset(a, 0, sizeof *a);
    a->hart = hart;
    a->queue_recs = queue_recs;
    a->stopped_on_wrap = cfg->stopped_on_wrap;
    if (ts_trace_in_open(&a->tin, path, ncfg, cfg->wrapped)) return -1;
    a->pd = malloc(sizeof *a->pd);
    if (!a->pd) return -2;
    perf_dec_cb_t cb = {a, a_header, a_record, a_error};
    perf_dec_init(a->pd, cfg->channel, &cb);
    for (int k = 0; k < ncfgh; k++) perf_dec_set_config(a->pd, &cfgh[k]);
    ts_elem_init(&a->es, a_elem, a);
    return 0;
}

bool ps_a_step(ps_a_t *a) {
    if (a->ended) return false;
    ts_trace_in_step(&a->tin, A_PIECE, ts_elem_from_msg, &a->es);
    if (a->tin.done) {
        ts_elem_eot(&a->es, a->tin.end);
        if (a->stopped_on_wrap) perf_dec_ended_early(a->pd); /* a pending low word may have lost its high part */
        perf_dec_finish(a->pd);
        a->ended = true;
    }
    return true;
}

void ps_a_close(ps_a_t *a) {
    ts_trace_in_close(&a->tin);
    free(a->pd);
    free(a->q.r);
    free(a->gq);
    memset(a, 0, sizeof *a);
}

const crec_t *ps_a_next(ps_a_t *a) {
    while (!a->q.n && !a->ended) ps_a_step(a);
    return a->q.n ? &a->q.r[a->q.head] : NULL;
}

/* ---- B ---- */
static void b_header(void *ctx, const perf_header_t *h) {
    ps_b_t *b = ctx;
    b->h = *h;
    b->have_h = true;
    if (b->on_header) b->on_header(b->hd_ctx, h, b->nhd);
    b->nhd++;
}
static void b_record(void *ctx, const perf_record_t *r) {
    ps_b_t *b = ctx;
    b->records++;
    b->manual |= r->type == PERF_MANUAL;
    b->hooks |= r->type == PERF_FUNC_ENTER || r->type == PERF_FUNC_EXIT;
    if (b->queue_recs && !rq_push(&b->q, r, b->in_gap)) b->oom = true;
}
static void b_error(void *ctx, unsigned core, uint64_t off, const char *what) {
    (void)core;
    (void)off;
    if (strncmp(what, "warning: ", 9) && strncmp(what, "gap: ", 5)) ((ps_b_t *)ctx)->errors++;
}
static void b_gap(ps_b_t *b, const char *why) {
    b->in_gap = true;
    perf_dec_gap(b->pd, b->hart, 0, why);
    b->in_gap = false;
}

int ps_b_open(ps_b_t *b, const perf_check_cfg_t *cfg, unsigned hart, size_t base, ps_store_fn store, void *store_ctx, ps_a_t *a,
              bool queue_recs) {
    void (*on_header)(void *, const perf_header_t *, uint64_t) = b->on_header;
    void *hd_ctx = b->hd_ctx;
    memset(b, 0, sizeof *b);
    b->on_header = on_header;
    b->hd_ctx = hd_ctx;
    b->hart = hart;
    b->queue_recs = queue_recs;
    b->store = store;
    b->store_ctx = store_ctx;
    b->a = a;
    b->base = base;
    b->wrapped = cfg->wrapped;
    b->b0_set = !cfg->wrapped;
    b->pd = malloc(sizeof *b->pd);
    if (!b->pd) return -2;
    perf_dec_cb_t cb = {b, b_header, b_record, b_error};
    perf_dec_init(b->pd, cfg->channel, &cb);
    return 0;
}

bool ps_b_step(ps_b_t *b) {
    if (b->ended) return false;
    if (!b->b0_set && b->j == b->base) { /* a wrapped trace's first store of the hart: what came before was overwritten */
        b_gap(b, "the start of the wrapped trace");
        b->b0 = b->records;
        b->b0_set = true;
    }
    ps_a_t *a = b->a;
    if (a && b->j >= b->base) { /* A's gaps before this store, A decoded past it first */
        uint64_t p = b->j - b->base;
        while (!a->ended && a->stores[b->hart] <= p) ps_a_step(a);
        while (a->gn && a->gq[a->gh] == p) {
            a->gh++;
            if (!--a->gn) a->gh = 0;
            b_gap(b, "ITC FIFO overflow");
        }
        if (a->oom) b->oom = true;
    }
    ps_store_t s;
    if (!b->store(b->store_ctx, b->j, &s)) {
        perf_dec_finish(b->pd);
        b->ended = true;
        return false;
    }
    perf_dec_feed_store(b->pd, b->hart, s.stim, s.off, s.value, s.cycle);
    b->j++;
    return true;
}

void ps_b_close(ps_b_t *b) {
    free(b->pd);
    free(b->q.r);
    b->pd = NULL;
    b->q.r = NULL;
}

const crec_t *ps_b_next(ps_b_t *b) {
    while (!b->q.n && ps_b_step(b)) {}
    return b->q.n ? &b->q.r[b->q.head] : NULL;
}
