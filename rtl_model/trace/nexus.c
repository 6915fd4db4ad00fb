/* nexus.c - Nexus packer; see nexus.h. */
#include "nexus.h"
#include <string.h>

void nx_begin(nx_msg_t *m) {
    memset(m->b, 0, sizeof m->b);
    m->len = 0;
    m->pos = 0;
}

/* n low bits of v, least significant first, up to 6 per byte */
static void put_bits(nx_msg_t *m, uint64_t v, unsigned n) {
    while (n) {
        unsigned byte = m->pos / 6, k = m->pos % 6, take = 6 - k;
        if (take > n) take = n;
        if (byte < NX_MAX_BYTES) m->b[byte] |= (uint8_t)((v & ((1u << take) - 1)) << (k + 2));
        v >>= take;
        n -= take;
        m->pos += take;
    }
}

void nx_fixed(nx_msg_t *m, uint64_t v, unsigned bits) { put_bits(m, v, bits); }

void nx_var_unaligned(nx_msg_t *m, uint64_t v) {
    unsigned start = m->pos;
    put_bits(m, v, v ? 64u - (unsigned)__builtin_clzll(v) : 0u);
    if (m->pos % 6) m->pos += 6 - m->pos % 6; /* to the end of this byte */
    else if (m->pos == start)
        m->pos += 6; /* zero on a byte boundary: one byte */
    unsigned last = m->pos / 6 - 1;
    if (last < NX_MAX_BYTES) m->b[last] = (uint8_t)((m->b[last] & ~3u) | 1u);
}

void nx_end(nx_msg_t *m) {
    m->len = (m->pos + 5) / 6;
    if (m->len > NX_MAX_BYTES) m->len = NX_MAX_BYTES;
    if (m->len) m->b[m->len - 1] |= 3u;
}
