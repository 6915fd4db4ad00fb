/* fst_writer.c - see fst_writer.h and waves/fst/README.md (the layout written). */
#include "fst_writer.h"
#include "ts_file.h"

#include <errno.h>
#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* block and section tags of the format */
enum { BL_HDR = 0,
       BL_GEOM = 3,
       BL_HIER_LZ4 = 6,
       BL_VCDATA_DYN_ALIAS2 = 8 };
enum { HT_ATTRBEGIN = 252,
       HT_SCOPE = 254,
       HT_UPSCOPE = 255 };
enum { AT_MISC = 0,
       MT_ENUMTABLE = 7 };
#define HDR_LEN 329u             /* the header section's length field */
#define BLOCK_LIMIT (128u << 20) /* a block ends once its records take this much */
#define RAW_MAX 32u              /* chains up to this long are stored uncompressed */
#define REC_MAX 24u              /* room checked before a record of at most 8 bytes */

enum { K_BIT,
       K_VEC,
       K_REAL };
enum { F_NONE,
       F1,
       F32,
       F64 };

typedef struct {
    uint8_t *buf; /* this block's change records, packed as the file stores them */
    uint32_t len, cap;
    uint32_t last_t;               /* time index of the last change in this block (0 at its start) */
    uint32_t last;                 /* K_BIT: the last value; else offset of the last value's bytes */
    uint32_t bits, nbytes, valpos; /* width, bytes per value, offset in the frame */
    uint8_t fast;                  /* F1/F32/F64 once time runs: the emit functions' short path */
    uint8_t shift;                 /* F32: 32 - bits, F64: 64 - bits (left-aligns the value) */
    int32_t pos;                   /* in a block being written: chain offset, or -(handle) of an alias */
    uint32_t slen;                 /* in a block being written: the stored chain's length in bytes */
    uint8_t kind;
} fstw_sig_t;

typedef struct {
    uint8_t *p;
    size_t len, cap;
} buf_t;

struct fstw {
    FILE *f;
    int failed;
    char msg[300];
    char *path;
    fstw_sig_t *sig;
    uint32_t nsig, sigcap, nvars, nscopes, nenums, pending_enum;
    buf_t hier, frame, times, out, geom;
    uint32_t tcount, tidx; /* time points in the block; index of the current one */
    uint64_t first_time, cur_time, block_beg;
    int have_time, flush_pending;
    size_t grown; /* record bytes in the block (by capacity) */
    uint32_t nblocks;
    int timescale;
    char version[128];
    LZ4_stream_t *lz4;
    z_stream zframe, ztime;
    int zframe_ok, ztime_ok;
    uint32_t *dedup; /* open-addressed: sig index + 1, 0 = free */
    uint32_t dedup_mask;
    uint8_t *chars; /* scratch: a value as '0'/'1' */
    size_t charscap;
};

/* ---- small helpers ------------------------------------------------------------------- */

static void fail(fstw_t *w, const char *what) {
    if (w->failed) return;
    w->failed = 1;
    snprintf(w->msg, sizeof w->msg, "%s: %s", w->path ? w->path : "FST file", what);
}

static int buf_room(fstw_t *w, buf_t *b, size_t n) {
    if (b->cap - b->len >= n) return 0;
    size_t c = b->cap ? b->cap : 256;
    while (c - b->len < n) c *= 2;
    uint8_t *p = realloc(b->p, c);
    if (!p) {
        fail(w, "out of memory");
        return -1;
    }
    b->p = p;
    b->cap = c;
    return 0;
}

static uint8_t *put_varint(uint8_t *p, uint64_t v) {
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static uint8_t *put_svarint(uint8_t *p, int64_t v) {
    for (;;) {
        uint8_t b = (uint8_t)(v & 0x7f);
        v >>= 7; /* arithmetic: gcc and clang on every target we build */
        if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40))) {
            *p++ = b;
            return p;
        }
        *p++ = b | 0x80;
    }
}

static uint8_t *put_u64(uint8_t *p, uint64_t v) {
    for (int i = 7; i >= 0; i--) *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

static void b_varint(fstw_t *w, buf_t *b, uint64_t v) {
    if (buf_room(w, b, 10)) return;
    b->len = (size_t)(put_varint(b->p + b->len, v) - b->p);
}
static void b_bytes(fstw_t *w, buf_t *b, const void *s, size_t n) {
    if (!n || buf_room(w, b, n)) return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
}
static void b_byte(fstw_t *w, buf_t *b, uint8_t c) { b_bytes(w, b, &c, 1); }
static void b_u64(fstw_t *w, buf_t *b, uint64_t v) {
    if (buf_room(w, b, 8)) return;
    b->len = (size_t)(put_u64(b->p + b->len, v) - b->p);
}

static inline uint32_t be32(uint32_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_bswap32(v);
#else
    return v;
#endif
}
static inline uint64_t be64(uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_bswap64(v);
#else
    return v;
#endif
}

static void put_file(fstw_t *w, const void *p, size_t n) {
    if (w->failed || !n) return;
    if (fwrite(p, 1, n, w->f) != n) fail(w, errno ? strerror(errno) : "write error");
}

/* ---- open, hierarchy ----------------------------------------------------------------- */

fstw_t *fstw_open(const char *path, char *err, size_t errlen) {
    fstw_t *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        if (w) free(w);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    w->timescale = -9;
    snprintf(w->version, sizeof w->version, "tracesim fst_writer");
    w->f = ts_fopen_output(path, "wbu", err, errlen); /* a temporary file renamed over path at close (ts_file.h) */
    if (!w->f) {
        free(w->path);
        free(w);
        return NULL;
    }
    setvbuf(w->f, NULL, _IOFBF, 1 << 16);
    /* the header is written again with its totals at close; this reserves its place */
    uint8_t hdr[1 + HDR_LEN] = {0};
    put_file(w, hdr, sizeof hdr);
    return w;
}

void fstw_set_timescale(fstw_t *w, int exponent) { w->timescale = exponent; }

int fstw_set_timescale_str(fstw_t *w, const char *s) {
    int mult = 0;
    if (!strncmp(s, "100", 3)) {
        mult = 2;
        s += 3;
    } else if (!strncmp(s, "10", 2)) {
        mult = 1;
        s += 2;
    } else if (*s == '1')
        s++;
    else
        return -1;
    while (*s == ' ') s++;
    static const struct {
        const char *u;
        int e;
    } units[] = {
        {"s", 0}, {"ms", -3}, {"us", -6}, {"ns", -9}, {"ps", -12}, {"fs", -15}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(s, units[i].u)) {
            w->timescale = units[i].e + mult;
            return 0;
        }
    return -1;
}

void fstw_set_version(fstw_t *w, const char *text) {
    snprintf(w->version, sizeof w->version, "%s", text);
}

void fstw_scope(fstw_t *w, int scope_type, const char *name, const char *component) {
    b_byte(w, &w->hier, HT_SCOPE);
    b_byte(w, &w->hier, (uint8_t)(scope_type < 0 || scope_type > FSTW_ST_MAX ? FSTW_ST_VCD_MODULE : scope_type));
    b_bytes(w, &w->hier, name ? name : "", strlen(name ? name : "") + 1);
    b_bytes(w, &w->hier, component ? component : "", strlen(component ? component : "") + 1);
    w->nscopes++;
}

void fstw_upscope(fstw_t *w) { b_byte(w, &w->hier, HT_UPSCOPE); }

static void attr_begin(fstw_t *w, int type, int subtype, const char *name, uint64_t arg) {
    b_byte(w, &w->hier, HT_ATTRBEGIN);
    b_byte(w, &w->hier, (uint8_t)type);
    b_byte(w, &w->hier, (uint8_t)subtype);
    b_bytes(w, &w->hier, name, strlen(name) + 1);
    b_varint(w, &w->hier, arg);
}

static int is_real(int vt) {
    return vt == FSTW_VT_VCD_REAL || vt == FSTW_VT_VCD_REAL_PARAMETER ||
           vt == FSTW_VT_VCD_REALTIME || vt == FSTW_VT_SV_SHORTREAL;
}

uint32_t fstw_var(fstw_t *w, int var_type, int direction, uint32_t bits, const char *name,
                  uint32_t alias) {
    if (!name || var_type == FSTW_VT_GEN_STRING || (!bits && !is_real(var_type))) {
        fail(w, "unsupported variable (string or zero width)");
        return 0;
    }
    if (w->tcount || w->have_time) {
        fail(w, "variable declared after the first time point");
        return 0;
    }
    int real = is_real(var_type);
    if (real) bits = 8;
    if (alias > w->nsig) alias = 0;
    b_byte(w, &w->hier, (uint8_t)var_type);
    b_byte(w, &w->hier, (uint8_t)direction);
    b_bytes(w, &w->hier, name, strlen(name) + 1);
    b_varint(w, &w->hier, bits);
    b_varint(w, &w->hier, alias);
    w->nvars++;
    if (alias) return alias;
    if (w->nsig == w->sigcap) {
        uint32_t c = w->sigcap ? w->sigcap * 2 : 64;
        fstw_sig_t *n = realloc(w->sig, c * sizeof *n);
        if (!n) {
            fail(w, "out of memory");
            return 0;
        }
        w->sig = n;
        w->sigcap = c;
    }
    fstw_sig_t *s = &w->sig[w->nsig];
    memset(s, 0, sizeof *s);
    s->kind = real ? K_REAL : bits == 1 ? K_BIT :
                                          K_VEC;
    s->bits = bits;
    s->nbytes = real ? 8 : (bits + 7) / 8;
    s->valpos = (uint32_t)w->frame.len;
    s->shift = (uint8_t)(bits <= 32 ? 32 - bits : bits <= 64 ? 64 - bits :
                                                               0);
    b_varint(w, &w->geom, real ? 0 : bits);
    if (real) {
        double nan = strtod("NaN", NULL); /* a real starts as NaN, not x */
        b_bytes(w, &w->frame, &nan, 8);
    } else if (!buf_room(w, &w->frame, bits)) {
        memset(w->frame.p + w->frame.len, 'x', bits);
        w->frame.len += bits;
    }
    if ((size_t)bits + 16 > w->charscap) {
        uint8_t *c = realloc(w->chars, (size_t)bits + 16);
        if (!c) {
            fail(w, "out of memory");
            return 0;
        }
        w->chars = c;
        w->charscap = (size_t)bits + 16;
    }
    return ++w->nsig;
}

/* the format escapes enum names and values as C strings, octal for the rest */
static void b_escaped(fstw_t *w, buf_t *b, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        const char *e = NULL;
        switch (c) {
        case '\a': e = "\\a"; break;
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        case '\v': e = "\\v"; break;
        case '\'': e = "\\'"; break;
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '?': e = "\\?"; break;
        default: break;
        }
        if (e) b_bytes(w, b, e, 2);
        else if (c > ' ' && c <= '~')
            b_byte(w, b, c);
        else {
            char o[5];
            snprintf(o, sizeof o, "\\%c%c%c", '0' + (c >> 6), '0' + ((c >> 3) & 7), '0' + (c & 7));
            b_bytes(w, b, o, 4);
        }
    }
}

uint32_t fstw_enum_table(fstw_t *w, const char *name, uint32_t count, unsigned min_bits,
                         const char *const *names, const char *const *values) {
    if (!name || !count || !names || !values) return 0;
    buf_t t = {0};
    char num[16];
    b_bytes(w, &t, name, strlen(name));
    snprintf(num, sizeof num, " %u ", (unsigned)count);
    b_bytes(w, &t, num, strlen(num));
    for (uint32_t i = 0; i < count; i++) {
        b_escaped(w, &t, names[i]);
        b_byte(w, &t, ' ');
    }
    for (uint32_t i = 0; i < count; i++) {
        for (size_t n = strlen(values[i]); n < min_bits; n++) b_byte(w, &t, '0');
        b_escaped(w, &t, values[i]);
        b_byte(w, &t, ' ');
    }
    if (t.len) t.p[t.len - 1] = 0;
    uint32_t h = 0;
    if (!w->failed) {
        h = ++w->nenums;
        attr_begin(w, AT_MISC, MT_ENUMTABLE, (const char *)t.p, h);
    }
    free(t.p);
    return h;
}

void fstw_enum_ref(fstw_t *w, uint32_t table) {
    if (table) attr_begin(w, AT_MISC, MT_ENUMTABLE, "", table);
}

/* ---- value changes ------------------------------------------------------------------- */

static int grow(fstw_t *w, fstw_sig_t *s) {
    uint32_t c = s->cap ? s->cap * 2 : 256;
    while (c - s->len < REC_MAX + s->nbytes) c *= 2;
    uint8_t *p = realloc(s->buf, c);
    if (!p) {
        fail(w, "out of memory");
        return -1;
    }
    w->grown += c - s->cap;
    if (w->grown >= BLOCK_LIMIT) w->flush_pending = 1;
    s->buf = p;
    s->cap = c;
    return 0;
}

/* the frame (values at a block's start) keeps one '0'/'1' byte per bit */
static void frame_from_bytes(fstw_t *w, const fstw_sig_t *s, const uint8_t *v) {
    uint8_t *o = w->frame.p + s->valpos;
    if (s->kind == K_REAL) {
        memcpy(o, v, 8);
        return;
    }
    uint8_t *c = w->chars;
    for (uint32_t i = 0; i < s->nbytes; i++)
        for (int b = 7; b >= 0; b--) *c++ = (uint8_t)('0' + ((v[i] >> b) & 1));
    memcpy(o, w->chars, s->bits);
}

static inline fstw_sig_t *sig_at(fstw_t *w, uint32_t h) {
    return h - 1u < w->nsig ? &w->sig[h - 1u] : NULL;
}

/* a record's start: the time delta; returns where the value goes, NULL if out of memory */
static inline uint8_t *rec_start(fstw_t *w, fstw_sig_t *s, uint32_t shift, uint32_t flag) {
    if (__builtin_expect(s->cap - s->len < REC_MAX + s->nbytes, 0) && grow(w, s)) return NULL;
    uint8_t *p = s->buf + s->len;
    uint32_t d = w->tidx - s->last_t;
    s->last_t = w->tidx;
    return put_varint(p, ((uint64_t)d << shift) | flag);
}

static void bit_slow(fstw_t *w, uint32_t h, unsigned v);

void fstw_bit(fstw_t *w, uint32_t h, unsigned v) {
    fstw_sig_t *s = sig_at(w, h);
    if (!s) return;
    uint32_t len = s->len;
    if (__builtin_expect(s->fast != F1 || s->cap - len < REC_MAX, 0)) {
        bit_slow(w, h, v);
        return;
    }
    uint64_t d = (uint64_t)(w->tidx - s->last_t) << 2 | (v & 1) << 1;
    uint8_t *p = s->buf + len;
    s->last_t = w->tidx;
    if (d < 0x80) *p++ = (uint8_t)d;
    else
        p = put_varint(p, d);
    s->last = v & 1;
    s->len = (uint32_t)(p - s->buf);
}

__attribute__((noinline)) static void bit_slow(fstw_t *w, uint32_t h, unsigned v) {
    fstw_sig_t *s = sig_at(w, h);
    if (s->kind != K_BIT) {
        fstw_u32(w, h, v);
        return;
    }
    v &= 1;
    if (__builtin_expect(!w->have_time, 0)) {
        w->frame.p[s->valpos] = (uint8_t)('0' + v);
        return;
    }
    uint8_t *p = rec_start(w, s, 2, v << 1);
    if (!p) return;
    s->last = v;
    s->len = (uint32_t)(p - s->buf);
}

static void put_vec(fstw_t *w, fstw_sig_t *s, const uint8_t *be) {
    if (!w->have_time) {
        frame_from_bytes(w, s, be);
        return;
    }
    uint8_t *p = rec_start(w, s, 1, 0);
    if (!p) return;
    s->last = (uint32_t)(p - s->buf);
    memcpy(p, be, s->nbytes);
    s->len = s->last + s->nbytes;
}

static void u32_slow(fstw_t *w, uint32_t h, uint32_t v);

/* the short path: a variable of at most 32 bits with room for the record, time running */
void fstw_u32(fstw_t *w, uint32_t h, uint32_t v) {
    fstw_sig_t *s = sig_at(w, h);
    if (!s) return;
    uint32_t len = s->len;
    if (__builtin_expect(s->fast != F32 || s->cap - len < REC_MAX + 4, 0)) {
        u32_slow(w, h, v);
        return;
    }
    uint64_t d = (uint64_t)(w->tidx - s->last_t) << 1;
    uint8_t *p = s->buf + len;
    s->last_t = w->tidx;
    if (d < 0x80) *p++ = (uint8_t)d;
    else
        p = put_varint(p, d);
    uint32_t x = be32(v << s->shift); /* left-aligned, most significant byte first */
    memcpy(p, &x, 4);                 /* nbytes of it count; REC_MAX keeps room */
    s->last = (uint32_t)(p - s->buf);
    s->len = s->last + s->nbytes;
}

__attribute__((noinline)) static void u32_slow(fstw_t *w, uint32_t h, uint32_t v) {
    fstw_sig_t *s = sig_at(w, h);
    if (__builtin_expect(s->kind != K_VEC || s->bits > 32 || !w->have_time, 0)) {
        if (s->kind == K_BIT) {
            fstw_bit(w, h, v & 1);
            return;
        }
        if (s->kind == K_REAL) return;
        if (s->bits > 32) {
            fstw_u64(w, h, v);
            return;
        }
        uint32_t x = be32(v << (32 - s->bits));
        put_vec(w, s, (const uint8_t *)&x);
        return;
    }
    uint8_t *p = rec_start(w, s, 1, 0);
    if (!p) return;
    uint32_t x = be32(v << (32 - s->bits)); /* left-aligned, most significant byte first */
    memcpy(p, &x, 4);                       /* nbytes of it count; REC_MAX keeps room */
    s->last = (uint32_t)(p - s->buf);
    s->len = s->last + s->nbytes;
}

void fstw_u64(fstw_t *w, uint32_t h, uint64_t v) {
    fstw_sig_t *s = sig_at(w, h);
    if (!s) return;
    uint32_t len = s->len;
    if (__builtin_expect(s->fast == F64 && s->cap - len >= REC_MAX + 8, 1)) {
        uint64_t d = (uint64_t)(w->tidx - s->last_t) << 1;
        uint8_t *p = s->buf + len;
        s->last_t = w->tidx;
        if (d < 0x80) *p++ = (uint8_t)d;
        else
            p = put_varint(p, d);
        uint64_t x = be64(v << s->shift);
        memcpy(p, &x, 8);
        s->last = (uint32_t)(p - s->buf);
        s->len = s->last + s->nbytes;
        return;
    }
    if (s->kind != K_VEC || s->bits <= 32) {
        fstw_u32(w, h, (uint32_t)v);
        return;
    }
    if (s->bits > 64) {
        uint32_t words[3] = {(uint32_t)v, (uint32_t)(v >> 32), 0};
        if (s->bits <= 96) {
            fstw_words(w, h, words);
            return;
        }
        fail(w, "fstw_u64 on a variable wider than 96 bits");
        return;
    }
    uint64_t x = be64(v << (64 - s->bits));
    if (__builtin_expect(!w->have_time, 0)) {
        put_vec(w, s, (const uint8_t *)&x);
        return;
    }
    uint8_t *p = rec_start(w, s, 1, 0);
    if (!p) return;
    memcpy(p, &x, 8);
    s->last = (uint32_t)(p - s->buf);
    s->len = s->last + s->nbytes;
}

void fstw_words(fstw_t *w, uint32_t h, const uint32_t *v) {
    fstw_sig_t *s = sig_at(w, h);
    if (!s) return;
    if (s->kind != K_VEC) {
        fstw_u32(w, h, v[0]);
        return;
    }
    if (s->bits <= 32) {
        fstw_u32(w, h, v[0]);
        return;
    }
    if (s->bits <= 64) {
        fstw_u64(w, h, v[0] | (uint64_t)v[1] << 32);
        return;
    }
    if (!w->have_time) {
        /* rare: an initial value of a wide variable; written through the chars scratch */
        for (uint32_t j = 0; j < s->bits; j++) {
            uint32_t b = s->bits - 1 - j;
            w->frame.p[s->valpos + j] = (uint8_t)('0' + ((v[b >> 5] >> (b & 31)) & 1));
        }
        return;
    }
    uint8_t *p = rec_start(w, s, 1, 0);
    if (!p) return;
    /* nbytes bytes of the value shifted left by sh, most significant first, word by word */
    uint32_t sh = s->nbytes * 8 - s->bits, nw = (s->bits + 31) / 32;
    s->last = (uint32_t)(p - s->buf);
    for (uint32_t i = 0; i < s->nbytes; i++) {
        int lo = (int)((s->nbytes - 1 - i) * 8) - (int)sh; /* the byte's lowest value bit */
        uint64_t x;
        if (lo < 0) {
            x = (uint64_t)v[0] << -lo;
        } else {
            uint32_t wi = (uint32_t)lo >> 5, off = (uint32_t)lo & 31;
            x = v[wi];
            if (wi + 1 < nw) x |= (uint64_t)v[wi + 1] << 32;
            x >>= off;
        }
        /* bits above the width are not part of the value */
        int over = lo + 8 - (int)s->bits;
        uint8_t byte = (uint8_t)x;
        if (over > 0) byte &= (uint8_t)(0xffu >> over);
        p[i] = byte;
    }
    s->len = s->last + s->nbytes;
}

void fstw_double(fstw_t *w, uint32_t h, double v) {
    fstw_sig_t *s = sig_at(w, h);
    if (!s || s->kind != K_REAL) return;
    if (!w->have_time) {
        memcpy(w->frame.p + s->valpos, &v, 8);
        return;
    }
    uint8_t *p = rec_start(w, s, 1, 1);
    if (!p) return;
    s->last = (uint32_t)(p - s->buf);
    memcpy(p, &v, 8);
    s->len = s->last + 8;
}

/* ---- blocks -------------------------------------------------------------------------- */

/* deflate into w->out through a kept stream (no allocation per block); -1 if not smaller */
static long deflate_into(fstw_t *w, z_stream *z, int *ok, int level, const uint8_t *src, size_t n) {
    if (!*ok) {
        memset(z, 0, sizeof *z);
        /* a small window and hash: each reset clears the hash table (64 KiB by default) */
        if (deflateInit2(z, level, Z_DEFLATED, 12, 4, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
        *ok = 1;
    } else if (deflateReset(z) != Z_OK)
        return -1;
    size_t bound = deflateBound(z, (uLong)n);
    if (buf_room(w, &w->out, bound)) return -1;
    z->next_in = (Bytef *)src;
    z->avail_in = (uInt)n;
    z->next_out = w->out.p + w->out.len;
    z->avail_out = (uInt)bound;
    if (deflate(z, Z_FINISH) != Z_STREAM_END) return -1;
    return (long)z->total_out < (long)n ? (long)z->total_out : -1;
}

/* stores `n` bytes of src compressed (zlib) if that is smaller, as (uncompressed len,
 * stored len, data) with the two lengths written by `lens` (varints before, u64 after) */
static void put_zsection(fstw_t *w, z_stream *z, int *ok, int level, const uint8_t *src, size_t n,
                         int lens_after, uint64_t count) {
    if (!lens_after) {
        /* varint lengths precede the data: compress to a scratch position first */
        size_t at = w->out.len;
        long c = deflate_into(w, z, ok, level, src, n);
        size_t stored = c > 0 ? (size_t)c : n;
        uint8_t hdr[30], *q = hdr;
        q = put_varint(q, n);
        q = put_varint(q, stored);
        q = put_varint(q, w->nsig);
        size_t hl = (size_t)(q - hdr);
        if (buf_room(w, &w->out, hl + n)) return;
        if (c > 0) memmove(w->out.p + at + hl, w->out.p + at, stored);
        else if (n)
            memcpy(w->out.p + at + hl, src, n);
        memcpy(w->out.p + at, hdr, hl);
        w->out.len = at + hl + stored;
        return;
    }
    long c = deflate_into(w, z, ok, level, src, n);
    size_t stored = c > 0 ? (size_t)c : n;
    if (c > 0) w->out.len += stored;
    else
        b_bytes(w, &w->out, src, n);
    b_u64(w, &w->out, n);
    b_u64(w, &w->out, stored);
    b_u64(w, &w->out, count);
}

static uint64_t hash_bytes(const uint8_t *p, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    while (n >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        h = (h ^ x) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    while (n--) h = (h ^ *p++) * 0x100000001b3ull;
    h ^= h >> 32;
    return h;
}

static int dedup_prepare(fstw_t *w) {
    uint32_t want = 16;
    while (want < 2 * w->nsig) want *= 2;
    if (want - 1 != w->dedup_mask || !w->dedup) {
        free(w->dedup);
        if (!(w->dedup = malloc(want * sizeof *w->dedup))) {
            fail(w, "out of memory");
            return -1;
        }
        w->dedup_mask = want - 1;
    }
    memset(w->dedup, 0, want * sizeof *w->dedup);
    return 0;
}

/* writes the block of time points [0, tcount) and starts the next one */
static void write_block(fstw_t *w) {
    buf_t *o = &w->out;
    o->len = 0;
    if (w->failed || !w->lz4 || dedup_prepare(w) || buf_room(w, o, 64)) {
        fail(w, "out of memory");
        return;
    }
    o->p[0] = BL_VCDATA_DYN_ALIAS2;
    o->len = 1 + 32; /* length, begin, end, memory: filled in below */
    put_zsection(w, &w->zframe, &w->zframe_ok, 4, w->frame.p, w->frame.len, 0, 0);
    b_varint(w, o, w->nsig);
    size_t vc_start = o->len;
    b_byte(w, o, '4'); /* chains packed with LZ4 */
    uint64_t memreq = 0;
    uint32_t mask = w->dedup_mask;
    for (uint32_t i = 0; i < w->nsig; i++) {
        fstw_sig_t *s = &w->sig[i];
        s->pos = 0;
        if (!s->len) continue;
        memreq += s->len;
        size_t at = o->len;
        if (buf_room(w, o, 10 + (size_t)LZ4_compressBound((int)s->len))) return;
        int c = 0;
        if (s->len > RAW_MAX) {
            LZ4_resetStream_fast(w->lz4);
            uint8_t *dst = o->p + at + 5;
            c = LZ4_compress_fast_continue(w->lz4, (const char *)s->buf, (char *)dst, (int)s->len,
                                           LZ4_compressBound((int)s->len), 1);
            if (c > 0 && (uint32_t)c < s->len) {
                uint8_t hdr[5];
                size_t hl = (size_t)(put_varint(hdr, s->len) - hdr);
                memmove(o->p + at + hl, dst, (size_t)c);
                memcpy(o->p + at, hdr, hl);
                o->len = at + hl + (size_t)c;
            } else
                c = 0;
        }
        if (!c) {
            o->p[at] = 0;
            memcpy(o->p + at + 1, s->buf, s->len);
            o->len = at + 1 + s->len;
        }
        /* the same bytes as an earlier variable's chain: point at that one instead */
        size_t n = o->len - at;
        uint64_t hv = hash_bytes(o->p + at, n);
        uint32_t k = (uint32_t)hv & mask;
        for (;;) {
            uint32_t e = w->dedup[k];
            if (!e) {
                w->dedup[k] = i + 1;
                s->pos = (int32_t)(at - vc_start);
                break;
            }
            const fstw_sig_t *t = &w->sig[e - 1];
            if (t->slen == n && !memcmp(o->p + (size_t)t->pos + vc_start, o->p + at, n)) {
                o->len = at;
                s->pos = -(int32_t)e;
                break;
            }
            k = (k + 1) & mask;
        }
        s->slen = (uint32_t)n;
    }
    /* position table: runs of unchanged variables, offsets as deltas, aliases */
    size_t indx = o->len;
    uint32_t zeros = 0;
    int64_t prevpos = 0;
    int32_t prev_alias = 0;
    for (uint32_t i = 0; i < w->nsig; i++) {
        fstw_sig_t *s = &w->sig[i];
        if (!s->len) {
            zeros++;
            continue;
        }
        if (buf_room(w, o, 32)) return;
        uint8_t *p = o->p + o->len;
        if (zeros) {
            p = put_varint(p, (uint64_t)zeros << 1);
            zeros = 0;
        }
        if (s->pos < 0) {
            p = put_svarint(p, s->pos == prev_alias ? 1 : ((int64_t)s->pos * 2) | 1);
            prev_alias = s->pos;
        } else {
            p = put_svarint(p, ((s->pos - prevpos) * 2) | 1);
            prevpos = s->pos;
        }
        o->len = (size_t)(p - o->p);
    }
    if (zeros) b_varint(w, o, (uint64_t)zeros << 1);
    b_u64(w, o, o->len - indx);
    put_zsection(w, &w->ztime, &w->ztime_ok, 9, w->times.p, w->times.len, 1, w->tcount);
    if (w->failed) return;
    uint8_t *h = o->p + 1;
    h = put_u64(h, o->len - 1);
    h = put_u64(h, w->block_beg);
    h = put_u64(h, w->cur_time);
    put_u64(h, memreq);
    put_file(w, o->p, o->len);
    w->nblocks++;
    /* the next block starts from the last values and the last time point */
    for (uint32_t i = 0; i < w->nsig; i++) {
        fstw_sig_t *s = &w->sig[i];
        if (!s->len) continue;
        if (s->kind == K_BIT) w->frame.p[s->valpos] = (uint8_t)('0' + s->last);
        else
            frame_from_bytes(w, s, s->buf + s->last);
        s->len = 0;
        s->last_t = 0;
    }
    w->grown = 0;
    w->times.len = 0;
    b_varint(w, &w->times, w->cur_time);
    w->tcount = 1;
    w->tidx = 0;
    w->block_beg = w->cur_time;
}

void fstw_time(fstw_t *w, uint64_t t) {
    if (!w->have_time) {
        if (!w->lz4 && !(w->lz4 = LZ4_createStream())) fail(w, "out of memory");
        w->have_time = 1;
        for (uint32_t i = 0; i < w->nsig; i++) { /* the emit functions' short paths */
            fstw_sig_t *s = &w->sig[i];
            s->fast = s->kind == K_BIT ? F1 : s->kind == K_REAL ? F_NONE :
                                          s->bits <= 32         ? F32 :
                                          s->bits <= 64         ? F64 :
                                                                  F_NONE;
        }
        w->first_time = w->block_beg = w->cur_time = t;
        w->times.len = 0;
        b_varint(w, &w->times, t);
        w->tcount = 1;
        w->tidx = 0;
        return;
    }
    if (t <= w->cur_time) return;
    if (w->flush_pending && w->tcount > 1) write_block(w);
    w->flush_pending = 0;
    if (__builtin_expect(w->times.cap - w->times.len < 10, 0) && buf_room(w, &w->times, 10)) return;
    w->times.len = (size_t)(put_varint(w->times.p + w->times.len, t - w->cur_time) - w->times.p);
    w->tcount++;
    w->tidx++;
    w->cur_time = t;
}

void fstw_flush(fstw_t *w) { w->flush_pending = 1; }

int fstw_failed(const fstw_t *w) { return w->failed; }

/* ---- close --------------------------------------------------------------------------- */

static void write_geometry(fstw_t *w) {
    uLongf clen = compressBound((uLong)w->geom.len);
    uint8_t *c = malloc(clen ? clen : 1);
    const uint8_t *data = w->geom.p;
    size_t n = w->geom.len;
    if (c && compress2(c, &clen, w->geom.p, (uLong)w->geom.len, 9) == Z_OK && clen < w->geom.len) {
        data = c;
        n = clen;
    }
    uint8_t hdr[25], *p = hdr;
    *p++ = BL_GEOM;
    p = put_u64(p, n + 24);
    p = put_u64(p, w->geom.len);
    put_u64(p, w->nsig);
    put_file(w, hdr, sizeof hdr);
    put_file(w, data, n);
    free(c);
}

static void write_hierarchy(fstw_t *w) {
    int bound = LZ4_compressBound((int)w->hier.len);
    uint8_t *c = malloc((size_t)bound + 1);
    if (!c) {
        fail(w, "out of memory");
        return;
    }
    int n = w->hier.len ? LZ4_compress_default((const char *)w->hier.p, (char *)c, (int)w->hier.len, bound) : 0;
    if (w->hier.len && n <= 0) {
        free(c);
        fail(w, "LZ4 failed on the hierarchy");
        return;
    }
    uint8_t hdr[17], *p = hdr;
    *p++ = BL_HIER_LZ4;
    p = put_u64(p, (uint64_t)n + 16);
    put_u64(p, w->hier.len);
    put_file(w, hdr, sizeof hdr);
    put_file(w, c, (size_t)n);
    free(c);
}

static void write_header(fstw_t *w) {
    uint8_t h[1 + HDR_LEN] = {0}, *p = h;
    *p++ = BL_HDR;
    p = put_u64(p, HDR_LEN);
    p = put_u64(p, w->first_time);
    p = put_u64(p, w->cur_time);
    double e = 2.7182818284590452354; /* the format's check of the reals' byte order */
    memcpy(p, &e, 8);
    p += 8;
    p = put_u64(p, BLOCK_LIMIT); /* memory the writer may use for a block */
    p = put_u64(p, w->nscopes);
    p = put_u64(p, w->nvars);
    p = put_u64(p, w->nsig);
    p = put_u64(p, w->nblocks);
    *p++ = (uint8_t)(int8_t)w->timescale;
    memcpy(p, w->version, strlen(w->version));
    p += 128;
    /* the date, as asctime() prints it; SOURCE_DATE_EPOCH (UTC) makes files reproducible */
    time_t now = time(NULL);
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    struct tm tmv, *tm;
    if (sde && *sde) {
        now = (time_t)strtoll(sde, NULL, 10);
        tm = gmtime_r(&now, &tmv);
    } else
        tm = localtime_r(&now, &tmv);
    char date[128] = "";
    if (tm) strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y\n", tm);
    memcpy(p, date, strlen(date) < 118 ? strlen(date) : 118);
    p += 119;
    *p++ = 0;      /* file type: Verilog */
    put_u64(p, 0); /* time zero */
    if (w->failed) return;
    if (fseek(w->f, 0, SEEK_SET)) {
        fail(w, strerror(errno));
        return;
    }
    put_file(w, h, sizeof h);
}

/* no time point ever: the initial values become changes at time 0 (a reader shows a
 * block's frame only when the block starts before its first time point) */
static void initial_values_at_zero(fstw_t *w) {
    fstw_time(w, 0);
    for (uint32_t i = 0; i < w->nsig; i++) {
        fstw_sig_t *s = &w->sig[i];
        const uint8_t *f = w->frame.p + s->valpos;
        if (s->kind == K_REAL) {
            double d;
            memcpy(&d, f, 8);
            fstw_double(w, i + 1, d);
            continue;
        }
        uint32_t j = 0;
        while (j < s->bits && (f[j] == '0' || f[j] == '1')) j++;
        if (j < s->bits) continue; /* never set (x): nothing to show */
        uint8_t *p = rec_start(w, s, s->kind == K_BIT ? 2 : 1, s->kind == K_BIT ? (uint32_t)(f[0] - '0') << 1 : 0);
        if (!p) return;
        if (s->kind == K_BIT) {
            s->last = (uint32_t)(f[0] - '0');
            s->len = (uint32_t)(p - s->buf);
            continue;
        }
        memset(p, 0, s->nbytes);
        for (j = 0; j < s->bits; j++) p[j >> 3] |= (uint8_t)((f[j] - '0') << (7 - (j & 7)));
        s->last = (uint32_t)(p - s->buf);
        s->len = s->last + s->nbytes;
    }
}

int fstw_close(fstw_t *w, char *err, size_t errlen) {
    if (!w) return 0;
    if (!w->have_time) initial_values_at_zero(w);
    if (w->nblocks == 0 || w->tcount > 1) write_block(w);
    write_geometry(w);
    write_hierarchy(w);
    write_header(w);
    char cerr[512];
    if (w->failed) ts_output_abort(w->f); /* nothing half-written under the name */
    else if (ts_fclose_output(w->f, w->path, cerr, sizeof cerr))
        fail(w, strerror(errno));
    int rc = w->failed ? -1 : 0;
    if (rc && err && errlen) snprintf(err, errlen, "%s", w->msg);
    for (uint32_t i = 0; i < w->nsig; i++) free(w->sig[i].buf);
    free(w->sig);
    free(w->hier.p);
    free(w->frame.p);
    free(w->times.p);
    free(w->out.p);
    free(w->geom.p);
    free(w->dedup);
    free(w->chars);
    if (w->lz4) LZ4_freeStream(w->lz4);
    if (w->zframe_ok) deflateEnd(&w->zframe);
    if (w->ztime_ok) deflateEnd(&w->ztime);
    free(w->path);
    free(w);
    return rc;
}
