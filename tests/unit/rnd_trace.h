/* rnd_trace.h - Nexus-like random traces for the decoder's unit tests (test_msg_json.c,
 * test_msg_json_par.c): mostly messages of known TCODEs (an MSEO 01 inside the body now and
 * then: a field end), idle bytes and garbage; the last message cut off. `hard` adds more
 * TCODE 7 messages, 0x00 bytes and runs of 70 bytes without an end (a message too long:
 * listed, not in nxd_t.messages). The generator is xorshift64 on the caller's state, so
 * every test's trace is the same from run to run. */
#ifndef TS_RND_TRACE_H
#define TS_RND_TRACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint64_t rnd_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static inline size_t rnd_trace_gen(uint64_t *s, uint8_t *b, size_t cap, bool hard) {
    static const uint8_t plain[] = {2, 3, 4, 7, 8, 9, 11, 12, 23, 27, 28, 29, 33, 34, 35};
    static const uint8_t more7[] = {2, 3, 4, 7, 7, 7, 7, 8, 9, 11, 12, 23, 27, 28, 29, 33, 34, 35};
    const uint8_t *known = hard ? more7 : plain;
    size_t nknown = hard ? sizeof more7 : sizeof plain;
    size_t n = 0;
    while (n + 80 < cap) {
        uint64_t r = rnd_next(s);
        if (r % 50 == 0) {
            b[n++] = 0xff;
            continue;
        }
        if (r % 97 == 0) {
            b[n++] = (uint8_t)rnd_next(s);
            continue;
        }
        if (hard && r % 89 == 0) {
            b[n++] = 0x00;
            continue;
        }
        if (hard && r % 331 == 0) { /* no end in 64 bytes: too long, resynchronised */
            for (int i = 0; i < 70; i++) b[n++] = 0x90;
            continue;
        }
        b[n++] = (uint8_t)(known[(r >> 8) % nknown] << 2);
        unsigned body = 1 + (unsigned)((r >> 16) % 12);
        for (unsigned i = 0; i < body; i++) {
            uint8_t mseo = i + 1 == body ? 3 : (rnd_next(s) % 3 == 0 ? 1 : 0);
            b[n++] = (uint8_t)(rnd_next(s) << 2) | mseo;
        }
    }
    b[n++] = 7 << 2; /* cut off */
    b[n++] = 0x04;
    return n;
}
#endif
