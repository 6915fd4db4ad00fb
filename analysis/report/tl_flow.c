/* tl_flow.c - call slices from the program flow in the timeline (tl_flow.h). */
#include "tl_flow.h"
#include "flow_calls.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct tf_ev {
    size_t func;
    uint64_t k;
    bool begin, resumed;
} tf_ev_t; /* resumed: a thread's frame continues, no call */
typedef struct tf_src {
    tf_ev_t *ev; /* waiting for the next timed point */
    size_t n, cap;
    bool have_a, named;
    uint64_t k_a, t_a;
} tf_src_t;

struct tl_flow {
    FILE *out;
    bool *first;
    ts_tl_time_t tt;
    pf_image_t img;
    elf_syms_t syms;
    fc_t fc;
    tf_src_t *s[NXD_MAX_SRC];
    bool oom;
    int64_t slices;
};

static tf_src_t *src_of(tl_flow_t *t, unsigned src) {
    if (!t->s[src] && !(t->s[src] = calloc(1, sizeof *t->s[src]))) t->oom = true;
    return t->s[src];
}

static void put_json_str(FILE *o, const char *s) {
    fputc('"', o);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '"' || *p == '\\') fprintf(o, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(o, "\\u%04x", *p);
        else
            fputc(*p, o);
    fputc('"', o);
}

static void sep(tl_flow_t *t) {
    fputs(*t->first ? "\n" : ",\n", t->out);
    *t->first = false;
}

/* the waiting events at time base + (k - k0) * r */
static void flush(tl_flow_t *t, unsigned src, tf_src_t *s, double base, uint64_t k0, double r) {
    if (s->n && !s->named) {
        s->named = true;
        sep(t);
        fprintf(t->out, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"program flow\"}},\n"
                        "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": {\"name\": \"hart %u calls\"}}",
                src, src);
    }
    for (size_t i = 0; i < s->n; i++) {
        const tf_ev_t *e = &s->ev[i];
        double tics = base + (double)(e->k - k0) * r;
        sep(t);
        fputs("{\"name\": ", t->out);
        put_json_str(t->out, fc_func_name(&t->fc, e->func));
        fprintf(t->out, ", \"ph\": \"%s\", \"ts\": ", e->begin ? "B" : "E");
        ts_tl_put_ts(t->out, &t->tt, (uint64_t)(tics + 0.5));
        fprintf(t->out, ", \"pid\": 1, \"tid\": %u%s}", src, e->resumed ? ", \"args\": {\"resumed\": 1}" : "");
        t->slices += e->begin;
    }
    s->n = 0;
}

static void add(tl_flow_t *t, unsigned src, size_t func, uint64_t k, bool begin, bool resumed) {
    tf_src_t *s = src_of(t, src);
    if (!s) return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        tf_ev_t *ev = realloc(s->ev, cap * sizeof *ev);
        if (!ev) {
            t->oom = true;
            return;
        }
        s->ev = ev;
        s->cap = cap;
    }
    s->ev[s->n++] = (tf_ev_t){func, k, begin, resumed};
}

static void h_enter(void *v, unsigned src, size_t func, long caller, bool trap, uint64_t k) {
    (void)trap;
    add(v, src, func, k, true, caller == -2); /* -2: a parked thread's frame resumes (flow_calls.h) */
}
static void h_exit(void *v, unsigned src, size_t func, uint64_t k) { add(v, src, func, k, false, false); }

static void h_timed(void *v, unsigned src, uint64_t k, uint64_t tm) {
    tl_flow_t *t = v;
    tf_src_t *s = src_of(t, src);
    if (!s) return;
    if (!s->have_a || k <= s->k_a || tm < s->t_a) flush(t, src, s, (double)(s->have_a ? s->t_a : tm), k, 0);
    else
        flush(t, src, s, (double)s->t_a, s->k_a, (double)(tm - s->t_a) / (double)(k - s->k_a));
    s->have_a = true;
    s->k_a = k;
    s->t_a = tm;
}

/* a break: the waiting events at the last timed point, or none without one */
static void h_lost(void *v, unsigned src) {
    tl_flow_t *t = v;
    tf_src_t *s = src_of(t, src);
    if (!s) return;
    if (s->have_a) flush(t, src, s, (double)s->t_a, 0, 0);
    s->n = 0;
    s->have_a = false;
}

tl_flow_t *tl_flow_open(FILE *out, bool *first, const ts_tl_time_t *tt, const char *elf, char *err, size_t errlen) {
    tl_flow_t *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->out = out;
    t->first = first;
    t->tt = *tt;
    if (pf_image_load(&t->img, elf, err, errlen)) {
        free(t);
        return NULL;
    }
    if (elf_syms_load(&t->syms, elf, err, errlen)) {
        pf_image_free(&t->img);
        free(t);
        return NULL;
    }
    fc_hooks_t h = {t, h_enter, h_exit, NULL, h_timed, h_lost};
    fc_init(&t->fc, &t->img, &t->syms, &h);
    return t;
}

int tl_flow_msg(void *t, const nxd_msg_t *m) { return fc_msg(&((tl_flow_t *)t)->fc, m); }

int64_t tl_flow_close(tl_flow_t *t, uint64_t end_offset) {
    fc_eot(&t->fc, end_offset);
    for (unsigned i = 0; i < NXD_MAX_SRC; i++)
        if (t->s[i]) h_lost(t, i);
    int64_t rc = t->oom || t->fc.oom ? -1 : t->slices;
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) {
        if (t->s[i]) free(t->s[i]->ev);
        free(t->s[i]);
    }
    fc_free(&t->fc);
    pf_image_free(&t->img);
    elf_syms_free(&t->syms);
    free(t);
    return rc;
}
