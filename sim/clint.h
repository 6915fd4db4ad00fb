/* clint.h - core-local interruptor: msip, mtimecmp and mtime for up to 8 harts.
 * mtime advances once every `div` core cycles (default 100: a 1 MHz timebase at a 100 MHz
 * core clock). Registers are 32-bit; other access sizes are bus errors. */
#ifndef TS_CLINT_H
#define TS_CLINT_H
#include <stdint.h>
#include <stdbool.h>

#define CLINT_MAX_HARTS 8

typedef struct clint {
    unsigned harts, div, prescale;
    uint64_t mtime;
    uint64_t mtimecmp[CLINT_MAX_HARTS];
    uint32_t msip;
} clint_t;

int clint_init(clint_t *c, unsigned harts, unsigned div);
void clint_reset(clint_t *c);
bool clint_read(clint_t *c, uint32_t off, unsigned size, uint32_t *val);
bool clint_write(clint_t *c, uint32_t off, unsigned size, uint32_t val);
static inline void clint_tick(clint_t *c) {
    if (++c->prescale >= c->div) { c->prescale = 0; c->mtime++; }
}
static inline bool clint_timer_irq(const clint_t *c, unsigned hart) {
    return c->mtime >= c->mtimecmp[hart];
}
static inline bool clint_soft_irq(const clint_t *c, unsigned hart) {
    return (c->msip >> hart) & 1;
}
#endif
