/* sweep_spec.h - a sweep spec (JSON, see docs/commands/sweep.md) and the points it names.
 *
 * A spec names the firmware (a template with {axis} placeholders), axes with values, the
 * `tracesim run` options of every point, of an axis and of an axis value, an optional
 * `tracesim check`, a baseline for the derived figures and the figures to collect. Its
 * points are the product of the axes' values in axis order (the last axis varies fastest),
 * less the excluded combinations; a value may ignore other axes (they read "-" and the
 * points that differ only there are one point). Points are numbered in that order and named
 * from their values: deterministic, so a re-run finds its earlier results. */
#ifndef TS_SWEEP_SPEC_H
#define TS_SWEEP_SPEC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ts_index.h"

#define SW_MAX_AXES 32
#define SW_IGNORED (-1) /* value index of an axis that a point's value ignores */

typedef struct sw_value {
    char *text; /* the value ("8" for the number 8) */
    unsigned line;
    char **run; /* run options of this value (templates) */
    size_t n_run;
    char *firmware; /* firmware template for points with this value, or NULL */
    unsigned fw_line;
    uint32_t ignore; /* bit a: axis a does not apply to points with this value */
} sw_value_t;

typedef struct sw_axis {
    char *name;
    unsigned line;
    char **run; /* run options of every value of the axis (templates) */
    size_t n_run;
    sw_value_t *values;
    size_t n_values;
    sw_index_t by_text; /* values by text */
} sw_axis_t;

enum sw_fig_kind {
    FIG_STATS,      /* stats.KEY: a stats.txt value */
    FIG_HPM,        /* hpm.COUNTER: value column of hpm.csv (mcycle, minstret, mhpmcounterN) */
    FIG_EVENTS,     /* events.COLUMN: events.csv */
    FIG_TRACE,      /* trace.KEY: a number or true/false of trace.json */
    FIG_RECORDS,    /* perf.records: complete perf records decoded from trace.rtd */
    FIG_CHECK,      /* check: pass or fail (exit status of tracesim check) */
    FIG_OVERHEAD,   /* overhead.FIG[@B]: 100 * (FIG - FIG of the baseline) / FIG of the baseline */
    FIG_PER_RECORD, /* per_record.FIG[@B]: (FIG - FIG of the baseline) / perf.records */
};

typedef struct sw_figure {
    char *name; /* as written: "stats.cycles", "overhead.stats.cycles" */
    enum sw_fig_kind kind;
    const char *arg; /* points into name: the key, column or base figure */
    int base;        /* FIG_OVERHEAD, FIG_PER_RECORD: index of the base figure */
    int baseline;    /* and of the baseline in sw_spec_t.baselines */
    unsigned line;
    bool hidden; /* collected for a derived figure only, not a column */
} sw_figure_t;

typedef struct sw_spec {
    char *path; /* the spec file as given */
    char *dir;  /* its folder ({spec_dir}) */
    char *name; /* "name", default the file name without .json */
    char *firmware;
    unsigned fw_line;
    char **run;
    size_t n_run;
    unsigned run_line;
    sw_axis_t axes[SW_MAX_AXES];
    size_t n_axes;
    int **exclude; /* per exclusion, per axis: NULL = any value, else a 0/1 per value */
    size_t n_exclude;
    bool check;
    char **check_args;
    size_t n_check_args;
    int expect_exit;       /* the run's expected exit status (default 0) */
    unsigned perf_channel; /* for perf.records (default 6) */
    /* baselines[0] is "baseline", the others "baselines": NAME; per axis the value index,
     * -1 = the point's own */
    struct sw_baseline {
        char *name;
        int vi[SW_MAX_AXES];
    } baselines[16];
    size_t n_baselines;
    bool has_baseline; /* "baseline" given (baselines[0] is set) */
    sw_figure_t *figs;
    size_t n_figs;
} sw_spec_t;

typedef struct sw_point {
    size_t index;
    int vi[SW_MAX_AXES]; /* value index per axis, or SW_IGNORED */
    char *name;          /* folder name */
    char *elf;           /* firmware, placeholders filled in */
    char **args;         /* run options, placeholders filled in */
    size_t n_args;
} sw_point_t;

typedef struct sw_plan {
    sw_point_t *points;
    size_t n;
    sw_index_t by_vi; /* points by value indices (sw_plan_find) */
} sw_plan_t;

/* parses a spec; 0, or -1 with "FILE:LINE: what" in err. fname is used for messages and
 * for {spec_dir}. */
int sw_spec_parse(sw_spec_t *s, const char *text, size_t len, const char *fname, char *err, size_t errlen);
/* reads and parses a file: 0; -1 a bad spec (err says where); -2 the file cannot be read */
int sw_spec_load(sw_spec_t *s, const char *path, char *err, size_t errlen);
void sw_spec_free(sw_spec_t *s);

/* restricts the points to `AXIS=V1,V2,...` (what --only says); 0 or -1 with err. only[a] is
 * NULL (all values) or a 0/1 array per value of axis a, allocated here. */
int sw_only_parse(const sw_spec_t *s, const char *arg, int **only, char *err, size_t errlen);

/* the points: product, exclusions, --only (only may be NULL), ignored axes merged; names,
 * firmware and options filled in ({build} = build). 0, or -1 with "FILE:LINE: what" */
int sw_plan(const sw_spec_t *s, int *const *only, const char *build, sw_plan_t *p, char *err, size_t errlen);
void sw_plan_free(sw_plan_t *p);
/* Sweep specs stay in the sweep: every point's run options parsed with the run command's
 * table (run, e.g. sim/main.c's); an option that names a path (TS_OPT_PATH: -o, --waves,
 * --retire-log, ... as the table says) is refused, wherever it comes from (the spec's "run",
 * an axis's, a value's, or a {placeholder}). 0, or -1 with "FILE:LINE: axis "A" value "V":
 * run option --waves names a path ..." in err. Options the parser refuses are left to the
 * run (its usage error fails the point before it writes anything). */
#include "ts_opts.h"
int sw_plan_check_paths(const sw_spec_t *s, const sw_plan_t *p, const ts_cmd_t *run, char *err, size_t errlen);
/* the point of the plan with these value indices (after ignoring), or NULL */
const sw_point_t *sw_plan_find(const sw_spec_t *s, const sw_plan_t *p, const int *vi);
/* the point of the plan that is baseline b (index in s->baselines) of pt, or NULL */
const sw_point_t *sw_plan_baseline(const sw_spec_t *s, const sw_plan_t *p, const sw_point_t *pt, int b);

/* a value as a folder-name part: [A-Za-z0-9._+-] kept (not a leading '.'), anything else
 * becomes '-'; names that clash after this (or through '_') get a hash, see sw_plan */
void sw_sanitize(const char *in, char *out, size_t len);
/* 32-bit FNV-1a */
uint32_t sw_hash(const char *s);
#endif
