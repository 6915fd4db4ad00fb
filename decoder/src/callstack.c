/* callstack.c - the call-stack model (callstack.h). */
#include "callstack.h"
#include <stdlib.h>
#include <string.h>

void cs_init(cs_t *c, size_t user_size, cs_close_fn close_fn, void *ctx) {
    memset(c, 0, sizeof *c);
    c->user_size = user_size;
    c->close_fn = close_fn;
    c->ctx = ctx;
}

void cs_free(cs_t *c) {
    for (size_t i = 0; i < c->nth; i++) {
        free(c->th[i].f);
        free(c->th[i].user);
    }
    free(c->th);
    c->th = NULL;
    c->nth = c->capth = c->cur = 0;
}

/* the current thread, made (id 0) on first use; NULL out of memory */
static cs_thread_t *cur(cs_t *c) {
    if (!c->nth && cs_switch(c, 0)) return NULL;
    return &c->th[c->cur];
}

int cs_switch(cs_t *c, uint64_t id) {
    for (size_t i = 0; i < c->nth; i++)
        if (c->th[i].id == id) {
            if (i != c->cur) c->st.switches++;
            c->cur = i;
            return 0;
        }
    if (c->nth == c->capth) {
        size_t cap = c->capth ? 2 * c->capth : 4;
        cs_thread_t *t = realloc(c->th, cap * sizeof *t);
        if (!t) {
            c->oom = true;
            return -1;
        }
        c->th = t;
        c->capth = cap;
    }
    if (c->nth) c->st.switches++;
    c->th[c->nth] = (cs_thread_t){.id = id};
    c->cur = c->nth++;
    return 0;
}

int cs_name(cs_t *c, uint64_t id) {
    if (!c->nth && cs_switch(c, id)) return -1;
    for (size_t i = 0; i < c->nth; i++)
        if (i != c->cur && c->th[i].id == id) return -1;
    c->th[c->cur].id = id;
    return 0;
}

uint64_t cs_thread_id(const cs_t *c) { return c->nth ? c->th[c->cur].id : 0; }
size_t cs_depth(const cs_t *c) { return c->nth ? c->th[c->cur].n : 0; }

const cs_frame_t *cs_at(const cs_t *c, size_t i) {
    return i < cs_depth(c) ? &c->th[c->cur].f[i] : NULL;
}

void *cs_user_at(const cs_t *c, size_t i) {
    return i < cs_depth(c) && c->user_size ? c->th[c->cur].user + i * c->user_size : NULL;
}

const cs_frame_t *cs_top(const cs_t *c) {
    size_t n = cs_depth(c);
    return n ? &c->th[c->cur].f[n - 1] : NULL;
}

void *cs_push(cs_t *c, uint32_t func, uint64_t call_site, uint64_t sp, bool trap) {
    cs_thread_t *t = cur(c);
    if (!t) return NULL;
    if (t->n >= CS_MAX_DEPTH) {
        c->st.too_deep++;
        return NULL;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 32;
        cs_frame_t *f = realloc(t->f, cap * sizeof *f);
        if (!f) {
            c->oom = true;
            return NULL;
        }
        t->f = f;
        if (c->user_size) {
            unsigned char *u = realloc(t->user, cap * c->user_size);
            if (!u) {
                c->oom = true;
                return NULL;
            }
            t->user = u;
        }
        t->cap = cap;
    }
    t->f[t->n] = (cs_frame_t){.func = func, .call_site = call_site, .sp = sp, .trap = trap};
    void *u = c->user_size ? t->user + t->n * c->user_size : NULL;
    if (u) memset(u, 0, c->user_size);
    t->n++;
    return u ? u : (void *)&t->f[t->n - 1];
}

/* the top frame of t closes */
static void pop(cs_t *c, cs_thread_t *t, cs_why_t why) {
    t->n--;
    if (c->close_fn) c->close_fn(c->ctx, t->id, &t->f[t->n], c->user_size ? t->user + t->n * c->user_size : NULL, why);
}

bool cs_pop(cs_t *c, cs_why_t why) {
    cs_thread_t *t = c->nth ? &c->th[c->cur] : NULL;
    if (!t || !t->n) return false;
    pop(c, t, why);
    return true;
}

int cs_exit(cs_t *c, uint32_t func) {
    cs_thread_t *t = cur(c);
    if (!t) return -1;
    size_t k = t->n;
    while (k > 0 && t->f[k - 1].func != func) k--;
    if (!k) {
        c->st.unmatched++;
        return -1;
    }
    while (t->n > k) {
        c->st.unwound++;
        pop(c, t, CS_UNWOUND);
    }
    pop(c, t, CS_RETURN);
    return 0;
}

size_t cs_unwind_above(cs_t *c, uint32_t func) {
    cs_thread_t *t = cur(c);
    if (!t) return 0;
    size_t k = t->n;
    while (k > 0 && t->f[k - 1].func != func) k--;
    if (!k) return 0;
    size_t closed = t->n - k;
    c->st.unwound += closed;
    while (t->n > k) pop(c, t, CS_UNWOUND);
    return closed;
}

/* the frames of t above the first k close as repairs; their number */
static size_t repair_above(cs_t *c, cs_thread_t *t, size_t k) {
    if (k >= t->n) return 0;
    size_t closed = t->n - k;
    c->st.repairs++;
    c->st.repaired += closed;
    while (t->n > k) pop(c, t, CS_REPAIR);
    return closed;
}

void *cs_push_call(cs_t *c, uint32_t func, uint64_t entry, uint64_t call_site, uint64_t caller) {
    void *u = cs_push(c, func, call_site, 0, false);
    if (u) {
        cs_thread_t *t = &c->th[c->cur];
        t->f[t->n - 1].entry = entry;
        t->f[t->n - 1].caller = caller;
    }
    return u;
}

/* the lowest frame (index) of the run of frames below and at index i entered from the same
 * call site: an out-of-line call and the instrumented functions inlined into it */
static size_t group_bottom(const cs_thread_t *t, size_t i) {
    while (i > 0 && t->f[i].call_site && t->f[i - 1].call_site == t->f[i].call_site) i--;
    return i;
}

size_t cs_unwind_call(cs_t *c, uint64_t entry, uint64_t site, bool site_traced, uint64_t call_site) {
    cs_thread_t *t = c->nth ? &c->th[c->cur] : NULL;
    if (!t || !t->n) return 0;
    for (size_t i = t->n; i-- > 0;) {
        const cs_frame_t *f = &t->f[i];
        if (site && f->entry == site) { /* (a) made in this frame, or by code inlined into it */
            size_t j = i + 1;
            while (j < t->n && f->call_site && t->f[j].call_site == f->call_site) j++;
            return repair_above(c, t, j);
        }
        if (call_site && f->call_site == call_site) { /* (b) entered from the same place */
            size_t b = group_bottom(t, i);
            if (t->f[b].entry != entry) return repair_above(c, t, i + 1); /* inlined into it */
            return i + 1 == t->n ? 0 : repair_above(c, t, b);             /* the same call again (top: inlined recursion) */
        }
        if (site && site_traced && f->caller == site) return repair_above(c, t, group_bottom(t, i)); /* (c) */
    }
    return 0;
}

size_t cs_unwind_to(cs_t *c, uint32_t func_at) {
    cs_thread_t *t = c->nth ? &c->th[c->cur] : NULL;
    if (!t || func_at == CS_NO_FUNC) return 0;
    size_t k = t->n;
    while (k > 0 && t->f[k - 1].func != func_at) k--;
    return k ? repair_above(c, t, k) : 0;
}

size_t cs_unwind_sp(cs_t *c, uint64_t sp) {
    cs_thread_t *t = cur(c);
    size_t closed = 0;
    while (t && t->n && t->f[t->n - 1].sp && t->f[t->n - 1].sp < sp) {
        pop(c, t, CS_SP);
        closed++;
    }
    c->st.sp_closed += closed;
    return closed;
}

size_t cs_unwind_left(cs_t *c, uint64_t sp, uint32_t func_at) {
    cs_thread_t *t = cur(c);
    size_t closed = 0;
    while (t && t->n && t->f[t->n - 1].sp && !t->f[t->n - 1].trap &&
           (t->f[t->n - 1].sp < sp || (t->f[t->n - 1].sp == sp && t->f[t->n - 1].func != func_at))) {
        pop(c, t, CS_SP);
        closed++;
    }
    c->st.sp_closed += closed;
    return closed;
}

size_t cs_trap_return(cs_t *c) {
    cs_thread_t *t = cur(c);
    if (!t) return 0;
    size_t k = t->n;
    while (k > 0 && !t->f[k - 1].trap) k--;
    if (!k) return 0;
    size_t closed = t->n - (k - 1);
    while (t->n >= k) pop(c, t, CS_TRAP_RETURN);
    return closed;
}

void *cs_tail(cs_t *c, uint32_t func) {
    cs_thread_t *t = cur(c);
    if (!t || !t->n) return NULL;
    cs_frame_t old = t->f[t->n - 1];
    pop(c, t, CS_TAIL);
    return cs_push(c, func, old.call_site, old.sp, old.trap);
}

void cs_clear(cs_t *c) {
    cs_thread_t *t = c->nth ? &c->th[c->cur] : NULL;
    while (t && t->n) pop(c, t, CS_CLEAR);
}

void cs_clear_all(cs_t *c) {
    for (size_t i = 0; i < c->nth; i++)
        while (c->th[i].n) pop(c, &c->th[i], CS_CLEAR);
}

const cs_stats_t *cs_stats(const cs_t *c) { return &c->st; }

const char *cs_why_name(cs_why_t w) {
    static const char *const n[] = {"return", "unwound", "repair", "sp", "trap return", "tail call", "clear"};
    return (unsigned)w < sizeof n / sizeof n[0] ? n[w] : "?";
}
