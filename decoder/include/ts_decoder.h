/* ts_decoder.h - the trace decoder library's one entry point: the whole pipeline for a trace
 * and its configuration, built by one call (docs/internals.md "Modules").
 *
 *   trace bytes --nxd (nexus_decode.h)--> messages --ts_elem (elements.h)--> elements
 *               --perf_dec (perf_decode.h)--> perf headers and records (the caller's callbacks)
 *
 * The configuration says what the trace is (SRC and timestamp widths: trace.json's srcbits
 * and tsbits), which ITC channel carries perf records, the out-of-band perf headers
 * (perf_config.txt) and where the records go; optionally every element as well. The stages
 * stay reachable (p->perf for its counters, p->elem, p->nexus) for callers that need more.
 * The stage headers remain public for the single-stage uses (msg_json.h's message printer,
 * prog_flow.h's program flow, stm_decode.h's software trace text). */
#ifndef TS_DECODER_H
#define TS_DECODER_H
#include "elements.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ts_pipeline_cfg {
    nxd_cfg_t trace;              /* srcbits, tsbits */
    unsigned perf_channel;        /* the ITC channel of the perf records */
    perf_dec_cb_t perf_cb;        /* the perf records' destination (perf_decode.h) */
    const perf_header_t *headers; /* out-of-band perf headers (perf_dec_set_config), or NULL */
    unsigned nheaders;
    ts_elem_cb elem_cb; /* also every element, after the perf stage saw it (NULL: none) */
    void *elem_ctx;
    uint64_t offset; /* the trace's offset of the first byte ts_pipeline_decode is given (a
                      * wrapped buffer decoded from its first message end) */
    bool one_src;    /* only the messages of source src (nxd_decode_src; no effect on a
                      * trace without SRC fields) */
    unsigned src;
} ts_pipeline_cfg_t;

typedef struct ts_pipeline {
    nxd_t nexus;
    ts_elem_stage_t elem;
    perf_dec_t *perf; /* the perf stage (its counters: headers, records, errors, ...) */
    ts_elem_cb elem_cb;
    void *elem_ctx;
    int src; /* cfg's one source, or -1 */
} ts_pipeline_t;

/* builds the stages for cfg: 0, or -1 (a bad trace configuration, out of memory) */
int ts_pipeline_init(ts_pipeline_t *p, const ts_pipeline_cfg_t *cfg);
/* an nxd_cb with the pipeline as its context: for callers that read the trace in pieces
 * (trace_in.h) */
int ts_pipeline_msg(void *p, const nxd_msg_t *m);
/* a whole trace in memory (from cfg's offset on) through the stages (then ts_pipeline_end) */
int ts_pipeline_decode(ts_pipeline_t *p, const uint8_t *buf, size_t len);
/* the end of the trace at byte offset end: the elements' end of trace, the perf stage's
 * finish (ended_early: the trace did not end normally, perf_dec_ended_early) */
void ts_pipeline_end(ts_pipeline_t *p, uint64_t end, bool ended_early);
void ts_pipeline_free(ts_pipeline_t *p);

/* init, decode the whole buffer, end; *perf_errors (if not NULL): the perf stage's errors.
 * 0, or -1 as ts_pipeline_init */
int ts_pipeline_run(const ts_pipeline_cfg_t *cfg, const uint8_t *buf, size_t len, uint64_t *perf_errors);
#endif
