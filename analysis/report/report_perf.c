/* report_perf.c - `tracesim report`: the perf records (and the software trace's thread
 * switches) into one profile per hart (profile.h), with the hooks' cost from the ground truth
 * when it is measured (hook_cost.h). report_int.h. */
#include "report_int.h"
#include "elf_syms.h"
#include <stdio.h>
#include <string.h>

static prof_t *hart_prof(rctx_t *c, unsigned core) {
    core %= PERF_MAX_CORES;
    if (c->hart >= 0 && core != (unsigned)c->hart) return NULL;
    if (!c->prof[core] && !(c->prof[core] = prof_new(&c->po))) c->oom = true;
    return c->prof[core];
}
void r_header(void *v, const perf_header_t *h) {
    prof_t *p = hart_prof(v, h->core);
    if (p) prof_header(p, h);
}
void r_record(void *v, const perf_record_t *r) {
    rctx_t *c = v;
    if (c->hart >= 0 && r->core % PERF_MAX_CORES != (unsigned)c->hart) return;
    prof_t *p = c->prof[r->core % PERF_MAX_CORES];
    if (!p) return;
    if (c->hc) { /* the record's hook call in the ground truth */
        if (r->gap_before) hc_reset(c->hc, r->core);
        int cyc = prof_cycles_index(p);
        uint64_t d = UINT64_MAX, pre = 0, post = 0;
        for (unsigned i = 0; i < r->n; i++)
            if ((int)r->index[i] == cyc && !(r->delta_unknown >> i & 1)) d = r->delta[i];
        /* a truncated record still pairs (its cycles value moves the next record's delta) */
        bool ok = hc_match(c->hc, r, d, &pre, &post);
        prof_hook(p, r->core, ok, pre, post);
        if (ok) {
            uint64_t handler, late, moved;
            hc_match_traps(c->hc, r, &handler, &late, &moved);
            prof_hook_traps(p, r->core, handler, late, moved);
        }
    }
    prof_record(p, r);
    unsigned k = r->core % PERF_MAX_CORES;
    for (unsigned i = 0; i < c->switch_n[k]; i++) /* the record's stores came before them */
        prof_thread(p, k, c->switch_id[k][i]);
    c->switch_n[k] = 0;
}
void r_error(void *v, unsigned core, uint64_t off, const char *w) { ts_perf_diag(&((rctx_t *)v)->errors, &((rctx_t *)v)->gaps, core, off, w); }
void r_warn(void *v, const char *msg) {
    rctx_t *c = v;
    if (c->warnings++ < MAX_WARNINGS) fprintf(stderr, "tracesim: warning: %s\n", msg);
}
int r_elem(void *v, const ts_elem_t *e) {
    r_elem_t *x = v;
    if (e->type == TS_ELEM_STM && e->u.stm.event && !strcmp(e->u.stm.event, "THREAD_SWITCH")) {
        unsigned k = e->src % PERF_MAX_CORES;
        prof_t *p = x->rc->hart >= 0 && k != (unsigned)x->rc->hart ? NULL : x->rc->prof[k];
        if (!p) return 0; /* before the hart's perf header: nothing to follow */
        if (x->pd->core[k].in_record) {
            rctx_t *c = x->rc;
            if (c->switch_n[k] == SWITCH_QUEUE) c->switch_n[k]--; /* the last replaces the one before */
            c->switch_id[k][c->switch_n[k]++] = e->u.stm.value;
        } else {
            prof_thread(p, k, e->u.stm.value);
        }
    }
    return 0;
}
/* a manual record's address is the return address of its call of perfWriteCntrs: the line of
 * the call instruction (2 or 4 bytes before it) */
const char *line_of(void *sl, uint64_t addr, unsigned *line) { return addr >= 2 ? src_lines_at(sl, addr - 2, line) : NULL; }
const char *sym_of(void *syms, uint64_t addr, uint64_t *start) {
    const elf_sym_t *s = elf_syms_lookup(syms, addr);
    if (!s) return NULL;
    *start = s->addr;
    return s->name;
}
