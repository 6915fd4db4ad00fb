/* nexus_decode_loop.h - the decoder's hot loop (nexus_decode.h), private to the decoder: included
 * by nexus_decode.c, whose nxd_decode and nxd_decode_stream call it through a function, and
 * by consumers that want their per-message callback compiled into the loop (a constant
 * callback is inlined: no indirect call per message), such as
 * msg_json.c. The same code, so the same messages. */
#ifndef TS_NEXUS_DECODE_LOOP_H
#define TS_NEXUS_DECODE_LOOP_H
#include "nexus_decode.h"
#include <stdint.h>
#include <string.h>

/* ---- the hot loop: one message's bytes -------------------------------------------------
 * A message is found with 8 bytes a step (nxd_scan_msg): per byte, bit 0 of the MSEO pair
 * ANDed with bit 1 flags a message end (MSEO 11), ORed flags a field end (01, 10 or 11); the
 * field-end flags of the message's bytes go into one 64-bit mask (a message has at most 64
 * bytes), so a variable field finds its last byte with one count-trailing-zeros instead of
 * testing every byte. */

/* 8 bytes as a little-endian word (byte 0 in bits 7:0) */
static inline uint64_t ld64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

#define LSB8 0x0101010101010101ull

/* bit 0 of each of the 8 bytes of x (x has no other bits) gathered into bits 7:0 */
static inline uint64_t gather8(uint64_t x) { return (x * 0x0102040810204080ull) >> 56; }

static inline int scan_msg(const uint8_t *b, size_t avail, uint64_t *fend) {
    size_t lim = avail < NXD_MAX_MSG ? avail : NXD_MAX_MSG, x = 0;
    uint64_t fe = 0;
    for (; x + 8 <= lim; x += 8) {
        uint64_t w = ld64(b + x), lo = w & LSB8, hi = (w >> 1) & LSB8;
        fe |= gather8(lo | hi) << x;
        uint64_t e3 = lo & hi;
        if (e3) {
            x += (size_t)__builtin_ctzll(e3) >> 3;
            *fend = fe & (x == 63 ? ~0ull : (2ull << x) - 1);
            return (int)x + 1;
        }
    }
    for (; x < lim; x++) {
        unsigned s = b[x] & 3;
        if (s) fe |= 1ull << x;
        if (s == 3) {
            *fend = fe;
            return (int)x + 1;
        }
    }
    *fend = fe;
    return avail <= NXD_MAX_MSG ? 0 : -1;
}

/* The MDO bits of 8 bytes (w: ld64), packed LSB first (byte x's MDO in bits 6x+5..6x):
 * 48 bits, in three steps of merging neighbouring groups */
static inline uint64_t mdo48w(uint64_t w) {
    uint64_t m = (w >> 2) & 0x3F3F3F3F3F3F3F3Full;
    m = (m & 0x003F003F003F003Full) | ((m & 0x3F003F003F003F00ull) >> 2);
    m = (m & 0x00000FFF00000FFFull) | ((m & 0x0FFF00000FFF0000ull) >> 4);
    return (m & 0xFFFFFFull) | ((m & 0x00FFFFFF00000000ull) >> 8);
}

/* bit 6x+5 set for each bit x of a 5-bit byte mask: the last payload bit of byte x */
static const uint32_t end_bit5[32] = {
#define E1(v) ((1u & (v)) << 5 | (2u & (v)) << 10 | (4u & (v)) << 15 | (8u & (v)) << 20 | (16u & (v)) << 25)
#define E4(v) E1(v), E1((v) + 1), E1((v) + 2), E1((v) + 3)
    E4(0), E4(4), E4(8), E4(12), E4(16), E4(20), E4(24), E4(28)
#undef E4
#undef E1
};

/* Reader over the MDO bits of one message. Fast form (messages of up to 10 bytes, at least 8
 * bytes readable at its start): the payload (<= 60 bits) in x and the field ends as bits of
 * payload positions in feb, both shifted right as fields are read; no field can pass 64 bits. General form: byte
 * i, bit k (0..5) of its MDO, field ends as the byte mask fe. Both give the same values,
 * errors and positions (a fixed field cut off by the end takes the position to the end). */
typedef struct rd {
    const uint8_t *b;
    uint32_t len, i, k; /* general */
    uint64_t fe;        /* general: bit x: byte x ends a field (MSEO 01, 10 or 11) */
    uint64_t x, feb;    /* fast: the payload bits not read yet, LSB first; their field ends */
    unsigned left;      /* fast: payload bits not read yet */
    bool ended;         /* the last variable field ended the message (MSEO 11) */
    const char *err;
} rd_t;

#define RD_INLINE static inline __attribute__((always_inline))

/* n (<= 8) bits from the current position, up to 6 per byte (LSB first) */
RD_INLINE uint64_t rd_fixed(rd_t *r, unsigned n, bool fast) {
    if (fast) {
        if (n > r->left) {
            r->err = "fixed field past the end of the message";
            r->left = 0;
            r->x = r->feb = 0;
            return 0;
        }
        uint64_t v = r->x & ((1u << n) - 1);
        r->x >>= n;
        r->feb >>= n;
        r->left -= n;
        return v;
    }
    if (r->i + 2 < r->len) { /* 18 MDO bits at hand: k + n <= 13 */
        const uint8_t *q = r->b + r->i;
        uint32_t w = (uint32_t)(q[0] >> 2) | (uint32_t)(q[1] >> 2) << 6 | (uint32_t)(q[2] >> 2) << 12;
        uint64_t v = (w >> r->k) & ((1u << n) - 1);
        r->k += n;
        while (r->k >= 6) {
            r->k -= 6;
            r->i++;
        }
        return v;
    }
    uint64_t v = 0; /* near the end: a byte at a time */
    unsigned got = 0;
    while (got < n) {
        if (r->i >= r->len) {
            r->err = "fixed field past the end of the message";
            return 0;
        }
        unsigned take = 6 - r->k;
        if (take > n - got) take = n - got;
        v |= (uint64_t)((r->b[r->i] >> (2 + r->k)) & ((1u << take) - 1)) << got;
        got += take;
        r->k += take;
        if (r->k == 6) {
            r->k = 0;
            r->i++;
        }
    }
    return v;
}

/* a variable field: from the current bit to the end of the next byte with MSEO 01 or 11
 * (or the reserved 10) */
RD_INLINE uint64_t rd_var(rd_t *r, bool fast) {
    if (fast) { /* ended only with no end left: one test for both */
        if (!r->feb) {
            r->err = r->ended ? "more fields than the message holds" : "variable field without an end";
            return 0;
        }
        unsigned c = (unsigned)__builtin_ctzll(r->feb) + 1; /* the field's width */
        uint64_t v = r->x & (r->feb ^ (r->feb - 1));        /* its bits: up to its end (c <= 60) */
        r->x >>= c;
        r->feb >>= c;
        r->left -= c;
        r->ended = !r->feb; /* the last byte's end read: only it has MSEO 11 */
        return v;
    }
    if (r->ended) {
        r->err = "more fields than the message holds";
        return 0;
    }
    uint32_t i = r->i;
    uint64_t rest = i < r->len ? r->fe >> i : 0;
    if (!rest) {
        r->err = "variable field without an end";
        return 0;
    }
    uint32_t j = i + (uint32_t)__builtin_ctzll(rest);
    unsigned got = 6 - r->k;
    uint64_t v = (uint64_t)(r->b[i] >> (2 + r->k));
    for (uint32_t x = i + 1; x <= j; x++) {
        uint64_t chunk = r->b[x] >> 2;
        if (got >= 64) {
            if (chunk) {
                r->err = "variable field wider than 64 bits";
                return 0;
            }
        } else {
            if (got > 58 && (chunk >> (64 - got))) {
                r->err = "variable field wider than 64 bits";
                return 0;
            }
            v |= chunk << got;
        }
        got += 6;
    }
    r->i = j + 1;
    r->k = 0;
    r->ended = (r->b[j] & 3) == 3;
    return v;
}

#define SET(m, fld, val)           \
    do {                           \
        (m)->f[fld] = (val);       \
        (m)->fmask |= 1u << (fld); \
    } while (0)

/* the TCODEs with a full timestamp (nexus.def: 9, 11, 12, 29 and 35; t < 64: the MDO of one byte) */
static inline bool is_full_ts(unsigned t) { return (nx_full_ts_mask >> (t & 63)) & 1; }

/* fields of one message; false with r->err set on a layout error (fast: the reader's fast form) */
RD_INLINE bool parse_fields(nxd_t *d, nxd_msg_t *m, rd_t *r, bool fast) {
    unsigned t = r->b[0] >> 2; /* TCODE: the MDO of the first byte */
    r->i = 1;
    m->tcode = (uint8_t)t;
    if (d->cfg.srcbits) {
        m->has_src = true;
        m->src = (uint32_t)rd_fixed(r, d->cfg.srcbits, fast);
    }
    uint64_t v;
    switch (t) {
    case NX_OWNERSHIP: SET(m, NXF_PROCESS, rd_var(r, fast)); break;
    case NX_DIRECT_BRANCH: SET(m, NXF_I_CNT, rd_var(r, fast)); break;
    case NX_INDIRECT_BRANCH:
    case NX_INDIRECT_BRANCH_HIST: /* INDIRECT BRANCH; with HISTORY for 28 */
        SET(m, NXF_B_TYPE, rd_fixed(r, NX_W_B_TYPE, fast));
        SET(m, NXF_I_CNT, rd_var(r, fast));
        SET(m, NXF_U_ADDR, rd_var(r, fast));
        if (t == NX_INDIRECT_BRANCH_HIST) SET(m, NXF_HISTORY, rd_var(r, fast));
        break;
    case NX_DATA_ACQ:
        SET(m, NXF_IDTAG, rd_var(r, fast));
        SET(m, NXF_DATA, rd_var(r, fast));
        break;
    case NX_ERROR:
        SET(m, NXF_ETYPE, rd_fixed(r, NX_W_ETYPE, fast));
        SET(m, NXF_ECODE, rd_var(r, fast));
        break;
    case NX_SYNC:
    case NX_DIRECT_BRANCH_WS:
        SET(m, NXF_SYNC, rd_fixed(r, NX_W_SYNC, fast));
        SET(m, NXF_I_CNT, rd_var(r, fast));
        SET(m, NXF_F_ADDR, rd_var(r, fast));
        break;
    case NX_INDIRECT_BRANCH_WS:
    case NX_INDIRECT_BRANCH_HIST_WS: /* INDIRECT BRANCH WS; with HISTORY for 29 */
        SET(m, NXF_SYNC, rd_fixed(r, NX_W_SYNC, fast));
        SET(m, NXF_B_TYPE, rd_fixed(r, NX_W_B_TYPE, fast));
        SET(m, NXF_I_CNT, rd_var(r, fast));
        SET(m, NXF_F_ADDR, rd_var(r, fast));
        if (t == NX_INDIRECT_BRANCH_HIST_WS) SET(m, NXF_HISTORY, rd_var(r, fast));
        break;
    case NX_AUX_ACCESS_WRITE:
        SET(m, NXF_ADDR, rd_var(r, fast));
        SET(m, NXF_DATA, rd_var(r, fast));
        break;
    case NX_RESOURCE_FULL: {
        unsigned rc = (unsigned)rd_fixed(r, NX_W_RCODE, fast);
        SET(m, NXF_RCODE, rc);
        v = rd_var(r, fast);
        if (rc == NX_RCODE_ICNT) SET(m, NXF_I_CNT, v);
        else if (rc == NX_RCODE_HIST)
            SET(m, NXF_HISTORY, v);
        else if (rc == NX_RCODE_NOT_TAKEN || rc == NX_RCODE_TAKEN)
            SET(m, NXF_COUNT, v);
        else {
            r->err = "unsupported RESOURCE FULL RCODE";
            return false;
        }
        break;
    }
    case NX_CORRELATION: {
        SET(m, NXF_EVCODE, rd_fixed(r, NX_W_EVCODE, fast));
        unsigned cdf = (unsigned)rd_fixed(r, NX_W_CDF, fast);
        SET(m, NXF_CDF, cdf);
        SET(m, NXF_I_CNT, rd_var(r, fast));
        if (cdf == 1) SET(m, NXF_HISTORY, rd_var(r, fast));
        else if (cdf > 1) {
            r->err = "unsupported CORRELATION CDF";
            return false;
        }
        break;
    }
    case NX_ICT:
    case NX_ICT_WS: {
        unsigned src = (unsigned)rd_fixed(r, NX_W_CKSRC, fast), ckdf = (unsigned)rd_fixed(r, NX_W_CKDF, fast);
        SET(m, NXF_CKSRC, src);
        SET(m, NXF_CKDF, ckdf);
        if (ckdf > 1) {
            r->err = "unsupported ICT CKDF";
            return false;
        }
        SET(m, NXF_CKDATA0, rd_var(r, fast));
        if (ckdf == 1) SET(m, NXF_CKDATA1, rd_var(r, fast));
        if (src == NX_CKSRC_CONTROL) SET(m, NXF_CONTROL, ckdf ? m->f[NXF_CKDATA1] : m->f[NXF_CKDATA0]);
        /* CKDATA0 is an address (>> 1) for every CKSRC but Control without CKDF: full in
         * ICT-WS, XOR-compressed like U-ADDR in ICT (trace-hw-facts.md 4.4) */
        if (src != NX_CKSRC_CONTROL || ckdf == 1) SET(m, t == NX_ICT_WS ? NXF_F_ADDR : NXF_U_ADDR, m->f[NXF_CKDATA0]);
        break;
    }
    default:
        r->err = "unsupported TCODE";
        return false;
    }
    if (r->err) return false;
    if (!r->ended) {
        m->has_ts = true;
        m->ts_field = rd_var(r, fast);
        if (r->err) return false;
        if (!r->ended) {
            r->err = "fields after the timestamp";
            return false;
        }
    }
    return true;
}

/* DATA ACQUISITION (TCODE 7) without SRC bits in up to 10 bytes (w: its first 8, at least 8
 * readable), the message of every ITC trace: IDTAG, DATA and maybe TSTAMP cut straight out
 * of its MDO bits at its field ends (fe: 2 or 3 of them, the last the message's end), the
 * values parse_fields reads the long way. false, with nothing set, for any other number of
 * ends: parse_fields then reports what is wrong. */
RD_INLINE bool parse_da(nxd_msg_t *m, uint64_t w, const uint8_t *b, uint64_t fe, int mlen) {
    uint64_t f1 = fe & (fe - 1), f2 = f1 & (f1 - 1); /* fe less its first end, its first two */
    if (!f1 || (f2 & (f2 - 1))) return false;
    unsigned e1 = (unsigned)__builtin_ctzll(fe), e2 = (unsigned)__builtin_ctzll(f1); /* e1 >= 1 */
    uint64_t x = mdo48w(w) >> 6;                                                     /* the MDO of bytes 1.., 6 bits each */
    if (mlen > 8) x |= (uint64_t)(b[8] >> 2) << 42 | (uint64_t)(mlen > 9 ? b[9] >> 2 : 0) << 48;
    x &= (1ull << (6 * (mlen - 1))) - 1; /* not the next message's bytes (<= 54 bits) */
    m->tcode = NX_DATA_ACQ;
    m->f[NXF_IDTAG] = x & ((1ull << (6 * e1)) - 1);
    m->f[NXF_DATA] = (x >> (6 * e1)) & ((1ull << (6 * (e2 - e1))) - 1);
    m->fmask = 1u << NXF_IDTAG | 1u << NXF_DATA;
    if (f2) {
        m->has_ts = true;
        m->ts_field = x >> (6 * e2);
    }
    return true;
}

static inline void forget_time(nxd_t *d) { memset(d->last_time, 0, sizeof d->last_time); }

RD_INLINE void timestamp(nxd_t *d, nxd_msg_t *m) {
    if (!m->has_ts) return;
    uint64_t *last = &d->last_time[m->src % NXD_MAX_SRC];
    uint64_t span = d->ts_span, mask = d->ts_mask;
    uint64_t t;
    if (is_full_ts(m->tcode)) {
        t = (m->ts_field & mask) + (*last & ~mask);
        if (t < *last) t += span;
    } else {
        if (!*last) return; /* nothing to XOR against yet */
        t = *last ^ m->ts_field;
        if (t < *last) t += span;
    }
    *last = t;
    m->tics = t;
    m->tics_valid = true;
}

/* what decoding m does to the sources' times (m as the loop below made it with timed false):
 * an Error message forgets its encoder's time, a good message's timestamp is rebuilt (m's
 * tics), a corrupt one forgets every time */
RD_INLINE void time_ok(nxd_t *d, nxd_msg_t *m) {
    /* an Error message: that encoder lost messages, so its time is unknown until its next
     * full timestamp; with SRC fields the other sources keep theirs */
    if (m->tcode == NX_ERROR) {
        if (m->has_src) d->last_time[m->src % NXD_MAX_SRC] = 0;
        else
            forget_time(d);
    }
    timestamp(d, m);
}

RD_INLINE void nxd_time_msg(nxd_t *d, nxd_msg_t *m) {
    if (m->status == NXD_OK) time_ok(d, m);
    else if (m->status == NXD_BAD)
        forget_time(d);
}

/* a finished message: to the callback, or kept where it was built (store: nxd_parse) */
#define NXD_EMIT(mp) (store ? (++*nstore, 0) : cb(ctx, (mp)))

/* decodes buf[0..len), whose first byte is at stream offset `base`, from position 0 up to
 * the first message that starts at or after `limit`; a message cut off by the end of buf is
 * left undecoded when more input follows (*used stops at its first byte), else it is a
 * TRUNCATED message. *used: the bytes decoded or skipped. Returns 0 or cb's stop value.
 * timed false: the sources' times are neither used nor changed (no message gets tics; the
 * fields, counters and framing are the same): nxd_time_msg on each message, in order, does
 * the rest. */
RD_INLINE int nxd_decode_part_t(nxd_t *d, const uint8_t *buf, size_t len, uint64_t base, size_t limit, bool more,
                                size_t *used, nxd_cb cb, void *ctx, bool timed,
                                nxd_msg_t *store, size_t *nstore) {
    size_t i = 0, stop = len < limit ? len : limit;
    *used = len;
    while (i < stop) {
        uint8_t c = buf[i];
        if ((c & 3) != 0 || c == 0x00) {
            i++;
            d->skipped++;
            continue;
        } /* 0xFF too (MSEO 11) */
        size_t start = i;
        uint64_t fe, w = 0, e3 = 0;
        int mlen;
        if (len - start >= 8) { /* a message within these 8 bytes: found without a loop */
            w = ld64(buf + start);
            uint64_t lo = w & LSB8, hi = (w >> 1) & LSB8;
            e3 = lo & hi;
            if (e3) {
                mlen = (__builtin_ctzll(e3) >> 3) + 1;
                fe = gather8(lo | hi) & ((2ull << (mlen - 1)) - 1);
            } else
                mlen = scan_msg(buf + start, len - start, &fe);
        } else
            mlen = scan_msg(buf + start, len - start, &fe);
        nxd_msg_t mloc, *mp = store ? store + *nstore : &mloc; /* built in place when stored */
        mp->status = NXD_OK;
        mp->error = NULL;
        mp->has_src = mp->has_ts = mp->tics_valid = false;
        mp->src = 0;
        mp->fmask = 0;
        mp->tics = mp->ts_field = 0;
        mp->offset = base + start;
        mp->bytes = buf + start;
        if (mlen == 0) { /* cut off by the end of the input */
            if (more) {
                *used = start;
                return 0;
            }
            mp->len = (uint32_t)(len - start);
            mp->status = NXD_TRUNCATED;
            mp->tcode = buf[start] >> 2;
            mp->error = "message cut off at the end of the trace";
            d->messages++;
            return NXD_EMIT(mp);
        }
        if (mlen < 0) {
            mp->len = NXD_MAX_MSG;
            mp->status = NXD_BAD;
            mp->tcode = buf[start] >> 2;
            mp->error = "message longer than 64 bytes";
            d->bad++;
            if (timed) forget_time(d);
            int rc = NXD_EMIT(mp);
            i = start + 1; /* resync at the next byte */
            if (rc) return rc;
            continue;
        }
        mp->len = (uint32_t)mlen;
        size_t end = start + (size_t)mlen - 1;
        rd_t r;
        r.b = mp->bytes;
        r.len = mp->len;
        r.k = 0;
        r.fe = fe;
        r.ended = false;
        r.err = NULL;
        bool ok;
        if (mlen <= 10 && len - start >= 8 && (w & 0xFF) == NX_DATA_ACQ << 2 && !d->cfg.srcbits && parse_da(mp, w, mp->bytes, fe, mlen)) {
            ok = true;
        } else if (mlen <= 10 && len - start >= 8) {
            r.x = mdo48w(w);
            if (mlen > 8) r.x |= (uint64_t)(mp->bytes[8] >> 2) << 48 | (uint64_t)(mlen > 9 ? mp->bytes[9] >> 2 : 0) << 54;
            r.feb = end_bit5[fe & 31] | (uint64_t)end_bit5[(fe >> 5) & 31] << 30;
            r.x >>= NX_W_TCODE; /* TCODE is read (parse_fields) */
            r.feb >>= NX_W_TCODE;
            r.left = 6 * (unsigned)mlen - 6;
            ok = parse_fields(d, mp, &r, true);
        } else {
            ok = parse_fields(d, mp, &r, false);
        }
        if (ok) {
            if (timed) time_ok(d, mp);
            mp->status = NXD_OK;
        } else {
            mp->status = NXD_BAD;
            mp->error = r.err ? r.err : "malformed message";
            mp->fmask = 0;
            mp->has_ts = mp->tics_valid = false;
            d->bad++;
            if (timed) forget_time(d);
        }
        i = end + 1;
        d->messages++;
        int rc = NXD_EMIT(mp);
        if (rc) return rc;
    }
    *used = i < len ? i : len;
    return 0;
}

RD_INLINE int nxd_decode_part(nxd_t *d, const uint8_t *buf, size_t len, uint64_t base, size_t limit, bool more,
                              size_t *used, nxd_cb cb, void *ctx) {
    return nxd_decode_part_t(d, buf, len, base, limit, more, used, cb, ctx, true, NULL, NULL);
}
#endif
