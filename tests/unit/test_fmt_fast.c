/* test_fmt_fast.c - the decoder's hand-written output pieces (issue 26 item 4): every
 * formatter of fmt_fast.h gives the bytes of the printf conversion it replaced (snprintf is
 * the reference), the messages JSON's field order is the strcmp order of the names, and the
 * cached symbol lookup answers exactly as the plain binary search, also for nested and
 * aliased symbols. */
#include "elf_syms.h"
#include "fmt_fast.h"
#include "nexus_decode.h"
#include "ts_test.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* the values to try: edges of every digit count and width, and a pseudo-random spread */
static uint64_t value(unsigned k) {
    static const uint64_t edge[] = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 0xf, 0x10, 0xff, 0x100,
                                    0xfffffff, 0x10000000, 0xffffffff, 0x100000000ull, 4294967296ull,
                                    9999999999999999999ull, 10000000000000000000ull, UINT64_MAX,
                                    (uint64_t)INT64_MAX, (uint64_t)INT64_MIN};
    if (k < sizeof edge / sizeof edge[0]) return edge[k];
    uint64_t x = 0x9E3779B97F4A7C15ull * (k + 1);
    x ^= x >> 29;
    return x >> (k % 64); /* every magnitude */
}

TS_TEST(integers_as_printf_writes_them) {
    for (unsigned k = 0; k < 20000; k++) {
        uint64_t v = value(k);
        char want[64], got[64];
        snprintf(want, sizeof want, "%" PRIu64, v);
        *fmt_u64(got, v) = 0;
        TS_ASSERT_STR_EQ(got, want);
        snprintf(want, sizeof want, "%" PRId64, (int64_t)v);
        *fmt_i64(got, (int64_t)v) = 0;
        TS_ASSERT_STR_EQ(got, want);
        snprintf(want, sizeof want, "%d", (int)(uint32_t)v);
        *fmt_i64(got, (int)(uint32_t)v) = 0;
        TS_ASSERT_STR_EQ(got, want);
    }
}

/* fmt_u64 counts the digits first (from the bit length) and writes 8 digits a step above
 * 10^8: every digit-count and 8-digit border, and every bit length */
TS_TEST(integers_at_every_digit_and_bit_border) {
    uint64_t v[200];
    unsigned n = 0;
    for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10) {
        v[n++] = p - 1;
        v[n++] = p;
        v[n++] = p + 1;
    }
    for (unsigned b = 1; b < 64; b++) {
        v[n++] = (1ull << b) - 1;
        v[n++] = 1ull << b;
    }
    v[n++] = UINT64_MAX;
    v[n++] = 100000000ull * 100000000ull - 1; /* 16 nines: two 8-digit steps */
    for (unsigned k = 0; k < n; k++) {
        char want[64], got[64];
        memset(got, 'x', sizeof got);
        snprintf(want, sizeof want, "%" PRIu64, v[k]);
        char *e = fmt_u64(got, v[k]);
        TS_ASSERT_EQ_U((size_t)(e - got), strlen(want));
        TS_ASSERT_EQ_U((unsigned char)*e, 'x'); /* nothing written past the end */
        *e = 0;
        TS_ASSERT_STR_EQ(got, want);
    }
}

/* the hot path's variant: the same digits, scratch only within the 24 bytes it may use */
TS_TEST(integers_with_room_as_printf_writes_them) {
    for (unsigned k = 0; k < 20000 + 64 * 3; k++) {
        uint64_t v = k < 20000 ? value(k) : k % 3 == 0 ? 1ull << (k % 64) :
                                        k % 3 == 1     ? (1ull << (k % 64)) - 1 :
                                                         0;
        if (k >= 20000 && k % 3 == 2) { /* every power of ten - 1, itself and + 1 */
            uint64_t p10 = 1;
            for (unsigned e = 0; e < (k / 3) % 20; e++) p10 *= 10;
            v = p10 - 1 + (k / 60) % 3;
        }
        char want[64], got[64];
        memset(got, 'x', sizeof got);
        snprintf(want, sizeof want, "%" PRIu64, v);
        char *e = fmt_u64_room24(got, v);
        TS_ASSERT_EQ_U((size_t)(e - got), strlen(want));
        TS_ASSERT_EQ_U((unsigned char)got[24], 'x'); /* nothing past the 24 bytes of room */
        *e = 0;
        TS_ASSERT_STR_EQ(got, want);
    }
    static const uint64_t edge[] = {9999999999999999999ull, 10000000000000000000ull, 18446744073709551615ull,
                                    99999999ull, 100000000ull, 9999999999999999ull, 10000000000000000ull};
    for (unsigned k = 0; k < sizeof edge / sizeof edge[0]; k++) {
        char want[64], got[64];
        snprintf(want, sizeof want, "%" PRIu64, edge[k]);
        *fmt_u64_room24(got, edge[k]) = 0;
        TS_ASSERT_STR_EQ(got, want);
    }
}

TS_TEST(hex_as_printf_writes_it) {
    for (unsigned k = 0; k < 20000; k++) {
        uint64_t v = value(k);
        char want[64], got[64];
        for (int w = 1; w <= 16; w++) {
            snprintf(want, sizeof want, "%0*" PRIx64, w, v);
            *fmt_hex(got, v, w) = 0;
            TS_ASSERT_STR_EQ(got, want);
        }
        snprintf(want, sizeof want, "%02x", (unsigned)(v & 0xff));
        *fmt_hex2(got, (unsigned)(v & 0xff)) = 0;
        TS_ASSERT_STR_EQ(got, want);
    }
}

TS_TEST(json_field_order_is_by_name) {
    unsigned seen = 0;
    for (int k = 0; k < NXF__COUNT; k++) {
        enum nxd_field f = nxd_fields_by_name[k];
        TS_ASSERT(f < NXF__COUNT);
        TS_ASSERT(!(seen >> f & 1)); /* every field once */
        seen |= 1u << f;
        if (k) TS_ASSERT(strcmp(nxd_field_name(nxd_fields_by_name[k - 1]), nxd_field_name(f)) < 0);
    }
    TS_ASSERT_EQ_U(seen, (1u << NXF__COUNT) - 1);
}

TS_TEST(cached_symbol_lookup_answers_as_the_search) {
    /* outer [0x100,0x200) holds inner [0x150,0x160); two aliases at 0x300 (size 0x10 and 0);
     * a symbol of size 0 at 0x400 (covers 0x400 only); a gap after 0x410 */
    elf_sym_t s[] = {{0x100, 0x100, "outer"}, {0x150, 0x10, "inner"}, {0x300, 0x10, "a1"}, {0x300, 0, "a2"}, {0x400, 0, "z"}, {0x404, 0xc, "after"}};
    elf_syms_t t = {s, sizeof s / sizeof s[0]};
    elf_syms_cache_t c = {0, 0, NULL};
    /* up and down and around, so the cache is hit from every side */
    for (unsigned pass = 0; pass < 3; pass++)
        for (uint64_t a0 = 0xf0; a0 < 0x420; a0++) {
            uint64_t a = pass == 1 ? 0x420 + 0xf0 - a0 : pass == 2 ? (a0 * 37) % 0x330 + 0xf0 :
                                                                     a0;
            TS_ASSERT(elf_syms_lookup_cached(&t, &c, a) == elf_syms_lookup(&t, a));
        }
    TS_ASSERT(elf_syms_lookup(&t, 0x170) == NULL); /* after inner, inside outer: none (the search's answer) */
    TS_ASSERT(elf_syms_lookup_cached(&t, &c, 0x120) == &s[0]);
    TS_ASSERT(elf_syms_lookup_cached(&t, &c, 0x170) == NULL);
}

/* the decimal counter of the messages' "n": every count from 0 through 1 100 000 (every
 * carry up to seven digits) as printf writes it, the 24 bytes it may write and no more */
TS_TEST(counter_counts_as_printf_writes_it) {
    fmt_ctr_t c;
    fmt_ctr_init(&c);
    for (uint64_t v = 0; v <= 1100000; v++) {
        if (v) fmt_ctr_inc(&c);
        char want[32], got[40];
        memset(got, 'x', sizeof got);
        snprintf(want, sizeof want, "%" PRIu64, v);
        char *e = fmt_ctr_put(got, &c);
        TS_ASSERT_EQ_U((size_t)(e - got), strlen(want));
        TS_ASSERT_EQ_U((unsigned char)got[24], 'x');
        *e = 0;
        if (strcmp(got, want)) TS_FAIL("count %" PRIu64 ": '%s'", v, got);
    }
}

/* the message bytes as "hh:hh:...:hh" (%02x each, ':' between) for every length 1..64 and
 * every byte value, the 3 * n + 1 bytes it may write and no more, 0 bytes writing nothing */
TS_TEST(bytes_as_colon_hex_as_printf_writes_them) {
    uint32_t hex3[256];
    fmt_hex3_init(hex3);
    uint8_t b[64];
    for (unsigned k = 0; k < 2000; k++) {
        uint32_t n = 1 + k % 64;
        for (uint32_t i = 0; i < n; i++) b[i] = (uint8_t)((k * 131 + i * 29 + (i * i) / 3) & 0xff);
        if (k < 256) b[0] = (uint8_t)k; /* every byte value */
        char want[256] = "", got[256];
        size_t w = 0;
        for (uint32_t i = 0; i < n; i++) w += (size_t)snprintf(want + w, sizeof want - w, "%s%02x", i ? ":" : "", b[i]);
        memset(got, 'x', sizeof got);
        char *e = fmt_hex3_bytes(got, b, n, hex3);
        TS_ASSERT_EQ_U((size_t)(e - got), w);
        TS_ASSERT_EQ_U((unsigned char)got[3 * n + 1], 'x');
        *e = 0;
        TS_ASSERT_STR_EQ(got, want);
    }
    char got[4] = "xxx";
    TS_ASSERT(fmt_hex3_bytes(got, b, 0, hex3) == got && got[0] == 'x');
}

/* two values' 8 digits at once (SSE2 lanes) and the trimmed put: every value below 10^8
 * that matters (each digit count's edges, a spread) in both lanes, as printf writes them */
TS_TEST(digit_pairs_as_printf_writes_them) {
    static const uint32_t edge[] = {0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 10001, 99999, 100000,
                                    999999, 1000000, 9999999, 10000000, 99999999, 12345678, 87654321, 50005000};
    const unsigned ne = sizeof edge / sizeof edge[0];
    for (unsigned k = 0; k < 40000; k++) {
        uint32_t a = k < ne * ne ? edge[k % ne] : (uint32_t)(value(k) % 100000000u);
        uint32_t b = k < ne * ne ? edge[k / ne] : (uint32_t)(value(k * 7 + 3) % 100000000u);
        uint64_t da, db;
        fmt_8digits_pair(a, b, &da, &db);
        TS_ASSERT_EQ_U(da, fmt_8digits(a));
        TS_ASSERT_EQ_U(db, fmt_8digits(b));
        char want[32], got[32];
        memset(got, 'x', sizeof got);
        snprintf(want, sizeof want, "%" PRIu32, b);
        char *e = fmt_put_digits8(got, db);
        TS_ASSERT_EQ_U((size_t)(e - got), strlen(want));
        TS_ASSERT_EQ_U((unsigned char)got[8], 'x');
        *e = 0;
        TS_ASSERT_STR_EQ(got, want);
        snprintf(want, sizeof want, "%" PRIu32, a);
        *fmt_put_digits8(got, da) = 0;
        TS_ASSERT_STR_EQ(got, want);
    }
}

TS_TEST_MAIN()
