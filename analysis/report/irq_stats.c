/* irq_stats.c - interrupts and threads in numbers; see irq_stats.h. */
#include "irq_stats.h"
#include "traps_csv.h"
#include "elements.h"
#include "ts_file.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IRQS_DEPTH 256 /* open traps followed per hart; deeper entries count, without time */

typedef struct irqs_open {
    size_t cause; /* index into s->st.cause */
    uint64_t t;
} irqs_open_t;

typedef struct irqs_hart {
    bool used;
    irqs_open_t open[IRQS_DEPTH];
    unsigned n, lost; /* open traps; entries beyond IRQS_DEPTH (their returns pop nothing) */
    bool running;     /* a thread named by a switch runs */
    size_t thread;    /* it (index into s->st.thread) */
    uint64_t since;   /* when it was switched in */
    bool last_irq;    /* the newest trap entry since it was switched in is an interrupt */
} irqs_hart_t;

#define IRQS_HARTS 256

struct irqs {
    irq_stats_t st;
    uint64_t last_time[IRQS_HARTS]; /* irqs_trace_elem: a source's last time */
    size_t cap_cause, cap_thread;
    irqs_hart_t *hart[IRQS_HARTS];
    bool oom;
};

irqs_t *irqs_new(void) { return calloc(1, sizeof(irqs_t)); }

void irqs_free(irqs_t *s) {
    if (!s) return;
    for (unsigned i = 0; i < IRQS_HARTS; i++) free(s->hart[i]);
    free(s->st.cause);
    free(s->st.thread);
    free(s);
}

static irqs_hart_t *hart_of(irqs_t *s, unsigned hart) {
    hart %= IRQS_HARTS;
    if (!s->hart[hart] && !(s->hart[hart] = calloc(1, sizeof(irqs_hart_t)))) return NULL;
    return s->hart[hart];
}

static void span_add(irq_span_t *sp, uint64_t v) {
    if (!sp->n || v < sp->min) sp->min = v;
    if (!sp->n || v > sp->max) sp->max = v;
    sp->n++;
    sp->sum += v;
}

/* the row of (hart, cause), made when new; SIZE_MAX: out of memory */
static size_t cause_row(irqs_t *s, unsigned hart, uint32_t cause) {
    for (size_t i = 0; i < s->st.ncause; i++)
        if (s->st.cause[i].hart == hart && s->st.cause[i].cause == cause) return i;
    if (s->st.ncause == s->cap_cause) {
        size_t cap = s->cap_cause ? 2 * s->cap_cause : 16;
        irq_cause_t *c = realloc(s->st.cause, cap * sizeof *c);
        if (!c) return SIZE_MAX;
        s->st.cause = c;
        s->cap_cause = cap;
    }
    irq_cause_t *c = &s->st.cause[s->st.ncause];
    memset(c, 0, sizeof *c);
    c->hart = hart;
    c->cause = cause;
    return s->st.ncause++;
}

static size_t thread_row(irqs_t *s, unsigned hart, uint64_t id) {
    for (size_t i = 0; i < s->st.nthread; i++)
        if (s->st.thread[i].hart == hart && s->st.thread[i].id == id) return i;
    if (s->st.nthread == s->cap_thread) {
        size_t cap = s->cap_thread ? 2 * s->cap_thread : 16;
        irq_thread_t *t = realloc(s->st.thread, cap * sizeof *t);
        if (!t) return SIZE_MAX;
        s->st.thread = t;
        s->cap_thread = cap;
    }
    irq_thread_t *t = &s->st.thread[s->st.nthread];
    memset(t, 0, sizeof *t);
    t->hart = hart;
    t->id = id;
    return s->st.nthread++;
}

int irqs_enter(irqs_t *s, unsigned hart, uint32_t cause, uint64_t t) {
    irqs_hart_t *h = hart_of(s, hart);
    size_t r = h ? cause_row(s, hart, cause) : SIZE_MAX;
    if (r == SIZE_MAX) return -1;
    s->st.traps = true;
    irq_cause_t *c = &s->st.cause[r];
    unsigned depth = h->n + h->lost;
    c->visits++;
    if (depth) c->nested++;
    if (depth > c->max_depth) c->max_depth = depth;
    h->last_irq = cause >> 31;
    if (h->n == IRQS_DEPTH) {
        h->lost++;
        return 0;
    }
    h->open[h->n++] = (irqs_open_t){r, t};
    return 0;
}

int irqs_return(irqs_t *s, unsigned hart, uint64_t t) {
    irqs_hart_t *h = hart_of(s, hart);
    if (!h) return -1;
    s->st.returns = true;
    if (h->lost) {
        h->lost--;
        return 0;
    }
    if (!h->n) {
        s->st.unmatched++;
        return 0;
    }
    irqs_open_t *o = &h->open[--h->n];
    span_add(&s->st.cause[o->cause].time, t >= o->t ? t - o->t : 0);
    return 0;
}

int irqs_switch(irqs_t *s, unsigned hart, uint64_t id, uint64_t t) {
    irqs_hart_t *h = hart_of(s, hart);
    if (!h) return -1;
    s->st.switches = true;
    if (h->running && s->st.thread[h->thread].id == id) return 0; /* no change */
    size_t r = thread_row(s, hart, id);
    if (r == SIZE_MAX) return -1;
    if (h->running) {
        irq_thread_t *old = &s->st.thread[h->thread];
        span_add(&old->time, t >= h->since ? t - h->since : 0);
        bool preempted = h->n || h->lost ? (h->n ? s->st.cause[h->open[h->n - 1].cause].cause >> 31 : false) :
                                           !s->st.returns && h->last_irq;
        if (preempted) old->preemptions++;
    }
    s->st.thread[r].visits++;
    h->running = true;
    h->thread = r;
    h->since = t;
    h->last_irq = false;
    return 0;
}

int irqs_latency(irqs_t *s, unsigned hart, uint32_t cause, uint64_t pending, uint64_t taken, uint64_t first) {
    size_t r = cause_row(s, hart, cause);
    if (r == SIZE_MAX) return -1;
    s->st.latency = true;
    irq_cause_t *c = &s->st.cause[r];
    if (first >= pending) span_add(&c->latency, first - pending);
    if (taken >= pending) span_add(&c->to_take, taken - pending);
    return 0;
}

static int cmp_cause(const void *a, const void *b) {
    const irq_cause_t *x = a, *y = b;
    if (x->hart != y->hart) return x->hart < y->hart ? -1 : 1;
    unsigned xi = !(x->cause >> 31), yi = !(y->cause >> 31); /* interrupts first */
    if (xi != yi) return xi < yi ? -1 : 1;
    return x->cause < y->cause ? -1 : x->cause > y->cause;
}

const irq_stats_t *irqs_result(irqs_t *s) {
    /* sorting moves rows: the open traps' and running threads' indexes follow */
    for (size_t i = 0; i < s->st.ncause; i++) s->st.cause[i].open = 0;
    for (size_t i = 0; i < s->st.nthread; i++) s->st.thread[i].running = 0;
    for (unsigned k = 0; k < IRQS_HARTS; k++) {
        irqs_hart_t *h = s->hart[k];
        if (!h) continue;
        for (unsigned i = 0; i < h->n; i++) s->st.cause[h->open[i].cause].open++;
        if (h->running) s->st.thread[h->thread].running = 1;
    }
    /* the rows' order: a stable copy sorted (indexes kept for further events) */
    return &s->st;
}

/* a sorted copy for the writers */
static irq_cause_t *sorted_causes(const irq_stats_t *st) {
    irq_cause_t *c = malloc((st->ncause ? st->ncause : 1) * sizeof *c);
    if (!c) return NULL;
    if (st->ncause) memcpy(c, st->cause, st->ncause * sizeof *c);
    qsort(c, st->ncause, sizeof *c, cmp_cause);
    return c;
}

const char *irqs_cause_name(uint32_t cause, char *buf, size_t len) {
    static const char *const irq[16] = {NULL, "S software interrupt", NULL, "M software interrupt", NULL, "S timer interrupt",
                                        NULL, "M timer interrupt", NULL, "S external interrupt", NULL, "M external interrupt",
                                        NULL, "counter overflow interrupt", NULL, NULL};
    static const char *const exc[16] = {"instruction misaligned", "instruction access fault", "illegal instruction",
                                        "breakpoint", "load misaligned", "load access fault", "store misaligned",
                                        "store access fault", "ecall from U-mode", "ecall from S-mode", NULL,
                                        "ecall from M-mode", "instruction page fault", "load page fault", NULL,
                                        "store page fault"};
    uint32_t code = cause & 0x7FFFFFFFu;
    const char *n = code < 16 ? (cause >> 31 ? irq : exc)[code] : NULL;
    if (n) return n;
    snprintf(buf, len, "%s %" PRIu32, cause >> 31 ? "interrupt" : "exception", code);
    return buf;
}

/* "min/mean/max" or "-" */
static void put_span(FILE *o, const irq_span_t *sp, int w) {
    char b[80];
    if (!sp->n) snprintf(b, sizeof b, "-");
    else
        snprintf(b, sizeof b, "%" PRIu64 "/%.1f/%" PRIu64, sp->min, (double)sp->sum / (double)sp->n, sp->max);
    fprintf(o, " %*s", w, b);
}

static void write_causes(const irq_stats_t *st, bool truth, FILE *o) {
    irq_cause_t *c = sorted_causes(st);
    if (!c) return;
    char nb[48];
    fprintf(o, "%-4s %-10s %-28s %8s %8s %6s %6s %24s", "hart", "mcause", "cause", "visits", "nested", "depth", "open",
            "time min/mean/max");
    if (truth) fprintf(o, " %24s %24s", "latency min/mean/max", "pending->taken");
    fputc('\n', o);
    for (size_t i = 0; i < st->ncause; i++) {
        const irq_cause_t *r = &c[i];
        fprintf(o, "%-4u 0x%08" PRIx32 " %-28s %8" PRIu64, r->hart, r->cause, irqs_cause_name(r->cause, nb, sizeof nb),
                r->visits);
        if (st->returns) fprintf(o, " %8" PRIu64 " %6u %6" PRIu64, r->nested, r->max_depth, r->open);
        else
            fprintf(o, " %8s %6s %6s", "-", "-", "-");
        put_span(o, &r->time, 24);
        if (truth) {
            put_span(o, &r->latency, 24);
            put_span(o, &r->to_take, 24);
        }
        fputc('\n', o);
    }
    free(c);
}

static void write_threads(const irq_stats_t *st, FILE *o) {
    fprintf(o, "%-4s %-10s %8s %11s %7s %24s\n", "hart", "thread", "visits", "preemptions", "running", "time min/mean/max");
    for (size_t i = 0; i < st->nthread; i++) {
        const irq_thread_t *t = &st->thread[i];
        fprintf(o, "%-4u 0x%08" PRIx64 " %8" PRIu64, t->hart, t->id, t->visits);
        if (st->traps) fprintf(o, " %11" PRIu64, t->preemptions);
        else
            fprintf(o, " %11s", "-");
        fprintf(o, " %7s", t->running ? "yes" : "no");
        put_span(o, &t->time, 24);
        fputc('\n', o);
    }
}

int irqs_write_text(const irq_stats_t *trace, const irq_stats_t *truth, const char *trace_note, FILE *o) {
    fputs("Interrupts and threads (times in cycles; min/mean/max)\n\n", o);
    fputs("From the trace", o);
    if (trace_note) fprintf(o, " (%s)", trace_note);
    fputs(":\n", o);
    if (!trace) {
        fputs("  none\n", o);
    } else if (!trace->traps && !trace->switches) {
        fputs("  no trap events (event-mode program trace, evControl interrupt/exception) and no thread\n"
              "  switches (run --stm-thread-switch) in the trace\n",
              o);
    } else {
        if (trace->traps) {
            fputs("\nTraps (the trace has no event for an xRET: no handler time, no nesting)\n", o);
            write_causes(trace, false, o);
        }
        if (trace->switches) {
            fputs("\nThreads (switched in -> switched away; preemptions: a switch after an interrupt", o);
            fputs(trace->traps ? ")\n" : "; unknown: no trap events)\n", o);
            write_threads(trace, o);
        }
    }
    fputs("\nFrom the simulator's ground truth (traps.csv, stm.csv of the run folder):\n", o);
    if (!truth) {
        fputs("  none (a trace file, or a run folder without traps.csv)\n", o);
    } else {
        fputs("\nTraps (time: taken -> its xRET, nested traps included; latency: pending -> the handler's first\n"
              "instruction retired; pending: the first cycle the interrupt was pending and enabled, which the\n"
              "trace cannot know)\n",
              o);
        if (truth->ncause) write_causes(truth, true, o);
        else
            fputs("  no trap\n", o);
        if (truth->switches) {
            fputs("\nThreads (THREAD_SWITCH events of the core; preemptions: switches inside an interrupt's handler)\n", o);
            write_threads(truth, o);
        }
    }
    fflush(o);
    return ferror(o) ? -1 : 0;
}

static void csv_span(FILE *o, const irq_span_t *sp) {
    if (!sp->n) fputs(",,,", o);
    else
        fprintf(o, ",%" PRIu64 ",%.3f,%" PRIu64, sp->min, (double)sp->sum / (double)sp->n, sp->max);
}

static void csv_source(const irq_stats_t *st, const char *src, FILE *o) {
    irq_cause_t *c = sorted_causes(st);
    if (!c) return;
    char nb[48];
    for (size_t i = 0; i < st->ncause; i++) {
        const irq_cause_t *r = &c[i];
        fprintf(o, "%s,cause,%u,0x%08" PRIx32 ",%s,%" PRIu64, src, r->hart, r->cause, irqs_cause_name(r->cause, nb, sizeof nb),
                r->visits);
        if (st->returns) fprintf(o, ",%" PRIu64 ",%u,%" PRIu64, r->nested, r->max_depth, r->open);
        else
            fputs(",,,", o);
        csv_span(o, &r->time);
        csv_span(o, &r->latency);
        csv_span(o, &r->to_take);
        fputs(",\n", o);
    }
    free(c);
    for (size_t i = 0; i < st->nthread; i++) {
        const irq_thread_t *t = &st->thread[i];
        fprintf(o, "%s,thread,%u,0x%08" PRIx64 ",,%" PRIu64 ",,,%" PRIu64, src, t->hart, t->id, t->visits, t->running);
        csv_span(o, &t->time);
        fputs(",,,,,,", o);
        if (st->traps) fprintf(o, ",%" PRIu64 "\n", t->preemptions);
        else
            fputs(",\n", o);
    }
}

int irqs_write_csv(const irq_stats_t *trace, const irq_stats_t *truth, FILE *o) {
    fputs("source,table,hart,id,name,visits,nested,max_depth,open,time_min,time_mean,time_max,latency_min,latency_mean,"
          "latency_max,to_take_min,to_take_mean,to_take_max,preemptions\n",
          o);
    if (trace) csv_source(trace, "trace", o);
    if (truth) csv_source(truth, "truth", o);
    fflush(o);
    return ferror(o) ? -1 : 0;
}

/* ---- the run folder's ground truth ------------------------------------------------------ */

/* the next CSV field of *p (up to ',' or the end): its start; *p moves past the comma */
static char *field(char **p) {
    char *f = *p, *c = strchr(f, ',');
    if (c) {
        *c = 0;
        *p = c + 1;
    } else
        *p = f + strlen(f);
    return f;
}

static bool num(const char *f, int base, uint64_t *v) {
    if (!*f) return false;
    char *e;
    errno = 0;
    unsigned long long x = strtoull(f, &e, base);
    if (*e || errno || *f == '-') return false;
    *v = x;
    return true;
}

/* a row of traps.csv or stm.csv, one event, merged in cycle order */
typedef struct ev {
    uint64_t t;
    unsigned hart;
    int kind; /* 0 enter, 1 return, 2 switch; at one cycle a return comes before an entry */
    uint64_t v;
} ev_t;

static int cmp_ev(const void *a, const void *b) {
    const ev_t *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->hart != y->hart) return x->hart < y->hart ? -1 : 1;
    static const int order[3] = {1, 0, 2}; /* return, enter, switch */
    return order[x->kind] - order[y->kind];
}

typedef struct evs {
    ev_t *e;
    size_t n, cap;
} evs_t;

static int push(evs_t *v, ev_t e) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        ev_t *n = realloc(v->e, cap * sizeof *n);
        if (!n) return -1;
        v->e = n;
        v->cap = cap;
    }
    v->e[v->n++] = e;
    return 0;
}

/* traps.csv: cycle,hart,cause,pc,handler,pending,first,ret,depth */
static int load_traps(irqs_t *s, FILE *f, const char *path, int hart, evs_t *v, char *err, size_t errlen) {
    ts_traps_csv_t t;
    ts_trap_row_t r;
    int got;
    if (ts_traps_csv_open(&t, f, path, IRQS_HARTS, err, errlen)) return -1;
    while ((got = ts_traps_csv_next(&t, &r, err, errlen)) > 0) {
        if (hart >= 0 && r.hart != (unsigned)hart) continue;
        if (push(v, (ev_t){r.cycle, r.hart, 0, r.cause}) || (r.has_ret && push(v, (ev_t){r.ret, r.hart, 1, 0}))) goto oom;
        if (r.has_pending && r.has_first && irqs_latency(s, r.hart, r.cause, r.pending, r.cycle, r.first)) goto oom;
    }
    return got;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* stm.csv: cycle,hart,id,value,status; THREAD_SWITCH = id 0x8000 */
static int load_switches(FILE *f, const char *path, int hart, evs_t *v, char *err, size_t errlen) {
    char line[512];
    unsigned long long ln = 1;
    if (!fgets(line, sizeof line, f) || strncmp(line, "cycle,hart,id,value,status", 26)) {
        snprintf(err, errlen, "%s: not an stm.csv (its header line)", path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        ln++;
        size_t l = strlen(line);
        if (l && line[l - 1] == '\n') line[--l] = 0;
        char *p = line, *fs[5];
        for (int i = 0; i < 5; i++) fs[i] = field(&p);
        uint64_t cyc, h, id, val;
        if (!num(fs[0], 10, &cyc) || !num(fs[1], 10, &h) || h >= IRQS_HARTS || !num(fs[2], 16, &id) || !num(fs[3], 16, &val)) {
            snprintf(err, errlen, "%s:%llu: malformed row", path, ln);
            return -1;
        }
        if (id != 0x8000u || (hart >= 0 && h != (uint64_t)hart)) continue;
        if (push(v, (ev_t){cyc, (unsigned)h, 2, val})) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read %s", path);
        return -1;
    }
    return 0;
}

int irqs_load_truth(irqs_t *s, const char *dir, int hart, char *err, size_t errlen) {
    char path[4200];
    snprintf(path, sizeof path, "%s/traps.csv", dir);
    if (access(path, F_OK) && errno == ENOENT) return 1; /* an older run folder */
    FILE *f = ts_fopen_input(path, err, errlen);         /* a regular file only (ts_file.h) */
    if (!f) return -1;
    evs_t v = {0};
    int rc = load_traps(s, f, path, hart, &v, err, errlen);
    fclose(f);
    if (!rc) {
        snprintf(path, sizeof path, "%s/stm.csv", dir);
        if (!access(path, F_OK)) { /* none: no switch known */
            if (!(f = ts_fopen_input(path, err, errlen))) rc = -1;
            else {
                rc = load_switches(f, path, hart, &v, err, errlen);
                fclose(f);
            }
        }
    }
    if (!rc) {
        qsort(v.e, v.n, sizeof *v.e, cmp_ev);
        s->st.returns = true; /* the ground truth has every xRET */
        s->st.traps = true;
        for (size_t i = 0; i < v.n && !rc; i++) {
            const ev_t *e = &v.e[i];
            rc = e->kind == 0 ? irqs_enter(s, e->hart, (uint32_t)e->v, e->t) :
                 e->kind == 1 ? irqs_return(s, e->hart, e->t) :
                                irqs_switch(s, e->hart, e->v, e->t);
        }
        if (rc) snprintf(err, errlen, "out of memory");
    }
    free(v.e);
    return rc;
}

/* ---- the trace ------------------------------------------------------------------------- */

int irqs_trace_elem(irqs_t *s, const ts_elem_t *e, int hart) {
    unsigned k = e->src % IRQS_HARTS;
    if (hart >= 0 && k != (unsigned)hart) return 0;
    if (e->has_time) s->last_time[k] = e->time;
    uint64_t t = s->last_time[k];
    if (e->type == TS_ELEM_ICT_EVENT && (e->u.ict.cksrc == 10 || e->u.ict.cksrc == 11) && e->u.ict.ckdf == 1)
        return irqs_enter(s, k, (uint32_t)(e->u.ict.data1 & 0x7FFFFFFFu) | (e->u.ict.cksrc == 11 ? 0x80000000u : 0), t);
    if (e->type == TS_ELEM_STM && e->u.stm.event && !strcmp(e->u.stm.event, "THREAD_SWITCH"))
        return irqs_switch(s, k, e->u.stm.value, t);
    return 0;
}
