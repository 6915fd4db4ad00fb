/* prog_check.c - program trace against the cores' retirements; see prog_check.h.
 *
 * The decoder's flow (prog_flow.h: every reconstructed instruction, with the time of the
 * message that reported it) is cut where it is not sequential, into rows like those of
 * prog_flow.csv: (last instruction, next pc, instructions since the previous cut). Per hart,
 * every synchronised stretch must give exactly the ground truth's rows: the same
 * instructions, every taken branch, jump, trap and return, in order. A row whose last
 * instruction ended a message (the decoder gives the next instruction a later time: BTM's
 * taken branches, indirect jumps, xRETs and traps; HTM's messages) must carry the time of its
 * retire cycle plus one constant for the whole run. A stretch ends at the trace stop (the instructions
 * before it are the ground truth's `stop` row), at a loss of sync (messages lost on a full
 * FIFO: the instructions before it must be the start of the row in progress; the next
 * stretch starts where its sync says, which must lie in a later stretch of sequential
 * retirements, and its first row may be the end of one), or at the end of the trace (a
 * prefix of the row in progress). Ground-truth rows after the last stretch (a trace that
 * stopped on wrap) are counted, not failed. */
#include "prog_check.h"
#include "ts_file.h"
#include "run_trace.h"
#include "nexus_decode.h"
#include "prog_flow.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PC_HARTS 16

typedef struct gt_row {
    uint64_t cycle;
    int kind; /* K_* */
    uint32_t last, next;
    uint64_t n;
    bool merged; /* a trap right after it replaced its next: no time check */
} gt_row_t;
enum { K_START,
       K_BRANCH,
       K_JUMP,
       K_INDIRECT,
       K_XRET,
       K_TRAP,
       K_STOP };
static const char *const kind_names[] = {"start", "branch", "jump", "indirect", "xret", "trap", "stop"};

/* a priv row of prog_flow.csv: the mode went from `from` to `to` (from == to: the mode
 * tracing started in, right after a start row) */
typedef struct priv_row {
    uint64_t cycle;
    unsigned from, to;
} priv_row_t;

typedef struct hart_st {
    gt_row_t *r;
    size_t n, cap, cur; /* rows, the next one to match */
    priv_row_t *p;
    size_t np, pcap, pcur;               /* priv rows, the next one to match */
    unsigned prv;                        /* the mode the privilege reports have reached */
    bool prev_sync, after_sync, ctx_gap; /* message order, for the Ownership after a sync */
    uint64_t own_changes, own_syncs, own_timed;
    bool in_stretch, partial; /* partial: resynchronised inside the row at cur */
    bool have_prev;
    uint64_t prev_pc, prev_size, cnt, prev_time;
    bool prev_has_time, prev_deferred;
    uint64_t insns, rows_ok, timed, late, stretches, gaps;
} hart_st_t;

typedef struct pc_ctx {
    hart_st_t h[PC_HARTS];
    bool failed, have_off;
    int64_t off;
    char *msg;
    size_t msglen;
} pc_ctx_t;

static int failf(pc_ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failf(pc_ctx_t *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, c->msglen, fmt, ap);
    va_end(ap);
    c->failed = true;
    return 1;
}

/* a row of the decoded flow on hart h: compare with the ground truth's next row */
static int decoded_row(pc_ctx_t *c, unsigned hart, uint64_t last, uint64_t next, uint64_t n, bool has_time,
                       uint64_t time, bool deferred) {
    /* has_time: the decoder gave `last` the time of its message and `next` a later one, so a
     * message ended at `last` (in HTM a taken branch or an inferred return ends none) */
    hart_st_t *H = &c->h[hart];
    if (H->cur >= H->n || H->r[H->cur].kind == K_STOP || H->r[H->cur].kind == K_START)
        return failf(c, "program flow, hart %u: after %" PRIu64 " instructions the trace goes on from 0x%08" PRIx64 " to 0x%08" PRIx64 ", but the core %s", hart, H->insns, last, next,
                     H->cur >= H->n ? "retired nothing more while tracing" : "stopped tracing there");
    const gt_row_t *g = &H->r[H->cur];
    bool n_ok = H->partial ? n <= g->n : n == g->n;
    if (g->last != last || g->next != next || !n_ok)
        return failf(c, "program flow, hart %u: instruction %" PRIu64 " of the trace: it says the flow went from 0x%08" PRIx64 " to 0x%08" PRIx64 " after %" PRIu64 " instruction(s); the core went from 0x%08x to 0x%08x (%s) after %" PRIu64 " in cycle %" PRIu64, hart, H->insns, last, next, n, g->last, g->next, kind_names[g->kind],
                     g->n, g->cycle);
    if (has_time && !g->merged) {
        int64_t o = (int64_t)(time - g->cycle);
        /* deferred: a RESOURCE FULL history / repeat count, which teInstruction 7 sends when a
         * run of equal outcomes ends: its time is that of the run's end, no earlier than this */
        bool late = deferred && (!c->have_off || o > c->off);
        if (late) {
            if (c->have_off) H->late++;
        } else if (!c->have_off) {
            c->off = o;
            c->have_off = true;
        } else if (o != c->off)
            return failf(c, "program flow, hart %u: the message of the %s at 0x%08x has time %" PRIu64 ", its retire cycle is %" PRIu64 " (time - cycle %+" PRId64 ", the run's constant %+" PRId64 ")", hart, kind_names[g->kind],
                         g->last, time, g->cycle, o, c->off);
        if (!late) H->timed++;
    }
    H->partial = false;
    H->cur++;
    H->rows_ok++;
    return 0;
}

/* the decoded stretch ends: stop (Correlation: the stop row), lost or the end of the trace */
static int end_stretch(pc_ctx_t *c, unsigned hart, bool stopped) {
    hart_st_t *H = &c->h[hart];
    if (!H->in_stretch) return 0;
    H->in_stretch = false;
    if (!H->have_prev) return 0;
    H->have_prev = false;
    if (H->cur >= H->n)
        return failf(c, "program flow, hart %u: the trace has instructions up to 0x%08" PRIx64 " the core did not retire while "
                        "tracing",
                     hart, H->prev_pc);
    const gt_row_t *g = &H->r[H->cur];
    if (stopped) {
        if (g->kind != K_STOP || g->last != H->prev_pc || (H->partial ? H->cnt > g->n : H->cnt != g->n))
            return failf(c, "program flow, hart %u: the trace stops after 0x%08" PRIx64 " (%" PRIu64 " instruction(s) since the last "
                            "jump); the core's next event: %s from 0x%08x to 0x%08x after %" PRIu64 " in cycle %" PRIu64,
                         hart,
                         H->prev_pc, H->cnt, kind_names[g->kind], g->last, g->next, g->n, g->cycle);
        H->cur++;
        H->rows_ok++;
        H->partial = false;
        return 0;
    }
    /* lost sync or the end: what was decoded must be the start of the row in progress */
    if (H->cnt > g->n)
        return failf(c, "program flow, hart %u: the trace has %" PRIu64 " sequential instruction(s) up to 0x%08" PRIx64 ", the core "
                        "retired %" PRIu64 " before its %s at 0x%08x",
                     hart, H->cnt, H->prev_pc, g->n, kind_names[g->kind], g->last);
    return 0;
}

static const char *prv_name(unsigned p) { return p == 0 ? "U" : p == 1 ? "S" :
                                                            p == 3     ? "M" :
                                                                         "?"; }

/* an Ownership message (FORMAT 0) of program trace: right after a sync-type message it reports
 * the current mode (the start row's priv row at trace start; after a gap the mode after every
 * change before the resync point); otherwise it is the core's next privilege change, with its
 * time = the change's retire cycle + the run's constant */
static int ownership(pc_ctx_t *c, unsigned hart, const pf_elem_t *e) {
    hart_st_t *H = &c->h[hart];
    unsigned prv = e->u.ctx.prv;
    if (H->after_sync) {
        if (H->pcur < H->np && H->p[H->pcur].from == H->p[H->pcur].to && H->p[H->pcur].to == prv) {
            H->prv = prv; /* trace start */
            H->pcur++;
        } else {
            if (H->ctx_gap && H->cur) { /* resync: the changes before it were lost */
                uint64_t before = H->r[H->cur - 1].cycle;
                while (H->pcur < H->np && H->p[H->pcur].cycle <= before) H->prv = H->p[H->pcur++].to;
            }
            if (prv != H->prv)
                return failf(c, "privilege, hart %u: the Ownership message after the sync at offset %" PRIu64 " says %s-mode, the "
                                "core was in %s-mode",
                             hart, e->offset, prv_name(prv), prv_name(H->prv));
        }
        H->ctx_gap = false;
        H->own_syncs++;
        return 0;
    }
    while (H->pcur < H->np && H->p[H->pcur].from == H->p[H->pcur].to) H->pcur++; /* a start the trace lost */
    if (H->pcur >= H->np)
        return failf(c, "privilege, hart %u: the Ownership message at offset %" PRIu64 " reports a change to %s-mode; the core "
                        "changed mode no more while tracing",
                     hart, e->offset, prv_name(prv));
    const priv_row_t *g = &H->p[H->pcur];
    if (g->to != prv)
        return failf(c, "privilege, hart %u: the Ownership message at offset %" PRIu64 " reports a change to %s-mode; the core's "
                        "next change: %s to %s-mode in cycle %" PRIu64,
                     hart, e->offset, prv_name(prv), prv_name(g->from),
                     prv_name(g->to), g->cycle);
    if (e->has_time) {
        int64_t o = (int64_t)(e->time - g->cycle);
        if (!c->have_off) {
            c->off = o;
            c->have_off = true;
        } else if (o != c->off)
            return failf(c, "privilege, hart %u: the Ownership message at offset %" PRIu64 " (%s to %s-mode) has time %" PRIu64 ", the change's retire cycle is %" PRIu64 " (time - cycle %+" PRId64 ", the run's constant %+" PRId64 ")",
                         hart, e->offset, prv_name(g->from), prv_name(g->to), e->time, g->cycle, o, c->off);
        H->own_timed++;
    }
    H->prv = prv;
    H->pcur++;
    H->own_changes++;
    return 0;
}

static int on_elem(void *vc, const pf_elem_t *e) {
    pc_ctx_t *c = vc;
    if (e->src >= PC_HARTS) return failf(c, "program flow: a message of source %u, not a hart of the run", e->src);
    hart_st_t *H = &c->h[e->src];
    if (e->type == PF_ELEM_PE_CONTEXT) {
        /* FORMAT 0 without context: the encoder's privilege reports (FORMAT 2 is the software
         * trace port's THREAD_SWITCH, checked with the stores) */
        if ((e->u.ctx.process & 3) || e->u.ctx.context) return 0;
        return ownership(c, e->src, e);
    }
    if (e->type == PF_ELEM_TRACE_ON) {
        if (end_stretch(c, e->src, false)) return 1;
        H->in_stretch = true;
        H->stretches++;
        H->have_prev = false;
        H->cnt = 0;
        /* the start of tracing, or a resync: the ground truth's start row, else the row whose
         * sequential stretch holds the sync address */
        if (H->cur < H->n && H->r[H->cur].kind == K_START && H->r[H->cur].next == e->u.on.addr) {
            H->cur++;
            H->partial = false;
            return 0;
        }
        for (size_t k = H->cur; k < H->n; k++) {
            const gt_row_t *g = &H->r[k];
            uint64_t from = k ? H->r[k - 1].next : 0;
            if (g->kind == K_START) continue;
            if (g->n && from <= e->u.on.addr && e->u.on.addr <= g->last) {
                H->cur = k;
                H->partial = true;
                return 0;
            }
        }
        return failf(c, "program flow, hart %u: the trace synchronises at 0x%08" PRIx64 " (offset %" PRIu64 "), which the core "
                        "never reached while tracing after its row %zu",
                     e->src, e->u.on.addr, e->offset, H->cur);
    }
    if (e->type == PF_ELEM_NO_SYNC) {
        if (e->u.nosync.reason == PF_NOSYNC_LOST) {
            H->gaps++;
            H->ctx_gap = true;
        }
        return end_stretch(c, e->src, e->u.nosync.reason == PF_NOSYNC_STOPPED);
    }
    if (e->type == PF_ELEM_ADDR_NACC)
        return failf(c, "program flow, hart %u: the trace leads to 0x%08" PRIx64 ", outside the ELF's code", e->src, e->u.nacc.addr);
    return 0;
}

static void on_insn(void *vc, const pf_insn_t *i) {
    pc_ctx_t *c = vc;
    if (c->failed || i->src >= PC_HARTS) return;
    hart_st_t *H = &c->h[i->src];
    if (H->have_prev && i->pc != H->prev_pc + H->prev_size &&
        decoded_row(c, i->src, H->prev_pc, i->pc, H->cnt,
                    H->prev_has_time && i->has_time && i->time != H->prev_time, H->prev_time, H->prev_deferred))
        return;
    if (H->have_prev && i->pc != H->prev_pc + H->prev_size) H->cnt = 0;
    H->have_prev = true;
    H->prev_pc = i->pc;
    H->prev_size = i->size;
    H->prev_has_time = i->has_time;
    H->prev_time = i->time;
    H->prev_deferred = i->deferred;
    H->cnt++;
    H->insns++;
}

typedef struct feed {
    pf_t *pf;
    pc_ctx_t *c;
} feed_t;
static int feed_msg(void *vf, const nxd_msg_t *m) {
    feed_t *f = vf;
    if (m->status == NXD_OK) { /* is the message right after a sync-type one */
        hart_st_t *H = &f->c->h[(m->has_src ? m->src : 0) % PC_HARTS];
        H->after_sync = H->prev_sync;
        H->prev_sync = m->tcode == NX_SYNC || m->tcode == NX_DIRECT_BRANCH_WS || m->tcode == NX_INDIRECT_BRANCH_WS || m->tcode == NX_INDIRECT_BRANCH_HIST_WS;
    }
    int rc = pf_from_msg(f->pf, m);
    return rc || f->c->failed;
}

/* prog_flow.csv: cycle,hart,kind,last,next,n */
static int load_gt(pc_ctx_t *c, const char *path, char *msg, size_t msglen) {
    FILE *f = ts_fopen_input(path, msg, msglen); /* the strict reader (ts_file.h) */
    if (!f) return -1;
    char line[256];
    unsigned ln = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (ln == 1) {
            if (strcmp(line, "cycle,hart,kind,last,next,n\n")) {
                snprintf(msg, msglen, "%s:1: not the header of prog_flow.csv", path);
                rc = -1;
                break;
            }
            continue;
        }
        unsigned long long cyc, n;
        unsigned hart, last, next;
        char kind[16];
        int k = -1;
        bool priv = false;
        if (sscanf(line, "%llu,%u,%15[a-z],0x%x,0x%x,%llu", &cyc, &hart, kind, &last, &next, &n) == 6) {
            for (int j = 0; j <= K_STOP; j++)
                if (!strcmp(kind, kind_names[j])) k = j;
            priv = !strcmp(kind, "priv") && last < 4 && next < 4;
        }
        if ((k < 0 && !priv) || hart >= PC_HARTS) {
            snprintf(msg, msglen, "%s:%u: malformed row", path, ln);
            rc = -1;
            break;
        }
        hart_st_t *H = &c->h[hart];
        if (priv) {
            if (H->np == H->pcap) {
                size_t cap = H->pcap ? 2 * H->pcap : 256;
                priv_row_t *p = realloc(H->p, cap * sizeof *p);
                if (!p) {
                    snprintf(msg, msglen, "out of memory reading %s", path);
                    rc = -1;
                    break;
                }
                H->p = p;
                H->pcap = cap;
            }
            H->p[H->np++] = (priv_row_t){cyc, last, next};
            continue;
        }
        if (k == K_TRAP && n == 0 && H->n && H->r[H->n - 1].kind != K_START && H->r[H->n - 1].kind != K_STOP) {
            H->r[H->n - 1].next = next; /* the trap came before `next` executed */
            H->r[H->n - 1].merged = true;
            continue;
        }
        if (H->n == H->cap) {
            size_t cap = H->cap ? 2 * H->cap : 1024;
            gt_row_t *r = realloc(H->r, cap * sizeof *r);
            if (!r) {
                snprintf(msg, msglen, "out of memory reading %s", path);
                rc = -1;
                break;
            }
            H->r = r;
            H->cap = cap;
        }
        H->r[H->n++] = (gt_row_t){cyc, k, last, next, n, false};
    }
    fclose(f);
    return rc;
}

int prog_check_run(const char *dir, const char *elf, unsigned srcbits, unsigned tsbits, bool stopped, FILE *out,
                   char *msg, size_t msglen) {
    pc_ctx_t *c = calloc(1, sizeof *c); /* on the heap: large */
    if (!c) {
        snprintf(msg, msglen, "out of memory");
        return -1;
    }
    c->msg = msg;
    c->msglen = msglen;
    char path[4200], err[4400];
    snprintf(path, sizeof path, "%s/prog_flow.csv", dir);
    int rc = -1;
    pf_image_t img = {0};
    uint8_t *trace = NULL;
    if (load_gt(c, path, msg, msglen)) goto out;
    if (!elf) {
        snprintf(msg, msglen, "no ELF: the program flow cannot be rebuilt (--elf FILE)");
        goto out;
    }
    if (pf_image_load(&img, elf, err, sizeof err)) {
        snprintf(msg, msglen, "%s", err);
        goto out;
    }
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    size_t len;
    if (!(trace = (uint8_t *)ts_read_file(path, &len, err, sizeof err))) {
        snprintf(msg, msglen, "%s", err);
        goto out;
    }
    nxd_cfg_t cfg = {srcbits, tsbits};
    nxd_t d;
    if (nxd_init(&d, &cfg)) {
        snprintf(msg, msglen, "bad trace settings");
        goto out;
    }
    pf_t pf;
    pf_init(&pf, &img, on_elem, c);
    pf_set_insn_cb(&pf, on_insn, c);
    feed_t fd = {&pf, c};
    nxd_decode(&d, trace, len, feed_msg, &fd);
    if (!c->failed) pf_eot(&pf, d.offset);
    for (unsigned h = 0; h < PC_HARTS && !c->failed; h++) end_stretch(c, h, false);
    bool oom = pf.oom;
    pf_free(&pf);
    if (oom) {
        snprintf(msg, msglen, "out of memory rebuilding the program flow");
        goto out;
    }
    if (c->failed) {
        rc = 1;
        goto out;
    }
    rc = 0;
    for (unsigned h = 0; h < PC_HARTS; h++) {
        hart_st_t *H = &c->h[h];
        if (!H->n && !H->stretches) continue;
        if (!H->stretches && stopped) {
            fprintf(out, "check: program flow: hart %u: not in the trace (the sink stopped before its first sync)\n", h);
            continue;
        }
        if (!H->stretches) {
            snprintf(msg, msglen, "program flow, hart %u: the core was traced (prog_flow.csv) but the trace holds no "
                                  "program flow of it",
                     h);
            rc = 1;
            goto out;
        }
        size_t left = 0;
        for (size_t k = H->cur; k < H->n; k++) left += H->r[k].kind != K_START && H->r[k].kind != K_STOP;
        fprintf(out, "check: program flow: hart %u: %" PRIu64 " instructions in %" PRIu64 " synchronised stretch(es) equal what the "
                     "core retired (%" PRIu64 " rows: every taken branch, jump, trap and return, and each trace stop)",
                h, H->insns,
                H->stretches, H->rows_ok);
        if (H->timed) fprintf(out, "; %" PRIu64 " message timestamps = retire cycle %+" PRId64, H->timed, c->off);
        if (H->np) {
            /* every change the core made while its reported flow ran must have been reported */
            uint64_t upto = H->cur ? H->r[H->cur - 1].cycle : 0;
            size_t missed = 0, later = 0;
            for (size_t k = H->pcur; k < H->np; k++)
                if (H->p[k].from != H->p[k].to) {
                    if (H->p[k].cycle <= upto) missed++;
                    else
                        later++;
                }
            if (missed && !H->gaps) {
                const priv_row_t *g = &H->p[H->pcur];
                while (g->from == g->to) g++;
                snprintf(msg, msglen, "privilege, hart %u: the core changed from %s to %s-mode in cycle %" PRIu64 ", the trace has no "
                                      "Ownership message for it (%zu change(s) missing)",
                         h, prv_name(g->from), prv_name(g->to),
                         g->cycle, missed);
                rc = 1;
                goto out;
            }
            fprintf(out, "; %" PRIu64 " privilege changes (Ownership) equal the core's in order", H->own_changes);
            if (H->own_timed) fprintf(out, " (%" PRIu64 " timestamps = retire cycle %+" PRId64 ")", H->own_timed, c->off);
            fprintf(out, ", %" PRIu64 " report(s) after a sync = the mode then", H->own_syncs);
            if (later) fprintf(out, ", %zu later change(s) not in the trace", later);
        }
        if (H->late)
            fprintf(out, "; %" PRIu64 " RESOURCE FULL timestamps later (sent when a run of equal branch outcomes ended)",
                    H->late);
        if (H->gaps) fprintf(out, "; %" PRIu64 " gap(s): messages lost, resynchronised at the next sync", H->gaps);
        if (left) fprintf(out, "; %zu later jumps were not in the trace (it ended first)", left);
        fprintf(out, "\n");
    }
out:
    for (unsigned h = 0; h < PC_HARTS; h++) {
        free(c->h[h].r);
        free(c->h[h].p);
    }
    free(c);
    free(trace);
    pf_image_free(&img);
    return rc;
}
