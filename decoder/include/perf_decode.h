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
 * last perf store of a trace that ends in a cut-off message, or of a trace that did not end
 * normally (perf_dec_ended_early: stop-on-wrap), may have lost its 16-bit high part, so it is
 * not reported (the record is truncated); so is a value whose parts straddle a trace-off or
 * an Error message (perf_dec_trace_off, perf_dec_gap). A truncated record's values are never
 * summed (profile.c) and every writer marks it.
 *
 * Per-value times (vtics): the time of the message that completed the value, SiFive's rule for
 * its counter lines (trace-hw-facts.md 6.2 item 7): the 16-bit high part for a 48-bit value;
 * otherwise the next store on the channel (the next counter's low word, the next record's
 * type byte, or a marker); for the last value of the trace, which nothing follows, the time
 * of its own low word. The same rule for the other parts (SiFive's decoder stamps each line
 * with the message that completed it): the mask's store (mask_tics), each definition's
 * counter_info store (def[i].tics), the store that completed the record's address, or its
 * call site for enter/exit (addr_tics: the address's high word when bit 0 said one follows).
 *
 * Implausible headers give a warning through the error callback (its text starts with
 * "warning: ", it counts in `warnings`, not `errors`, and decoding goes on): a counter of
 * width 1, or CSR 0 for a counter other than index 1 (the timestamp, which has no CSR).
 *
 * Gaps (lost perf data). An Error message (TS_ELEM_OVERFLOW: the ITC FIFO overflowed and
 * stores were lost, trace-hw-facts.md 1.8, 8.1 item 9) or a corrupt message is a gap in the
 * source's (every source's, for a corrupt message) perf data: perf_dec_gap. The record in
 * progress is reported as truncated with the parts that arrived before the gap (a low word
 * waiting for its high part is dropped: the high part may be what was lost), and decoding
 * resynchronises at the next record-type byte (an 8-bit store) or marker. The gap is
 * reported through the error callback with a text starting "gap: " (counted in `gaps`, not
 * `errors`), and the next record carries gap_before. What the lost records carried is
 * unknown, so from the gap until the next header: Delta running values (the sum of the
 * deltas) are unknown, the deltas are still what was received; DeltaXOR values, their deltas
 * and the XOR-chained addresses are unknown, only the received XOR (raw, addr_wire) is
 * known; Raw values stay absolute and only the first value of each counter after the gap has
 * no delta. Unknown parts are flagged (value_unknown, delta_unknown, addr_unknown with
 * has_addr/has_call_site false) and hold 0, never a guess. A gap inside a header loses the
 * header (records are ignored until the next marker). Not detectable: a gap that swallows a
 * later header's marker but not its count-type byte, which then looks like a record type (the
 * perf library writes its one header before any record, polling, so it never happens there).
 *
 * Out-of-band header (a wrapped buffer whose header was overwritten): perf_dec_set_config
 * gives a core the header before decoding; the core then starts as after a gap (resync at
 * the first record-type byte, same unknowns). A header in the trace replaces it. The text
 * format of such a header (`perf_config.txt`, written by `tracesim run`, read by
 * --perf-config) is in perf_config_parse. */
#ifndef TS_PERF_DECODE_H
#define TS_PERF_DECODE_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "elements.h"
#include "nexus_decode.h"

#include "ts_perf_wire.h" /* the wire format (TS_PW_*): rtl_model/regs/perf_wire.def */

#define PERF_MAX_COUNTERS TS_PW_MAX_COUNTERS
#define PERF_MAX_CORES 16

/* the count and record types of perf_wire.def: PERF_RAW, PERF_DELTA, PERF_DELTA_XOR;
 * PERF_FUNC_ENTER, PERF_FUNC_EXIT, PERF_MANUAL, PERF_ISR */
enum perf_count_type {
#define TS_PW_COUNT(name, value, sifive, desc) PERF_##name = value,
#include "perf_wire.def"
};
enum perf_record_type {
#define TS_PW_RECORD(name, value, sifive, addrs, desc) PERF_##name = value,
#include "perf_wire.def"
};

typedef struct perf_counter_def {
    unsigned index;      /* counter index (bit of the mask) */
    unsigned type;       /* 0 HW general, 1 HW cache, 2 HW raw */
    uint32_t code;       /* type 0/1 */
    uint64_t event_data; /* type 2 */
    uint32_t info;       /* counter_info: CSR in 11:0, width - 1 in 17:12 */
    unsigned width;      /* ((info >> 12) & 0x3F) + 1 */
    bool tics_valid;
    uint64_t tics; /* time of the store that completed the definition (its counter_info) */
} perf_counter_def_t;

typedef struct perf_header {
    unsigned core;
    enum perf_count_type count_type;
    uint32_t mask;
    unsigned n;
    perf_counter_def_t def[PERF_MAX_COUNTERS];
    bool tics_valid;
    uint64_t tics; /* time of the marker */
    bool mask_tics_valid;
    uint64_t mask_tics; /* time of the counter mask's store */
} perf_header_t;

typedef struct perf_record {
    unsigned core;
    enum perf_record_type type;
    bool has_addr;      /* addr arrived whole (false only in a truncated record) */
    uint64_t addr;      /* function (enter/exit), caller PC (manual), mepc (ISR); 0 if absent */
    bool has_call_site; /* enter/exit: call_site arrived whole */
    uint64_t call_site; /* enter/exit only; 0 if absent */
    bool tics_valid;
    uint64_t tics; /* time of the record-type store */
    bool addr_tics_valid;
    uint64_t addr_tics; /* time of the store that completed the address (enter/exit: the call site) */
    uint64_t offset;    /* trace offset of the record-type store's message */
    unsigned n;         /* counters present (fewer than the header's if truncated) */
    unsigned index[PERF_MAX_COUNTERS];
    uint64_t raw[PERF_MAX_COUNTERS];   /* as received (48 bits at most) */
    uint64_t value[PERF_MAX_COUNTERS]; /* absolute (Raw, DeltaXOR) or running (Delta) */
    uint64_t delta[PERF_MAX_COUNTERS]; /* change since the previous record, mod 2^width */
    bool vtics_valid[PERF_MAX_COUNTERS];
    uint64_t vtics[PERF_MAX_COUNTERS]; /* time of the message that completed the value */
    bool truncated;
    /* after a gap (see above); all false/0 in a record of an unbroken trace */
    bool gap_before;                    /* perf data of this hart was lost between the previous record and this one */
    uint32_t value_unknown;             /* bit i: value[i] is unknown (0): Delta/DeltaXOR after a gap */
    uint32_t delta_unknown;             /* bit i: delta[i] is unknown (0): DeltaXOR after a gap, Raw's first value after it */
    bool addr_unknown;                  /* DeltaXOR after a gap: the addresses are XORed into lost ones (has_addr,
                                 has_call_site false, addr/call_site 0; addr_wire/call_site_wire as received) */
    uint64_t addr_wire, call_site_wire; /* the address fields as received (DeltaXOR: the XOR) */
} perf_record_t;

typedef struct perf_dec_cb {
    void *ctx;
    void (*header)(void *ctx, const perf_header_t *h);
    void (*record)(void *ctx, const perf_record_t *r);
    void (*error)(void *ctx, unsigned core, uint64_t offset, const char *what);
} perf_dec_cb_t;

enum perf_state { PS_SYNC,
                  PS_COUNT_TYPE,
                  PS_MASK,
                  PS_DEF_TYPE,
                  PS_DEF_CODE,
                  PS_DEF_ED_LO,
                  PS_DEF_ED_HI,
                  PS_DEF_INFO,
                  PS_REC_TYPE,
                  PS_ADDR,
                  PS_ADDR_HI,
                  PS_COUNTERS,
                  PS_RESYNC /* header known, data lost: waits for a record-type byte */ };

typedef struct perf_core {
    enum perf_state st;
    perf_header_t h;
    unsigned def_i; /* definition being read */
    perf_record_t r;
    unsigned addr_i; /* 0: first address, 1: call site */
    uint64_t addr_lo, prev_addr;
    bool pending_low; /* a counter's low word waits for a possible high part */
    bool low_off;     /* tracing went off while it waited (perf_dec_trace_off) */
    uint32_t low;
    bool low_tics_valid;
    uint64_t low_tics; /* time of that low word */
    bool have_prev;
    uint64_t prev[PERF_MAX_COUNTERS]; /* previous absolute value per counter index */
    bool in_record;
    unsigned got_addrs;  /* addresses of the current record that arrived whole */
    bool gap;            /* a gap since the last record: the next one gets gap_before */
    bool lost;           /* a gap since the header: Delta/DeltaXOR values are unknown */
    uint32_t prev_known; /* bit per counter index: prev[] is known (Raw deltas) */
    perf_header_t cfg;   /* the out-of-band header (perf_dec_set_config) */
    bool cfg_pending;    /* given, not used yet */
    bool cfg_used;       /* records were decoded with it (until the trace's own header) */
} perf_core_t;

typedef struct perf_dec {
    unsigned channel; /* ITC stimulus channel (default 6) */
    uint32_t marker;
    perf_dec_cb_t cb;
    perf_core_t core[PERF_MAX_CORES];
    uint64_t headers, records, errors, warnings, gaps;
    uint64_t config_used; /* cores whose records were decoded with an out-of-band header */
    bool cut;             /* a message was cut off by the end of the trace */
    bool ended_early;     /* the trace did not end normally (perf_dec_ended_early) */
    char msg[160];        /* text of the last formatted warning */
} perf_dec_t;

void perf_dec_init(perf_dec_t *d, unsigned channel, const perf_dec_cb_t *cb);
/* one ITC stimulus store as the encoder of `hart` sends it (a Data Acquisition message, IDTAG
 * = stimulus << 2 | byte offset), stamped tics: for decoding a ground-truth itc.csv */
void perf_dec_feed_store(perf_dec_t *d, unsigned hart, unsigned stim, unsigned off, uint32_t value,
                         uint64_t tics);
/* one software-trace element (ignores other elements and other channels) */
void perf_dec_feed_elem(perf_dec_t *d, const ts_elem_t *e);
/* the same from a decoded message (Data Acquisition on the perf channel; a message cut off
 * by the end of the trace is noted, see above) */
void perf_dec_feed(perf_dec_t *d, const nxd_msg_t *m);
/* end of trace: completes a record whose last value was pending, reports a cut-off one */
void perf_dec_finish(perf_dec_t *d);
/* the trace did not end where the firmware stopped writing (the sink stopped on wrap, the
 * file was cut): at perf_dec_finish a low word that waits for its high part is not known to
 * be whole, so its record is truncated without it. Call before perf_dec_finish. */
void perf_dec_ended_early(perf_dec_t *d);
/* tracing of source `src` went off (an ICT Control trace-off, a CORRELATION with EVCODE 4;
 * perf_dec_feed and perf_dec_feed_elem call it): a value whose high part arrives after it
 * straddles the off (stores made while tracing was off are lost), so its record is cut (a
 * gap); a low word followed by anything else stays whole (the perf library writes a value's
 * parts back to back, before it can switch tracing off) */
void perf_dec_trace_off(perf_dec_t *d, unsigned src);
/* perf data of `core` was lost at trace offset `offset` (why: a short reason for the "gap: "
 * text); a core without a header ignores it. perf_dec_feed_elem calls it for OVERFLOW (that
 * source) and CORRUPT (every core) elements, perf_dec_feed for Error and corrupt messages. */
void perf_dec_gap(perf_dec_t *d, unsigned core, uint64_t offset, const char *why);
/* the header of core h->core, known out of band: used until the trace has its own header;
 * decoding starts as after a gap (see above). Call after perf_dec_init, before feeding. */
void perf_dec_set_config(perf_dec_t *d, const perf_header_t *h);

/* An out-of-band perf header as text (`perf_config.txt`): one `key=value` item per line or
 * several separated by blanks, `#` starts a comment:
 *     channel=6                      the perf ITC channel (optional)
 *     hart=0                         starts a hart's header (optional before the first)
 *     count_type=Delta               Raw, Delta or DeltaXOR (or 0, 1, 2)
 *     mask=0x0000000d                the counter mask
 *     counter=0 type=0 code=1 info=0x0003fb00          one line per mask bit, ascending;
 *     counter=3 type=2 event_data=0x600 info=0x0002704  type 0/1 with code, 2 with event_data
 * info is the counter_info word (CSR in bits 11:0, width - 1 in 17:12), exactly as in the
 * header. perf_config_parse returns the number of headers (>= 1) or -1 with a reason in
 * err; *channel is set when the file names one (else left alone). */
int perf_config_parse(const char *text, perf_header_t *h, unsigned max, unsigned *channel, char *err, size_t errlen);
/* writes h in that format (channel and hart lines included); 0, or -1 if writing failed */
int perf_config_write(FILE *f, unsigned channel, const perf_header_t *h);
const char *perf_record_name(enum perf_record_type t);
/* a counter's column name: cycles, instructions, timestamp (index 1), raw_0x<event> or
 * type<T>_code<C> */
void perf_counter_name(const perf_counter_def_t *d, char *buf, size_t len);
#endif
