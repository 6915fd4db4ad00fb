/* decode_msgs.c - `tracesim decode`: the messages of one source (--hart: nxd_decode_src), the test that a
 * file is a trace at all, and --format messages (JSON lines, the layout of
 * ../shared/captures/NAME.messages.jsonl; msg_json.h). decode_int.h. */
#include "decode_int.h"
#include "msg_json.h"
#include "msg_json_par.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

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
void decode_msgs(nxd_t *d, const uint8_t *buf, size_t len, int hart, nxd_cb cb, void *ctx) { nxd_decode_src(d, buf, len, hart, cb, ctx); }

int decode_messages(decode_job_t *j) {
    nxd_t d;
    nxd_init(&d, &j->cfg);
    d.offset = j->start;
    mj_t *jc = malloc(sizeof *jc); /* its 1 MiB buffer: not on the stack */
    if (!jc) {
        fprintf(stderr, "tracesim: out of memory\n");
        return TS_EXIT_HOST;
    }
    mj_init(jc, j->out, j->ti.found);
    jc->prealloc = j->out != stdout; /* the new file of -o */
    unsigned threads = j->hart < 0 || !d.cfg.srcbits ? mjp_threads(j->out, j->len - j->start) : 1;
    if (j->hart < 0 || !d.cfg.srcbits) {
        if (mjp_decode(jc, &d, j->data + j->start, j->len - j->start, threads, 0))
            mj_decode(jc, &d, j->data + j->start, j->len - j->start);
    } else
        decode_msgs(&d, j->data + j->start, j->len - j->start, j->hart, mj_msg, jc);
    mj_flush(jc);
    mj_end(jc);
    if (jc->truncated)
        fprintf(stderr, "tracesim: note: the last message is cut off at the end of the trace (not listed)\n");
    if (jc->bad)
        fprintf(stderr, "tracesim: warning: %" PRIu64 " corrupt messages (listed with \"error\"; decoding resynchronised)\n", jc->bad);
    free(jc);
    return 0;
}
