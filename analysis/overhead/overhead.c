/* overhead.c - `tracesim overhead`: see overhead.h. */
#include "cli_util.h"
#include "overhead.h"
#include "ts_json.h"
#include "ts_opts.h"
#include "overhead_int.h"
#include "ts_decoder.h"
#include "ts_file.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OVH_FAILED 1       /* a run failed or left unusable results */
#define OVH_PERF_CHANNEL 6 /* PERF_CHANNEL of firmware/examples/perf_config.h */

static const char *const mode_names[] = {"out", "off", "on"};
static const char *const sink_names[] = {"sram", "sba"};
static const char *const sink_titles[] = {"SRAM", "SBA"};

typedef struct ovh_example {
    const char *name, *chart_title, *what;
} ovh_example_t;
/* the workloads of firmware/examples/CMakeLists.txt's ovh_* variants */
static const ovh_example_t examples[] = {
    {"fib", "fib: entry/exit",
     "function entry/exit mode: fib(8) compiled with `-finstrument-functions`, a record per call and per return"},
    {"manual", "manual: 3 sites",
     "manual mode: `perfWriteCntrs()` at 3 sites of a loop of 20 rounds"},
    {"timer_isr", "timer_isr: ISR",
     "timer ISR mode: a record every 100 us (10000 cycles) while 40 rounds of three functions run"},
};
#define N_EXAMPLES (sizeof examples / sizeof examples[0])
static const unsigned event_lists[] = {1, 4, 8}; /* PERF_EVENTS */
#define N_LISTS (sizeof event_lists / sizeof event_lists[0])

/* the per-event table: firmware/examples/events.c's variants ovh_events_<name>, the same loop
 * of EVENT_ROUNDS rounds with one event of a kind per round (KIND_NONE: none, the baseline) */
enum ovh_kind { KIND_NONE,
                KIND_STM,
                KIND_STMI,
                KIND_ITC,
                KIND_PERF };
typedef struct ovh_kind_desc {
    const char *name, *label, *code;
} ovh_kind_desc_t;
static const ovh_kind_desc_t kinds[] = {
    {"out", "none", "the loop alone (baseline)"},
    {"stm", "STM event", "`ts_stm_event(1, r)`: `mv a0,s1` `csrw 0x7c0,s3`"},
    {"stmi", "STM event, csrwi", "`TS_STM_EVENT_I(1, r)`: `mv a0,s1` `csrwi 0x7c0,1`"},
    {"itc", "ITC store", "`ts_itc_write32(0, 5, r)`: poll the stimulus, store"},
    {"perf", "perf record", "`perfWriteCntrs()`: a manual record, 1 counter (cycles)"},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])
#define EVENT_ROUNDS 256    /* ROUNDS of firmware/examples/events.c */
#define EVENT_ITC_CHANNEL 5 /* ITC_CHANNEL of events.c */
#define MAX_RUNS (N_EXAMPLES * (1 + 2 * 2 * N_LISTS) + N_KINDS)

/* counters in a record for a PERF_EVENTS value (the lists of perf_config.h) */
static unsigned counters_of(unsigned events) { return events == 8 ? 10 : events; }


enum { V_BUILD_GONE = 1,
       V_FIRMWARE_DIR,
       V_QUICK,
       V_BASELINE,
       V_PERF_CHANNEL,
       V_OUT,
       V_HELP };
/* `tracesim overhead`'s options, both modes: the parser, --help and docs/commands/overhead.md */
static const ts_opt_t overhead_opts[] = {
    {V_FIRMWARE_DIR, 0, "firmware-dir", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0,
     "folder with the ovh_*.elf firmware (default: firmware/examples\nin the build folder of this executable)"},
    {V_BUILD_GONE, 0, "build", TS_OPT_STRING, "DIR", 0, 0, 0, 0, TS_OPT_REFUSE,
     "overhead's --build is now --firmware-dir DIR (the folder of the ovh_*.elf; "
     "--build DIR names a build folder in tracesim sweep)"},
    {V_QUICK, 0, "quick", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "only fib with 1 counter, and the per-event runs (10 runs)"},
    {V_BASELINE, 0, "baseline", TS_OPT_STRING, "PLAIN", 0, 0, 0, 0, 0,
     "the overhead of your own builds FW... over PLAIN (an ELF or a run\nfolder)"},
    {V_PERF_CHANNEL, 0, "perf-channel", TS_OPT_UINT, "N", 0, 31, 0, 0, 0,
     "with --baseline: the perf library channel (default 6)"},
    {V_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0, "output folder (default runs/overhead)"},
    {V_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t overhead_exits[] = {
    {"0", "the report was written"},
    {"1", "a run failed (non-zero exit) or left unusable results"},
    {"120", "usage: bad option or value, options of the other mode, no FW\nwith --baseline, -o naming a file"},
    {"121", "a firmware ELF or run folder is missing or unreadable"},
    {"126", "the outputs cannot be written, out of memory"},
    {NULL, NULL}};
const ts_cmd_t ts_overhead_cmd = {
    "overhead",
    "tracesim overhead [--firmware-dir DIR] [-o DIR] [--quick]\n"
    "tracesim overhead --baseline PLAIN [-o DIR] [--perf-channel N] FW...",
    "Without --baseline: what the perf library's instrumentation costs. Runs the ovh_*\n"
    "firmware variants (each example with the perf calls compiled out, with tracing never\n"
    "switched on, and tracing, into the SRAM sink and an SBA buffer, with 1, 4 and 10\n"
    "counters), then the ovh_events_* variants (one loop without an event, with a software\n"
    "trace event, an ITC store or a perf record per round) for a table of what one event\n"
    "costs.\n"
    "\n"
    "With --baseline: the overhead of your own builds. PLAIN and each FW are an ELF (run into\n"
    "DIR/runs/NAME/) or the run folder of one; per FW: cycles, extra cycles and percent over\n"
    "PLAIN, perf records (decoded from its trace) and extra cycles per record.\n",
    overhead_opts, 0,
    "  a table per example on stdout and in DIR/overhead.md, a chart in DIR/overhead.svg, the\n"
    "  run folders in DIR/runs/; with --baseline also DIR/overhead.csv\n",
    overhead_exits, NULL};

/* ---- the runs -------------------------------------------------------------------------- */

static size_t plan_runs(ovh_run_t *runs, bool quick) {
    size_t n = 0;
    for (unsigned ex = 0; ex < (quick ? 1 : N_EXAMPLES); ex++) {
        ovh_run_t *r = &runs[n++];
        r->ex = ex;
        r->kind = -1;
        r->mode = MODE_OUT;
        snprintf(r->name, sizeof r->name, "ovh_%s_out", examples[ex].name);
        for (int mode = MODE_OFF; mode <= MODE_ON; mode++)
            for (unsigned sink = 0; sink < 2; sink++)
                for (unsigned l = 0; l < (quick ? 1 : N_LISTS); l++) {
                    r = &runs[n++];
                    r->ex = ex;
                    r->kind = -1;
                    r->mode = (enum ovh_mode)mode;
                    r->sink = sink;
                    r->events = event_lists[l];
                    snprintf(r->name, sizeof r->name, "ovh_%s_%s_%s_%u", examples[ex].name,
                             mode_names[mode], sink_names[sink], r->events);
                }
    }
    for (unsigned k = 0; k < N_KINDS; k++) {
        ovh_run_t *r = &runs[n++];
        r->ex = N_EXAMPLES;
        r->kind = (int)k;
        r->mode = k == KIND_NONE ? MODE_OUT : MODE_ON;
        snprintf(r->name, sizeof r->name, "ovh_events_%s", kinds[k].name);
    }
    return n;
}

/* reads the run folder; 0, or -1 with a reason */
static int read_results(ovh_run_t *r, char *why, size_t whylen) {
    size_t len;
    char *stats = ovh_slurp(r->dir, "stats.txt", &len), *ev = ovh_slurp(r->dir, "events.csv", &len),
         *json = ovh_slurp(r->dir, "trace.json", &len);
    int rc = -1;
    if (!stats || !ovh_stats_value(stats, "cycles", &r->cycles) || !ovh_stats_value(stats, "instret", &r->instret))
        snprintf(why, whylen, "no cycles/instret in %s/stats.txt", r->dir);
    else if (!ev || !ovh_csv_value(ev, "itc_stall", &r->itc_stall) || !ovh_csv_value(ev, "sba_conflict", &r->sba_conflict))
        snprintf(why, whylen, "no itc_stall/sba_conflict columns in %s/events.csv", r->dir);
    else if (!json && r->mode == MODE_ON)
        snprintf(why, whylen, "no trace.json in %s", r->dir);
    else if (!json) /* the simulator writes no trace when nothing was traced */
        rc = 0;
    else {
        r->stopped = ovh_json_true(json, "stopped_on_wrap");
        r->wrapped = ovh_json_true(json, "wrapped");
        ovh_json_u64(json, "itc_lost", &r->itc_lost);
        rc = ovh_count_records(r, json, OVH_PERF_CHANNEL, why, whylen);
        if (!rc) rc = ovh_count_made(r, OVH_PERF_CHANNEL, why, whylen);
    }
    if (!rc && r->mode == MODE_ON && !r->records) {
        snprintf(why, whylen, "no perf records in %s/trace.rtd", r->dir);
        rc = -1;
    }
    if (!rc && r->mode == MODE_ON && r->hdr_counters != counters_of(r->events)) {
        snprintf(why, whylen, "its perf header has %u counters, not %u (rebuild the firmware)", r->hdr_counters,
                 counters_of(r->events));
        rc = -1;
    }
    if (!rc && r->mode != MODE_ON && (r->records || r->headers)) {
        snprintf(why, whylen, "tracing is %s but %s/trace.rtd holds perf data (rebuild the firmware)",
                 r->mode == MODE_OUT ? "compiled out" : "off", r->dir);
        rc = -1;
    }
    free(stats);
    free(ev);
    free(json);
    return rc;
}

/* CSV rows (after the header) of DIR/FILE whose column col (0-based) equals val; -1 if the
 * file is missing */
/* the field `col` (0 = first) of the row at p is val */
static bool csv_field_is(const char *p, unsigned col, const char *val) {
    const char *c = p;
    size_t k = strlen(val);
    for (unsigned i = 0; i < col && c; i++) {
        c = strpbrk(c, ",\n");
        c = c && *c == ',' ? c + 1 : NULL;
    }
    return c && !strncmp(c, val, k) && (c[k] == ',' || c[k] == '\n' || c[k] == '\r' || !c[k]);
}

/* rows of dir/file whose field col is val and, when col2 >= 0, whose field col2 is val2;
 * -1 if the file cannot be read */
static int64_t csv_count2(const char *dir, const char *file, unsigned col, const char *val, int col2, const char *val2) {
    size_t len;
    char *text = ovh_slurp(dir, file, &len);
    if (!text) return -1;
    int64_t n = 0;
    char *p = strchr(text, '\n');
    while (p && *++p) {
        if (csv_field_is(p, col, val) && (col2 < 0 || csv_field_is(p, (unsigned)col2, val2))) n++;
        p = strchr(p, '\n');
    }
    free(text);
    return n;
}
static int64_t csv_count(const char *dir, const char *file, unsigned col, const char *val) {
    return csv_count2(dir, file, col, val, -1, NULL);
}

/* a per-event run: cycles, instructions, stall totals and its events, counted in the ground
 * truth (stm.csv `traced` rows, itc.csv rows of the channel) or, for perf records, in
 * trace.rtd; every kind but its own must be absent */
static int read_event_results(ovh_run_t *r, char *why, size_t whylen) {
    size_t len;
    char *stats = ovh_slurp(r->dir, "stats.txt", &len), *ev = ovh_slurp(r->dir, "events.csv", &len),
         *json = ovh_slurp(r->dir, "trace.json", &len);
    int rc = -1;
    char ch[4];
    snprintf(ch, sizeof ch, "%d", EVENT_ITC_CHANNEL);
    int64_t stm = csv_count(r->dir, "stm.csv", 4, "traced"), stm_lost = csv_count(r->dir, "stm.csv", 4, "lost"),
            itc = csv_count2(r->dir, "itc.csv", 2, ch, 6, "traced");
    if (!stats || !ovh_stats_value(stats, "cycles", &r->cycles) || !ovh_stats_value(stats, "instret", &r->instret))
        snprintf(why, whylen, "no cycles/instret in %s/stats.txt", r->dir);
    else if (!ev || !ovh_csv_value(ev, "itc_stall", &r->itc_stall) || !ovh_csv_value(ev, "sba_conflict", &r->sba_conflict))
        snprintf(why, whylen, "no itc_stall/sba_conflict columns in %s/events.csv", r->dir);
    else if (!json)
        snprintf(why, whylen, "no trace.json in %s", r->dir);
    else if (stm < 0 || stm_lost < 0 || itc < 0)
        snprintf(why, whylen, "no stm.csv or itc.csv in %s", r->dir);
    else {
        ovh_json_u64(json, "itc_lost", &r->itc_lost);
        r->stopped = ovh_json_true(json, "stopped_on_wrap");
        r->wrapped = ovh_json_true(json, "wrapped");
        rc = ovh_count_records(r, json, OVH_PERF_CHANNEL, why, whylen);
    }
    if (!rc) {
        uint64_t n[N_KINDS] = {0, (uint64_t)stm, (uint64_t)stm, (uint64_t)itc, r->records};
        int own = r->kind == KIND_STMI ? KIND_STM : r->kind;
        r->n_events = n[r->kind];
        r->ev_lost = r->kind == KIND_STM || r->kind == KIND_STMI ? (uint64_t)stm_lost : r->kind == KIND_ITC ? r->itc_lost :
                                                                                                              0;
        for (int k = KIND_STM; k < (int)N_KINDS; k++)
            if (k != KIND_STMI && k != own && n[k]) {
                snprintf(why, whylen, "it holds %" PRIu64 " %s(s), not its own kind (rebuild the firmware)", n[k],
                         kinds[k].label);
                rc = -1;
            }
        if (!rc && r->kind != KIND_NONE && (r->n_events != EVENT_ROUNDS || r->ev_lost)) {
            snprintf(why, whylen, "%" PRIu64 " %ss and %" PRIu64 " lost, expected %d and none", r->n_events,
                     kinds[r->kind].label, r->ev_lost, EVENT_ROUNDS);
            rc = -1;
        }
    }
    free(stats);
    free(ev);
    free(json);
    return rc;
}

/* ---- the report ------------------------------------------------------------------------ */

static const ovh_run_t *baseline(const ovh_run_t *runs, size_t n, unsigned ex) {
    for (size_t i = 0; i < n; i++)
        if (runs[i].ex == ex && runs[i].mode == MODE_OUT) return &runs[i];
    return NULL;
}
/* the "off" run with r's sink and counters */
static const ovh_run_t *off_twin(const ovh_run_t *runs, size_t n, const ovh_run_t *r) {
    for (size_t i = 0; i < n; i++)
        if (runs[i].ex == r->ex && runs[i].mode == MODE_OFF && runs[i].sink == r->sink && runs[i].events == r->events)
            return &runs[i];
    return NULL;
}
static double pct(const ovh_run_t *r, const ovh_run_t *out) {
    return out->cycles ? 100.0 * ((double)r->cycles - (double)out->cycles) / (double)out->cycles : 0.0;
}
static double per_record(uint64_t v, uint64_t base, uint64_t records) {
    return ((double)(int64_t)(v - base)) / (double)records;
}

static void write_md(FILE *f, const ovh_run_t *runs, size_t n, bool quick) {
    fputs("# Instrumentation overhead of the perf library\n\n"
          "Written by `tracesim overhead",
          f);
    fputs(quick ? " --quick" : "", f);
    fputs("` (analysis/overhead/overhead.c): every run is a whole `tracesim run` of an `ovh_*` "
          "firmware variant (firmware/examples/CMakeLists.txt) with the default SoC (16 KiB "
          "SRAM sink, 8-entry ITC FIFO, no caches); Delta counts on ITC channel 6; the SBA "
          "buffer is 32 KiB. Run folders: `runs/<variant>/` beside this file.\n",
          f);
    for (unsigned ex = 0; ex < N_EXAMPLES; ex++) {
        const ovh_run_t *out = baseline(runs, n, ex);
        if (!out) continue;
        fprintf(f, "\n## %s\n\n%s.\n\n", examples[ex].name, examples[ex].what);
        fputs("| mode | sink | counters | cycles | instructions | records | cycles per record "
              "| instructions per record | cycles per record over off | overhead (cycles) | ITC stall cycles "
              "| SBA conflict cycles |\n"
              "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
              f);
        for (size_t i = 0; i < n; i++) {
            const ovh_run_t *r = &runs[i];
            if (r->ex != ex) continue;
            if (r->mode == MODE_OUT) {
                fprintf(f, "| out | - | - | %" PRIu64 " | %" PRIu64 " | 0 | - | - | - | (baseline) | %" PRIu64 " | %" PRIu64 " |\n", r->cycles, r->instret, r->itc_stall, r->sba_conflict);
                continue;
            }
            uint64_t nrec = ovh_per_record_n(r);
            fprintf(f, "| %s | %s | %u | %" PRIu64 " | %" PRIu64 " | %" PRIu64, mode_names[r->mode],
                    sink_names[r->sink], counters_of(r->events), r->cycles, r->instret, nrec);
            const ovh_run_t *off = off_twin(runs, n, r);
            if (nrec)
                fprintf(f, " | %.1f | %.1f", per_record(r->cycles, out->cycles, nrec),
                        per_record(r->instret, out->instret, nrec));
            else
                fputs(" | - | -", f);
            if (nrec && off && r->mode == MODE_ON)
                fprintf(f, " | %.1f", per_record(r->cycles, off->cycles, nrec));
            else
                fputs(" | -", f);
            fprintf(f, " | %+.1f %% | %" PRIu64 " | %" PRIu64 " |\n", pct(r, out), r->itc_stall,
                    r->sba_conflict);
        }
    }
    const ovh_run_t *none = NULL;
    for (size_t i = 0; i < n; i++)
        if (runs[i].kind == KIND_NONE) none = &runs[i];
    if (none) {
        fprintf(f, "\n## one event\n\nThe same loop of %d rounds (about 48 cycles of arithmetic each) with one event "
                   "per round, or none (firmware/examples/events.c; every variant sets up the perf library with 1 "
                   "counter into the SRAM sink, ITC channel %d and stmEnable, and switches tracing on).\n\n",
                EVENT_ROUNDS, EVENT_ITC_CHANNEL);
        fputs("| event | code | events | cycles | instructions | cycles per event | instructions per event "
              "| ITC stall cycles |\n|---|---|--:|--:|--:|--:|--:|--:|\n",
              f);
        for (size_t i = 0; i < n; i++) {
            const ovh_run_t *r = &runs[i];
            if (r->kind < 0) continue;
            fprintf(f, "| %s | %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64, kinds[r->kind].label, kinds[r->kind].code,
                    r->n_events, r->cycles, r->instret);
            if (r->kind == KIND_NONE || !r->n_events)
                fputs(" | (baseline) | (baseline)", f);
            else
                fprintf(f, " | %.1f | %.1f", per_record(r->cycles, none->cycles, r->n_events),
                        per_record(r->instret, none->instret, r->n_events));
            fprintf(f, " | %" PRIu64 " |\n", r->itc_stall);
        }
    }
    bool note = false;
    for (size_t i = 0; i < n; i++) {
        const ovh_run_t *r = &runs[i];
        bool fewer = r->kind < 0 && r->have_made && r->made != r->records;
        if (!r->stopped && !r->wrapped && !r->truncated && !r->itc_lost && !r->perf_errors && !fewer) continue;
        if (!note) fputs("\nNotes:\n\n", f);
        note = true;
        fprintf(f, "* `%s`:", r->name);
        if (r->stopped) fputs(" the trace buffer filled and tracing stopped (stop-on-wrap): records after that are not in the trace;", f);
        if (r->wrapped) fputs(" the trace buffer wrapped: the oldest records are not in the trace;", f);
        if (fewer)
            fprintf(f, " %" PRIu64 " of the %" PRIu64 " records made reached the trace (the per-record figures "
                       "count every record made);",
                    r->records, r->made);
        if (r->truncated) fprintf(f, " %" PRIu64 " record(s) cut off;", r->truncated);
        if (r->itc_lost) fprintf(f, " %" PRIu64 " ITC store(s) lost;", r->itc_lost);
        if (r->perf_errors) fprintf(f, " %" PRIu64 " perf data error(s) in the trace;", r->perf_errors);
        fputc('\n', f);
    }
    fputs("\nColumns:\n\n"
          "* **mode**: `out` = the same program with every perf call compiled out (fib also without "
          "`-finstrument-functions`); `off` = the library linked and initialised (`perfInit`, "
          "`perf...Init`: counters, encoder, timer), hooks and ISR in place, `perfTraceOn()` never "
          "called; `on` = tracing as in the examples.\n"
          "* **sink**: `sram` = the encoder's SRAM sink; `sba` = a 32 KiB buffer in RAM that the "
          "SBA sink writes over the system bus.\n"
          "* **counters**: counters in each record (`PERF_EVENTS` 1, 4, 8 give 1, 4 and 10).\n"
          "* **cycles**, **instructions**: the whole run, from `stats.txt` (reset to exit).\n"
          "* **records**: complete perf records the firmware made: decoded from every store on the perf "
          "channel in the run's ground truth (`itc.csv`), whether or not it reached the trace (the notes say "
          "when fewer did).\n"
          "* **cycles per record** = (cycles - cycles of `out`) / records, likewise **instructions "
          "per record**: everything tracing adds, one-time costs (set-up, header, draining, "
          "`perfWriteTrace()` copying the buffer out) spread over the records.\n"
          "* **cycles per record over off** = (cycles - cycles of `off` with the same sink and "
          "counters) / records: what one more record costs, its share of `perfWriteTrace()` "
          "included, without the set-up that `off` pays too.\n"
          "* **overhead (cycles)** = (cycles - cycles of `out`) / cycles of `out`, in %.\n"
          "* **ITC stall cycles**, **SBA conflict cycles**: the simulator's own event totals "
          "(`events.csv`, columns `itc_stall` and `sba_conflict`): cycles in which a store of the "
          "core waited for a full ITC FIFO, and cycles in which a data access of the core lost "
          "the bus to the SBA sink.\n"
          "* one event: **events** counted in the run's ground truth (`stm.csv` rows `traced`, `itc.csv` `traced` rows "
          "of channel 5) or, for perf records, decoded from `trace.rtd`; **cycles per event** = (cycles - "
          "cycles of `none`) / events, likewise **instructions per event**.\n",
          f);
}

/* ---- the chart ------------------------------------------------------------------------- */

#define SVG_GROUP_W 44 /* one configuration: off and on bars */
#define SVG_BAR_W 16
#define SVG_PLOT_H 220
#define SVG_PLOT_TOP 96
#define SVG_AXIS_W 46 /* tick labels left of each panel */
#define SVG_PANEL_GAP 24
#define SVG_LEFT 28 /* the y axis title */

/* y of value v in a panel whose axis runs from bot (bottom) to top */
static double ypos(double top, double bot, double v) {
    return SVG_PLOT_TOP + (double)SVG_PLOT_H * (top - v) / (top - bot);
}

static const char *const bar_fill[] = {"#9ecae1", "#2171b5"}; /* off, on */

static void write_svg(FILE *f, const ovh_run_t *runs, size_t n, bool quick) {
    /* panels: the examples present, with their configurations (sink x counters) */
    unsigned panel_ex[N_EXAMPLES], n_panels = 0, groups[N_EXAMPLES];
    for (unsigned ex = 0; ex < N_EXAMPLES; ex++) {
        unsigned g = 0;
        for (size_t i = 0; i < n; i++) g += runs[i].ex == ex && runs[i].mode == MODE_ON;
        if (!g || !baseline(runs, n, ex)) continue;
        panel_ex[n_panels] = ex;
        groups[n_panels++] = g;
    }
    int width = SVG_LEFT + 16, height = SVG_PLOT_TOP + SVG_PLOT_H + 70;
    for (unsigned p = 0; p < n_panels; p++) width += SVG_AXIS_W + (int)groups[p] * SVG_GROUP_W + SVG_PANEL_GAP;
    if (width < 640) width = 640;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">Perf library instrumentation "
               "overhead</text>\n",
            SVG_LEFT);
    fprintf(f, "<text x=\"%d\" y=\"38\" fill=\"#555555\">extra cycles vs. the same program with the perf calls "
               "compiled out; each example on its own scale</text>\n",
            SVG_LEFT);
    /* legend */
    const char *legend[] = {"off: initialised, tracing never switched on", "on: tracing"};
    for (int m = 0; m < 2; m++) {
        int x = SVG_LEFT + m * 270;
        fprintf(f, "<rect x=\"%d\" y=\"50\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x, bar_fill[m]);
        fprintf(f, "<text x=\"%d\" y=\"60\">%s</text>\n", x + 17, legend[m]);
    }
    int plot_bottom = SVG_PLOT_TOP + SVG_PLOT_H;
    fprintf(f, "<text transform=\"translate(%d,%d) rotate(-90)\" text-anchor=\"middle\">overhead (%% of cycles)</text>\n", SVG_LEFT - 12, SVG_PLOT_TOP + SVG_PLOT_H / 2);
    int x0 = SVG_LEFT + 4;
    for (unsigned p = 0; p < n_panels; p++) {
        unsigned ex = panel_ex[p];
        const ovh_run_t *out = baseline(runs, n, ex);
        double lo = 0, hi = 0;
        for (size_t i = 0; i < n; i++) {
            if (runs[i].ex != ex || runs[i].mode == MODE_OUT) continue;
            double v = pct(&runs[i], out);
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        int dec;
        double step = ovh_tick_step(hi - lo > 0 ? hi - lo : 1, &dec);
        double top = step, bot = 0;
        while (top < hi - 1e-9) top += step;
        while (bot > lo + 1e-9) bot -= step;
        int px = x0 + SVG_AXIS_W, pw = (int)groups[p] * SVG_GROUP_W;
        fprintf(f, "<g>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"12\" font-weight=\"bold\">%s</text>\n",
                px + pw / 2, SVG_PLOT_TOP - 14, examples[ex].chart_title);
        for (double t = bot; t <= top + step * 1e-6; t += step) {
            double y = ypos(top, bot, t);
            fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n", px, y, px + pw, y,
                    t > -step * 1e-6 && t < step * 1e-6 ? "#444444" : "#e0e0e0");
            fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.*f%%</text>\n", px - 4, y + 4, dec,
                    t > -step * 1e-6 && t < step * 1e-6 ? 0.0 : t);
        }
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444444\"/>\n", px, SVG_PLOT_TOP, px, plot_bottom);
        /* groups: the "on" runs in order, each with its "off" twin */
        unsigned g = 0;
        int sink_x0[2] = {-1, -1}, sink_x1[2] = {0, 0};
        for (size_t i = 0; i < n; i++) {
            const ovh_run_t *on = &runs[i];
            if (on->ex != ex || on->mode != MODE_ON) continue;
            int gx = px + (int)g * SVG_GROUP_W + (SVG_GROUP_W - 2 * SVG_BAR_W - 2) / 2;
            for (size_t j = 0; j < n; j++) {
                const ovh_run_t *r = &runs[j];
                if (r->ex != ex || r->mode == MODE_OUT || r->sink != on->sink || r->events != on->events) continue;
                int m = r->mode == MODE_ON, bx = gx + m * (SVG_BAR_W + 2);
                double v = pct(r, out), y1 = ypos(top, bot, v > 0 ? v : 0), y2 = ypos(top, bot, v > 0 ? 0 : v);
                fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s: %+.1f%% "
                           "(%" PRIu64 " cycles, %" PRIu64 " records)</title></rect>\n",
                        bx, y1, SVG_BAR_W, y2 - y1, bar_fill[m], r->name, v, r->cycles, r->records);
                double a = v < 0 ? -v : v;
                fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"8\">%.*f</text>\n",
                        bx + SVG_BAR_W / 2, v >= 0 ? y1 - 3 : y2 + 9, a < 10 ? 1 : 0, v);
            }
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%u</text>\n", px + (int)g * SVG_GROUP_W + SVG_GROUP_W / 2,
                    plot_bottom + 14, counters_of(on->events));
            if (sink_x0[on->sink] < 0) sink_x0[on->sink] = px + (int)g * SVG_GROUP_W;
            sink_x1[on->sink] = px + (int)(g + 1) * SVG_GROUP_W;
            g++;
        }
        for (int s = 0; s < 2; s++) {
            if (sink_x0[s] < 0) continue;
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888888\"/>\n", sink_x0[s] + 4,
                    plot_bottom + 20, sink_x1[s] - 4, plot_bottom + 20);
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", (sink_x0[s] + sink_x1[s]) / 2,
                    plot_bottom + 33, sink_titles[s]);
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">counters per record, by sink</text>\n</g>\n",
                px + pw / 2, plot_bottom + 52);
        x0 = px + pw + SVG_PANEL_GAP;
    }
    fputs("</svg>\n", f);
}

/* ---- the command ----------------------------------------------------------------------- */

/* folder of this executable + /firmware/examples */
static int default_build(char *buf, size_t len) {
    char exe[OVH_PATH];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0) return -1;
    exe[k] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
    return ovh_fmt(buf, len, "%s/firmware/examples", exe);
}

static char wf_err[OVH_PATH + 200]; /* write_file's "cannot create|write P: reason" */
static int write_file(const char *dir, const char *file, void (*writer)(FILE *, const ovh_run_t *, size_t, bool),
                      const ovh_run_t *runs, size_t n, bool quick) {
    char path[OVH_PATH];
    if (ovh_fmt(path, sizeof path, "%s/%s", dir, file)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *f = ts_fopen_output(path, "w", wf_err, sizeof wf_err);
    if (!f) return -1;
    writer(f, runs, n, quick);
    return ts_fclose_output(f, path, wf_err, sizeof wf_err);
}

int ts_overhead_main(int argc, char **argv) {
    const char *build = NULL, *out = "runs/overhead", *baseline = NULL;
    bool quick = false, channel_given = false;
    unsigned channel = OVH_PERF_CHANNEL;
    size_t nfw = 0;
    int c;
    char **fws = calloc((size_t)argc + 1, sizeof *fws);
    if (!fws) {
        fprintf(stderr, "tracesim: overhead: out of memory\n");
        return TS_EXIT_HOST;
    }
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_overhead_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (c) {
        case TS_OPTS_ERROR:
            fprintf(stderr, "tracesim: %s\n", op.err);
            free(fws);
            return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL: fws[nfw++] = (char *)op.arg; break;
        case V_FIRMWARE_DIR: build = op.arg; break;
        case V_QUICK: quick = true; break;
        case V_BASELINE: baseline = op.arg; break;
        case V_PERF_CHANNEL:
            channel = (unsigned)op.u;
            channel_given = true;
            break;
        case V_OUT: out = op.arg; break;
        case V_HELP:
            ts_cmd_help(stdout, &ts_overhead_cmd);
            free(fws);
            return 0;
        }
    }
    if (baseline) { /* the overhead of the user's own builds */
        int rc = TS_EXIT_USAGE;
        if (build || quick)
            fprintf(stderr, "tracesim: overhead: %s belongs to the self-measuring mode, not to --baseline\n",
                    build ? "--firmware-dir" : "--quick");
        else
            rc = ovh_baseline_run(baseline, out, channel, nfw, fws);
        free(fws);
        return rc;
    }
    free(fws);
    if (channel_given) {
        fprintf(stderr, "tracesim: overhead: --perf-channel belongs to --baseline (the ovh_* firmware uses channel %d)\n",
                OVH_PERF_CHANNEL);
        return TS_EXIT_USAGE;
    }
    if (nfw) {
        fprintf(stderr, "tracesim: overhead takes firmware arguments only with --baseline PLAIN.elf (see tracesim overhead --help)\n");
        return TS_EXIT_USAGE;
    }
    if (!*out) {
        fprintf(stderr, "tracesim: overhead: empty output folder name\n");
        return TS_EXIT_USAGE;
    }
    struct stat osb;
    if (!stat(out, &osb) && !S_ISDIR(osb.st_mode)) {
        fprintf(stderr, "tracesim: overhead -o takes an output folder, not a file: '%s'\n", out);
        return TS_EXIT_USAGE;
    }
    char build_dir[OVH_PATH];
    if (build ? ovh_fmt(build_dir, sizeof build_dir, "%s", build) : default_build(build_dir, sizeof build_dir)) {
        fprintf(stderr, "tracesim: overhead: cannot tell where the firmware is (give --firmware-dir DIR)\n");
        return TS_EXIT_USAGE;
    }

    ovh_run_t *runs = calloc(MAX_RUNS, sizeof *runs);
    if (!runs) {
        fprintf(stderr, "tracesim: overhead: out of memory\n");
        return TS_EXIT_HOST;
    }
    size_t n = plan_runs(runs, quick);
    for (size_t i = 0; i < n; i++) {
        if (ovh_fmt(runs[i].elf, sizeof runs[i].elf, "%s/%s.elf", build_dir, runs[i].name) || access(runs[i].elf, R_OK)) {
            fprintf(stderr, "tracesim: overhead: firmware %s/%s.elf not found (build the firmware, or give --firmware-dir DIR)\n",
                    build_dir, runs[i].name);
            free(runs);
            return TS_EXIT_NO_FILE;
        }
        if (ovh_fmt(runs[i].dir, sizeof runs[i].dir, "%s/runs/%s", out, runs[i].name) || ts_mkdir_p(runs[i].dir)) {
            fprintf(stderr, "tracesim: overhead: cannot create %s/runs/%s: %s\n", out, runs[i].name, strerror(errno));
            free(runs);
            return TS_EXIT_HOST;
        }
    }
    for (size_t i = 0; i < n; i++) {
        ovh_run_t *r = &runs[i];
        char why[768];
        if (ovh_simulate(r, why, sizeof why) ||
            (r->kind < 0 ? read_results(r, why, sizeof why) : read_event_results(r, why, sizeof why))) {
            fprintf(stderr, "tracesim: overhead: %s failed: %s\n", r->name, why);
            free(runs);
            return OVH_FAILED;
        }
        fprintf(stderr, "overhead: [%2zu/%zu] %-26s %10" PRIu64 " cycles %5" PRIu64 " %s%s\n", i + 1, n, r->name,
                r->cycles, r->kind < 0 ? ovh_per_record_n(r) : r->n_events, r->kind < 0 ? "records" : "events",
                r->stopped ? "  (trace buffer full: tracing stopped)" : "");
    }
    int rc = 0;
    wf_err[0] = 0;
    if (write_file(out, "overhead.md", write_md, runs, n, quick) ||
        write_file(out, "overhead.svg", write_svg, runs, n, quick)) {
        if (wf_err[0]) fprintf(stderr, "tracesim: overhead: %s\n", wf_err); /* names the file */
        else
            fprintf(stderr, "tracesim: overhead: cannot write the report in %s: %s\n", out, strerror(errno));
        rc = TS_EXIT_HOST;
    } else {
        write_md(stdout, runs, n, quick);
        fprintf(stderr, "overhead: %zu runs; wrote %s/overhead.md and %s/overhead.svg\n", n, out, out);
    }
    free(runs);
    return rc;
}
