/* msg_json_par.c - the messages JSON lines on several threads; see msg_json_par.h. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "msg_json_par.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* a part is parsed in steps of at most this many bytes (and as many messages): a part is a
 * little longer than `part` (up to the next byte with MSEO 11), so it is one step unless
 * the trace has no message end for a long way */
#define MJP_STEP(part) ((part) + 4096)

typedef struct mjp_blk mjp_blk_t;

typedef struct mjp {
    mj_t *proto; /* the caller's context: out, process, prealloc, written */
    const uint8_t *buf;
    size_t len, nparts, step;
    size_t *cut; /* part k is buf[cut[k], cut[k + 1]) */
    nxd_t zero;  /* the settings, no times, counters 0: a part's parse starts so */
    /* the decoder's state at cut[k] (the times after part k - 1) and the lines before part k,
     * in slot k % nring: only parts not yet written are being worked on, at most one per
     * context, so nring = contexts + 2 slots hold every state still to be read */
    nxd_t *state;
    uint64_t *nstart;
    size_t nring;
    mjp_blk_t **done; /* done[k]: part k formatted, its last block not written yet */
    mjp_blk_t **pool; /* the free contexts */
    size_t nfree;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t ready; /* state[0..ready) known */
    size_t next;  /* the next part to take */
    size_t turn;  /* the first part not all written */
    bool writing; /* a thread is writing (one at a time, in order) */
    uint64_t truncated, bad;
} mjp_t;

/* a context with its 1 MiB block, and the part it holds */
struct mjp_blk {
    mj_t c;
    mjp_t *s;
    size_t part;
};

/* the cuts: after the first byte with MSEO 11 at or after each multiple of `part` (a part
 * without one is joined to the next) */
static size_t make_cuts(const uint8_t *buf, size_t len, size_t part, size_t *cut, size_t max) {
    size_t n = 0, at = 0;
    cut[n++] = 0;
    while (n < max) {
        size_t q = at + part;
        if (q >= len) break;
        while (q < len && (buf[q] & 3) != 3) q++;
        if (q + 1 >= len) break;
        cut[n++] = at = q + 1;
    }
    cut[n] = len;
    return n;
}

/* mj_t's sink, for a block that fills up in the middle of a part (more than 1 MiB of lines
 * from one part: rare): written once every part before it is */
static void sink(void *ctx, const char *p, size_t n) {
    mjp_blk_t *b = ctx;
    mjp_t *s = b->s;
    pthread_mutex_lock(&s->mu);
    while (s->turn != b->part || s->writing) pthread_cond_wait(&s->cv, &s->mu);
    s->writing = true;
    pthread_mutex_unlock(&s->mu);
    mj_write(s->proto, p, n);
    pthread_mutex_lock(&s->mu);
    s->writing = false;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* (mutex held) writes the formatted parts that are next in order, unless another thread is
 * writing: it takes them on when it is done, so no thread waits for its turn */
static void drain(mjp_t *s) {
    while (!s->writing && s->turn < s->nparts && s->done[s->turn]) {
        mjp_blk_t *b = s->done[s->turn];
        s->writing = true;
        pthread_mutex_unlock(&s->mu);
        if (b->c.used) mj_write(s->proto, b->c.buf, b->c.used);
        b->c.used = 0;
        pthread_mutex_lock(&s->mu);
        s->done[s->turn++] = NULL;
        s->writing = false;
        s->pool[s->nfree++] = b;
        pthread_cond_broadcast(&s->cv);
    }
}

typedef struct mjp_worker {
    mjp_t *s;
    nxd_msg_t *msg; /* one step's messages (s->step of them) */
} mjp_worker_t;

/* part k into b: parsed (no state needed), then, once the state at its start is known,
 * its times given in order and the state after it published, then formatted */
static void do_part(mjp_worker_t *w, mjp_blk_t *b, size_t k) {
    mjp_t *s = w->s;
    mj_t *c = &b->c;
    c->truncated = c->bad = 0;
    c->used = 0;
    nxd_t p = s->zero; /* the parse: counters of this part alone */
    p.offset = s->zero.offset + s->cut[k];
    nxd_t t; /* the times, from state[k] on */
    uint64_t lines = 0;
    size_t pos = s->cut[k], end = s->cut[k + 1];
    for (bool first = true; first || pos < end; first = false) {
        size_t lim = end - pos < s->step ? end - pos : s->step;
        uint64_t o0 = p.offset;
        size_t n = nxd_parse(&p, s->buf + pos, s->len - pos, lim, w->msg);
        pos += (size_t)(p.offset - o0);
        if (first) {
            pthread_mutex_lock(&s->mu);
            while (s->ready <= k) pthread_cond_wait(&s->cv, &s->mu);
            pthread_mutex_unlock(&s->mu);
            t = s->state[k % s->nring];
            c->n = s->nstart[k % s->nring];
            fmt_ctr_set(&c->nd, c->n);
        }
        nxd_time(&t, w->msg, n);
        lines += n;
        if (n && w->msg[n - 1].status == NXD_TRUNCATED) lines--; /* counted, not listed */
        if (pos >= end) {                                        /* the state after the part, for the part after it */
            t.messages += p.messages;
            t.bad += p.bad;
            t.skipped += p.skipped;
            t.offset = p.offset;
            pthread_mutex_lock(&s->mu);
            s->state[(k + 1) % s->nring] = t;
            s->nstart[(k + 1) % s->nring] = s->nstart[k % s->nring] + lines;
            s->ready = k + 2;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
        }
        mj_lines(c, w->msg, n);
    }
}

static void *work(void *arg) {
    mjp_worker_t *w = arg;
    mjp_t *s = w->s;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        if (s->next >= s->nparts) break;
        /* a free context first, then a part: the part next in order always has a context */
        if (!s->nfree) {
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        mjp_blk_t *b = s->pool[--s->nfree];
        size_t k = b->part = s->next++;
        pthread_mutex_unlock(&s->mu);
        do_part(w, b, k);
        pthread_mutex_lock(&s->mu);
        s->truncated += b->c.truncated;
        s->bad += b->c.bad;
        s->done[k] = b;
        drain(s);
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

int mjp_decode(mj_t *c, nxd_t *d, const uint8_t *buf, size_t len, unsigned threads, size_t part) {
    if (threads <= 1) {
        mj_decode(c, d, buf, len);
        return 0;
    }
    if (!part) part = MJP_PART;
    size_t max = len / part + 2, nblk = (size_t)threads + 1;
    mjp_t s;
    memset(&s, 0, sizeof s);
    s.proto = c;
    s.buf = buf;
    s.len = len;
    s.step = MJP_STEP(part);
    s.cut = malloc((max + 1) * sizeof *s.cut);
    mjp_worker_t *w = calloc(threads, sizeof *w);
    pthread_t *th = calloc(threads, sizeof *th);
    mjp_blk_t *blk = malloc(nblk * sizeof *blk);
    s.pool = malloc(nblk * sizeof *s.pool);
    int rc = -1;
    unsigned nw = 0;
    if (!s.cut || !w || !th || !blk || !s.pool) goto out;
    for (unsigned i = 0; i < threads; i++)
        if (!(w[i].msg = malloc(s.step * sizeof *w[i].msg))) goto out;
    s.nparts = make_cuts(buf, len, part, s.cut, max);
    s.nring = nblk + 2;
    s.nstart = malloc(s.nring * sizeof *s.nstart);
    s.state = malloc(s.nring * sizeof *s.state);
    s.done = calloc(s.nparts, sizeof *s.done);
    if (!s.nstart || !s.state || !s.done) goto out;
    for (size_t i = 0; i < nblk; i++) {
        mj_init(&blk[i].c, c->out, c->process);
        blk[i].c.sink = sink;
        blk[i].c.sink_ctx = &blk[i];
        blk[i].s = &s;
        s.pool[s.nfree++] = &blk[i];
    }
    s.state[0] = *d;
    s.zero = *d;
    memset(s.zero.last_time, 0, sizeof s.zero.last_time);
    s.zero.messages = s.zero.bad = s.zero.skipped = 0;
    s.nstart[0] = c->n;
    s.ready = 1;
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    for (nw = 0; nw < threads; nw++) {
        w[nw].s = &s;
        if (nw && pthread_create(&th[nw], NULL, work, &w[nw])) break;
    }
    if (nw >= 2) { /* else nothing started: the caller decodes alone */
        work(&w[0]);
        for (unsigned i = 1; i < nw; i++) pthread_join(th[i], NULL);
        c->truncated = s.truncated;
        c->bad = s.bad;
        c->n = s.nstart[s.nparts % s.nring];
        fmt_ctr_set(&c->nd, c->n);
        *d = s.state[s.nparts % s.nring];
        d->offset = s.zero.offset + len; /* as mj_decode */
        rc = 0;
    }
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
out:
    if (w)
        for (unsigned i = 0; i < threads; i++) free(w[i].msg);
    free(s.cut);
    free(s.nstart);
    free(s.state);
    free(s.done);
    free(s.pool);
    free(blk);
    free(w);
    free(th);
    return rc;
}

unsigned mjp_threads(FILE *out, size_t len) {
    const char *e = getenv("TRACESIM_THREADS");
    unsigned want = 0;
    if (e && *e) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(e, &end, 10);
        if (errno || *end || v < 1 || v > 64 || *e == '-') {
            fprintf(stderr, "tracesim: note: TRACESIM_THREADS='%s' is not a number from 1 to 64: one thread\n", e);
            return 1;
        }
        want = (unsigned)v;
    }
    if (want == 1 || len < MJP_MIN_BYTES) return 1;
    struct stat sb;
    if (fstat(fileno(out), &sb) || !S_ISREG(sb.st_mode)) return 1;
    cpu_set_t set; /* no more threads than CPUs to run them */
    int n = sched_getaffinity(0, sizeof set, &set) ? 1 : CPU_COUNT(&set);
    if (!want) want = 8;
    return n < 2 ? 1 : want < (unsigned)n ? want :
                                            (unsigned)n;
}
