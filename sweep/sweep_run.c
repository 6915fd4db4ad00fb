/* sweep_run.c - the point command, the local and Slurm engines, the results: see sweep_run.h.
 *
 * Signals: the only globals of the sweep live here, for the signal handlers (a flag, and the
 * child a point command forwards SIGINT/SIGTERM/SIGHUP to). */
#define _GNU_SOURCE /* nftw */
#include "run_trace.h"
#include "sweep_run.h"
#include "ts_run_json.h"
#include "ts_decoder.h"
#include "ts_json.h"
#include "ts_file.h"
#include "run_folder.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SW_LOCK "point.lock" /* a point's lock file (lock_point) */

#define SW_PATH 4096
#define SW_TAIL_LINES 5 /* stderr lines kept for a failed point */

extern char **environ;

static volatile sig_atomic_t sw_stop; /* a SIGINT/SIGTERM/SIGHUP arrived */
static volatile sig_atomic_t sw_stop_sig;
static volatile pid_t sw_child; /* the point command's current child */

static void on_signal(int sig) {
    sw_stop = 1;
    sw_stop_sig = sig;
    pid_t c = sw_child;
    if (c > 0) kill(c, sig);
}

static void catch_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* ---- small helpers ----------------------------------------------------------------------- */

static int fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static int fmt(char *buf, size_t len, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(buf, len, f, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_s(double s) {
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}


static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path) && errno != ENOENT ? -1 : 0;
}
static int rm_rf(const char *path) {
    if (access(path, F_OK)) return 0;
    return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
/* empties a point folder, but for point.log (the stderr of the point command itself) */
static int clear_point_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return errno == ENOENT ? 0 : -1;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[SW_PATH];
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "point.log") ||
            !strcmp(e->d_name, SW_LOCK)) continue; /* the lock stays: it is what the workers share */
        if (fmt(path, sizeof path, "%s/%s", dir, e->d_name) || rm_rf(path)) rc = -1;
    }
    closedir(d);
    return rc;
}

/* a whole file, NUL-terminated; NULL if missing */
static char *slurp(const char *path, size_t *len) {
    char e[4400];
    FILE *f = ts_fopen_input(path, e, sizeof e); /* a FIFO or folder reads as missing, at once */
    if (!f) return NULL;
    struct stat sb;
    char *buf = NULL;
    if (!fstat(fileno(f), &sb) && S_ISREG(sb.st_mode) && (buf = malloc((size_t)sb.st_size + 1))) {
        size_t n = fread(buf, 1, (size_t)sb.st_size, f);
        buf[n] = 0;
        if (len) *len = n;
    }
    fclose(f);
    return buf;
}

static int point_dir(const sw_opts_t *o, const sw_point_t *pt, const char *file, char *buf, size_t len) {
    return file ? fmt(buf, len, "%s/points/%s/%s", o->out, pt->name, file) : fmt(buf, len, "%s/points/%s", o->out, pt->name);
}

/* ---- a point's lock (docs/commands/sweep.md "Resuming") ----------------------------------
 * The worker that runs a point holds an exclusive flock on points/NAME/point.lock from before
 * it clears the folder until it has written result.txt. The descriptor is inherited by the
 * point's `tracesim run` and `tracesim check` (not close-on-exec), so the lock is held while
 * any of them lives and goes with the last: a worker killed with its driver keeps the point
 * locked while its run still writes, and frees it when it dies. A resumed sweep (or a second
 * one) never runs a locked point: the driver skips it (lock_point probe) and the point
 * command exits TS_EXIT_BUSY if it loses the race. The file itself is never removed (a new
 * file would be a new lock). */
/* 1 locked (*fd, keep it open), 0 a live worker holds it, -1 error (errno); probe: close-on-exec
 * and released at once (a look, not a hold) */
static int lock_point(const char *dir, bool probe, int *fd) {
    char path[SW_PATH];
    if (fmt(path, sizeof path, "%s/%s", dir, SW_LOCK)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int f = ts_open_lock_file(path, probe); /* regular file, no link (ts_file.h) */
    if (f < 0) return -1;
    int r;
    while ((r = flock(f, LOCK_EX | LOCK_NB)) < 0 && errno == EINTR) {}
    if (r < 0) {
        int e = errno;
        close(f);
        if (e == EWOULDBLOCK) return 0;
        errno = e;
        return -1;
    }
    if (probe) close(f);
    else
        *fd = f;
    return 1;
}

/* the last n non-empty lines of a file, joined by '\n' into out */
static void tail_lines(const char *path, unsigned n, char *out, size_t len) {
    out[0] = 0;
    size_t k;
    char *t = slurp(path, &k);
    if (!t) return;
    while (k && (t[k - 1] == '\n' || t[k - 1] == '\r' || t[k - 1] == ' ')) t[--k] = 0;
    char *p = t + k;
    for (unsigned i = 0; i < n && p > t; i++) {
        p--;
        while (p > t && p[-1] != '\n') p--;
    }
    snprintf(out, len, "%s", p);
    free(t);
}

/* ---- spawning this executable ------------------------------------------------------------ */

/* starts /proc/self/exe with argv, stdin from /dev/null, stdout and stderr to files (NULL:
 * /dev/null; the same path twice: one file); the pid or -1 */
static pid_t spawn_self(char **argv, const char *out, const char *err, const char *prog) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) return -1;
    /* the logs through the run-folder writer: a link or FIFO planted under the name is
     * replaced, never followed or opened (ts_file.h ts_open_log) */
    char lerr[SW_PATH + 64];
    int ofd = out ? ts_open_log(out, lerr, sizeof lerr) : -1;
    int efd = err && !(out && !strcmp(err, out)) ? ts_open_log(err, lerr, sizeof lerr) : -1;
    int bad = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    bad |= (out && ofd < 0) || (err && !(out && !strcmp(err, out)) && efd < 0);
    if (ofd >= 0) bad |= posix_spawn_file_actions_adddup2(&fa, ofd, 1);
    else
        bad |= posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (err && out && !strcmp(err, out)) bad |= posix_spawn_file_actions_adddup2(&fa, 1, 2);
    else if (efd >= 0)
        bad |= posix_spawn_file_actions_adddup2(&fa, efd, 2);
    else
        bad |= posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    if (!bad) {
        int rc = prog ? posix_spawnp(&pid, prog, &fa, NULL, argv, environ) : posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
        if (rc) {
            errno = rc;
            pid = -1;
        }
    }
    posix_spawn_file_actions_destroy(&fa);
    if (ofd >= 0) close(ofd);
    if (efd >= 0) close(efd);
    return pid;
}

/* waits for pid; its wait status, or -1 */
static int wait_child(pid_t pid) {
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return st;
}

static bool killed_by_stop(int st) {
    return (WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM || WTERMSIG(st) == SIGHUP ||
                                WTERMSIG(st) == SIGKILL)) ||
           /* tracesim run stops cleanly on SIGINT/SIGTERM with status 128 + the signal */
           (WIFEXITED(st) && (WEXITSTATUS(st) == 128 + SIGINT || WEXITSTATUS(st) == 128 + SIGTERM));
}

/* ---- figures of a run folder --------------------------------------------------------------- */

/* stats.txt: the rest of the "key value" line */
static bool stats_value(const char *text, const char *key, char *out, size_t len) {
    size_t k = strlen(key);
    for (const char *p = text; p && *p;) {
        if (!strncmp(p, key, k) && p[k] == ' ') {
            const char *v = p + k + 1, *e = strchr(v, '\n');
            size_t n = e ? (size_t)(e - v) : strlen(v);
            snprintf(out, len, "%.*s", (int)n, v);
            return true;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return false;
}

/* the field index of name in a CSV header line (no quoting in our CSVs), or -1 */
static int csv_col(const char *line, const char *name) {
    size_t k = strlen(name);
    int idx = 0;
    for (const char *p = line;; idx++) {
        const char *e = p;
        while (*e && *e != ',' && *e != '\n') e++;
        if ((size_t)(e - p) == k && !strncmp(p, name, k)) return idx;
        if (*e != ',') return -1;
        p = e + 1;
    }
}
static bool csv_field(const char *line, int col, char *out, size_t len) {
    const char *p = line;
    for (int i = 0; i < col; i++) {
        while (*p && *p != ',' && *p != '\n') p++;
        if (*p != ',') return false;
        p++;
    }
    const char *e = p;
    while (*e && *e != ',' && *e != '\n' && *e != '\r') e++;
    snprintf(out, len, "%.*s", (int)(e - p), p);
    return true;
}

/* events.csv: header + one line of values */
static bool events_value(const char *text, const char *col, char *out, size_t len) {
    const char *nl = strchr(text, '\n');
    int c = csv_col(text, col);
    return nl && c >= 0 && csv_field(nl + 1, c, out, len);
}

/* hpm.csv: the value of the row whose counter is name */
static bool hpm_value(const char *text, const char *name, char *out, size_t len) {
    int vc = csv_col(text, "value");
    size_t k = strlen(name);
    for (const char *p = strchr(text, '\n'); p && vc >= 0;) {
        p++;
        if (!strncmp(p, name, k) && p[k] == ',') return csv_field(p, vc, out, len);
        p = strchr(p, '\n');
    }
    return false;
}

static void on_record(void *ctx, const perf_record_t *rec) {
    if (!rec->truncated) ++*(uint64_t *)ctx;
}

/* complete perf records of run/trace.rtd (settings from trace.json); no trace: 0 */
static int count_records(const char *run, unsigned channel, uint64_t *records) {
    char path[SW_PATH];
    size_t len;
    *records = 0;
    if (fmt(path, sizeof path, "%s/trace.rtd", run)) return -1;
    uint8_t *data = (uint8_t *)slurp(path, &len);
    if (!data) return 0;
    unsigned srcbits = 0, tsbits = 40;
    if (!fmt(path, sizeof path, "%s/trace.json", run)) {
        ts_trace_json_t tj; /* typed and range-checked (ts_run_json.h) */
        char jerr[512];
        if (ts_trace_json_read(path, &tj, jerr, sizeof jerr)) {
            free(data);
            return -1;
        }
        if (tj.has_srcbits) srcbits = tj.srcbits;
        if (tj.has_tsbits) tsbits = tj.tsbits;
    }
    /* bytes -> messages -> elements -> perf records (ts_decoder.h) */
    ts_pipeline_cfg_t cfg = {.trace = {srcbits, tsbits}, .perf_channel = channel, .perf_cb = {records, NULL, on_record, NULL}};
    int rc = ts_pipeline_run(&cfg, data, len, NULL);
    free(data);
    return rc;
}

/* a figure's value as one CSV-safe line */
static void clean(char *v) {
    for (char *p = v; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t') *p = ' ';
}

/* ---- the point command ------------------------------------------------------------------- */

int sw_point_state(const sw_opts_t *o, const sw_point_t *pt) {
    char path[SW_PATH], status[32];
    if (point_dir(o, pt, "result.txt", path, sizeof path)) return 0;
    char *t = slurp(path, NULL);
    if (!t) return 0;
    int st = stats_value(t, "status", status, sizeof status) && !strcmp(status, "ok") ? 1 : 2;
    free(t);
    return st;
}

/* writes result.txt through a temporary file and a rename */
static int write_result(const char *dir, const char *text) {
    char path[SW_PATH], err[SW_PATH + 64];
    if (fmt(path, sizeof path, "%s/result.txt", dir)) return -1;
    FILE *f = ts_fopen_output(path, "w", err, sizeof err); /* a temporary file renamed over it */
    if (!f) return -1;
    fputs(text, f);
    if (fflush(f) || fsync(fileno(f))) {
        ts_output_abort(f);
        return -1;
    }
    return ts_fclose_output(f, path, err, sizeof err);
}

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf_t;
static void sb_add(sbuf_t *b, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf_t *b, const char *f, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, f);
        size_t room = b->cap - b->n;
        int k = b->s ? vsnprintf(b->s + b->n, room, f, ap) : -2;
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        if (k == -1) return;
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (k >= 0 && cap - b->n <= (size_t)k) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) return;
        b->s = s;
        b->cap = cap;
    }
}

static void add_error(sbuf_t *r, const char *head, const char *tail) {
    sb_add(r, "error %s\n", head);
    for (const char *p = tail; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) sb_add(r, "error %.*s\n", (int)n, p);
        p = e ? e + 1 : p + n;
    }
}

static int point_run(const sw_spec_t *s, const sw_point_t *pt, const sw_opts_t *o);

int sw_point_main(const sw_spec_t *s, const sw_point_t *pt, const sw_opts_t *o) {
    char dir[SW_PATH];
    if (point_dir(o, pt, NULL, dir, sizeof dir)) {
        fprintf(stderr, "tracesim: sweep: path of point %s too long\n", pt->name);
        return TS_EXIT_HOST;
    }
    /* the point's lock first: a live worker's point is neither cleared nor run again */
    int lk = -1, l = ts_mkdir_p(dir) ? -1 : lock_point(dir, false, &lk);
    if (l < 0) {
        fprintf(stderr, "tracesim: sweep: cannot lock %s/%s: %s\n", dir, SW_LOCK, strerror(errno));
        return TS_EXIT_HOST;
    }
    if (l == 0) {
        fprintf(stderr, "sweep: point %s is being run by a live worker (another sweep's, or one whose sweep was "
                        "killed): not run\n",
                pt->name);
        return TS_EXIT_BUSY;
    }
    int rc = point_run(s, pt, o);
    close(lk); /* the run and the check that inherited it have ended */
    return rc;
}

static int point_run(const sw_spec_t *s, const sw_point_t *pt, const sw_opts_t *o) {
    int state = sw_point_state(o, pt);
    if (state == 1 || (state == 2 && !o->retry_failed)) {
        if (!o->quiet) fprintf(stderr, "sweep: point %s is complete (%s)\n", pt->name, state == 1 ? "ok" : "failed");
        return state == 1 ? 0 : TS_EXIT_FAILED;
    }
    char dir[SW_PATH], errf[SW_PATH], chk[SW_PATH];
    if (point_dir(o, pt, NULL, dir, sizeof dir) || point_dir(o, pt, "stderr.txt", errf, sizeof errf) ||
        point_dir(o, pt, "check.txt", chk, sizeof chk)) {
        fprintf(stderr, "tracesim: sweep: path of point %s too long\n", pt->name);
        return TS_EXIT_HOST;
    }
    catch_signals();
    if (clear_point_dir(dir) || ts_mkdir_p(dir)) {
        fprintf(stderr, "tracesim: sweep: cannot create %s: %s\n", dir, strerror(errno));
        return TS_EXIT_HOST;
    }
    double t0 = now_s();
    /* tracesim run -q -o DIR ARGS... ELF */
    char **argv = calloc(pt->n_args + 7, sizeof *argv);
    if (!argv) return TS_EXIT_HOST;
    size_t k = 0;
    argv[k++] = "tracesim";
    argv[k++] = "run";
    argv[k++] = "-q";
    argv[k++] = "-o";
    argv[k++] = dir;
    for (size_t i = 0; i < pt->n_args; i++) argv[k++] = pt->args[i];
    argv[k++] = pt->elf;
    argv[k] = NULL;
    pid_t pid = sw_stop ? -1 : spawn_self(argv, NULL, errf, NULL);
    free(argv);
    if (pid < 0 && !sw_stop) {
        fprintf(stderr, "tracesim: sweep: cannot start the simulator: %s\n", strerror(errno));
        return TS_EXIT_HOST;
    }
    int st = -1;
    if (pid > 0) {
        sw_child = pid;
        if (sw_stop) kill(pid, sw_stop_sig);
        st = wait_child(pid);
        sw_child = 0;
    }
    if (sw_stop || (st != -1 && killed_by_stop(st))) return TS_EXIT_INTERRUPTED;

    sbuf_t r = {0};
    char tail[2048], head[512], unf[4600];
    bool ok = WIFEXITED(st) && WEXITSTATUS(st) == s->expect_exit;
    /* a run that did not finish (it crashed, or was killed outright): named as every command
     * names it, the point failed, and nothing is read from its files */
    bool incomplete = ts_run_unfinished(dir, unf, sizeof unf) == TS_RUN_INCOMPLETE;
    const char *verdict = "-";
    if (WIFEXITED(st)) sb_add(&r, "exit %d\n", WEXITSTATUS(st));
    else
        sb_add(&r, "exit signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    if (incomplete) {
        ts_run_say_unfinished_then(dir, "the point failed, no figure is read from it");
        ok = false;
        clean(unf);
        tail_lines(errf, SW_TAIL_LINES, tail, sizeof tail);
        add_error(&r, unf, tail);
    } else if (!ok) {
        tail_lines(errf, SW_TAIL_LINES, tail, sizeof tail);
        if (WIFEXITED(st)) snprintf(head, sizeof head, "tracesim run: exit status %d (expected %d)", WEXITSTATUS(st), s->expect_exit);
        else
            snprintf(head, sizeof head, "tracesim run: killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        add_error(&r, head, tail);
    } else if (s->check) {
        char **cv = calloc(s->n_check_args + 4, sizeof *cv);
        if (!cv) {
            free(r.s);
            return TS_EXIT_HOST;
        }
        k = 0;
        cv[k++] = "tracesim";
        cv[k++] = "check";
        for (size_t i = 0; i < s->n_check_args; i++) cv[k++] = s->check_args[i];
        cv[k++] = dir;
        pid = sw_stop ? -1 : spawn_self(cv, chk, chk, NULL);
        free(cv);
        if (pid > 0) {
            sw_child = pid;
            if (sw_stop) kill(pid, sw_stop_sig);
            st = wait_child(pid);
            sw_child = 0;
        }
        if (sw_stop || (pid > 0 && killed_by_stop(st))) {
            free(r.s);
            return TS_EXIT_INTERRUPTED;
        }
        if (pid < 0) {
            fprintf(stderr, "tracesim: sweep: cannot start the check: %s\n", strerror(errno));
            free(r.s);
            return TS_EXIT_HOST;
        }
        bool pass = WIFEXITED(st) && WEXITSTATUS(st) == 0;
        verdict = pass ? "pass" : "fail";
        if (!pass) {
            ok = false;
            tail_lines(chk, SW_TAIL_LINES, tail, sizeof tail);
            snprintf(head, sizeof head, "tracesim check: exit status %d", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
            add_error(&r, head, tail);
        }
    }
    sb_add(&r, "check %s\n", verdict);
    sb_add(&r, "seconds %.3f\n", now_s() - t0);

    /* figures */
    char path[SW_PATH], val[1024];
    char *stats = !point_dir(o, pt, "stats.txt", path, sizeof path) ? slurp(path, NULL) : NULL;
    char *hpm = !point_dir(o, pt, "hpm.csv", path, sizeof path) ? slurp(path, NULL) : NULL;
    char *ev = !point_dir(o, pt, "events.csv", path, sizeof path) ? slurp(path, NULL) : NULL;
    size_t jl = 0;
    char *json = !point_dir(o, pt, "trace.json", path, sizeof path) ? slurp(path, &jl) : NULL;
    char jerr[128];
    sj_value_t *tj = json ? sj_parse(json, jl, jerr, sizeof jerr) : NULL;
    for (size_t i = 0; i < s->n_figs && !incomplete; i++) { /* none from a run that did not finish */
        const sw_figure_t *f = &s->figs[i];
        bool have = false;
        val[0] = 0;
        switch (f->kind) {
        case FIG_STATS: have = stats && stats_value(stats, f->arg, val, sizeof val); break;
        case FIG_HPM: have = hpm && hpm_value(hpm, f->arg, val, sizeof val); break;
        case FIG_EVENTS: have = ev && events_value(ev, f->arg, val, sizeof val); break;
        case FIG_TRACE: {
            const sj_value_t *v = sj_get(tj, f->arg);
            if (v && (v->type == SJ_NUMBER || v->type == SJ_STRING)) have = !fmt(val, sizeof val, "%s", v->s);
            else if (v && v->type == SJ_BOOL)
                have = !fmt(val, sizeof val, "%s", v->b ? "true" : "false");
            break;
        }
        case FIG_RECORDS: {
            uint64_t n;
            if (ok || stats) have = !count_records(dir, s->perf_channel, &n) && !fmt(val, sizeof val, "%" PRIu64, n);
            break;
        }
        case FIG_CHECK: have = !fmt(val, sizeof val, "%s", verdict); break;
        case FIG_OVERHEAD:
        case FIG_PER_RECORD: break; /* derived when collecting */
        }
        if (!have) continue;
        clean(val);
        sb_add(&r, "fig %s %s\n", f->name, val);
    }
    sj_free(tj);
    free(json);
    free(stats);
    free(hpm);
    free(ev);
    if (!r.s) return TS_EXIT_HOST;
    /* the status line goes first */
    sbuf_t out = {0};
    sb_add(&out, "status %s\n%s", ok ? "ok" : "failed", r.s);
    free(r.s);
    if (!out.s || write_result(dir, out.s)) {
        fprintf(stderr, "tracesim: sweep: cannot write %s/result.txt: %s\n", dir, strerror(errno));
        free(out.s);
        return TS_EXIT_HOST;
    }
    free(out.s);
    return ok ? 0 : TS_EXIT_FAILED;
}

/* ---- progress ------------------------------------------------------------------------------ */

typedef struct progress {
    size_t total, skipped, done, failed, running;
    double t0, last;
    bool tty, quiet, shown;
} progress_t;

static void hms(double s, char *buf, size_t len) {
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static void show_progress(progress_t *pg, bool force) {
    double t = now_s();
    if (pg->quiet || (!force && t - pg->last < 1.0)) return;
    pg->last = t;
    size_t finished = pg->done + pg->failed, todo = pg->total - pg->skipped;
    char el[32], eta[32] = "?";
    hms(t - pg->t0, el, sizeof el);
    if (finished) hms((t - pg->t0) / (double)finished * (double)(todo - finished), eta, sizeof eta);
    if (finished == todo) snprintf(eta, sizeof eta, "0:00");
    fprintf(stderr, "%ssweep: %zu/%zu points done, %zu failed, %zu running, %zu skipped (complete); %s elapsed, ETA %s%s",
            pg->tty ? "\r" : "", pg->skipped + finished, pg->total, pg->failed, pg->running, pg->skipped, el, eta,
            pg->tty ? "\033[K" : "\n");
    pg->shown = true;
}
static void end_progress(progress_t *pg) {
    if (pg->tty && pg->shown && !pg->quiet) fputc('\n', stderr);
}

/* ---- the local engine ---------------------------------------------------------------------- */

/* argv of the point command for pt (strings owned by o, pt and the static words) */
static char **point_argv(const sw_opts_t *o, const sw_point_t *pt) {
    char **v = calloc(o->n_only * 2 + 14, sizeof *v);
    if (!v) return NULL;
    size_t k = 0;
    v[k++] = "tracesim";
    v[k++] = "sweep";
    v[k++] = "-q";
    v[k++] = "--point";
    v[k++] = pt->name;
    v[k++] = "--out";
    v[k++] = (char *)o->out;
    v[k++] = "--build";
    v[k++] = (char *)o->build;
    for (size_t i = 0; i < o->n_only; i++) {
        v[k++] = "--only";
        v[k++] = o->only[i];
    }
    if (o->retry_failed) v[k++] = "--retry-failed";
    v[k++] = (char *)o->spec;
    v[k] = NULL;
    return v;
}

static void finish_line(const sw_opts_t *o, size_t n, size_t ok, size_t failed, size_t missing, size_t skipped, double secs) {
    if (o->quiet) return;
    fprintf(stderr, "sweep: %zu points: %zu ok, %zu failed%s", n, ok, failed, missing ? "" : "");
    if (missing) fprintf(stderr, ", %zu not run", missing);
    fprintf(stderr, " (%zu skipped as complete); %.1f s; results in %s/results.csv and %s/summary.md\n", skipped, secs,
            o->out, o->out);
}

int sw_local(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o) {
    double t0 = now_s();
    size_t *todo = calloc(p->n, sizeof *todo), n_todo = 0;
    if (!todo) return TS_EXIT_HOST;
    progress_t pg = {.total = p->n, .t0 = t0, .last = 0, .tty = isatty(2), .quiet = o->quiet};
    for (size_t i = 0; i < p->n; i++) {
        int st = sw_point_state(o, &p->points[i]);
        if (st == 0 || (st == 2 && o->retry_failed)) todo[n_todo++] = i;
        else
            pg.skipped++;
    }
    unsigned jobs = o->jobs ? o->jobs : 1;
    struct {
        pid_t pid;
        size_t point;
    } *run = calloc(jobs, sizeof *run);
    if (!run) {
        free(todo);
        return TS_EXIT_HOST;
    }
    catch_signals();
    size_t next = 0, busy = 0; /* busy: points a live worker of another sweep holds */
    bool stopping = false;
    double stop_at = 0;
    int rc = 0;
    for (;;) {
        while (!sw_stop && pg.running < jobs && next < n_todo) {
            const sw_point_t *pt = &p->points[todo[next]];
            char pdir[SW_PATH];
            int held = point_dir(o, pt, NULL, pdir, sizeof pdir) || ts_mkdir_p(pdir) ? -1 : lock_point(pdir, true, NULL);
            if (held == 0) { /* a live worker runs it: never a second one beside it (its log stays too) */
                if (!o->quiet)
                    fprintf(stderr, "%ssweep: point %s is being run by a live worker (another sweep's, or one whose "
                                    "sweep was killed): skipped\n",
                            pg.tty ? "\n" : "", pt->name);
                busy++;
                next++;
                continue;
            }
            char **argv = point_argv(o, pt), errf[SW_PATH], dir[SW_PATH];
            pid_t pid = -1;
            if (argv && !point_dir(o, pt, NULL, dir, sizeof dir) && !ts_mkdir_p(dir) &&
                !fmt(errf, sizeof errf, "%s/point.log", dir))
                pid = spawn_self(argv, errf, errf, NULL);
            free(argv);
            if (pid < 0) {
                fprintf(stderr, "%stracesim: sweep: cannot start point %s: %s\n", pg.tty ? "\n" : "", pt->name, strerror(errno));
                rc = TS_EXIT_HOST;
                sw_stop = 1;
                break;
            }
            for (unsigned j = 0; j < jobs; j++)
                if (!run[j].pid) {
                    run[j].pid = pid;
                    run[j].point = todo[next];
                    break;
                }
            pg.running++;
            next++;
        }
        if (sw_stop && !stopping) {
            stopping = true;
            stop_at = now_s();
            for (unsigned j = 0; j < jobs; j++)
                if (run[j].pid) kill(run[j].pid, SIGTERM);
        }
        if (stopping && now_s() - stop_at > 10) /* a point that does not stop */
            for (unsigned j = 0; j < jobs; j++)
                if (run[j].pid) kill(run[j].pid, SIGKILL);
        if (!pg.running && (next == n_todo || sw_stop)) break;
        int st;
        pid_t pid;
        bool reaped = false;
        while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
            for (unsigned j = 0; j < jobs; j++) {
                if (run[j].pid != pid) continue;
                run[j].pid = 0;
                pg.running--;
                const sw_point_t *pt = &p->points[run[j].point];
                int state = sw_point_state(o, pt);
                if (state == 0 && WIFEXITED(st) && WEXITSTATUS(st) == TS_EXIT_BUSY) {
                    /* it lost the race for the lock to a live worker: that one writes the result */
                    if (!o->quiet)
                        fprintf(stderr, "%ssweep: point %s is being run by a live worker: skipped\n", pg.tty ? "\n" : "", pt->name);
                    busy++;
                } else if (state == 0 && !stopping) {
                    /* the point command died without a result: record that as a failure */
                    char dir[SW_PATH], log[SW_PATH], tail[2048], head[256];
                    sbuf_t r = {0};
                    if (!point_dir(o, pt, NULL, dir, sizeof dir) && !fmt(log, sizeof log, "%s/point.log", dir)) {
                        tail_lines(log, SW_TAIL_LINES, tail, sizeof tail);
                        snprintf(head, sizeof head, "the point command ended (%s %d) without a result",
                                 WIFEXITED(st) ? "exit status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
                        sb_add(&r, "status failed\nexit -\ncheck -\nseconds -\n");
                        add_error(&r, head, tail);
                        if (r.s) write_result(dir, r.s);
                        free(r.s);
                    }
                    state = sw_point_state(o, pt);
                }
                if (state == 1) pg.done++;
                else if (state == 2)
                    pg.failed++;
                reaped = true;
            }
        }
        show_progress(&pg, false);
        if (!reaped) sleep_s(0.02);
    }
    show_progress(&pg, true);
    end_progress(&pg);
    free(run);
    free(todo);
    size_t ok, failed, missing;
    int crc = sw_collect(s, p, o, &ok, &failed, &missing);
    if (sw_stop && !rc) {
        if (!o->quiet)
            fprintf(stderr, "sweep: interrupted: %zu of %zu points complete (their results stay); run the same command "
                            "again to resume\n",
                    ok + failed, p->n);
        return TS_EXIT_INTERRUPTED;
    }
    finish_line(o, p->n, ok, failed, missing, pg.skipped, now_s() - t0);
    if (busy && !o->quiet)
        fprintf(stderr, "sweep: %zu point(s) were being run by live workers and were not run again; run the same "
                        "command once they have ended to collect them\n",
                busy);
    return rc ? rc : crc;
}

/* ---- the Slurm engine ---------------------------------------------------------------------- */

/* a word for bash, single-quoted */
static void sh_quote(sbuf_t *b, const char *w) {
    sb_add(b, "'");
    for (const char *p = w; *p; p++) {
        if (*p == '\'') sb_add(b, "'\\''");
        else
            sb_add(b, "%c", *p);
    }
    sb_add(b, "'");
}

/* A value that goes into a line of the sbatch script (an #SBATCH line, the comment): one with
 * a newline or another control character would start a line of its own (a command the job
 * runs); 0, or -1 after one line on stderr */
static int sbatch_line_ok(const char *what, const char *v) {
    if (!v) return 0;
    for (const unsigned char *p = (const unsigned char *)v; *p; p++)
        if (*p < 0x20 || *p == 0x7f) {
            fprintf(stderr, "tracesim: sweep: %s has a newline or control character; it would become a line "
                            "of the sbatch script\n",
                    what);
            return -1;
        }
    return 0;
}

static char *sbatch_script(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o, const size_t *todo, size_t n,
                           const char *exe, const char *cwd) {
    sbuf_t b = {0};
    char name[64];
    sw_sanitize(s->name, name, sizeof name);
    sb_add(&b, "#!/bin/bash\n# tracesim sweep %s: %zu point(s) per array task; written by tracesim sweep --slurm\n", s->path,
           o->chunk ? (size_t)o->chunk : 1);
    size_t chunk = o->chunk ? o->chunk : 1, tasks = (n + chunk - 1) / chunk;
    sb_add(&b, "#SBATCH --job-name=sweep-%s\n#SBATCH --array=0-%zu\n#SBATCH --ntasks=1\n", name, tasks - 1);
    sb_add(&b, "#SBATCH --output=%s/slurm/task-%%a.out\n#SBATCH --chdir=%s\n", o->out, cwd);
    if (o->partition) sb_add(&b, "#SBATCH --partition=%s\n", o->partition);
    if (o->time) sb_add(&b, "#SBATCH --time=%s\n", o->time);
    if (o->account) sb_add(&b, "#SBATCH --account=%s\n", o->account);
    for (size_t i = 0; i < o->n_sbatch_args; i++) sb_add(&b, "#SBATCH %s\n", o->sbatch_args[i]);
    sb_add(&b, "points=(");
    for (size_t i = 0; i < n; i++) {
        sb_add(&b, i % 4 ? " " : "\n  ");
        sh_quote(&b, p->points[todo[i]].name);
    }
    if (chunk == 1) sb_add(&b, "\n)\nexec ");
    else
        sb_add(&b, "\n)\nrc=0\nfor p in \"${points[@]:$((SLURM_ARRAY_TASK_ID * %zu)):%zu}\"; do\n  ", chunk, chunk);
    sh_quote(&b, exe);
    sb_add(&b, chunk == 1 ? " sweep -q --point \"${points[$SLURM_ARRAY_TASK_ID]}\" --out " : " sweep -q --point \"$p\" --out ");
    sh_quote(&b, o->out);
    sb_add(&b, " --build ");
    sh_quote(&b, o->build);
    for (size_t i = 0; i < o->n_only; i++) {
        sb_add(&b, " --only ");
        sh_quote(&b, o->only[i]);
    }
    if (o->retry_failed) sb_add(&b, " --retry-failed");
    sb_add(&b, " ");
    sh_quote(&b, o->spec);
    sb_add(&b, chunk == 1 ? "\n" : " || rc=1\ndone\nexit $rc\n");
    return b.s;
}

/* runs a program (PATH lookup) with output to files; its wait status or -1 */
static int run_tool(char **argv, const char *out, const char *err) {
    pid_t pid = spawn_self(argv, out, err, argv[0]);
    if (pid < 0) return -1;
    return wait_child(pid);
}

static int slurm_engine(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o, const size_t *todo, size_t n,
                        size_t skipped, double t0) {
    char exe[SW_PATH], cwd[SW_PATH];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k <= 0 || !getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "tracesim: sweep: cannot tell where this executable is\n");
        return TS_EXIT_HOST;
    }
    exe[k] = 0;
    if (!n) {
        if (o->dry_run) {
            fprintf(stderr, "sweep: every point is complete: nothing to submit\n");
            return 0;
        }
        size_t ok, failed, missing;
        int rc = sw_collect(s, p, o, &ok, &failed, &missing);
        finish_line(o, p->n, ok, failed, missing, skipped, now_s() - t0);
        return rc;
    }
    int refused = sbatch_line_ok("--partition", o->partition) || sbatch_line_ok("--time", o->time) ||
                  sbatch_line_ok("--account", o->account) || sbatch_line_ok("--out", o->out) ||
                  sbatch_line_ok("the working folder", cwd) || sbatch_line_ok("the spec's path", s->path);
    for (size_t i = 0; i < o->n_sbatch_args && !refused; i++) refused = sbatch_line_ok("--sbatch-arg", o->sbatch_args[i]);
    if (refused) return TS_EXIT_USAGE;
    char *script = sbatch_script(s, p, o, todo, n, exe, cwd);
    if (!script || o->dry_run) {
        if (script) fputs(script, stdout);
        free(script);
        return script ? 0 : TS_EXIT_HOST;
    }
    /* failed points that are retried: their old result goes, so that they count as not run
     * until their task writes a new one */
    for (size_t i = 0; i < n; i++) {
        char old[SW_PATH];
        if (!point_dir(o, &p->points[todo[i]], "result.txt", old, sizeof old)) unlink(old);
    }
    char sdir[SW_PATH], spath[SW_PATH], sout[SW_PATH], serr[SW_PATH];
    if (fmt(sdir, sizeof sdir, "%s/slurm", o->out) || fmt(spath, sizeof spath, "%s/sweep.sbatch", sdir) ||
        fmt(sout, sizeof sout, "%s/sbatch.out", sdir) || fmt(serr, sizeof serr, "%s/sbatch.err", sdir) || ts_mkdir_p(sdir)) {
        fprintf(stderr, "tracesim: sweep: cannot create %s/slurm: %s\n", o->out, strerror(errno));
        free(script);
        return TS_EXIT_HOST;
    }
    char werr[SW_PATH + 64];
    FILE *f = ts_fopen_output(spath, "w", werr, sizeof werr);
    bool bad = !f;
    if (f) {
        fputs(script, f);
        bad = ts_fclose_output(f, spath, werr, sizeof werr) != 0;
    }
    free(script);
    if (bad) {
        fprintf(stderr, "tracesim: sweep: cannot write %s: %s\n", spath, strerror(errno));
        return TS_EXIT_HOST;
    }
    char *sb_argv[] = {"sbatch", "--parsable", spath, NULL};
    int st = run_tool(sb_argv, sout, serr);
    char line[1024];
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
        tail_lines(serr, 1, line, sizeof line);
        fprintf(stderr, "tracesim: sweep: sbatch %s: %s\n", st == -1 ? "cannot be started" : "failed",
                st == -1 ? strerror(errno) : line[0] ? line :
                                                       "(no message)");
        return TS_EXIT_HOST;
    }
    char *jt = slurp(sout, NULL), job[64] = "";
    if (jt) {
        size_t l = strcspn(jt, ";\n");
        snprintf(job, sizeof job, "%.*s", (int)(l < sizeof job ? l : sizeof job - 1), jt);
    }
    free(jt);
    if (!job[0] || strspn(job, "0123456789") != strlen(job)) {
        fprintf(stderr, "tracesim: sweep: sbatch printed no job id (see %s)\n", sout);
        return TS_EXIT_HOST;
    }
    size_t chunk = o->chunk ? o->chunk : 1;
    if (!o->quiet)
        fprintf(stderr, "sweep: submitted job array %s (%zu tasks, %zu point%s each; script %s)\n", job, (n + chunk - 1) / chunk,
                chunk, chunk == 1 ? "" : "s", spath);
    catch_signals();
    progress_t pg = {.total = p->n, .skipped = skipped, .t0 = t0, .tty = isatty(2), .quiet = o->quiet};
    char qout[SW_PATH], qerr[SW_PATH];
    fmt(qout, sizeof qout, "%s/squeue.out", sdir);
    fmt(qerr, sizeof qerr, "%s/squeue.err", sdir);
    unsigned errors = 0;
    int rc = 0;
    for (;;) {
        char *q_argv[] = {"squeue", "-h", "-j", job, "-o", "%i", NULL};
        st = run_tool(q_argv, qout, qerr);
        bool gone = false;
        if (st != -1 && WIFEXITED(st) && !WEXITSTATUS(st)) {
            char *t = slurp(qout, NULL);
            gone = !t || !t[strspn(t, " \n")];
            free(t);
            errors = 0;
        } else {
            tail_lines(qerr, 1, line, sizeof line);
            if (strstr(line, "Invalid job id")) gone = true; /* purged: long finished */
            else if (++errors >= 10) {
                fprintf(stderr, "%stracesim: sweep: squeue keeps failing: %s\n", pg.tty ? "\n" : "", line[0] ? line : "(no message)");
                rc = TS_EXIT_HOST;
                break;
            }
        }
        pg.done = pg.failed = 0;
        for (size_t i = 0; i < n; i++) {
            int ps = sw_point_state(o, &p->points[todo[i]]);
            pg.done += ps == 1;
            pg.failed += ps == 2;
        }
        show_progress(&pg, false);
        if (gone) break;
        if (sw_stop) {
            char *c_argv[] = {"scancel", job, NULL};
            run_tool(c_argv, NULL, NULL);
            end_progress(&pg);
            if (!o->quiet) fprintf(stderr, "sweep: interrupted: cancelled job %s; complete points stay, run again to resume\n", job);
            size_t ok, failed, missing;
            sw_collect(s, p, o, &ok, &failed, &missing);
            return TS_EXIT_INTERRUPTED;
        }
        for (double w = 0; w < o->poll && !sw_stop; w += 0.05) sleep_s(0.05);
    }
    end_progress(&pg);
    size_t ok, failed, missing;
    int crc = sw_collect(s, p, o, &ok, &failed, &missing);
    if (missing && !o->quiet)
        fprintf(stderr, "sweep: %zu point(s) left no result: see %s/task-*.out\n", missing, sdir);
    finish_line(o, p->n, ok, failed, missing, skipped, now_s() - t0);
    return rc ? rc : crc;
}

int sw_slurm(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o) {
    double t0 = now_s();
    size_t *todo = calloc(p->n, sizeof *todo), n = 0, skipped = 0;
    if (!todo) return TS_EXIT_HOST;
    for (size_t i = 0; i < p->n; i++) {
        int st = sw_point_state(o, &p->points[i]);
        if (st == 0 || (st == 2 && o->retry_failed)) todo[n++] = i;
        else
            skipped++;
    }
    int rc = slurm_engine(s, p, o, todo, n, skipped, t0);
    free(todo);
    return rc;
}

/* ---- results --------------------------------------------------------------------------------- */

typedef struct res {
    int state;  /* 0 not run, 1 ok, 2 failed */
    char *text; /* result.txt */
} res_t;

static bool res_get(const res_t *r, const char *key, char *out, size_t len) {
    return r->text && stats_value(r->text, key, out, len);
}
static bool res_fig(const res_t *r, const char *fig, char *out, size_t len) {
    char key[512];
    return !fmt(key, sizeof key, "fig %s", fig) && res_get(r, key, out, len);
}
static bool number(const char *s, double *v) {
    char *end;
    if (!*s) return false;
    *v = strtod(s, &end);
    return !*end && isfinite(*v);
}

/* a figure of point i, derived ones included; false when it has none */
static bool figure(const sw_spec_t *s, const sw_plan_t *p, const res_t *res, size_t i, size_t f, char *out, size_t len) {
    const sw_figure_t *fg = &s->figs[f];
    if (fg->kind != FIG_OVERHEAD && fg->kind != FIG_PER_RECORD) return res_fig(&res[i], fg->name, out, len);
    const sw_point_t *b = sw_plan_baseline(s, p, &p->points[i], fg->baseline);
    char v[256], bv[256], rec[64];
    double x, y, n;
    if (!b || !res_fig(&res[i], s->figs[fg->base].name, v, sizeof v) ||
        !res_fig(&res[b->index], s->figs[fg->base].name, bv, sizeof bv) || !number(v, &x) || !number(bv, &y))
        return false;
    if (fg->kind == FIG_OVERHEAD) return y != 0 && !fmt(out, len, "%+.1f", 100.0 * (x - y) / y);
    return res_fig(&res[i], "perf.records", rec, sizeof rec) && number(rec, &n) && n > 0 &&
           !fmt(out, len, "%.1f", (x - y) / n);
}

static void csv_cell(FILE *f, const char *v) {
    if (!strpbrk(v, ",\"\n")) {
        fputs(v, f);
        return;
    }
    fputc('"', f);
    for (const char *p = v; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}
static void md_cell(FILE *f, const char *v) {
    for (const char *p = v; *p; p++) {
        if (*p == '|') fputs("\\|", f);
        else
            fputc(*p, f);
    }
}

static const char *state_name(int st) { return st == 1 ? "ok" : st == 2 ? "failed" :
                                                                          "not run"; }

/* the error lines of a result, joined with sep */
static void errors_of(const res_t *r, const char *sep, char *out, size_t len) {
    size_t k = 0;
    out[0] = 0;
    for (const char *p = r->text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 6 && !strncmp(p, "error ", 6) && k < len) {
            int w = snprintf(out + k, len - k, "%s%.*s", k ? sep : "", (int)(n - 6), p + 6);
            if (w > 0) k += (size_t)w;
        }
        p = e ? e + 1 : p + n;
    }
}

static char res_werr[SW_PATH + 64]; /* write_csv's, write_md's "cannot create|write P: reason" */
static int write_csv(const sw_spec_t *s, const sw_plan_t *p, const res_t *res, const char *path) {
    char *werr = res_werr;
    FILE *f = ts_fopen_output(path, "w", werr, sizeof res_werr);
    if (!f) return -1;
    fputs("point", f);
    for (size_t a = 0; a < s->n_axes; a++) fprintf(f, ",%s", s->axes[a].name);
    fputs(",status,exit", f);
    if (s->check) fputs(",check", f);
    fputs(",seconds", f);
    for (size_t i = 0; i < s->n_figs; i++)
        if (!s->figs[i].hidden && s->figs[i].kind != FIG_CHECK) fprintf(f, ",%s", s->figs[i].name);
    fputs(",error\n", f);
    char v[4096];
    for (size_t i = 0; i < p->n; i++) {
        const sw_point_t *pt = &p->points[i];
        csv_cell(f, pt->name);
        for (size_t a = 0; a < s->n_axes; a++) {
            fputc(',', f);
            csv_cell(f, pt->vi[a] == SW_IGNORED ? "-" : s->axes[a].values[pt->vi[a]].text);
        }
        fprintf(f, ",%s,", state_name(res[i].state));
        if (res_get(&res[i], "exit", v, sizeof v)) csv_cell(f, v);
        if (s->check) {
            fputc(',', f);
            if (res_get(&res[i], "check", v, sizeof v)) csv_cell(f, v);
        }
        fputc(',', f);
        if (res_get(&res[i], "seconds", v, sizeof v)) csv_cell(f, v);
        for (size_t g = 0; g < s->n_figs; g++) {
            if (s->figs[g].hidden || s->figs[g].kind == FIG_CHECK) continue;
            fputc(',', f);
            if (figure(s, p, res, i, g, v, sizeof v)) csv_cell(f, v);
        }
        fputc(',', f);
        errors_of(&res[i], " | ", v, sizeof v);
        csv_cell(f, v);
        fputc('\n', f);
    }
    return ts_fclose_output(f, path, werr, sizeof res_werr); /* renamed over path when whole */
}

static int write_md(const sw_spec_t *s, const sw_plan_t *p, const res_t *res, const sw_opts_t *o, const char *path,
                    size_t ok, size_t failed, size_t missing) {
    char *werr = res_werr;
    FILE *f = ts_fopen_output(path, "w", werr, sizeof res_werr);
    if (!f) return -1;
    fprintf(f, "# Sweep %s\n\n`%s`: %zu points, %zu ok, %zu failed, %zu not run. One run folder per point in "
               "`points/<point>/`; every column also in `results.csv`.\n\n",
            s->name, s->path, p->n, ok, failed, missing);
    fputs("| point |", f);
    for (size_t a = 0; a < s->n_axes; a++) fprintf(f, " %s |", s->axes[a].name);
    fputs(" status | exit |", f);
    if (s->check) fputs(" check |", f);
    for (size_t g = 0; g < s->n_figs; g++)
        if (!s->figs[g].hidden && s->figs[g].kind != FIG_CHECK) fprintf(f, " %s |", s->figs[g].name);
    fputs("\n|---|", f);
    for (size_t a = 0; a < s->n_axes; a++) fputs("---|", f);
    fputs("---|--:|", f);
    if (s->check) fputs("---|", f);
    for (size_t g = 0; g < s->n_figs; g++)
        if (!s->figs[g].hidden && s->figs[g].kind != FIG_CHECK) fputs("--:|", f);
    fputc('\n', f);
    char v[4096];
    for (size_t i = 0; i < p->n; i++) {
        const sw_point_t *pt = &p->points[i];
        fprintf(f, "| %s |", pt->name);
        for (size_t a = 0; a < s->n_axes; a++) {
            fputc(' ', f);
            md_cell(f, pt->vi[a] == SW_IGNORED ? "-" : s->axes[a].values[pt->vi[a]].text);
            fputs(" |", f);
        }
        fprintf(f, " %s | %s |", state_name(res[i].state), res_get(&res[i], "exit", v, sizeof v) ? v : "");
        if (s->check) fprintf(f, " %s |", res_get(&res[i], "check", v, sizeof v) ? v : "");
        for (size_t g = 0; g < s->n_figs; g++) {
            if (s->figs[g].hidden || s->figs[g].kind == FIG_CHECK) continue;
            fputc(' ', f);
            if (figure(s, p, res, i, g, v, sizeof v)) md_cell(f, v);
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    if (failed) {
        fputs("\n## Failed points\n", f);
        for (size_t i = 0; i < p->n; i++) {
            if (res[i].state != 2) continue;
            errors_of(&res[i], "\n    ", v, sizeof v);
            fprintf(f, "\n* `%s` (`points/%s/`):\n\n    %s\n", p->points[i].name, p->points[i].name, v);
        }
    }
    (void)o;
    return ts_fclose_output(f, path, werr, sizeof res_werr); /* renamed over path when whole */
}

int sw_collect(const sw_spec_t *s, const sw_plan_t *p, const sw_opts_t *o, size_t *ok, size_t *failed, size_t *missing) {
    res_t *res = calloc(p->n, sizeof *res);
    if (!res) return TS_EXIT_HOST;
    *ok = *failed = *missing = 0;
    for (size_t i = 0; i < p->n; i++) {
        char path[SW_PATH];
        res[i].state = sw_point_state(o, &p->points[i]);
        if (res[i].state && !point_dir(o, &p->points[i], "result.txt", path, sizeof path)) res[i].text = slurp(path, NULL);
        if (res[i].state == 1) ++*ok;
        else if (res[i].state == 2)
            ++*failed;
        else
            ++*missing;
    }
    char csv[SW_PATH], md[SW_PATH];
    int rc = *failed || *missing ? TS_EXIT_FAILED : TS_EXIT_OK;
    res_werr[0] = 0;
    if (fmt(csv, sizeof csv, "%s/results.csv", o->out) || fmt(md, sizeof md, "%s/summary.md", o->out) ||
        write_csv(s, p, res, csv) || write_md(s, p, res, o, md, *ok, *failed, *missing)) {
        if (res_werr[0]) fprintf(stderr, "tracesim: sweep: %s\n", res_werr); /* names the file */
        else
            fprintf(stderr, "tracesim: sweep: cannot write the results in %s: %s\n", o->out, strerror(errno));
        rc = TS_EXIT_HOST;
    }
    for (size_t i = 0; i < p->n; i++) free(res[i].text);
    free(res);
    return rc;
}
