/* nexus_decode.c - Nexus message decoder; see nexus_decode.h. */
#include "nexus_decode.h"
#include "nexus_decode_loop.h"
#include <stdint.h>
#include <string.h>

int nxd_init(nxd_t *d, const nxd_cfg_t *cfg) {
    memset(d, 0, sizeof *d);
    if (cfg->srcbits > 8 || cfg->tsbits < 1 || cfg->tsbits > 64) return -1;
    d->cfg = *cfg;
    d->ts_span = cfg->tsbits >= 64 ? 0 : 1ull << cfg->tsbits;
    d->ts_mask = cfg->tsbits >= 64 ? ~0ull : d->ts_span - 1;
    return 0;
}

const char *nxd_tcode_name(unsigned t) {
    const char *n = nx_tcode_text(t); /* dqr's names: rtl_model/regs/nexus.def */
    return n ? n : "UNKNOWN";
}

const char *nxd_field_name(enum nxd_field f) {
    static const char *const n[NXF__COUNT] = {
        "idtag", "data", "process", "i_cnt", "f_addr", "u_addr", "history", "rcode", "count",
        "sync", "b_type", "evcode", "cdf", "cksrc", "ckdf", "ckdata0", "ckdata1", "control",
        "etype", "ecode", "addr"};
    return f < NXF__COUNT ? n[f] : "?";
}

const enum nxd_field nxd_fields_by_name[NXF__COUNT] = {
    NXF_ADDR, NXF_B_TYPE, NXF_CDF, NXF_CKDATA0, NXF_CKDATA1, NXF_CKDF, NXF_CKSRC, NXF_CONTROL, NXF_COUNT,
    NXF_DATA, NXF_ECODE, NXF_ETYPE, NXF_EVCODE, NXF_F_ADDR, NXF_HISTORY, NXF_I_CNT, NXF_IDTAG, NXF_PROCESS,
    NXF_RCODE, NXF_SYNC, NXF_U_ADDR};

int nxd_scan_msg(const uint8_t *b, size_t avail, uint64_t *fend) { return scan_msg(b, avail, fend); }

/* the loop of nexus_decode_loop.h once, for every callback */
static int decode_part(nxd_t *d, const uint8_t *buf, size_t len, uint64_t base, size_t limit, bool more, size_t *used,
                       nxd_cb cb, void *ctx) {
    return nxd_decode_part(d, buf, len, base, limit, more, used, cb, ctx);
}

int nxd_decode(nxd_t *d, const uint8_t *buf, size_t len, nxd_cb cb, void *ctx) {
    size_t used;
    int rc = decode_part(d, buf, len, d->offset, SIZE_MAX, false, &used, cb, ctx);
    d->offset += len;
    return rc;
}

/* ---- one source only: the messages of other sources are not passed on ------------------ */
typedef struct src_filt {
    nxd_cb cb;
    void *ctx;
    unsigned src;
} src_filt_t;

static int src_filter(void *vctx, const nxd_msg_t *m) {
    const src_filt_t *h = vctx;
    if (m->status == NXD_OK && m->has_src && m->src != h->src) return 0;
    return h->cb(h->ctx, m);
}

int nxd_decode_src(nxd_t *d, const uint8_t *buf, size_t len, int src, nxd_cb cb, void *ctx) {
    if (src < 0 || !d->cfg.srcbits) return nxd_decode(d, buf, len, cb, ctx);
    src_filt_t h = {cb, ctx, (unsigned)src};
    return nxd_decode(d, buf, len, src_filter, &h);
}

int nxd_decode_stream(nxd_t *d, const uint8_t *buf, size_t len, bool more, nxd_cb cb, void *ctx) {
    size_t used, pos = 0;
    if (d->ncarry) {
        /* the message begun in the previous piece: with up to 64 more bytes it is known
         * whole (or too long); decoding of the carry stops at the first message that starts
         * in this piece, which is decoded in place below */
        size_t keep = d->ncarry, take = len < NXD_MAX_MSG ? len : NXD_MAX_MSG;
        if (take) memcpy(d->carry + keep, buf, take);
        size_t n = keep + take;
        int rc = decode_part(d, d->carry, n, d->offset, keep, more || take < len, &used, cb, ctx);
        if (rc) {
            d->ncarry = 0;
            return rc;
        }
        if (used < keep) { /* still cut off: only possible when this piece is short */
            memmove(d->carry, d->carry + used, n - used);
            d->ncarry = n - used;
            d->offset += used;
            return 0;
        }
        d->ncarry = 0;
        pos = used - keep;
        d->offset += keep + pos;
    }
    if (pos == len) return 0;
    int rc = decode_part(d, buf + pos, len - pos, d->offset, SIZE_MAX, more, &used, cb, ctx);
    if (rc) return rc;
    d->offset += used;
    pos += used;
    if (pos < len) { /* a message begun at the end of the piece: fewer than 64 bytes */
        memcpy(d->carry, buf + pos, len - pos);
        d->ncarry = len - pos;
    }
    return 0;
}

size_t nxd_parse(nxd_t *d, const uint8_t *buf, size_t len, size_t limit, nxd_msg_t *out) {
    size_t used, n = 0;
    nxd_decode_part_t(d, buf, len, d->offset, limit, false, &used, NULL, NULL, false, out, &n);
    d->offset += used;
    return n;
}

void nxd_time(nxd_t *d, nxd_msg_t *m, size_t n) {
    for (size_t i = 0; i < n; i++) nxd_time_msg(d, &m[i]);
}
