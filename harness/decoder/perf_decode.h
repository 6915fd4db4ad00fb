/* perf_decode.h - stage 3 of the trace decoder: the SiFive perf library's ITC protocol
 * (trace-hw-facts.md 5.4, 5.5) -> perf headers and records.
 *
 * Fed with the decoded Nexus messages (nexus_decode.h) in order. Only Data Acquisition
 * messages on the perf channel (IDTAG 4c..4c+3) are used; the store size comes from IDTAG & 3
 * (0: 32-bit, 2: 16-bit, 3: 8-bit). Per source (hart) it tracks: marker -> count type ->
 * counter mask -> one definition per counter (type, code or event data, counter_info) ->
 * records (type byte, address(es) with the bit-0 "high word follows" flag, then one value per
 * counter: a 32-bit low word optionally followed by a 16-bit high part).
 *
 * Differences from SiFive's decoder, on purpose: a marker in the middle of records starts a
 * new header (trace switched off and on); the last counter of the last record is reported
 * (at perf_dec_finish); Delta values are turned into running values (the sum of the deltas
 * since the header, modulo 2^width; `raw` keeps the delta as received); a record cut off by
 * the end of the trace is reported as truncated, with the parts it has, never completed with
 * guesses: has_addr / has_call_site / n say which parts arrived. A value whose low word is the
 * last perf store of a trace that ends in a cut-off message may have lost its 16-bit high
 * part, so it is not reported (the record is truncated).
 *
 * Per-value times (vtics): the time of the message that completed the value, SiFive's rule for
 * its counter lines (trace-hw-facts.md 6.2 item 7): the 16-bit high part for a 48-bit value;
 * otherwise the next store on the channel (the next counter's low word, the next record's
 * type byte, or a marker); for the last value of the trace, which nothing follows, the time
 * of its own low word.
 *
 * Implausible headers give a warning through the error callback (its text starts with
 * "warning: ", it counts in `warnings`, not `errors`, and decoding goes on): a counter of
 * width 1, or CSR 0 for a counter other than index 1 (the timestamp, which has no CSR). */
#ifndef TS_PERF_DECODE_H
#define TS_PERF_DECODE_H
#include <stdbool.h>
#include <stdint.h>
#include "elements.h"
#include "nexus_decode.h"

#define PERF_MARKER 0x70657266u
#define PERF_MAX_COUNTERS 32
#define PERF_MAX_CORES 16

enum perf_count_type { PERF_RAW = 0, PERF_DELTA = 1, PERF_DELTA_XOR = 2 };
enum perf_record_type { PERF_FUNC_ENTER = 0, PERF_FUNC_EXIT = 1, PERF_MANUAL = 2, PERF_ISR = 3 };

typedef struct perf_counter_def {
    unsigned index;           /* counter index (bit of the mask) */
    unsigned type;            /* 0 HW general, 1 HW cache, 2 HW raw */
    uint32_t code;            /* type 0/1 */
    uint64_t event_data;      /* type 2 */
    uint32_t info;            /* counter_info: CSR in 11:0, width - 1 in 17:12 */
    unsigned width;           /* ((info >> 12) & 0x3F) + 1 */
} perf_counter_def_t;

typedef struct perf_header {
    unsigned core;
    enum perf_count_type count_type;
    uint32_t mask;
    unsigned n;
    perf_counter_def_t def[PERF_MAX_COUNTERS];
    bool tics_valid;
    uint64_t tics;            /* time of the marker */
} perf_header_t;

typedef struct perf_record {
    unsigned core;
    enum perf_record_type type;
    bool has_addr;            /* addr arrived whole (false only in a truncated record) */
    uint64_t addr;            /* function (enter/exit), caller PC (manual), mepc (ISR); 0 if absent */
    bool has_call_site;       /* enter/exit: call_site arrived whole */
    uint64_t call_site;       /* enter/exit only; 0 if absent */
    bool tics_valid;
    uint64_t tics;            /* time of the record-type store */
    unsigned n;               /* counters present (fewer than the header's if truncated) */
    unsigned index[PERF_MAX_COUNTERS];
    uint64_t raw[PERF_MAX_COUNTERS];      /* as received (48 bits at most) */
    uint64_t value[PERF_MAX_COUNTERS];    /* absolute (Raw, DeltaXOR) or running (Delta) */
    uint64_t delta[PERF_MAX_COUNTERS];    /* change since the previous record, mod 2^width */
    bool vtics_valid[PERF_MAX_COUNTERS];
    uint64_t vtics[PERF_MAX_COUNTERS];    /* time of the message that completed the value */
    bool truncated;
} perf_record_t;

typedef struct perf_dec_cb {
    void *ctx;
    void (*header)(void *ctx, const perf_header_t *h);
    void (*record)(void *ctx, const perf_record_t *r);
    void (*error)(void *ctx, unsigned core, uint64_t offset, const char *what);
} perf_dec_cb_t;

enum perf_state { PS_SYNC, PS_COUNT_TYPE, PS_MASK, PS_DEF_TYPE, PS_DEF_CODE, PS_DEF_ED_LO,
                  PS_DEF_ED_HI, PS_DEF_INFO, PS_REC_TYPE, PS_ADDR, PS_ADDR_HI, PS_COUNTERS };

typedef struct perf_core {
    enum perf_state st;
    perf_header_t h;
    unsigned def_i;           /* definition being read */
    perf_record_t r;
    unsigned addr_i;          /* 0: first address, 1: call site */
    uint64_t addr_lo, prev_addr;
    bool pending_low;         /* a counter's low word waits for a possible high part */
    uint32_t low;
    bool low_tics_valid;
    uint64_t low_tics;        /* time of that low word */
    bool have_prev;
    uint64_t prev[PERF_MAX_COUNTERS];     /* previous absolute value per counter index */
    bool in_record;
} perf_core_t;

typedef struct perf_dec {
    unsigned channel;         /* ITC stimulus channel (default 6) */
    uint32_t marker;
    perf_dec_cb_t cb;
    perf_core_t core[PERF_MAX_CORES];
    uint64_t headers, records, errors, warnings;
    bool cut;                 /* a message was cut off by the end of the trace */
    char msg[160];            /* text of the last formatted warning */
} perf_dec_t;

void perf_dec_init(perf_dec_t *d, unsigned channel, const perf_dec_cb_t *cb);
/* one software-trace element (ignores other elements and other channels) */
void perf_dec_feed_elem(perf_dec_t *d, const ts_elem_t *e);
/* the same from a decoded message (Data Acquisition on the perf channel; a message cut off
 * by the end of the trace is noted, see above) */
void perf_dec_feed(perf_dec_t *d, const nxd_msg_t *m);
/* end of trace: completes a record whose last value was pending, reports a cut-off one */
void perf_dec_finish(perf_dec_t *d);
const char *perf_record_name(enum perf_record_type t);
/* a counter's column name: cycles, instructions, timestamp (index 1), raw_0x<event> or
 * type<T>_code<C> */
void perf_counter_name(const perf_counter_def_t *d, char *buf, size_t len);
#endif
