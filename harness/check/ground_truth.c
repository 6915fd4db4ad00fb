/* ground_truth.c - `tracesim check RUN_DIR`: decodes the run's trace.rtd and compares every
 * message with what the simulated hardware really did, from the run's own logs (not from the
 * trace): itc.csv lists every ITC store the encoder accepted (cycle, stimulus, offset, size,
 * value, hex). Each Data Acquisition / Ownership message must be the next store, in order, with
 * its IDTAG and value; every timestamp must equal the store's cycle plus one constant offset
 * (the timestamp counts core cycles from when the firmware started it). A trace that stopped
 * on wrap may end early; a trace that wrapped (no stop-on-wrap) holds the newest stores only:
 * it is decoded from its first message end (cli_util.h ts_wrap_start) and its M stores must
 * be the last M of itc.csv. Error messages (lost stores) and the sync after them are not
 * stores; perf_check.c holds their count against the encoder's. Nothing else may be missing,
 * added or different. */
#include "ground_truth.h"
#include "cli_util.h"
#include "nexus_decode.h"
#include "perf_check.h"
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct store { uint64_t cycle; unsigned stim, off, size; uint32_t value; } store_t;

typedef struct ck {
    store_t *st;
    size_t n, next;
    uint64_t checked, timed, own;
    bool have_offset;
    int64_t ts_offset;
    int failed;
    char msg[512];
} ck_t;

/* counts the ITC stores (Data Acquisition, Ownership) in a trace */
static int count_store(void *vctx, const nxd_msg_t *m) {
    if (m->status == NXD_OK && (m->tcode == 7 || m->tcode == 2)) ++*(size_t *)vctx;
    return 0;
}

static int on_msg(void *vctx, const nxd_msg_t *m) {
    ck_t *c = vctx;
    if (m->status == NXD_TRUNCATED) return 0;
    if (m->status == NXD_BAD) {
        snprintf(c->msg, sizeof c->msg, "corrupt message at offset %" PRIu64 ": %s", m->offset, m->error);
        c->failed = 1;
        return 1;
    }
    if (m->tcode != 7 && m->tcode != 2) return 0;
    if (c->next >= c->n) {
        snprintf(c->msg, sizeof c->msg, "message at offset %" PRIu64 " has no matching store (only %zu stores)", m->offset, c->n);
        c->failed = 1;
        return 1;
    }
    const store_t *s = &c->st[c->next];
    if (m->tcode == 7) {
        uint64_t idtag = ((s->stim & 15u) << 2) | s->off;
        if (m->f[NXF_IDTAG] != idtag || m->f[NXF_DATA] != s->value) {
            snprintf(c->msg, sizeof c->msg,
                     "store %zu (cycle %" PRIu64 ", stimulus %u+%u, value 0x%x) decoded as IDTAG 0x%" PRIx64 " DATA 0x%" PRIx64 " at offset %" PRIu64,
                     c->next + 1, s->cycle, s->stim, s->off, s->value, m->f[NXF_IDTAG], m->f[NXF_DATA], m->offset);
            c->failed = 1;
            return 1;
        }
    } else {
        if ((s->stim != 15 && s->stim != 31) || m->f[NXF_PROCESS] != s->value) {
            snprintf(c->msg, sizeof c->msg, "store %zu (stimulus %u, value 0x%x) decoded as Ownership 0x%" PRIx64,
                     c->next + 1, s->stim, s->value, m->f[NXF_PROCESS]);
            c->failed = 1;
            return 1;
        }
        c->own++;
    }
    if (m->tics_valid) {
        int64_t off = (int64_t)m->tics - (int64_t)s->cycle;
        if (!c->have_offset) { c->ts_offset = off; c->have_offset = true; }
        else if (off != c->ts_offset) {
            snprintf(c->msg, sizeof c->msg,
                     "store %zu at cycle %" PRIu64 " has timestamp %" PRIu64 ": %" PRId64 " cycles off (expected %" PRId64 ")",
                     c->next + 1, s->cycle, m->tics, off - c->ts_offset, (int64_t)0);
            c->failed = 1;
            return 1;
        }
        c->timed++;
    }
    c->next++;
    c->checked++;
    return 0;
}

/* DIR/NAME, whole and NUL-terminated (cli_util.h), or NULL */
static char *slurp(const char *dir, const char *name, size_t *len) {
    char path[4200], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ts_read_file(path, len, err, sizeof err);
}

static bool json_uint(const char *t, const char *key, unsigned *out) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = t ? strstr(t, pat) : NULL;
    if (!p || !(p = strchr(p, ':'))) return false;
    *out = (unsigned)strtoul(p + 1, NULL, 10);
    return true;
}

int ts_check_main(int argc, char **argv) {
    unsigned perf_channel = 6;
    const char *elf = NULL, *dir = NULL, *perf_config = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: tracesim check [--perf-channel N] [--elf FW.elf] [--perf-config FILE] RUN_DIR\n"
                   "  compares the run's trace with the simulator's ground truth: every ITC store\n"
                   "  (itc.csv) and every perf record (counters.csv, flow.csv, the ELF's symbols);\n"
                   "  --perf-config: the perf header of a wrapped trace (default: RUN_DIR/perf_config.txt,\n"
                   "  else the header in itc.csv)\n");
            return 0;
        }
        if (!strcmp(argv[i], "--perf-config") && i + 1 < argc) { perf_config = argv[++i]; continue; }
        if (!strcmp(argv[i], "--perf-channel") && i + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++i], &end, 0);
            if (*end || v > 31) {
                fprintf(stderr, "tracesim: invalid value '%s' for --perf-channel (0..31)\n", argv[i]);
                return 120;
            }
            perf_channel = (unsigned)v;
        } else if (!strcmp(argv[i], "--elf") && i + 1 < argc) {
            elf = argv[++i];
        } else if (argv[i][0] == '-' || dir) {
            fprintf(stderr, "usage: tracesim check [--perf-channel N] [--elf FW.elf] [--perf-config FILE] RUN_DIR  (a run folder of `tracesim run` with trace.rtd)\n");
            return 120;
        } else {
            dir = argv[i];
        }
    }
    if (!dir) {
        fprintf(stderr, "usage: tracesim check [--perf-channel N] [--elf FW.elf] RUN_DIR  (a run folder of `tracesim run` with trace.rtd)\n");
        return 120;
    }
    size_t tlen, jlen, clen;
    uint8_t *trace = (uint8_t *)slurp(dir, "trace.rtd", &tlen);
    char *json = slurp(dir, "trace.json", &jlen), *csv = slurp(dir, "itc.csv", &clen);
    if (!trace || !json || !csv) {
        fprintf(stderr, "tracesim: %s lacks trace.rtd, trace.json or itc.csv (did the firmware use the trace encoder?)\n", dir);
        free(trace); free(json); free(csv);
        return 121;
    }
    ck_t c;
    memset(&c, 0, sizeof c);
    size_t cap = 1024;
    c.st = malloc(cap * sizeof *c.st);
    char *line = strchr(csv, '\n');                    /* skip the header */
    while (line && c.st) {
        line++;
        store_t s;
        unsigned hart;
        if (sscanf(line, "%" SCNu64 ",%u,%u,%u,%u,%" SCNx32, &s.cycle, &hart, &s.stim, &s.off, &s.size, &s.value) != 6) break;
        if (c.n == cap) {
            store_t *ns = realloc(c.st, 2 * cap * sizeof *c.st);
            if (!ns) break;
            c.st = ns;
            cap *= 2;
        }
        c.st[c.n++] = s;
        line = strchr(line, '\n');
    }
    unsigned srcbits = 0, tsbits = 40, stopped = 0, lost = 0;
    json_uint(json, "srcbits", &srcbits);
    json_uint(json, "tsbits", &tsbits);
    json_uint(json, "itc_lost", &lost);
    bool wrapped_stop = strstr(json, "\"stopped_on_wrap\": true") != NULL;
    bool wrapped = strstr(json, "\"wrapped\": true") != NULL;
    (void)stopped;
    nxd_cfg_t cfg = {srcbits, tsbits};
    nxd_t d;
    int rc = 0;
    if (!c.st || nxd_init(&d, &cfg)) {
        fprintf(stderr, "tracesim: check: bad trace settings or out of memory\n");
        rc = 126;
    } else {
        /* a wrapped trace: from its first message end, and its stores are the newest ones */
        size_t start = wrapped ? ts_wrap_start(trace, tlen) : 0, in_trace = 0;
        if (wrapped) {
            nxd_t d0;
            nxd_init(&d0, &cfg);
            nxd_decode(&d0, trace + start, tlen - start, count_store, &in_trace);
            c.next = in_trace <= c.n ? c.n - in_trace : 0;
        }
        d.offset = start;
        nxd_decode(&d, trace + start, tlen - start, on_msg, &c);
        if (!c.failed && c.next < c.n && !wrapped_stop) {
            snprintf(c.msg, sizeof c.msg, "%zu stores are missing from the trace (first: cycle %" PRIu64 ")",
                     c.n - c.next, c.st[c.next].cycle);
            c.failed = 1;
        }
        if (c.failed) {
            fprintf(stderr, "tracesim: check FAILED: %s\n", c.msg);
            rc = 1;
        } else {
            printf("check: %" PRIu64 " of %zu ITC stores found in the trace, in order, with their values",
                   c.checked, c.n);
            if (c.timed) printf("; %" PRIu64 " timestamps equal the store cycle + %" PRId64, c.timed, c.ts_offset);
            if (c.next < c.n) printf("; %zu later stores were cut by stop-on-wrap", c.n - c.next);
            if (wrapped)
                printf("; the buffer wrapped: the oldest %zu stores were overwritten (decoded from offset %zu, the first message end)",
                       c.n - (size_t)c.checked, start);
            if (lost) printf("; %u stores were lost (ITC FIFO overflow), the trace says where", lost);
            printf("\n");
            perf_check_cfg_t pc = {dir, elf, perf_channel, srcbits, tsbits, wrapped_stop, wrapped, lost, perf_config};
            perf_check_result_t pr;
            int p = perf_check_run(&pc, &pr);
            if (p < 0 && strstr(pr.msg, "lacks")) {
                printf("check: no counters.csv/flow.csv in %s: perf records not checked\n", dir);
            } else if (p) {
                fprintf(stderr, "tracesim: check FAILED: %s\n", pr.msg);
                rc = 1;
            } else if (pr.found) {
                printf("check: %" PRIu64 " perf records equal the ground truth (%" PRIu64 " counter values as read, addresses from the control flow",
                       pr.records, pr.values);
                if (pr.have_ts) printf(", timestamps = first store cycle + %" PRId64, pr.ts_offset);
                printf(")");
                if (pr.truncated) printf("; the last record in the trace is cut off (stop-on-wrap)");
                if (pr.not_in_trace) printf("; %" PRIu64 " later records are not in the trace (stop-on-wrap)", pr.not_in_trace);
                if (pr.gaps)
                    printf("; %" PRIu64 " gap(s) (Error messages) reported, %" PRIu64 " record(s) cut by a gap, %" PRIu64
                           " value(s) after a gap checked on the wire only", pr.gaps, pr.cut_by_gap, pr.wire_only);
                if (wrapped)
                    printf("; the buffer wrapped: the trace holds the newest %" PRIu64 " (decoded with the perf header from %s; "
                           "%" PRIu64 " value(s) of the first checked on the wire only), the %" PRIu64 " older ones were "
                           "overwritten (checked against the ground truth only)",
                           pr.in_trace, pr.config_from, pr.wire_only, pr.overwritten);
                printf("\n");
            }
        }
    }
    free(c.st); free(trace); free(json); free(csv);
    return rc;
}
