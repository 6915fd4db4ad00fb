/* nexus.h - Nexus message packer (IEEE-ISTO 5001 slices as SiFive encoders emit them).
 *
 * Each byte carries 6 message-data bits (MDO, bits 7:2) and 2 control bits (MSEO, 1:0):
 * 00 inside a message, 01 last byte of a variable field, 11 last byte of the message.
 * Fields go least-significant bit first; fixed fields pack back to back; a variable field
 * runs from the current bit to the end of the byte holding its last significant bit, with
 * the minimum number of bytes (a zero value that starts on a byte boundary takes one byte).
 * Shared by every message type; instruction-trace messages can use the same calls. */
#ifndef TS_NEXUS_H
#define TS_NEXUS_H
#include <stdint.h>
#include "ts_nexus_codes.h"

#define NX_MAX_BYTES 40 /* longest message this packer can build (64-bit fields included) */

/* the TCODEs (NX_DATA_ACQ ...), fixed field widths (NX_W_*) and codes: rtl_model/regs/nexus.def */

typedef struct nx_msg {
    uint8_t b[NX_MAX_BYTES];
    unsigned len; /* bytes, valid after nx_end */
    unsigned pos; /* payload bits written so far */
} nx_msg_t;

void nx_begin(nx_msg_t *m);
void nx_fixed(nx_msg_t *m, uint64_t v, unsigned bits);
/* a variable field (nx_var) that starts inside a byte */
void nx_var_unaligned(nx_msg_t *m, uint64_t v);
static inline void nx_var(nx_msg_t *m, uint64_t v) {
    unsigned start = m->pos;
    if (start % 6 != 0) {
        nx_var_unaligned(m, v);
        return;
    }
    /* on a byte boundary (the common case): 6 bits per byte, no bit arithmetic; the same
     * bytes as the general path */
    unsigned byte = start / 6;
    do {
        if (byte < NX_MAX_BYTES) m->b[byte] |= (uint8_t)((v & 63u) << 2);
        byte++;
        v >>= 6;
    } while (v);
    m->pos = byte * 6;
    if (byte - 1 < NX_MAX_BYTES) m->b[byte - 1] = (uint8_t)((m->b[byte - 1] & ~3u) | 1u);
}
/* closes the message: the last byte gets MSEO 11 */
void nx_end(nx_msg_t *m);
#endif
