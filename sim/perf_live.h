/* perf_live.h - the perf headers of a run's ITC stores, collected while the run goes.
 *
 * tracesim run writes perf_config.txt (the last perf header each hart stored, for decoding a
 * trace that lost it) at the end of a run. It used to read itc.csv back for that
 * (ts_perf_headers_from_itc), a cost per ITC store paid again at the end of every run
 * (docs/performance.md, "Why it is fast"). The run's ITC hook feeds the traced stores here instead,
 * the same way: one perf decoder per ITC channel (stimulus mod 16), made when the channel's
 * first 32-bit marker store arrives (stores before it cannot belong to a header); a store on
 * a channel without one costs a load and a compare. */
#ifndef TS_PERF_LIVE_H
#define TS_PERF_LIVE_H
#include <stdbool.h>
#include <stdint.h>
#include "perf_decode.h"

struct perf_live_ch;
typedef struct perf_live {
    struct perf_live_ch *ch[16]; /* NULL until the channel's first marker */
    bool oom;                    /* a decoder could not be allocated: no headers */
} perf_live_t;

/* one ITC store the encoder accepted (an itc.csv row with status traced); value cut to size */
void perf_live_store(perf_live_t *p, unsigned hart, unsigned stim, unsigned off, unsigned size, uint32_t value);
/* the last header each hart stored on the first channel (lowest number) that carries a complete
 * one, at most max, in hart order; *channel set when there is one. The number of headers
 * (0: none), or -1 with "out of memory" in err. As ts_perf_headers_from_itc on the run's itc.csv. */
int perf_live_headers(const perf_live_t *p, perf_header_t *h, unsigned max, unsigned *channel, char *err, size_t errlen);
void perf_live_free(perf_live_t *p);
#endif
