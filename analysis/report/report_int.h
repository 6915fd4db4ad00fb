/* report_int.h - the parts of `tracesim report` (report.h), private to analysis/report/:
 * report_run.c (what the options say together, the inputs, the perf decode), report_perf.c (the perf records into one profile per hart),
 * report_flow.c (the profile from the program flow: --from flow) and report_out.c (the
 * profile written as text, CSV, folded stacks, callgrind or one HTML page). */
#ifndef TS_REPORT_INT_H
#define TS_REPORT_INT_H
#include "run_trace.h"
#include "elements.h"
#include "hook_cost.h"
#include "nexus_decode.h"
#include "out_html.h"
#include "out_paths.h"
#include "perf_decode.h"
#include "profile.h"
#include "src_lines.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_WARNINGS 10
/* THREAD_SWITCH events kept per hart while a record is assembled (rctx_t) */
#define SWITCH_QUEUE 16

/* the profiles being made from the perf records */
typedef struct rctx {
    prof_t *prof[PERF_MAX_CORES]; /* per hart, made when its first header arrives */
    prof_opts_t po;
    int hart;        /* --hart, or -1 */
    hook_cost_t *hc; /* the hooks' cost from the ground truth, or NULL */
    bool oom;
    uint64_t errors, gaps;
    unsigned warnings;
    /* THREAD_SWITCH events that came while a record was assembled (the decoder hands a record
     * over when the next one starts), in order; beyond SWITCH_QUEUE only the last is kept */
    unsigned switch_n[PERF_MAX_CORES];
    uint64_t switch_id[PERF_MAX_CORES][SWITCH_QUEUE];
} rctx_t;

/* report_perf.c: perf_dec_cb_t callbacks (ctx: rctx_t) */
void r_header(void *v, const perf_header_t *h);
void r_record(void *v, const perf_record_t *r);
void r_error(void *v, unsigned core, uint64_t off, const char *w);
void r_warn(void *v, const char *msg); /* prof_opts_t's warn */
/* the elements after the perf stage saw them (ts_pipeline_cfg_t's elem_cb): THREAD_SWITCH
 * events (software trace port) to the profile, after the record being assembled when one is
 * (ctx: r_elem_t) */
typedef struct r_elem {
    perf_dec_t *pd;
    rctx_t *rc;
} r_elem_t;
int r_elem(void *v, const ts_elem_t *e);
/* prof_opts_t's line and sym: a manual record's source line, a function by address */
const char *line_of(void *sl, uint64_t addr, unsigned *line);
const char *sym_of(void *syms, uint64_t addr, uint64_t *start);

/* report_flow.c: --from flow (or no perf header): the flow profile (flow_profile.h) to stdout
 * or out_path/out_file; the exit status, or -1 (not required: the trace has no program trace) */
int flow_report(const char *path, const nxd_cfg_t *cfg, bool wrapped, const char *elf, int hart, const char *format,
                const char *counter, const char *out_path, const char *out_file, bool required);

/* report_out.c: the profiles of rc written in the format asked for */
typedef struct report_out {
    const char *path, *elf, *cfg_path, *format, *counter;
    const char *out_path, *out_file; /* -o DIR and the file in it, or NULL */
    int hart, perf_channel;
    bool compensate;
    const ts_trace_info_t *ti;
    size_t len, start; /* the bytes decoded; where decoding started */
    unsigned harts, nprof;
    bool harts_known;
    const perf_dec_t *pd;
    rctx_t *rc;
    rpaths_t *paths;                        /* folded, callgrind, html: the call paths */
    html_tl_t *tl;                          /* html: the timeline */
    const char *input, *run_dir, *baseline; /* html: the command's input, its run folder (or NULL), --baseline */
    src_lines_t *sl;
    bool stop; /* set: an error before the report was complete (no more notes) */
} report_out_t;
/* the exit status */
int report_write(report_out_t *o);
#endif
