/* cache.h - timing-only cache model: tags in C, data stays in the flat RAM.
 *
 * Direct-mapped or 2-way set-associative (LRU), power-of-two size and line. The SoC asks
 * cache_access() on every lookup; a miss costs the configured latency (the SoC holds the bus
 * request that long) and cache_fill() installs the line when the miss completes. Used for
 * the I-side (every fetch) and the D-side (loads allocate; stores are write-through without
 * allocation, so they never miss). Off unless configured. */
#ifndef TS_CACHE_H
#define TS_CACHE_H
#include <stdint.h>
#include <stdbool.h>

typedef struct cache_cfg {
    unsigned size;         /* bytes, power of two, >= line * ways */
    unsigned line;         /* bytes, power of two, 4..256 */
    unsigned ways;         /* 1 or 2 */
    unsigned miss_latency; /* cycles a miss holds the access */
} cache_cfg_t;

typedef struct cache {
    cache_cfg_t cfg;
    unsigned sets, line_shift;
    uint32_t *tag; /* sets * ways; bit 0 = valid (tags are line addresses) */
    uint8_t *lru;  /* per set: the way to replace next */
    uint64_t accesses, misses;
} cache_t;

/* 0 on success, -1 for an invalid configuration or no memory */
int cache_init(cache_t *c, const cache_cfg_t *cfg);
void cache_free(cache_t *c);
void cache_reset(cache_t *c);
/* true on a hit (updates LRU); counts the access and, on a miss, the miss */
bool cache_access(cache_t *c, uint32_t addr);
/* installs the line holding addr (after a miss) */
void cache_fill(cache_t *c, uint32_t addr);
#endif
