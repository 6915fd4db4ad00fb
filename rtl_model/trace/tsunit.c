/* tsunit.c - trace timestamp unit; see tsunit.h. */
#include "tsunit.h"

/* bits software can write: active, count, debug, prescale, enable, branch, instrumentation,
 * ownership (tsReset is an action, tsType and tsWidth are read-only) */
#define TS_WRITABLE 0x000F830Bu

void tsunit_init(tsunit_t *t, unsigned type, unsigned width, const tsunit_t *master) {
    t->type = type;
    t->width = width;
    t->master = master;
    t->mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    tsunit_reset(t);
}

void tsunit_reset(tsunit_t *t) {
    t->control = 0;
    t->counter = 0;
    t->pre = 0;
    t->period = 1;
}

uint32_t tsunit_read_control(const tsunit_t *t) {
    return t->control | (t->type & 7u) << 4 | (t->width & 0xFFu) << 24;
}

void tsunit_write_control(tsunit_t *t, uint32_t v) {
    if (!(v & 1u)) { /* tsActive = 0: reset, keep only what was written */
        tsunit_reset(t);
        t->control = v & TS_WRITABLE & ~1u;
        t->period = 1u << (2 * ((t->control >> 8) & 3u));
        return;
    }
    t->control = v & TS_WRITABLE;
    t->period = 1u << (2 * ((t->control >> 8) & 3u));
    if (v & 4u) {
        t->counter = 0;
        t->pre = 0;
    } /* tsReset */
}

void tsunit_write_lower(tsunit_t *t, uint32_t v) {
    t->counter = (t->counter & ~0xFFFFFFFFull) | v;
}

void tsunit_write_upper(tsunit_t *t, uint32_t v) {
    t->counter = ((t->counter & 0xFFFFFFFFull) | (uint64_t)v << 32) & t->mask;
}

enum { R_CONTROL = 0x40,
       R_LOWER = 0x44,
       R_UPPER = 0x48 };

bool tsunit_reg_read(const tsunit_t *t, uint32_t off, uint32_t *val) {
    switch (off) {
    case R_CONTROL: *val = tsunit_read_control(t); return true;
    case R_LOWER: *val = (uint32_t)tsunit_now(t); return true;
    case R_UPPER: *val = (uint32_t)(tsunit_now(t) >> 32); return true;
    default: return false;
    }
}

bool tsunit_reg_write(tsunit_t *t, uint32_t off, uint32_t val) {
    switch (off) {
    case R_CONTROL: tsunit_write_control(t, val); return true;
    case R_LOWER: tsunit_write_lower(t, val); return true;
    case R_UPPER: tsunit_write_upper(t, val); return true;
    default: return false;
    }
}
