/* msg_json.c - the messages JSON lines; see msg_json.h. */
#define _GNU_SOURCE /* fallocate */
#include "msg_json.h"
#include <fcntl.h>
#include <unistd.h>
#include "nexus_decode_loop.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* a template's key: TCODE, the fields present and whether CKDATA1 is printed (CKSRC not 0);
 * the rest of what decides the printed fields is the TCODE or the context */
#define MJ_KEY(tcode, fmask, ck) (1u | (uint32_t)(tcode) << 1 | (uint32_t)(ck) << 7 | (uint32_t)(fmask) << 8)

void mj_init(mj_t *c, FILE *out, bool process) {
    memset(c, 0, offsetof(mj_t, buf)); /* not the 1 MiB block: its pages are touched when it fills */
    c->out = out;
    c->process = process;
    fmt_ctr_init(&c->nd);
    for (unsigned t = 0; t < 64; t++) { /* the constant pieces, made once */
        c->name_len[t] = (uint8_t)snprintf(c->name[t], sizeof c->name[t], ", \"name\": \"%s\", \"offset\": ", nxd_tcode_name(t));
        c->tail_len[t][0] = (uint8_t)snprintf(c->tail[t][0], sizeof c->tail[t][0], ", \"tcode\": %u}\n", t);
        c->tail_len[t][1] = (uint8_t)snprintf(c->tail[t][1], sizeof c->tail[t][1], ", \"tcode\": %u, \"tics\": ", t);
    }
    fmt_hex3_init(c->hex3);
    c->last = &c->tpl[0];
}

/* fields printed per TCODE (the main numeric fields, as in the reference files); an ICT
 * address shows as f_addr (TCODE 35) or u_addr (34), and CKDATA1 (trigger id, call/return
 * XOR, cause, context or watchpoint id) as ckdata1 when CKSRC is not 0 (ck; for 0 it is
 * `control`) */
static uint32_t printed_fields(unsigned tcode, uint32_t fmask, bool ck, bool process) {
    uint32_t hide = (process ? 0 : 1u << NXF_PROCESS) | 1u << NXF_ETYPE | 1u << NXF_ECODE | 1u << NXF_CKDF |
                    1u << NXF_CKDATA0;
    if (tcode == NX_INDIRECT_BRANCH_WS || tcode == NX_INDIRECT_BRANCH_HIST_WS) hide |= 1u << NXF_B_TYPE;
    if ((tcode != NX_ICT && tcode != NX_ICT_WS) || !ck) hide |= 1u << NXF_CKDATA1;
    return fmask & ~hide;
}

/* the texts of a template: '"a": ', ', "b": ', ... */
static __attribute__((noinline, cold)) void tpl_make(mj_tpl_t *t, uint32_t key, uint32_t pm) {
    memset(t, 0, sizeof *t);
    t->key = key;
    for (int k = 0; k < NXF__COUNT; k++) {
        enum nxd_field f = nxd_fields_by_name[k];
        if (!(pm >> f & 1)) continue;
        mj_fld_t *x = &t->f[t->nf++];
        x->len = (uint8_t)snprintf(x->s, sizeof x->s, "%s\"%s\": ", t->nf > 1 ? ", " : "", nxd_field_name(f));
        x->id = (uint8_t)f;
    }
}

/* the template of a message: the last line's, else one of MJ_TPL slots by a hash (made on
 * a miss) */
static inline const mj_tpl_t *tpl_get(mj_t *c, const nxd_msg_t *m) {
    bool ck = (m->fmask >> NXF_CKDATA1 & 1) && m->f[NXF_CKSRC] != NX_CKSRC_CONTROL;
    uint32_t key = MJ_KEY(m->tcode, m->fmask, ck);
    if (__builtin_expect(c->last->key == key, 1)) return c->last;
    mj_tpl_t *t = &c->tpl[(key * 0x9E3779B1u) >> 24];
    if (t->key != key) tpl_make(t, key, printed_fields(m->tcode, m->fmask, ck, c->process));
    return c->last = t;
}

static __attribute__((noinline)) char *bad_line(mj_t *c, char *p, const nxd_msg_t *m) {
    c->bad++;
    static const char e0[] = "\", \"error\": \"", e1[] = "\", \"n\": ", e2[] = ", \"offset\": ", e3[] = ", \"tcode\": ";
    memcpy(p, e0, sizeof e0 - 1);
    p += sizeof e0 - 1;
    size_t el = strlen(m->error);
    if (el > 512) el = 512; /* the decoder's own short texts */
    memcpy(p, m->error, el);
    p += el;
    memcpy(p, e1, sizeof e1 - 1);
    p = fmt_ctr_put(p + sizeof e1 - 1, &c->nd);
    memcpy(p, e2, sizeof e2 - 1);
    p = fmt_u64_room24(p + sizeof e2 - 1, m->offset);
    memcpy(p, e3, sizeof e3 - 1);
    p = fmt_u64_room24(p + sizeof e3 - 1, m->tcode);
    *p++ = '}';
    *p++ = '\n';
    return p;
}

/* one line; the constant pieces are copied in fixed sizes (16, 32, 64 bytes) and the end
 * moved by their real lengths */
static inline __attribute__((always_inline)) char *line(mj_t *c, char *p, const nxd_msg_t *m) {
    c->n++;
    fmt_ctr_inc(&c->nd);
    static const char head[16] = "{\"bytes\": \"", fields[16] = "\", \"fields\": {", nkey[16] = "}, \"n\": ",
                      src[16] = ", \"src\": ";
    memcpy(p, head, 16);
    p = fmt_hex3_bytes(p + 11, m->bytes, m->len < NXD_MAX_MSG ? m->len : NXD_MAX_MSG, c->hex3);
    if (__builtin_expect(m->status == NXD_BAD, 0)) return bad_line(c, p, m);
    const mj_tpl_t *t = tpl_get(c, m);
    memcpy(p, fields, 16);
    p += 14;
    for (const mj_fld_t *f = t->f, *fe = t->f + t->nf; f < fe; f++) {
        memcpy(p, f->s, 16);
        p = fmt_u64_room24(p + f->len, m->f[f->id]);
    }
    memcpy(p, nkey, 16);
    p = fmt_ctr_put(p + 8, &c->nd);
    unsigned tc = m->tcode & 63;
    memcpy(p, c->name[tc], 64);
    p += c->name_len[tc];
    if (m->tics_valid && !m->has_src && m->offset < 100000000u && m->tics < 100000000u) {
        uint64_t doff, dtics; /* the usual case: both numbers' digits at once */
        fmt_8digits_pair((uint32_t)m->offset, (uint32_t)m->tics, &doff, &dtics);
        p = fmt_put_digits8(p, doff);
        memcpy(p, c->tail[tc][1], 32);
        p = fmt_put_digits8(p + c->tail_len[tc][1], dtics);
        memcpy(p, "}\n", 2);
        return p + 2;
    }
    p = fmt_u64_room24(p, m->offset);
    if (m->has_src) {
        memcpy(p, src, 16);
        p = fmt_u64_room24(p + 9, m->src);
    }
    memcpy(p, c->tail[tc][m->tics_valid], 32);
    p += c->tail_len[tc][m->tics_valid];
    if (m->tics_valid) {
        p = fmt_u64_room24(p, m->tics);
        memcpy(p, "}\n", 2);
        p += 2;
    }
    return p;
}

char *mj_line(mj_t *c, char *p, const nxd_msg_t *m) { return line(c, p, m); }

void mj_write(mj_t *c, const char *p, size_t n) {
    if (c->prealloc && c->written + n > c->allocated) {
        if (fallocate(fileno(c->out), FALLOC_FL_KEEP_SIZE, (off_t)c->allocated, MJ_PREALLOC)) c->prealloc = false;
        else
            c->allocated += MJ_PREALLOC; /* (not there: the writes allocate as they go) */
    }
    fwrite(p, 1, n, c->out);
    c->written += n;
}

void mj_end(mj_t *c) {
    if (c->allocated > c->written && !ferror(c->out) && !fflush(c->out)) {
        if (ftruncate(fileno(c->out), (off_t)c->written)) { /* the size is right; only blocks past it stay */
        }
    }
    c->allocated = 0;
}

void mj_flush(mj_t *c) {
    if (c->used) {
        if (c->sink) c->sink(c->sink_ctx, c->buf, c->used);
        else
            mj_write(c, c->buf, c->used);
    }
    c->used = 0;
}

static inline __attribute__((always_inline)) int mj_msg_inl(void *ctx, const nxd_msg_t *m) {
    mj_t *c = ctx;
    if (m->status == NXD_TRUNCATED) {
        c->truncated++;
        return 0;
    }
    if (c->used > sizeof c->buf - MJ_LINE_MAX) mj_flush(c);
    c->used = (size_t)(line(c, c->buf + c->used, m) - c->buf);
    return 0;
}

int mj_msg(void *ctx, const nxd_msg_t *m) { return mj_msg_inl(ctx, m); }

/* nxd_decode with mj_msg compiled into the loop */
void mj_decode(mj_t *c, nxd_t *d, const uint8_t *buf, size_t len) {
    size_t used;
    nxd_decode_part(d, buf, len, d->offset, SIZE_MAX, false, &used, mj_msg_inl, c);
    d->offset += len;
}

void mj_lines(mj_t *c, const nxd_msg_t *m, size_t n) {
    for (size_t i = 0; i < n; i++) mj_msg_inl(c, &m[i]);
}
