/* perf_stream.h - the decode side of perf_check.c, streamed: decode A (trace.rtd in pieces ->
 * Nexus -> elements -> perf records) and decode B (one hart's ITC stores, itc.csv, fed to the
 * same perf decoder with A's gaps at the same store positions), each producing records into
 * a small queue as the check asks for them. What they hold is a read buffer, the decoders'
 * state (per hart) and the records and gaps decoded but not yet taken: a few, never the run.
 *
 * B needs a gap of A before the store it falls before: B drives A forward until A has
 * passed that store (ps_b_step), so A is never behind B and its gaps wait in A's queue only
 * until B reaches them. Counting passes use the same sources with nothing queued. */
#ifndef TS_PERF_STREAM_H
#define TS_PERF_STREAM_H
#include "elements.h"
#include "perf_check_cfg.h"
#include "perf_decode.h"
#include "trace_in.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PS_NH PERF_CHECK_HARTS
#define PS_NONE PS_NH /* no hart: count only */

/* what the check needs of a decoded record */
typedef struct crec {
    enum perf_record_type type;
    bool has_addr, has_call_site, tics_valid, truncated, gap_before, addr_unknown;
    bool cut_by_gap; /* B: truncated by a gap */
    unsigned n;
    uint32_t value_unknown, delta_unknown;
    uint64_t addr, call_site, tics, addr_wire, call_site_wire;
    uint64_t raw[PERF_MAX_COUNTERS]; /* the values as received */
} crec_t;

/* a FIFO of records */
typedef struct ps_rq {
    crec_t *r;
    size_t head, n, cap;
} ps_rq_t;

/* decode A: the trace */
typedef struct ps_a {
    ts_trace_in_t tin;
    ts_elem_stage_t es;
    perf_dec_t *pd;
    unsigned hart; /* the hart whose records (queue_recs) and gaps are queued; PS_NONE: none */
    bool queue_recs;
    bool stopped_on_wrap;
    bool ended; /* the whole trace was decoded (and the perf decoder finished) */
    bool oom;
    uint64_t stores[PS_NH]; /* ITC stores (Data Acquisition, Ownership) per source so far */
    uint64_t records[PS_NH], errors[PS_NH], gaps[PS_NH];
    ps_rq_t q;    /* the hart's records */
    uint64_t *gq; /* the hart's gaps not yet taken: before its store number gq[i] */
    size_t gh, gn, gcap;
} ps_a_t;

/* one ITC store of a hart for decode B */
typedef struct ps_store {
    uint64_t cycle;
    unsigned stim, off;
    uint32_t value;
} ps_store_t;
/* store j of the hart (0, 1, ...; asked in order); false after the last */
typedef bool (*ps_store_fn)(void *ctx, size_t j, ps_store_t *s);

/* decode B: one hart's stores */
typedef struct ps_b {
    perf_dec_t *pd;
    unsigned hart;
    bool queue_recs;
    ps_store_fn store;
    void *store_ctx;
    ps_a_t *a;      /* A for the hart's gaps (NULL: the trace has none of this hart) */
    size_t j, base; /* the next store; the first one in a wrapped trace */
    bool wrapped, b0_set, in_gap, ended, oom;
    uint64_t records, errors, b0; /* b0: records before the oldest one in a wrapped trace */
    bool manual, hooks;           /* a manual / an enter or exit record */
    ps_rq_t q;
    /* headers: the last one, and each one as it is decoded (on_header, if set) */
    bool have_h;
    perf_header_t h;
    uint64_t nhd;
    void (*on_header)(void *ctx, const perf_header_t *h, uint64_t k); /* k: 0, 1, ... */
    void *hd_ctx;
} ps_b_t;

/* opens A on the trace file (cfgh: ncfgh out-of-band headers of a wrapped trace); -1: the
 * trace cannot be read, -2: out of memory */
int ps_a_open(ps_a_t *a, const char *path, const nxd_cfg_t *ncfg, const perf_check_cfg_t *cfg, const perf_header_t *cfgh,
              int ncfgh, unsigned hart, bool queue_recs);
/* decodes the next piece; false once the whole trace was decoded */
bool ps_a_step(ps_a_t *a);
void ps_a_close(ps_a_t *a);

int ps_b_open(ps_b_t *b, const perf_check_cfg_t *cfg, unsigned hart, size_t base, ps_store_fn store, void *store_ctx, ps_a_t *a,
              bool queue_recs);
/* feeds the next store (with the gaps before it); false once every store was fed */
bool ps_b_step(ps_b_t *b);
void ps_b_close(ps_b_t *b);

/* the oldest queued record, decoding more as needed (NULL: none left); ps_rq_pop drops it */
const crec_t *ps_a_next(ps_a_t *a);
const crec_t *ps_b_next(ps_b_t *b);
void ps_rq_pop(ps_rq_t *q);
#endif
