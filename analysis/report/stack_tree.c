/* stack_tree.c - a calling-context tree (stack_tree.h) and its folded-stacks writer. */
#include "stack_tree.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}
static uint64_t node_hash(uint32_t parent, uint32_t func, uint64_t site) {
    return mix(((uint64_t)parent << 32 | func) ^ mix(site + 0x9e3779b97f4a7c15ull));
}

void st_init(st_t *t, unsigned ncols) {
    memset(t, 0, sizeof *t);
    t->ncols = ncols > ST_MAX_COLS ? ST_MAX_COLS : ncols ? ncols :
                                                           1;
}

void st_free(st_t *t) {
    free(t->node);
    free(t->cost);
    free(t->hkey);
    free(t->hval);
    free(t->lc);
    free(t->lkey);
    free(t->lval);
    memset(t, 0, sizeof *t);
}

static bool grow_hash(st_t *t) {
    size_t cap = t->hcap ? 2 * t->hcap : 256;
    uint64_t *k = malloc(cap * sizeof *k);
    uint32_t *v = malloc(cap * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return false;
    }
    memset(v, 0xFF, cap * sizeof *v);
    for (size_t i = 0; i < t->hcap; i++) {
        if (t->hval[i] == ST_NONE) continue;
        size_t j = (size_t)t->hkey[i] & (cap - 1);
        while (v[j] != ST_NONE) j = (j + 1) & (cap - 1);
        k[j] = t->hkey[i];
        v[j] = t->hval[i];
    }
    free(t->hkey);
    free(t->hval);
    t->hkey = k;
    t->hval = v;
    t->hcap = cap;
    return true;
}

uint32_t st_child(st_t *t, uint32_t parent, uint32_t func, uint64_t site) {
    if (t->oom) return ST_NONE;
    uint64_t h = node_hash(parent, func, site);
    if (t->hcap) {
        for (size_t i = (size_t)h & (t->hcap - 1); t->hval[i] != ST_NONE; i = (i + 1) & (t->hcap - 1)) {
            const st_node_t *x = &t->node[t->hval[i]];
            if (t->hkey[i] == h && x->parent == parent && x->func == func && x->site == site) return t->hval[i];
        }
    }
    if ((t->n + 1) * 2 > t->hcap && !grow_hash(t)) {
        t->oom = true;
        return ST_NONE;
    }
    if (t->n + 1 >= ST_NONE) {
        t->oom = true;
        return ST_NONE;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        st_node_t *nn = realloc(t->node, cap * sizeof *nn);
        if (nn) t->node = nn;
        uint64_t *nc = nn ? realloc(t->cost, cap * t->ncols * sizeof *nc) : NULL;
        if (!nn || !nc) {
            t->oom = true;
            return ST_NONE;
        }
        t->cost = nc;
        t->cap = cap;
    }
    uint32_t id = (uint32_t)t->n++;
    t->node[id] = (st_node_t){parent, func, site, 0};
    memset(&t->cost[(size_t)id * t->ncols], 0, t->ncols * sizeof *t->cost);
    size_t i = (size_t)h & (t->hcap - 1);
    while (t->hval[i] != ST_NONE) i = (i + 1) & (t->hcap - 1);
    t->hkey[i] = h;
    t->hval[i] = id;
    return id;
}

uint32_t st_thread_root(st_t *t, unsigned hart, uint64_t thread) {
    uint32_t r = st_child(t, ST_NONE, ST_HART, hart);
    return r == ST_NONE ? ST_NONE : st_child(t, r, ST_THREAD, thread);
}

void st_add_at(st_t *t, uint32_t node, uint64_t addr, unsigned col, uint64_t v) {
    if (t->oom || node == ST_NONE || col >= t->ncols) return;
    uint64_t h = mix(((uint64_t)node << 32) ^ mix(addr + 1));
    if (t->lcap)
        for (size_t i = (size_t)h & (t->lcap - 1); t->lval[i] != ST_NONE; i = (i + 1) & (t->lcap - 1)) {
            st_at_cost_t *x = &t->lc[t->lval[i]];
            if (t->lkey[i] == h && x->node == node && x->addr == addr) {
                x->cost[col] += v;
                return;
            }
        }
    if ((t->nlc + 1) * 2 > t->lcap) {
        size_t cap = t->lcap ? 2 * t->lcap : 256;
        uint64_t *k = malloc(cap * sizeof *k);
        uint32_t *w = malloc(cap * sizeof *w);
        if (!k || !w) {
            free(k);
            free(w);
            t->oom = true;
            return;
        }
        memset(w, 0xFF, cap * sizeof *w);
        for (size_t i = 0; i < t->lcap; i++) {
            if (t->lval[i] == ST_NONE) continue;
            size_t j = (size_t)t->lkey[i] & (cap - 1);
            while (w[j] != ST_NONE) j = (j + 1) & (cap - 1);
            k[j] = t->lkey[i];
            w[j] = t->lval[i];
        }
        free(t->lkey);
        free(t->lval);
        t->lkey = k;
        t->lval = w;
        t->lcap = cap;
    }
    if (t->nlc == t->caplc) {
        size_t cap = t->caplc ? 2 * t->caplc : 256;
        st_at_cost_t *n = realloc(t->lc, cap * sizeof *n);
        if (!n) {
            t->oom = true;
            return;
        }
        t->lc = n;
        t->caplc = cap;
    }
    st_at_cost_t *x = &t->lc[t->nlc];
    memset(x, 0, sizeof *x);
    x->node = node;
    x->addr = addr;
    x->cost[col] = v;
    size_t i = (size_t)h & (t->lcap - 1);
    while (t->lval[i] != ST_NONE) i = (i + 1) & (t->lcap - 1);
    t->lkey[i] = h;
    t->lval[i] = (uint32_t)t->nlc++;
}

/* ---- folded stacks ---------------------------------------------------------------------- */
/* a frame's text: ';' (the separator) and control characters become '_'; a trailing space
 * would merge into the count's separator: no frame ends in one */
static void put_frame(char **buf, size_t *len, size_t *cap, const char *s, bool *oom) {
    size_t n = strlen(s);
    if (*len + n + 2 > *cap) {
        size_t c = *cap ? *cap : 256;
        while (*len + n + 2 > c) c *= 2;
        char *b = realloc(*buf, c);
        if (!b) {
            *oom = true;
            return;
        }
        *buf = b;
        *cap = c;
    }
    if (*len) (*buf)[(*len)++] = ';';
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        (*buf)[(*len)++] = ch == ';' || ch < 0x20 || ch == 0x7f ? '_' : (i == n - 1 && ch == ' ') ? '_' :
                                                                                                    (char)ch;
    }
    (*buf)[*len] = 0;
}

static const char *frame_name(const st_t *t, uint32_t id, const st_names_t *nm, char *buf, size_t len) {
    const st_node_t *x = &t->node[id];
    switch (x->func) {
    case ST_OUTSIDE: return "[outside]";
    case ST_SPLIT: return "[not attributed]";
    case ST_HART: snprintf(buf, len, "hart %" PRIu64, x->site); return buf;
    case ST_THREAD: {
        unsigned hart = (unsigned)t->node[x->parent].site;
        if (nm && nm->thread && nm->thread(nm->ctx, hart, x->site, buf, len)) return buf;
        return NULL;
    }
    default: {
        const char *n = nm && nm->func ? nm->func(nm->ctx, x->func) : NULL;
        if (n && *n) return n;
        snprintf(buf, len, "0x%08" PRIx64, nm && nm->addr ? nm->addr(nm->ctx, x->func) : (uint64_t)x->func);
        return buf;
    }
    }
}

typedef struct fline {
    char *s;
    uint64_t v;
} fline_t;
static int by_text(const void *a, const void *b) { return strcmp(((const fline_t *)a)->s, ((const fline_t *)b)->s); }

int st_write_folded(const st_t *t, unsigned col, const st_names_t *names, FILE *out) {
    if (t->oom) return -1;
    if (col >= t->ncols) return 0;
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++) m += st_cost(t, (uint32_t)i, col) != 0;
    fline_t *ln = calloc(m ? m : 1, sizeof *ln);
    uint32_t *path = NULL;
    size_t pcap = 0;
    bool oom = !ln;
    size_t k = 0;
    for (size_t i = 0; i < t->n && !oom; i++) {
        uint64_t v = st_cost(t, (uint32_t)i, col);
        if (!v) continue;
        size_t d = 0;
        for (uint32_t j = (uint32_t)i; j != ST_NONE; j = t->node[j].parent) {
            if (d == pcap) {
                size_t c = pcap ? 2 * pcap : 64;
                uint32_t *np = realloc(path, c * sizeof *np);
                if (!np) {
                    oom = true;
                    break;
                }
                path = np;
                pcap = c;
            }
            path[d++] = j;
        }
        if (oom) break;
        char *buf = NULL, nb[64];
        size_t len = 0, cap = 0;
        while (d-- > 0 && !oom) {
            const char *n = frame_name(t, path[d], names, nb, sizeof nb);
            if (n) put_frame(&buf, &len, &cap, n, &oom);
        }
        if (oom || !buf) {
            free(buf);
            oom = true;
            break;
        }
        ln[k].s = buf;
        ln[k++].v = v;
    }
    int rc = 0;
    if (!oom) {
        qsort(ln, k, sizeof *ln, by_text);
        for (size_t i = 0; i < k;) {
            uint64_t v = ln[i].v;
            size_t j = i + 1;
            while (j < k && !strcmp(ln[j].s, ln[i].s)) v += ln[j++].v;
            fprintf(out, "%s %" PRIu64 "\n", ln[i].s, v);
            i = j;
        }
        if (ferror(out)) rc = -1;
    } else {
        rc = -1;
    }
    for (size_t i = 0; ln && i < k; i++) free(ln[i].s);
    free(ln);
    free(path);
    return rc;
}
