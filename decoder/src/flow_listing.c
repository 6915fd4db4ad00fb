/* flow_listing.c - program-flow listings and elements (flow_listing.h). */
#include "flow_listing.h"
#include "ts_text.h"
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

static void out_flush(ts_flow_t *f) {
    if (f->len) fwrite(f->buf, 1, f->len, f->out);
    f->len = 0;
}

static char *put_hex(char *p, uint64_t v, int digits) {
    static const char hx[] = "0123456789abcdef";
    int n = 1;
    while (n < 16 && v >> (4 * n)) n++;
    if (n < digits) n = digits;
    for (int i = n - 1; i >= 0; i--) *p++ = hx[(v >> (4 * i)) & 15];
    return p;
}

static char *put_str(char *p, const char *s) {
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

/* PC INSN [t|nt] [call|return|swap|interrupt|exception|xret ...] [function+offset] */
static void print_insn(void *vf, const pf_insn_t *i) {
    ts_flow_t *f = vf;
    if (f->len > sizeof f->buf - 512) out_flush(f);
    char *p = f->buf + f->len;
    if (f->tag) {
        *p++ = '[';
        p += sprintf(p, "%u", i->src);
        *p++ = ']';
        *p++ = ' ';
    }
    p = put_hex(p, i->pc, 8);
    *p++ = ' ';
    p = put_hex(p, i->raw, i->size == 2 ? 4 : 8);
    if (i->br == PF_BR_TAKEN) p = put_str(p, " t");
    else if (i->br == PF_BR_NOT_TAKEN)
        p = put_str(p, " nt");
    if (i->cr & PF_CR_CALL) p = put_str(p, " call");
    if (i->cr & PF_CR_RETURN) p = put_str(p, " return");
    if (i->cr & PF_CR_SWAP) p = put_str(p, " swap");
    if (i->cr & PF_CR_INTERRUPT) p = put_str(p, " interrupt");
    if (i->cr & PF_CR_EXCEPTION) p = put_str(p, " exception");
    if (i->cr & PF_CR_XRET) p = put_str(p, " xret");
    if (f->have_syms) {
        const elf_sym_t *s = f->last;
        if (!s || i->pc < s->addr || i->pc >= s->addr + (s->size ? s->size : 1)) s = f->last = elf_syms_lookup(&f->syms, i->pc);
        if (s) {
            size_t room = (size_t)(f->buf + sizeof f->buf - p) - 40;
            size_t n = strlen(s->name);
            if (n > 200 && n > room) n = 200;
            *p++ = ' ';
            if (!ts_text_has_ctl(s->name)) {
                memcpy(p, s->name, n);
                p += n;
            } else { /* control characters as \xNN: none reaches a terminal */
                p += ts_text_cpy(p, room, s->name, n);
            }
            p = put_str(p, "+0x");
            p = put_hex(p, i->pc - s->addr, 1);
        }
    }
    *p++ = '\n';
    f->len = (size_t)(p - f->buf);
}

static int print_elem(void *vf, const pf_elem_t *e) {
    ts_flow_t *f = vf;
    FILE *o = f->out;
    fprintf(o, "%8" PRIu64 " [%u] ", e->offset, e->src);
    if (e->has_time) fprintf(o, "%12" PRIu64 " ", e->time);
    else
        fputs("           - ", o);
    fprintf(o, "flow %s", pf_elem_name(e->type));
    switch (e->type) {
    case PF_ELEM_NO_SYNC: fprintf(o, " (%s)", pf_nosync_name(e->u.nosync.reason)); break;
    case PF_ELEM_TRACE_ON: fprintf(o, " tcode=%u reason=%u addr=0x%08" PRIx64, e->u.on.tcode, e->u.on.reason, e->u.on.addr); break;
    case PF_ELEM_INSTR_RANGE:
        fprintf(o, " 0x%08" PRIx64 "-0x%08" PRIx64 " n=%" PRIu64 " last=0x%08" PRIx64 " %s%s%s", e->u.range.start,
                e->u.range.end, e->u.range.n, e->u.range.last, pf_itype_name(e->u.range.last_type),
                e->u.range.cond ? " cond" : "", e->u.range.last_type == PF_I_OTHER ? "" : e->u.range.taken ? " taken" :
                                                                                                             " not-taken");
        break;
    case PF_ELEM_EXCEPTION: fprintf(o, " b_type=%u handler=0x%08" PRIx64, e->u.exc.b_type, e->u.exc.addr); break;
    case PF_ELEM_PE_CONTEXT:
        fprintf(o, " prv=%u v=%u context=0x%" PRIx64, e->u.ctx.prv, e->u.ctx.v, e->u.ctx.context);
        break;
    case PF_ELEM_ADDR_NACC: fprintf(o, " addr=0x%08" PRIx64 " (not in the image)", e->u.nacc.addr); break;
    default: break;
    }
    fputc('\n', o);
    return 0;
}

int ts_flow_open(ts_flow_t *f, FILE *out, const char *elf, bool instr, bool tag, char *err, size_t errlen) {
    /* everything but the listing buffer itself, the fields after it included (len: the struct
     * comes from malloc, and a length never set wrote heap bytes to the output) */
    size_t tail = offsetof(ts_flow_t, buf) + sizeof f->buf;
    memset(f, 0, offsetof(ts_flow_t, buf));
    memset((char *)f + tail, 0, sizeof *f - tail);
    f->out = out;
    f->tag = tag;
    if (elf) {
        if (pf_image_load(&f->img, elf, err, errlen)) return -1;
        if (elf_syms_load(&f->syms, elf, err, errlen)) {
            pf_image_free(&f->img);
            return -1;
        }
        f->have_syms = true;
    }
    pf_init(&f->pf, &f->img, instr ? NULL : print_elem, f);
    if (instr) pf_set_insn_cb(&f->pf, print_insn, f);
    return 0;
}

int ts_flow_msg(void *f, const nxd_msg_t *m) { return pf_from_msg(&((ts_flow_t *)f)->pf, m); }

int ts_flow_close(ts_flow_t *f, uint64_t end_offset) {
    pf_eot(&f->pf, end_offset);
    out_flush(f);
    int rc = f->pf.oom ? -1 : 0;
    if (f->pf.lost || f->pf.nacc)
        fprintf(stderr, "tracesim: note: program flow: %" PRIu64 " loss(es) of sync, %" PRIu64 " jump(s) to code outside the image%s\n", f->pf.lost, f->pf.nacc, f->have_syms ? "" : " (no --elf)");
    pf_free(&f->pf);
    pf_image_free(&f->img);
    if (f->have_syms) elf_syms_free(&f->syms);
    return rc;
}
