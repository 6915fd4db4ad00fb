/* ev_count.h - the per-hart event totals of events.csv, summed lazily.
 *
 * A cycle's 64-bit event vector takes a handful of values over a run (the same few
 * combinations of cycle, retire, stall and bus events), so instead of adding 1 to the
 * total of every set bit in every cycle, a small direct-mapped table counts how often each
 * vector value occurred; an entry's count goes into the per-bit totals only when another
 * vector takes its slot, and all of them at ev_count_flush(). The totals are the same
 * numbers either way (a sum of counts per bit); reading `total` needs a flush first.
 */
#ifndef TS_EV_COUNT_H
#define TS_EV_COUNT_H
#include <stdint.h>
#include <string.h>

#define EV_COUNT_SLOTS 64 /* a power of two; 6 bits of the hash below */

typedef struct ev_count {
    uint64_t total[64]; /* cycles in which each event of the vector happened
                                   * (complete after ev_count_flush) */
    struct {
        uint64_t ev, n;
    } slot[EV_COUNT_SLOTS]; /* vector value, cycles not yet in total */
} ev_count_t;

static inline void ev_count_reset(ev_count_t *c) { memset(c, 0, sizeof *c); }

static inline void ev_count_spill(ev_count_t *c, unsigned i) {
    uint64_t n = c->slot[i].n;
    for (uint64_t e = c->slot[i].ev; e; e &= e - 1) c->total[__builtin_ctzll(e)] += n;
    c->slot[i].n = 0;
}

/* one cycle with event vector ev */
static inline __attribute__((always_inline)) void ev_count_add(ev_count_t *c, uint64_t ev) {
    unsigned i = (unsigned)((ev * 0x9E3779B97F4A7C15ull) >> 58);
    if (__builtin_expect(c->slot[i].ev != ev, 0)) {
        ev_count_spill(c, i);
        c->slot[i].ev = ev;
    }
    c->slot[i].n++;
}

/* moves every pending count into total[] */
static inline void ev_count_flush(ev_count_t *c) {
    for (unsigned i = 0; i < EV_COUNT_SLOTS; i++) ev_count_spill(c, i);
}

#endif
