/* decode_msgs.c - `tracesim decode`: the messages of one source (--hart), the test that a
 * file is a trace at all, and --format messages (JSON lines, the layout of
 * ../shared/captures/NAME.messages.jsonl; msg_json.h). decode_int.h. */
#include "decode_int.h"
#include "msg_json.h"
#include "msg_json_par.h"
#include <inttypes.h>
#include <stdio.h>

/* ---- one source only (--hart): the messages of other sources are not passed on ---------- */
typedef struct hfilt {
    nxd_cb cb;
    void *ctx;
    unsigned hart;
} hfilt_t;

/* corrupt and cut-off messages are passed on: their SRC cannot be trusted, and every
 * source's decode must see them (a gap) */
static int hart_filter(void *vctx, const nxd_msg_t *m) {
    const hfilt_t *h = vctx;
    if (m->status == NXD_OK && m->has_src && m->src != h->hart) return 0;
    return h->cb(h->ctx, m);
}

/* messages, and corrupt ones among them (n[0], n[1]) */
static int count_bad(void *ctx, const nxd_msg_t *m) {
    uint64_t *n = ctx;
    if (m->status == NXD_TRUNCATED) return 0;
    n[0]++;
    if (m->status == NXD_BAD) n[1]++;
    return 0;
}

/* a file that is not a trace (a README, an ELF given by mistake) decodes mostly into corrupt
 * messages; a real trace has none, or a few where a funnel broke one: more than half of the
 * messages of its first 64 KiB corrupt means it is not one (or not with these settings) */
bool not_a_trace(const nxd_cfg_t *cfg, const uint8_t *buf, size_t len, uint64_t n[2]) {
    nxd_t d;
    n[0] = n[1] = 0;
    if (nxd_init(&d, cfg)) return false;
    nxd_decode(&d, buf, len < 65536 ? len : 65536, count_bad, n);
    return n[0] >= 4 && 2 * n[1] > n[0];
}

/* nxd_decode through the --hart filter when one is set (hart < 0: none) */
void decode_msgs(nxd_t *d, const uint8_t *buf, size_t len, int hart, nxd_cb cb, void *ctx) {
    if (hart < 0 || !d->cfg.srcbits) {
        nxd_decode(d, buf, len, cb, ctx);
        return;
    }
    hfilt_t h = {cb, ctx, (unsigned)hart};
    nxd_decode(d, buf, len, hart_filter, &h);
}

int decode_messages(decode_job_t *j) {
    nxd_t d;
    nxd_init(&d, &j->cfg);
    d.offset = j->start;
    static mj_t jc;
    mj_init(&jc, j->out, j->ti.found);
    jc.prealloc = j->out != stdout; /* the new file of -o */
    unsigned threads = j->hart < 0 || !d.cfg.srcbits ? mjp_threads(j->out, j->len - j->start) : 1;
    if (j->hart < 0 || !d.cfg.srcbits) {
        if (mjp_decode(&jc, &d, j->data + j->start, j->len - j->start, threads, 0))
            mj_decode(&jc, &d, j->data + j->start, j->len - j->start);
    } else
        decode_msgs(&d, j->data + j->start, j->len - j->start, j->hart, mj_msg, &jc);
    mj_flush(&jc);
    mj_end(&jc);
    if (jc.truncated)
        fprintf(stderr, "tracesim: note: the last message is cut off at the end of the trace (not listed)\n");
    if (jc.bad)
        fprintf(stderr, "tracesim: warning: %" PRIu64 " corrupt messages (listed with \"error\"; decoding resynchronised)\n", jc.bad);
    return 0;
}
