/* manual_mh.c - manual.c on every hart (tracesim run --harts N, N >= 2): hart 0 calls
 * perfInit(ts_num_harts(), 1) and starts the other harts with ts_hart_start(); every hart
 * sets up its own encoder and counters (perfManualInit) and writes three perfWriteCntrs()
 * records per round for ROUNDS (h + 1) rounds on hart h, with its own data (so the
 * per-hart profiles differ); hart 0 joins them, writes the one funnel buffer with
 * perfWriteTrace and exits with 0 only if every hart wrote all its records.
 * EXPECT_STOP=1: the rounds go on until the (small) shared buffer fills with stop-on-wrap;
 * every hart must see the stop and hart 0 the full buffer. perf_config.h: PERF_MH. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "perf_config.h"
#include "bsp.h"

#ifndef ROUNDS
#define ROUNDS 10
#endif
#ifndef EXPECT_STOP
#define EXPECT_STOP 0
#endif
#define MAX_ROUNDS 1000

static uint32_t table[TS_MAX_HARTS][64];

__attribute__((noinline)) static uint32_t checksum(uint32_t *t, uint32_t seed) {
    uint32_t s = seed;
    for (unsigned i = 0; i < 64; i++) {
        t[i] = s = s * 1664525u + 1013904223u;
        s ^= s >> 7;
    }
    return s;
}

__attribute__((noinline)) static void sort(uint32_t *t) {
    for (unsigned i = 1; i < 64; i++) {
        uint32_t v = t[i];
        unsigned j = i;
        while (j && t[j - 1] > v) { t[j] = t[j - 1]; j--; }
        t[j] = v;
    }
}

__attribute__((noinline)) static unsigned scan(const char *s) {
    unsigned n = 0;
    while (*s) n += (*s++ == 'e');
    return n;
}

static int run_hart(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    perfEvent list[PERF_N_EVENTS];
    memcpy(list, perfCntrList, sizeof list);
    int rc = perfManualInit(list, PERF_N_EVENTS, PERF_CHANNEL, PERF_COUNT, PERF_SBA);
    if (rc) {
        printf("hart %u: perfManualInit failed: %s\n", me, perfErrorString(rc));
        return 1;
    }
    perfTraceOn();
    uint32_t sum = 0;
    unsigned es = 0, rounds = EXPECT_STOP ? MAX_ROUNDS : ROUNDS * (me + 1);
    perfTraceStatus_t st;
    for (unsigned r = 0; r < rounds; r++) {
        sum += checksum(table[me], r + 1000 * me);
        perfWriteCntrs();
        sort(table[me]);
        perfWriteCntrs();
        es += scan("the quick brown fox jumps over the lazy dog, then sleeps");
        perfWriteCntrs();
        if (EXPECT_STOP && perfGetTraceStatus(&st) == PERF_OK && st.stopped) {
            rounds = r + 1;
            break;
        }
    }
    perfGetTraceStatus(&st);
    int stopped = st.stopped;
    perfTraceOff();
    perfGetTraceStatus(&st);
    printf("hart %u: %u rounds, checksum 0x%08lx, %u e's; %lu records%s\n", me, rounds, (unsigned long)sum, es,
           (unsigned long)st.records, stopped ? " (buffer full: tracing stopped)" : "");
    if (EXPECT_STOP) return stopped ? 0 : 1;
    return st.records == 3 * rounds ? 0 : 1;
}

int main(void) {
    unsigned harts = ts_num_harts();
    if (harts < 2) {
        printf("manual_mh: runs on 2 or more harts (tracesim run --harts N); this SoC has %u\n", harts);
        return 2;
    }
    int rc = perfInit((int)harts, 1);
    if (rc) {
        printf("perfInit failed: %s\n", perfErrorString(rc));
        return 1;
    }
    for (unsigned h = 1; h < harts; h++)
        if (ts_hart_start(h, run_hart, NULL) != TS_HART_OK) {
            printf("manual_mh: hart %u did not start\n", h);
            return 1;
        }
    int bad = run_hart(NULL);
    for (unsigned h = 1; h < harts; h++) {
        int r = 1;
        ts_hart_join(h, &r);
        bad |= r;
    }
    perfTraceStatus_t st;
    perfGetTraceStatus(&st);
    printf("perf: %u harts, %lu of %lu trace bytes used\n", harts, (unsigned long)st.bytes, (unsigned long)st.size);
    if (EXPECT_STOP && st.bytes != st.size) bad = 1;
    rc = perfWriteTrace(NULL);
    if (rc) {
        printf("perfWriteTrace failed: %s\n", perfErrorString(rc));
        return 1;
    }
    return bad ? 1 : 0;
}
