/* tsunit.h - trace timestamp unit (tsControl/tsLower/tsUpper). A counter of `width` bits
 * (40) that runs while tsActive and tsCount are set, incremented every 1, 4, 16 or 64 core
 * clocks (tsPrescale). Type 3 (internal core clock) in an encoder without a funnel, type 2
 * in the funnel (master), type 4 (slave: reads the master's counter) in encoders behind a
 * funnel. tsActive = 0 holds the unit in reset. */
#ifndef TS_TSUNIT_H
#define TS_TSUNIT_H
#include <stdbool.h>
#include <stdint.h>

typedef struct tsunit {
    unsigned type, width;
    uint32_t control; /* writable bits as written */
    uint64_t counter;
    unsigned pre;                /* clocks since the last increment */
    unsigned period;             /* clocks per increment (from tsPrescale) */
    uint64_t mask;               /* 2^width - 1 */
    const struct tsunit *master; /* slave units read this one's counter */
} tsunit_t;

void tsunit_init(tsunit_t *t, unsigned type, unsigned width, const tsunit_t *master);
void tsunit_reset(tsunit_t *t);
uint32_t tsunit_read_control(const tsunit_t *t);
void tsunit_write_control(tsunit_t *t, uint32_t v);
static inline uint64_t tsunit_now(const tsunit_t *t) {
    return t->master ? t->master->counter : t->counter;
}
static inline bool tsunit_enabled(const tsunit_t *t) { return (t->control & 0x8001u) == 0x8001u; }
void tsunit_write_lower(tsunit_t *t, uint32_t v);
/* tsControl/tsLower/tsUpper at the same offsets in the encoder and the funnel (0x40..0x48):
 * true if off is one of them */
bool tsunit_reg_read(const tsunit_t *t, uint32_t off, uint32_t *val);
bool tsunit_reg_write(tsunit_t *t, uint32_t off, uint32_t val);
void tsunit_write_upper(tsunit_t *t, uint32_t v);
static inline void tsunit_tick(tsunit_t *t) {
    if ((t->control & 3u) != 3u || t->master) return;
    if (++t->pre < t->period) return;
    t->pre = 0;
    t->counter = (t->counter + 1) & t->mask;
}
/* tsunit_tick n times at once (a run controller that skipped the ticks of an otherwise idle
 * trace subsystem: the same counter and prescaler afterwards) */
static inline void tsunit_advance(tsunit_t *t, uint64_t n) {
    if ((t->control & 3u) != 3u || t->master || !n) return;
    uint64_t inc = 0, pre = t->pre;
    if (pre >= t->period) {
        inc = 1;
        pre = 0;
        n--;
    } /* tsPrescale lowered since: one tick wraps it */
    pre += n;
    unsigned sh = (unsigned)__builtin_ctz(t->period); /* 1, 4, 16 or 64 clocks an increment */
    inc += pre >> sh;
    t->pre = (unsigned)(pre & (t->period - 1u));
    t->counter = (t->counter + inc) & t->mask;
}
#endif
