/* tl_time.h - the clock of the Chrome/Perfetto timeline and the perf CSV (`tracesim decode
 * --time`): simulator cycles (a run folder's trace.json gives timestamp = cycle + offset; in
 * the timeline 1 us = 1 cycle, so its numbers are the cycles of the waves and the run
 * folder's CSVs) or trace timestamp ticks (us_per_tick microseconds each). */
#ifndef TS_TL_TIME_H
#define TS_TL_TIME_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ts_tl_time {
    bool cycles;
    int64_t offset;
    double us_per_tick;
} ts_tl_time_t;

/* the simulator cycle of timestamp tics */
int64_t ts_tl_cycle(const ts_tl_time_t *tt, uint64_t tics);
/* a time (tics) and a duration (in ticks) as the timeline's JSON number */
void ts_tl_put_ts(FILE *o, const ts_tl_time_t *tt, uint64_t tics);
void ts_tl_put_dur(FILE *o, const ts_tl_time_t *tt, uint64_t dtics);
#endif
