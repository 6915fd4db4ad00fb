/* fmt_fast.h - hand-written number formatters for the decoder's per-message and per-record
 * output paths (`tracesim decode`: messages, csv, perf): the printf family parses its format
 * string on every call and was most of the decode command's time. Each writes into a caller's
 * buffer and returns the end of what it wrote (no terminating NUL); the output is the same
 * bytes as the printf conversion named beside each. */
#ifndef TS_FMT_FAST_H
#define TS_FMT_FAST_H
#include <stdint.h>
#include <string.h>

/* the number of decimal digits of v (1..20): from its bit length, one table compare */
static inline unsigned fmt_u64_digits(uint64_t v) {
    static const uint64_t p10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
                                     100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
                                     1000000000000ull, 10000000000000ull, 100000000000000ull,
                                     1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
                                     1000000000000000000ull, 10000000000000000000ull};
    unsigned t = ((64u - (unsigned)__builtin_clzll(v | 1)) * 1233u) >> 12;   /* floor(bits * log10 2) */
    return t + (v >= p10[t]);
}

/* "%" PRIu64: at most 20 characters, written from the last digit back: 8 digits a step while
 * the value needs 64 bits, then two digits a step in 32-bit arithmetic */
static inline char *fmt_u64(char *p, uint64_t v) {
    static const char d2[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    if (v < 10) { *p = (char)('0' + v); return p + 1; }
    char *e = p + fmt_u64_digits(v), *q = e;
    while (v >= 100000000u) {                 /* the low 8 digits */
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
    else q[-1] = (char)('0' + x);
    return e;
}

/* "%" PRId64: at most 20 characters */
static inline char *fmt_i64(char *p, int64_t v) {
    if (v < 0) { *p++ = '-'; return fmt_u64(p, (uint64_t)0 - (uint64_t)v); }
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
