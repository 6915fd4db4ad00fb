/* clint.c - CLINT model; see clint.h. mtimecmp resets to all ones (no interrupt). */
#include "clint.h"
#include <string.h>

int clint_init(clint_t *c, unsigned harts, unsigned div) {
    if (harts == 0 || harts > CLINT_MAX_HARTS || div == 0) return -1;
    memset(c, 0, sizeof *c);
    c->harts = harts;
    c->div = div;
    clint_reset(c);
    return 0;
}

void clint_reset(clint_t *c) {
    c->mtime = 0;
    c->left = c->div;
    c->msip = 0;
    for (unsigned i = 0; i < CLINT_MAX_HARTS; i++) c->mtimecmp[i] = ~0ull;
    c->changed = true;
}

static uint64_t *reg64(clint_t *c, uint32_t off, unsigned *half) {
    *half = (off >> 2) & 1;
    if (off >= 0xBFF8 && off < 0xC000) return &c->mtime;
    if (off >= 0x4000 && off < 0x4000 + 8 * c->harts) return &c->mtimecmp[(off - 0x4000) >> 3];
    return NULL;
}

bool clint_read(clint_t *c, uint32_t off, unsigned size, uint32_t *val) {
    if (size != 4 || (off & 3)) return false;
    if (off < 4 * c->harts) {
        *val = (c->msip >> (off >> 2)) & 1;
        return true;
    }
    unsigned half;
    uint64_t *r = reg64(c, off, &half);
    if (!r) return false;
    *val = (uint32_t)(*r >> (32 * half));
    return true;
}

bool clint_write(clint_t *c, uint32_t off, unsigned size, uint32_t val) {
    if (size != 4 || (off & 3)) return false;
    c->changed = true;
    if (off < 4 * c->harts) {
        unsigned h = off >> 2;
        c->msip = (c->msip & ~(1u << h)) | ((val & 1u) << h);
        return true;
    }
    unsigned half;
    uint64_t *r = reg64(c, off, &half);
    if (!r) return false;
    if (half) *r = (*r & 0xFFFFFFFFull) | ((uint64_t)val << 32);
    else
        *r = (*r & 0xFFFFFFFF00000000ull) | val;
    return true;
}
