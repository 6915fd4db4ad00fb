/* hook_cost.c - each perf record's hook cost from flow.csv and counters.csv; see hook_cost.h. */
#include "hook_cost.h"
#include "run_trace.h"
#include "ts_file.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the first 8 columns; a 9th, tp, follows in run folders of this version (a prefix match) */
#define HOOKS_HEAD "cycle,hart,hook,how,pc,a0,a1,ra"


static const char *const hook_names[4] = {"__cyg_profile_func_enter", "__cyg_profile_func_exit", "perfWriteCntrs",
                                          "perf_timer_tick"};

/* one row of flow.csv, counters.csv or hooks.csv (6, 5 or 8 fields, and flow.csv's and
 * hooks.csv's tp after them in run folders of this version), parsed; false at the end or on
 * a row that does not split into n fields (*bad set) */
typedef hc_row_t row_t; /* kind: c call, r ret, y cycle read, o other */

static bool read_row(FILE *f, char **line, size_t *cap, unsigned n, row_t *r, bool *bad) {
    *bad = false;
    for (;;) {
        ssize_t len = getline(line, cap, f);
        if (len < 0) return false;
        char *s = *line, *fl[10];
        if (len && s[len - 1] == '\n') s[--len] = 0;
        if (!*s) continue;
        unsigned k = 0;
        fl[k++] = s;
        for (char *q = s; *q && k < n + 1; q++)
            if (*q == ',') {
                *q = 0;
                fl[k++] = q + 1;
            }
        if (k < n) {
            *bad = true;
            return false;
        }
        r->cyc = strtoull(fl[0], NULL, 10);
        r->hart = (unsigned)strtoul(fl[1], NULL, 10) % PERF_MAX_CORES;
        r->kind = 'o';
        r->has_tp = k > n && *fl[n];
        r->tp = r->has_tp ? (uint32_t)strtoul(fl[n], NULL, 16) : 0;
        if (n == 6) { /* flow.csv: cycle,hart,kind,pc,target,link[,tp] */
            r->pc = strtoull(fl[3], NULL, 16);
            r->target = strtoull(fl[4], NULL, 16);
            r->link = strtoull(fl[5], NULL, 16);
            r->kind = !strcmp(fl[2], "call") ? 'c' : !strcmp(fl[2], "ret")                        ? 'r' :
                                                 !strcmp(fl[2], "trap")                           ? 'T' :
                                                 !strcmp(fl[2], "mret") || !strcmp(fl[2], "sret") ? 'X' :
                                                                                                    'o';
        } else if (n == 5) { /* counters.csv: cycle,hart,pc,csr,value */
            r->kind = !strcmp(fl[3], "cycle") || !strcmp(fl[3], "mcycle") ? 'y' : 'o';
        } else { /* hooks.csv: cycle,hart,hook,how,pc,a0,a1,ra[,tp] - a tail jump into a hook */
            r->hook = -1;
            for (int h = 0; h < 3; h++)
                if (!strcmp(fl[2], hook_names[h])) r->hook = h;
            if (r->hook >= 0 && !strcmp(fl[3], "tail")) {
                r->kind = 't';
                r->link = strtoull(fl[7], NULL, 16);
            }
        }
        return true;
    }
}

static FILE *open_csv(const char *dir, const char *name, const char *head, char **line, size_t *cap, char *err, size_t errlen) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = ts_fopen_input(path, err, errlen);
    if (!f) return NULL;
    if (getline(line, cap, f) < 0 || strncmp(*line, head, strlen(head))) {
        snprintf(err, errlen, "%s: not a %s (its first line is not '%s')", path, name, head);
        fclose(f);
        return NULL;
    }
    return f;
}

/* the hook a call goes to (enum perf_record_type order of hook_names), or -1 */
static int hook_of(const uint64_t addr[4], uint64_t target) {
    for (int k = 0; k < 4; k++)
        if (target == addr[k]) return k;
    return -1;
}

/* ---- one hart's hook calls, produced in call order from its rows of both files ----
 * flow.csv and counters.csv are each in cycle order; they are merged by cycle (a read before
 * a flow row of the same cycle: a read in the cycle of a call is not the call's, one in the
 * cycle of its return is). A read of the cycle counter belongs to the innermost open hook
 * call if that call has none yet. A call is final once it has returned; the calls are handed
 * out in call order, so what is held is the calls from the oldest open one on (bounded by
 * the hook nesting, not by the run). */
static int src_open(hc_hart_t *h, const hook_cost_t *hc, unsigned hart, char *err, size_t errlen) {
    h->flow = open_csv(hc->dir, "flow.csv", "cycle,hart,kind,pc,target,link", &h->fline, &h->fcap, err, errlen);
    if (!h->flow) return -1;
    h->ctr = open_csv(hc->dir, "counters.csv", "cycle,hart,pc,csr,value", &h->cline, &h->ccap, err, errlen);
    if (!h->ctr) return -1;
    if (hc->have_hooks) {
        h->hk = open_csv(hc->dir, "hooks.csv", HOOKS_HEAD, &h->hline, &h->hcap, err, errlen);
        if (!h->hk) return -1;
    } else {
        h->h_eof = true;
    }
    h->hart = hart;
    h->opened = true;
    return 0;
}

static bool src_next_flow(hc_hart_t *h) {
    bool bad;
    row_t r;
    while (!h->f_eof) {
        if (!read_row(h->flow, &h->fline, &h->fcap, 6, &r, &bad)) {
            h->f_eof = true;
            break;
        }
        if (r.hart != h->hart) continue;
        h->frow = r;
        return true;
    }
    return false;
}
static bool src_next_ctr(hc_hart_t *h) {
    bool bad;
    row_t r;
    while (!h->c_eof) {
        if (!read_row(h->ctr, &h->cline, &h->ccap, 5, &r, &bad)) {
            h->c_eof = true;
            break;
        }
        if (r.hart != h->hart || r.kind != 'y') continue;
        h->crow = r;
        return true;
    }
    return false;
}

static bool src_next_hook(hc_hart_t *h) {
    bool bad;
    row_t r;
    while (!h->h_eof) {
        if (!read_row(h->hk, &h->hline, &h->hcap, 8, &r, &bad)) {
            h->h_eof = true;
            break;
        }
        if (r.hart != h->hart || r.kind != 't') continue;
        h->hrow = r;
        return true;
    }
    return false;
}

/* a hook entered at cycle e, returning to link, by the thread r->tp names (if r has it): a
 * new open call */
static int open_call(hc_hart_t *h, const row_t *r, uint64_t e, uint64_t link, int kind, char *err, size_t errlen) {
    if (h->nopen == h->opencap) { /* no bound: threads preempted inside hooks leave calls open */
        unsigned cap = h->opencap ? 2 * h->opencap : 8;
        hc_open_t *o = realloc(h->open, cap * sizeof *o);
        if (!o) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        h->open = o;
        h->opencap = cap;
    }
    h->open[h->nopen++] = (hc_open_t){{e, UINT64_MAX, UINT64_MAX, 0, 0, UINT64_MAX, UINT64_MAX, (uint8_t)kind}, link, 0, 0, true, r->has_tp, r->tp, 0, UINT64_MAX};
    return 0;
}

/* open call j returned at cycle x: done, if it read the cycle counter */
static int close_call(hook_cost_t *hc, hc_hart_t *h, unsigned j, uint64_t x, char *err, size_t errlen) {
    hc_call_t c = h->open[j].c;
    memmove(&h->open[j], &h->open[j + 1], (h->nopen - j - 1) * sizeof h->open[0]);
    h->nopen--;
    c.x = x;
    if (c.r == UINT64_MAX) {
        hc->calls_no_read++;
        return 0;
    }
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 16;
        hc_call_t *a = realloc(h->c, cap * sizeof *a);
        if (!a) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        h->c = a;
        h->cap = cap;
    }
    h->c[h->n++] = c;
    return 0;
}

/* the done call with the earliest cycle read, if no call can still come before it: an open
 * call that has read the counter earlier (a hook an interrupt handler's hook nests in); open
 * calls that have not read it yet, and later calls, read it later. -1: none yet */
static long next_done(const hc_hart_t *h, bool at_end) {
    long best = -1;
    for (size_t i = 0; i < h->n; i++)
        if (best < 0 || h->c[i].r < h->c[best].r) best = (long)i;
    if (best < 0 || at_end) return best;
    for (unsigned k = 0; k < h->nopen; k++)
        if (h->open[k].c.r < h->c[best].r) return -1;
    return best;
}

/* processes rows until a done call can be handed out (or the rows end); 0, or -1. Rows of
 * one cycle: the counter read first (a read in the cycle of a hook's entry is not the hook's,
 * one in the cycle of its return is), then flow.csv, then hooks.csv */
static int src_fill(hook_cost_t *hc, hc_hart_t *h, char *err, size_t errlen) {
    if (!h->have_f && !h->f_eof) h->have_f = src_next_flow(h);
    if (!h->have_c && !h->c_eof) h->have_c = src_next_ctr(h);
    if (!h->have_h && !h->h_eof) h->have_h = src_next_hook(h);
    while ((h->have_f || h->have_c || h->have_h) && next_done(h, false) < 0) {
        uint64_t fc = h->have_f ? h->frow.cyc : UINT64_MAX, cc = h->have_c ? h->crow.cyc : UINT64_MAX,
                 hk = h->have_h ? h->hrow.cyc : UINT64_MAX;
        if (h->have_c && cc <= fc && cc <= hk) {
            /* the call control is in (not one a trap left: another thread's, preempted) */
            unsigned j = h->nopen;
            while (j && !h->open[j - 1].inside) j--;
            if (j) {
                hc_call_t *c = &h->open[j - 1].c;
                if (c->e < cc && c->r == UINT64_MAX) {
                    c->r = cc;
                    c->trap_pre = c->trap;
                }
            }
            h->have_c = src_next_ctr(h);
        } else if (h->have_f && fc <= hk) {
            const row_t *r = &h->frow;
            int k;
            if (r->kind == 'c' && (k = hook_of(h->addr, r->target)) >= 0) {
                if (open_call(h, r, r->cyc, r->link, k, err, errlen)) return -1;
            } else if (r->kind == 'r' && h->nopen) {
                /* the latest open call that returns there: the innermost, or, when a thread
                 * preempted inside a hook resumes, its own call below the other threads' */
                unsigned j = h->nopen;
                while (j && !(h->open[j - 1].inside && h->open[j - 1].link == r->target)) j--;
                if (!j) { /* (a call entered by a tail jump returns from its caller) */
                    j = h->nopen;
                    while (j && h->open[j - 1].link != r->target) j--;
                }
                if (j && close_call(hc, h, j - 1, r->cyc, err, errlen)) return -1;
            } else if (r->kind == 'T') { /* a trap: its handler's cycles are not the open hooks' */
                if (!h->traps)           /* the calls of threads switched out: the other thread's run ends */
                    for (unsigned q = 0; q < h->nopen; q++)
                        if (h->open[q].parked != UINT64_MAX) {
                            h->open[q].c.trap += r->cyc - h->open[q].parked;
                            h->open[q].parked = UINT64_MAX;
                        }
                if (!h->traps++) h->trap_at = r->cyc;
                for (unsigned j = 0; j < h->nopen; j++)
                    if (h->open[j].c.r < r->cyc && h->open[j].c.t1 == UINT64_MAX) h->open[j].c.t1 = r->cyc;
                /* taken inside a hook call (the one control is in): the handler's own code is
                 * neither the hook's cost nor the interrupted function's (hc_match_traps) */
                unsigned j = h->nopen;
                while (j && !h->open[j - 1].inside) j--;
                if (j) {
                    h->open[j - 1].inside = false;
                    h->open[j - 1].trap_pc = r->pc;
                    h->open[j - 1].level = h->traps;
                    h->open[j - 1].left = r->cyc;
                    if (h->ht_run < 0) {
                        if (h->nht == h->capht) {
                            size_t cap = h->capht ? 2 * h->capht : 8;
                            hc_trap_t *t = realloc(h->ht, cap * sizeof *t);
                            if (!t) {
                                snprintf(err, errlen, "out of memory");
                                return -1;
                            }
                            h->ht = t;
                            h->capht = cap;
                        }
                        h->ht[h->nht] = (hc_trap_t){r->cyc, UINT64_MAX, h->traps};
                        h->ht_run = (long)h->nht++;
                    }
                }
            } else if (r->kind == 'X' && h->traps) {
                if (h->ht_run >= 0 && h->ht[h->ht_run].level == h->traps) {
                    h->ht[h->ht_run].b = r->cyc;
                    h->ht_run = -1;
                }
                /* the call the trap left resumes: one left at that pc by a trap of this
                 * level, of the thread the mret resumes (flow.csv's tp: after a context
                 * switch the new thread's). Without tp (run folders of older versions), of
                 * several threads left at the same instruction of a hook, the one left first
                 * (a round robin resumes the longest waiting; counted, the report says so) */
                unsigned j = 0, cand = 0;
                for (unsigned q = 0; q < h->nopen; q++) {
                    const hc_open_t *o = &h->open[q];
                    if (o->inside || o->trap_pc != r->target || o->level != h->traps) continue;
                    if (r->has_tp && o->has_tp) {
                        if (o->tp == r->tp) j = q + 1;
                        continue;
                    }
                    cand++;
                    if (!j || o->left < h->open[j - 1].left) j = q + 1;
                }
                if (cand > 1) hc->resume_guesses++;
                if (j) {
                    h->open[j - 1].inside = true;
                    if (h->open[j - 1].c.t1 != UINT64_MAX) h->open[j - 1].c.tl = r->cyc;
                }
                if (!--h->traps)
                    for (unsigned q = 0; q < h->nopen; q++) {
                        if (h->open[q].c.e < h->trap_at) h->open[q].c.trap += r->cyc - h->trap_at;
                        /* a call a trap left and this mret does not resume: its thread is
                         * switched out, and the cycles until the next trap are another's */
                        if (!h->open[q].inside) h->open[q].parked = r->cyc;
                    }
            }
            h->have_f = src_next_flow(h);
        } else { /* a tail jump into a hook: it returns to the jumping function's caller */
            if (open_call(h, &h->hrow, h->hrow.cyc, h->hrow.link, h->hrow.hook, err, errlen)) return -1;
            h->have_h = src_next_hook(h);
        }
    }
    if (!h->have_f && !h->have_c && !h->have_h) { /* the end: calls still open never returned */
        hc->calls_no_read += h->nopen;
        h->nopen = 0;
    }
    return 0;
}

/* the next hook call of the hart that read the cycle counter and returned, in the order of
 * their reads (the order of the records they wrote), into *out; false at the end */
static bool src_take(hook_cost_t *hc, hc_hart_t *h, hc_call_t *out) {
    if (src_fill(hc, h, hc->err, sizeof hc->err)) {
        h->failed = true;
        return false;
    }
    long i = next_done(h, true);
    if (i < 0) return false;
    *out = h->c[i];
    h->c[i] = h->c[--h->n];
    return true;
}

int hc_load(hook_cost_t *hc, const char *run_dir, const elf_syms_t *syms, char *err, size_t errlen) {
    memset(hc, 0, sizeof *hc);
    for (unsigned k = 0; k < 4; k++) {
        hc->addr[k] = UINT64_MAX;
        for (size_t i = 0; i < syms->n; i++)
            if (!strcmp(syms->s[i].name, hook_names[k])) {
                hc->addr[k] = syms->s[i].addr;
                break;
            }
    }
    if (hc->addr[0] == UINT64_MAX && hc->addr[2] == UINT64_MAX && hc->addr[3] == UINT64_MAX) {
        snprintf(err, errlen, "the ELF has none of the perf library's hooks (__cyg_profile_func_enter, perfWriteCntrs, perf_timer_tick)");
        return -1;
    }
    snprintf(hc->dir, sizeof hc->dir, "%s", run_dir);
    /* one pass over the files now, so that a damaged file is reported before the profile:
     * every row splits into its fields (the calls themselves are read again, per hart, as the
     * records ask for them); hooks.csv, the hooks entered by tail jumps, is optional (runs of
     * older versions lack it) */
    char path[4200];
    snprintf(path, sizeof path, "%s/hooks.csv", run_dir);
    hc->have_hooks = !access(path, F_OK);
    static const struct {
        const char *name, *head;
        unsigned n;
    } files[] = {
        {"flow.csv", "cycle,hart,kind,pc,target,link", 6}, {"counters.csv", "cycle,hart,pc,csr,value", 5}, {"hooks.csv", HOOKS_HEAD, 8}};
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    for (unsigned i = 0; i < 3 && !rc; i++) {
        if (i == 2 && !hc->have_hooks) break;
        FILE *f = open_csv(run_dir, files[i].name, files[i].head, &line, &cap, err, errlen);
        if (!f) {
            rc = -1;
            break;
        }
        row_t r;
        bool bad = false;
        unsigned lineno = 1;
        while (read_row(f, &line, &cap, files[i].n, &r, &bad)) lineno++;
        if (bad) {
            snprintf(err, errlen, "%s/%s: line %u: not %u fields", run_dir, files[i].name, lineno + 1, files[i].n);
            rc = -1;
        }
        fclose(f);
    }
    free(line);
    if (rc) return -1;
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) {
        memcpy(hc->h[h].addr, hc->addr, sizeof hc->addr);
        hc->h[h].ht_run = -1;
        snprintf(hc->h[h].dir, sizeof hc->h[h].dir, "%s", run_dir);
    }
    return 0;
}

void hc_free(hook_cost_t *hc) {
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) {
        hc_hart_t *hh = &hc->h[h];
        if (hh->flow) fclose(hh->flow);
        if (hh->ctr) fclose(hh->ctr);
        if (hh->hk) fclose(hh->hk);
        free(hh->hline);
        free(hh->fline);
        free(hh->cline);
        free(hh->c);
        free(hh->open);
        free(hh->ht);
        free(hh->late);
    }
    memset(hc, 0, sizeof *hc);
}

void hc_reset(hook_cost_t *hc, unsigned hart) { hc->h[hart % PERF_MAX_CORES].dead = true; }

bool hc_match(hook_cost_t *hc, const perf_record_t *r, uint64_t cycles_delta, uint64_t *pre, uint64_t *post) {
    unsigned hart = r->core % PERF_MAX_CORES;
    hc_hart_t *h = &hc->h[hart];
    if (h->dead) return false;
    if (!h->opened && src_open(h, hc, hart, hc->err, sizeof hc->err)) {
        h->dead = h->failed = true;
        return false;
    }
    hc_call_t c;
    bool found = false;
    if (!h->anchored) {
        while (src_take(hc, h, &c))
            if (c.kind == (uint8_t)r->type) {
                found = true;
                break;
            }
    } else if (cycles_delta != UINT64_MAX) {
        uint64_t want = h->last_r + cycles_delta;
        while (src_take(hc, h, &c))
            if (c.r >= want) {
                found = c.kind == (uint8_t)r->type && c.r == want;
                break;
            }
    }
    if (!found) {
        h->dead = true;
        return false;
    }
    *pre = c.r - c.e - c.trap_pre;
    *post = c.x - c.r - (c.trap - c.trap_pre);
    /* the interval from the previous record's read to this one's: the cycles of traps taken
     * inside hooks outside any hook call (neither end inside the same trap: both records
     * written in its handler bound the handler's instrumented code), and the hook cycles
     * after such traps' mrets that fall in it */
    h->handler = h->late_now = h->moved = 0;
    if (h->anchored) {
        uint64_t lr = h->last_r, rr = c.r;
        for (size_t i = 0; i < h->nht; i++) {
            uint64_t a = h->ht[i].a, b = h->ht[i].b;
            if (a >= rr || b <= lr) continue;
            bool pin = lr > a && lr<b, cin = rr> a && rr < b;
            if (pin && cin) continue;
            uint64_t ov = (b < rr ? b : rr) - (a > lr ? a : lr);
            if (pin) ov -= ov < h->last_post ? ov : h->last_post;
            if (cin) ov -= ov < *pre ? ov : *pre;
            h->handler += ov;
        }
        size_t k = 0;
        for (size_t i = 0; i < h->nlate; i++)
            if (h->late[i].x <= rr) h->late_now += h->late[i].cycles;
            else
                h->late[k++] = h->late[i];
        h->nlate = k;
        k = 0;
        h->ht_run = -1;
        for (size_t i = 0; i < h->nht; i++)
            if (h->ht[i].b == UINT64_MAX || h->ht[i].b > rr) {
                if (h->ht[i].b == UINT64_MAX) h->ht_run = (long)k;
                h->ht[k++] = h->ht[i];
            }
        h->nht = k;
    }
    /* a trap after the read, taken while the call was open: its post part is the cycles up
     * to the trap, and those from the last mret to the return are a later interval's */
    if (c.t1 != UINT64_MAX && c.tl != UINT64_MAX && c.t1 < c.tl && c.tl < c.x) {
        /* (hook cycles between two such traps go with the late part: the cost stays whole) */
        uint64_t early = c.t1 - c.r, late = *post - early;
        if (early <= *post) {
            if (h->nlate == h->caplate) {
                size_t cap = h->caplate ? 2 * h->caplate : 8;
                hc_late_t *l = realloc(h->late, cap * sizeof *l);
                if (!l) {
                    h->dead = true;
                    return false;
                }
                h->late = l;
                h->caplate = cap;
            }
            h->late[h->nlate++] = (hc_late_t){c.x, late};
            *post = early;
            h->moved = late;
        }
    }
    h->anchored = true;
    h->last_r = c.r;
    h->last_post = *post;
    return true;
}

void hc_match_traps(const hook_cost_t *hc, const perf_record_t *r, uint64_t *handler, uint64_t *late, uint64_t *moved) {
    const hc_hart_t *h = &hc->h[r->core % PERF_MAX_CORES];
    *handler = h->handler;
    *late = h->late_now;
    *moved = h->moved;
}

const char *hc_failed(const hook_cost_t *hc) {
    for (unsigned h = 0; h < PERF_MAX_CORES; h++)
        if (hc->h[h].failed) return hc->err;
    return NULL;
}
