/* fmt_fast.h - hand-written number formatters for the decoder's per-message and per-record
 * output paths (`tracesim decode`: messages, csv, perf): the printf family parses its format
 * string on every call and was most of the decode command's time. Each writes into a caller's
 * buffer and returns the end of what it wrote (no terminating NUL); the output is the same
 * bytes as the printf conversion named beside each. */
#ifndef TS_FMT_FAST_H
#define TS_FMT_FAST_H
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* the number of decimal digits of v (1..20): from its bit length, one table compare */
static inline unsigned fmt_u64_digits(uint64_t v) {
    static const uint64_t p10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
                                     100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
                                     1000000000000ull, 10000000000000ull, 100000000000000ull,
                                     1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
                                     1000000000000000000ull, 10000000000000000000ull};
    unsigned t = ((64u - (unsigned)__builtin_clzll(v | 1)) * 1233u) >> 12; /* floor(bits * log10 2) */
    return t + (v >= p10[t]);
}

/* "%" PRIu64: at most 20 characters, written from the last digit back: 8 digits a step while
 * the value needs 64 bits, then two digits a step in 32-bit arithmetic */
static inline char *fmt_u64(char *p, uint64_t v) {
    static const char d2[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    char *e = p + fmt_u64_digits(v), *q = e;
    while (v >= 100000000u) { /* the low 8 digits */
        uint64_t h = v / 100000000u;
        uint32_t lo = (uint32_t)(v - h * 100000000u);
        for (int k = 0; k < 4; k++) {
            uint32_t h2 = lo / 100;
            q -= 2;
            memcpy(q, d2 + 2 * (lo - 100 * h2), 2);
            lo = h2;
        }
        v = h;
    }
    uint32_t x = (uint32_t)v;
    while (x >= 100) {
        uint32_t h = x / 100;
        q -= 2;
        memcpy(q, d2 + 2 * (x - 100 * h), 2);
        x = h;
    }
    if (x >= 10) memcpy(q - 2, d2 + 2 * x, 2);
    else
        q[-1] = (char)('0' + x);
    return e;
}

/* v (< 10^8) as 8 decimal digits, all 8 computed at once in one word (SWAR): split into two
 * 4-digit halves (32-bit lanes), each into two 2-digit quarters (16-bit lanes, /100 as
 * *10486 >> 20, exact below 10^4), each into two digits (bytes, /10 as *103 >> 10, exact
 * below 100). Returns the digit values (0..9) with the most significant in the low byte,
 * i.e. first in memory on a little-endian host. */
static inline uint64_t fmt_8digits(uint32_t v) {
    uint64_t m = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t q = ((m * 10486) >> 20) & 0x0000007F0000007Full;
    m = q | (m - q * 100) << 16;
    q = ((m * 103) >> 10) & 0x000F000F000F000Full;
    return q | (m - q * 10) << 8;
}

/* fmt_8digits of two values at once (a, b < 10^8): with SSE2 in the lanes of one register
 * (the same three steps: 4-digit halves by a 32x32 multiply, 2-digit quarters and digits in
 * 16-bit lanes with the exact reciprocals 5243 >> 19 and 6554 >> 16), else one after the other */
static inline void fmt_8digits_pair(uint32_t a, uint32_t b, uint64_t *da, uint64_t *db) {
#if defined(__SSE2__)
    __m128i x = _mm_set_epi64x((long long)b, (long long)a);
    __m128i hi = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int)0xD1B71759u)), 45); /* v / 10^4 */
    __m128i lo = _mm_sub_epi32(x, _mm_mul_epu32(hi, _mm_set1_epi32(10000)));             /* v % 10^4 */
    __m128i g = _mm_or_si128(hi, _mm_slli_epi64(lo, 32));                                /* 32-bit lanes: a/10^4, a%10^4, b/10^4, b%10^4 */
    __m128i q = _mm_srli_epi16(_mm_mulhi_epu16(g, _mm_set1_epi16(5243)), 3);             /* / 100 */
    __m128i r = _mm_sub_epi16(g, _mm_mullo_epi16(q, _mm_set1_epi16(100)));
    g = _mm_or_si128(q, _mm_slli_epi32(r, 16));   /* 16-bit lanes: the 2-digit quarters in order */
    q = _mm_mulhi_epu16(g, _mm_set1_epi16(6554)); /* / 10 */
    r = _mm_sub_epi16(g, _mm_mullo_epi16(q, _mm_set1_epi16(10)));
    g = _mm_or_si128(q, _mm_slli_epi16(r, 8)); /* bytes: the digits, most significant first */
    *da = (uint64_t)_mm_cvtsi128_si64(g);
    *db = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(g, g));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "SSE2 on a big-endian host"
#endif
#else
    *da = fmt_8digits(a);
    *db = fmt_8digits(b);
#endif
}

/* 8 bytes of a word at p, low byte first */
static inline void fmt_put8(char *p, uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

/* the digits d of fmt_8digits (or _pair) at p without their leading zeros (at least one
 * digit: 0 is "0"): writes 8 bytes, returns the end */
static inline char *fmt_put_digits8(char *p, uint64_t d) {
    unsigned lz = (unsigned)__builtin_ctzll(d | 1ull << 56) >> 3;
    fmt_put8(p, (d + 0x3030303030303030ull) >> (8 * lz));
    return p + 8 - lz;
}

/* the 100 two-digit pairs "00".."99"; below 10 the pair's first byte is the single digit
 * ("0".."9" followed by a spare byte), so v < 100 is one 2-byte copy and a length of 1 or 2 */
static inline const char *fmt_d2_lead(void) {
    static const char t[200] =
        "0_1_2_3_4_5_6_7_8_9_101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    return t;
}

/* "%" PRIu64 like fmt_u64, for hot paths with room: writes up to 24 bytes at p (the bytes
 * after the returned end are scratch), without a loop or a branch per digit: below 100 one
 * table pair; below 10^8 the 8 digits at once (fmt_8digits), leading zeros cut with one
 * count; below 10^10 (every 32-bit value) one pair and 8 digits; above, 8-digit groups */
static inline char *fmt_u64_room24(char *p, uint64_t v) {
    if (v < 100) {
        memcpy(p, fmt_d2_lead() + 2 * v, 2);
        return p + 1 + (v >= 10);
    }
    if (v < 100000000u) {
        uint64_t d = fmt_8digits((uint32_t)v);
        unsigned lz = (unsigned)__builtin_ctzll(d) >> 3; /* leading zero digits: d's low zero bytes */
        fmt_put8(p, (d + 0x3030303030303030ull) >> (8 * lz));
        return p + 8 - lz;
    }
    if (v < 10000000000ull) { /* 9 or 10 digits: 1 or 2, then 8 */
        uint32_t h = (uint32_t)(v / 100000000u);
        memcpy(p, fmt_d2_lead() + 2 * h, 2);
        p += 1 + (h >= 10);
        fmt_put8(p, fmt_8digits((uint32_t)(v - (uint64_t)h * 100000000u)) + 0x3030303030303030ull);
        return p + 8;
    }
    uint64_t d, lo, mid = 0;
    int full = 1; /* 8-digit groups after the first */
    lo = fmt_8digits((uint32_t)(v % 100000000u));
    v /= 100000000u;
    if (v >= 100000000u) {
        mid = lo;
        lo = fmt_8digits((uint32_t)(v % 100000000u));
        v /= 100000000u;
        full = 2;
    }
    d = fmt_8digits((uint32_t)v); /* the leading group, without its leading zeros */
    unsigned lz = (unsigned)__builtin_ctzll(d) >> 3;
    fmt_put8(p, (d + 0x3030303030303030ull) >> (8 * lz));
    p += 8 - lz;
    if (full == 2) {
        fmt_put8(p, lo + 0x3030303030303030ull);
        p += 8;
        lo = mid;
    }
    fmt_put8(p, lo + 0x3030303030303030ull);
    return p + 8;
}

/* A decimal counter that counts up by one in its text: "%" PRIu64 of the count without a
 * division (the messages' "n"). The digits end at d[FMT_CTR_END]; the bytes before the
 * leading digit are '0', so a carry into a new leading digit needs no test. */
#define FMT_CTR_END 40
typedef struct fmt_ctr {
    char d[FMT_CTR_END + 24];
    unsigned len;
} fmt_ctr_t;

/* the counter at 0 */
static inline void fmt_ctr_init(fmt_ctr_t *c) {
    memset(c->d, '0', sizeof c->d);
    c->len = 1;
}

/* the counter at v (a decode in parts starts each part's count where the one before ends) */
static inline void fmt_ctr_set(fmt_ctr_t *c, uint64_t v) {
    memset(c->d, '0', sizeof c->d);
    char *q = c->d + FMT_CTR_END;
    do {
        *--q = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    c->len = (unsigned)(c->d + FMT_CTR_END - q);
}

/* +1: the trailing 9s become 0s and the digit before them counts up */
static inline void fmt_ctr_inc(fmt_ctr_t *c) {
    char *q = c->d + FMT_CTR_END - 1;
    while (*q == '9') *q-- = '0';
    ++*q;
    unsigned n = (unsigned)(c->d + FMT_CTR_END - q);
    if (n > c->len) c->len = n;
}

/* the count's digits at p: writes 24 bytes (the bytes after the returned end are scratch);
 * counts of more than 24 digits cannot occur (a 64-bit count has at most 20) */
static inline char *fmt_ctr_put(char *p, const fmt_ctr_t *c) {
    memcpy(p, c->d + FMT_CTR_END - c->len, 24);
    return p + c->len;
}

/* "%02x:" of each of n bytes, the last without its ':' (n >= 1): each byte's 4-byte entry
 * of hex3 ("hh:" and a spare byte, fmt_hex3_init) copied whole, the next overwriting the
 * spare; up to 16 bytes straight-line (one jump), more in a loop. Writes 3 * n + 1 bytes. */
static inline void fmt_hex3_init(uint32_t hex3[256]) {
    static const char hx[] = "0123456789abcdef";
    for (unsigned b = 0; b < 256; b++) {
        char e[4] = {hx[b >> 4], hx[b & 15], ':', 0};
        memcpy(&hex3[b], e, 4);
    }
}
static inline char *fmt_hex3_bytes(char *p, const uint8_t *b, uint32_t n, const uint32_t hex3[256]) {
    if (n > 16) {
        for (uint32_t i = 0; i < n; i++) memcpy(p + 3 * i, &hex3[b[i]], 4);
        return p + 3 * n - 1;
    }
    /* entered at case n, the first byte first (a byte's spare is overwritten by the next):
     * byte n - k at e - 3k, with e and be at the ends */
    char *e = p + 3 * n;
    const uint8_t *be = b + n;
#define FMT_HEX3(k) memcpy(e - 3 * (k), &hex3[be[-(k)]], 4)
    switch (n) {
    case 16: FMT_HEX3(16); /* fall through */
    case 15: FMT_HEX3(15); /* fall through */
    case 14: FMT_HEX3(14); /* fall through */
    case 13: FMT_HEX3(13); /* fall through */
    case 12: FMT_HEX3(12); /* fall through */
    case 11: FMT_HEX3(11); /* fall through */
    case 10: FMT_HEX3(10); /* fall through */
    case 9: FMT_HEX3(9);   /* fall through */
    case 8: FMT_HEX3(8);   /* fall through */
    case 7: FMT_HEX3(7);   /* fall through */
    case 6: FMT_HEX3(6);   /* fall through */
    case 5: FMT_HEX3(5);   /* fall through */
    case 4: FMT_HEX3(4);   /* fall through */
    case 3: FMT_HEX3(3);   /* fall through */
    case 2: FMT_HEX3(2);   /* fall through */
    case 1: FMT_HEX3(1); break;
    default: return p;
    }
#undef FMT_HEX3
    return e - 1;
}

/* "%" PRId64: at most 20 characters */
static inline char *fmt_i64(char *p, int64_t v) {
    if (v < 0) {
        *p++ = '-';
        return fmt_u64(p, (uint64_t)0 - (uint64_t)v);
    }
    return fmt_u64(p, (uint64_t)v);
}

/* "%02x" of a byte */
static inline char *fmt_hex2(char *p, unsigned b) {
    static const char hx[] = "0123456789abcdef";
    p[0] = hx[(b >> 4) & 15];
    p[1] = hx[b & 15];
    return p + 2;
}

/* "%0*" PRIx64 with at least `width` digits (1..16): at most 16 characters */
static inline char *fmt_hex(char *p, uint64_t v, int width) {
    static const char hx[] = "0123456789abcdef";
    int n = 1;
    while (n < 16 && (v >> (4 * n))) n++;
    if (n < width) n = width;
    for (int i = n - 1; i >= 0; i--) *p++ = hx[(v >> (4 * i)) & 15];
    return p;
}

/* "%s" */
static inline char *fmt_str(char *p, const char *s) {
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}
#endif
