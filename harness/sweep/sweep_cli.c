/* sweep_cli.c - `tracesim sweep`: see sweep_cli.h. */
#include "cli_util.h"
#include "sweep_cli.h"
#include "sweep_run.h"
#include "sweep_spec.h"
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f) {
    fputs("usage: tracesim sweep [options] SPEC.json\n"
          "\n"
          "Runs every point of a sweep spec (firmware x axes of run options; README \"Sweeps\"):\n"
          "one run folder per point in OUT/points/<point>/, then OUT/results.csv (a row per point:\n"
          "axis values, status, figures) and OUT/summary.md. Points that are complete are skipped,\n"
          "so the same command resumes an interrupted sweep.\n"
          "\n"
          "options:\n"
          "  -o, --out DIR          sweep folder (default sweeps/<spec name>)\n"
          "  -j, --jobs N           local workers (default: online CPUs)\n"
          "      --build DIR        value of {build} in the spec (default: the folder of this executable)\n"
          "      --only AXIS=V[,V]  only these values of an axis (repeatable)\n"
          "      --retry-failed     run failed points again (default: skipped like ok ones)\n"
          "      --list             print the points (index, name, firmware, run options) and exit\n"
          "      --collect          only write results.csv and summary.md from the complete points\n"
          "      --point NAME|I     run one point (what each worker and each Slurm task runs)\n"
          "      --slurm            run the points as one Slurm job array (sbatch), wait, collect\n"
          "      --slurm-dry-run    print the sbatch script, submit nothing\n"
          "      --partition P, --time T, --account A   #SBATCH options of the job array\n"
          "      --sbatch-arg ARG   another #SBATCH line, e.g. --sbatch-arg=--qos=low (repeatable)\n"
          "      --slurm-chunk K    K points per array task, run one after the other (default 1)\n"
          "      --poll SECONDS     how often to ask squeue whether the array has ended (default 5)\n"
          "  -q, --quiet            no progress line, no summary line\n"
          "  -h, --help             this text\n"
          "\n"
          "exit status: 0 every point ok; 1 a point failed or did not run; 120 usage or bad spec;\n"
          "121 the spec or a firmware ELF is missing; 126 host error; 130 interrupted\n", f);
}

static int usage_error(const char *what, const char *arg) {
    fprintf(stderr, "tracesim: sweep: %s%s%s (see tracesim sweep --help)\n", what, arg ? " " : "", arg ? arg : "");
    return SW_EXIT_USAGE;
}

static int parse_uint(const char *s, unsigned max, unsigned *out) {
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *s == '-' || *end || errno || v > max) return -1;
    *out = (unsigned)v;
    return 0;
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

int ts_sweep_main(int argc, char **argv) {
    enum { O_BUILD = 1, O_ONLY, O_RETRY, O_LIST, O_COLLECT, O_POINT, O_SLURM, O_DRY, O_PART, O_TIME, O_ACCOUNT,
           O_SBATCH, O_POLL, O_CHUNK };
    static const struct option opts[] = {
        {"out", required_argument, 0, 'o'},          {"jobs", required_argument, 0, 'j'},
        {"build", required_argument, 0, O_BUILD},    {"only", required_argument, 0, O_ONLY},
        {"retry-failed", no_argument, 0, O_RETRY},   {"list", no_argument, 0, O_LIST},
        {"collect", no_argument, 0, O_COLLECT},      {"point", required_argument, 0, O_POINT},
        {"slurm", no_argument, 0, O_SLURM},          {"slurm-dry-run", no_argument, 0, O_DRY},
        {"partition", required_argument, 0, O_PART}, {"time", required_argument, 0, O_TIME},
        {"account", required_argument, 0, O_ACCOUNT}, {"sbatch-arg", required_argument, 0, O_SBATCH},
        {"poll", required_argument, 0, O_POLL},      {"slurm-chunk", required_argument, 0, O_CHUNK},
        {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},               {0, 0, 0, 0}};
    sw_opts_t o = {.poll = 5, .chunk = 1};
    const char *out = NULL, *build = NULL, *point = NULL;
    bool list = false, collect = false, slurm = false;
    char **only = calloc((size_t)argc, sizeof *only), **sbatch = calloc((size_t)argc, sizeof *sbatch);
    if (!only || !sbatch) { free(only); free(sbatch); return SW_EXIT_HOST; }
    o.only = only;
    o.sbatch_args = sbatch;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = cpus > 0 ? (unsigned)cpus : 1;
    int c, rc = SW_EXIT_USAGE;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:j:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'j': if (parse_uint(optarg, 1024, &o.jobs) || !o.jobs) { rc = usage_error("invalid value for --jobs:", optarg); goto done; } break;
        case O_BUILD: build = optarg; break;
        case O_ONLY: only[o.n_only++] = optarg; break;
        case O_RETRY: o.retry_failed = true; break;
        case O_LIST: list = true; break;
        case O_COLLECT: collect = true; break;
        case O_POINT: point = optarg; break;
        case O_SLURM: slurm = true; break;
        case O_DRY: slurm = o.dry_run = true; break;
        case O_PART: o.partition = optarg; break;
        case O_TIME: o.time = optarg; break;
        case O_ACCOUNT: o.account = optarg; break;
        case O_SBATCH: sbatch[o.n_sbatch_args++] = optarg; break;
        case O_POLL: {
            char *end;
            o.poll = strtod(optarg, &end);
            if (*end || !(o.poll >= 0.1 && o.poll <= 3600)) { rc = usage_error("invalid value for --poll (0.1 to 3600 s):", optarg); goto done; }
            break;
        }
        case O_CHUNK: if (parse_uint(optarg, 100000, &o.chunk) || !o.chunk) { rc = usage_error("invalid value for --slurm-chunk:", optarg); goto done; } break;
        case 'q': o.quiet = true; break;
        case 'h': usage(stdout); rc = 0; goto done;
        case ':': rc = usage_error("option needs a value:", argv[optind - 1]); goto done;
        default: rc = usage_error("unknown option", argv[optind - 1]); goto done;
        }
    }
    if (optind != argc - 1) { rc = usage_error("needs exactly one spec file", NULL); goto done; }
    if ((list || collect || point) + slurm > 1 || list + collect + (point != NULL) > 1) {
        rc = usage_error("--list, --collect, --point and --slurm do not go together", NULL);
        goto done;
    }
    const char *spec_arg = argv[optind];
    sw_spec_t spec;
    sw_plan_t plan = {0};
    char err[1024];
    int *sel[SW_MAX_AXES] = {0};
    char *spec_abs = NULL, *out_abs = NULL, *build_abs = NULL;
    int lr = sw_spec_load(&spec, spec_arg, err, sizeof err);
    if (lr) {
        fprintf(stderr, "tracesim: sweep: %s\n", err);
        rc = lr == -2 ? SW_EXIT_NO_FILE : SW_EXIT_USAGE;
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
        rc = SW_EXIT_HOST;
        goto free_spec;
    }
    if (out && !*out) { rc = usage_error("empty --out", NULL); goto free_spec; }
    o.spec = spec_abs;
    o.out = out_abs;
    o.build = build_abs;
    if (sw_plan(&spec, sel, build_abs, &plan, err, sizeof err)) {
        fprintf(stderr, "tracesim: sweep: %s\n", err);
        rc = strstr(err, " not found") || strstr(err, "not a regular file") ? SW_EXIT_NO_FILE : SW_EXIT_USAGE;
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
        rc = SW_EXIT_HOST;
        goto free_spec;
    }
    if (point) {
        const sw_point_t *pt = NULL;
        char *end;
        unsigned long idx = strtoul(point, &end, 10);
        if (*point >= '0' && *point <= '9' && !*end && idx < plan.n) pt = &plan.points[idx];
        for (size_t i = 0; i < plan.n && !pt; i++)
            if (!strcmp(plan.points[i].name, point)) pt = &plan.points[i];
        if (!pt) { rc = usage_error("no such point:", point); goto free_spec; }
        rc = sw_point_main(&spec, pt, &o);
    } else if (collect) {
        size_t ok, failed, missing;
        rc = sw_collect(&spec, &plan, &o, &ok, &failed, &missing);
        if (!o.quiet && rc != SW_EXIT_HOST)
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
