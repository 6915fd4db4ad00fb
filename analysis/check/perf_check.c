/* perf_check.c - every perf record of a run's trace against what the simulated hardware
 * really did (the perf part of `tracesim check`).
 *
 * Two decodes with the same protocol decoder (decoder/src/perf_decode.c):
 *   A: the trace (trace.rtd -> Nexus messages -> elements -> perf records), what a user sees;
 *   B: the ITC stores the encoder accepted (itc.csv `traced` rows; after a stop on wrap also
 *      the `after_stop` ones), each fed as a message whose time is the store's cycle - what
 *      the firmware wrote, independent of the encoder, sink and framing.
 * Then, record by record:
 *   1. A equals B: type, addresses, counter values as received (a trace that stopped on wrap
 *      may end early; its last record may be cut, never completed with guesses);
 *   2. A's timestamp = the cycle of the record's first store + one constant for the run;
 *   3. every value B carries equals what the firmware read from the counter (counters.csv:
 *      the last read of that counter's CSR - both halves if it is wider than 32 bits - before
 *      the value's low word was stored; the timestamp from tsLower/tsUpper): Raw the value,
 *      Delta (value - previous read) mod 2^width, DeltaXOR value ^ previous read; the
 *      previous read is the one behind the previous record's value (for the first record of
 *      a Delta header, the latch: the last read before that record), 48 bits on the wire;
 *   4. the addresses are where the firmware was (hooks.csv, flow.csv and the ELF's symbols):
 *      each record was written by a call of its hook that was open (entered, not yet returned
 *      to its ra) when the record's first store was made and had written no other record,
 *      found by the thread running (tp) and the call's own arguments - enter/exit: a0 (the
 *      function) and a1 (the call site), manual: ra - not by call order, so a hook preempted
 *      between its entry and its record (a thread switch, other threads' records in between)
 *      is matched to its own call (hook_match.h); ISR - the mepc of the last interrupt.
 * The first difference is reported with its context.
 *
 * Lost data. itc.csv has only the stores the encoder accepted, so where stores were lost (ITC
 * FIFO overflow) B is broken too. The trace says where: each Error message (an OVERFLOW
 * element) comes right after the last store accepted before the loss (the encoder queues it
 * before any later store), so the gaps of A are put into B at the same store positions and
 * both decoders cut, resynchronise and mark unknowns alike (perf_decode.h). The encoder's
 * count of lost stores (trace.json itc_lost) must agree: lost stores and no gap in A, or a
 * gap without a loss, fail. Records cut by a gap must be cut in both, and the parts that
 * arrived are checked like whole records; a Delta or DeltaXOR value of the first record after
 * a gap is compared on the wire only (A = B: its previous read may belong to a lost record),
 * and every Delta/DeltaXOR value after a gap must be flagged as not absolute (DeltaXOR: the
 * addresses too). A wrapped trace (no stop-on-wrap) holds the newest stores only: A is decoded
 * from the first message end with the out-of-band header (perf_config.txt, else the header
 * the stores carry), and its first store is store nst - M of itc.csv (M: the stores in the
 * trace; ground_truth.c checks that they are that suffix), which is a gap in B; the records
 * before it were overwritten and are checked against the ground truth only.
 *
 * Several harts (the funnel merges the messages of one encoder per hart, each with its SRC):
 * everything above is done per hart - A's records, stores and gaps of a source, B's from the
 * itc.csv rows of that hart, the counter reads and control flow of that hart's rows of
 * counters.csv and flow.csv - with one timestamp constant for all harts (the funnel's
 * timestamp is the master of every encoder's). A wrapped trace holds the newest stores of
 * each hart, a suffix of that hart's rows.
 *
 * Memory: bounded by the call stack, the harts and the counters, not by the run. The
 * ground-truth CSVs are read row by row, per hart (gt_cur_t), keeping only the rows of the
 * record being checked, the last read of each counter and the call stack; trace.rtd is read
 * in pieces (trace_in.h); both decodes are streamed (perf_stream.h). A counting pass first
 * (A: each hart's records, ITC stores, gaps, decoding errors; B, hart by hart: its records,
 * those before a wrapped trace's oldest, its last header, which hooks its records need, its
 * errors, and its headers against hpm_writes.csv as they come), so every check of the whole
 * run is made, with the same message, before any record is compared. Then, hart by hart, A
 * and B are decoded again in step with the comparison, each into a queue of a few records.
 * B's gaps are A's, at A's store positions: B decodes A (once more in the counting pass, for
 * a hart with gaps) until A has passed the store B is about to feed, so only the gaps between
 * the two are held, never the run's list. Cost: A is decoded 1 + 2 x harts times at most,
 * itc.csv read 1 + 2 x harts times; the whole `check` stays in constant memory whatever the
 * number of records (fw.check.memory; figures in docs/performance.md, Memory). */
#include "perf_check.h"
#include "hook_match.h"
#include "ts_text.h"
#include "ts_file.h"
#include "ts_run_json.h"
#include "run_trace.h"
#include "elements.h"
#include "elf_syms.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include "perf_stream.h"
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct store {
    uint64_t cycle;
    unsigned hart, stim, off, size;
    uint32_t value;
} store_t;
typedef struct cread {
    uint64_t cycle;
    unsigned hart;
    uint32_t pc, value;
    int idx;
    bool hi;
} cread_t; /* idx 1 = timestamp */
typedef struct flow {
    uint64_t cycle;
    unsigned hart;
    char kind;
    uint32_t pc, target, link;
    bool has_tp; /* flow.csv's tp column is there and not empty (older run folders: none) */
    uint32_t tp; /* x4 after the row's instruction: the thread that runs on */
} flow_t;        /* kind c r t m */
/* hooks.csv: an entry into a hook function (HK_*: enter, exit, perfWriteCntrs), by a call or
 * a tail jump, with the argument registers as the core had them (hook_match.h) */
typedef hook_call_t hook_t;
static const char *const hook_name[] = {"__cyg_profile_func_enter", "__cyg_profile_func_exit", "perfWriteCntrs"};

/* hpm_writes.csv: the HPM programming of each hart over time (cycle 0: the reset state and
 * the configuration, then every write of mcountinhibit and mhpmeventN) */
typedef struct hpmw {
    uint64_t cycle;
    unsigned hart;
    int csr;
    uint32_t value;
} hpmw_t; /* csr: 0x320.. or HW_* */
enum { HW_IMPL = -1,
       HW_W_CYCLE = -2,
       HW_W_INSTRET = -3,
       HW_W_HPM = -4 };
typedef struct hpm_state {
    uint32_t event[32], inhibit, implemented;
    unsigned w_cycle, w_instret, w_hpm;
} hpm_state_t;

/* the platform's events (rtl_model/regs/sbi_events.def): general code / cache index ->
 * counter (0, 2 fixed; -1 programmable) and mhpmevent */
typedef struct sbi_ev {
    unsigned type, code;
    int counter;
    uint32_t ev;
} sbi_ev_t;
static const sbi_ev_t sbi_ev[] = {
#define TS_SBI_GENERAL(c, name, ctr, e) {0, c, ctr, e},
#define TS_SBI_CACHE(cache, op, result, name, e) {1, (cache) << 3 | (op) << 1 | (result), -1, e},
#include "sbi_events.def"
};

/* what a definition needs of the hardware, as text, into buf; the counter's CSR and width
 * and whether the hardware had them (false: *got says what it had) */
static bool header_def_ok(const perf_counter_def_t *d, const hpm_state_t *hw, unsigned tsbits, char *want, size_t wl,
                          char *got, size_t gl) {
    unsigned n = d->index, csr = d->info & TS_PW_INFO_CSR_MASK;
    if (n == TS_PW_COUNTER_TS) { /* the trace timestamp: no CSR */
        snprintf(want, wl, "type 0 code 0x80 (timestamp), no CSR, %u bits", tsbits);
        snprintf(got, gl, "type %u code 0x%x, CSR 0x%03x, %u bits", d->type, d->code, csr, d->width);
        return d->type == TS_PW_EV_HW_GENERAL && d->code == 0x80 && csr == 0 && d->width == tsbits;
    }
    unsigned width = n == 0 ? hw->w_cycle : n == 2 ? hw->w_instret :
                                                     hw->w_hpm;
    bool impl = (hw->implemented >> n) & 1u, inh = (hw->inhibit >> n) & 1u;
    uint32_t ev = n >= 3 ? hw->event[n] : 0;
    snprintf(got, gl, "%s%s, CSR 0x%03x, %u bits (mhpmevent%u 0x%x%s)", impl ? "" : "no such counter, ", inh ? "inhibited" : "counting",
             0xC00 + n, width, n, ev, n < 3 ? ", fixed" : "");
    char what[96];
    if (d->type == TS_PW_EV_HW_RAW) snprintf(what, sizeof what, "type 2 (raw) event_data 0x%" PRIx64, d->event_data);
    else
        snprintf(what, sizeof what, "type %u code 0x%x", d->type, d->code);
    snprintf(want, wl, "%s, CSR 0x%03x, %u bits", what, csr, d->width);
    if (!impl || inh || csr != 0xC00u + n || d->width != width) return false;
    if (d->type == TS_PW_EV_HW_RAW) return n >= 3 && d->event_data == ev;
    for (size_t i = 0; i < sizeof sbi_ev / sizeof sbi_ev[0]; i++)
        if (sbi_ev[i].type == d->type && sbi_ev[i].code == d->code)
            return sbi_ev[i].counter >= 0 ? (int)n == sbi_ev[i].counter : n >= 3 && sbi_ev[i].ev && ev == sbi_ev[i].ev;
    return false;
}

#define NH PERF_CHECK_HARTS

/* DIR/NAME, whole and NUL-terminated (run_trace.h), or NULL */
static char *slurp(const char *dir, const char *name) {
    char path[4200], err[256];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ts_read_file(path, &len, err, sizeof err);
}

/* the CSV line at l (up to its newline) as a string in buf: sscanf on the whole rest of a
 * file would measure all of it for every line (quadratic in the run's size) */
static const char *line_of(const char *l, char *buf, size_t size) {
    size_t n = strcspn(l, "\n");
    if (n >= size) n = size - 1;
    memcpy(buf, l, n);
    buf[n] = 0;
    return buf;
}

/* counter index and half of a counters.csv CSR name; false for other CSRs */
static bool counter_of(const char *name, int *idx, bool *hi) {
    size_t len = strlen(name);
    *hi = len > 1 && name[len - 1] == 'h' && strncmp(name, "mhpmcounter", len) && len != 5;
    if (!strcmp(name, "ts_lower") || !strcmp(name, "tf_ts_lower")) {
        *idx = 1;
        *hi = false;
        return true;
    }
    if (!strcmp(name, "ts_upper") || !strcmp(name, "tf_ts_upper")) {
        *idx = 1;
        *hi = true;
        return true;
    }
    const char *p = name[0] == 'm' ? name + 1 : name;
    char base[32];
    size_t bl = strlen(p) - (*hi ? 1 : 0);
    if (bl >= sizeof base) return false;
    memcpy(base, p, bl);
    base[bl] = 0;
    if (!strcmp(base, "cycle")) {
        *idx = 0;
        return true;
    }
    if (!strcmp(base, "instret")) {
        *idx = 2;
        return true;
    }
    if (!strncmp(base, "hpmcounter", 10)) {
        char *end;
        long n = strtol(base + 10, &end, 10);
        if (*end || end == base + 10 || n < 3 || n > 31) return false;
        *idx = (int)n;
        return true;
    }
    return false;
}

static uint64_t sym_addr(const elf_syms_t *s, const char *name) { /* also a clone GCC renamed (elf_syms.h) */
    const elf_sym_t *e = elf_syms_by_name(s, name);
    return e ? e->addr : UINT64_MAX;
}

/* an address from the ground truth for a message; UINT64_MAX: flow.csv has none (no call of
 * the hook, no frame, no interrupt before the record) */
static const char *addr_text(char *buf, size_t len, uint64_t a) {
    if (a == UINT64_MAX) snprintf(buf, len, "unknown (no matching call in flow.csv: is the ELF the run's firmware?)");
    else
        snprintf(buf, len, "0x%08" PRIx64, a);
    return buf;
}

static uint64_t wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
#define M48 0xFFFFFFFFFFFFull

/* ---- the ground-truth CSVs, read row by row ----
 * A cursor reads one file's rows of one hart in file order (the files are written in cycle
 * order) and keeps only a window of them: row i of the hart (0, 1, ...) is read when asked
 * for and forgotten once the caller has passed it (gt_drop). So what the check holds of a
 * file is the rows of the record being checked, not the run. */
enum gt_file { GT_ITC,
               GT_CTR,
               GT_FLOW,
               GT_HOOK,
               GT_HPMW };
typedef struct gt_cur {
    FILE *f;
    enum gt_file kind;
    unsigned hart;
    bool all_status; /* itc.csv: after_stop rows too (stop on wrap) */
    bool eof;
    bool oom; /* a row could not be kept: the check must not go on */
    char *line;
    size_t lcap;
    unsigned char *buf; /* rows base .. base + n - 1 */
    size_t esz, base, n, cap;
    char *refused; /* the file is there but the strict reader refused it (ts_file.h): why */
} gt_cur_t;

/* parses a hooks.csv row; false if it is not one */
static bool hook_row(const char *l, hook_t *e) {
    char name[40], how[8], lb[256];
    memset(e, 0, sizeof *e);
    int n = sscanf(line_of(l, lb, sizeof lb), "%" SCNu64 ",%u,%39[^,],%7[^,],%" SCNx32 ",%" SCNx32 ",%" SCNx32 ",%" SCNx32 ",%" SCNx32,
                   &e->cycle, &e->hart, name, how, &e->pc, &e->a0, &e->a1, &e->ra, &e->tp);
    if (n != 8 && n != 9) return false;
    e->has_tp = n == 9;
    e->kind = -1;
    for (int k = 0; k < 3; k++)
        if (!strcmp(name, hook_name[k])) e->kind = k;
    if (e->kind < 0 || (strcmp(how, "call") && strcmp(how, "tail"))) return false;
    e->tail = how[0] == 't';
    e->hart %= NH;
    return true;
}
/* parses an hpm_writes.csv row; false if it is not one */
static bool hpmw_row(const char *l, hpmw_t *w, char *lb, size_t lbsize) {
    char name[40], val[24];
    memset(w, 0, sizeof *w);
    if (sscanf(line_of(l, lb, lbsize), "%" SCNu64 ",%u,%39[^,],%23s", &w->cycle, &w->hart, name, val) != 4) return false;
    unsigned n;
    char *end;
    w->value = (uint32_t)strtoul(val, &end, 0);
    if (!strcmp(name, "mcountinhibit")) w->csr = 0x320;
    else if (sscanf(name, "mhpmevent%u", &n) == 1 && n >= 3 && n <= 31)
        w->csr = 0x320 + (int)n;
    else if (!strcmp(name, "implemented"))
        w->csr = HW_IMPL;
    else if (!strcmp(name, "width_mcycle"))
        w->csr = HW_W_CYCLE;
    else if (!strcmp(name, "width_minstret"))
        w->csr = HW_W_INSTRET;
    else if (!strcmp(name, "width_mhpmcounter"))
        w->csr = HW_W_HPM;
    else
        return false;
    w->hart %= NH;
    return true;
}

/* the next line of f (the newline kept) in *line; false at the end */
static bool next_line(FILE *f, char **line, size_t *cap) {
    return f && getline(line, cap, f) >= 0;
}

/* reads rows until one of the cursor's hart is in the window; false at the end of the rows
 * (the end of the file or the first row that does not parse, as the whole-file reader did) */
static bool gt_read(gt_cur_t *c) {
    while (!c->eof) {
        if (!next_line(c->f, &c->line, &c->lcap)) {
            c->eof = true;
            break;
        }
        const char *l = c->line;
        union {
            store_t s;
            cread_t r;
            flow_t f;
            hook_t h;
            hpmw_t w;
        } u;
        memset(&u, 0, sizeof u);
        bool keep = false;
        char lb[256];
        switch (c->kind) {
        case GT_ITC: {
            ts_itc_row_t r;
            if (!ts_itc_row(l, &r)) {
                c->eof = true;
                break;
            }
            if (r.status != TS_ITC_TRACED && !(r.status == TS_ITC_AFTER_STOP && c->all_status)) break;
            u.s = (store_t){r.cycle, r.hart % NH, r.stim, r.off, r.size, r.value};
            keep = u.s.hart == c->hart;
            break;
        }
        case GT_CTR: {
            char name[40];
            cread_t *cr = &u.r;
            if (sscanf(line_of(l, lb, sizeof lb), "%" SCNu64 ",%u,%" SCNx32 ",%39[^,],%" SCNx32, &cr->cycle, &cr->hart, &cr->pc, name,
                       &cr->value) != 5) {
                c->eof = true;
                break;
            }
            keep = counter_of(name, &cr->idx, &cr->hi) && cr->hart == c->hart;
            break;
        }
        case GT_FLOW: {
            flow_t *f = &u.f;
            char kind[8];
            if (sscanf(line_of(l, lb, sizeof lb), "%" SCNu64 ",%u,%7[a-z],%" SCNx32, &f->cycle, &f->hart, kind, &f->pc) != 4) {
                c->eof = true;
                break;
            }
            const char *p = strchr(lb, ','); /* target and link may be empty */
            for (int k = 0; k < 3 && p; k++) p = strchr(p + 1, ',');
            if (p) f->target = (uint32_t)strtoul(p + 1, NULL, 16);
            if (p && (p = strchr(p + 1, ','))) f->link = (uint32_t)strtoul(p + 1, NULL, 16);
            if (p && (p = strchr(p + 1, ',')) && p[1] == '0') {
                f->has_tp = true;
                f->tp = (uint32_t)strtoul(p + 1, NULL, 16);
            }
            f->kind = kind[0] == 'c' ? 'c' : kind[0] == 'r' ? 'r' :
                                         kind[0] == 't'     ? 't' :
                                                              'm';
            /* the check uses calls, returns and the traps into interrupt handlers, and with a
             * tp column every trap and mret too (the thread that runs after them) */
            keep = f->hart == c->hart && (f->kind == 'c' || f->kind == 'r' || (f->kind == 't' && (f->link & 0x80000000u)) ||
                                          (f->has_tp && (f->kind == 't' || f->kind == 'm')));
            break;
        }
        case GT_HOOK:
            if (!hook_row(l, &u.h)) {
                c->eof = true;
                break;
            }
            keep = u.h.hart == c->hart;
            break;
        case GT_HPMW:
            if (!hpmw_row(l, &u.w, lb, sizeof lb)) {
                c->eof = true;
                break;
            }
            keep = u.w.hart == c->hart;
            break;
        }
        if (!keep) continue;
        if (c->n == c->cap) {
            size_t nc = c->cap ? 2 * c->cap : 16;
            unsigned char *p = realloc(c->buf, nc * c->esz);
            if (!p) {
                c->eof = c->oom = true;
                return false;
            }
            c->buf = p;
            c->cap = nc;
        }
        memcpy(c->buf + c->n * c->esz, &u, c->esz);
        c->n++;
        return true;
    }
    return false;
}
/* row i of the cursor's hart, or NULL after the last one (i must not be below the window) */
static const void *gt_get(gt_cur_t *c, size_t i) {
    while (i >= c->base + c->n)
        if (!gt_read(c)) return NULL;
    return i >= c->base ? c->buf + (i - c->base) * c->esz : NULL;
}
/* forgets the rows before row i */
static void gt_drop(gt_cur_t *c, size_t i) {
    if (i <= c->base) return;
    size_t k = i - c->base;
    if (k > c->n) k = c->n;
    memmove(c->buf, c->buf + k * c->esz, (c->n - k) * c->esz);
    c->n -= k;
    c->base += k;
}
/* opens DIR/NAME for hart's rows (its header line read); false if there is no such file */
static bool gt_open(gt_cur_t *c, const char *dir, const char *name, enum gt_file kind, unsigned hart, bool all_status) {
    static const size_t esz[] = {sizeof(store_t), sizeof(cread_t), sizeof(flow_t), sizeof(hook_t), sizeof(hpmw_t)};
    char path[4200];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->hart = hart;
    c->all_status = all_status;
    c->esz = esz[kind];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char oerr[4400];
    c->f = ts_fopen_input(path, oerr, sizeof oerr); /* a regular file only; a FIFO is refused at once */
    struct stat lsb;
    if (!c->f) { /* absent, or there and refused (a link, 1 TiB) */
        c->eof = true;
        if (!lstat(path, &lsb)) c->refused = strdup(oerr);
        return false;
    }
    if (!next_line(c->f, &c->line, &c->lcap)) c->eof = true; /* the header line */
    return true;
}
static void gt_close(gt_cur_t *c) {
    if (c->f) fclose(c->f);
    free(c->refused);
    free(c->line);
    free(c->buf);
    memset(c, 0, sizeof *c);
}

static const char *rec_name(const crec_t *r) { return perf_record_name(r->type); }

/* the headers of a hart's perf data against its counter programming when each was written
 * (its marker store's cycle), as decode B finds them (ps_b_t on_header): the first that
 * differs is kept, to be reported where the check of the hart's records begins */
typedef struct hd_check {
    const perf_check_cfg_t *cfg;
    gt_cur_t *hw; /* the hart's rows of hpm_writes.csv */
    hpm_state_t st;
    size_t wi;
    const char *pre;
    bool failed;
    uint64_t ok; /* headers equal to the hardware's programming */
    char msg[sizeof((perf_check_result_t *)0)->msg];
} hd_check_t;

static void check_header(void *ctx, const perf_header_t *hd, uint64_t k) {
    hd_check_t *c = ctx;
    if (c->failed) return;
    hpm_state_t *hw = &c->st;
    for (const hpmw_t *w; (w = gt_get(c->hw, c->wi)) && w->cycle < hd->tics; gt_drop(c->hw, ++c->wi)) {
        if (w->csr == 0x320) hw->inhibit = w->value;
        else if (w->csr > 0x320 && w->csr <= 0x33F)
            hw->event[w->csr - 0x320] = w->value;
        else if (w->csr == HW_IMPL)
            hw->implemented = w->value;
        else if (w->csr == HW_W_CYCLE)
            hw->w_cycle = w->value;
        else if (w->csr == HW_W_INSTRET)
            hw->w_instret = w->value;
        else if (w->csr == HW_W_HPM)
            hw->w_hpm = w->value;
    }
    for (unsigned i = 0; i < hd->n; i++) {
        char want[160], got[160], cn[64];
        if (header_def_ok(&hd->def[i], hw, c->cfg->tsbits, want, sizeof want, got, sizeof got)) continue;
        perf_counter_name(&hd->def[i], cn, sizeof cn);
        snprintf(c->msg, sizeof c->msg, "%sperf header %" PRIu64 " (marker at cycle %" PRIu64 "): counter %u (%s) is defined as %s, "
                                        "but the hardware had %s (hpm_writes.csv)",
                 c->pre, k + 1, hd->tics, hd->def[i].index, cn, want, got);
        c->failed = true;
        return;
    }
    c->ok++;
}

/* what the counting passes found of a hart */
typedef struct hart_sum {
    uint64_t a_n, b_n, b0; /* A's and B's records; B's before the oldest one in a wrapped trace */
    uint64_t b_errors;     /* B's decoding errors */
    bool have_h;
    perf_header_t h; /* B's last header */
    hd_check_t hd;   /* B's headers against the hardware */
} hart_sum_t;

/* one hart's ground truth and decodes */
typedef struct hart_in {
    unsigned hart;
    const char *pre;             /* "hart N: " with several harts, else "" */
    gt_cur_t *st, *cr, *fl, *hk; /* the hart's rows of itc.csv (B's stores), counters.csv, flow.csv, hooks.csv */
    bool have_hpmw;              /* the run folder has hpm_writes.csv */
    ps_a_t *A;                   /* decode A, queueing the hart's records */
    ps_b_t *B;                   /* decode B of the hart, its stores from st */
    const hart_sum_t *sum;
    const elf_syms_t *syms;
    bool have_hooks; /* the run folder has hooks.csv */
} hart_in_t;

/* checks hart H's records (steps 1-4 of the file comment); 0, or 1 with res->msg */
static int check_hart(const perf_check_cfg_t *cfg, const hart_in_t *H, perf_check_result_t *res, perf_check_hart_t *hr) {
    ps_a_t *A = H->A;
    ps_b_t *B = H->B;
    const hart_sum_t *S = H->sum;
    gt_cur_t *st = H->st, *cr = H->cr, *fl = H->fl, *hk = H->hk;
    uint64_t b0 = S->b0, a_n = S->a_n, b_n = S->b_n;
    const char *pre = H->pre;
    if (a_n + b0 > b_n || (!cfg->stopped_on_wrap && a_n + b0 != b_n)) {
        snprintf(res->msg, sizeof res->msg, "%sthe trace has %" PRIu64 " perf records, the firmware wrote %" PRIu64 "%s", pre, a_n,
                 b_n - b0, b0 ? " after the oldest one in the trace" : "");
        return 1;
    }
    if (H->have_hpmw) {
        if (S->hd.failed) {
            snprintf(res->msg, sizeof res->msg, "%s", S->hd.msg);
            return 1;
        }
        hr->headers = S->hd.ok;
    }
    const perf_header_t *h = &S->h;
    uint64_t prev_read[PERF_MAX_COUNTERS];
    memset(prev_read, 0, sizeof prev_read);
    size_t si = 0, ci = 0, fi = 0, ki = 0; /* cursors: stores, counter reads, flow rows, hook entries */
    /* the hook calls entered and not yet returned (hooks.csv entries, closed by the flow.csv
     * return to their ra) and the thread running: which call wrote a record (hook_match.h) */
    hook_match_t hm;
    hm_init(&hm);
    uint64_t last_irq_pc = UINT64_MAX;
    hook_t last_manual; /* the last entry of perfWriteCntrs */
    bool have_manual = false;
    int rc = 1;
    cread_t last_read[PERF_MAX_COUNTERS][2]; /* the last lo/hi read of each counter */
    bool have_read[PERF_MAX_COUNTERS][2];
    memset(have_read, 0, sizeof have_read);
    bool lost = false; /* a gap since the header */
    bool have_last_addr = false;
    uint64_t last_addr = 0; /* the last address the previous record held */
    for (uint64_t k = 0; k < b_n; k++) {
        const crec_t *b = ps_b_next(B);
        if (!b || B->oom) {
            snprintf(res->msg, sizeof res->msg, "%s", B->oom ? "out of memory" : "the stores' decode ended before its last record");
            goto out;
        }
        if (b->gap_before) lost = true;
        char where[240];
        char fnb[160];
        const char *fn = elf_syms_find(H->syms, b->addr);
        if (fn) fn = ts_text_esc(fn, fnb, sizeof fnb); /* no control character to the terminal */
        snprintf(where, sizeof where, "%srecord %" PRIu64 " (%s at 0x%08" PRIx64 "%s%s%s, first store at cycle %" PRIu64 ")", pre, k + 1,
                 rec_name(b), b->addr, fn ? " <" : "", fn ? fn : "", fn ? ">" : "", b->tics);
        /* the store that starts the record */
        const store_t *s0;
        while ((s0 = gt_get(st, si)) && s0->cycle < b->tics) si++;
        gt_drop(st, si);
        if (!s0) {
            snprintf(res->msg, sizeof res->msg, "%s: its store is not in itc.csv", where);
            goto out;
        }
        /* flow and hook entries up to the record, in cycle order (a call before the entry of
         * the hook it calls, same cycle): the call stack, which frames are hooks', the last
         * interrupt */
        for (;;) {
            const flow_t *fn_ = gt_get(fl, fi);
            const hook_t *hn_ = gt_get(hk, ki);
            bool f_ok = fn_ && fn_->cycle < b->tics, k_ok = hn_ && hn_->cycle < b->tics;
            if (!f_ok && !k_ok) break;
            if (f_ok && (!k_ok || fn_->cycle <= hn_->cycle)) {
                flow_t fv = *fn_;
                const flow_t *f = &fv;
                gt_drop(fl, ++fi);
                hm_running(&hm, f->has_tp, f->tp);
                if (f->kind == 'r') {
                    hm_return(&hm, f->target);
                } else if (f->kind == 't' && (f->link & 0x80000000u)) {
                    last_irq_pc = f->pc;
                }
            } else { /* a hook entered (by a call or a tail jump): open */
                hook_t e = *hn_;
                gt_drop(hk, ++ki);
                if (e.kind == HK_MANUAL) {
                    last_manual = e;
                    have_manual = true;
                }
                if (hm_enter(&hm, &e)) {
                    snprintf(res->msg, sizeof res->msg, "out of memory");
                    goto out;
                }
            }
        }
        /* 1. the trace's record equals the firmware's */
        bool whole_in_trace = false; /* its values are counted as compared in the trace */
        if (k >= b0 && k - b0 < a_n) {
            const crec_t *a = ps_a_next(A);
            if (!a || A->oom) {
                snprintf(res->msg, sizeof res->msg, "%s", A->oom ? "out of memory" : "the trace's decode ended before its last record");
                goto out;
            }
            bool cut = a->truncated && k - b0 == a_n - 1 && (cfg->stopped_on_wrap || (cfg->run_cut && k == b_n - 1));
            bool two = b->type == PERF_FUNC_ENTER || b->type == PERF_FUNC_EXIT;
            if (a->type != b->type || (a->has_addr && a->addr != b->addr) ||
                (a->has_call_site && a->call_site != b->call_site) ||
                (!cut && (a->has_addr != b->has_addr || a->has_call_site != b->has_call_site || a->n != b->n ||
                          a->truncated != b->truncated || a->addr_wire != b->addr_wire ||
                          (two && a->call_site_wire != b->call_site_wire)))) {
                snprintf(res->msg, sizeof res->msg, "%s: decoded from the trace as %s%s at 0x%08" PRIx64 " (as received 0x%08" PRIx64 ") with %u values",
                         where, rec_name(a), a->truncated ? " (truncated)" : "", a->addr, a->addr_wire, a->n);
                goto out;
            }
            if (a->gap_before != b->gap_before || (!cut && (a->value_unknown != b->value_unknown ||
                                                            a->delta_unknown != b->delta_unknown || a->addr_unknown != b->addr_unknown))) {
                snprintf(res->msg, sizeof res->msg, "%s: the trace's decode has %sa gap before it and marks values 0x%x, deltas 0x%x "
                                                    "unknown; the stores' decode has %sa gap and marks 0x%x, 0x%x",
                         where, a->gap_before ? "" : "no ",
                         a->value_unknown, a->delta_unknown, b->gap_before ? "" : "no ", b->value_unknown, b->delta_unknown);
                goto out;
            }
            /* after a gap nothing that depends on lost data may be given as known */
            uint32_t all = a->n >= 32 ? ~0u : (1u << a->n) - 1;
            if (lost && ((h->count_type != PERF_RAW && a->value_unknown != all) ||
                         (h->count_type == PERF_DELTA_XOR && (a->delta_unknown != all || a->has_addr || a->has_call_site)) ||
                         (h->count_type == PERF_RAW && a->value_unknown))) {
                snprintf(res->msg, sizeof res->msg, "%s: after a gap in a %s trace the decode gives values 0x%x, deltas 0x%x%s as known",
                         where, h->count_type == PERF_RAW ? "Raw" : h->count_type == PERF_DELTA ? "Delta" :
                                                                                                  "DeltaXOR",
                         all & ~a->value_unknown, all & ~a->delta_unknown, a->has_addr ? " and its address" : "");
                goto out;
            }
            if (a->truncated && !cut) hr->cut_by_gap++;
            whole_in_trace = !a->truncated;
            for (unsigned i = 0; i < a->n && i < b->n; i++)
                if (a->raw[i] != b->raw[i]) {
                    char cn[64];
                    perf_counter_name(&h->def[i], cn, sizeof cn);
                    snprintf(res->msg, sizeof res->msg, "%s: %s is 0x%" PRIx64 " in the trace, the firmware stored 0x%" PRIx64,
                             where, cn, a->raw[i], b->raw[i]);
                    goto out;
                }
            if (cut) hr->truncated++;
            /* 2. timestamps: one constant for the run, every hart (one master time base) */
            if (a->tics_valid) {
                int64_t off = (int64_t)a->tics - (int64_t)b->tics;
                if (!res->have_ts) {
                    res->ts_offset = off;
                    res->have_ts = 1;
                } else if (off != res->ts_offset) {
                    snprintf(res->msg, sizeof res->msg, "%s: timestamp %" PRIu64 " is %" PRId64 " cycles off (expected store cycle + %" PRId64 ")",
                             where, a->tics, off - res->ts_offset, res->ts_offset);
                    goto out;
                }
            }
            ps_rq_pop(&A->q);
        } else if (k >= b0) {
            /* not in the trace: made after the sink stopped (its first store's cycle), or
             * made before it and every store of it still in the encoder when it stopped */
            if (cfg->stopped_on_wrap && b->tics_valid && b->tics <= cfg->stopped_at_cycle) hr->cut_by_stop++;
            else
                hr->not_in_trace++;
        }
        /* 4. addresses (of the parts that were stored: the encoder drops the stores of a
         * record it stops in the middle of, so the firmware's last record may be cut too; a
         * gap cuts the record it falls into) */
        if (b->truncated && !cfg->stopped_on_wrap && !b->cut_by_gap && !(cfg->run_cut && k == b_n - 1)) {
            snprintf(res->msg, sizeof res->msg, "%s: the firmware's stores end in the middle of a record", where);
            goto out;
        }
        /* enter, exit, manual: a call of the record's hook open when its first store was made
         * and its argument registers at its entry (hooks.csv): enter/exit the function a0 and
         * call site a1 GCC passed, manual the return address ra of perfWriteCntrs */
        uint64_t want_a = UINT64_MAX, want_b = UINT64_MAX;
        bool two = b->type == PERF_FUNC_ENTER || b->type == PERF_FUNC_EXIT;
        if (b->type == PERF_ISR) {
            want_a = last_irq_pc;
        } else {
            int want_kind = b->type == PERF_FUNC_ENTER ? HK_ENTER : b->type == PERF_FUNC_EXIT ? HK_EXIT :
                                                                                                HK_MANUAL;
            /* the hook call that wrote it (hook_match.h): an open call of its hook that has
             * written no record yet, of the thread running when the record was made, with the
             * record's own arguments (function and call site; a manual record's ra), the latest
             * such - not the latest call: a thread preempted between a hook's entry and its
             * record writes the record after other threads' calls and records. Without such a
             * call (or without the addresses: cut, unknown after a gap): the latest open call of
             * that hook, else the latest open call, whose difference is reported. */
            bool known = b->has_addr && !b->addr_unknown && (!two || b->has_call_site);
            const hook_t *e = hm_record(&hm, want_kind, known, b->addr, b->call_site);
            /* a manual record the firmware wrote itself, outside any hook (the wire format by
             * hand): it holds the return address of the last perfWriteCntrs call */
            if (!e && b->type == PERF_MANUAL && have_manual) e = &last_manual;
            if (!H->have_hooks) {
                snprintf(res->msg, sizeof res->msg, "%s: the run folder has no hooks.csv (the hooks' registers at entry): "
                                                    "run the firmware again with this tracesim",
                         where);
                goto out;
            }
            if (!e) {
                snprintf(res->msg, sizeof res->msg, "%s: no hook function (%s) was running when its first store was made "
                                                    "(hooks.csv, flow.csv)",
                         where, hook_name[want_kind]);
                goto out;
            }
            if (e->kind != want_kind) {
                snprintf(res->msg, sizeof res->msg, "%s: the record type is wrong: it was written by %s, entered at cycle %" PRIu64 " (pc 0x%08x, hooks.csv)", where, hook_name[e->kind], e->cycle, e->pc);
                goto out;
            }
            want_a = two ? e->a0 : e->ra;
            want_b = e->a1;
            if ((b->has_addr && b->addr != want_a) || (two && b->has_call_site && b->call_site != want_b)) {
                if (two)
                    snprintf(res->msg, sizeof res->msg,
                             "%s: function 0x%08" PRIx64 " / call site 0x%08" PRIx64 ", but %s was entered with a0 = 0x%08" PRIx64
                             ", a1 = 0x%08" PRIx64 " (cycle %" PRIu64 ", pc 0x%08x by %s, hooks.csv)",
                             where, b->addr, b->call_site,
                             hook_name[e->kind], want_a, want_b, e->cycle, e->pc, e->tail ? "a tail jump" : "a call");
                else
                    snprintf(res->msg, sizeof res->msg,
                             "%s: address 0x%08" PRIx64 ", but perfWriteCntrs was entered with ra = 0x%08" PRIx64 " (cycle %" PRIu64
                             ", pc 0x%08x by %s, hooks.csv)",
                             where, b->addr, want_a, e->cycle, e->pc, e->tail ? "a tail jump" : "a call");
                goto out;
            }
            /* GCC passes a function's own address, also from an inlined copy */
            const elf_sym_t *fs = two ? elf_syms_lookup(H->syms, want_a) : NULL;
            if (two && (!fs || fs->addr != want_a)) {
                snprintf(res->msg, sizeof res->msg, "%s: %s was entered with a0 = 0x%08" PRIx64 ", which is no function's entry in "
                                                    "the ELF (cycle %" PRIu64 ", hooks.csv)",
                         where, hook_name[e->kind], want_a, e->cycle);
                goto out;
            }
        }
        if (b->has_addr && b->addr != want_a) {
            char wa[96];
            snprintf(res->msg, sizeof res->msg, "%s: address 0x%08" PRIx64 ", but the firmware was at %s (flow.csv)",
                     where, b->addr, addr_text(wa, sizeof wa, want_a));
            goto out;
        }
        /* DeltaXOR after a gap: the addresses are unknown, but once the previous record is the
         * firmware's previous one, each received XOR is the true address XOR the one before */
        if (b->addr_unknown && !b->gap_before && have_last_addr &&
            (b->addr_wire != (want_a ^ last_addr) ||
             ((b->type == PERF_FUNC_ENTER || b->type == PERF_FUNC_EXIT) && !b->truncated &&
              b->call_site_wire != (want_b ^ want_a)))) {
            char wa2[96], wb2[96];
            snprintf(res->msg, sizeof res->msg,
                     "%s: address fields 0x%08" PRIx64 " / 0x%08" PRIx64 " as received, but the firmware was at %s / %s after "
                     "0x%08" PRIx64 " (flow.csv)",
                     where, b->addr_wire, b->call_site_wire, addr_text(wa2, sizeof wa2, want_a), addr_text(wb2, sizeof wb2, want_b),
                     last_addr);
            goto out;
        }
        have_last_addr = !b->truncated;
        last_addr = (b->type == PERF_FUNC_ENTER || b->type == PERF_FUNC_EXIT) ? want_b : want_a;
        /* the latch of a Delta header: the counter reads just before its first record */
        if (k == 0 && h->count_type == PERF_DELTA) {
            for (const cread_t *c; (c = gt_get(cr, ci)) && c->cycle < b->tics; gt_drop(cr, ++ci))
                if (c->idx >= 0 && c->idx < PERF_MAX_COUNTERS) {
                    last_read[c->idx][c->hi] = *c;
                    have_read[c->idx][c->hi] = true;
                }
            for (unsigned i = 0; i < h->n; i++) {
                unsigned x = h->def[i].index;
                prev_read[i] = !have_read[x][0] ? 0 : last_read[x][0].value | (h->def[i].width > 32 && have_read[x][1] ? (uint64_t)last_read[x][1].value << 32 : 0);
            }
        }
        /* 3. values: walk the record's stores (type, addresses, then low word [+ high part]
         * per value) and find the counter reads before each low word */
        size_t s = si + 1;
        for (int na = (b->type == PERF_FUNC_ENTER || b->type == PERF_FUNC_EXIT) ? 2 : 1; na; na--) {
            const store_t *sa = gt_get(st, s);
            s += (sa && (sa->value & TS_PW_ADDR_HI)) ? 2 : 1;
        }
        for (unsigned i = 0; i < b->n; i++, s++) {
            const store_t *sl = gt_get(st, s);
            if (!sl) break;
            uint64_t low_cycle = sl->cycle;
            const store_t *sh = gt_get(st, s + 1);
            if (sh && sh->size == TS_PW_BYTES_RECORD_VALUE_HI) s++;
            const perf_counter_def_t *d = &h->def[i];
            for (const cread_t *c; (c = gt_get(cr, ci)) && c->cycle <= low_cycle; gt_drop(cr, ++ci))
                if (c->idx >= 0 && c->idx < PERF_MAX_COUNTERS) {
                    last_read[c->idx][c->hi] = *c;
                    have_read[c->idx][c->hi] = true;
                }
            const cread_t *lo = have_read[d->index][0] ? &last_read[d->index][0] : NULL;
            const cread_t *hi = have_read[d->index][1] ? &last_read[d->index][1] : NULL;
            char cn[64];
            perf_counter_name(d, cn, sizeof cn);
            if (!lo) {
                snprintf(res->msg, sizeof res->msg, "%s: %s was stored, but the firmware never read that counter", where, cn);
                goto out;
            }
            uint64_t read = lo->value;
            if (d->width > 32 && hi) read |= (uint64_t)hi->value << 32;
            uint64_t want;
            switch (h->count_type) {
            case PERF_DELTA: want = (read - prev_read[i]) & wmask(d->width); break;
            case PERF_DELTA_XOR: want = read ^ prev_read[i]; break;
            default: want = read; break;
            }
            want &= M48;
            /* Delta, DeltaXOR: the first record after a gap changes from a read that may be in
             * a lost record; it is checked on the wire only (A equals B, above) */
            if (b->gap_before && h->count_type != PERF_RAW) {
                prev_read[i] = read;
                hr->wire_only++;
                continue;
            }
            if (b->raw[i] != want) {
                snprintf(res->msg, sizeof res->msg,
                         "%s: %s stored 0x%" PRIx64 ", but the firmware read 0x%" PRIx64 " (cycle %" PRIu64 ", pc 0x%08x; previous 0x%" PRIx64 ") -> expected 0x%" PRIx64,
                         where, cn, b->raw[i], read, lo->cycle, lo->pc, prev_read[i], want);
                goto out;
            }
            prev_read[i] = read;
            if (whole_in_trace) hr->values++;
            else
                hr->values_gt++;
        }
        hr->records++;
        ps_rq_pop(&B->q);
    }
    rc = 0;
out:
    hm_free(&hm);
    return rc;
}

/* B's stores from an itc.csv cursor of the hart; drop: forget each once fed (counting), else
 * the check's own reading of the cursor forgets them */
typedef struct st_ctx {
    gt_cur_t *c;
    bool drop;
} st_ctx_t;
static bool b_store(void *ctx, size_t j, ps_store_t *s) {
    st_ctx_t *x = ctx;
    const store_t *r = gt_get(x->c, j);
    if (!r) return false;
    *s = (ps_store_t){r->cycle, r->stim, r->off, r->value};
    if (x->drop) gt_drop(x->c, j + 1);
    return true;
}

int perf_check_run(const perf_check_cfg_t *cfg, perf_check_result_t *res) {
    memset(res, 0, sizeof *res);
    int rc = -1;
    char *stats = slurp(cfg->dir, "stats.txt");
    perf_check_cfg_t cut_cfg = *cfg; /* + whether the run ended before the firmware exited */
    cut_cfg.run_cut = stats && !strstr(stats, "\nexit_reason exit\n");
    cfg = &cut_cfg;
    ps_a_t *A = calloc(1, sizeof *A), *A1 = calloc(1, sizeof *A1); /* the trace's decode; another one for B's gaps */
    ps_b_t *B = calloc(1, sizeof *B);
    hart_sum_t *sum = calloc(NH, sizeof *sum);
    perf_header_t *cfgh = calloc(PERF_MAX_CORES, sizeof *cfgh);
    int ncfgh = 0;
    elf_syms_t syms = {0};
    bool have_syms = false;
    /* the ground-truth files are read row by row (gt_cur_t), never whole */
    gt_cur_t cst, cct, cfl, chk, chw;
    bool itc = gt_open(&cst, cfg->dir, "itc.csv", GT_ITC, 0, cfg->stopped_on_wrap),
         ctr = gt_open(&cct, cfg->dir, "counters.csv", GT_CTR, 0, false),
         flw = gt_open(&cfl, cfg->dir, "flow.csv", GT_FLOW, 0, false),
         hks = gt_open(&chk, cfg->dir, "hooks.csv", GT_HOOK, 0, false),
         hwr = gt_open(&chw, cfg->dir, "hpm_writes.csv", GT_HPMW, 0, false);
    if (!cfgh || !A || !A1 || !B || !sum) {
        snprintf(res->msg, sizeof res->msg, "out of memory");
        goto out;
    }
    { /* a ground-truth file that is there but refused is an error, not "absent" */
        const gt_cur_t *all[] = {&cst, &cct, &cfl, &chk, &chw};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            if (all[i]->refused) {
                snprintf(res->msg, sizeof res->msg, "%s", all[i]->refused);
                goto out;
            }
    }
    if (!itc || !ctr || !flw || !stats) {
        snprintf(res->msg, sizeof res->msg, "%s lacks%s%s%s%s", cfg->dir, itc ? "" : " itc.csv", ctr ? "" : " counters.csv",
                 flw ? "" : " flow.csv", stats ? "" : " stats.txt");
        goto out;
    }
    /* every row of counters.csv, flow.csv, hooks.csv and hpm_writes.csv must parse, under the
     * file's own header, with a hart the check knows: the first bad row is reported with its
     * file and line (a damaged or forged ground truth never ends the rows quietly) */
    {
        unsigned run_harts = NH; /* the run's harts (trace.json), else every one checked */
        ts_trace_json_t tj;
        char tjp[4200], tje[512];
        snprintf(tjp, sizeof tjp, "%s/trace.json", cfg->dir);
        if (!ts_trace_json_read(tjp, &tj, tje, sizeof tje) && tj.has_harts && tj.harts < NH) run_harts = tj.harts;
        struct {
            gt_cur_t *c;
            bool have;
            const char *name, *header;
        } vf[] = {
            {&cct, ctr, "counters.csv", "cycle,hart,pc,csr,value"},
            {&cfl, flw, "flow.csv", "cycle,hart,kind,pc,target,link"}, /* both: [,tp] */
            {&chk, hks, "hooks.csv", "cycle,hart,hook,how,pc,a0,a1,ra"},
            {&chw, hwr, "hpm_writes.csv", "cycle,hart,csr,value"}};
        for (size_t k = 0; k < sizeof vf / sizeof vf[0]; k++) {
            gt_cur_t *c = vf[k].c;
            if (!vf[k].have) continue;
            size_t hl = strlen(vf[k].header), tl = 0;
            if ((c == &chk || c == &cfl) && c->line && !strncmp(c->line, vf[k].header, hl) && !strncmp(c->line + hl, ",tp", 3))
                tl = 3; /* hooks.csv's and flow.csv's tp column (older versions: none) */
            if (!c->line || strncmp(c->line, vf[k].header, hl) || (c->line[hl + tl] != '\n' && c->line[hl + tl] != '\r')) {
                snprintf(res->msg, sizeof res->msg, "%s/%s:1: not the header of %s (%s)", cfg->dir, vf[k].name, vf[k].name,
                         vf[k].header);
                rc = 1;
                goto out;
            }
            for (unsigned lineno = 2; next_line(c->f, &c->line, &c->lcap) && *c->line; lineno++) {
                char lb[256], name[40], kind[8];
                bool ok;
                unsigned hart = 0;
                if (c == &cct) {
                    cread_t cr;
                    ok = sscanf(line_of(c->line, lb, sizeof lb), "%" SCNu64 ",%u,%" SCNx32 ",%39[^,],%" SCNx32, &cr.cycle, &hart,
                                &cr.pc, name, &cr.value) == 5;
                } else if (c == &cfl) {
                    flow_t f;
                    ok = sscanf(line_of(c->line, lb, sizeof lb), "%" SCNu64 ",%u,%7[a-z],%" SCNx32, &f.cycle, &hart, kind, &f.pc) == 4 &&
                         (!strcmp(kind, "call") || !strcmp(kind, "ret") || !strcmp(kind, "trap") || !strcmp(kind, "mret") ||
                          !strcmp(kind, "sret"));
                } else if (c == &chk) {
                    hook_t e;
                    ok = hook_row(c->line, &e);
                    if (ok) sscanf(c->line, "%*u,%u", &hart); /* before hook_row's % NH */
                } else {
                    hpmw_t w;
                    ok = hpmw_row(c->line, &w, lb, sizeof lb);
                    if (ok) sscanf(c->line, "%*u,%u", &hart);
                }
                const char *hc = strchr(c->line, ','); /* sscanf's %u takes "-1" as 4294967295 */
                if (c->line[0] == '-' || (hc && (hc[1] == '-' || hc[1] == '+' || hc[1] == ' '))) ok = false;
                if (ok && hart >= run_harts) {
                    snprintf(res->msg, sizeof res->msg, "%s/%s:%u: a row of hart %u, but the run has %u hart%s", cfg->dir,
                             vf[k].name, lineno, hart, run_harts, run_harts == 1 ? "" : "s");
                    rc = 1;
                    goto out;
                }
                if (!ok) {
                    snprintf(res->msg, sizeof res->msg, "%s/%s:%u: malformed row '%.*s' (%s expected)", cfg->dir, vf[k].name,
                             lineno, (int)(strcspn(c->line, "\r\n") > 60 ? 60 : strcspn(c->line, "\r\n")), c->line, vf[k].header);
                    rc = 1;
                    goto out;
                }
            }
        }
    }
    /* B is the stream the firmware wrote into the encoder: the stores it accepted and, after
     * a stop on wrap, the later ones (their records are counted as not in the trace); stores
     * dropped on a full FIFO are A's gaps, encoder-off ones no stream. Each hart's count: */
    size_t nst_h[NH] = {0};
    while (next_line(cst.f, &cst.line, &cst.lcap)) {
        ts_itc_row_t r;
        if (!ts_itc_row(cst.line, &r)) break;
        if (r.status != TS_ITC_TRACED && !(r.status == TS_ITC_AFTER_STOP && cfg->stopped_on_wrap)) continue;
        nst_h[r.hart % NH]++;
    }
    gt_close(&cst);
    gt_close(&cct);
    gt_close(&cfl);
    gt_close(&chk);
    gt_close(&chw);

    /* the perf header out of band, for a wrapped trace: the file, else the stores' own */
    char path[4200], err[512];
    if (cfg->wrapped) {
        snprintf(path, sizeof path, "%s/perf_config.txt", cfg->dir);
        const char *cp = cfg->perf_config ? cfg->perf_config : path;
        struct stat psb; /* there (the reader refuses a link, FIFO or folder with one line) */
        bool probe = !cfg->perf_config && !lstat(path, &psb);
        if (cfg->perf_config || probe) {
            unsigned ch = cfg->channel;
            ncfgh = ts_read_perf_config(cp, cfgh, PERF_MAX_CORES, &ch, err, sizeof err);
            if (ncfgh < 0) {
                snprintf(res->msg, sizeof res->msg, "%s", err);
                goto out;
            }
            snprintf(res->config_from, sizeof res->config_from, "%s", cp);
        } else {
            snprintf(path, sizeof path, "%s/itc.csv", cfg->dir);
            ncfgh = ts_perf_headers_from_itc(path, (int)cfg->channel, cfgh, PERF_MAX_CORES, NULL, err, sizeof err);
            if (ncfgh < 0) {
                snprintf(res->msg, sizeof res->msg, "%s", err);
                goto out;
            }
            snprintf(res->config_from, sizeof res->config_from, "the stores in itc.csv");
        }
    }

    /* A, counting: each hart's records, ITC stores, gaps and decoding errors (the records are
     * checked in a later pass, decoded again; memory: the decoders' state, not the run) */
    snprintf(path, sizeof path, "%s/trace.rtd", cfg->dir);
    nxd_cfg_t ncfg = {cfg->srcbits, cfg->tsbits};
    {
        nxd_t nd;
        if (nxd_init(&nd, &ncfg)) {
            snprintf(res->msg, sizeof res->msg, "bad trace settings");
            goto out;
        }
    }
    int ao = ps_a_open(A, path, &ncfg, cfg, cfgh, ncfgh, PS_NONE, false);
    if (ao == -1) {
        snprintf(res->msg, sizeof res->msg, "%s/trace.rtd missing", cfg->dir);
        goto out;
    }
    if (ao) {
        snprintf(res->msg, sizeof res->msg, "out of memory");
        goto out;
    }
    while (ps_a_step(A)) {}
    for (unsigned hh = 0; hh < NH; hh++) {
        res->hart[hh].gaps = A->gaps[hh];
        res->gaps += A->gaps[hh];
    }

    /* B: each hart's stores as the firmware made them, with A's gaps of that hart at the same
     * places; a wrapped trace's first store of the hart is a gap too (what came before it was
     * overwritten). Counting, with its headers checked against the hardware as they come. */
    char pre[NH][16];
    for (unsigned hh = 0; hh < NH; hh++) {
        if (cfg->multi_hart) snprintf(pre[hh], sizeof pre[hh], "hart %u: ", hh);
        else
            pre[hh][0] = 0;
    }
    for (unsigned hh = 0; hh < NH; hh++)
        if (A->stores[hh] > nst_h[hh]) {
            snprintf(res->msg, sizeof res->msg, "%sthe trace has %" PRIu64 " ITC stores, itc.csv %zu", pre[hh], A->stores[hh], nst_h[hh]);
            goto out;
        }
    bool manual = false, hooks = false;
    for (unsigned hh = 0; hh < NH; hh++) {
        if (!nst_h[hh] && !A->stores[hh]) continue;
        size_t base = cfg->wrapped ? nst_h[hh] - (size_t)A->stores[hh] : 0;
        bool gaps = A->gaps[hh] > 0; /* A again, in step, for their positions */
        if (gaps && (ao = ps_a_open(A1, path, &ncfg, cfg, cfgh, ncfgh, hh, false))) {
            snprintf(res->msg, sizeof res->msg, ao == -1 ? "%s/trace.rtd missing" : "out of memory", cfg->dir);
            goto out;
        }
        gt_open(&cst, cfg->dir, "itc.csv", GT_ITC, hh, cfg->stopped_on_wrap);
        gt_open(&chw, cfg->dir, "hpm_writes.csv", GT_HPMW, hh, false);
        hart_sum_t *S = &sum[hh];
        S->hd = (hd_check_t){.cfg = cfg, .hw = &chw, .pre = pre[hh]};
        B->on_header = hwr ? check_header : NULL;
        B->hd_ctx = &S->hd;
        st_ctx_t sc = {&cst, true};
        int bo = ps_b_open(B, cfg, hh, base, b_store, &sc, gaps ? A1 : NULL, false);
        while (!bo && ps_b_step(B)) {}
        bool oom = bo || cst.oom || chw.oom || B->oom || A1->oom;
        S->b_n = B->records;
        S->b0 = B->b0;
        S->have_h = B->have_h;
        S->h = B->h;
        S->a_n = A->records[hh];
        manual |= B->manual;
        hooks |= B->hooks;
        S->b_errors = B->errors;
        ps_b_close(B);
        B->on_header = NULL;
        S->hd.hw = NULL;
        if (gaps) ps_a_close(A1);
        gt_close(&cst);
        gt_close(&chw);
        if (oom) {
            snprintf(res->msg, sizeof res->msg, "out of memory");
            goto out;
        }
    }
    bool any = false;
    for (unsigned hh = 0; hh < NH; hh++) any |= sum[hh].have_h;
    if (!any) {
        rc = 0;
        goto out;
    } /* no perf data: nothing to check */
    res->found = 1;

    /* symbols */
    const char *elf = cfg->elf;
    char elfbuf[4096];
    if (!elf) {
        const char *p = strstr(stats, "elf ");
        if (p && (p == stats || p[-1] == '\n') && sscanf(p + 4, "%4095[^\n]", elfbuf) == 1) elf = elfbuf;
    }
    if (!elf || elf_syms_load(&syms, elf, err, sizeof err)) {
        snprintf(res->msg, sizeof res->msg, "cannot read the firmware's symbols (%s)", elf ? err : "no elf in stats.txt");
        goto out;
    }
    have_syms = true;

    rc = 1;
    /* an ELF that is not the run's firmware (--elf) may lack the hooks the records name: say
     * so instead of comparing addresses with nothing */
    {
        const char *miss = manual && sym_addr(&syms, "perfWriteCntrs") == UINT64_MAX ? "perfWriteCntrs" : hooks && sym_addr(&syms, "__cyg_profile_func_enter") == UINT64_MAX ? "__cyg_profile_func_enter" :
                                                                                                      hooks && sym_addr(&syms, "__cyg_profile_func_exit") == UINT64_MAX      ? "__cyg_profile_func_exit" :
                                                                                                                                                                               NULL;
        if (miss) {
            snprintf(res->msg, sizeof res->msg, "%s has no function %s (nor one clone of it that GCC renamed), the perf library's "
                                                "function whose %s a %s record holds: check compares perf records made through the library only "
                                                "(if this is not the ELF that ran, give the run's with --elf)",
                     elf, miss, *miss == 'p' ? "return address" : "arguments", *miss == 'p' ? "manual" : "function enter/exit");
            goto out;
        }
    }
    for (unsigned hh = 0; hh < NH; hh++)
        if (A->errors[hh] || sum[hh].b_errors) {
            snprintf(res->msg, sizeof res->msg, "%sperf data errors: %" PRIu64 " in the trace, %" PRIu64 " in the stores the firmware made",
                     pre[hh], A->errors[hh], sum[hh].b_errors);
            goto out;
        }
    /* the encoder's own count of lost stores and the Error messages in the trace agree */
    if (cfg->itc_lost && !res->gaps) {
        snprintf(res->msg, sizeof res->msg, "the encoder lost %" PRIu64 " ITC stores (trace.json), but the trace has no Error "
                                            "message: the perf decode reports no gap",
                 cfg->itc_lost);
        goto out;
    }
    if (!cfg->itc_lost && !cfg->prog_lost && res->gaps) {
        snprintf(res->msg, sizeof res->msg, "the trace has %" PRIu64 " Error messages, but the encoder lost no ITC store (trace.json) "
                                            "and no program-trace message (stats.txt)",
                 res->gaps);
        goto out;
    }
    /* the records, hart by hart: A (queueing the hart's records) and B decoded again in step
     * with the comparison, B's stores read through the check's own itc.csv cursor */
    for (unsigned hh = 0; hh < NH; hh++) {
        perf_check_hart_t *hr = &res->hart[hh];
        const hart_sum_t *S = &sum[hh];
        if (!S->have_h && !S->b_n && !S->a_n) continue;
        hr->found = S->have_h;
        hr->in_trace = S->a_n;
        hr->overwritten = S->b0;
        size_t base = cfg->wrapped ? nst_h[hh] - (size_t)A->stores[hh] : 0;
        ps_a_close(A);
        if ((ao = ps_a_open(A, path, &ncfg, cfg, cfgh, ncfgh, hh, true))) {
            snprintf(res->msg, sizeof res->msg, ao == -1 ? "%s/trace.rtd missing" : "out of memory", cfg->dir);
            goto out;
        }
        gt_open(&cst, cfg->dir, "itc.csv", GT_ITC, hh, cfg->stopped_on_wrap);
        gt_open(&cct, cfg->dir, "counters.csv", GT_CTR, hh, false);
        gt_open(&cfl, cfg->dir, "flow.csv", GT_FLOW, hh, false);
        gt_open(&chk, cfg->dir, "hooks.csv", GT_HOOK, hh, false);
        st_ctx_t sc = {&cst, false};
        int hrc = 1;
        if (ps_b_open(B, cfg, hh, base, b_store, &sc, A, true)) snprintf(res->msg, sizeof res->msg, "out of memory");
        else {
            hart_in_t H = {hh, pre[hh], &cst, &cct, &cfl, &chk, hwr, A, B, S, &syms, hks};
            hrc = check_hart(cfg, &H, res, hr);
        }
        if (cst.oom || cct.oom || cfl.oom || chk.oom || A->oom || B->oom) {
            snprintf(res->msg, sizeof res->msg, "out of memory");
            hrc = 1;
        }
        ps_b_close(B);
        gt_close(&cst);
        gt_close(&cct);
        gt_close(&cfl);
        gt_close(&chk);
        if (hrc) goto out;
        res->records += hr->records;
        res->headers += hr->headers;
        res->values += hr->values;
        res->truncated += hr->truncated;
        res->not_in_trace += hr->not_in_trace;
        res->cut_by_gap += hr->cut_by_gap;
        res->wire_only += hr->wire_only;
        res->overwritten += hr->overwritten;
        res->in_trace += hr->in_trace;
    }
    rc = 0;
out:
    if (have_syms) elf_syms_free(&syms);
    if (A) ps_a_close(A);
    if (B) ps_b_close(B);
    free(A);
    free(A1);
    free(B);
    free(sum);
    free(cfgh);
    gt_close(&cst);
    gt_close(&cct);
    gt_close(&cfl);
    gt_close(&chk);
    gt_close(&chw);
    free(stats);
    return rc;
}
