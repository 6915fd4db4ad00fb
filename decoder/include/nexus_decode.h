/* nexus_decode.h - stage 1 and 2 of the trace decoder: bytes -> Nexus messages.
 *
 * Framing follows SiFive's decoder (dqr): while looking for a message start, 0xFF idle
 * bytes, 0x00 bytes and bytes whose MSEO is not 00 are skipped; a message is every byte up
 * to and including the first with MSEO 11, at most 64 bytes. Fields are read by the per-TCODE
 * tables of trace-hw-facts.md 4.4; a variable field that ends with MSEO 01 before the last
 * field is followed by a TSTAMP. An ICT/ICT-WS message whose CKDATA0 is an address (any
 * CKSRC but 0, and CKSRC 0 with CKDF 1) also has it as U-ADDR (TCODE 34) or F-ADDR (35). Timestamps are rebuilt per source: full on sync-type and
 * ICT-WS messages, XOR with the previous one otherwise, unknown until the first full one;
 * a corrupt message forgets the time of every source (its SRC cannot be trusted), an Error
 * message the time of its own source when messages carry SRC (srcbits > 0: the encoder of
 * that source lost messages, the others did not; dqr forgets every core's), else of all.
 * Corrupt input (unknown TCODE, a field wider than 64 bits, too long, wrong field layout)
 * gives a message with status NXD_BAD and decoding resumes at the next byte; a message cut
 * off by the end of the input gives NXD_TRUNCATED. The decoder never reads past the input. */
#ifndef TS_NEXUS_DECODE_H
#define TS_NEXUS_DECODE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ts_nexus_codes.h" /* the TCODEs (NX_*), field widths and codes: rtl_model/regs/nexus.def */

#define NXD_MAX_MSG 64
#define NXD_MAX_SRC 256

enum nxd_status { NXD_OK,
                  NXD_TRUNCATED,
                  NXD_BAD };

/* field identifiers (JSON names in nxd_field_name) */
enum nxd_field {
    NXF_IDTAG,
    NXF_DATA,
    NXF_PROCESS,
    NXF_I_CNT,
    NXF_F_ADDR,
    NXF_U_ADDR,
    NXF_HISTORY,
    NXF_RCODE,
    NXF_COUNT,
    NXF_SYNC,
    NXF_B_TYPE,
    NXF_EVCODE,
    NXF_CDF,
    NXF_CKSRC,
    NXF_CKDF,
    NXF_CKDATA0,
    NXF_CKDATA1,
    NXF_CONTROL,
    NXF_ETYPE,
    NXF_ECODE,
    NXF_ADDR,
    NXF__COUNT
};

typedef struct nxd_msg {
    uint64_t offset;      /* byte offset of the first byte */
    const uint8_t *bytes; /* points into the input */
    uint32_t len;
    enum nxd_status status;
    const char *error; /* for NXD_BAD: what was wrong */
    uint8_t tcode;
    bool has_src;
    uint32_t src;
    bool has_ts; /* the message carries a TSTAMP field */
    uint64_t ts_field;
    bool tics_valid; /* the absolute time is known */
    uint64_t tics;
    uint32_t fmask; /* bit f set: fields[f] present */
    uint64_t f[NXF__COUNT];
} nxd_msg_t;

typedef struct nxd_cfg {
    unsigned srcbits; /* SRC field width, 0..8 */
    unsigned tsbits;  /* timestamp width for wrap handling (default 40) */
} nxd_cfg_t;

typedef struct nxd {
    nxd_cfg_t cfg;
    uint64_t ts_span, ts_mask; /* 2^tsbits (0 for 64) and its mask (nxd_init) */
    uint64_t last_time[NXD_MAX_SRC];
    uint64_t offset;                /* bytes consumed so far (nxd_decode_stream: decoded or skipped) */
    uint8_t carry[2 * NXD_MAX_MSG]; /* nxd_decode_stream: a message begun in the last piece */
    size_t ncarry;
    uint64_t messages, bad, skipped;
} nxd_t;

/* returns 0 to continue, non-zero to stop decoding */
typedef int (*nxd_cb)(void *ctx, const nxd_msg_t *m);

int nxd_init(nxd_t *d, const nxd_cfg_t *cfg);
/* Decodes buf[0..len) (a whole trace, or consecutive pieces of one: a message may not span
 * pieces); calls cb for every message, good or bad. Returns 0, or cb's stop value. */
int nxd_decode(nxd_t *d, const uint8_t *buf, size_t len, nxd_cb cb, void *ctx);
/* nxd_decode passing on the messages of source src only (src < 0, or a trace without SRC
 * fields: every message). Corrupt and cut-off messages are passed on whatever their SRC: it
 * cannot be trusted, and every source's decode must see them (a gap). */
int nxd_decode_src(nxd_t *d, const uint8_t *buf, size_t len, int src, nxd_cb cb, void *ctx);
/* The same for a trace given in consecutive pieces of any size (read in chunks: memory
 * independent of the trace's length): a message may span pieces; the decoder keeps the
 * bytes of one begun at the end of a piece (fewer than 64) and the sources' times across
 * calls. more: further pieces follow (the last call passes false, with len 0 if need be),
 * so a message cut off by the end of a piece waits for the next one instead of being
 * NXD_TRUNCATED. The messages, their offsets and times are exactly those of nxd_decode of
 * the whole trace; m->bytes is valid during the callback only. After a stop value (cb
 * returned non-zero) the stream cannot be resumed. */
int nxd_decode_stream(nxd_t *d, const uint8_t *buf, size_t len, bool more, nxd_cb cb, void *ctx);
/* A decode in two steps, for one on several threads (msg_json_par.c): nxd_parse decodes
 * buf[0..len) as nxd_decode does, up to the first message that starts at or after limit, into
 * out[] (room for min(len, limit) messages: each starts at its own byte before limit), but
 * without the sources' times (d's times neither used nor changed; the counters and
 * d->offset move on as nxd_decode's); returns the messages stored. nxd_time then gives them
 * their times in order: nxd_parse of a piece and nxd_time of its messages leave the
 * messages and d as nxd_decode of the piece would. The parse of a later piece needs no
 * state from the pieces before, so the pieces parse at the same time; only the time pass
 * (a few instructions a message) runs in order. */
size_t nxd_parse(nxd_t *d, const uint8_t *buf, size_t len, size_t limit, nxd_msg_t *out);
void nxd_time(nxd_t *d, nxd_msg_t *m, size_t n);
/* The message that starts at b[0] (framing of this header's comment): returns its length
 * (1..64: up to and including the first byte with MSEO 11), 0 when avail bytes end before
 * that byte (at most 64 of them: cut off), -1 when 64 bytes hold no end (too long). *fend
 * gets a bit per byte of the message (bit x for b[x], x below the length or the bytes
 * looked at) set where MSEO is not 00: the ends of its variable fields. Reads only
 * b[0..min(avail, 64)). */
int nxd_scan_msg(const uint8_t *b, size_t avail, uint64_t *fend);
const char *nxd_tcode_name(unsigned tcode);
const char *nxd_field_name(enum nxd_field f);
/* the fields in the (strcmp) order of their names: the messages JSON lists them so */
extern const enum nxd_field nxd_fields_by_name[NXF__COUNT];
#endif
