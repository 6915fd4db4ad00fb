/* sweep_index.h - a hash index over items kept elsewhere (JSON members, axis values, points):
 * find and add in expected O(1), so that every duplicate check and look-up of a sweep spec and
 * its plan is linear in the spec's size (a 1 000 000-value axis parses in about a second).
 *
 * The index stores item numbers and their hashes only; equality is asked of the caller's
 * function, which compares item `item` with the key being looked up. Open addressing with
 * linear probing, at most half full. */
#ifndef TS_SWEEP_INDEX_H
#define TS_SWEEP_INDEX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SW_INDEX_NONE ((size_t)-1)

typedef bool (*sw_index_eq_fn)(const void *ctx, size_t item, const void *key);

struct sw_index_slot {
    uint64_t hash;
    size_t item1; /* item + 1, 0 = empty */
};

typedef struct sw_index {
    struct sw_index_slot *slot;
    size_t mask; /* slots - 1 (a power of two minus one), 0 before the first add */
    size_t n;
} sw_index_t;

/* the item equal to key (whose hash is h), or SW_INDEX_NONE */
size_t sw_index_find(const sw_index_t *ix, uint64_t h, const void *key, sw_index_eq_fn eq, const void *ctx);
/* adds item under hash h (the caller has found no equal item); 0, or -1 out of memory */
int sw_index_add(sw_index_t *ix, uint64_t h, size_t item);
void sw_index_free(sw_index_t *ix);

/* 64-bit FNV-1a of n bytes, and of a string */
uint64_t sw_hash64(const void *p, size_t n);
uint64_t sw_hash64_str(const char *s);
#endif
