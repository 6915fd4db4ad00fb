/* decode_perf.c - `tracesim decode`: the perf records of the SiFive perf library - as SiFive's
 * decoder writes them (--format perf: perf_sifive.h), as CSV (csv) and as a Chrome/Perfetto
 * trace-event timeline with the software trace events and the program flow's call slices
 * (timeline: timeline.h, tl_flow.h, stm_decode.h), and as a Perfetto protobuf trace
 * (perfetto: pftrace.h). decode_int.h. */
#include "decode_int.h"
#include "call_sites.h"
#include "elements.h"
#include "elf_syms.h"
#include "ts_decoder.h"
#include "perf_sifive.h"
#include "pftrace.h"
#include "src_lines.h"
#include "stm_decode.h"
#include "timeline.h"
#include "tl_flow.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */

/* ---- perf records as SiFive's decoder writes them: perf_sifive.c, errors on stderr -------- */
typedef struct sctx {
    perf_sifive_t *ps;
    ts_csv_t ec;
    uint64_t *first_rec; /* the first record's offset (the records come in trace order per hart) */
} sctx_t;
static void s_header(void *v, const perf_header_t *h) { perf_sifive_header(((sctx_t *)v)->ps, h); }
static void s_record(void *v, const perf_record_t *r) {
    ts_note_first(((sctx_t *)v)->first_rec, r);
    perf_sifive_record(((sctx_t *)v)->ps, r);
}
static void s_error(void *v, unsigned core, uint64_t off, const char *w) { ts_csv_error(&((sctx_t *)v)->ec, core, off, w); }

/* the decoder's pipeline (ts_decoder.h) over data[start..len) of the job's trace, its
 * --hart filter and out-of-band headers: bytes -> messages -> elements -> perf records to cb,
 * the elements also to also_cb if not NULL. 0, or -1 out of memory. */
static int perf_pipeline(ts_pipeline_t *p, const decode_job_t *j, const perf_dec_cb_t *cb, ts_elem_cb also_cb, void *also_ctx) {
    ts_pipeline_cfg_t c = {.trace = j->cfg,
                           .perf_channel = (unsigned)j->perf_channel,
                           .perf_cb = *cb,
                           .headers = j->cfgh,
                           .nheaders = (unsigned)j->ncfg,
                           .elem_cb = also_cb,
                           .elem_ctx = also_ctx,
                           .offset = j->start,
                           .one_src = j->hart >= 0,
                           .src = j->hart >= 0 ? (unsigned)j->hart : 0};
    if (!ts_pipeline_init(p, &c)) return 0;
    ts_pipeline_free(p);
    return -1;
}
/* the pipeline run over the trace to its end: stopped on wrap or the file was cut, a pending
 * low word may have lost its high part (perf_dec_ended_early) */
static void run_perf(ts_pipeline_t *p, const decode_job_t *j) {
    ts_pipeline_decode(p, j->data + j->start, j->len - j->start);
    ts_pipeline_end(p, j->len, j->ti.stopped || (j->ti.found && j->len < j->ti.bytes));
}

/* what the perf decode could not do, and what it lost */
static void perf_notes(const perf_dec_t *pd, int channel, const ts_trace_info_t *ti, const char *cfg_path, uint64_t first_rec) {
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

int decode_perf_files(decode_job_t *j) {
    char err[4600];
    const char *elf = j->elf, *path = j->path;
    /* E = the ELF's name without directory and extension (the trace's, without an ELF) */
    char stem[256], dir[4096];
    const char *base = strrchr(elf ? elf : path, '/');
    snprintf(stem, sizeof stem, "%s", base ? base + 1 : (elf ? elf : path));
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem) *dot = 0;
    if (j->out_dir) snprintf(dir, sizeof dir, "%s", j->out_dir);
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
        return elf ? TS_EXIT_NO_FILE : TS_EXIT_HOST;
    }
    perf_sifive_set_line_time(ps, j->value_time);
    sctx_t sc = {ps, {0}, &j->first_rec};
    perf_dec_cb_t cb = {&sc, s_header, s_record, s_error};
    ts_pipeline_t p;
    if (perf_pipeline(&p, j, &cb, NULL, NULL)) {
        fprintf(stderr, "tracesim: out of memory\n");
        perf_sifive_close(ps, err, sizeof err);
        return TS_EXIT_HOST;
    }
    run_perf(&p, j);
    perf_notes(p.perf, j->perf_channel, &j->ti, j->cfg_path, j->first_rec);
    ts_pipeline_free(&p);
    if (perf_sifive_close(ps, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_HOST;
    }
    return 0;
}

int decode_perf_stream(decode_job_t *j, bool csv) {
    char err[4600];
    FILE *out = j->out;
    const char *elf = j->elf;
    int rc = 0;
    elf_syms_t syms;
    bool have_syms = false;
    if (elf) {
        if (elf_syms_load(&syms, elf, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            j->abort_out = true;
            return TS_EXIT_NO_FILE;
        }
        have_syms = true;
    }
    ts_tl_time_t tt;
    if (ts_tl_time_setup(&tt, j->path, j->time_cycles, 1e6 / j->tick_hz, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        j->abort_out = true;
        if (have_syms) elf_syms_free(&syms);
        return TS_EXIT_USAGE;
    }
    ts_csv_t cc = {.out = out, .syms = have_syms ? &syms : NULL, .first_rec = &j->first_rec, .cycles = tt.cycles, .offset = tt.offset};
    ts_tl_t *tc = calloc(1, sizeof *tc); /* a header per hart: not on the stack */
    if (!tc) {
        fprintf(stderr, "tracesim: out of memory\n");
        j->abort_out = true;
        if (have_syms) elf_syms_free(&syms);
        return TS_EXIT_HOST;
    }
    tc->out = out;
    tc->first_rec = &j->first_rec;
    tc->syms = have_syms ? &syms : NULL;
    tc->time = tt;
    tc->first = true;
    rs_sites_t sites; /* the call sites of the enter records: the slices' call stack */
    if (rs_sites_open(&sites, have_syms ? &syms : NULL, elf, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        j->abort_out = true;
        free(tc);
        if (have_syms) elf_syms_free(&syms);
        return TS_EXIT_NO_FILE;
    }
    ts_tl_stacks(tc, rs_site, &sites);
    perf_dec_cb_t cb = csv ? (perf_dec_cb_t){&cc, ts_csv_header, ts_csv_record, ts_csv_error} : (perf_dec_cb_t){tc, ts_tl_header, ts_tl_record, ts_tl_error};
    stm_tl_t st;
    ts_pipeline_t p;
    if (perf_pipeline(&p, j, &cb, csv ? NULL : stm_tl_elem, &st)) {
        fprintf(stderr, "tracesim: out of memory\n");
        j->abort_out = true;
        ts_tl_end(tc);
        free(tc);
        rs_sites_close(&sites);
        if (have_syms) elf_syms_free(&syms);
        return TS_EXIT_HOST;
    }
    const perf_dec_t *pd = p.perf;
    if (!csv) ts_tl_begin(out, &tt);
    stm_tl_init(&st, out, &tc->first, &tt);
    run_perf(&p, j);
    if (!csv) ts_tl_end(tc); /* the frames still open end at their hart's last record */
    stm_tl_finish(&st);
    if (!csv && elf) rc = timeline_flow(out, &tc->first, &tt, elf, &j->cfg, j->data, j->len, j->start, j->hart, rc);
    if (!csv) fputs("\n]}\n", out);
    if (st.untimed)
        fprintf(stderr, "tracesim: note: %" PRIu64 " software event(s) without a timestamp are not in the timeline\n", st.untimed);
    if (st.oom) {
        fprintf(stderr, "tracesim: out of memory\n");
        rc = TS_EXIT_HOST;
    }
    if (tc->untimed)
        fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) without a timestamp are not in the timeline\n", tc->untimed);
    if (tc->unnamed)
        fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) cut off before their address are not in the timeline\n", tc->unnamed);
    if (tc->unknown)
        fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) after a gap whose addresses are unknown (DeltaXOR) "
                        "are not in the timeline\n",
                tc->unknown);
    if (pd->headers || pd->config_used || !st.events) /* a software trace timeline needs no perf data */
        perf_notes(pd, j->perf_channel, &j->ti, j->cfg_path, j->first_rec);
    if (cc.truncated)
        fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) cut off (marked \"(truncated)\")\n", cc.truncated);
    ts_pipeline_free(&p);
    if (csv) ts_tl_end(tc); /* (frees the stacks) */
    free(tc);
    rs_sites_close(&sites);
    if (have_syms) elf_syms_free(&syms);
    return rc;
}

/* --format perfetto, beside the records: the program flow's calls (with an ELF; a second
 * decode of the trace) and the run folder's traps.csv (pftrace.h); the exit status so far */
static int perfetto_more(decode_job_t *j, ts_pf_t *pf, const ts_tl_time_t *tt) {
    char err[4600];
    if (j->elf) {
        ts_pf_flow_t *f = ts_pf_flow_open(pf, j->elf, err, sizeof err);
        if (!f) {
            fprintf(stderr, "tracesim: %s\n", err);
            j->abort_out = true;
            return TS_EXIT_NO_FILE;
        }
        nxd_t d;
        nxd_init(&d, &j->cfg);
        d.offset = j->start;
        decode_msgs(&d, j->data + j->start, j->len - j->start, j->hart, ts_pf_flow_msg, f);
        int64_t n = ts_pf_flow_close(f, j->len);
        if (n < 0) return TS_EXIT_HOST;
        if (n) fprintf(stderr, "tracesim: note: %" PRId64 " call slice(s) from the program flow (tracks \"hart N calls\")\n", n);
    }
    char path[4200];
    const char *sl = strrchr(j->path, '/');
    snprintf(path, sizeof path, "%.*s/traps.csv", sl ? (int)(sl - j->path) : 1, sl ? j->path : ".");
    if (!tt->cycles) return 0; /* traps.csv counts cycles */
    int r = ts_pf_traps(pf, path, err, sizeof err);
    if (r < 0) {
        fprintf(stderr, "tracesim: %s\n", err);
        j->abort_out = true;
        return TS_EXIT_NO_FILE;
    }
    return 0;
}

/* --format perfetto: the perf records (and the THREAD_SWITCH events) as a Perfetto protobuf
 * trace (pftrace.h), the call sites' lines from the ELF's DWARF; the exit status */
int decode_perfetto(decode_job_t *j) {
    char err[4600];
    ts_tl_time_t tt;
    if (ts_tl_time_setup(&tt, j->path, j->time_cycles, 1e6 / j->tick_hz, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        j->abort_out = true;
        return TS_EXIT_USAGE;
    }
    elf_syms_t syms;
    bool have_syms = false;
    src_lines_t *sl = NULL;
    if (j->elf) {
        if (elf_syms_load(&syms, j->elf, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            j->abort_out = true;
            return TS_EXIT_NO_FILE;
        }
        have_syms = true;
        sl = src_lines_open(j->elf); /* NULL without DWARF: sites stay addresses */
    }
    int rc = 0;
    rs_sites_t sites; /* the call sites of the enter records: the slices' call stack */
    if (rs_sites_open(&sites, have_syms ? &syms : NULL, j->elf, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        j->abort_out = true;
        src_lines_close(sl);
        if (have_syms) elf_syms_free(&syms);
        return TS_EXIT_NO_FILE;
    }
    ts_pf_t *pf = ts_pf_open(j->out, have_syms ? &syms : NULL, sl ? src_lines_at : NULL, sl, &tt);
    if (pf) ts_pf_sites(pf, rs_site, &sites);
    ts_pipeline_t p;
    bool have_p = pf && !perf_pipeline(&p, j, &(perf_dec_cb_t){pf, ts_pf_header, ts_pf_record, ts_pf_error}, ts_pf_elem, pf);
    if (have_p) {
        ts_pf_decoder(pf, p.perf);
        run_perf(&p, j);
        ts_pf_records_end(pf); /* the frames still open end at their hart's last record */
        rc = perfetto_more(j, pf, &tt);
        ts_pf_stats_t st;
        ts_pf_stats(pf, &st);
        if (st.untimed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) without a timestamp are not in the trace\n", st.untimed);
        if (st.unnamed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) cut off before their address are not in the trace\n", st.unnamed);
        if (st.unknown)
            fprintf(stderr, "tracesim: note: %" PRIu64 " record(s) after a gap whose addresses are unknown (DeltaXOR) are not in the trace\n", st.unknown);
        if (st.sw_untimed || st.trap_untimed)
            fprintf(stderr, "tracesim: note: %" PRIu64 " software trace event(s) and %" PRIu64 " trap event(s) without a timestamp are not in the trace\n",
                    st.sw_untimed, st.trap_untimed);
        perf_notes(p.perf, j->perf_channel, &j->ti, j->cfg_path, j->first_rec);
        if (st.oom) rc = TS_EXIT_HOST;
        ts_pipeline_free(&p);
    }
    if (pf) ts_pf_close(pf);
    if (!have_p || rc == TS_EXIT_HOST) {
        fprintf(stderr, "tracesim: out of memory\n");
        rc = TS_EXIT_HOST;
    }
    rs_sites_close(&sites);
    if (sl) src_lines_close(sl);
    if (have_syms) elf_syms_free(&syms);
    return rc;
}
