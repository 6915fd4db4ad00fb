/* msg_json.h - `tracesim decode -f messages`: one JSON line per Nexus message, the layout of
 * the reference files of real captures (../shared/captures/README.md, docs/commands/decode.md):
 *
 *   {"bytes": "1c:61:15:23", "fields": {"data": 5, "idtag": 24}, "n": 4,
 *    "name": "DATA ACQUISITION", "offset": 17, "tcode": 7, "tics": 29}      (one line)
 *
 * keys in strcmp order, "src" with SRC fields, "tics" when the time is known; a corrupt
 * message as {"bytes": ..., "error": "...", "n": N, "offset": O, "tcode": T}; a message cut
 * off at the end of the trace is counted, not listed.
 *
 * Formatted by hand into 1 MiB blocks that go to the stream in one write each. The constant
 * text between the numbers is made once and copied in fixed 16-, 32- and 64-byte pieces, each
 * followed by its number (fmt_fast.h): the fields part from a template per (TCODE, fields
 * present), the name and the tail per TCODE; "n" is a decimal counter, the message bytes a
 * 256-entry table; offset and tics are formatted together (fmt_8digits_pair). mj_decode runs
 * the decoder's loop (nexus_decode_loop.h) with the formatter compiled into it. */
#ifndef TS_MSG_JSON_H
#define TS_MSG_JSON_H
#include "fmt_fast.h"
#include "nexus_decode.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MJ_LINE_MAX 2048 /* the most one line (and its scratch) takes: mj_line's room */
#define MJ_PREALLOC (32u << 20)
#define MJ_TPL 256 /* template slots (hashed by TCODE and the fields present) */

/* a printed field of a template: the text before its value ('"data": ', then
 * ', "idtag": '), its length and the field's id, in 16 bytes: copied whole (len and id land
 * in the scratch after the text and are overwritten) */
typedef struct mj_fld {
    char s[14];
    uint8_t len, id;
} mj_fld_t;

/* the fields part of a line for one (TCODE, fields present, CKSRC 0 or not): its printed
 * fields in by-name order */
typedef struct mj_tpl {
    uint32_t key; /* MJ_KEY of what it is for; 0: empty slot */
    uint32_t nf;  /* printed fields */
    mj_fld_t f[NXF__COUNT];
} mj_tpl_t;

typedef struct mj {
    FILE *out;
    bool process; /* Ownership messages show PROCESS (a tracesim run) */
    uint64_t n, truncated, bad;
    fmt_ctr_t nd;         /* n in decimal */
    char name[64][64];    /* ', "name": "TCODE NAME", "offset": ' */
    char tail[64][2][32]; /* ', "tcode": T}\n' and ', "tcode": T, "tics": ' */
    uint8_t name_len[64], tail_len[64][2];
    uint32_t hex3[256]; /* a byte as "hh:" (fmt_hex3_bytes) */
    mj_tpl_t *last;     /* the template of the last line */
    mj_tpl_t tpl[MJ_TPL];
    /* where mj_flush puts the block: NULL for out (fwrite), else sink(sink_ctx, ...) (a decode
     * in parts: msg_json_par.c writes the parts' blocks in order) */
    void (*sink)(void *sink_ctx, const char *p, size_t n);
    void *sink_ctx;
    /* prealloc: out is a new regular file of this process's own (decode -o): its blocks are
     * allocated MJ_PREALLOC bytes ahead of the writes (fallocate, the size kept), which makes
     * the kernel's write of a new page cheaper (docs/performance.md, "Messages on several
     * threads"); mj_end
     * gives back what is left past the end */
    bool prealloc;
    uint64_t written, allocated;
    size_t used; /* bytes in buf not yet written (mj_flush) */
    char buf[1 << 20];
} mj_t;

/* a context for out (written only by mj_flush; make it unbuffered, the blocks are big) */
void mj_init(mj_t *c, FILE *out, bool process);
/* formats m as the next line ("n" counts up) at p (MJ_LINE_MAX bytes of room; the bytes
 * after the line are scratch) and returns its end; not for a cut-off message (mj_msg counts
 * those instead) */
char *mj_line(mj_t *c, char *p, const nxd_msg_t *m);
/* nxd_cb: the line of m into the block (a cut-off message only counted) */
int mj_msg(void *ctx, const nxd_msg_t *m);
/* nxd_decode of buf[0..len) with every message formatted (mj_msg called directly, not
 * through a pointer): the same lines as nxd_decode(d, buf, len, mj_msg, c) */
void mj_decode(mj_t *c, nxd_t *d, const uint8_t *buf, size_t len);
/* mj_msg of m[0..n) (decoded messages in order: nxd_parse and nxd_time) */
void mj_lines(mj_t *c, const nxd_msg_t *m, size_t n);
/* writes p[0..n) to c->out (with c->prealloc: allocates ahead first) */
void mj_write(mj_t *c, const char *p, size_t n);
/* after the last mj_flush: the blocks allocated past the end given back (prealloc) */
void mj_end(mj_t *c);
/* writes the lines gathered so far (to out: errors stay in the stream, ferror; or to sink) */
void mj_flush(mj_t *c);
#endif
