/* event_check.c - event mode against the cores; see event_check.h.
 *
 * Ground truth: prog_flow.csv (sim/prog_gt.h) gives, per hart, the windows in which the
 * encoder traced (start row: the cycle of the store that started tracing and the first
 * traced pc; stop row: the store that stopped it) and the flow's discontinuities; flow.csv
 * (every run folder) gives every call (JAL/JALR/C.JAL/C.JALR linking x1 or x5, with pc and
 * target) and every trap (pc = mepc, handler, mcause) with its retire cycle. The events of
 * flow.csv inside a window, in order, are what the trace must report (evControl 0x3F, the
 * `--trace-insn event` default). Per hart:
 *  - each trace on (CKSRC 0, CKDF 1, code 2) = the next window's start: its address the
 *    first traced pc; each trace off (CKSRC 0 code 3) closes the window: every event of it
 *    must have been reported (unless messages were lost);
 *  - each call (CKSRC 9) = the next call or trap of the core, a call with the same pc and
 *    target (CKDATA0's address XOR CKDATA1 << 1); each exception (10) / interrupt (11) = a
 *    trap with the same pc and mcause (bit 31 set for an interrupt);
 *  - each PC sample (15): the pc that retired in its cycle (time minus the run's constant)
 *    lies in the sequential stretch of prog_flow.csv that holds that cycle;
 *  - every timestamp (trace on, calls, traps, samples) = retire cycle + one constant;
 *  - after an Error message (messages lost) the next event may skip core events of earlier
 *    cycles: they are counted as lost and stated.
 * Rows after the trace's end (stop on wrap, or a run that ended while tracing) are stated. */
#include "event_check.h"
#include "ts_file.h"
#include "run_trace.h"
#include "nexus_decode.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EC_HARTS 16

enum { E_CALL,
       E_EXC,
       E_IRQ };
static const char *const ev_names[] = {"call", "exception", "interrupt"};
typedef struct ev {
    uint64_t cycle;
    int kind;
    uint32_t pc, target, cause;
} ev_t;
typedef struct row {
    uint64_t cycle;
    bool start, stop, xret;
    uint32_t last, next;
} row_t;
typedef struct prow {
    uint64_t cycle;
    unsigned from, to;
} prow_t; /* prog_flow.csv priv rows */

typedef struct hart {
    ev_t *ev;
    size_t nev, evcap, cur; /* the core's events in the windows */
    row_t *r;
    size_t nr, rcap; /* prog_flow.csv rows */
    prow_t *p;
    size_t np, pcap, pcur; /* its priv rows; the next one to match */
    uint64_t contexts;
    bool cgap;               /* an Error since the last context event */
    size_t win;              /* rows index of the current window's start */
    size_t next_start, srow; /* where to look for the next start row; sample search */
    uint64_t *ws, *we;
    size_t nwin, wcap; /* the windows' start and stop cycles */
    size_t wins_seen, stops;
    bool in_win, gap;
    uint64_t addr; /* the last address reported */
    uint64_t n[3], samples, lost, gaps, timed;
} hart_t;

typedef struct ctx {
    hart_t h[EC_HARTS];
    bool have_off, failed, saw_on;
    int64_t off;
    char *msg;
    size_t msglen;
} ctx_t;

static int failf(ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failf(ctx_t *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, c->msglen, fmt, ap);
    va_end(ap);
    c->failed = true;
    return 1;
}

static bool grow(void **p, size_t *cap, size_t n, size_t sz) {
    if (n < *cap) return true;
    size_t nc = *cap ? 2 * *cap : 1024;
    void *q = realloc(*p, nc * sz);
    if (!q) return false;
    *p = q;
    *cap = nc;
    return true;
}

/* prog_flow.csv: cycle,hart,kind,last,next,n */
static int load_rows(ctx_t *c, const char *path) {
    FILE *f = ts_fopen_input(path, c->msg, c->msglen); /* the strict reader (ts_file.h) */
    if (!f) return -1;
    char line[256];
    unsigned ln = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        if (++ln == 1) {
            if (strcmp(line, "cycle,hart,kind,last,next,n\n")) {
                snprintf(c->msg, c->msglen, "%s:1: not the header of prog_flow.csv", path);
                rc = -1;
                break;
            }
            continue;
        }
        unsigned long long cyc, n;
        unsigned hart, last, next;
        char kind[16];
        if (sscanf(line, "%llu,%u,%15[a-z],0x%x,0x%x,%llu", &cyc, &hart, kind, &last, &next, &n) != 6 || hart >= EC_HARTS) {
            snprintf(c->msg, c->msglen, "%s:%u: malformed row", path, ln);
            rc = -1;
            break;
        }
        hart_t *H = &c->h[hart];
        if (!strcmp(kind, "priv")) { /* a privilege change (prog_gt.h) */
            if (last > 3 || next > 3) {
                snprintf(c->msg, c->msglen, "%s:%u: malformed row", path, ln);
                rc = -1;
                break;
            }
            if (!grow((void **)&H->p, &H->pcap, H->np, sizeof *H->p)) {
                snprintf(c->msg, c->msglen, "out of memory");
                rc = -1;
                break;
            }
            if (last != next) H->p[H->np++] = (prow_t){cyc, last, next};
            continue;
        }
        if (!grow((void **)&H->r, &H->rcap, H->nr, sizeof *H->r)) {
            snprintf(c->msg, c->msglen, "out of memory");
            rc = -1;
            break;
        }
        H->r[H->nr++] = (row_t){cyc, !strcmp(kind, "start"), !strcmp(kind, "stop"), !strcmp(kind, "xret"), last, next};
        if (!strcmp(kind, "start")) {
            size_t cap = H->wcap;
            if (!grow((void **)&H->ws, &cap, H->nwin, sizeof *H->ws) || !grow((void **)&H->we, &H->wcap, H->nwin, sizeof *H->we)) {
                snprintf(c->msg, c->msglen, "out of memory");
                rc = -1;
                break;
            }
            H->ws[H->nwin] = cyc;
            H->we[H->nwin++] = UINT64_MAX;
        } else if (!strcmp(kind, "stop") && H->nwin) {
            H->we[H->nwin - 1] = cyc;
        }
    }
    fclose(f);
    return rc;
}

/* is cycle inside one of the hart's trace windows (after a start row, before its stop) */
static bool in_window(const hart_t *H, uint64_t cycle) {
    for (size_t k = 0; k < H->nwin; k++)
        if (H->ws[k] < cycle && cycle < H->we[k]) return true;
    return false;
}

/* flow.csv: cycle,hart,kind,pc,target,link (calls and traps in the windows) */
static int load_events(ctx_t *c, const char *path) {
    FILE *f = ts_fopen_input(path, c->msg, c->msglen); /* the strict reader (ts_file.h) */
    if (!f) return -1;
    char line[256];
    unsigned ln = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        if (++ln == 1) {
            if (strcmp(line, "cycle,hart,kind,pc,target,link\n") && strcmp(line, "cycle,hart,kind,pc,target,link,tp\n")) {
                snprintf(c->msg, c->msglen, "%s:1: not the header of flow.csv", path);
                rc = -1;
                break;
            }
            continue;
        }
        unsigned long long cyc;
        unsigned hart, pc, target, link;
        char kind[16];
        int k = sscanf(line, "%llu,%u,%15[a-z],0x%x,0x%x,0x%x", &cyc, &hart, kind, &pc, &target, &link);
        if (k < 4 || hart >= EC_HARTS) {
            snprintf(c->msg, c->msglen, "%s:%u: malformed row", path, ln);
            rc = -1;
            break;
        }
        bool call = !strcmp(kind, "call"), trap = !strcmp(kind, "trap");
        if (!call && !trap) continue;
        if (k < 6) continue; /* a call the run ended in: no target */
        hart_t *H = &c->h[hart];
        if (!in_window(H, cyc)) continue;
        if (!grow((void **)&H->ev, &H->evcap, H->nev, sizeof *H->ev)) {
            snprintf(c->msg, c->msglen, "out of memory");
            rc = -1;
            break;
        }
        H->ev[H->nev++] = (ev_t){cyc, call ? E_CALL : (link >> 31) ? E_IRQ :
                                                                     E_EXC,
                                 pc, target, call ? 0 : link};
    }
    fclose(f);
    return rc;
}

static int check_time(ctx_t *c, hart_t *H, const nxd_msg_t *m, uint64_t cycle, const char *what, uint64_t pc) {
    if (!m->tics_valid) return 0;
    int64_t o = (int64_t)(m->tics - cycle);
    if (!c->have_off) {
        c->off = o;
        c->have_off = true;
    } else if (o != c->off)
        return failf(c, "events, hart %u: the %s at 0x%08" PRIx64 " (offset %" PRIu64 ") has time %" PRIu64 ", its retire cycle is %" PRIu64 " (time - cycle %+" PRId64 ", the run's constant %+" PRId64 ")", m->src, what, pc, m->offset,
                     m->tics, cycle, o, c->off);
    H->timed++;
    return 0;
}

/* the window ends (trace off): every event of it reported */
static int close_window(ctx_t *c, unsigned hart, uint64_t end_cycle) {
    hart_t *H = &c->h[hart];
    H->in_win = false;
    while (H->cur < H->nev && H->ev[H->cur].cycle < end_cycle) {
        const ev_t *g = &H->ev[H->cur];
        if (!H->gap)
            return failf(c, "events, hart %u: the trace stops tracing, but the core's %s at 0x%08x (cycle %" PRIu64 ") is not in it",
                         hart, ev_names[g->kind], g->pc, g->cycle);
        H->lost++;
        H->cur++;
    }
    while (H->pcur < H->np && H->p[H->pcur].cycle < end_cycle) { /* and every privilege change */
        const prow_t *g = &H->p[H->pcur];
        if (!H->gap && !H->cgap)
            return failf(c, "events, hart %u: the trace stops tracing, but the core's change from %c to %c-mode (cycle %" PRIu64 ") has no context event", hart, "USHM"[g->from], "USHM"[g->to], g -> cycle);
        H->lost++;
        H->pcur++;
    }
    H->gap = H->cgap = false;
    return 0;
}

/* the address a context event must carry for the change in cycle `cycle`: the trap's pc
 * (flow.csv) or the xRET's (prog_flow.csv); false if neither is known */
static bool switch_pc(const hart_t *H, uint64_t cycle, uint32_t *pc) {
    size_t lo = 0, hi = H->nev; /* both in cycle order: the first at `cycle` */
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (H->ev[m].cycle < cycle) lo = m + 1;
        else
            hi = m;
    }
    for (size_t k = lo; k < H->nev && H->ev[k].cycle == cycle; k++)
        if (H->ev[k].kind != E_CALL) {
            *pc = H->ev[k].pc;
            return true;
        }
    lo = 0, hi = H->nr;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (H->r[m].cycle < cycle) lo = m + 1;
        else
            hi = m;
    }
    for (size_t k = lo; k < H->nr && H->r[k].cycle == cycle; k++)
        if (H->r[k].xret) {
            *pc = H->r[k].last;
            return true;
        }
    return false;
}

/* ICT Context (CKSRC 13, CKDF 1): the core's next privilege change, CKDATA1 = PRV << 2 */
static int context_event(ctx_t *c, unsigned hart, const nxd_msg_t *m, uint64_t a) {
    hart_t *H = &c->h[hart];
    uint64_t d1 = m->f[NXF_CKDATA1];
    unsigned prv = (unsigned)(d1 >> 2 & 3);
    if (d1 & ~(uint64_t)0x1C)
        return failf(c, "events, hart %u: the context event at offset %" PRIu64 " has CKDATA1 0x%" PRIx64 ", not a privilege "
                        "report (PRV << 2)",
                     hart, m->offset, d1);
    for (;;) {
        if (H->pcur >= H->np)
            return failf(c, "events, hart %u: the context event at offset %" PRIu64 " reports a change to %c-mode; the core changed "
                            "mode no more while tracing",
                         hart, m->offset, "USHM"[prv]);
        const prow_t *g = &H->p[H->pcur];
        uint32_t pc = 0;
        bool pc_ok = !switch_pc(H, g->cycle, &pc) || pc == a;
        if (g->to == prv && pc_ok) break;
        if (!H->cgap)
            return failf(c, "events, hart %u: the context event at offset %" PRIu64 " reports a change to %c-mode at 0x%08" PRIx64 "; the core's next: %c to %c-mode at 0x%08x in cycle %" PRIu64, hart, m->offset, "USHM"[prv], a,
                         "USHM"[g->from], "USHM"[g->to], pc, g -> cycle);
        H->lost++;
        H->pcur++;
    }
    if (check_time(c, H, m, H->p[H->pcur].cycle, "context event", a)) return 1;
    H->pcur++;
    H->contexts++;
    H->cgap = false;
    return 0;
}

static int on_msg(void *vc, const nxd_msg_t *m) {
    ctx_t *c = vc;
    if (m->status == NXD_TRUNCATED) return 0;
    if (m->status == NXD_BAD)
        return failf(c, "events: the message at offset %" PRIu64 " is corrupt (%s)", m->offset, m->error ? m->error : "?");
    unsigned hart = m->has_src ? m->src : 0;
    if (hart >= EC_HARTS) return failf(c, "events: a message of source %u, not a hart of the run", hart);
    hart_t *H = &c->h[hart];
    if (m->tcode == NX_ERROR) { /* Error: messages lost */
        if (H->in_win) {
            H->gap = H->cgap = true;
            H->gaps++;
        }
        return 0;
    }
    if (m->tcode != NX_ICT && m->tcode != NX_ICT_WS) return 0;
    unsigned cksrc = (unsigned)m->f[NXF_CKSRC];
    if (m->fmask >> NXF_F_ADDR & 1) H->addr = m->f[NXF_F_ADDR] << 1;
    else if (m->fmask >> NXF_U_ADDR & 1)
        H->addr ^= m->f[NXF_U_ADDR] << 1;
    uint64_t a = H->addr;
    if (cksrc == NX_CKSRC_CONTROL) {
        uint64_t code = m->f[NXF_CONTROL];
        if (code == 2 && (m->fmask >> NXF_F_ADDR & 1)) { /* trace on */
            size_t k = H->next_start;
            while (k < H->nr && !H->r[k].start) k++;
            if (H->in_win && k < H->nr && close_window(c, hart, H->r[k].cycle)) return 1; /* its trace off was lost */
            if (k >= H->nr)
                return failf(c, "events, hart %u: the trace starts tracing at 0x%08" PRIx64 " (offset %" PRIu64 "), the core did not "
                                "start tracing again",
                             hart, a, m->offset);
            if (H->r[k].next != a)
                return failf(c, "events, hart %u: trace on at 0x%08" PRIx64 " (offset %" PRIu64 "); the core started tracing at 0x%08x "
                                "(cycle %" PRIu64 ")",
                             hart, a, m->offset, H->r[k].next, H->r[k].cycle);
            if (check_time(c, H, m, H->r[k].cycle, "trace on", a)) return 1;
            H->win = k;
            H->next_start = k + 1;
            H->srow = k + 1;
            H->in_win = true;
            H->wins_seen++;
            H->gap = false;
            c->saw_on = true;
        } else if (code == 3 && H->in_win) { /* trace off */
            size_t k = H->win + 1;
            while (k < H->nr && !H->r[k].stop) k++;
            if (close_window(c, hart, k < H->nr ? H->r[k].cycle : UINT64_MAX)) return 1;
            H->stops++;
        }
        return 0;
    }
    if (!H->in_win) return failf(c, "events, hart %u: an event (CKSRC %u, offset %" PRIu64 ") outside tracing", hart, cksrc, m->offset);
    if (cksrc == NX_CKSRC_PC_SAMPLE) {                /* PC sample */
        if (!m->tics_valid || !c->have_off) return 0; /* cannot be placed in time */
        uint64_t cyc = m->tics - (uint64_t)c->off;
        size_t k = H->srow;
        while (k < H->nr && H->r[k].cycle < cyc) k++;
        H->srow = k;
        const row_t *p = &H->r[k - 1];
        bool ok = k < H->nr && (H->r[k].cycle == cyc ? H->r[k].last == a : p->next <= a && a <= H->r[k].last);
        if (!ok)
            return failf(c, "events, hart %u: the PC sample at offset %" PRIu64 " says 0x%08" PRIx64 " retired in cycle %" PRIu64 ", outside what the core retired then (prog_flow.csv)", hart, m->offset, a, cyc);
        H->samples++;
        H->timed++;
        return 0;
    }
    if (cksrc == NX_CKSRC_CONTEXT && m->f[NXF_CKDF] == 1) return context_event(c, hart, m, a);
    int kind = cksrc == NX_CKSRC_CALL ? E_CALL : cksrc == NX_CKSRC_EXCEPTION ? E_EXC :
                                             cksrc == NX_CKSRC_INTERRUPT     ? E_IRQ :
                                                                               -1;
    if (kind < 0) return failf(c, "events, hart %u: CKSRC %u at offset %" PRIu64 " is not an event the encoder reports", hart, cksrc, m->offset);
    uint64_t d1 = m->f[NXF_CKDATA1];
    uint64_t target = a ^ (d1 << 1);
    for (;;) {
        if (H->cur >= H->nev)
            return failf(c, "events, hart %u: the trace reports a %s at 0x%08" PRIx64 " (offset %" PRIu64 "); the core made no more calls "
                            "or traps while tracing",
                         hart, ev_names[kind], a, m->offset);
        const ev_t *g = &H->ev[H->cur];
        bool eq = g->kind == kind && g->pc == a &&
                  (kind == E_CALL ? g->target == target : (g->cause & 0x7FFFFFFFu) == d1);
        if (eq) break;
        if (!H->gap) {
            char said[80], core[80];
            if (kind == E_CALL) snprintf(said, sizeof said, "call at 0x%08" PRIx64 " to 0x%08" PRIx64, a, target);
            else
                snprintf(said, sizeof said, "%s at 0x%08" PRIx64 " cause %" PRIu64, ev_names[kind], a, d1);
            if (g->kind == E_CALL) snprintf(core, sizeof core, "call at 0x%08x to 0x%08x", g->pc, g->target);
            else
                snprintf(core, sizeof core, "%s at 0x%08x cause %u", ev_names[g->kind], g->pc, g->cause & 0x7FFFFFFFu);
            return failf(c, "events, hart %u: event %" PRIu64 " of the trace (offset %" PRIu64 ") is a %s; the core's next: %s in cycle %" PRIu64, hart, H->n[0] + H->n[1] + H->n[2] + 1, m->offset, said, core, g->cycle);
        }
        H->lost++;
        H->cur++;
    }
    const ev_t *g = &H->ev[H->cur];
    if (check_time(c, H, m, g->cycle, ev_names[kind], a)) return 1;
    H->cur++;
    H->n[kind]++;
    H->gap = false;
    return 0;
}

/* a first pass: does the trace hold an event-mode trace start */
static int find_on(void *vc, const nxd_msg_t *m) {
    bool *found = vc;
    if (m->status == NXD_OK && m->tcode == NX_ICT_WS && m->f[NXF_CKSRC] == NX_CKSRC_CONTROL && m->f[NXF_CKDF] == 1 && m->f[NXF_CONTROL] == NX_CONTROL_TRACE_ON) {
        *found = true;
        return 1;
    }
    return 0;
}

int event_check_run(const char *dir, unsigned srcbits, unsigned tsbits, bool stopped, FILE *out, char *msg, size_t msglen) {
    ctx_t *c = calloc(1, sizeof *c); /* on the heap: large */
    if (!c) {
        snprintf(msg, msglen, "out of memory");
        return -1;
    }
    c->msg = msg;
    c->msglen = msglen;
    char path[4200], err[4400];
    int rc = -1;
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    size_t len;
    uint8_t *trace = (uint8_t *)ts_read_file(path, &len, err, sizeof err);
    if (!trace) {
        snprintf(msg, msglen, "%s", err);
        free(c);
        return -1;
    }
    nxd_cfg_t cfg = {srcbits, tsbits};
    nxd_t d;
    if (nxd_init(&d, &cfg)) {
        snprintf(msg, msglen, "bad trace settings");
        goto out;
    }
    bool found = false;
    nxd_decode(&d, trace, len, find_on, &found);
    if (!found) {
        rc = 2;
        goto out;
    }
    snprintf(path, sizeof path, "%s/prog_flow.csv", dir);
    if (load_rows(c, path)) goto out;
    snprintf(path, sizeof path, "%s/flow.csv", dir);
    if (load_events(c, path)) goto out;
    nxd_init(&d, &cfg);
    nxd_decode(&d, trace, len, on_msg, c);
    if (c->failed) {
        rc = 1;
        goto out;
    }
    rc = 0;
    for (unsigned h = 0; h < EC_HARTS; h++) {
        hart_t *H = &c->h[h];
        if (!H->nwin) continue;
        if (H->wins_seen < H->nwin && !stopped && !H->in_win) {
            snprintf(msg, msglen, "events, hart %u: the core started tracing %zu time(s) (prog_flow.csv), the trace shows %zu", h,
                     H->nwin, H->wins_seen);
            rc = 1;
            goto out;
        }
        fprintf(out, "check: events: hart %u: %" PRIu64 " calls, %" PRIu64 " exceptions and %" PRIu64 " interrupts equal the core's "
                     "(flow.csv) in order with their addresses, targets and causes; %" PRIu64 " PC samples inside what the core "
                     "retired in their cycle; %zu trace start(s) at the core's first traced pc, %zu stop(s)",
                h, H->n[E_CALL], H->n[E_EXC], H->n[E_IRQ], H->samples, H->wins_seen, H->stops);
        if (H->np) fprintf(out, "; %" PRIu64 " context events equal the core's privilege changes (mode and the address of the trap "
                                "or xRET)",
                           H->contexts);
        if (H->timed) fprintf(out, "; %" PRIu64 " timestamps = retire cycle %+" PRId64, H->timed, c->off);
        if (H->gaps) fprintf(out, "; %" PRIu64 " gap(s) (Error messages): %" PRIu64 " call/trap/context event(s) lost (lost PC samples are not "
                                  "counted)",
                             H->gaps, H->lost);
        if (H->cur < H->nev) fprintf(out, "; %zu later event(s) not in the trace (it ended first)", H->nev - H->cur);
        fprintf(out, "\n");
    }
out:
    for (unsigned h = 0; h < EC_HARTS; h++) {
        free(c->h[h].ev);
        free(c->h[h].r);
        free(c->h[h].p);
        free(c->h[h].ws);
        free(c->h[h].we);
    }
    free(c);
    free(trace);
    return rc;
}
