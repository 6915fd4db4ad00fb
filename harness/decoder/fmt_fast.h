/* fmt_fast.h - hand-written number formatters for the decoder's per-message and per-record
 * output paths (`tracesim decode`: messages, csv, perf): the printf family parses its format
 * string on every call and was most of the decode command's time. Each writes into a caller's
 * buffer and returns the end of what it wrote (no terminating NUL); the output is the same
 * bytes as the printf conversion named beside each. */
#ifndef TS_FMT_FAST_H
#define TS_FMT_FAST_H
#include <stdint.h>
#include <string.h>

/* "%" PRIu64: at most 20 characters (two digits a step) */
static inline char *fmt_u64(char *p, uint64_t v) {
    static const char d2[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    if (v < 10) { *p = (char)('0' + v); return p + 1; }
    char t[20];
    int n = 20;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        t[--n] = d2[2 * r + 1];
        t[--n] = d2[2 * r];
    }
    if (v >= 10) { t[--n] = d2[2 * v + 1]; t[--n] = d2[2 * v]; }
    else t[--n] = (char)('0' + v);
    memcpy(p, t + n, (size_t)(20 - n));
    return p + (20 - n);
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
