/* test_cache.c - timing cache: geometry checks, hits/misses, LRU replacement in 2 ways. */
#include "cache.h"
#include "ts_test.h"

static cache_t make(unsigned size, unsigned line, unsigned ways) {
    cache_t c;
    cache_cfg_t cfg = {size, line, ways, 5};
    if (cache_init(&c, &cfg)) TS_FAIL("cache_init(%u, %u, %u) failed", size, line, ways);
    return c;
}

TS_TEST(bad_geometry_rejected) {
    cache_t c;
    cache_cfg_t bad[] = {{1000, 32, 1, 1}, {1024, 24, 1, 1}, {1024, 32, 3, 1}, {32, 32, 2, 1}, {1024, 2, 1, 1}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) TS_ASSERT_EQ_I(cache_init(&c, &bad[i]), -1);
}

TS_TEST(direct_mapped_hits_and_conflicts) {
    cache_t c = make(1024, 32, 1); /* 32 sets */
    TS_ASSERT(!cache_access(&c, 0x80000000));
    cache_fill(&c, 0x80000000);
    TS_ASSERT(cache_access(&c, 0x8000001C));  /* same line */
    TS_ASSERT(!cache_access(&c, 0x80000020)); /* next line */
    TS_ASSERT(!cache_access(&c, 0x80000400)); /* same set, other tag */
    cache_fill(&c, 0x80000400);
    TS_ASSERT(!cache_access(&c, 0x80000000)); /* evicted */
    TS_ASSERT_EQ_U(c.accesses, 5);
    TS_ASSERT_EQ_U(c.misses, 4);
    cache_free(&c);
}

TS_TEST(two_way_lru) {
    cache_t c = make(1024, 32, 2); /* 16 sets: 0x200 apart share a set */
    cache_fill(&c, 0x0000);
    cache_fill(&c, 0x0200);
    TS_ASSERT(cache_access(&c, 0x0000));
    TS_ASSERT(cache_access(&c, 0x0200));
    TS_ASSERT(cache_access(&c, 0x0000)); /* 0x0200 is now least recently used */
    cache_fill(&c, 0x0400);
    TS_ASSERT(cache_access(&c, 0x0000));
    TS_ASSERT(!cache_access(&c, 0x0200));
    cache_reset(&c);
    TS_ASSERT(!cache_access(&c, 0x0000));
    TS_ASSERT_EQ_U(c.misses, 1);
    cache_free(&c);
}

TS_TEST_MAIN()
