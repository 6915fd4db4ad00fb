/* out_html.h - `tracesim report -f html`: one self-contained HTML page (inline CSS, SVG and a
 * little JavaScript; nothing fetched from the network) with the run's summary (cycles,
 * instructions, records, losses, check's verdict), a flame graph per hart (threads below it),
 * a timeline of the call stacks per hart (threads as its first row), the flat profile with
 * sortable columns, the instrumentation cost, the overhead against a baseline run and the
 * interrupts and threads section (html_section_irq_threads). Every string from an ELF, a trace
 * or a run folder is HTML-escaped (html_esc). docs/commands/report.md, "HTML".
 *
 * The flame graph is the calling-context tree of out_paths.h (rp_tree) with the nodes of one
 * function under one parent merged (the call sites are not told apart); the timeline is made
 * from the same intervals the profile counts (prof_opts_t.path_interval, chained by
 * html_tl_attach): its x axis is the sum of the cycles deltas (else the first counter's) of
 * the hart's intervals, from its first record. */
#ifndef TS_OUT_HTML_H
#define TS_OUT_HTML_H
#include "out_paths.h"
#include "profile.h"
#include <stdbool.h>
#include <stdio.h>

/* the timeline's slices, collected while the profile is made */
typedef struct html_tl html_tl_t;
/* profs: the report's per-hart profiles (read at every interval: filled as headers come);
 * NULL when out of memory */
html_tl_t *html_tl_new(prof_t *const *profs);
void html_tl_free(html_tl_t *t);
/* after rp_attach: o's path callbacks go to t, which hands every call on to the previous ones */
void html_tl_attach(html_tl_t *t, prof_opts_t *o);

typedef struct html_report {
    const char *input;        /* the command's RUN_DIR or trace argument (the title) */
    const char *trace;        /* the trace file */
    const char *run_dir;      /* its run folder, or NULL (a trace file alone) */
    const char *elf;          /* the program's ELF, or NULL */
    prof_t *const *profs;     /* PERF_MAX_CORES, NULL where a hart has none */
    rpaths_t *paths;          /* the call paths of those profiles */
    html_tl_t *tl;            /* the timeline, or NULL */
    bool compensate;          /* --compensate: hook cycles out of the cycles figures */
    int perf_channel;         /* for the run folder's losses */
    const char *baseline;     /* --baseline RUN_DIR, or NULL */
    const char *const *notes; /* lines for the summary (e.g. a wrapped buffer), NULL-ended, or NULL */
} html_report_t;

/* the page; 0, -1 with one line in err (the baseline is not a run folder with cycles), -2 out
 * of memory or writing failed */
int html_write(const html_report_t *r, FILE *out, char *err, size_t errlen);

/* the section "Interrupts and threads" (id "irq"): per interrupt cause and per thread, visits,
 * time, latency, nesting (issue 39, item 5: analysis/report/irq_stats.h). A placeholder that
 * says so until that module is wired in here. */
void html_section_irq_threads(FILE *out, const html_report_t *r);

/* s with & < > " ' as entities and control characters as \xNN: text or an attribute value */
void html_esc(FILE *out, const char *s);
#endif
