/* overhead_int.h - what the two modes of `tracesim overhead` share: the self-measuring mode
 * (overhead.c) and the baseline mode (overhead_baseline.c, `--baseline PLAIN.elf FW.elf...`).
 * The shared pieces live in overhead_run.c, which calls neither mode; overhead.c calls
 * overhead_baseline.c (ovh_baseline_run), never the other way round. */
#ifndef TS_OVERHEAD_INT_H
#define TS_OVERHEAD_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OVH_PATH 4096

enum ovh_mode { MODE_OUT,
                MODE_OFF,
                MODE_ON };

typedef struct ovh_run {
    unsigned ex;                /* N_EXAMPLES for the per-event runs */
    int kind;                   /* enum ovh_kind of a per-event run, else -1 */
    uint64_t n_events, ev_lost; /* per-event runs: events that became messages, and lost */
    enum ovh_mode mode;
    unsigned sink, events; /* not used for MODE_OUT */
    char name[64];
    char elf[OVH_PATH], dir[OVH_PATH];
    uint64_t cycles, instret, itc_stall, sba_conflict, itc_lost;
    uint64_t records, truncated, headers, perf_errors;
    unsigned hdr_counters; /* counters in the (last) perf header */
    bool have_made;        /* itc.csv was read: made is known */
    uint64_t made;         /* complete perf records the firmware made (itc.csv: every
                                      * store on the channel, traced or not), the divisor of
                                      * cycles per record; records: those that reached the trace */
    uint64_t last_store;   /* with have_made and made: the cycle of the last perf store */
    unsigned last_hart;    /* and its hart */
    bool stopped, wrapped;
} ovh_run_t;

/* snprintf that reports truncation: 0, or -1 if the result did not fit */
int ovh_fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
/* DIR/FILE, whole and NUL-terminated; NULL if missing or unreadable */
char *ovh_slurp(const char *dir, const char *file, size_t *len);
/* stats.txt: the value of a "key value" line */
bool ovh_stats_value(const char *text, const char *key, uint64_t *v);
/* events.csv: the value in column col (one header line of names, one line of values) */
bool ovh_csv_value(const char *text, const char *col, uint64_t *v);
/* trace.json values */
bool ovh_json_true(const char *text, const char *key);
bool ovh_json_u64(const char *text, const char *key, uint64_t *v);
/* `tracesim run -q -o r->dir r->elf` with this executable; 0, or -1 with a reason in why */
int ovh_simulate(const ovh_run_t *r, char *why, size_t whylen);
/* the perf records (on ITC channel `channel`) in r->dir/trace.rtd, settings from trace.json:
 * r->records (complete), r->truncated, r->headers, r->perf_errors; 0, or -1 with a reason */
int ovh_count_records(ovh_run_t *r, const char *json, unsigned channel, char *why, size_t whylen);
/* the perf records (on ITC channel `channel`) the firmware made: every store of r->dir/itc.csv
 * on the channel, whatever became of it (traced, dropped on a full FIFO, made after a
 * stop-on-wrap, made while the encoder was off), through the perf decoder: r->made and
 * r->have_made (false without itc.csv, an older run folder); 0, or -1 with a reason (a bad row) */
int ovh_count_made(ovh_run_t *r, unsigned channel, char *why, size_t whylen);
/* the divisor of cycles per record: the records made when known, else those in the trace */
uint64_t ovh_per_record_n(const ovh_run_t *r);
/* a round tick step for a chart axis spanning span; *decimals: digits its multiples need */
double ovh_tick_step(double span, int *decimals);

/* `tracesim overhead --baseline BASE [-o OUT] [--perf-channel N] FW...` with the options
 * parsed (ts_overhead_main) and the nfw firmware arguments in fws; the exit status */
int ovh_baseline_run(const char *base, const char *out, unsigned channel, size_t nfw, char *const *fws);
#endif
