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

/* nxd_skim's callback: the messages are only counted, listed and cut off (a message too
 * long is listed but not in d->messages); the loop's field stores into the unused message
 * are dead code once this is inlined */
typedef struct skim_n { uint64_t lines, cut; } skim_n_t;
static inline __attribute__((always_inline)) int skim_cb(void *ctx, const nxd_msg_t *m) {
    skim_n_t *k = ctx;
    if (m->status == NXD_TRUNCATED) k->cut++;
    else k->lines++;
    return 0;
}

/* The common message of an ITC trace: DATA ACQUISITION (TCODE 7) without SRC bits, of up
 * to 10 bytes (16 readable: w, w2), IDTAG and DATA and maybe a timestamp, so 2 or 3 field
 * ends (MSEO not 00) up to and including its end byte; 1 or more than 3 make it corrupt
 * (left to the decoder's loop). Its state change without the reader: the message count and,
 * with a timestamp (the MDO bits after the second field end, at most 42), the time of source
 * 0 (timestamp()'s XOR case). Returns the message's length, 0 when it is not such a message. */
static inline size_t skim_da(nxd_t *d, uint64_t w, uint64_t w2) {
    if ((w & 0xFF) != 7 << 2) return 0;
    uint64_t lo = w & LSB8, hi = (w >> 1) & LSB8, lo2 = w2 & LSB8, hi2 = (w2 >> 1) & LSB8;
    uint64_t e3 = lo & hi, e3b = lo2 & hi2 & 0x0101;               /* MSEO 11 in bytes 0..7, 8..9 */
    unsigned end;                                                  /* the end byte */
    if (e3) end = (unsigned)__builtin_ctzll(e3) >> 3;
    else if (e3b) end = 8 + ((unsigned)__builtin_ctzll(e3b) >> 3);
    else return 0;
    uint64_t fe = (gather8(lo | hi) | gather8(lo2 | hi2) << 8) & ((2ull << end) - 1);
    uint64_t f1 = fe & (fe - 1), f2 = f1 & (f1 - 1);              /* fe less its first 1, 2 ends */
    if (!f1 || (f2 & (f2 - 1))) return 0;                          /* 1 end, or more than 3 */
    if (f2) {                                                      /* 3: a timestamp */
        unsigned e2 = (unsigned)__builtin_ctzll(f1);              /* DATA's last byte (>= 2) */
        /* the MDO of bytes 2..9: bytes 2..7 from w, 8 and 9 from w2 */
        uint64_t mdo = mdo48w(w) >> 12 | ((w2 >> 2) & 0x3F) << 36 | ((w2 >> 10) & 0x3F) << 42;
        uint64_t ts = (mdo >> (6 * (e2 - 1))) & ((1ull << (6 * (end - e2))) - 1);
        uint64_t *last = &d->last_time[0];
        if (*last) {
            uint64_t t = *last ^ ts;
            if (t < *last) t += d->ts_span;
            *last = t;
        }
    }
    d->messages++;
    return end + 1;
}

uint64_t nxd_skim(nxd_t *d, const uint8_t *buf, size_t len, size_t limit) {
    skim_n_t k = {0, 0};
    size_t i = 0, stop = len < limit ? len : limit, used;
    while (i < stop) {
        if (!d->cfg.srcbits)                 /* Data Acquisition messages in a row */
            for (size_t n; i < stop && len - i >= 16 && (n = skim_da(d, ld64(buf + i), ld64(buf + i + 8))); i += n) k.lines++;
        if (i >= stop) break;
        /* anything else: the decoder's loop, for one message (or skipped byte) */
        nxd_decode_part(d, buf + i, len - i, d->offset + i, d->cfg.srcbits ? stop - i : 1, false, &used, skim_cb, &k);
        i += used;
        if (k.cut) break;                    /* a message cut off by the end: the last */
    }
    d->offset += i < len ? i : len;
    return k.lines;
}
