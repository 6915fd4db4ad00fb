/* nexus_decode.c - Nexus message decoder; see nexus_decode.h. */
#include "nexus_decode.h"
#include <stdint.h>
#include <string.h>

int nxd_init(nxd_t *d, const nxd_cfg_t *cfg) {
    memset(d, 0, sizeof *d);
    if (cfg->srcbits > 8 || cfg->tsbits < 1 || cfg->tsbits > 64) return -1;
    d->cfg = *cfg;
    return 0;
}

const char *nxd_tcode_name(unsigned t) {
    switch (t) {
    case 2: return "OWNERSHIP TRACE";
    case 3: return "DIRECT BRANCH";
    case 4: return "INDIRECT BRANCH";
    case 7: return "DATA ACQUISITION";
    case 8: return "ERROR";
    case 9: return "SYNC";
    case 11: return "DIRECT BRANCH WS";
    case 12: return "INDIRECT BRANCH WS";
    case 23: return "AUX ACCESS WRITE";
    case 27: return "RESOURCE FULL";
    case 28: return "INDIRECT BRANCH HISTORY";
    case 29: return "INDIRECT BRANCH HISTORY WS";
    case 33: return "CORRELATION";
    case 34: return "INCIRCUITTRACE";
    case 35: return "INCIRCUITTRACE WS";
    default: return "UNKNOWN";
    }
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

/* bit reader over the MDO bits of one message */
typedef struct rd {
    const uint8_t *b;
    uint32_t len, pos;        /* pos in MDO bits */
    bool ended;               /* the last variable field ended the message (MSEO 11) */
    const char *err;
} rd_t;

/* n bits from the current position, up to 6 per byte (LSB first) */
static uint64_t rd_fixed(rd_t *r, unsigned n) {
    uint64_t v = 0;
    unsigned got = 0;
    while (got < n) {
        uint32_t byte = r->pos / 6;
        if (byte >= r->len) { r->err = "fixed field past the end of the message"; return 0; }
        unsigned k = r->pos % 6, take = 6 - k;
        if (take > n - got) take = n - got;
        v |= (uint64_t)((r->b[byte] >> (2 + k)) & ((1u << take) - 1)) << got;
        got += take;
        r->pos += take;
    }
    return v;
}

/* a variable field: from the current bit to the end of the next byte with MSEO 01 or 11 */
static uint64_t rd_var(rd_t *r) {
    if (r->ended) { r->err = "more fields than the message holds"; return 0; }
    uint32_t i = r->pos / 6;
    if (i >= r->len) { r->err = "variable field without an end"; return 0; }
    unsigned k = r->pos % 6, got = 6 - k;
    uint8_t b = r->b[i];
    uint64_t v = (uint64_t)((b >> (2 + k)) & ((1u << got) - 1));
    while ((b & 3) == 0) {                       /* one pass: accumulate up to the field's end */
        if (++i >= r->len) { r->err = "variable field without an end"; return 0; }
        b = r->b[i];
        uint64_t chunk = b >> 2;
        if (got >= 64) {
            if (chunk) { r->err = "variable field wider than 64 bits"; return 0; }
        } else {
            if (got > 58 && (chunk >> (64 - got))) { r->err = "variable field wider than 64 bits"; return 0; }
            v |= chunk << got;
        }
        got += 6;
    }
    r->pos = (i + 1) * 6;
    r->ended = (b & 3) == 3;
    return v;
}

#define SET(m, fld, val) do { (m)->f[fld] = (val); (m)->fmask |= 1u << (fld); } while (0)

static bool is_full_ts(unsigned t) { return t == 9 || t == 11 || t == 12 || t == 29 || t == 35; }

/* fields of one message; false with r->err set on a layout error */
static bool parse_fields(nxd_t *d, nxd_msg_t *m, rd_t *r) {
    unsigned t = (unsigned)rd_fixed(r, 6);
    m->tcode = (uint8_t)t;
    if (d->cfg.srcbits) { m->has_src = true; m->src = (uint32_t)rd_fixed(r, d->cfg.srcbits); }
    uint64_t v;
    switch (t) {
    case 2: SET(m, NXF_PROCESS, rd_var(r)); break;
    case 3: SET(m, NXF_I_CNT, rd_var(r)); break;
    case 4: case 28:                /* INDIRECT BRANCH; with HISTORY for 28 */
        SET(m, NXF_B_TYPE, rd_fixed(r, 2));
        SET(m, NXF_I_CNT, rd_var(r));
        SET(m, NXF_U_ADDR, rd_var(r));
        if (t == 28) SET(m, NXF_HISTORY, rd_var(r));
        break;
    case 7: SET(m, NXF_IDTAG, rd_var(r)); SET(m, NXF_DATA, rd_var(r)); break;
    case 8: SET(m, NXF_ETYPE, rd_fixed(r, 4)); SET(m, NXF_ECODE, rd_var(r)); break;
    case 9: case 11:
        SET(m, NXF_SYNC, rd_fixed(r, 4));
        SET(m, NXF_I_CNT, rd_var(r));
        SET(m, NXF_F_ADDR, rd_var(r));
        break;
    case 12: case 29:               /* INDIRECT BRANCH WS; with HISTORY for 29 */
        SET(m, NXF_SYNC, rd_fixed(r, 4));
        SET(m, NXF_B_TYPE, rd_fixed(r, 2));
        SET(m, NXF_I_CNT, rd_var(r));
        SET(m, NXF_F_ADDR, rd_var(r));
        if (t == 29) SET(m, NXF_HISTORY, rd_var(r));
        break;
    case 23: SET(m, NXF_ADDR, rd_var(r)); SET(m, NXF_DATA, rd_var(r)); break;
    case 27: {
        unsigned rc = (unsigned)rd_fixed(r, 4);
        SET(m, NXF_RCODE, rc);
        v = rd_var(r);
        if (rc == 0) SET(m, NXF_I_CNT, v);
        else if (rc == 1) SET(m, NXF_HISTORY, v);
        else if (rc == 8 || rc == 9) SET(m, NXF_COUNT, v);
        else { r->err = "unsupported RESOURCE FULL RCODE"; return false; }
        break;
    }
    case 33: {
        SET(m, NXF_EVCODE, rd_fixed(r, 4));
        unsigned cdf = (unsigned)rd_fixed(r, 2);
        SET(m, NXF_CDF, cdf);
        SET(m, NXF_I_CNT, rd_var(r));
        if (cdf == 1) SET(m, NXF_HISTORY, rd_var(r));
        else if (cdf > 1) { r->err = "unsupported CORRELATION CDF"; return false; }
        break;
    }
    case 34: case 35: {
        unsigned src = (unsigned)rd_fixed(r, 4), ckdf = (unsigned)rd_fixed(r, 2);
        SET(m, NXF_CKSRC, src);
        SET(m, NXF_CKDF, ckdf);
        if (ckdf > 1) { r->err = "unsupported ICT CKDF"; return false; }
        SET(m, NXF_CKDATA0, rd_var(r));
        if (ckdf == 1) SET(m, NXF_CKDATA1, rd_var(r));
        if (src == 0) SET(m, NXF_CONTROL, ckdf ? m->f[NXF_CKDATA1] : m->f[NXF_CKDATA0]);
        /* CKDATA0 is an address (>> 1) for every CKSRC but Control without CKDF: full in
         * ICT-WS, XOR-compressed like U-ADDR in ICT (trace-hw-facts.md 4.4) */
        if (src != 0 || ckdf == 1) SET(m, t == 35 ? NXF_F_ADDR : NXF_U_ADDR, m->f[NXF_CKDATA0]);
        break;
    }
    default:
        r->err = "unsupported TCODE";
        return false;
    }
    if (r->err) return false;
    if (!r->ended) {
        m->has_ts = true;
        m->ts_field = rd_var(r);
        if (r->err) return false;
        if (!r->ended) { r->err = "fields after the timestamp"; return false; }
    }
    return true;
}

static void forget_time(nxd_t *d) { memset(d->last_time, 0, sizeof d->last_time); }

static void timestamp(nxd_t *d, nxd_msg_t *m) {
    if (!m->has_ts) return;
    uint64_t *last = &d->last_time[m->src % NXD_MAX_SRC];
    unsigned w = d->cfg.tsbits;
    uint64_t span = w >= 64 ? 0 : (1ull << w), mask = w >= 64 ? ~0ull : span - 1;
    uint64_t t;
    if (is_full_ts(m->tcode)) {
        t = (m->ts_field & mask) + (*last & ~mask);
        if (t < *last) t += span;
    } else {
        if (!*last) return;                  /* nothing to XOR against yet */
        t = *last ^ m->ts_field;
        if (t < *last) t += span;
    }
    *last = t;
    m->tics = t;
    m->tics_valid = true;
}

/* decodes buf[0..len), whose first byte is at stream offset `base`, from position 0 up to
 * the first message that starts at or after `limit`; a message cut off by the end of buf is
 * left undecoded when more input follows (*used stops at its first byte), else it is a
 * TRUNCATED message. *used: the bytes decoded or skipped. Returns 0 or cb's stop value. */
static int decode_part(nxd_t *d, const uint8_t *buf, size_t len, uint64_t base, size_t limit, bool more, size_t *used,
                       nxd_cb cb, void *ctx) {
    size_t i = 0;
    *used = len;
    while (i < len && i < limit) {
        uint8_t c = buf[i];
        if (c == 0xFF || c == 0x00 || (c & 3) != 0) { i++; d->skipped++; continue; }
        size_t start = i, end = i;
        while (end < len && (buf[end] & 3) != 3 && end - start < NXD_MAX_MSG) end++;
        nxd_msg_t m;
        m.status = NXD_OK;
        m.error = NULL;
        m.has_src = m.has_ts = m.tics_valid = false;
        m.src = 0;
        m.fmask = 0;
        m.tics = m.ts_field = 0;
        m.offset = base + start;
        m.bytes = buf + start;
        if (end >= len) {                    /* cut off by the end of the input */
            if (more) { *used = start; return 0; }
            m.len = (uint32_t)(len - start);
            m.status = NXD_TRUNCATED;
            m.tcode = buf[start] >> 2;
            m.error = "message cut off at the end of the trace";
            d->messages++;
            return cb(ctx, &m);
        }
        if (end - start >= NXD_MAX_MSG) {
            m.len = NXD_MAX_MSG;
            m.status = NXD_BAD;
            m.tcode = buf[start] >> 2;
            m.error = "message longer than 64 bytes";
            d->bad++;
            forget_time(d);
            int rc = cb(ctx, &m);
            i = start + 1;                   /* resync at the next byte */
            if (rc) return rc;
            continue;
        }
        m.len = (uint32_t)(end - start + 1);
        rd_t r = {m.bytes, m.len, 0, false, NULL};
        if (parse_fields(d, &m, &r)) {
            /* an Error message: that encoder lost messages, so its time is unknown until
             * its next full timestamp; with SRC fields the other sources keep theirs */
            if (m.tcode == 8) {
                if (m.has_src) d->last_time[m.src % NXD_MAX_SRC] = 0;
                else forget_time(d);
            }
            timestamp(d, &m);
            m.status = NXD_OK;
            i = end + 1;
        } else {
            m.status = NXD_BAD;
            m.error = r.err ? r.err : "malformed message";
            m.fmask = 0;
            m.has_ts = m.tics_valid = false;
            d->bad++;
            forget_time(d);
            i = end + 1;
        }
        d->messages++;
        int rc = cb(ctx, &m);
        if (rc) return rc;
    }
    *used = i < len ? i : len;
    return 0;
}

int nxd_decode(nxd_t *d, const uint8_t *buf, size_t len, nxd_cb cb, void *ctx) {
    size_t used;
    int rc = decode_part(d, buf, len, d->offset, SIZE_MAX, false, &used, cb, ctx);
    d->offset += len;
    return rc;
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
        if (rc) { d->ncarry = 0; return rc; }
        if (used < keep) {                   /* still cut off: only possible when this piece is short */
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
    if (pos < len) {                         /* a message begun at the end of the piece: fewer than 64 bytes */
        memcpy(d->carry, buf + pos, len - pos);
        d->ncarry = len - pos;
    }
    return 0;
}
