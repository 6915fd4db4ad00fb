/* clint.h - core-local interruptor: msip, mtimecmp and mtime for up to 8 harts.
 * mtime advances once every `div` core cycles (default 100: a 1 MHz timebase at a 100 MHz
 * core clock). Registers are 32-bit; other access sizes are bus errors. */
#ifndef TS_CLINT_H
#define TS_CLINT_H
#include <stdint.h>
#include <stdbool.h>

#define CLINT_MAX_HARTS 8

typedef struct clint {
    unsigned harts, div;
    unsigned left; /* ticks until mtime advances (div after each advance) */
    uint64_t mtime;
    uint64_t mtimecmp[CLINT_MAX_HARTS];
    uint32_t msip;
    bool changed; /* a register was written (or the CLINT reset) since the last tick */
} clint_t;

int clint_init(clint_t *c, unsigned harts, unsigned div);
void clint_reset(clint_t *c);
bool clint_read(clint_t *c, uint32_t off, unsigned size, uint32_t *val);
bool clint_write(clint_t *c, uint32_t off, unsigned size, uint32_t val);
/* One core cycle. Returns true if mtime advanced in it or a register was written (or the
 * CLINT reset) since the last tick: only then can mtime and the interrupt lines
 * (clint_timer_irq, clint_soft_irq) differ from what they were at the last tick, so a caller
 * that drives them may do so only then. */
static inline bool clint_tick(clint_t *c) {
    if (--c->left == 0) {
        c->left = c->div;
        c->mtime++;
        c->changed = false;
        return true;
    }
    if (__builtin_expect(!c->changed, 1)) return false;
    c->changed = false;
    return true;
}
static inline bool clint_timer_irq(const clint_t *c, unsigned hart) {
    return c->mtime >= c->mtimecmp[hart];
}
static inline bool clint_soft_irq(const clint_t *c, unsigned hart) {
    return (c->msip >> hart) & 1;
}
#endif
