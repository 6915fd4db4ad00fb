/* hook_match.c - which perf-hook call wrote a perf record; see hook_match.h. */
#include "hook_match.h"
#include <stdlib.h>
#include <string.h>

void hm_init(hook_match_t *m) { memset(m, 0, sizeof *m); }

void hm_free(hook_match_t *m) {
    free(m->open);
    memset(m, 0, sizeof *m);
}

int hm_enter(hook_match_t *m, const hook_call_t *c) {
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        hm_open_t *o = realloc(m->open, cap * sizeof *o);
        if (!o) return -1;
        m->open = o;
        m->cap = cap;
    }
    m->open[m->n++] = (hm_open_t){*c, false};
    hm_running(m, c->has_tp, c->tp);
    return 0;
}

void hm_running(hook_match_t *m, bool has_tp, uint32_t tp) {
    m->have_tp = has_tp;
    m->tp = tp;
}

/* the call may be the running thread's (unknown thread: any) */
static bool same_thread(const hook_match_t *m, const hook_call_t *c) { return !m->have_tp || !c->has_tp || c->tp == m->tp; }

bool hm_return(hook_match_t *m, uint32_t target) {
    size_t j = m->n;
    while (j && !(m->open[j - 1].done && m->open[j - 1].c.ra == target && same_thread(m, &m->open[j - 1].c))) j--;
    if (!j) {
        j = m->n;
        while (j && !(m->open[j - 1].c.ra == target && same_thread(m, &m->open[j - 1].c))) j--;
    }
    if (!j) {
        j = m->n;
        while (j && m->open[j - 1].c.ra != target) j--;
    }
    if (!j) return false;
    memmove(&m->open[j - 1], &m->open[j], (m->n - j) * sizeof *m->open);
    m->n--;
    return true;
}

const hook_call_t *hm_record(hook_match_t *m, int kind, bool known, uint64_t addr, uint64_t call_site) {
    bool two = kind == HK_ENTER || kind == HK_EXIT;
    size_t j = known ? m->n : 0; /* (unknown addresses: straight to the fallbacks) */
#define FREE_OF(i) (!m->open[i].done && m->open[i].c.kind == kind)
    while (known && j &&
           !(FREE_OF(j - 1) && same_thread(m, &m->open[j - 1].c) &&
             (two ? m->open[j - 1].c.a0 == addr && m->open[j - 1].c.a1 == call_site : m->open[j - 1].c.ra == addr)))
        j--;
    if (!j) { /* the addresses differ (or are not known): the latest call of the hook in the thread */
        j = m->n;
        while (j && !(FREE_OF(j - 1) && same_thread(m, &m->open[j - 1].c))) j--;
    }
    if (!j) { /* in any thread */
        j = m->n;
        while (j && !FREE_OF(j - 1)) j--;
    }
#undef FREE_OF
    if (!j) { /* any open call that has not written its record (the record's type is wrong) */
        j = m->n;
        while (j && m->open[j - 1].done) j--;
    }
    if (!j) return NULL;
    m->open[j - 1].done = true;
    return &m->open[j - 1].c;
}
