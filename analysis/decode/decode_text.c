/* decode_text.c - `tracesim decode`'s text formats: the generic trace elements (--format
 * elements, with the program flow when an ELF is given), the program flow one instruction a
 * line (instr, flow_listing.h), the software trace port events (stm, stm_decode.h) and the
 * strings printed through ITC on one channel (itcprint). decode_int.h. */
#include "decode_int.h"
#include "elements.h"
#include "flow_listing.h"
#include "stm_decode.h"
#include "ts_text.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

/* ---- generic elements as text lines ---------------------------------------------------- */
/* what an ICT event means (trace-hw-facts.md 4.4; event mode: docs/program-trace.md) */
static void ict_event_text(FILE *o, const ts_elem_t *e) {
    unsigned cksrc = e->u.ict.cksrc, ckdf = e->u.ict.ckdf;
    uint64_t addr = e->u.ict.addr, data1 = e->u.ict.data1;
    if (cksrc == NX_CKSRC_CALL && ckdf == 1 && e->u.ict.has_addr)
        fprintf(o, " call from=0x%08" PRIx64 " to=0x%08" PRIx64, addr, addr ^ (data1 << 1));
    else if (cksrc == NX_CKSRC_CALL)
        fprintf(o, " call");
    else if ((cksrc == NX_CKSRC_EXCEPTION || cksrc == NX_CKSRC_INTERRUPT) && ckdf == 1)
        fprintf(o, " %s cause=%" PRIu64, cksrc == NX_CKSRC_EXCEPTION ? "exception" : "interrupt", data1);
    else if (cksrc == NX_CKSRC_PC_SAMPLE)
        fprintf(o, " pc_sample");
    else if (cksrc == NX_CKSRC_CONTEXT)
        fprintf(o, " context");
    else if (cksrc == NX_CKSRC_TRIGGER)
        fprintf(o, " trigger");
    else if (cksrc == NX_CKSRC_WATCHPOINT)
        fprintf(o, " watchpoint");
}

static int print_elem(void *vctx, const ts_elem_t *e) {
    FILE *o = vctx;
    fprintf(o, "%8" PRIu64 " [%u] ", e->offset, e->src);
    if (e->has_time) fprintf(o, "%12" PRIu64 " ", e->time);
    else
        fputs("           - ", o);
    fputs(ts_elem_name(e->type), o);
    switch (e->type) {
    case TS_ELEM_SWTRACE:
        fprintf(o, " channel=%u lane=%u size=%u value=0x%0*x", e->u.sw.channel, e->u.sw.lane,
                e->u.sw.size, (int)(2 * e->u.sw.size), e->u.sw.value);
        break;
    case TS_ELEM_OWNERSHIP: fprintf(o, " process=0x%08" PRIx64, e->u.own.process); break;
    case TS_ELEM_PRIVILEGE:
        fprintf(o, " prv=%c v=%u", "USHM"[e->u.own.process >> 2 & 3], (unsigned)(e->u.own.process >> 4 & 1));
        break;
    case TS_ELEM_STM:
        fprintf(o, " %s id=0x%04x%s%s value=0x%08" PRIx64, e->u.stm.group, e->u.stm.id, e->u.stm.event ? " " : "",
                e->u.stm.event ? e->u.stm.event : "", e->u.stm.value);
        break;
    case TS_ELEM_RESOURCE_FULL: fprintf(o, " rcode=%u value=%" PRIu64, e->u.rf.rcode, e->u.rf.value); break;
    case TS_ELEM_SYNC:
        fprintf(o, " reason=%u i_cnt=%" PRIu64 " addr=0x%08" PRIx64, e->u.sync.reason, e->u.sync.i_cnt, e->u.sync.addr);
        if (e->u.sync.has_hist) fprintf(o, " hist=0x%" PRIx64, e->u.sync.hist);
        break;
    case TS_ELEM_BRANCH:
        fprintf(o, " %s i_cnt=%" PRIu64, e->u.br.indirect ? "indirect" : "direct", e->u.br.i_cnt);
        if (e->u.br.indirect) fprintf(o, " b_type=%u addr=0x%08" PRIx64, e->u.br.b_type, e->u.br.addr);
        if (e->u.br.has_hist) fprintf(o, " hist=0x%" PRIx64, e->u.br.hist);
        break;
    case TS_ELEM_CORRELATION:
    case TS_ELEM_TRACE_OFF:
    case TS_ELEM_TRACE_ON:
    case TS_ELEM_TIMESTAMP:
    case TS_ELEM_ICT_EVENT:
        if (e->msg && e->msg->tcode == NX_CORRELATION)
            fprintf(o, " evcode=%u cdf=%u i_cnt=%" PRIu64, e->u.corr.evcode, e->u.corr.cdf, e->u.corr.i_cnt);
        else if (e->msg) {
            fprintf(o, " cksrc=%u ckdf=%u data0=0x%" PRIx64, e->u.ict.cksrc, e->u.ict.ckdf, e->u.ict.data0);
            if (e->u.ict.ckdf == 1) fprintf(o, " data1=0x%" PRIx64, e->u.ict.data1);
            if (e->u.ict.has_addr) fprintf(o, " addr=0x%08" PRIx64, e->u.ict.addr);
            if (e->type == TS_ELEM_ICT_EVENT) ict_event_text(o, e);
        }
        break;
    case TS_ELEM_CORRUPT:
    case TS_ELEM_TRUNCATED: fprintf(o, " (%s)", e->u.err.what); break;
    default: break;
    }
    fputc('\n', o);
    return 0;
}

/* --format instr on an event / PC-sample trace (teInstruction 1): its messages name some
 * instructions (calls, traps, samples), not every one, so a listing would look complete and
 * be wrong; counted in a first pass over the messages */
typedef struct ev_count {
    uint64_t events, counts;
} ev_count_t;
static int ev_count_msg(void *v, const nxd_msg_t *m) {
    ev_count_t *c = v;
    unsigned t = m->tcode;
    if ((t == NX_ICT || t == NX_ICT_WS) && (m->fmask >> NXF_CKSRC & 1)) {
        uint64_t k = m->f[NXF_CKSRC];
        if (k == NX_CKSRC_CALL || k == NX_CKSRC_EXCEPTION || k == NX_CKSRC_INTERRUPT || k == NX_CKSRC_PC_SAMPLE || (k == NX_CKSRC_CONTROL && (m->fmask >> NXF_CKDATA1 & 1))) c->events++;
    }
    if (nx_tcode_prog(t)) c->counts++;
    return 0;
}

/* --format elements / instr: the message elements (not for instr) and the program flow */
typedef struct elem_flow {
    ts_elem_stage_t *es;
    ts_flow_t *fl;
    bool instr;
} elem_flow_t;
static int elem_flow_msg(void *v, const nxd_msg_t *m) {
    elem_flow_t *ef = v;
    if (!ef->instr && ts_elem_from_msg(ef->es, m)) return 1;
    return ts_flow_msg(ef->fl, m);
}

int decode_elements(decode_job_t *j, bool instr) {
    char err[4600];
    FILE *out = j->out;
    int rc = 0;
    nxd_t d;
    nxd_init(&d, &j->cfg);
    d.offset = j->start;
    /* message elements, then after each message the program-flow elements it gave */
    if (instr) {
        ev_count_t ec = {0, 0};
        nxd_t d2;
        nxd_init(&d2, &j->cfg);
        decode_msgs(&d2, j->data + j->start, j->len - j->start, j->hart, ev_count_msg, &ec);
        if (!ec.counts) {
            if (ec.events)
                fprintf(stderr, "tracesim: --format instr: %s is an event / PC-sample trace (teInstruction 1), which "
                                "names only calls, traps and samples, not every instruction; its events: --format elements\n",
                        j->path);
            else /* instrumentation only: an empty listing would pass for a program that never ran */
                fprintf(stderr, "tracesim: --format instr: %s has no program trace (no branch, sync or "
                                "instruction-count message: teInstruction 0); run with --trace-insn for one\n",
                        j->path);
            j->abort_out = true; /* no empty instr.txt */
            return TS_EXIT_USAGE;
        }
    }
    ts_flow_t *fl = malloc(sizeof *fl);
    if (!fl || ts_flow_open(fl, out, j->elf, instr, j->cfg.srcbits > 0, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", fl ? err : "out of memory");
        int st = fl ? TS_EXIT_NO_FILE : TS_EXIT_HOST;
        free(fl);
        j->abort_out = true;
        return st;
    }
    ts_elem_stage_t es;
    ts_elem_init(&es, print_elem, out);
    elem_flow_t ef = {&es, fl, instr};
    decode_msgs(&d, j->data + j->start, j->len - j->start, j->hart, elem_flow_msg, &ef);
    if (!instr) ts_elem_eot(&es, j->len);
    if (ts_flow_close(fl, j->len)) {
        fprintf(stderr, "tracesim: out of memory\n");
        rc = TS_EXIT_HOST;
    }
    free(fl);
    return rc;
}

/* ---- software trace port events, one a line ------------------------------------------- */
int decode_stm(decode_job_t *j) {
    int rc = 0;
    nxd_t d;
    nxd_init(&d, &j->cfg);
    d.offset = j->start;
    ts_elem_stage_t es;
    stm_text_t sc;
    stm_text_init(&sc, j->out);
    ts_elem_init(&es, stm_text_elem, &sc);
    decode_msgs(&d, j->data + j->start, j->len - j->start, j->hart, ts_elem_from_msg, &es);
    ts_elem_eot(&es, j->len);
    stm_text_free(&sc);
    if (sc.oom) {
        fprintf(stderr, "tracesim: out of memory\n");
        rc = TS_EXIT_HOST;
    }
    if (sc.corrupt)
        fprintf(stderr, "tracesim: warning: %" PRIu64 " corrupt messages (listed as CORRUPT; decoding resynchronised)\n", sc.corrupt);
    return rc;
}

/* ---- ITC print: a string buffer per source (stores of several harts interleave); with SRC
 * fields every line starts with "[hart] ", as in SiFive's decoder for several cores -------- */
typedef struct pbuf {
    char buf[4096];
    size_t len;
} pbuf_t;
typedef struct pctx {
    FILE *out;
    unsigned channel;
    bool tag; /* messages carry SRC: prefix "[src] " */
    pbuf_t *src[NXD_MAX_SRC];
    uint64_t strings;
} pctx_t;

static void print_flush(pctx_t *c, unsigned src) {
    pbuf_t *b = c->src[src];
    if (!b || !b->len) return;
    if (c->tag) fprintf(c->out, "[%u] ", src);
    ts_text_write_lines(c->out, b->buf, b->len); /* the trace's control characters but \n, \t as \xNN */
    if (b->buf[b->len - 1] != '\n') fputc('\n', c->out);
    b->len = 0;
    c->strings++;
}

static int itc_msg(void *vctx, const nxd_msg_t *m) {
    pctx_t *c = vctx;
    if (m->status != NXD_OK || (m->tcode != NX_DATA_ACQ && m->tcode != NX_AUX_ACCESS_WRITE)) return 0;
    uint64_t tag = m->tcode == NX_DATA_ACQ ? m->f[NXF_IDTAG] : m->f[NXF_ADDR];
    if (tag < 4u * c->channel || tag > 4u * c->channel + 3) return 0;
    unsigned src = m->src % NXD_MAX_SRC;
    if (!c->src[src] && !(c->src[src] = calloc(1, sizeof *c->src[src]))) return 1;
    pbuf_t *b = c->src[src];
    unsigned nbytes = 4 - (unsigned)(tag & 3);
    for (unsigned k = 0; k < nbytes; k++) {
        char ch = (char)((m->f[NXF_DATA] >> (8 * k)) & 0xFF);
        if (ch == 0) {
            print_flush(c, src);
            continue;
        }
        if (b->len < sizeof b->buf - 1) b->buf[b->len++] = ch;
        if (ch == '\n' || ch == '\r') print_flush(c, src);
    }
    return 0;
}

int decode_itcprint(decode_job_t *j) {
    nxd_t d;
    nxd_init(&d, &j->cfg);
    d.offset = j->start;
    pctx_t pc = {.out = j->out, .channel = (unsigned)j->channel, .tag = j->cfg.srcbits > 0};
    decode_msgs(&d, j->data + j->start, j->len - j->start, j->hart, itc_msg, &pc);
    for (unsigned k = 0; k < NXD_MAX_SRC; k++) {
        print_flush(&pc, k);
        free(pc.src[k]);
    }
    return 0;
}
