/* ground_truth.c - `tracesim check RUN_DIR`: decodes the run's trace.rtd and compares every
 * message with what the simulated hardware really did, from the run's own logs (not from the
 * trace): itc.csv lists every ITC store the firmware made (cycle, stimulus, offset, size,
 * value, hex, status); the `traced` ones (the encoder accepted them) are checked, the others
 * (dropped on a full FIFO, made after the sink stopped on wrap, made while the encoder was
 * not tracing) are counted and stated. Each Data Acquisition / Ownership message must be the next store, in order, with
 * its IDTAG and value; every timestamp must equal the store's cycle plus one constant offset
 * (the timestamp counts core cycles from when the firmware started it). A trace that stopped
 * on wrap may end early; a trace that wrapped (no stop-on-wrap) holds the newest stores only:
 * it is decoded from its first message end (run_trace.h ts_wrap_start) and its M stores must
 * be the last M of itc.csv. Error messages (lost stores) and the sync after them are not
 * stores; perf_check.c holds their count against the encoder's. Nothing else may be missing,
 * added or different.
 *
 * Several harts: the funnel merges the messages of one encoder per hart, each with the SRC of
 * its hart, whole messages only. Each hart's messages (SRC = hart) must be that hart's rows
 * of itc.csv, in order (nothing lost, duplicated or reordered within a source; the order
 * between sources is the funnel's and is free), every timestamp the store cycle plus one
 * constant for all harts (the funnel's timestamp is the master of every encoder's), no
 * corrupt message (bytes of two messages interleaved would make one), and no source that is
 * not a hart of the run. A wrapped trace holds a suffix of each hart's rows.
 *
 * Software trace port events (docs/firmware/software-trace.md; elements.h ts_stm_from_msg) are
 * not ITC stores: stm.csv lists every port event (cycle, hart, id, value, status). Each hart's
 * decoded events must be its `traced` rows, in order, with id and value, every timestamp the
 * row's cycle plus the same constant as the ITC stores' (an event is timestamped like an ITC
 * store of its commit cycle); each run of `lost` rows must have an Error message of that hart
 * after the traced event before it and before the one after it; `off` rows are not in the
 * trace. An Ownership message with PROCESS format 2 is a THREAD_SWITCH when the hart's rows
 * hold one, else an ITC store. Stop-on-wrap: the events are a prefix of the traced rows; a
 * wrapped buffer: a suffix.
 *
 * Memory: itc.csv and stm.csv are read row by row (once to validate and count, then a cursor
 * per hart that holds one row; a wrapped buffer's first row is found forward, by counting)
 * and trace.rtd in pieces (trace_in.h), so the check holds no more for a longer run. */
#include "ground_truth.h"
#include "run_trace.h"
#include "elements.h"
#include "nexus_decode.h"
#include "perf_check.h"
#include "event_check.h"
#include "prog_check.h"
#include "ts_run_json.h"
#include "ts_opts.h"
#include "run_folder.h"
#include "run_losses.h"
#include "trace_in.h"
#include "ts_file.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define NH PERF_CHECK_HARTS

#define TS_STM_EVENT(name, id, desc) enum { STM_ID_##name = id };
#include "stm.def"

typedef struct store {
    uint64_t cycle;
    unsigned stim, off, size;
    uint32_t value;
} store_t;

/* one hart's stm.csv rows (traced and lost; off rows are only counted) and their check; the
 * rows are read in order as the check asks for them (stm_row), one held at a time */
typedef struct stm_hart {
    FILE *f;
    char *line;
    size_t lcap, idx; /* cur is row idx of the hart (traced and lost rows: 0, 1, ...) */
    bool have, eof;
    ts_stm_row_t cur;
    size_t traced_before; /* traced rows before row idx */
    size_t n, next, traced, off;
    bool has_switch; /* a THREAD_SWITCH row: format-2 Ownership messages are events */
    uint64_t equal, timed, lost, errs_matched, errs_since;
} stm_hart_t;

/* a hart's `traced` rows of itc.csv, read in order as the check asks for them (memory: one
 * row, not the file) */
typedef struct itc_cur {
    FILE *f;
    char *line;
    size_t lcap, idx; /* cur is the hart's traced row number idx */
    bool have, eof;
    store_t cur;
} itc_cur_t;

typedef struct ck {
    const char *dir;
    itc_cur_t cur[NH];      /* itc.csv rows per hart */
    size_t n[NH], next[NH]; /* traced rows per hart; the next one to find in the trace */
    uint64_t checked[NH], timed[NH], own[NH], errs[NH], msgs;
    uint64_t made[NH], made_by[NH][4]; /* every ITC store the firmware made, per itc.csv status */
    unsigned harts;                    /* the run's harts: SRC values must be below */
    bool multi;                        /* several harts: messages name the hart */
    bool have_offset;
    int64_t ts_offset;
    int failed;
    char msg[512];
    stm_hart_t stm[NH];                    /* stm.csv */
    size_t stm_rows;                       /* rows of every status */
    size_t in_trace[NH], stm_in_trace[NH]; /* wrapped buffer: messages in the trace */
    bool prog_own[NH];                     /* prog_flow.csv has priv rows: the encoder reported privilege
                               * (Ownership, PROCESS = PRV << 2, checked by prog_check.c) */
} ck_t;

/* harts whose program trace reported privilege changes (prog_flow.csv priv rows) */
static void load_prog_own(ck_t *c, const char *dir) {
    char path[4200], line[256];
    snprintf(path, sizeof path, "%s/prog_flow.csv", dir);
    char ferr[4400];
    FILE *f = ts_fopen_input(path, ferr, sizeof ferr); /* the strict reader (ts_file.h); absent: none */
    if (!f) return;
    unsigned hart;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%*u,%u,priv,", &hart) == 1 && strstr(line, ",priv,") && hart < NH) c->prog_own[hart] = true;
    fclose(f);
}

/* an Ownership message of program trace, not an ITC store: FORMAT 0, no context, from a hart
 * whose encoder reported privilege (an ITC store of such a value to stimulus 15/31 in the same
 * run would be taken for one: docs/program-trace.md) */
static bool prog_ownership(const ck_t *c, const nxd_msg_t *m) {
    return m->status == NXD_OK && m->tcode == NX_OWNERSHIP && c->prog_own[m->src % NH] && !(m->f[NXF_PROCESS] & ~(uint64_t)0x1C);
}

/* hart h's traced row i of itc.csv (i at or after the last one asked for), or NULL */
static const store_t *itc_at(ck_t *c, unsigned h, size_t i) {
    itc_cur_t *k = &c->cur[h];
    if (k->have && k->idx == i) return &k->cur;
    if (!k->f && !k->eof) {
        char path[4200], err[300];
        snprintf(path, sizeof path, "%s/itc.csv", c->dir);
        k->f = ts_fopen_input(path, err, sizeof err);
        if (!k->f || getline(&k->line, &k->lcap, k->f) < 0) k->eof = true; /* the header line */
    }
    while (!k->eof && (!k->have || k->idx < i)) {
        ts_itc_row_t r;
        if (getline(&k->line, &k->lcap, k->f) < 0 || !ts_itc_row(k->line, &r)) {
            k->eof = true;
            break;
        }
        if (r.hart != h || r.status != TS_ITC_TRACED) continue;
        k->cur = (store_t){.cycle = r.cycle, .stim = r.stim, .off = r.off, .size = r.size, .value = r.value};
        k->idx = k->have ? k->idx + 1 : 0;
        k->have = true;
    }
    return k->have && k->idx == i ? &k->cur : NULL;
}

/* hart h's row i of stm.csv (traced and lost rows; i at or after the last one asked for), or NULL */
static const ts_stm_row_t *stm_row(ck_t *c, unsigned h, size_t i) {
    stm_hart_t *k = &c->stm[h];
    if (k->have && k->idx == i) return &k->cur;
    if (!k->f && !k->eof) {
        char path[4200], err[300];
        snprintf(path, sizeof path, "%s/stm.csv", c->dir);
        k->f = ts_fopen_input(path, err, sizeof err);
        if (!k->f || getline(&k->line, &k->lcap, k->f) < 0) k->eof = true; /* the header line */
    }
    while (!k->eof && (!k->have || k->idx < i)) {
        ts_stm_row_t r;
        if (getline(&k->line, &k->lcap, k->f) < 0 || !ts_stm_row(k->line, &r)) {
            k->eof = true;
            break;
        }
        if (r.hart != h || r.status == TS_STM_OFF) continue;
        if (k->have) k->traced_before += k->cur.status == TS_STM_TRACED;
        k->cur = r;
        k->idx = k->have ? k->idx + 1 : 0;
        k->have = true;
    }
    return k->have && k->idx == i ? &k->cur : NULL;
}

/* 1: a software event of the port (in *ev), 0: not one, -1 a corrupt one (*why) */
static int stm_event(const ck_t *c, const nxd_msg_t *m, ts_stm_ev_t *ev, const char **why) {
    int k = ts_stm_from_msg(m, ev, why);
    if (k > 0 && m->tcode == NX_OWNERSHIP && !c->stm[m->src % NH].has_switch) return 0; /* an ITC store */
    return k;
}

/* counts the ITC stores (Data Acquisition, Ownership) and software events of each source */
static int count_store(void *vctx, const nxd_msg_t *m) {
    ck_t *c = vctx;
    if (prog_ownership(c, m)) return 0;
    ts_stm_ev_t ev;
    const char *why;
    int k = stm_event(c, m, &ev, &why);
    if (k > 0) c->stm_in_trace[m->src % NH]++;
    else if (!k && m->status == NXD_OK && (m->tcode == NX_DATA_ACQ || m->tcode == NX_OWNERSHIP))
        c->in_trace[m->src % NH]++;
    return 0;
}

/* the timestamp of a message for ground truth cycle `cycle`: every one is the cycle plus one
 * constant (the first timed message sets it); `what` names the store or event */
static bool check_time(ck_t *c, const nxd_msg_t *m, uint64_t cycle, const char *pre, const char *what, size_t k) {
    if (!m->tics_valid) return true;
    int64_t off = (int64_t)m->tics - (int64_t)cycle;
    if (!c->have_offset) {
        c->ts_offset = off;
        c->have_offset = true;
    } else if (off != c->ts_offset) {
        snprintf(c->msg, sizeof c->msg,
                 "%s%s %zu at cycle %" PRIu64 " has timestamp %" PRIu64 ": %" PRId64 " cycles off (expected %s cycle + %" PRId64 "%s)",
                 pre, what, k, cycle, m->tics, off - c->ts_offset, what, c->ts_offset,
                 c->multi ? ", the one time base of every hart" : "");
        c->failed = 1;
        return false;
    }
    return true;
}

static int stm_fail(ck_t *c) {
    c->failed = 1;
    return 1;
}

/* the lost rows before the next traced one need an Error message of the hart since the last
 * traced event */
static int stm_skip_lost(ck_t *c, unsigned h, const char *pre, uint64_t offset) {
    stm_hart_t *s = &c->stm[h];
    size_t first = s->next;
    ts_stm_row_t fr;
    for (const ts_stm_row_t *l; (l = stm_row(c, h, s->next)) && l->status == TS_STM_LOST; s->next++)
        if (s->next == first) fr = *l;
    if (s->next == first) return 0;
    const ts_stm_row_t *r = &fr;
    if (!s->errs_since) {
        snprintf(c->msg, sizeof c->msg, "%ssoftware event id 0x%04x value 0x%08x (cycle %" PRIu64 ") was lost, but no Error "
                                        "message of the hart comes after the traced event before it and before %s",
                 pre, r->id, r->value, r->cycle,
                 offset == UINT64_MAX ? "the end of the trace" : "the next one");
        if (offset != UINT64_MAX) snprintf(c->msg + strlen(c->msg), sizeof c->msg - strlen(c->msg), " (offset %" PRIu64 ")", offset);
        return stm_fail(c);
    }
    s->lost += s->next - first;
    s->errs_matched += s->errs_since;
    s->errs_since = 0;
    return 0;
}

/* a decoded software event against the hart's next traced row */
static int stm_msg(ck_t *c, const nxd_msg_t *m, unsigned h, const ts_stm_ev_t *ev, const char *pre) {
    stm_hart_t *s = &c->stm[h];
    if (stm_skip_lost(c, h, pre, m->offset)) return 1;
    if (s->next >= s->n) {
        snprintf(c->msg, sizeof c->msg, "%ssoftware event id 0x%04x value 0x%08" PRIx64 " at offset %" PRIu64 " has no row in stm.csv (only %zu traced)", pre, ev->id, ev->value, m->offset, s->traced);
        return stm_fail(c);
    }
    const ts_stm_row_t *r = stm_row(c, h, s->next);
    if (!r) {
        snprintf(c->msg, sizeof c->msg, "%sstm.csv changed while it was read (row %zu of the hart is gone)", pre, s->next + 1);
        return stm_fail(c);
    }
    if (ev->id != r->id || ev->value != r->value) {
        snprintf(c->msg, sizeof c->msg, "%ssoftware event %" PRIu64 " (cycle %" PRIu64 ", id 0x%04x, value 0x%08x) decoded as id "
                                        "0x%04x value 0x%08" PRIx64 " at offset %" PRIu64,
                 pre, s->equal + 1, r->cycle, r->id, r->value, ev->id, ev->value,
                 m->offset);
        return stm_fail(c);
    }
    if (!check_time(c, m, r->cycle, pre, "software event", (size_t)s->equal + 1)) return 1;
    if (m->tics_valid) s->timed++;
    s->next++;
    s->equal++;
    s->errs_since = 0; /* an Error message matches lost events up to the next traced one only */
    return 0;
}

static int on_msg(void *vctx, const nxd_msg_t *m) {
    ck_t *c = vctx;
    if (m->status == NXD_TRUNCATED) return 0;
    if (m->status == NXD_BAD) {
        snprintf(c->msg, sizeof c->msg, "corrupt message at offset %" PRIu64 ": %s%s", m->offset, m->error,
                 c->multi ? " (the funnel must forward whole messages; one hart's message is broken or two interleave)" : "");
        c->failed = 1;
        return 1;
    }
    if (m->tcode == NX_ERROR) { /* that hart's encoder lost stores */
        c->errs[m->src % NH]++;
        for (unsigned k = 0; k < NH; k++)
            if (k == m->src % NH || !m->has_src) c->stm[k].errs_since++;
    }
    if ((m->tcode != NX_DATA_ACQ && m->tcode != NX_OWNERSHIP) || prog_ownership(c, m)) return 0;
    unsigned h = m->src;
    char pre[24] = "";
    if (c->multi) snprintf(pre, sizeof pre, "hart %u: ", h);
    ts_stm_ev_t ev;
    const char *why = NULL;
    int stm = h < NH ? stm_event(c, m, &ev, &why) : 0;
    if (stm < 0) {
        snprintf(c->msg, sizeof c->msg, "%scorrupt software event message at offset %" PRIu64 ": %s (IDTAG 0x%" PRIx64 ")", pre,
                 m->offset, why, m->f[NXF_IDTAG]);
        return stm_fail(c);
    }
    if (stm > 0 && h < c->harts) return stm_msg(c, m, h, &ev, pre);
    if (h >= c->harts || h >= NH) {
        snprintf(c->msg, sizeof c->msg, "message at offset %" PRIu64 " comes from source %u, but the run has %u hart%s", m->offset,
                 h, c->harts, c->harts == 1 ? "" : "s");
        c->failed = 1;
        return 1;
    }
    c->msgs++;
    if (c->next[h] >= c->n[h]) {
        snprintf(c->msg, sizeof c->msg, "%smessage at offset %" PRIu64 " has no matching store (only %zu stores%s)", pre, m->offset,
                 c->n[h], c->multi ? " of this hart: lost or duplicated in the funnel?" : "");
        c->failed = 1;
        return 1;
    }
    const store_t *s = itc_at(c, h, c->next[h]);
    if (!s) {
        snprintf(c->msg, sizeof c->msg, "%sitc.csv changed while it was read (store %zu of the hart is gone)", pre, c->next[h] + 1);
        c->failed = 1;
        return 1;
    }
    if (m->tcode == NX_DATA_ACQ) {
        uint64_t idtag = ((s->stim & 15u) << 2) | s->off;
        if (m->f[NXF_IDTAG] != idtag || m->f[NXF_DATA] != s->value) {
            snprintf(c->msg, sizeof c->msg,
                     "%sstore %zu (cycle %" PRIu64 ", stimulus %u+%u, value 0x%x) decoded as IDTAG 0x%" PRIx64 " DATA 0x%" PRIx64 " at offset %" PRIu64,
                     pre, c->next[h] + 1, s->cycle, s->stim, s->off, s->value, m->f[NXF_IDTAG], m->f[NXF_DATA], m->offset);
            c->failed = 1;
            return 1;
        }
    } else {
        if ((s->stim != 15 && s->stim != 31) || m->f[NXF_PROCESS] != s->value) {
            snprintf(c->msg, sizeof c->msg, "%sstore %zu (stimulus %u, value 0x%x) decoded as Ownership 0x%" PRIx64,
                     pre, c->next[h] + 1, s->stim, s->value, m->f[NXF_PROCESS]);
            c->failed = 1;
            return 1;
        }
        c->own[h]++;
    }
    if (!check_time(c, m, s->cycle, pre, "store", c->next[h] + 1)) return 1;
    if (m->tics_valid) c->timed[h]++;
    c->next[h]++;
    c->checked[h]++;
    return 0;
}

/* DIR/NAME, whole and NUL-terminated (run_trace.h), or NULL */
static char *slurp(const char *dir, const char *name, size_t *len) {
    char path[4200], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ts_read_file(path, len, err, sizeof err);
}

/* every ITC store hart h's firmware made (itc.csv, every status) against those found in the
 * trace, and what became of the rest; nothing when the trace holds them all */
static void ck_made_line(const ck_t *c, unsigned h, bool wrapped) {
    uint64_t made = c->made[h], in = c->checked[h];
    if (made == in) return;
    uint64_t cut = c->n[h] > c->next[h] ? c->n[h] - c->next[h] : 0;
    uint64_t over = wrapped && c->n[h] > in ? c->n[h] - in : 0;
    printf("check: ");
    if (c->multi) printf("hart %u: ", h);
    printf("%" PRIu64 " of %" PRIu64 " ITC stores the firmware made are in the trace; the rest:", in, made);
    const char *sep = " ";
    if (cut) {
        printf("%s%" PRIu64 " accepted by the encoder but cut by the stop on wrap", sep, cut);
        sep = ", ";
    }
    if (c->made_by[h][TS_ITC_AFTER_STOP]) {
        printf("%s%" PRIu64 " after the stop", sep, c->made_by[h][TS_ITC_AFTER_STOP]);
        sep = ", ";
    }
    if (over) {
        printf("%s%" PRIu64 " overwritten when the buffer wrapped", sep, over);
        sep = ", ";
    }
    if (c->made_by[h][TS_ITC_DROPPED_FIFO]) {
        printf("%s%" PRIu64 " dropped on a full ITC FIFO", sep, c->made_by[h][TS_ITC_DROPPED_FIFO]);
        sep = ", ";
    }
    if (c->made_by[h][TS_ITC_ENCODER_OFF]) printf("%s%" PRIu64 " made while the encoder was not tracing", sep, c->made_by[h][TS_ITC_ENCODER_OFF]);
    printf("\n");
}

static void ck_free(ck_t *c) {
    for (unsigned h = 0; h < NH; h++) {
        if (c->cur[h].f) fclose(c->cur[h].f);
        free(c->cur[h].line);
        memset(&c->cur[h], 0, sizeof c->cur[h]);
        if (c->stm[h].f) fclose(c->stm[h].f);
        free(c->stm[h].line);
        c->stm[h].f = NULL;
        c->stm[h].line = NULL;
    }
}

/* RUN_DIR/stm.csv validated and counted into c->stm (absent: no rows); -1 with a reason in err */
static int stm_load(ck_t *c, const char *dir, char *err, size_t errlen) {
    char path[4200], ferr[300];
    snprintf(path, sizeof path, "%s/stm.csv", dir);
    FILE *f = ts_fopen_input(path, ferr, sizeof ferr);
    if (!f) return 0;
    int rc = 0;
    unsigned lineno = 1;
    char *line = NULL;
    size_t lcap = 0;
    if (getline(&line, &lcap, f) < 0 || strncmp(line, "cycle,hart,id,value,status\n", 27)) {
        snprintf(err, errlen, "%s/stm.csv:1: not the header of stm.csv (cycle,hart,id,value,status)", dir);
        free(line);
        fclose(f);
        return -1;
    }
    while (getline(&line, &lcap, f) >= 0) {
        lineno++;
        ts_stm_row_t r;
        if (!ts_stm_row(line, &r)) {
            snprintf(err, errlen, "%s/stm.csv:%u: bad row '%.*s'", dir, lineno, (int)strcspn(line, "\r\n") > 80 ? 80 : (int)strcspn(line, "\r\n"), line);
            rc = -1;
            break;
        }
        if (r.hart >= NH) {
            snprintf(err, errlen, "%s/stm.csv:%u: an event of hart %u (at most %u harts are checked)", dir, lineno, r.hart, NH);
            rc = -1;
            break;
        }
        stm_hart_t *h = &c->stm[r.hart];
        c->stm_rows++;
        if (r.id == STM_ID_THREAD_SWITCH) h->has_switch = true;
        if (r.status == TS_STM_OFF) {
            h->off++;
            continue;
        }
        h->n++;
        if (r.status == TS_STM_TRACED) h->traced++;
    }
    free(line);
    fclose(f);
    return rc;
}

/* a wrapped buffer holds the newest events: start at the traced row that leaves `in_trace` */
static void stm_wrap_start(ck_t *c, unsigned h, size_t in_trace) {
    stm_hart_t *s = &c->stm[h];
    if (!in_trace) {
        s->next = s->n;
        return;
    }
    size_t skip = s->traced > in_trace ? s->traced - in_trace : 0, seen = 0, i = 0; /* the traced row number `skip` */
    const ts_stm_row_t *r;
    for (; (r = stm_row(c, h, i)); i++)
        if (r->status == TS_STM_TRACED && seen++ == skip) break;
    s->next = r ? i : s->n;
    while ((r = stm_row(c, h, s->next)) && r->status == TS_STM_LOST) s->next++; /* before the oldest: not checkable */
}

/* after the trace: lost rows at the end need an Error message; traced rows not decoded are
 * missing (stop-on-wrap: cut, counted in the summary) */
static void stm_end(ck_t *c, bool stopped) {
    for (unsigned h = 0; h < NH && !c->failed; h++) {
        stm_hart_t *s = &c->stm[h];
        char pre[24] = "";
        if (c->multi) snprintf(pre, sizeof pre, "hart %u: ", h);
        if (stopped) continue;
        if (stm_skip_lost(c, h, pre, UINT64_MAX)) return;
        if (s->next < s->n) {
            const ts_stm_row_t *r = stm_row(c, h, s->next);
            if (!r) {
                snprintf(c->msg, sizeof c->msg, "%sstm.csv changed while it was read", pre);
                c->failed = 1;
                return;
            }
            snprintf(c->msg, sizeof c->msg, "%s%zu software events are missing from the trace (first: cycle %" PRIu64 ", id 0x%04x, "
                                            "value 0x%08x)",
                     pre, s->traced - (size_t)s->equal, r->cycle, r->id, r->value);
            c->failed = 1;
        }
    }
}

/* the summary of the software events (nothing when stm.csv has no rows) */
static void stm_summary(ck_t *c, unsigned nh, bool wrapped) {
    if (!c->stm_rows) return;
    for (unsigned h = 0; h < (c->multi ? nh : 1); h++) {
        stm_hart_t *s = &c->stm[h];
        printf("check: ");
        if (c->multi) printf("hart %u: ", h);
        printf("%" PRIu64 " of %zu software events equal, %" PRIu64 " lost (%" PRIu64 " Error messages matched), %" PRIu64
               " timestamps equal",
               s->equal, s->traced, s->lost, s->errs_matched, s->timed);
        if (s->timed) printf(" (event cycle %+" PRId64 ")", c->ts_offset);
        if (s->off) printf("; %zu event(s) while not tracing (off), not in the trace", s->off);
        size_t left = 0;
        if (s->next < s->n && stm_row(c, h, s->next)) left = s->traced - s->traced_before; /* traced rows from next on */
        if (left) printf("; %zu later events were cut by stop-on-wrap", left);
        if (wrapped) printf("; the buffer wrapped: the oldest %zu events were overwritten", s->traced - (size_t)s->equal - left);
        printf("\n");
    }
}

/* The sink's stop on wrap as the simulator's ground truth has it: trace_events.csv's
 * `sink_stopped` row (written in the cycle the sink stopped, beside the ITC stores' log, not
 * from trace.json). 1 a stop (*cycle), 0 none, -1 the file is missing or damaged (err). */
static int gt_sink_stop(const char *dir, uint64_t *cycle, char *err, size_t errlen) {
    char path[4200], ferr[300];
    snprintf(path, sizeof path, "%s/trace_events.csv", dir);
    FILE *f = ts_fopen_input(path, ferr, sizeof ferr);
    if (!f) {
        snprintf(err, errlen, "%s", ferr);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    unsigned lineno = 1;
    if (getline(&line, &cap, f) < 0 || strncmp(line, "cycle,hart,event,detail", 23)) {
        snprintf(err, errlen, "%s:1: not the header of trace_events.csv (cycle,hart,event,detail)", path);
        rc = -1;
    }
    while (rc >= 0 && getline(&line, &cap, f) >= 0) {
        unsigned long long c;
        int hart;
        char ev[32];
        lineno++;
        if (sscanf(line, "%llu,%d,%31[^,],", &c, &hart, ev) != 3) {
            snprintf(err, errlen, "%s:%u: malformed row (cycle,hart,event,detail expected)", path, lineno);
            rc = -1;
        } else if (!strcmp(ev, "sink_stopped") && rc == 0) {
            *cycle = c;
            rc = 1;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

/* ---- ts_check_run's steps ------------------------------------------------------------------ */

/* what check knows of the run before it looks at the trace: the folder, the ELF, trace.json
 * and what itc.csv says (in ck_t: the stores per hart) */
typedef struct ck_run {
    ts_run_arg_t ra;      /* the run folder (ra.run_dir) */
    const char *dir;      /* ra.run_dir */
    const char *elf;      /* the ELF, or NULL */
    char elf_found[4400]; /* the ELF found through the run folder */
    char elf_err[4600];   /* why there is none */
    const char *perf_config;
    unsigned perf_channel;
    size_t tlen;        /* trace.rtd's bytes */
    ts_trace_json_t tj; /* trace.json, read strictly */
    unsigned max_hart;  /* the highest hart in itc.csv */
    unsigned srcbits, tsbits, lost, harts, nh;
    bool have_harts, wrapped_stop, wrapped;
} ck_run_t;

/* the run folder (a trace file names its folder), its files as the strict reader takes them,
 * a run that did not finish, --perf-config, the ELF (--elf, else the run's); 0 or the status */
static int ck_find_run(const ts_check_cfg_t *args, ck_run_t *r) {
    const char *dir = args->dir;
    ts_run_arg(dir, &r->ra);
    if (!r->ra.is_dir) {
        if (access(dir, F_OK)) {
            fprintf(stderr, "tracesim: check: no such run folder %s\n", dir);
            return TS_EXIT_NO_FILE;
        }
        char *sl = strrchr(r->ra.trace, '/');
        snprintf(r->ra.run_dir, sizeof r->ra.run_dir, "%.*s", sl ? (int)(sl - r->ra.trace) : 1, sl ? r->ra.trace : ".");
    }
    r->dir = dir = r->ra.run_dir;
    { /* every run-folder file there as the strict reader takes it (ts_file.h) */
        char rerr[4600];
        if (ts_run_folder_check(dir, rerr, sizeof rerr)) {
            fprintf(stderr, "tracesim: check: %s\n", rerr);
            return TS_EXIT_NO_FILE;
        }
    }
    /* a killed run: said as such, never blamed on the firmware; an interrupted one is checked
     * up to the cycle it stopped in (like a cycle limit) */
    if (ts_run_say_unfinished(dir) == TS_RUN_INCOMPLETE) return TS_EXIT_NO_FILE;
    if (r->perf_config) { /* read at once, also when the trace does not need it (not wrapped) */
        perf_header_t *h = calloc(PERF_MAX_CORES, sizeof *h);
        unsigned ch = 6;
        char cerr[4600];
        if (!h) {
            fprintf(stderr, "tracesim: check: out of memory\n");
            return TS_EXIT_HOST;
        }
        int bad = ts_read_perf_config(r->perf_config, h, PERF_MAX_CORES, &ch, cerr, sizeof cerr) < 0;
        free(h);
        if (bad) {
            fprintf(stderr, "tracesim: check: %s\n", cerr);
            return TS_EXIT_NO_FILE;
        }
    }
    r->elf_err[0] = 0;
    int er = ts_run_elf(dir, args->elf, r->elf_found, sizeof r->elf_found, r->elf_err, sizeof r->elf_err);
    if (er < 0) {
        fprintf(stderr, "tracesim: %s\n", r->elf_err);
        return TS_EXIT_NO_FILE;
    }
    r->elf = er ? r->elf_found : NULL;
    return 0;
}

/* the run's inputs: trace.rtd, trace.json and itc.csv there, prog_flow.csv's privilege rows,
 * stm.csv, trace.json (strictly), itc.csv's header and every row counted per hart and status
 * (trace.rtd and itc.csv are read in pieces and row by row, never whole: memory); 0 or the
 * status */
static int ck_load(ck_run_t *r, ck_t *c) {
    const char *dir = r->dir;
    size_t jlen;
    char path[4200], ferr[300];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    FILE *tf = ts_fopen_input(path, ferr, sizeof ferr);
    bool trace = tf != NULL;
    if (tf) {
        struct stat sb;
        if (!fstat(fileno(tf), &sb)) r->tlen = (size_t)sb.st_size;
        fclose(tf);
    }
    snprintf(path, sizeof path, "%s/itc.csv", dir);
    FILE *csv = ts_fopen_input(path, ferr, sizeof ferr);
    char *json = slurp(dir, "trace.json", &jlen), *line = NULL;
    size_t lcap = 0;
    int rc = 0;
    if (!trace || !json || !csv) {
        fprintf(stderr, "tracesim: %s lacks trace.rtd, trace.json or itc.csv (did the firmware use the trace encoder?)\n", dir);
        rc = TS_EXIT_NO_FILE;
        goto done;
    }
    char serr[4400];
    c->dir = dir;
    load_prog_own(c, dir);
    if (stm_load(c, dir, serr, sizeof serr)) {
        fprintf(stderr, "tracesim: check: %s\n", serr);
        rc = TS_EXIT_NO_FILE;
        goto done;
    }
    /* trace.json and itc.csv read strictly: a damaged or forged file is an error naming the
     * file, the line and what is wrong, never a default or a silent end of the rows */
    char jpath[4200], jerr[512];
    snprintf(jpath, sizeof jpath, "%s/trace.json", dir);
    if (ts_trace_json_read(jpath, &r->tj, jerr, sizeof jerr)) {
        fprintf(stderr, "tracesim: check: %s\n", jerr);
        rc = TS_EXIT_NO_FILE;
        goto done;
    }
    static const char itc_header[] = "cycle,hart,stimulus,offset,size,value";
    if (getline(&line, &lcap, csv) < 0 || strncmp(line, itc_header, sizeof itc_header - 1) ||
        (line[sizeof itc_header - 1] != '\n' && strncmp(line + sizeof itc_header - 1, ",status\n", 8))) {
        fprintf(stderr, "tracesim: check: %s/itc.csv:1: not the header of itc.csv (%s[,status])\n", dir, itc_header);
        rc = TS_EXIT_NO_FILE;
        goto done;
    }
    unsigned lineno = 1;
    r->max_hart = 0;
    while (getline(&line, &lcap, csv) >= 0) {
        lineno++;
        ts_itc_row_t row;
        if (!ts_itc_row(line, &row)) {
            fprintf(stderr, "tracesim: check: %s/itc.csv:%u: malformed row (cycle,hart,stimulus,offset,size,value[,status] "
                            "expected)\n",
                    dir, lineno);
            rc = TS_EXIT_NO_FILE;
            goto done;
        }
        unsigned hart = row.hart;
        if (hart >= NH) {
            fprintf(stderr, "tracesim: check: itc.csv has a store of hart %u (at most %u harts are checked)\n", hart, NH);
            rc = TS_EXIT_HOST;
            goto done;
        }
        if (hart > r->max_hart) r->max_hart = hart;
        c->made[hart]++;
        c->made_by[hart][row.status]++;
        if (row.status == TS_ITC_TRACED) c->n[hart]++; /* the others are not in the trace: counted */
    }
    /* each hart's rows are read again as the trace needs them */
    const ts_trace_json_t *tj = &r->tj;
    r->srcbits = tj->has_srcbits ? tj->srcbits : 0;
    r->tsbits = tj->has_tsbits ? tj->tsbits : 40;
    r->lost = tj->itc_lost > UINT32_MAX ? UINT32_MAX : (unsigned)tj->itc_lost;
    r->harts = tj->harts;
    r->have_harts = tj->has_harts;
    r->wrapped_stop = tj->stopped_on_wrap;
    r->wrapped = tj->wrapped;
done:
    free(json);
    if (csv) fclose(csv);
    free(line);
    return rc;
}

/* What check reads must agree with itself before anything is counted: trace.rtd is the
 * sink's image, trace.json's `bytes` (a wrapped buffer's too), so a trace file shorter or
 * longer than that is not the sink's (emptied, cut, appended to); and trace.json's stop on
 * wrap is the sink's stop in the simulator's ground truth (trace_events.csv `sink_stopped`,
 * itc.csv's `after_stop` stores), at the same cycle. Then the run's harts (trace.json, else
 * what itc.csv and the SRC width allow) against itc.csv's and the SRC field. 0 or the status
 * (FAILED with the reason on stderr) */
static int ck_consistent(ck_run_t *r, ck_t *c) {
    const char *dir = r->dir;
    const ts_trace_json_t *tj = &r->tj;
    size_t tlen = r->tlen;
    char why[600] = "";
    uint64_t gt_stop = 0;
    char serr2[600];
    int gs = gt_sink_stop(dir, &gt_stop, serr2, sizeof serr2);
    uint64_t after = 0;
    for (unsigned h = 0; h < NH; h++) after += c->made_by[h][TS_ITC_AFTER_STOP];
    if (tj->has_bytes && tlen < tj->bytes)
        snprintf(why, sizeof why, "%s/trace.rtd has %zu of the %" PRIu64 " bytes the sink wrote (trace.json \"bytes\"): "
                                  "%" PRIu64 " bytes are missing (the file was emptied or cut)",
                 dir, tlen, tj->bytes, tj->bytes - tlen);
    else if (tj->has_bytes && tlen > tj->bytes)
        snprintf(why, sizeof why, "%s/trace.rtd has %zu bytes, but the sink wrote %" PRIu64 " (trace.json \"bytes\"): "
                                  "%" PRIu64 " bytes are not the sink's",
                 dir, tlen, tj->bytes, (uint64_t)tlen - tj->bytes);
    else if (tj->stopped_on_wrap && tj->has_bytes && !tj->bytes) /* a sink stops on wrap when it is full */
        snprintf(why, sizeof why, "trace.json says the sink stopped on wrap (it stops when full), but it holds 0 bytes "
                                  "(trace.json \"bytes\")");
    else if (gs < 0 && (tj->stopped_on_wrap || after))
        snprintf(why, sizeof why, "the stop on wrap cannot be confirmed against the simulator's ground truth: %s", serr2);
    else if (tj->stopped_on_wrap && gs == 0)
        snprintf(why, sizeof why, "trace.json says the sink stopped on wrap at cycle %" PRIu64 ", but the simulator's ground "
                                  "truth has no stop (trace_events.csv has no sink_stopped row)",
                 tj->stopped_at_cycle);
    else if (!tj->stopped_on_wrap && gs == 1)
        snprintf(why, sizeof why, "trace.json says the sink did not stop on wrap, but the simulator's ground truth has it "
                                  "stop at cycle %" PRIu64 " (trace_events.csv sink_stopped)",
                 gt_stop);
    else if (tj->stopped_on_wrap && tj->stopped_at_cycle != gt_stop)
        snprintf(why, sizeof why, "trace.json says the sink stopped on wrap at cycle %" PRIu64 ", but the simulator's ground "
                                  "truth has it stop at cycle %" PRIu64 " (trace_events.csv sink_stopped)",
                 tj->stopped_at_cycle, gt_stop);
    else if (!tj->stopped_on_wrap && after)
        snprintf(why, sizeof why, "itc.csv has %" PRIu64 " stores made after a stop on wrap (after_stop), but trace.json "
                                  "says the sink did not stop",
                 after);
    if (why[0]) {
        fprintf(stderr, "tracesim: check FAILED: %s\n", why);
        return TS_EXIT_FAILED;
    }
    /* the run's harts: trace.json, else what itc.csv and the SRC width allow */
    unsigned srcbits = r->srcbits;
    if (!r->have_harts) r->harts = srcbits ? (1u << (srcbits > 4 ? 4 : srcbits)) : 1;
    unsigned harts = r->harts;
    c->harts = harts;
    c->multi = (r->have_harts && harts > 1) || r->max_hart > 0;
    if (r->max_hart >= harts) {
        fprintf(stderr, "tracesim: check FAILED: itc.csv has stores of hart %u, but the run has %u hart%s (trace.json)\n",
                r->max_hart, harts, harts == 1 ? "" : "s");
        return TS_EXIT_FAILED;
    }
    if (harts > 1 && !srcbits) {
        fprintf(stderr, "tracesim: check FAILED: the run has %u harts, but its messages carry no SRC field (trace.json srcbits 0): "
                        "the harts' messages cannot be told apart\n",
                harts);
        return TS_EXIT_FAILED;
    }
    r->nh = r->have_harts ? (harts < NH ? harts : NH) : r->max_hart + 1; /* harts reported */
    return 0;
}

/* the ITC stores and software trace events: every store of itc.csv found in the trace in
 * order (a wrapped trace: from its first message end, each hart's stores its newest), the
 * software trace events; a mismatch in c->failed / c->msg. *start: where decoding began */
static void ck_stores(ck_run_t *r, ck_t *c, const nxd_cfg_t *cfg, size_t *start) {
    const char *dir = r->dir;
    bool wrapped = r->wrapped;
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.rtd", dir);
    ts_trace_in_t *tin = malloc(sizeof *tin);
    *start = 0;
    if (wrapped && tin && !ts_trace_in_open(tin, path, cfg, true)) {
        ts_trace_in_all(tin, count_store, c);
        ts_trace_in_close(tin);
        for (unsigned h = 0; h < NH; h++) {
            c->next[h] = c->in_trace[h] <= c->n[h] ? c->n[h] - c->in_trace[h] : 0;
            stm_wrap_start(c, h, c->stm_in_trace[h]);
        }
    }
    if (tin && !ts_trace_in_open(tin, path, cfg, wrapped)) {
        *start = tin->start;
        ts_trace_in_all(tin, on_msg, c);
        ts_trace_in_close(tin);
    } else {
        snprintf(c->msg, sizeof c->msg, "%s cannot be read again (out of memory?)", path);
        c->failed = 1;
    }
    free(tin);
    if (!c->failed) stm_end(c, r->wrapped_stop);
    for (unsigned h = 0; h < NH && !c->failed && !r->wrapped_stop; h++)
        if (c->next[h] < c->n[h]) {
            char pre[24] = "";
            if (c->multi) snprintf(pre, sizeof pre, "hart %u: ", h);
            int len = snprintf(c->msg, sizeof c->msg, "%s%zu stores are missing from the trace (first: cycle %" PRIu64 ")", pre,
                               c->n[h] - c->next[h], itc_at(c, h, c->next[h]) ? itc_at(c, h, c->next[h])->cycle : 0);
            if (r->tj.other_sink_bytes && len > 0 && (size_t)len < sizeof c->msg)
                snprintf(c->msg + len, sizeof c->msg - (size_t)len,
                         "; the encoders wrote %" PRIu64 " bytes into their own sinks, not through the funnel that "
                         "trace.rtd holds (trace.json other_sink_bytes: firmware for one hart run with --harts > 1?)",
                         r->tj.other_sink_bytes);
            c->failed = 1;
        }
}

/* the stores' lines: per hart, the stop with what came after it, the software trace events,
 * the funnel */
static void ck_stores_summary(const ck_run_t *r, ck_t *c, size_t start) {
    bool wrapped = r->wrapped;
    unsigned nh = r->nh, lost = r->lost;
    uint64_t tot_timed = 0;
    for (unsigned h = 0; h < NH; h++) tot_timed += c->timed[h];
    /* one line per hart with several harts; the single-hart line as it always was */
    for (unsigned h = 0; h < (c->multi ? nh : 1); h++) {
        printf("check: ");
        if (c->multi) printf("hart %u: ", h);
        printf("%" PRIu64 " of %zu ITC stores found in the trace, in order, with their values", c->checked[h], c->n[h]);
        if (c->timed[h]) printf("; %" PRIu64 " timestamps equal the store cycle + %" PRId64, c->timed[h], c->ts_offset);
        if (c->next[h] < c->n[h]) printf("; %zu later stores were cut by stop-on-wrap", c->n[h] - c->next[h]);
        if (wrapped)
            printf("; the buffer wrapped: the oldest %zu stores were overwritten (decoded from offset %zu, the first message end)",
                   c->n[h] - (size_t)c->checked[h], start);
        if (lost && !c->multi) printf("; %u stores were lost (ITC FIFO overflow), the trace says where", lost);
        if (c->multi && c->errs[h])
            printf("; %" PRIu64 " Error message(s): this hart's encoder lost stores (ITC FIFO overflow)", c->errs[h]);
        printf("\n");
        ck_made_line(c, h, wrapped);
    }
    { /* the stop, with what came after it */
        ts_losses_t loss;
        char lerr[512], stop_text[512];
        if (!ts_losses_read(r->dir, (int)r->perf_channel, &loss, lerr, sizeof lerr) &&
            ts_losses_stop_text(&loss, stop_text, sizeof stop_text))
            printf("check: %s\n", stop_text);
    }
    stm_summary(c, nh, wrapped);
    if (c->multi) {
        printf("check: funnel: %" PRIu64 " ITC messages of %u harts, each a whole message (none corrupt), each hart's in "
               "order, none lost or duplicated",
               c->msgs, nh);
        if (tot_timed) printf("; one time base: %" PRIu64 " timestamps equal the store cycle + %" PRId64, tot_timed, c->ts_offset);
        if (lost) printf("; %u stores were lost (ITC FIFO overflow), the trace says where", lost);
        printf("\n");
    }
}

/* the perf records against the ground truth (perf_check.h) and their lines; *p: perf_check_run's
 * result; the status so far */
static int ck_perf(const ck_run_t *r, bool multi, perf_check_result_t *pr, int *p) {
    const char *dir = r->dir;
    bool wrapped_stop = r->wrapped_stop, wrapped = r->wrapped;
    int rc = 0;
    perf_check_cfg_t pc = {dir, r->elf, r->perf_channel, r->srcbits, r->tsbits, wrapped_stop, wrapped, r->lost, 0, r->perf_config, multi, 0,
                           r->tj.stopped_at_cycle /* confirmed by ck_consistent against trace_events.csv */};
    { /* program-trace messages lost (stats.txt): an Error message may stand for them alone */
        char sp[4200], sline[256];
        snprintf(sp, sizeof sp, "%s/stats.txt", dir);
        char sferr[4400];
        FILE *sf = ts_fopen_input(sp, sferr, sizeof sferr);
        unsigned long long pl;
        while (sf && fgets(sline, sizeof sline, sf))
            if (sscanf(sline, "prog_lost_messages %llu", &pl) == 1) pc.prog_lost = pl;
        if (sf) fclose(sf);
    }
    *p = perf_check_run(&pc, pr);
    if (*p < 0 && strstr(pr->msg, "lacks")) { /* ground truth missing: nothing to check against */
        fprintf(stderr, "tracesim: check: %s: the perf records cannot be checked\n", pr->msg);
        return TS_EXIT_NO_FILE;
    }
    if (*p) {
        fprintf(stderr, "tracesim: check FAILED: %s\n", !r->elf && *p < 0 && r->elf_err[0] ? r->elf_err : pr->msg);
        return TS_EXIT_FAILED;
    }
    if (!pr->found) return 0;
    for (unsigned h = 0; h < (multi ? NH : 1) && rc == 0; h++) {
        const perf_check_hart_t *hr = &pr->hart[h];
        if (multi && !hr->found) continue;
        /* every number a count of one thing, and together the records the firmware made:
         * whole ones in the trace (compared), cut ones in it, not in it (made before the stop
         * and cut by it whole, or made after it), older than the oldest in a wrapped trace */
        uint64_t cut = hr->truncated + hr->cut_by_gap;
        uint64_t whole = hr->in_trace >= cut ? hr->in_trace - cut : 0;
        uint64_t absent = hr->not_in_trace + hr->cut_by_stop;
        if (hr->in_trace < cut || whole + cut + absent + hr->overwritten != hr->records || (absent && !wrapped_stop)) {
            char hp[24] = "";
            if (multi) snprintf(hp, sizeof hp, "hart %u: ", h);
            fprintf(stderr, "tracesim: check FAILED: %sthe counts contradict each other: the firmware made %" PRIu64 " perf records, the trace holds %" PRIu64 " (%" PRIu64 " cut), %" PRIu64 " are not in it%s, %" PRIu64 " were overwritten\n", hp,
                    hr->records, hr->in_trace, cut, absent, wrapped_stop ? "" : " without a stop on wrap", hr->overwritten);
            rc = TS_EXIT_FAILED;
            break;
        }
        printf("check: ");
        if (multi) printf("hart %u: ", h);
        printf("compared %" PRIu64 " perf records in the trace: each equals the ground truth (%" PRIu64 " counter values "
               "as read, addresses from the control flow",
               whole, hr->values);
        if (pr->have_ts) printf(", timestamps = first store cycle + %" PRId64, pr->ts_offset);
        printf(")");
        if (hr->not_in_trace)
            printf("; %" PRIu64 " made after the stop are not in it (checked against the ground truth only)", hr->not_in_trace);
        if (hr->cut_by_stop)
            printf("; %" PRIu64 " made before the stop are not in it: the stop cut every store of %s (checked against "
                   "the ground truth only)",
                   hr->cut_by_stop, hr->cut_by_stop == 1 ? "it" : "each");
        if (hr->truncated)
            printf("; %" PRIu64 " cut (%s): its part in the trace equals it", hr->truncated,
                   wrapped_stop ? "stop-on-wrap" : "the run stopped in the middle of it");
        if (multi ? hr->gaps : pr->gaps)
            printf("; %" PRIu64 " gap(s) (Error messages) reported, %" PRIu64 " record(s) cut by a gap, %" PRIu64
                   " value(s) after a gap checked on the wire only",
                   multi ? hr->gaps : pr->gaps, hr->cut_by_gap, hr->wire_only);
        if (wrapped)
            printf("; the buffer wrapped: the trace holds the newest %" PRIu64 " (decoded with the perf header from %s; "
                   "%" PRIu64 " value(s) of the first checked on the wire only), the %" PRIu64 " older ones were "
                   "overwritten (checked against the ground truth only)",
                   hr->in_trace, pr->config_from, hr->wire_only, hr->overwritten);
        printf("\n");
    }
    if (rc) {
    } else if (pr->headers)
        printf("check: %" PRIu64 " perf header(s): every counter definition (type, code or event data, CSR, width) "
               "equals the hardware's counter programming when the header was written (hpm_writes.csv)\n",
               pr->headers);
    else
        printf("check: perf headers not compared with the hardware (the run folder has no hpm_writes.csv)\n");
    return rc;
}

/* the program trace (event mode: event_check.h, else prog_check.h) when the run has
 * prog_flow.csv; the status */
static int ck_prog(const ck_run_t *r) {
    char ppath[4200], pmsg[1024];
    snprintf(ppath, sizeof ppath, "%s/prog_flow.csv", r->dir);
    if (!access(ppath, F_OK) && r->wrapped) {
        printf("check: program flow not checked: the buffer wrapped (the trace starts inside the flow)\n");
    } else if (!access(ppath, F_OK)) {
        int q = event_check_run(r->dir, r->srcbits, r->tsbits, r->wrapped_stop, stdout, pmsg, sizeof pmsg);
        if (q == 2) q = prog_check_run(r->dir, r->elf, r->srcbits, r->tsbits, r->wrapped_stop, stdout, pmsg, sizeof pmsg);
        if (q) {
            fprintf(stderr, "tracesim: check %s: %s\n", q > 0 ? "FAILED" : "cannot check the program trace", pmsg);
            return q > 0 ? TS_EXIT_FAILED : TS_EXIT_NO_FILE;
        }
    }
    return 0;
}

/* the check's state: large, on the heap (no function-level statics) */
typedef struct {
    ck_run_t r;
    ck_t c;
    perf_check_result_t pr;
} ck_state_t;

static int ck_run(const ts_check_cfg_t *args, ck_state_t *st) {
    ck_run_t *r = &st->r;
    ck_t *c = &st->c;
    r->perf_config = args->perf_config;
    r->perf_channel = args->perf_channel;
    int rc = ck_find_run(args, r);
    if (rc) return rc;
    if ((rc = ck_load(r, c)) || (rc = ck_consistent(r, c))) {
        ck_free(c);
        return rc;
    }
    nxd_cfg_t cfg = {r->srcbits, r->tsbits};
    nxd_t d;
    if (nxd_init(&d, &cfg)) {
        fprintf(stderr, "tracesim: check: bad trace settings or out of memory\n");
        ck_free(c);
        return TS_EXIT_HOST;
    }
    size_t start;
    ck_stores(r, c, &cfg, &start);
    if (c->failed) {
        fprintf(stderr, "tracesim: check FAILED: %s\n", c->msg);
        ck_free(c);
        return TS_EXIT_FAILED;
    }
    ck_stores_summary(r, c, start);
    /* the stores' check is done: its stores and trace copy are not needed by the perf check,
     * which reads its own (memory: not both at once) */
    ck_free(c);
    int p = 0;
    rc = ck_perf(r, c->multi, &st->pr, &p);
    if (rc == 0) rc = ck_prog(r);
    if (rc == 0) /* the verdict, per hart with several */
        for (unsigned h = 0; h < (c->multi ? r->nh : 1); h++) {
            printf("check: ");
            if (c->multi) printf("hart %u: ", h);
            printf("%" PRIu64 " stores, %" PRIu64 " perf records, OK\n", c->checked[h],
                   p == 0 && st->pr.found ? st->pr.hart[h].in_trace : 0);
        }
    return rc;
}

int ts_check_run(const ts_check_cfg_t *args) {
    ck_state_t *st = calloc(1, sizeof *st);
    if (!st) {
        fprintf(stderr, "tracesim: check: out of memory\n");
        return TS_EXIT_HOST;
    }
    int rc = ck_run(args, st);
    free(st);
    return rc;
}
