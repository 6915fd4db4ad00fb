/* tl_time.c - the timeline's clock; see tl_time.h. */
#include "tl_time.h"
#include <inttypes.h>

int64_t ts_tl_cycle(const ts_tl_time_t *tt, uint64_t tics) { return (int64_t)tics - tt->offset; }

void ts_tl_put_ts(FILE *o, const ts_tl_time_t *tt, uint64_t tics) {
    if (tt->cycles) fprintf(o, "%" PRId64, ts_tl_cycle(tt, tics));
    else
        fprintf(o, "%.3f", (double)tics * tt->us_per_tick);
}

void ts_tl_put_dur(FILE *o, const ts_tl_time_t *tt, uint64_t dtics) {
    if (tt->cycles) fprintf(o, "%" PRIu64, dtics);
    else
        fprintf(o, "%.3f", (double)dtics * tt->us_per_tick);
}
