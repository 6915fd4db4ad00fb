/* ts_decoder.c - the decoder pipeline: see ts_decoder.h. */
#include "ts_decoder.h"
#include <stdlib.h>
#include <string.h>

/* an element: to the perf stage, then to the caller's callback if any */
static int to_perf(void *ctx, const ts_elem_t *e) {
    ts_pipeline_t *p = ctx;
    perf_dec_feed_elem(p->perf, e);
    return p->elem_cb ? p->elem_cb(p->elem_ctx, e) : 0;
}

int ts_pipeline_init(ts_pipeline_t *p, const ts_pipeline_cfg_t *cfg) {
    memset(p, 0, sizeof *p);
    p->src = cfg->one_src ? (int)cfg->src : -1;
    if (nxd_init(&p->nexus, &cfg->trace)) return -1;
    p->nexus.offset = cfg->offset;
    p->perf = malloc(sizeof *p->perf); /* big (per-hart state): not on the caller's stack */
    if (!p->perf) return -1;
    perf_dec_init(p->perf, cfg->perf_channel, &cfg->perf_cb);
    for (unsigned k = 0; cfg->headers && k < cfg->nheaders; k++) perf_dec_set_config(p->perf, &cfg->headers[k]);
    p->elem_cb = cfg->elem_cb;
    p->elem_ctx = cfg->elem_ctx;
    ts_elem_init(&p->elem, to_perf, p);
    return 0;
}

int ts_pipeline_msg(void *p, const nxd_msg_t *m) { return ts_elem_from_msg(&((ts_pipeline_t *)p)->elem, m); }

int ts_pipeline_decode(ts_pipeline_t *p, const uint8_t *buf, size_t len) {
    return nxd_decode_src(&p->nexus, buf, len, p->src, ts_elem_from_msg, &p->elem);
}

void ts_pipeline_end(ts_pipeline_t *p, uint64_t end, bool ended_early) {
    ts_elem_eot(&p->elem, end);
    if (ended_early) perf_dec_ended_early(p->perf);
    perf_dec_finish(p->perf);
}

void ts_pipeline_free(ts_pipeline_t *p) {
    free(p->perf);
    p->perf = NULL;
}

int ts_pipeline_run(const ts_pipeline_cfg_t *cfg, const uint8_t *buf, size_t len, uint64_t *perf_errors) {
    ts_pipeline_t p;
    if (ts_pipeline_init(&p, cfg)) {
        ts_pipeline_free(&p);
        return -1;
    }
    ts_pipeline_decode(&p, buf, len);
    ts_pipeline_end(&p, len, false);
    if (perf_errors) *perf_errors = p.perf->errors;
    ts_pipeline_free(&p);
    return 0;
}
