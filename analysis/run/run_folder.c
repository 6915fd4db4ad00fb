/* run_folder.c - see run_folder.h. */
#include "run_folder.h"
#include "elf_syms.h"
#include "ts_file.h"
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ts_file_fnv1a64(const char *path, uint64_t *hash) {
    char err[256];
    FILE *f = ts_fopen_input(path, err, sizeof err); /* a regular file, never blocking */
    if (!f) {
        errno = EINVAL;
        return -1;
    }
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64: offset basis, prime 2^40 + 0x1b3 */
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++) h = (h ^ buf[i]) * 0x100000001b3ull;
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        errno = EIO;
        return -1;
    }
    *hash = h;
    return 0;
}

bool ts_is_dir(const char *path) {
    struct stat sb;
    return !stat(path, &sb) && S_ISDIR(sb.st_mode);
}

static bool is_file(const char *path) {
    struct stat sb;
    return !stat(path, &sb) && S_ISREG(sb.st_mode) && !access(path, R_OK);
}

bool ts_run_stat(const char *run_dir, const char *key, char *out, size_t len) {
    char path[4200], line[4400];
    if (!run_dir || !*run_dir) return false;
    snprintf(path, sizeof path, "%s/stats.txt", run_dir);
    char e[300];
    FILE *f = ts_fopen_input(path, e, sizeof e); /* a FIFO or folder: no stats.txt */
    if (!f) return false;
    size_t kl = strlen(key);
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kl) || line[kl] != ' ') continue;
        line[strcspn(line, "\r\n")] = 0;
        found = (size_t)snprintf(out, len, "%s", line + kl + 1) < len && out[0];
    }
    fclose(f);
    return found;
}

int ts_rel_path(const char *from, const char *to, char *rel, size_t len) {
    /* the longest common prefix of whole components */
    size_t common = 0, i = 0;
    while (from[i] && from[i] == to[i]) {
        i++;
        if (from[i - 1] == '/') common = i;
    }
    if (!from[i] && (to[i] == '/' || !to[i])) common = i;
    else if (!from[i] && i && from[i - 1] == '/')
        common = i;
    size_t k = 0;
    rel[0] = 0;
    for (const char *p = from + common; *p;) { /* one ".." per component of from left */
        if (*p == '/') {
            p++;
            continue;
        }
        if (k + 3 >= len) return -1;
        memcpy(rel + k, "../", 4);
        k += 3;
        while (*p && *p != '/') p++;
    }
    const char *rest = to + common;
    while (*rest == '/') rest++;
    int n = snprintf(rel + k, len - k, "%s", rest);
    if (n < 0 || (size_t)n >= len - k) return -1;
    if (!rel[0]) snprintf(rel, len, ".");
    else if (rel[strlen(rel) - 1] == '/')
        rel[strlen(rel) - 1] = 0;
    return 0;
}

void ts_run_arg(const char *arg, ts_run_arg_t *ra) {
    memset(ra, 0, sizeof *ra);
    ra->is_dir = ts_is_dir(arg);
    if (ra->is_dir) {
        snprintf(ra->run_dir, sizeof ra->run_dir, "%s", arg);
        snprintf(ra->trace, sizeof ra->trace, "%s/trace.rtd", arg);
        return;
    }
    snprintf(ra->trace, sizeof ra->trace, "%s", arg);
    char dir[4096], stats[4200];
    snprintf(dir, sizeof dir, "%s", arg);
    char *sl = strrchr(dir, '/');
    if (sl) *sl = 0;
    else
        snprintf(dir, sizeof dir, ".");
    snprintf(stats, sizeof stats, "%s/stats.txt", dir);
    if (is_file(stats)) snprintf(ra->run_dir, sizeof ra->run_dir, "%s", dir);
}

/* the recorded hash (have: stats.txt has one) */
static bool recorded_hash(const char *run_dir, uint64_t *h) {
    char v[64], *end;
    if (!ts_run_stat(run_dir, "elf_fnv1a64", v, sizeof v)) return false;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 16);
    if (errno || *end || end == v) return false;
    *h = x;
    return true;
}

/* the warning for an ELF that is not the one that ran; not for a file that is no readable ELF
 * (the caller's reader says why in one line) */
static void mismatch(const char *elf, const char *run_dir, const char *elf_ran) {
    elf_syms_t syms;
    char err[512];
    if (elf_syms_load(&syms, elf, err, sizeof err)) return;
    elf_syms_free(&syms);
    fprintf(stderr, "tracesim: warning: %s is not the ELF that ran in %s (its hash differs from stats.txt's elf_fnv1a64; "
                    "the run was of %s): function names and checks may be wrong\n",
            elf, run_dir, elf_ran);
}

int ts_run_elf(const char *run_dir, const char *override, char *out, size_t len, char *err, size_t errlen) {
    uint64_t want = 0, h;
    bool have = run_dir && *run_dir && recorded_hash(run_dir, &want);
    char ran[4200] = "";
    if (!run_dir || !*run_dir || !ts_run_stat(run_dir, "elf", ran, sizeof ran)) snprintf(ran, sizeof ran, "?");
    if (override) {
        int fd = ts_open_input(override, err, errlen);
        if (fd < 0) return -1;
        close(fd);
        snprintf(out, len, "%s", override);
        if (have && (ts_file_fnv1a64(override, &h) || h != want)) mismatch(override, run_dir, ran);
        return 1;
    }
    if (!run_dir || !*run_dir) {
        snprintf(err, errlen, "no run folder to find the ELF in; give it with --elf FW.elf");
        return 0;
    }
    char cand[4][4400], rel[4200];
    unsigned nc = 0;
    if (ts_run_stat(run_dir, "elf_rel", rel, sizeof rel))
        snprintf(cand[nc++], sizeof cand[0], rel[0] == '/' ? "%.0s%s" : "%s/%s", run_dir, rel);
    if (strcmp(ran, "?")) snprintf(cand[nc++], sizeof cand[0], "%s", ran);
    if (strcmp(ran, "?")) {
        const char *base = strrchr(ran, '/');
        base = base ? base + 1 : ran;
        if (*base) {
            snprintf(cand[nc++], sizeof cand[0], "%s/%s", run_dir, base);
            snprintf(cand[nc++], sizeof cand[0], "%s/../%s", run_dir, base);
        }
    }
    int first = -1;
    for (unsigned i = 0; i < nc; i++) {
        if (!is_file(cand[i])) continue;
        if (first < 0) first = (int)i;
        if (!have) break;
        if (!ts_file_fnv1a64(cand[i], &h) && h == want) {
            first = (int)i;
            break;
        }
    }
    if (first < 0) {
        if (strcmp(ran, "?"))
            snprintf(err, errlen, "cannot find the ELF of %s (stats.txt: elf %s); give it with --elf FW.elf", run_dir, ran);
        else
            snprintf(err, errlen, "%s/stats.txt names no ELF; give it with --elf FW.elf", run_dir);
        return 0;
    }
    char real[4096]; /* the path without detours */
    snprintf(out, len, "%s", realpath(cand[first], real) ? real : cand[first]);
    if (have && (ts_file_fnv1a64(out, &h) || h != want)) mismatch(out, run_dir, ran);
    return 1;
}

int ts_run_path(const char *run_dir, const char *key, char *out, size_t len) {
    char k[64], v[4200];
    snprintf(k, sizeof k, "%s_rel", key);
    bool any = false;
    if (ts_run_stat(run_dir, k, v, sizeof v)) {
        any = true;
        snprintf(out, len, v[0] == '/' ? "%.0s%s" : "%s/%s", run_dir, v);
        if (is_file(out)) return 1;
    }
    if (ts_run_stat(run_dir, key, v, sizeof v)) {
        if (!any) snprintf(out, len, "%s", v);
        any = true;
        if (is_file(v)) {
            snprintf(out, len, "%s", v);
            return 1;
        }
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", run_dir, v);
        if (v[0] != '/' && is_file(p)) {
            snprintf(out, len, "%s", p);
            return 1;
        }
        snprintf(out, len, "%s", v);
    }
    return any ? 0 : -1;
}

/* ---- a run that did not finish ------------------------------------------------------------ */

/* the last line of RUN/stats.txt (at most len - 1 bytes, no newline); false if no such file */
static bool stats_last_line(const char *run_dir, char *out, size_t len) {
    char path[4200], line[4400], e[300];
    snprintf(path, sizeof path, "%s/stats.txt", run_dir);
    FILE *f = ts_fopen_input(path, e, sizeof e);
    if (!f) return false;
    out[0] = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        snprintf(out, len, "%s", line);
    }
    fclose(f);
    return true;
}

enum ts_run_finish ts_run_unfinished(const char *run_dir, char *msg, size_t len) {
    char last[256], path[4200];
    msg[0] = 0;
    if (!run_dir || !*run_dir) return TS_RUN_FINISHED;
    if (!stats_last_line(run_dir, last, sizeof last)) {
        snprintf(path, sizeof path, "%s/uart.txt", run_dir); /* made when a run starts */
        struct stat sb;
        bool started = !lstat(path, &sb) && S_ISREG(sb.st_mode); /* a link or FIFO is no run's uart.txt */
        /* or the temporary files a killed run leaves (its outputs are renamed into place only
         * when complete, runfolder/ts_file.h) */
        for (size_t i = 0; !started && ts_run_outputs[i]; i++) started = ts_stale_tmp_count(run_dir, ts_run_outputs[i]) > 0;
        if (!started) return TS_RUN_FINISHED; /* no run folder: the caller's reader says */
        snprintf(msg, len, "%s: the run did not finish (killed before it wrote stats.txt): "
                           "its files are incomplete; run it again",
                 run_dir);
        return TS_RUN_INCOMPLETE;
    }
    if (strcmp(last, TS_STATS_END)) {
        snprintf(msg, len, "%s: the run did not finish (killed while it ran: stats.txt has no end marker '%s'): "
                           "its files are incomplete; run it again",
                 run_dir, TS_STATS_END);
        return TS_RUN_INCOMPLETE;
    }
    char reason[64], cycle[32] = "?", by[32] = "a signal";
    if (ts_run_stat(run_dir, "exit_reason", reason, sizeof reason) && !strcmp(reason, "interrupted")) {
        if (!ts_run_stat(run_dir, "interrupted_cycle", cycle, sizeof cycle) || strspn(cycle, "0123456789") != strlen(cycle))
            snprintf(cycle, sizeof cycle, "?");
        if (!ts_run_stat(run_dir, "interrupted_by", by, sizeof by) || (strcmp(by, "SIGINT") && strcmp(by, "SIGTERM")))
            snprintf(by, sizeof by, "a signal");
        snprintf(msg, len, "%s: the run did not finish (interrupted by %s at cycle %s): its files end at that cycle",
                 run_dir, by, cycle);
        return TS_RUN_INTERRUPTED;
    }
    return TS_RUN_FINISHED;
}

/* a line on stderr with control characters as \xNN (a run folder's name is the user's) */
static void put_escaped(const char *m, FILE *f) {
    for (const unsigned char *c = (const unsigned char *)m; *c; c++)
        if (*c < 0x20 || *c == 0x7f) fprintf(f, "\\x%02x", *c);
        else
            fputc(*c, f);
}

enum ts_run_finish ts_run_say_unfinished(const char *run_dir) { return ts_run_say_unfinished_then(run_dir, NULL); }

enum ts_run_finish ts_run_say_unfinished_then(const char *run_dir, const char *then) {
    char msg[4600];
    enum ts_run_finish r = ts_run_unfinished(run_dir, msg, sizeof msg);
    if (r != TS_RUN_FINISHED) {
        if (then) { /* the same line up to the reason's ')', then the caller's words */
            char *b = strstr(msg, ": the run did not finish ("), *e = b ? strstr(b, "): ") : NULL;
            if (e) snprintf(e + 3, sizeof msg - (size_t)(e + 3 - msg), "%s", then);
        }
        fprintf(stderr, "tracesim: ");
        put_escaped(msg, stderr);
        fputc('\n', stderr);
    }
    return r;
}

const char *const ts_run_outputs[] = {
    "stats.txt", "uart.txt", "marks.csv", "guest_errors.log", "waves_windows.csv", "prog_flow.csv", "hpm.csv",
    "events.csv", "trace.rtd", "trace.json", "itc.csv", "counters.csv", "flow.csv", "trace_events.csv", "stm.csv",
    "hooks.csv", "hpm_writes.csv", "traps.csv", "perf_config.txt", "gdb.log", NULL};
const char *const ts_run_derived_outputs[] = {/* tracesim waves --no-gui / waves */
                                              "markers.txt", "markers.tcl", "view.gtkw", "view.gtkw.new", "make_view.sh", NULL};

/* a relative name inside the folder: no leading '/', no ".." component */
static bool inside_name(const char *p) {
    if (!*p || *p == '/') return false;
    for (const char *c = p; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 2 && c[0] == '.' && c[1] == '.') return false;
        c += n;
        while (*c == '/') c++;
    }
    return true;
}

int ts_run_clear_previous(const char *run_dir, char *err, size_t errlen) {
    char path[4200], waves[4096] = "";
    struct stat st;
    bool had_run = false; /* only a folder an earlier run wrote: stats.txt or uart.txt, regular files */
    for (int i = 0; i < 2 && !had_run; i++) {
        snprintf(path, sizeof path, "%s/%s", run_dir, i ? "uart.txt" : "stats.txt");
        had_run = !lstat(path, &st) && S_ISREG(st.st_mode);
    }
    for (size_t i = 0; !had_run && ts_run_outputs[i]; i++) had_run = ts_stale_tmp_count(run_dir, ts_run_outputs[i]) > 0;
    if (!had_run) return 0;
    /* the earlier run's waves, if inside the folder: recorded before stats.txt goes */
    if (ts_run_stat(run_dir, "waves_rel", waves, sizeof waves) && !inside_name(waves)) waves[0] = 0;
    for (int list = 0; list < 3; list++) {
        const char *const *names = list == 0 ? ts_run_outputs : list == 1 ? ts_run_derived_outputs :
                                                                            NULL;
        char tmpw[4200]; /* a VCD's FST while the run goes (sim/soc.c) */
        snprintf(tmpw, sizeof tmpw, "%s.tmp.fst", waves);
        const char *one[] = {waves, tmpw, NULL};
        if (list == 2) {
            if (!waves[0]) break;
            names = one;
        }
        for (size_t i = 0; names[i]; i++) {
            if (names[i][0] && ts_stale_tmp_remove(run_dir, names[i])) { /* a killed writer's temporary files */
                snprintf(err, errlen, "cannot remove the temporary files of %s of the earlier run in %s: %s", names[i], run_dir,
                         strerror(errno));
                return -1;
            }
            snprintf(path, sizeof path, "%s/%s", run_dir, names[i]);
            struct stat sb;
            if (lstat(path, &sb)) continue;
            if (S_ISDIR(sb.st_mode)) continue; /* a folder of that name is no output of ours */
            if (unlink(path) && errno != ENOENT) {
                snprintf(err, errlen, "cannot remove %s of the earlier run in %s: %s", names[i], run_dir, strerror(errno));
                return -1;
            }
        }
    }
    return 0;
}
