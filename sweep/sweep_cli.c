/* sweep_cli.c - `tracesim sweep`: see sweep_cli.h. */
#include "run_trace.h"
#include "sweep_cli.h"
#include "sweep_run.h"
#include "sweep_spec.h"
#include "ts_opts.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { O_OUT = 1,
       O_JOBS,
       O_BUILD,
       O_ONLY,
       O_RETRY,
       O_LIST,
       O_COLLECT,
       O_POINT,
       O_SLURM,
       O_DRY,
       O_PART,
       O_TIME,
       O_ACCOUNT,
       O_SBATCH,
       O_CHUNK,
       O_POLL,
       O_QUIET,
       O_HELP };
/* the options: parser, --help and docs (cli/opts/ts_opts.h) */
static const ts_opt_t sweep_opts[] = {
    {O_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0, "sweep folder (default sweeps/<spec name>)"},
    {O_JOBS, 'j', "jobs", TS_OPT_UINT, "N", 1, 1024, 0, 0, 0, "local workers (default: online CPUs)"},
    {O_BUILD, 0, "build", TS_OPT_STRING, "DIR", 0, 0, 0, 0, 0,
     "value of {build} in the spec (default: the folder of this executable)"},
    {O_ONLY, 0, "only", TS_OPT_STRING, "AXIS=V[,V]", 0, 0, 0, 0, 0, "only these values of an axis (repeatable)"},
    {O_RETRY, 0, "retry-failed", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "run failed points again (default: skipped like ok ones)"},
    {O_LIST, 0, "list", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "print the points (index, name, firmware, run options) and exit"},
    {O_COLLECT, 0, "collect", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "only write results.csv and summary.md from the complete points"},
    {O_POINT, 0, "point", TS_OPT_STRING, "NAME|I", 0, 0, 0, 0, 0, "run one point (what each worker and each Slurm task runs)"},
    {O_SLURM, 0, "slurm", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "run the points as one Slurm job array (sbatch), wait, collect"},
    {O_DRY, 0, "slurm-dry-run", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "print the sbatch script, submit nothing"},
    {O_PART, 0, "partition", TS_OPT_STRING, "P", 0, 0, 0, 0, 0, "#SBATCH --partition of the job array"},
    {O_TIME, 0, "time", TS_OPT_STRING, "T", 0, 0, 0, 0, 0, "#SBATCH --time of the job array"},
    {O_ACCOUNT, 0, "account", TS_OPT_STRING, "A", 0, 0, 0, 0, 0, "#SBATCH --account of the job array"},
    {O_SBATCH, 0, "sbatch-arg", TS_OPT_STRING, "ARG", 0, 0, 0, 0, 0,
     "another #SBATCH line, e.g. --sbatch-arg=--qos=low (repeatable)"},
    {O_CHUNK, 0, "slurm-chunk", TS_OPT_UINT, "K", 1, 100000, 0, 0, 0,
     "K points per array task, run one after the other (default 1)"},
    {O_POLL, 0, "poll", TS_OPT_REAL, "SECONDS", 0, 0, 0.1, 3600, 0,
     "how often to ask squeue whether the array has ended (default 5)"},
    {O_QUIET, 'q', "quiet", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "no progress line, no summary line"},
    {O_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};

static const ts_exit_t sweep_exits[] = {
    {"0", "every point ok"},
    {"1", "a point failed or did not run (also: a live worker of another\nsweep still runs it)"},
    {"3", "--point: a live worker holds the point's lock; it was not run"},
    {"120", "usage or a bad spec (a run option that names a path included)"},
    {"121", "the spec or a firmware ELF is missing"},
    {"126", "host error"},
    {"130", "interrupted"},
    {NULL, NULL}};
const ts_cmd_t ts_sweep_cmd = {
    "sweep", "tracesim sweep [options] SPEC.json",
    "Runs every point of a sweep spec (firmware x axes of run options): one run folder per\n"
    "point in OUT/points/<point>/, then OUT/results.csv (a row per point: axis values,\n"
    "status, figures) and OUT/summary.md. Points that are complete are skipped, so the same\n"
    "command resumes an interrupted sweep.\n",
    sweep_opts, 0, "  OUT/points/<point>/ (run folders), OUT/results.csv, OUT/summary.md\n", sweep_exits, NULL};

static int usage_error(const char *what, const char *arg) {
    fprintf(stderr, "tracesim: sweep: %s%s%s (see tracesim sweep --help)\n", what, arg ? " " : "", arg ? arg : "");
    return TS_EXIT_USAGE;
}

/* an absolute path for a folder that may not exist yet */
static char *absolute(const char *path) {
    char cwd[PATH_MAX];
    if (path[0] == '/') return strdup(path);
    if (!getcwd(cwd, sizeof cwd)) return NULL;
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *a = malloc(n);
    if (a) snprintf(a, n, "%s/%s", cwd, path);
    return a;
}

static const ts_cmd_t *run_cmd; /* tracesim run's options (ts_sweep_set_run_cmd) */
void ts_sweep_set_run_cmd(const ts_cmd_t *run) { run_cmd = run; }

int ts_sweep_main(int argc, char **argv) {
    sw_opts_t o = {.poll = 5, .chunk = 1};
    const char *out = NULL, *build = NULL, *point = NULL;
    bool list = false, collect = false, slurm = false;
    char **only = calloc((size_t)argc, sizeof *only), **sbatch = calloc((size_t)argc, sizeof *sbatch);
    if (!only || !sbatch) {
        free(only);
        free(sbatch);
        return TS_EXIT_HOST;
    }
    o.only = only;
    o.sbatch_args = sbatch;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = cpus > 0 ? (unsigned)cpus : 1;
    int c, rc = TS_EXIT_USAGE;
    const char *spec_arg = NULL;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_sweep_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        switch (c) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: sweep: %s\n", op.err); goto done;
        case TS_OPTS_POSITIONAL:
            if (spec_arg) {
                rc = usage_error("needs exactly one spec file", NULL);
                goto done;
            }
            spec_arg = op.arg;
            break;
        case O_OUT: out = op.arg; break;
        case O_JOBS: o.jobs = (unsigned)op.u; break;
        case O_BUILD: build = op.arg; break;
        case O_ONLY: only[o.n_only++] = (char *)op.arg; break;
        case O_RETRY: o.retry_failed = true; break;
        case O_LIST: list = true; break;
        case O_COLLECT: collect = true; break;
        case O_POINT: point = op.arg; break;
        case O_SLURM: slurm = true; break;
        case O_DRY: slurm = o.dry_run = true; break;
        case O_PART: o.partition = op.arg; break;
        case O_TIME: o.time = op.arg; break;
        case O_ACCOUNT: o.account = op.arg; break;
        case O_SBATCH: sbatch[o.n_sbatch_args++] = (char *)op.arg; break;
        case O_POLL: o.poll = op.r; break;
        case O_CHUNK: o.chunk = (unsigned)op.u; break;
        case O_QUIET: o.quiet = true; break;
        case O_HELP:
            ts_cmd_help(stdout, &ts_sweep_cmd);
            rc = 0;
            goto done;
        }
    }
    if (!spec_arg) {
        rc = usage_error("needs exactly one spec file", NULL);
        goto done;
    }
    if ((list || collect || point) + slurm > 1 || list + collect + (point != NULL) > 1) {
        rc = usage_error("--list, --collect, --point and --slurm do not go together", NULL);
        goto done;
    }
    sw_spec_t spec;
    sw_plan_t plan = {0};
    char err[1024];
    int *sel[SW_MAX_AXES] = {0};
    char *spec_abs = NULL, *out_abs = NULL, *build_abs = NULL;
    int lr = sw_spec_load(&spec, spec_arg, err, sizeof err);
    if (lr) {
        fprintf(stderr, "tracesim: sweep: %s\n", err);
        rc = lr == -2 ? TS_EXIT_NO_FILE : TS_EXIT_USAGE;
        goto free_spec;
    }
    for (size_t i = 0; i < o.n_only; i++)
        if (sw_only_parse(&spec, only[i], sel, err, sizeof err)) {
            fprintf(stderr, "tracesim: sweep: %s\n", err);
            goto free_spec;
        }
    if (build) build_abs = absolute(build);
    else {
        char exe[PATH_MAX];
        ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (k > 0) {
            exe[k] = 0;
            char *slash = strrchr(exe, '/');
            if (slash) *slash = 0;
            build_abs = strdup(exe);
        }
    }
    char defout[PATH_MAX];
    char name[256];
    sw_sanitize(spec.name, name, sizeof name);
    snprintf(defout, sizeof defout, "sweeps/%s", name);
    spec_abs = realpath(spec_arg, NULL);
    out_abs = absolute(out ? out : defout);
    if (!build_abs || !spec_abs || !out_abs) {
        fprintf(stderr, "tracesim: sweep: cannot make absolute paths: %s\n", strerror(errno));
        rc = TS_EXIT_HOST;
        goto free_spec;
    }
    if (out && !*out) {
        rc = usage_error("empty --out", NULL);
        goto free_spec;
    }
    o.spec = spec_abs;
    o.out = out_abs;
    o.build = build_abs;
    if (sw_plan(&spec, sel, build_abs, &plan, err, sizeof err)) {
        fprintf(stderr, "tracesim: sweep: %s\n", err);
        rc = strstr(err, " not found") || strstr(err, "not a regular file") ? TS_EXIT_NO_FILE : TS_EXIT_USAGE;
        goto free_spec;
    }
    if (!run_cmd) {
        fprintf(stderr, "tracesim: sweep: this program does not describe tracesim run's options\n");
        rc = TS_EXIT_HOST;
        goto free_spec;
    }
    if (sw_plan_check_paths(&spec, &plan, run_cmd, err, sizeof err)) {
        fprintf(stderr, "tracesim: sweep: %s\n", err);
        rc = TS_EXIT_USAGE;
        goto free_spec;
    }
    if (list) {
        for (size_t i = 0; i < plan.n; i++) {
            const sw_point_t *pt = &plan.points[i];
            printf("%zu %s %s", i, pt->name, pt->elf);
            for (size_t k = 0; k < pt->n_args; k++) printf(" %s", pt->args[k]);
            putchar('\n');
        }
        rc = 0;
        goto free_spec;
    }
    if (!o.dry_run && ts_mkdir_p(o.out)) {
        fprintf(stderr, "tracesim: sweep: cannot create %s: %s\n", o.out, strerror(errno));
        rc = TS_EXIT_HOST;
        goto free_spec;
    }
    if (point) {
        const sw_point_t *pt = NULL;
        char *end;
        unsigned long idx = strtoul(point, &end, 10);
        if (*point >= '0' && *point <= '9' && !*end && idx < plan.n) pt = &plan.points[idx];
        for (size_t i = 0; i < plan.n && !pt; i++)
            if (!strcmp(plan.points[i].name, point)) pt = &plan.points[i];
        if (!pt) {
            rc = usage_error("no such point:", point);
            goto free_spec;
        }
        rc = sw_point_main(&spec, pt, &o);
    } else if (collect) {
        size_t ok, failed, missing;
        rc = sw_collect(&spec, &plan, &o, &ok, &failed, &missing);
        if (!o.quiet && rc != TS_EXIT_HOST)
            fprintf(stderr, "sweep: %zu points: %zu ok, %zu failed, %zu not run; results in %s/results.csv and %s/summary.md\n",
                    plan.n, ok, failed, missing, o.out, o.out);
    } else if (slurm) {
        rc = sw_slurm(&spec, &plan, &o);
    } else {
        rc = sw_local(&spec, &plan, &o);
    }
free_spec:
    sw_plan_free(&plan);
    sw_spec_free(&spec);
    for (int a = 0; a < SW_MAX_AXES; a++) free(sel[a]);
    free(spec_abs);
    free(out_abs);
    free(build_abs);
done:
    free(only);
    free(sbatch);
    return rc;
}
