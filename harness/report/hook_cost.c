/* hook_cost.c - each perf record's hook cost from flow.csv and counters.csv; see hook_cost.h. */
#include "hook_cost.h"
#include "cli_util.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPEN 8                    /* hook calls open at once on a hart (an ISR in a hook) */

static const char *const hook_names[4] = {"__cyg_profile_func_enter", "__cyg_profile_func_exit", "perfWriteCntrs",
                                          "perf_timer_tick"};

static int add_call(hc_hart_t *h, const hc_call_t *c) {
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        hc_call_t *a = realloc(h->c, cap * sizeof *a);
        if (!a) return -1;
        h->c = a;
        h->cap = cap;
    }
    h->c[h->n++] = *c;
    return 0;
}

/* the next line of a CSV text, split at commas into at most n fields; 0 at the end */
static unsigned next_row(char **pos, char **f, unsigned n) {
    char *s = *pos;
    if (!*s) return 0;
    char *eol = strchr(s, '\n');
    if (eol) { *eol = 0; *pos = eol + 1; } else *pos = s + strlen(s);
    unsigned k = 0;
    f[k++] = s;
    for (char *q = s; *q && k < n; q++)
        if (*q == ',') { *q = 0; f[k++] = q + 1; }
    return k;
}

static char *load_csv(const char *dir, const char *name, const char *head, char *err, size_t errlen) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len;
    char *t = ts_read_file(path, &len, err, errlen);
    if (!t) return NULL;
    if (strncmp(t, head, strlen(head))) {
        snprintf(err, errlen, "%s: not a %s (its first line is not '%s')", path, name, head);
        free(t);
        return NULL;
    }
    return t;
}

typedef struct open_call { uint64_t link; size_t i; } open_call_t;

int hc_load(hook_cost_t *hc, const char *run_dir, const elf_syms_t *syms, char *err, size_t errlen) {
    memset(hc, 0, sizeof *hc);
    uint64_t addr[4];
    for (unsigned k = 0; k < 4; k++) {
        addr[k] = UINT64_MAX;
        for (size_t i = 0; i < syms->n; i++)
            if (!strcmp(syms->s[i].name, hook_names[k])) { addr[k] = syms->s[i].addr; break; }
    }
    if (addr[0] == UINT64_MAX && addr[2] == UINT64_MAX && addr[3] == UINT64_MAX) {
        snprintf(err, errlen, "the ELF has none of the perf library's hooks (__cyg_profile_func_enter, perfWriteCntrs, perf_timer_tick)");
        return -1;
    }
    char *flow = load_csv(run_dir, "flow.csv", "cycle,hart,kind,pc,target,link", err, errlen);
    if (!flow) return -1;
    char *ctr = load_csv(run_dir, "counters.csv", "cycle,hart,pc,csr,value", err, errlen);
    if (!ctr) { free(flow); return -1; }
    /* hook calls and their returns, per hart in file order (= program order) */
    open_call_t open[PERF_MAX_CORES][MAX_OPEN];
    unsigned nopen[PERF_MAX_CORES] = {0};
    char *pos = strchr(flow, '\n'), *f[6];
    pos = pos ? pos + 1 : flow + strlen(flow);
    unsigned line = 1;
    int rc = 0;
    unsigned nf;
    while ((nf = next_row(&pos, f, 6)) != 0) {
        line++;
        if (nf < 6) { snprintf(err, errlen, "%s/flow.csv: line %u: not 6 fields", run_dir, line); rc = -1; break; }
        uint64_t cyc = strtoull(f[0], NULL, 10), target = strtoull(f[4], NULL, 16), link = strtoull(f[5], NULL, 16);
        unsigned h = (unsigned)strtoul(f[1], NULL, 10) % PERF_MAX_CORES;
        hc_hart_t *hh = &hc->h[h];
        if (!strcmp(f[2], "call")) {
            for (unsigned k = 0; k < 4; k++) {
                if (target != addr[k]) continue;
                hc_call_t c = {cyc, UINT64_MAX, UINT64_MAX, (uint8_t)k};
                if (nopen[h] == MAX_OPEN || add_call(hh, &c)) {
                    snprintf(err, errlen, "%s/flow.csv: line %u: %s", run_dir, line,
                             nopen[h] == MAX_OPEN ? "too many nested hook calls" : "out of memory");
                    rc = -1;
                    break;
                }
                open[h][nopen[h]++] = (open_call_t){link, hh->n - 1};
            }
            if (rc) break;
        } else if (!strcmp(f[2], "ret") && nopen[h] && target == open[h][nopen[h] - 1].link) {
            hh->c[open[h][--nopen[h]].i].x = cyc;
        }
    }
    /* each hook call's first read of the cycle counter (counters.csv: per hart, cycle order) */
    size_t at[PERF_MAX_CORES] = {0};
    pos = strchr(ctr, '\n');
    pos = pos ? pos + 1 : ctr + strlen(ctr);
    while (!rc && (nf = next_row(&pos, f, 5)) != 0) {
        if (nf < 5 || (strcmp(f[3], "cycle") && strcmp(f[3], "mcycle"))) continue;
        uint64_t cyc = strtoull(f[0], NULL, 10);
        unsigned h = (unsigned)strtoul(f[1], NULL, 10) % PERF_MAX_CORES;
        hc_hart_t *hh = &hc->h[h];
        while (at[h] < hh->n && hh->c[at[h]].x < cyc) at[h]++;
        /* the innermost call holding the read: an ISR's hook inside another hook comes later */
        size_t k = at[h];
        for (size_t j = at[h]; j < hh->n && hh->c[j].e < cyc; j++)
            if (hh->c[j].x >= cyc) k = j;
        if (k < hh->n && hh->c[k].e < cyc && hh->c[k].x >= cyc && hh->c[k].r == UINT64_MAX) hh->c[k].r = cyc;
    }
    /* keep the calls that read the cycle counter and returned */
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) {
        hc_hart_t *hh = &hc->h[h];
        size_t m = 0;
        for (size_t i = 0; i < hh->n; i++) {
            if (hh->c[i].r == UINT64_MAX || hh->c[i].x == UINT64_MAX) { hc->calls_no_read++; continue; }
            hh->c[m++] = hh->c[i];
        }
        hh->n = m;
    }
    free(flow);
    free(ctr);
    if (rc) hc_free(hc);
    return rc;
}

void hc_free(hook_cost_t *hc) {
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) free(hc->h[h].c);
    memset(hc, 0, sizeof *hc);
}

void hc_reset(hook_cost_t *hc, unsigned hart) { hc->h[hart % PERF_MAX_CORES].dead = true; }

bool hc_match(hook_cost_t *hc, const perf_record_t *r, uint64_t cycles_delta, uint64_t *pre, uint64_t *post) {
    hc_hart_t *h = &hc->h[r->core % PERF_MAX_CORES];
    if (h->dead) return false;
    size_t i = h->next;
    if (!h->anchored) {
        while (i < h->n && h->c[i].kind != (uint8_t)r->type) i++;
    } else {
        if (cycles_delta == UINT64_MAX) { h->dead = true; return false; }
        uint64_t want = h->last_r + cycles_delta;
        while (i < h->n && h->c[i].r < want) i++;
        if (i < h->n && h->c[i].kind != (uint8_t)r->type) i = h->n;
        if (i < h->n && h->c[i].r != want) i = h->n;
    }
    if (i >= h->n) { h->dead = true; return false; }
    h->anchored = true;
    h->last_r = h->c[i].r;
    h->next = i + 1;
    *pre = h->c[i].r - h->c[i].e;
    *post = h->c[i].x - h->c[i].r;
    return true;
}
