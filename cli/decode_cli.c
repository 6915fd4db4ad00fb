/* decode_cli.c - `tracesim decode TRACE.rtd`: decodes a captured trace. Formats so far:
 * messages (JSON lines, the layout of ../shared/captures/NAME.messages.jsonl), elements,
 * itcprint (strings printed through ITC on one channel), perf, csv, timeline and stm
 * (software trace port events, stm_decode.h). */
#include "decode_cli.h"
#include "ts_text.h"
#include "ts_opts.h"
#include "cli_util.h"
#include "run_losses.h"
#include "elements.h"
#include "elf_syms.h"
#include "flow_cli.h"
#include "msg_json.h"
#include "msg_json_par.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include "perf_sifive.h"
#include "run_folder.h"
#include "stm_decode.h"
#include "pftrace.h"
#include "src_lines.h"
#include "timeline.h"
#include "tl_flow.h"
#include "ts_file.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

enum { D_FORMAT = 1,
       D_TICK_HZ,
       D_SRCBITS,
       D_TSSIZE,
       D_HART,
       D_SRC,
       D_ITC_CHANNEL,
       D_PERF_CHANNEL,
       D_ELF,
       D_PERF_LINE_TIME,
       D_PERF_CONFIG,
       D_TIME,
       D_OUT,
       D_HELP };
/* `tracesim decode`'s options: the parser, --help and docs/commands/decode.md (ts_opts.h) */
static const ts_opt_t decode_opts[] = {
    {D_FORMAT, 'f', "format", TS_OPT_STRING, "F", 0, 0, 0, 0, 0,
     "messages (JSON lines, default), elements (generic trace elements),\n"
     "instr (the program flow, one instruction a line; needs the ELF:\n"
     "RUN_DIR's, or --elf),\n"
     "itcprint, perf (SiFive decoder's perf files in DIR), csv (perf\n"
     "records), timeline (Chrome/Perfetto trace-event JSON: perf records,\n"
     "software trace thread slices and events), perfetto (perf records\n"
     "as a Perfetto protobuf trace: a track per hart and thread, counter\n"
     "tracks, source lines; for big traces) or stm (software trace\n"
     "port events, one a line: time hart group id name value)"},
    {D_TICK_HZ, 0, "tick-hz", TS_OPT_REAL, "HZ", 0, 0, 1, 1e15, 0, "timestamp ticks per second for the timeline (default 100e6)"},
    {D_TIME, 0, "time", TS_OPT_STRING, "cycles|ticks", 0, 0, 0, 0, 0,
     "csv, timeline and perfetto times: simulator cycles (the default for a run\n"
     "folder whose trace.json gives ts_cycle_offset; timeline: 1 us =\n"
     "1 cycle, perfetto: 1 ns = 1 cycle) or trace timestamp ticks (the default otherwise)"},
    {D_SRCBITS, 0, "srcbits", TS_OPT_UINT, "N", 0, 8, 0, 0, 0,
     "SRC field width of the trace's messages (default: trace.json\nbeside the trace, else 0)"},
    {D_TSSIZE, 0, "tssize", TS_OPT_UINT, "N", 1, 64, 0, 0, 0, "timestamp width in bits (default: trace.json, else 40)"},
    {D_HART, 0, "hart", TS_OPT_UINT, "N", 0, NXD_MAX_SRC - 1, 0, 0, 0,
     "keep only the messages of hart (source) N (SRC field); every\nformat shows the source of each message and record"},
    {D_SRC, 0, "src", TS_OPT_UINT, "N", 0, NXD_MAX_SRC - 1, 0, 0, 0, "the same as --hart"},
    {D_ITC_CHANNEL, 0, "itc-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0, "itcprint: the ITC print channel (default 0)"},
    {D_PERF_CHANNEL, 0, "perf-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0,
     "perf library channel (default: --perf-config's, else 6)"},
    {D_ELF, 0, "elf", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "name addresses after the functions of this ELF (csv, perf,\n"
     "timeline, perfetto; default with RUN_DIR: the ELF that ran; a warning if\n"
     "FILE is not it); instr, elements: the program the flow follows\n"
     "(instr: default with RUN_DIR the ELF that ran)"},
    {D_PERF_LINE_TIME, 0, "perf-line-time", TS_OPT_STRING, "record|value", 0, 0, 0, 0, 0,
     "perf: stamp a record's lines with its time and the header's\n"
     "with the header's (record, default), or each line with the time\n"
     "of the message that completed it (value, SiFive's)"},
    {D_PERF_CONFIG, 0, "perf-config", TS_OPT_STRING, "FILE", 0, 0, 0, 0, 0,
     "the perf header out of band (perf_config.txt of the run\n"
     "folder), for a trace whose header was overwritten (a wrapped\nbuffer)"},
    {D_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0,
     "output folder: write DIR/messages.jsonl, elements.txt,\n"
     "instr.txt, itcprint.txt, perf.csv, timeline.json,\n"
     "trace.pftrace or stm.txt\n"
     "instead of stdout (perf: the SiFive files in DIR instead of the\ntrace's folder)"},
    {D_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t decode_exits[] = {
    {"0", "decoded (corrupt messages are listed and counted, not fatal)"},
    {"120", "usage: bad option or value, unknown format, instr on a trace file\n"
            "without --elf, instr on an event / PC-sample trace (teInstruction\n"
            "1) or on a trace without program trace (teInstruction 0),\n"
            "not exactly one RUN_DIR or trace, -o naming a file, --hart not\n"
            "one of the trace's harts, --srcbits differing from trace.json's,\na damaged trace.json"},
    {"121", "the trace, the ELF or the perf config is missing or unreadable,\nor the file is not a trace, or it was cut while being read"},
    {"126", "an output cannot be written, out of memory"},
    {NULL, NULL}};
const ts_cmd_t ts_decode_cmd = {
    "decode", "tracesim decode [options] RUN_DIR|TRACE.rtd",
    "Decodes a captured Nexus trace (the sink image, oldest byte first): RUN_DIR/trace.rtd of a\n"
    "run folder (with its ELF for csv, perf, timeline and instr unless --elf says otherwise),\n"
    "or a trace file.\n",
    decode_opts, 0,
    "  stdout, or with -o DIR the file of the format in DIR (see -o); perf: the SiFive perf\n"
    "  files in the trace's folder or DIR\n",
    decode_exits,
    "messages: Ownership messages show their PROCESS field (\"process\") when trace.json is beside\n"
    "the trace (a tracesim run); without it the fields are those of the reference files of real\n"
    "captures, which leave PROCESS out.\n"};

/* ---- one source only (--hart): the messages of other sources are not passed on ---------- */
typedef struct hfilt {
    nxd_cb cb;
    void *ctx;
    unsigned hart;
} hfilt_t;

/* corrupt and cut-off messages are passed on: their SRC cannot be trusted, and every
 * source's decode must see them (a gap) */
static int hart_filter(void *vctx, const nxd_msg_t *m) {
    const hfilt_t *h = vctx;
    if (m->status == NXD_OK && m->has_src && m->src != h->hart) return 0;
    return h->cb(h->ctx, m);
}

/* messages, and corrupt ones among them (n[0], n[1]) */
static int count_bad(void *ctx, const nxd_msg_t *m) {
    uint64_t *n = ctx;
    if (m->status == NXD_TRUNCATED) return 0;
    n[0]++;
    if (m->status == NXD_BAD) n[1]++;
    return 0;
}

/* a file that is not a trace (a README, an ELF given by mistake) decodes mostly into corrupt
 * messages; a real trace has none, or a few where a funnel broke one: more than half of the
 * messages of its first 64 KiB corrupt means it is not one (or not with these settings) */
static bool not_a_trace(const nxd_cfg_t *cfg, const uint8_t *buf, size_t len, uint64_t n[2]) {
    nxd_t d;
    n[0] = n[1] = 0;
    if (nxd_init(&d, cfg)) return false;
    nxd_decode(&d, buf, len < 65536 ? len : 65536, count_bad, n);
    return n[0] >= 4 && 2 * n[1] > n[0];
}

/* nxd_decode through the --hart filter when one is set (hart < 0: none) */
static void decode_msgs(nxd_t *d, const uint8_t *buf, size_t len, int hart, nxd_cb cb, void *ctx) {
    if (hart < 0 || !d->cfg.srcbits) {
        nxd_decode(d, buf, len, cb, ctx);
        return;
    }
    hfilt_t h = {cb, ctx, (unsigned)hart};
    nxd_decode(d, buf, len, hart_filter, &h);
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

/* the first record's offset (the records come in trace order per hart) */
static uint64_t first_rec = UINT64_MAX;
static void note_first(const perf_record_t *r) { ts_note_first(&first_rec, r); }

/* ---- perf records as SiFive's decoder writes them: perf_sifive.c, errors on stderr -------- */
typedef struct sctx {
    perf_sifive_t *ps;
    ts_csv_t ec;
} sctx_t;
static void s_header(void *v, const perf_header_t *h) { perf_sifive_header(((sctx_t *)v)->ps, h); }
static void s_record(void *v, const perf_record_t *r) {
    note_first(r);
    perf_sifive_record(((sctx_t *)v)->ps, r);
}
static void s_error(void *v, unsigned core, uint64_t off, const char *w) { ts_csv_error(&((sctx_t *)v)->ec, core, off, w); }

/* the elements go to the perf decoder and, if set, to a second consumer (the timeline's
 * software trace events) */
typedef struct tee {
    perf_dec_t *pd;
    ts_elem_cb cb;
    void *ctx;
} tee_t;
static int elem_to_perf(void *vctx, const ts_elem_t *e) {
    tee_t *t = vctx;
    perf_dec_feed_elem(t->pd, e);
    return t->cb ? t->cb(t->ctx, e) : 0;
}

/* the perf stages over data[start..len): bytes -> messages -> elements -> perf records (and
 * the elements to also_cb, if not NULL), with the out-of-band headers (if any) given first */
static void run_perf(perf_dec_t *pd, const nxd_cfg_t *cfg, const uint8_t *data, size_t len, size_t start,
                     const perf_header_t *cfgh, int ncfg, int hart, ts_elem_cb also_cb, void *also_ctx) {
    for (int k = 0; k < ncfg; k++) perf_dec_set_config(pd, &cfgh[k]);
    nxd_t d;
    nxd_init(&d, cfg);
    d.offset = start;
    ts_elem_stage_t es;
    tee_t tee = {pd, also_cb, also_ctx};
    ts_elem_init(&es, elem_to_perf, &tee);
    decode_msgs(&d, data + start, len - start, hart, ts_elem_from_msg, &es);
    ts_elem_eot(&es, len);
    perf_dec_finish(pd);
}

/* what the perf decode could not do, and what it lost */
static void perf_notes(const perf_dec_t *pd, int channel, const ts_trace_info_t *ti, const char *cfg_path) {
    if (!pd->headers && !pd->config_used) {
        if (cfg_path)
            fprintf(stderr, "tracesim: no perf header (marker 0x%08x) and no perf record on ITC channel %d "
                            "(the header of %s was not used)\n",
                    pd->marker, channel, cfg_path);
        else if (ti->wrapped)
            fprintf(stderr, "tracesim: no perf header (marker 0x%08x) on ITC channel %d: the buffer wrapped and "
                            "the header was overwritten; give it out of band with --perf-config RUN_DIR/perf_config.txt "
                            "(tracesim run writes it)\n",
                    pd->marker, channel);
        else
            fprintf(stderr, "tracesim: no perf header (marker 0x%08x) on ITC channel %d\n", pd->marker, channel);
    }
    if (pd->config_used)
        fprintf(stderr, "tracesim: note: no perf header before the records: they were decoded with the out-of-band "
                        "header of %s from the first record start (offset %" PRIu64 ") on\n",
                cfg_path, first_rec);
    if (pd->gaps || pd->config_used)
        fprintf(stderr, "tracesim: note: %" PRIu64 " gap(s) in the perf data%s: a record cut by a gap is marked "
                        "(truncated); values and addresses that depend on the lost data are left out, never guessed\n",
                pd->gaps + pd->config_used, pd->config_used ? " (counting the start of the wrapped trace)" : "");
}

/* --format perfetto: the perf records (and the THREAD_SWITCH events) as a Perfetto protobuf
 * trace (pftrace.h), the call sites' lines from the ELF's DWARF; the exit status */
static int decode_perfetto(FILE *out, const char *path, int time_cycles, double us_per_tick, const char *elf, const nxd_cfg_t *cfg,
                           const uint8_t *data, size_t len, size_t start, const perf_header_t *cfgh, int ncfg, int hart,
                           int perf_channel, const ts_trace_info_t *ti, const char *cfg_path) {
    char err[4600];
    ts_tl_time_t tt;
    if (ts_tl_time_setup(&tt, path, time_cycles, us_per_tick, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_USAGE;
    }
    elf_syms_t syms;
    bool have_syms = false;
    src_lines_t *sl = NULL;
    if (elf) {
        if (elf_syms_load(&syms, elf, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            return TS_EXIT_NO_FILE;
        }
        have_syms = true;
        sl = src_lines_open(elf); /* NULL without DWARF: sites stay addresses */
    }
    int rc = 0;
    ts_pf_t *pf = ts_pf_open(out, have_syms ? &syms : NULL, sl ? src_lines_at : NULL, sl, &tt);
    static perf_dec_t pd;
    if (pf) {
        perf_dec_init(&pd, (unsigned)perf_channel, &(perf_dec_cb_t){pf, ts_pf_header, ts_pf_record, ts_pf_error});
        if (ti->stopped || (ti->found && len < ti->bytes)) perf_dec_ended_early(&pd);
        ts_pf_decoder(pf, &pd);
        run_perf(&pd, cfg, data, len, start, cfgh, ncfg, hart, ts_pf_elem, pf);
        ts_pf_stats_t st;
        ts_pf_stats(pf, &st);
        if (st.untimed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) without a timestamp are not in the trace\n", st.untimed);
        if (st.unnamed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) cut off before their address are not in the trace\n", st.unnamed);
        if (st.unknown)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) after a gap whose addresses are unknown (DeltaXOR) are not in the trace\n", st.unknown);
        perf_notes(&pd, perf_channel, ti, cfg_path);
        rc = st.oom ? TS_EXIT_HOST : 0;
        ts_pf_close(pf);
    }
    if (!pf || rc) {
        fprintf(stderr, "tracesim: out of memory\n");
        rc = TS_EXIT_HOST;
    }
    if (sl) src_lines_close(sl);
    if (have_syms) elf_syms_free(&syms);
    return rc;
}


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

/* --format timeline with an ELF: the call slices of the program flow (tl_flow.h), from a
 * second decode of the trace; the exit status so far, or TS_EXIT_NO_FILE / TS_EXIT_HOST */
static int timeline_flow(FILE *out, bool *first, const ts_tl_time_t *tt, const char *elf, const nxd_cfg_t *cfg,
                         const uint8_t *data, size_t len, size_t start, int hart, int rc) {
    char err[4600];
    tl_flow_t *tf = tl_flow_open(out, first, tt, elf, err, sizeof err);
    if (!tf) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    nxd_t d;
    nxd_init(&d, cfg);
    d.offset = start;
    decode_msgs(&d, data + start, len - start, hart, tl_flow_msg, tf);
    int64_t slices = tl_flow_close(tf, len);
    if (slices < 0) {
        fprintf(stderr, "tracesim: out of memory\n");
        return TS_EXIT_HOST;
    }
    if (slices) fprintf(stderr, "tracesim: note: %" PRId64 " call slice(s) from the program flow (process \"program flow\")\n", slices);
    return rc;
}

int ts_decode_main(int argc, char **argv) {
    const char *format = "messages", *out_dir = NULL, *elf = NULL, *cfg_path = NULL, *input = NULL;
    int srcbits = -1, tssize = -1, channel = 0, perf_channel = -1, hart = -1, c, inputs = 0, time_cycles = -1;
    double tick_hz = 100e6;
    bool value_time = false;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_decode_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (c) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            input = op.arg;
            inputs++;
            break;
        case D_FORMAT: format = op.arg; break;
        case D_OUT: out_dir = op.arg; break;
        case D_SRCBITS: srcbits = (int)op.u; break;
        case D_TSSIZE: tssize = (int)op.u; break;
        case D_ITC_CHANNEL: channel = (int)op.u; break;
        case D_PERF_CHANNEL: perf_channel = (int)op.u; break;
        case D_ELF: elf = op.arg; break;
        case D_TICK_HZ: tick_hz = op.r; break;
        case D_PERF_LINE_TIME:
            if (strcmp(op.arg, "record") && strcmp(op.arg, "value")) {
                fprintf(stderr, "tracesim: invalid value '%s' for --perf-line-time (record or value)\n", op.arg);
                return TS_EXIT_USAGE;
            }
            value_time = !strcmp(op.arg, "value");
            break;
        case D_PERF_CONFIG: cfg_path = op.arg; break;
        case D_HART:
        case D_SRC: hart = (int)op.u; break;
        case D_HELP: ts_cmd_help(stdout, &ts_decode_cmd); return 0;
        case D_TIME:
            if (strcmp(op.arg, "cycles") && strcmp(op.arg, "ticks")) {
                fprintf(stderr, "tracesim: invalid value '%s' for --time (cycles or ticks)\n", op.arg);
                return TS_EXIT_USAGE;
            }
            time_cycles = !strcmp(op.arg, "cycles");
            break;
        }
    }
    if (strcmp(format, "messages") && strcmp(format, "itcprint") && strcmp(format, "csv") &&
        strcmp(format, "timeline") && strcmp(format, "perfetto") && strcmp(format, "elements") && strcmp(format, "perf") && strcmp(format, "stm") && strcmp(format, "instr")) {
        fprintf(stderr, "tracesim: unknown format '%s' (messages, elements, instr, itcprint, perf, csv, timeline, perfetto, stm)\n", format);
        return TS_EXIT_USAGE;
    }
    if (time_cycles >= 0 && strcmp(format, "csv") && strcmp(format, "timeline") && strcmp(format, "perfetto")) {
        fprintf(stderr, "tracesim: --time is for --format csv, timeline and perfetto\n");
        return TS_EXIT_USAGE;
    }
    if (inputs != 1) {
        fprintf(stderr, "tracesim: decode needs exactly one run folder or trace file (see tracesim decode --help)\n");
        return TS_EXIT_USAGE;
    }
    bool want_instr = !strcmp(format, "instr");
    if (want_instr && !elf && !ts_is_dir(input)) {
        fprintf(stderr, "tracesim: --format instr needs the program: --elf FILE (or give the run folder)\n");
        return TS_EXIT_USAGE;
    }
    if (out_dir) {
        struct stat osb;
        if (!*out_dir || (!stat(out_dir, &osb) && !S_ISDIR(osb.st_mode))) {
            fprintf(stderr, "tracesim: decode -o takes an output folder, not a file: '%s'\n", out_dir);
            return TS_EXIT_USAGE;
        }
    }
    static ts_run_arg_t ra;
    ts_run_arg(input, &ra);
    if (ra.run_dir[0] && ts_run_say_unfinished(ra.run_dir) == TS_RUN_INCOMPLETE) return TS_EXIT_NO_FILE;
    const char *path = ra.trace;
    static char elf_found[4400];
    char err[4600];
    if (ra.run_dir[0] && ts_run_folder_check(ra.run_dir, err, sizeof err)) { /* the strict reader (ts_file.h) */
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    bool wants_elf = !strcmp(format, "csv") || !strcmp(format, "perf") || !strcmp(format, "timeline") || !strcmp(format, "perfetto") || want_instr;
    first_rec = UINT64_MAX;
    static ts_input_t in; /* mapped when big: no copy (ts_file.h) */
    if (ts_input_open(&in, path, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    const uint8_t *data = in.p;
    size_t len = in.len;
    if ((ra.is_dir && wants_elf) || elf) { /* the run's ELF, or a check of --elf against it */
        int er = ts_run_elf(ra.run_dir, elf, elf_found, sizeof elf_found, err, sizeof err);
        if (er < 0) {
            fprintf(stderr, "tracesim: %s\n", err);
            ts_input_close(&in);
            return TS_EXIT_NO_FILE;
        }
        if (er) elf = elf_found;
        else if (want_instr) { /* the flow cannot be followed without the program */
            fprintf(stderr, "tracesim: --format instr: %s; give the program: --elf FILE\n", err);
            ts_input_close(&in);
            return TS_EXIT_NO_FILE;
        } else
            fprintf(stderr, "tracesim: warning: %s: addresses are not named\n", err);
    }
    if (elf) { /* the ELF readable before any output is made */
        elf_syms_t chk;
        if (elf_syms_load(&chk, elf, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            ts_input_close(&in);
            return TS_EXIT_NO_FILE;
        }
        elf_syms_free(&chk);
    }

    unsigned harts; /* trace.json beside the trace */
    if (ts_trace_harts(path, &srcbits, &tssize, hart, &harts, NULL, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        ts_input_close(&in);
        return TS_EXIT_USAGE;
    }
    nxd_cfg_t cfg = {(unsigned)srcbits, (unsigned)tssize};
    /* the perf header out of band; its channel unless --perf-channel says otherwise */
    static perf_header_t cfgh[PERF_MAX_CORES];
    int ncfg = 0;
    unsigned cfg_channel = 6;
    if (cfg_path) {
        ncfg = ts_read_perf_config(cfg_path, cfgh, PERF_MAX_CORES, &cfg_channel, err, sizeof err);
        if (ncfg < 0) {
            fprintf(stderr, "tracesim: %s\n", err);
            ts_input_close(&in);
            return TS_EXIT_NO_FILE;
        }
    }
    if (perf_channel < 0) perf_channel = (int)cfg_channel;
    /* a wrapped buffer starts in the middle of a message: decode from the first message end */
    ts_trace_info_t ti;
    ts_trace_info(path, &ti);
    size_t start = ti.wrapped ? ts_wrap_start(data, len) : 0;
    if (ti.wrapped) ts_wrap_note(path, &ti, start);
    uint64_t nbad[2];
    if (not_a_trace(&cfg, data + start, len - start, nbad)) {
        fprintf(stderr, "tracesim: %s is not a trace: %" PRIu64 " of the first %" PRIu64 " messages cannot be decoded (srcbits %d, "
                        "tssize %d; a trace.rtd of tracesim run is one)\n",
                path, nbad[1], nbad[0], srcbits, tssize);
        ts_input_close(&in);
        return TS_EXIT_NO_FILE;
    }
    { /* what the trace lacks, from the run folder's ground truth */
        ts_losses_t loss;
        char lerr[512];
        if (!ts_losses_read_for_trace(path, perf_channel, &loss, lerr, sizeof lerr)) {
            loss.wrapped = false;                   /* the note above */
            loss.by_status[TS_ITC_ENCODER_OFF] = 0; /* never meant for the trace */
            ts_losses_print(stderr, "tracesim: note: ", &loss);
        }
        if (ti.found && len < ti.bytes)
            fprintf(stderr, "tracesim: note: %s holds %zu of the %" PRIu64 " bytes the sink kept (trace.json): the file was cut; "
                            "a record at the cut is marked truncated\n",
                    path, len, ti.bytes);
    }

    if (!strcmp(format, "perf")) {
        /* E = the ELF's name without directory and extension (the trace's, without an ELF) */
        char stem[256], dir[4096];
        const char *base = strrchr(elf ? elf : path, '/');
        snprintf(stem, sizeof stem, "%s", base ? base + 1 : (elf ? elf : path));
        char *dot = strrchr(stem, '.');
        if (dot && dot != stem) *dot = 0;
        if (out_dir) snprintf(dir, sizeof dir, "%s", out_dir);
        else {
            snprintf(dir, sizeof dir, "%s", path);
            char *sl = strrchr(dir, '/');
            if (sl) *sl = 0;
            else
                snprintf(dir, sizeof dir, ".");
        }
        perf_sifive_t *ps = perf_sifive_open(dir, stem, elf, err, sizeof err);
        if (!ps) {
            fprintf(stderr, "tracesim: %s\n", err);
            ts_input_close(&in);
            return elf ? TS_EXIT_NO_FILE : TS_EXIT_HOST;
        }
        perf_sifive_set_line_time(ps, value_time);
        sctx_t sc = {ps, {0}};
        perf_dec_cb_t cb = {&sc, s_header, s_record, s_error};
        static perf_dec_t pd;
        perf_dec_init(&pd, (unsigned)perf_channel, &cb);
        if (ti.stopped || (ti.found && len < ti.bytes)) perf_dec_ended_early(&pd); /* stopped on wrap or the file was cut: a pending low word may have lost its high part */
        run_perf(&pd, &cfg, data, len, start, cfgh, ncfg, hart, NULL, NULL);
        ts_input_close(&in);
        perf_notes(&pd, perf_channel, &ti, cfg_path);
        if (perf_sifive_close(ps, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            return TS_EXIT_HOST;
        }
        return 0;
    }
    FILE *out = stdout;
    char opath[4200];
    if (out_dir) {
        if (ts_mkdir_p(out_dir)) {
            fprintf(stderr, "tracesim: cannot create %s: %s\n", out_dir, strerror(errno));
            ts_input_close(&in);
            return TS_EXIT_HOST;
        }
        snprintf(opath, sizeof opath, "%s/%s", out_dir,
                 !strcmp(format, "messages") ? "messages.jsonl" : !strcmp(format, "csv")  ? "perf.csv" :
                                                              !strcmp(format, "timeline") ? "timeline.json" :
                                                              !strcmp(format, "perfetto") ? "trace.pftrace" :
                                                              !strcmp(format, "elements") ? "elements.txt" :
                                                              !strcmp(format, "stm")      ? "stm.txt" :
                                                              !strcmp(format, "instr")    ? "instr.txt" :
                                                                                            "itcprint.txt");
        out = ts_fopen_output(opath, "w", err, sizeof err); /* a temporary file, renamed at the end */
        if (!out) {
            fprintf(stderr, "tracesim: %s\n", err);
            ts_input_close(&in);
            return TS_EXIT_HOST;
        }
        ts_input_remove_on_cut(ts_output_tmp_name(out)); /* the trace cut by another process meanwhile: no half file */
    }
    /* one big output buffer: a write per MiB, not per 4 KiB (write errors stay sticky in the
     * stream: ts_fclose_output, and main's ts_check_stdout for stdout) */
    static char stdout_buf[1 << 20];
    char *obuf = NULL;
    if (!strcmp(format, "messages")) setvbuf(out, NULL, _IONBF, 0); /* msg_json's own 1 MiB blocks go out uncopied */
    else if (out == stdout)
        setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
    else if ((obuf = malloc(1 << 20)))
        setvbuf(out, obuf, _IOFBF, 1 << 20);
    nxd_t d;
    nxd_init(&d, &cfg);
    d.offset = start;
    int rc = 0;
    if (!strcmp(format, "messages")) {
        static mj_t jc;
        mj_init(&jc, out, ti.found);
        jc.prealloc = out != stdout; /* the new file of -o */
        unsigned threads = hart < 0 || !d.cfg.srcbits ? mjp_threads(out, len - start) : 1;
        if (hart < 0 || !d.cfg.srcbits) {
            if (mjp_decode(&jc, &d, data + start, len - start, threads, 0)) mj_decode(&jc, &d, data + start, len - start);
        } else
            decode_msgs(&d, data + start, len - start, hart, mj_msg, &jc);
        mj_flush(&jc);
        mj_end(&jc);
        if (jc.truncated)
            fprintf(stderr, "tracesim: note: the last message is cut off at the end of the trace (not listed)\n");
        if (jc.bad)
            fprintf(stderr, "tracesim: warning: %" PRIu64 " corrupt messages (listed with \"error\"; decoding resynchronised)\n", jc.bad);
    } else if (!strcmp(format, "perfetto")) {
        rc = decode_perfetto(out, path, time_cycles, 1e6 / tick_hz, elf, &cfg, data, len, start, cfgh, ncfg, hart, perf_channel, &ti, cfg_path);
        if (rc == TS_EXIT_USAGE || rc == TS_EXIT_NO_FILE) { /* nothing written worth keeping */
            if (out != stdout) ts_output_abort(out);
            free(obuf);
            ts_input_close(&in);
            return rc;
        }
    } else if (!strcmp(format, "csv") || !strcmp(format, "timeline")) {
        bool csv = !strcmp(format, "csv");
        elf_syms_t syms;
        bool have_syms = false;
        if (elf) {
            if (elf_syms_load(&syms, elf, err, sizeof err)) {
                fprintf(stderr, "tracesim: %s\n", err);
                if (out != stdout) ts_output_abort(out);
                free(obuf);
                ts_input_close(&in);
                return TS_EXIT_NO_FILE;
            }
            have_syms = true;
        }
        ts_tl_time_t tt;
        if (ts_tl_time_setup(&tt, path, time_cycles, 1e6 / tick_hz, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            if (out != stdout) ts_output_abort(out);
            free(obuf);
            if (have_syms) elf_syms_free(&syms);
            ts_input_close(&in);
            return TS_EXIT_USAGE;
        }
        ts_csv_t cc = {.out = out, .syms = have_syms ? &syms : NULL, .first_rec = &first_rec, .cycles = tt.cycles, .offset = tt.offset};
        static ts_tl_t tc;
        memset(&tc, 0, sizeof tc);
        tc.out = out;
        tc.first_rec = &first_rec;
        tc.syms = have_syms ? &syms : NULL;
        tc.time = tt;
        tc.first = true;
        perf_dec_cb_t cb = csv ? (perf_dec_cb_t){&cc, ts_csv_header, ts_csv_record, ts_csv_error} : (perf_dec_cb_t){&tc, ts_tl_header, ts_tl_record, ts_csv_error};
        if (!csv) ts_tl_begin(out, &tt);
        static perf_dec_t pd;
        perf_dec_init(&pd, (unsigned)perf_channel, &cb);
        if (ti.stopped || (ti.found && len < ti.bytes)) perf_dec_ended_early(&pd); /* stopped on wrap or the file was cut: a pending low word may have lost its high part */
        stm_tl_t st;
        stm_tl_init(&st, out, &tc.first, &tt);
        run_perf(&pd, &cfg, data, len, start, cfgh, ncfg, hart, csv ? NULL : stm_tl_elem, &st);
        stm_tl_finish(&st);
        if (!csv && elf) rc = timeline_flow(out, &tc.first, &tt, elf, &cfg, data, len, start, hart, rc);
        if (!csv) fputs("\n]}\n", out);
        if (st.untimed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " software event(s) without a timestamp are not in the timeline\n", st.untimed);
        if (st.oom) {
            fprintf(stderr, "tracesim: out of memory\n");
            rc = TS_EXIT_HOST;
        }
        if (tc.untimed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) without a timestamp are not in the timeline\n", tc.untimed);
        if (tc.unnamed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) cut off before their address are not in the timeline\n", tc.unnamed);
        if (tc.unknown)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) after a gap whose addresses are unknown (DeltaXOR) "
                            "are not in the timeline\n",
                    tc.unknown);
        if (pd.headers || pd.config_used || !st.events) /* a software trace timeline needs no perf data */
            perf_notes(&pd, perf_channel, &ti, cfg_path);
        if (cc.truncated)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) cut off (marked \"(truncated)\")\n", cc.truncated);
        if (have_syms) elf_syms_free(&syms);
    } else if (!strcmp(format, "stm")) {
        ts_elem_stage_t es;
        stm_text_t sc;
        stm_text_init(&sc, out);
        ts_elem_init(&es, stm_text_elem, &sc);
        decode_msgs(&d, data + start, len - start, hart, ts_elem_from_msg, &es);
        ts_elem_eot(&es, len);
        stm_text_free(&sc);
        if (sc.oom) {
            fprintf(stderr, "tracesim: out of memory\n");
            rc = TS_EXIT_HOST;
        }
        if (sc.corrupt)
            fprintf(stderr, "tracesim: warning: %" PRIu64 " corrupt messages (listed as CORRUPT; decoding resynchronised)\n", sc.corrupt);
    } else if (!strcmp(format, "elements") || !strcmp(format, "instr")) {
        /* message elements, then after each message the program-flow elements it gave */
        bool instr = !strcmp(format, "instr");
        if (instr) {
            ev_count_t ec = {0, 0};
            nxd_t d2;
            nxd_init(&d2, &cfg);
            decode_msgs(&d2, data + start, len - start, hart, ev_count_msg, &ec);
            if (!ec.counts) {
                if (ec.events)
                    fprintf(stderr, "tracesim: --format instr: %s is an event / PC-sample trace (teInstruction 1), which "
                                    "names only calls, traps and samples, not every instruction; its events: --format elements\n",
                            path);
                else /* instrumentation only: an empty listing would pass for a program that never ran */
                    fprintf(stderr, "tracesim: --format instr: %s has no program trace (no branch, sync or "
                                    "instruction-count message: teInstruction 0); run with --trace-insn for one\n",
                            path);
                if (out != stdout) ts_output_abort(out); /* no empty instr.txt */
                free(obuf);
                ts_input_close(&in);
                return TS_EXIT_USAGE;
            }
        }
        ts_flow_t *fl = malloc(sizeof *fl);
        if (!fl || ts_flow_open(fl, out, elf, instr, cfg.srcbits > 0, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", fl ? err : "out of memory");
            free(fl);
            if (out != stdout) ts_output_abort(out);
            free(obuf);
            ts_input_close(&in);
            return fl ? TS_EXIT_NO_FILE : TS_EXIT_HOST;
        }
        ts_elem_stage_t es;
        ts_elem_init(&es, print_elem, out);
        elem_flow_t ef = {&es, fl, instr};
        decode_msgs(&d, data + start, len - start, hart, elem_flow_msg, &ef);
        if (!instr) ts_elem_eot(&es, len);
        if (ts_flow_close(fl, len)) {
            fprintf(stderr, "tracesim: out of memory\n");
            rc = TS_EXIT_HOST;
        }
        free(fl);
    } else {
        static pctx_t pc;
        memset(&pc, 0, sizeof pc);
        pc.out = out;
        pc.channel = (unsigned)channel;
        pc.tag = cfg.srcbits > 0;
        decode_msgs(&d, data + start, len - start, hart, itc_msg, &pc);
        for (unsigned k = 0; k < NXD_MAX_SRC; k++) {
            print_flush(&pc, k);
            free(pc.src[k]);
        }
    }
    char werr[4400];
    if (out != stdout && ts_fclose_output(out, opath, werr, sizeof werr)) { /* a full disk is never a silent short file */
        fprintf(stderr, "tracesim: %s\n", werr);
        rc = TS_EXIT_HOST;
    }
    free(obuf);
    fflush(stdout);
    ts_input_close(&in);
    return rc;
}
