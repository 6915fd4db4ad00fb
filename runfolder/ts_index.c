/* sweep_index.c - see sweep_index.h */
#include "ts_index.h"
#include <stdlib.h>
#include <string.h>

uint64_t sw_hash64(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t sw_hash64_str(const char *s) { return sw_hash64(s, strlen(s)); }

size_t sw_index_find(const sw_index_t *ix, uint64_t h, const void *key, sw_index_eq_fn eq, const void *ctx) {
    if (!ix->slot) return SW_INDEX_NONE;
    for (size_t i = (size_t)h & ix->mask;; i = (i + 1) & ix->mask) {
        const struct sw_index_slot *sl = &ix->slot[i];
        if (!sl->item1) return SW_INDEX_NONE;
        if (sl->hash == h && eq(ctx, sl->item1 - 1, key)) return sl->item1 - 1;
    }
}

static void put(struct sw_index_slot *slot, size_t mask, uint64_t h, size_t item1) {
    size_t i = (size_t)h & mask;
    while (slot[i].item1) i = (i + 1) & mask;
    slot[i].hash = h;
    slot[i].item1 = item1;
}

int sw_index_add(sw_index_t *ix, uint64_t h, size_t item) {
    if (!ix->slot || 2 * (ix->n + 1) > ix->mask + 1) {
        size_t slots = ix->slot ? 2 * (ix->mask + 1) : 16;
        if (slots > SIZE_MAX / sizeof *ix->slot) return -1;
        struct sw_index_slot *ns = calloc(slots, sizeof *ns);
        if (!ns) return -1;
        for (size_t i = 0; ix->slot && i <= ix->mask; i++)
            if (ix->slot[i].item1) put(ns, slots - 1, ix->slot[i].hash, ix->slot[i].item1);
        free(ix->slot);
        ix->slot = ns;
        ix->mask = slots - 1;
    }
    put(ix->slot, ix->mask, h, item + 1);
    ix->n++;
    return 0;
}

void sw_index_free(sw_index_t *ix) {
    free(ix->slot);
    memset(ix, 0, sizeof *ix);
}
