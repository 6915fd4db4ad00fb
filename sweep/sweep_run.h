/* sweep_run.h - running a sweep's points and collecting their results.
 *
 * The point command (`tracesim sweep --point NAME ...`) runs one point: `tracesim run` into
 * OUT/points/NAME, then `tracesim check` if the spec asks, then reads the figures and writes
 * OUT/points/NAME/result.txt last, by renaming a finished temporary file: a point is complete
 * exactly when result.txt exists, so a killed or interrupted point never looks complete.
 * Both engines run that same command per point: the local engine as a pool of child
 * processes, the Slurm engine as the tasks of one job array. The collection reads every
 * result.txt and writes OUT/results.csv and OUT/summary.md. */
#ifndef TS_SWEEP_RUN_H
#define TS_SWEEP_RUN_H
#include "sweep_spec.h"
#include <stdbool.h>
#include <stddef.h>

/* exit statuses: TS_EXIT_OK, TS_EXIT_FAILED (a point failed or did not run), TS_EXIT_USAGE
 * (bad options or a bad spec), TS_EXIT_NO_FILE (the spec or a firmware ELF is missing),
 * TS_EXIT_HOST (cannot create folders, write results, start or submit), TS_EXIT_INTERRUPTED
 * (SIGINT/SIGTERM: complete points stay), TS_EXIT_BUSY (--point: a live worker holds the
 * point's lock; not run): rtl_model/regs/exit_status.def */
#include "ts_exit_status.h"

typedef struct sw_opts {
    const char *spec;  /* absolute path of the spec */
    const char *out;   /* absolute sweep folder */
    const char *build; /* {build} */
    char **only;       /* the --only arguments, passed on to point commands */
    size_t n_only;
    unsigned jobs; /* local workers */
    bool quiet, retry_failed;
    /* Slurm */
    bool dry_run;
    const char *partition, *time, *account;
    char **sbatch_args;
    size_t n_sbatch_args;
    double poll;    /* seconds between squeue polls */
    unsigned chunk; /* points per array task (1: one task per point) */
} sw_opts_t;

/* runs one point (the point command); 0 ok, 1 failed, 130 interrupted (no result written) */
int sw_point_main(const sw_spec_t *s, const sw_point_t *pt, const sw_opts_t *o);
/* the local engine: every point not complete (and failed ones with retry_failed) */
int sw_local(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o);
/* the Slurm engine: one job array, waits for it, collects; dry_run prints the script */
int sw_slurm(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o);
/* reads every point's result, writes results.csv and summary.md; returns 0 when every point
 * is ok, 1 otherwise, 126 when the files cannot be written. Counts go to ok/failed/missing. */
int sw_collect(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o, size_t *ok, size_t *failed, size_t *missing);
/* mkdir -p; 0 or -1 with errno */
/* 0 not complete, 1 complete and ok, 2 complete and failed */
int sw_point_state(const sw_opts_t *o, const sw_point_t *pt);
#endif
