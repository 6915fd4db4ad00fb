/* flow_profile.c - profile and call graph from the program flow (flow_profile.h). */
#include "flow_profile.h"
#include "flow_calls.h"
#include "flow_walk.h"
#include "ts_run_json.h"
#include "ts_text.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct fp_fn {
    uint64_t self, total, calls;
    uint64_t active, entry_k; /* open frames; where the outermost opened */
    double self_cyc, total_cyc;
    /* not yet timed (since the last timed point): instructions, and frame entries (-1) and
     * exits (+1) with the sum of their distances (in instructions) from that point */
    uint64_t pend_self;
    int64_t pend_cnt;
    double pend_dk;
    bool dirty;
} fp_fn_t;

typedef struct fp_edge {
    long caller;
    size_t callee;
    uint64_t calls;
} fp_edge_t;

typedef struct fp_src {
    fp_fn_t *fn;
    size_t *dirty, ndirty;
    bool have_a; /* the last timed point of this stretch: k_a at t_a */
    uint64_t k_a, t_a;
    bool timed; /* cycles were attributed */
    uint64_t insns, trap_frames;
    fp_edge_t *edge; /* open addressing, nedge used of cedge (a power of 2) */
    size_t nedge, cedge;
} fp_src_t;

typedef struct fp {
    flow_walk_t w; /* the ELF, the frames (w.fc) */
    fp_src_t *s[NXD_MAX_SRC];
    size_t nfunc;
    int hart;
    bool oom;
} fp_t;

static fp_src_t *src_of(fp_t *p, unsigned src) {
    if (p->hart >= 0 && src != (unsigned)p->hart) return NULL;
    if (p->s[src]) return p->s[src];
    fp_src_t *s = calloc(1, sizeof *s);
    if (s) {
        p->nfunc = fc_nfunc(&p->w.fc);
        s->fn = calloc(p->nfunc, sizeof *s->fn);
        s->dirty = malloc(p->nfunc * sizeof *s->dirty);
    }
    if (!s || !s->fn || !s->dirty) {
        if (s) {
            free(s->fn);
            free(s->dirty);
            free(s);
        }
        p->oom = true;
        return NULL;
    }
    return p->s[src] = s;
}

static fp_fn_t *touch(fp_src_t *s, size_t f) {
    fp_fn_t *x = &s->fn[f];
    if (!x->dirty) {
        x->dirty = true;
        s->dirty[s->ndirty++] = f;
    }
    return x;
}

/* the pending figures at rate r cycles per instruction from base (the last timed point) */
static void resolve(fp_src_t *s, double base, double r) {
    for (size_t i = 0; i < s->ndirty; i++) {
        fp_fn_t *x = &s->fn[s->dirty[i]];
        x->self_cyc += r * (double)x->pend_self;
        x->total_cyc += (double)x->pend_cnt * base + r * x->pend_dk;
        x->pend_self = 0;
        x->pend_cnt = 0;
        x->pend_dk = 0;
        x->dirty = false;
    }
    s->ndirty = 0;
}

static void pend_point(fp_src_t *s, size_t f, int sign, uint64_t k) {
    fp_fn_t *x = touch(s, f);
    x->pend_cnt += sign;
    x->pend_dk += sign * (double)(k - (s->have_a ? s->k_a : k)); /* before the first point: all at its time */
}

static void edge_add(fp_t *p, fp_src_t *s, long caller, size_t callee) {
    if (2 * (s->nedge + 1) > s->cedge) {
        size_t c = s->cedge ? 2 * s->cedge : 64;
        fp_edge_t *e = calloc(c, sizeof *e);
        if (!e) {
            p->oom = true;
            return;
        }
        for (size_t i = 0; i < s->cedge; i++) {
            if (!s->edge[i].calls) continue;
            size_t h = ((size_t)s->edge[i].caller * 31 + s->edge[i].callee) & (c - 1);
            while (e[h].calls) h = (h + 1) & (c - 1);
            e[h] = s->edge[i];
        }
        free(s->edge);
        s->edge = e;
        s->cedge = c;
    }
    size_t h = ((size_t)caller * 31 + callee) & (s->cedge - 1);
    while (s->edge[h].calls && (s->edge[h].caller != caller || s->edge[h].callee != callee)) h = (h + 1) & (s->cedge - 1);
    if (!s->edge[h].calls) {
        s->edge[h] = (fp_edge_t){caller, callee, 0};
        s->nedge++;
    }
    s->edge[h].calls++;
}

static void h_enter(void *v, unsigned src, size_t func, long caller, bool trap, uint64_t k) {
    fp_t *p = v;
    fp_src_t *s = src_of(p, src);
    if (!s) return;
    fp_fn_t *x = &s->fn[func];
    if (caller >= 0 || trap) {
        x->calls++;
        s->trap_frames += trap;
        edge_add(p, s, caller, func);
    }
    if (x->active++ == 0) {
        x->entry_k = k;
        pend_point(s, func, -1, k);
    }
}

static void h_exit(void *v, unsigned src, size_t func, uint64_t k) {
    fp_t *p = v;
    fp_src_t *s = src_of(p, src);
    if (!s) return;
    fp_fn_t *x = &s->fn[func];
    if (x->active && --x->active == 0) {
        x->total += k - x->entry_k;
        pend_point(s, func, +1, k);
    }
}

static void h_insn(void *v, unsigned src, size_t func, uint64_t k) {
    (void)k;
    fp_t *p = v;
    fp_src_t *s = src_of(p, src);
    if (!s) return;
    s->insns++;
    s->fn[func].self++;
    touch(s, func)->pend_self++;
}

static void h_timed(void *v, unsigned src, uint64_t k, uint64_t t) {
    fp_t *p = v;
    fp_src_t *s = src_of(p, src);
    if (!s) return;
    if (!s->have_a) {
        resolve(s, (double)t, 0);
    } else {
        double r = k > s->k_a && t >= s->t_a ? (double)(t - s->t_a) / (double)(k - s->k_a) : 0;
        if (k > s->k_a && t >= s->t_a) s->timed = true;
        resolve(s, (double)s->t_a, r);
    }
    s->have_a = true;
    s->k_a = k;
    s->t_a = t;
}

/* a break: what is pending gets the last timed point's time (or nothing before any) */
static void h_lost(void *v, unsigned src) {
    fp_t *p = v;
    fp_src_t *s = src_of(p, src);
    if (!s) return;
    if (s->have_a) resolve(s, (double)s->t_a, 0);
    else
        resolve(s, 0, 0); /* no timed point in the stretch: no cycles */
    s->have_a = false;
}

/* ---- writers ------------------------------------------------------------------------ */
static const fp_t *sort_p;
static const fp_src_t *sort_s;
static int by_self(const void *a, const void *b) {
    const fp_fn_t *x = &sort_s->fn[*(const size_t *)a], *y = &sort_s->fn[*(const size_t *)b];
    if (x->self != y->self) return x->self > y->self ? -1 : 1;
    if (x->total != y->total) return x->total > y->total ? -1 : 1;
    uint64_t ax = fc_func_addr(&sort_p->w.fc, *(const size_t *)a), ay = fc_func_addr(&sort_p->w.fc, *(const size_t *)b);
    return ax < ay ? -1 : ax > ay;
}
static int by_edge(const void *a, const void *b) {
    const fp_edge_t *x = a, *y = b;
    if (x->caller != y->caller) return x->caller < y->caller ? -1 : 1;
    if (x->calls != y->calls) return x->calls > y->calls ? -1 : 1;
    return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* the functions that ran or were called, by self instructions; NULL: no memory */
static size_t *ranked(const fp_t *p, const fp_src_t *s, size_t *n) {
    size_t *k = malloc(p->nfunc * sizeof *k);
    if (!k) return NULL;
    *n = 0;
    for (size_t f = 0; f < p->nfunc; f++)
        if (s->fn[f].self || s->fn[f].total || s->fn[f].calls) k[(*n)++] = f;
    sort_p = p;
    sort_s = s;
    qsort(k, *n, sizeof *k, by_self);
    return k;
}

static int write_src(const fp_t *p, const fp_src_t *s, unsigned hart, bool csv, const char *unit, FILE *o) {
    size_t n;
    size_t *k = ranked(p, s, &n);
    if (!k) return -1;
    if (csv) {
        for (size_t i = 0; i < n; i++) {
            const fp_fn_t *x = &s->fn[k[i]];
            fprintf(o, "%u,", hart);
            ts_csv_field(o, fc_func_name(&p->w.fc, k[i]));
            fprintf(o, ",0x%08" PRIx64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", fc_func_addr(&p->w.fc, k[i]), x->calls, x->self, x->total);
            if (s->timed) fprintf(o, "%.0f,%.0f", x->self_cyc, x->total_cyc);
            else
                fputc(',', o);
            fputc('\n', o);
        }
        free(k);
        return 0;
    }
    fprintf(o, "Flat profile from the program flow: %" PRIu64 " instructions", s->insns);
    if (s->trap_frames) fprintf(o, ", %" PRIu64 " trap handler frame(s)", s->trap_frames);
    if (s->timed) fprintf(o, "; %s estimated from the message timestamps (the instructions between two share the cycles between them evenly)\n\n", unit);
    else
        fputs("; no timestamps: instruction counts only\n\n", o);
    fprintf(o, "%7s %10s %12s %12s", "%insn", "calls", "self insn", "total insn");
    bool ticks = strncmp(unit, "cycles", 6) != 0;
    if (s->timed) fprintf(o, " %12s %12s", ticks ? "self ticks" : "self cyc", ticks ? "total ticks" : "total cyc");
    fputs("  function\n", o);
    for (size_t i = 0; i < n; i++) {
        const fp_fn_t *x = &s->fn[k[i]];
        fprintf(o, "%6.2f%% %10" PRIu64 " %12" PRIu64 " %12" PRIu64, s->insns ? 100.0 * (double)x->self / (double)s->insns : 0.0,
                x->calls, x->self, x->total);
        if (s->timed) fprintf(o, " %12.0f %12.0f", x->self_cyc, x->total_cyc);
        fputs("  ", o);
        ts_text_put(o, fc_func_name(&p->w.fc, k[i])); /* no control character to a terminal */
        fputc('\n', o);
    }
    free(k);
    fputs("\nCall graph from the program flow (caller -> callee: calls; a trap's caller is the code it came after):\n", o);
    fp_edge_t *e = malloc((s->nedge ? s->nedge : 1) * sizeof *e);
    if (!e) return -1;
    size_t m = 0;
    for (size_t i = 0; i < s->cedge; i++)
        if (s->edge[i].calls) e[m++] = s->edge[i];
    qsort(e, m, sizeof *e, by_edge);
    if (!m) fputs("  no calls\n", o);
    for (size_t i = 0; i < m; i++) {
        fputs("  ", o);
        ts_text_put(o, e[i].caller >= 0 ? fc_func_name(&p->w.fc, (size_t)e[i].caller) : "(start)");
        fputs(" -> ", o);
        ts_text_put(o, fc_func_name(&p->w.fc, e[i].callee));
        fprintf(o, ": %" PRIu64 "\n", e[i].calls);
    }
    free(e);
    return 0;
}

int fp_report(const char *path, const nxd_cfg_t *cfg, bool wrapped, const char *elf, int hart, bool csv, FILE *out,
              char *err, size_t errlen) {
    fp_t *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    p->hart = hart;
    fc_hooks_t h = {p, h_enter, h_exit, h_insn, h_timed, h_lost};
    if (flow_walk(&p->w, elf, path, cfg, wrapped, &h, err, errlen)) {
        rc = -1;
        goto done;
    }
    for (unsigned i = 0; i < NXD_MAX_SRC; i++)
        if (p->s[i]) h_lost(p, i);
    if (p->oom || p->w.fc.oom) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    bool any = false;
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) any |= p->s[i] && p->s[i]->insns;
    if (!any) {
        rc = 1;
        goto done;
    }
    ts_trace_json_t tj;
    char jerr[256];
    bool have_tj = !ts_trace_json_beside(path, &tj, jerr, sizeof jerr) && tj.found;
    const char *unit = have_tj && tj.has_ts_cycle_offset ? "cycles" : have_tj ? "timestamp ticks (trace.json gives no ts_cycle_offset relating them to cycles: no timed ITC store or "
                                                                                "software event, or the timestamp was prescaled, stopped or written)" :
                                                                                "timestamp ticks (no trace.json beside the trace relating them to cycles)";
    unsigned nsrc = 0;
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) nsrc += p->s[i] && p->s[i]->insns;
    if (csv) fputs("hart,function,address,calls,self_insn,total_insn,self_cycles,total_cycles\n", out);
    else {
        fprintf(out, "tracesim report %s (from the program flow; program from %s)\n", path, elf);
        if (p->w.fc.lost)
            fprintf(out, "the flow broke %" PRIu64 " time(s) (lost messages or code outside the image): frames open "
                         "there were closed, and counting resumed at the next sync\n",
                    p->w.fc.lost);
        if (p->w.fc.switches)
            fprintf(out, "%" PRIu64 " thread switch(es) (THREAD_SWITCH): one call stack per thread; a thread's frames do "
                         "not count the instructions run while it is switched out\n",
                    p->w.fc.switches);
        if (p->w.fc.repairs)
            fprintf(out, "%" PRIu64 " return(s) landed in a function below the top of the call stack (longjmp or another "
                         "non-local exit): the frames above it closed at the return\n",
                    p->w.fc.repairs);
    }
    for (unsigned i = 0; i < NXD_MAX_SRC && !rc; i++) {
        if (!p->s[i] || !p->s[i]->insns) continue;
        if (!csv && (nsrc > 1 || hart >= 0)) fprintf(out, "\n==== hart %u ====\n", i);
        if (!csv) fputc('\n', out);
        if (write_src(p, p->s[i], i, csv, unit, out)) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        }
    }
    if (!rc && ferror(out)) rc = -2;
done:
    flow_walk_free(&p->w);
    for (unsigned i = 0; i < NXD_MAX_SRC; i++)
        if (p->s[i]) {
            free(p->s[i]->fn);
            free(p->s[i]->dirty);
            free(p->s[i]->edge);
            free(p->s[i]);
        }
    free(p);
    return rc;
}
