/* cache.c - timing-only cache; see cache.h. */
#include "cache.h"
#include <stdlib.h>
#include <string.h>

static bool pow2(unsigned v) { return v && !(v & (v - 1)); }

int cache_init(cache_t *c, const cache_cfg_t *cfg) {
    memset(c, 0, sizeof *c);
    if (!pow2(cfg->size) || !pow2(cfg->line) || cfg->line < 4 || cfg->line > 256 ||
        (cfg->ways != 1 && cfg->ways != 2) || cfg->size < cfg->line * cfg->ways ||
        cfg->miss_latency > 10000)
        return -1;
    c->cfg = *cfg;
    c->sets = cfg->size / (cfg->line * cfg->ways);
    c->line_shift = (unsigned)__builtin_ctz(cfg->line);
    c->tag = calloc((size_t)c->sets * cfg->ways, sizeof *c->tag);
    c->lru = calloc(c->sets, 1);
    if (!c->tag || !c->lru) {
        cache_free(c);
        return -1;
    }
    return 0;
}

void cache_free(cache_t *c) {
    free(c->tag);
    free(c->lru);
    c->tag = NULL;
    c->lru = NULL;
}

void cache_reset(cache_t *c) {
    memset(c->tag, 0, (size_t)c->sets * c->cfg.ways * sizeof *c->tag);
    memset(c->lru, 0, c->sets);
    c->accesses = c->misses = 0;
}

bool cache_access(cache_t *c, uint32_t addr) {
    uint32_t line = addr >> c->line_shift, set = line & (c->sets - 1);
    uint32_t key = (line << 1) | 1, *t = &c->tag[set * c->cfg.ways];
    c->accesses++;
    for (unsigned w = 0; w < c->cfg.ways; w++) {
        if (t[w] == key) {
            c->lru[set] = (uint8_t)(w ^ 1); /* the other way is replaced next */
            return true;
        }
    }
    c->misses++;
    return false;
}

void cache_fill(cache_t *c, uint32_t addr) {
    uint32_t line = addr >> c->line_shift, set = line & (c->sets - 1);
    uint32_t *t = &c->tag[set * c->cfg.ways];
    unsigned w = c->cfg.ways == 1 ? 0 : c->lru[set];
    t[w] = (line << 1) | 1;
    c->lru[set] = (uint8_t)(w ^ 1);
}
