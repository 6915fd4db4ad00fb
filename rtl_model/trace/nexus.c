/* nexus.c - Nexus packer; see nexus.h. */
#include "nexus.h"
#include <string.h>

void nx_begin(nx_msg_t *m) {
    memset(m, 0, sizeof *m);
}

static void put_bit(nx_msg_t *m, unsigned bit) {
    unsigned byte = m->pos / 6, k = m->pos % 6;
    if (byte < NX_MAX_BYTES && bit) m->b[byte] |= (uint8_t)(1u << (k + 2));
    m->pos++;
}

void nx_fixed(nx_msg_t *m, uint64_t v, unsigned bits) {
    for (unsigned i = 0; i < bits; i++) put_bit(m, (unsigned)((v >> i) & 1));
}

void nx_var(nx_msg_t *m, uint64_t v) {
    unsigned start = m->pos;
    while (v) { put_bit(m, (unsigned)(v & 1)); v >>= 1; }
    if (m->pos % 6) m->pos += 6 - m->pos % 6;        /* to the end of this byte */
    else if (m->pos == start) m->pos += 6;           /* zero on a byte boundary: one byte */
    unsigned last = m->pos / 6 - 1;
    if (last < NX_MAX_BYTES) m->b[last] = (uint8_t)((m->b[last] & ~3u) | 1u);
}

void nx_end(nx_msg_t *m) {
    m->len = (m->pos + 5) / 6;
    if (m->len > NX_MAX_BYTES) m->len = NX_MAX_BYTES;
    if (m->len) m->b[m->len - 1] |= 3u;
}
