/* out_folded.c - the call paths of a profile from perf records, and the folded stacks
 * (out_paths.h). */
#include "out_paths.h"
#include "callstack.h"
#include "stack_tree.h"
#include "src_lines.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define HOOK_COL RP_HOOK_COL
_Static_assert(HOOK_COL < ST_MAX_COLS, "a column per counter and one for the hooks");

struct rpaths {
    st_t t[PERF_MAX_CORES]; /* per hart (one profile each): columns = counter indexes,
                                        and HOOK_COL: the hook cycles inside the cycles */
    const prof_t *p;        /* the profile being named (writers) */
};

rpaths_t *rp_new(void) {
    rpaths_t *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) st_init(&r->t[k], HOOK_COL + 1);
    return r;
}

void rp_free(rpaths_t *r) {
    if (!r) return;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) st_free(&r->t[k]);
    free(r);
}

const st_t *rp_tree(const rpaths_t *r, unsigned hart) { return &r->t[hart % PERF_MAX_CORES]; }

/* the node of the stack's top frame (the thread's root for an empty stack) */
static uint32_t node_of(st_t *t, unsigned hart, uint32_t thread, const cs_t *cs) {
    uint32_t n = st_thread_root(t, hart, thread);
    size_t d = cs_depth(cs);
    for (size_t i = 0; i < d && n != ST_NONE; i++) {
        const cs_frame_t *f = cs_at(cs, i);
        n = st_child(t, n, f->func, f->call_site);
    }
    return n;
}

static void on_interval(void *v, unsigned hart, uint32_t thread, const cs_t *cs, bool split, const uint64_t *delta,
                        uint32_t known, uint64_t hook) {
    rpaths_t *r = v;
    st_t *t = &r->t[hart % PERF_MAX_CORES];
    uint32_t n;
    if (split) n = st_child(t, st_thread_root(t, hart, thread), ST_SPLIT, 0);
    else if (!cs_depth(cs))
        n = st_child(t, st_thread_root(t, hart, thread), ST_OUTSIDE, 0);
    else
        n = node_of(t, hart, thread, cs);
    if (n == ST_NONE) return;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++)
        if (known >> x & 1) st_add(t, n, x, delta[x]);
    st_add(t, n, HOOK_COL, hook); /* for --compensate */
}

static void on_enter(void *v, unsigned hart, uint32_t thread, const cs_t *cs) {
    rpaths_t *r = v;
    st_t *t = &r->t[hart % PERF_MAX_CORES];
    uint32_t n = node_of(t, hart, thread, cs);
    if (n != ST_NONE) t->node[n].calls++;
}

void rp_attach(rpaths_t *r, prof_opts_t *o) {
    o->path_interval = on_interval;
    o->path_enter = on_enter;
    o->path_ctx = r;
}

/* ---- names ------------------------------------------------------------------------------ */
static const char *nm_func(void *v, uint32_t f) {
    const prof_func_t *x = prof_func_at(((rpaths_t *)v)->p, f);
    return x ? x->name : NULL;
}
static uint64_t nm_addr(void *v, uint32_t f) {
    const prof_func_t *x = prof_func_at(((rpaths_t *)v)->p, f);
    return x ? x->addr : 0;
}
static bool nm_thread(void *v, unsigned hart, uint64_t thread, char *buf, size_t len) {
    const prof_t *p = ((rpaths_t *)v)->p;
    uint64_t id;
    unsigned h;
    (void)hart;
    if (!prof_stats(p)->switch_events) return false; /* one thread: no thread frame */
    if (prof_thread_info(p, (uint32_t)thread, &h, &id)) snprintf(buf, len, "thread 0x%08" PRIx64, id);
    else
        snprintf(buf, len, "thread before the first switch");
    return true;
}

/* the counter index of name in p (NULL: cycles, else the lowest used), or -1 */
static int counter_index(const prof_t *p, const char *name) {
    int first = -1;
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        const char *n = prof_counter_name(p, x);
        if (!n) continue;
        if (first < 0) first = (int)x;
        if (name ? !strcmp(n, name) : !strcmp(n, "cycles")) return (int)x;
    }
    return name ? -1 : first;
}

int rp_write_folded(rpaths_t *r, prof_t *const profs[PERF_MAX_CORES], const char *counter, bool compensate, FILE *out,
                    char *err, size_t errlen) {
    /* the counter must be in some hart's profile */
    bool found = false;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++)
        if (profs[k] && counter_index(profs[k], counter) >= 0) found = true;
    if (!found) {
        size_t o = (size_t)snprintf(err, errlen, "no counter '%s' in the perf records (they have:", counter ? counter : "");
        for (unsigned k = 0; k < PERF_MAX_CORES; k++)
            for (unsigned x = 0; profs[k] && x < PERF_MAX_COUNTERS; x++)
                if (prof_counter_name(profs[k], x) && o < errlen) o += (size_t)snprintf(err + o, errlen - o, " %s", prof_counter_name(profs[k], x));
        if (o < errlen) snprintf(err + o, errlen - o, ")");
        return -1;
    }
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        if (!profs[k]) continue;
        int x = counter_index(profs[k], counter);
        if (x < 0) continue;
        st_t *t = &r->t[k];
        if (t->oom) return -2;
        int cyc = prof_cycles_index(profs[k]);
        if (compensate && x == cyc) /* the hooks' cycles out, node by node (once) */
            for (size_t i = 0; i < t->n; i++) {
                t->cost[i * t->ncols + (unsigned)x] -= st_cost(t, (uint32_t)i, HOOK_COL);
                t->cost[i * t->ncols + HOOK_COL] = 0;
            }
        r->p = profs[k];
        st_names_t nm = {r, nm_func, nm_addr, nm_thread, NULL, NULL};
        if (st_write_folded(t, (unsigned)x, &nm, out)) return -2;
    }
    return 0;
}

/* ---- callgrind ---------------------------------------------------------------------------- */
typedef struct cgnames {
    rpaths_t *r;
    void *sl;
} cgnames_t;
static const char *cg_func(void *v, uint32_t f) { return nm_func(((cgnames_t *)v)->r, f); }
static uint64_t cg_addr(void *v, uint32_t f) { return nm_addr(((cgnames_t *)v)->r, f); }
static bool cg_thread(void *v, unsigned hart, uint64_t thread, char *buf, size_t len) { return nm_thread(((cgnames_t *)v)->r, hart, thread, buf, len); }
static const char *cg_line(void *v, uint64_t addr, unsigned *line) { return src_lines_at(((cgnames_t *)v)->sl, addr, line); }
/* a record's call site is the return address of the hook's call: the call is before it */
static const char *cg_site(void *v, uint64_t site, unsigned *line) { return site >= 2 ? cg_line(v, site - 2, line) : NULL; }

int rp_write_callgrind(rpaths_t *r, prof_t *const profs[PERF_MAX_CORES], bool compensate, void *sl, const char *cmd,
                       FILE *out, char *err, size_t errlen) {
    int k = -1, n = 0;
    for (unsigned h = 0; h < PERF_MAX_CORES; h++)
        if (profs[h]) {
            k = (int)h;
            n++;
        }
    if (n != 1) {
        snprintf(err, errlen, "-f callgrind makes one hart's profile: the trace has perf records of %d harts, choose one with --hart N", n);
        return -1;
    }
    const prof_t *p = profs[k];
    st_t *t = &r->t[k];
    if (t->oom) return -2;
    unsigned cols[PERF_MAX_COUNTERS], nc = 0;
    char evbuf[PERF_MAX_COUNTERS][48];
    const char *ev[PERF_MAX_COUNTERS], *desc[PERF_MAX_COUNTERS];
    int cyc = prof_cycles_index(p);
    for (unsigned x = 0; x < PERF_MAX_COUNTERS; x++) {
        const char *name = prof_counter_name(p, x);
        if (!name) continue;
        size_t i = 0; /* an event name: letters, digits, '_' */
        for (; name[i] && i + 1 < sizeof evbuf[0]; i++) {
            char c = name[i];
            evbuf[nc][i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
        }
        evbuf[nc][i] = 0;
        if (compensate && (int)x == cyc) { /* the hooks' cycles out, node by node (once) */
            for (size_t j = 0; j < t->n; j++) {
                t->cost[j * t->ncols + x] -= st_cost(t, (uint32_t)j, HOOK_COL);
                t->cost[j * t->ncols + HOOK_COL] = 0;
            }
        }
        cols[nc] = x;
        ev[nc] = evbuf[nc];
        desc[nc] = strcmp(evbuf[nc], name) ? name : NULL;
        nc++;
    }
    r->p = p;
    cgnames_t cn = {r, sl};
    st_names_t nm = {&cn, cg_func, cg_addr, cg_thread, sl ? cg_line : NULL, sl ? cg_site : NULL};
    return st_write_callgrind(t, cols, ev, desc, nc, &nm, cmd, out) ? -2 : 0;
}
