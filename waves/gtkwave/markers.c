/* markers.c - named points in time of a run and `tracesim waves`; see markers.h. */
#include "markers.h"
#include "ts_text.h"
#include "run_folder.h"
#include "run_losses.h"
#include "run_trace.h"
#include "elf_syms.h"
#include "perf_decode.h"
#include "stmfilter.h"
#include "ts_file.h"
#include "ts_opts.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef TS_WAVES_DIR
#define TS_WAVES_DIR "waves"
#endif
#define MAX_PERF_FUNCS 4096

static ts_marker_t *add(ts_markers_t *ms, uint64_t cycle, int prio) {
    if (ms->n == ms->cap) {
        size_t cap = ms->cap ? 2 * ms->cap : 256;
        ts_marker_t *m = realloc(ms->m, cap * sizeof *m);
        if (!m) return NULL;
        ms->m = m;
        ms->cap = cap;
    }
    ts_marker_t *m = &ms->m[ms->n++];
    m->cycle = cycle;
    m->prio = prio;
    m->name[0] = 0;
    return m;
}

/* perf records of itc.csv: "fib enter #3" (numbered per type and function) */
typedef struct rec_ctx {
    ts_markers_t *ms;
    const elf_syms_t *syms;
    struct {
        uint64_t addr;
        unsigned type, count;
    } seen[MAX_PERF_FUNCS];
    size_t n_seen;
    bool oom;
} rec_ctx_t;

static void on_record(void *ctx, const perf_record_t *r) {
    rec_ctx_t *c = ctx;
    uint64_t addr = r->has_addr ? r->addr : 0;
    unsigned k = 0;
    size_t i;
    for (i = 0; i < c->n_seen; i++)
        if (c->seen[i].addr == addr && c->seen[i].type == (unsigned)r->type) break;
    if (i == c->n_seen && c->n_seen < MAX_PERF_FUNCS) {
        c->seen[i].addr = addr;
        c->seen[i].type = (unsigned)r->type;
        c->seen[i].count = 0;
        c->n_seen++;
    }
    if (i < c->n_seen) k = ++c->seen[i].count;
    ts_marker_t *m = add(c->ms, r->tics, 3);
    if (!m) {
        c->oom = true;
        return;
    }
    const char *fn = r->has_addr && c->syms ? elf_syms_find(c->syms, addr) : NULL;
    char where[64];
    if (fn) snprintf(where, sizeof where, "%s", fn);
    else if (r->has_addr)
        snprintf(where, sizeof where, "0x%08" PRIx64, addr);
    else
        snprintf(where, sizeof where, "?");
    snprintf(m->name, sizeof m->name, "hart %u %s %s #%u", r->core, where, perf_record_name(r->type), k);
}
static void on_header(void *ctx, const perf_header_t *h) {
    (void)ctx;
    (void)h;
}
static void on_error(void *ctx, unsigned core, uint64_t off, const char *what) {
    (void)ctx;
    (void)core;
    (void)off;
    (void)what;
}

static int cmp_marker(const void *a, const void *b) {
    const ts_marker_t *x = a, *y = b;
    if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
    return x->prio - y->prio;
}

/* waves_windows.csv (sim/soc.c: "from,to", a row per dumped stretch, cycles [from, to)), if
 * the run folder has one; a damaged file is an error with its file and line */
static int read_windows(ts_markers_t *ms, const char *run_dir, char *err, size_t errlen) {
    char path[4200], line[256];
    snprintf(path, sizeof path, "%s/waves_windows.csv", run_dir);
    if (access(path, F_OK)) return 0; /* an older run folder: all markers */
    FILE *f = ts_fopen_input(path, err, errlen);
    if (!f) return -1;
    ms->have_windows = true;
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long from, to;
        int n = 0;
        if (++lineno == 1) {
            if (strcmp(line, "from,to\n")) {
                fclose(f);
                snprintf(err, errlen, "%s:1: not the header of waves_windows.csv (from,to)", path);
                return -1;
            }
            continue;
        }
        if (line[0] == '-' || strchr(line, '-') || sscanf(line, "%llu,%llu%n", &from, &to, &n) != 2 || line[n] != '\n' ||
            from >= to || to == ULLONG_MAX || (ms->nwin && from < ms->win[ms->nwin - 1].to)) {
            fclose(f);
            snprintf(err, errlen, "%s:%u: malformed row (from,to: cycles, from < to, after the row before)", path, lineno);
            return -1;
        }
        ts_waves_win_t *nw = realloc(ms->win, (ms->nwin + 1) * sizeof *nw);
        if (!nw) {
            fclose(f);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        ms->win = nw;
        ms->win[ms->nwin++] = (ts_waves_win_t){from, to};
    }
    fclose(f);
    if (!lineno) {
        snprintf(err, errlen, "%s:1: not the header of waves_windows.csv (from,to)", path);
        return -1;
    }
    return 0;
}

int ts_markers_read(ts_markers_t *ms, const char *run_dir, const char *elf, char *err, size_t errlen) {
    memset(ms, 0, sizeof *ms);
    char path[4200], line[512];
    /* MARK writes */
    snprintf(path, sizeof path, "%s/marks.csv", run_dir);
    char e[4400];
    FILE *f = ts_fopen_input(path, e, sizeof e);
    if (!f) {
        snprintf(err, errlen, "%s (not a run folder?)", e);
        return -1;
    }
    /* rows must parse under the file's header: a damaged or forged file is an error with its
     * file and line, never rows skipped quietly */
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long v, hart = 0, cycle, instret; /* 64-bit fields, then ranges: no wrap */
        int n = 0;
        if (++lineno == 1) {
            if (strncmp(line, "value,cycle,instret", 19)) {
                fclose(f);
                snprintf(err, errlen, "%s:1: not the header of marks.csv (value,cycle,instret,hart)", path);
                return -1;
            }
            continue;
        }
        if (line[0] == '-' || sscanf(line, "%llu,%llu,%llu,%llu%n", &v, &cycle, &instret, &hart, &n) < 4 || strchr(line, '-') ||
            (line[n] && line[n] != '\n' && line[n] != '\r') || v > 0xFFFFFFFFull || hart > 7 || cycle == ULLONG_MAX) {
            fclose(f);
            snprintf(err, errlen, "%s:%u: malformed row (value,cycle,instret,hart expected)", path, lineno);
            return -1;
        }
        ts_marker_t *m = add(ms, cycle, 2);
        if (!m) {
            fclose(f);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        snprintf(m->name, sizeof m->name, "hart %llu MARK %llu", hart, v);
    }
    fclose(f);
    /* ITC stores and software trace events lost, and the sink stopping */
    snprintf(path, sizeof path, "%s/trace_events.csv", run_dir);
    bool have_events = !access(path, F_OK); /* optional; a FIFO or folder is refused */
    if (have_events && !(f = ts_fopen_input(path, err, errlen))) return -1;
    if (have_events) {
        lineno = 0;
        while (fgets(line, sizeof line, f)) {
            unsigned long long cycle, hart, detail; /* 64-bit fields, then ranges: no wrap */
            int n = 0;
            char ev[32];
            if (++lineno == 1) {
                if (strncmp(line, "cycle,hart,event,detail", 23)) {
                    fclose(f);
                    snprintf(err, errlen, "%s:1: not the header of trace_events.csv (cycle,hart,event,detail)", path);
                    return -1;
                }
                continue;
            }
            if (sscanf(line, "%llu,%llu,%31[a-z_],%llu%n", &cycle, &hart, ev, &detail, &n) != 4 || hart > 7 ||
                detail > 0xFFFFFFFFull || cycle == ULLONG_MAX ||
                strchr(line, '-') || (line[n] && line[n] != '\n' && line[n] != '\r')) {
                fclose(f);
                snprintf(err, errlen, "%s:%u: malformed row (cycle,hart,event,detail expected, hart 0..7)", path, lineno);
                return -1;
            }
            bool stop = !strcmp(ev, "sink_stopped");
            ts_marker_t *m = add(ms, cycle, stop ? 0 : 1);
            if (!m) {
                fclose(f);
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            if (stop) {
                snprintf(m->name, sizeof m->name, "trace sink stopped (buffer full, stop on wrap)");
            } else if (!strcmp(ev, "stm_lost")) { /* detail: the event id */
                char hex[16], id[48];
                snprintf(hex, sizeof hex, "%llx", detail);
                ts_stmfilter_line(hex, id, sizeof id);
                snprintf(m->name, sizeof m->name, "hart %llu software trace event %s lost (FIFO full)", hart, id);
            } else if (!strcmp(ev, "itc_lost")) {
                snprintf(m->name, sizeof m->name, "hart %llu ITC store to channel %llu lost (FIFO full)", hart, detail);
            } else {
                snprintf(m->name, sizeof m->name, "hart %llu %s %llu", hart, ev, detail);
            }
        }
        fclose(f);
    }
    /* perf records, decoded from the stores the encoders accepted, stamped with their cycle */
    elf_syms_t syms = {0};
    if (elf && elf_syms_load(&syms, elf, err, errlen)) return -1; /* an ELF it cannot read: said, not unnamed */
    bool have_syms = elf != NULL;
    rec_ctx_t *rc = calloc(1, sizeof *rc);
    perf_dec_t *pd = calloc(1, sizeof *pd);
    snprintf(path, sizeof path, "%s/itc.csv", run_dir);
    bool bad_itc = false;
    if (rc && pd && (f = ts_fopen_input(path, e, sizeof e))) {
        unsigned channel = 6;
        char cpath[4200];
        perf_header_t hdr[8];
        snprintf(cpath, sizeof cpath, "%s/perf_config.txt", run_dir);
        char cerr[256];
        if (access(cpath, R_OK) == 0) ts_read_perf_config(cpath, hdr, 8, &channel, cerr, sizeof cerr);
        rc->ms = ms;
        rc->syms = have_syms ? &syms : NULL;
        perf_dec_cb_t cb = {rc, on_header, on_record, on_error};
        perf_dec_init(pd, channel, &cb);
        unsigned itc_line = 1;
        if (!fgets(line, sizeof line, f)) line[0] = 0; /* the column names */
        while (fgets(line, sizeof line, f)) {
            ts_itc_row_t r;
            itc_line++;
            if (!ts_itc_row(line, &r)) { /* a damaged itc.csv: say where */
                snprintf(err, errlen, "%s:%u: not an itc.csv row", path, itc_line);
                bad_itc = true;
                break;
            }
            if (r.status != TS_ITC_TRACED) continue;
            perf_dec_feed_store(pd, r.hart, r.stim, r.off, r.value, r.cycle);
        }
        perf_dec_finish(pd);
        fclose(f);
    }
    bool oom = !rc || !pd || rc->oom;
    free(rc);
    free(pd);
    if (have_syms) elf_syms_free(&syms);
    if (bad_itc) return -1;
    if (oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (ms->n) qsort(ms->m, ms->n, sizeof *ms->m, cmp_marker); /* no markers: m may be NULL */
    if (read_windows(ms, run_dir, err, errlen)) {
        ts_markers_free(ms);
        return -1;
    }
    if (ms->have_windows) { /* only what the waves show: markers in a stretch */
        size_t k = 0, w = 0;
        for (size_t i = 0; i < ms->n; i++) {
            while (w < ms->nwin && ms->win[w].to <= ms->m[i].cycle) w++;
            if (w < ms->nwin && ms->win[w].from <= ms->m[i].cycle) ms->m[k++] = ms->m[i];
        }
        ms->outside = ms->n - k;
        ms->n = k;
    }
    return 0;
}

int ts_waves_focus(const ts_markers_t *ms, bool has_at, uint64_t at, ts_waves_focus_t *f, char *err, size_t errlen) {
    const ts_waves_win_t *w = NULL;
    /* the first trace stop or loss (the markers are in time order), else the first perf
     * record, else the first marker (a MARK), else the start of the dump */
    const ts_marker_t *first = NULL;
    for (int want = 0; want < 3 && !first; want++)
        for (size_t i = 0; i < ms->n && !first; i++)
            if (want == 0 ? ms->m[i].prio <= 1 : want == 1 ? ms->m[i].prio == 3 :
                                                             true) first = &ms->m[i];
    if (has_at) f->cycle = at;
    else if (first)
        f->cycle = first->cycle;
    else
        f->cycle = ms->nwin ? ms->win[0].from : 0;
    for (size_t i = 0; i < ms->nwin && !w; i++)
        if (ms->win[i].from <= f->cycle && f->cycle < ms->win[i].to) w = &ms->win[i];
    if (has_at && ms->have_windows && !w) {
        if (!ms->nwin) snprintf(err, errlen, "--at %" PRIu64 ": the run dumped no cycle (waves_windows.csv is empty)", at);
        else
            snprintf(err, errlen, "--at %" PRIu64 ": that cycle was not dumped (the waves hold %zu stretch(es), the first "
                                  "cycles %" PRIu64 " to %" PRIu64 ", the last %" PRIu64 " to %" PRIu64 ")",
                     at, ms->nwin,
                     ms->win[0].from, ms->win[0].to - 1, ms->win[ms->nwin - 1].from, ms->win[ms->nwin - 1].to - 1);
        return -1;
    }
    /* TS_WAVES_ZOOM cycles, TS_WAVES_BEFORE of them before the cycle, within its stretch: at
     * GTKWave's default window width a cycle is then wide enough for a PC as function+offset
     * or a 32-bit value in hex (40 cycles cut them to `wri+`, `800+`) */
    uint64_t lo = w ? w->from : 0, hi = w ? w->to : UINT64_MAX;
    f->from = f->cycle - lo > TS_WAVES_BEFORE ? f->cycle - TS_WAVES_BEFORE : lo;
    f->to = hi - f->from > TS_WAVES_ZOOM ? f->from + TS_WAVES_ZOOM : hi;
    if (f->to - f->from < TS_WAVES_ZOOM && hi - lo >= TS_WAVES_ZOOM) f->from = f->to - TS_WAVES_ZOOM; /* near the stretch's end */
    return 0;
}

void ts_markers_free(ts_markers_t *ms) {
    free(ms->m);
    free(ms->win);
    memset(ms, 0, sizeof *ms);
}

void ts_tcl_word(FILE *f, const char *s) {
    bool braces = true; /* braces keep everything literal but braces, \ and newlines */
    for (const unsigned char *p = (const unsigned char *)s; *p && braces; p++)
        braces = *p != '{' && *p != '}' && *p != '\\' && *p >= 0x20 && *p != 0x7f;
    if (braces) {
        fprintf(f, "{%s}", s);
        return;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (isalnum(*p) || *p >= 0x80 || strchr("_.,:/+=-", *p)) fputc(*p, f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\%03o", *p); /* exactly three octal digits */
        else {
            fputc('\\', f);
            fputc(*p, f);
        } /* \{ \} \[ \$ \" \\ \; \  ... */
    }
}

void ts_log_text(FILE *f, const char *s) { ts_text_put(f, s); } /* the shared escaping (ts_text.h) */

int ts_markers_write(const ts_markers_t *ms, const ts_waves_focus_t *fo, const char *dir, char *err, size_t errlen) {
    ts_losses_t loss; /* what the trace lacks (docs/lost-data.md); damaged: an error */
    if (ts_losses_read(dir, -1, &loss, err, errlen)) return -2;
    char path[4200];
    snprintf(path, sizeof path, "%s/markers.txt", dir);
    FILE *f = ts_fopen_output(path, "w", err, errlen); /* a temporary file renamed over it (ts_file.h) */
    if (!f) return -1;
    fputs("# tracesim markers: the cycle (the waves' time: one unit per cycle), then what happened;\n"
          "# in GTKWave's log viewer (tracesim waves opens it) a click on the cycle moves the marker there\n",
          f);
    if (ms->outside)
        fprintf(f, "# %zu marker(s) outside the dumped stretches of the waves (waves_windows.csv) left out\n", ms->outside);
    ts_losses_print(f, "# loss: ", &loss);
    for (size_t i = 0; i < ms->n; i++) {
        fprintf(f, "%" PRIu64 "  ", ms->m[i].cycle);
        ts_log_text(f, ms->m[i].name);
        fputc('\n', f);
    }
    if (ts_fclose_output(f, path, err, errlen)) return -1; /* write errors included */
    /* named markers A..Z: the most important first (stop, losses, MARKs, records), then by time */
    size_t pick[26], np = 0;
    for (int prio = 0; prio <= 3 && np < 26; prio++)
        for (size_t i = 0; i < ms->n && np < 26; i++)
            if (ms->m[i].prio == prio) pick[np++] = i;
    for (size_t a = 1; a < np; a++) /* A..Z in time order */
        for (size_t b = a; b > 0 && pick[b] < pick[b - 1]; b--) {
            size_t t = pick[b];
            pick[b] = pick[b - 1];
            pick[b - 1] = t;
        }
    snprintf(path, sizeof path, "%s/markers.tcl", dir);
    if (!(f = ts_fopen_output(path, "w", err, errlen))) return -1;
    fputs("# tracesim: named markers A..Z for GTKWave (gtkwave -S markers.tcl)\n", f);
    for (size_t i = 0; i < np; i++) {
        const ts_marker_t *m = &ms->m[pick[i]];
        fprintf(f, "gtkwave::setNamedMarker %c %" PRIu64 " ", (char)('A' + i), m->cycle);
        ts_tcl_word(f, m->name);
        fputc('\n', f);
    }
    if (fo) /* open on the region of interest */
        fprintf(f, "gtkwave::setZoomRangeTimes %" PRIu64 " %" PRIu64 "\ngtkwave::setMarker %" PRIu64 "\n", fo->from, fo->to, fo->cycle);
    if (ts_fclose_output(f, path, err, errlen)) return -1; /* write errors included */
    return 0;
}

/* s as one shell word: as it is when it has only [A-Za-z0-9_./+,:@%=-], else single-quoted */
static void sh_word(FILE *f, const char *s) {
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+,:@%=-") == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'') fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* GTKWave reads its save file's lines into a fixed buffer and crashes (stack smashing) on a
 * line of about 4000 characters: no line of a view may be longer than this */
#define TS_VIEW_LINE_MAX 1024
/* the longest line of the file open as fd (read from its start) */
static size_t longest_line(int fd) {
    char b[65536];
    size_t cur = 0, max = 0;
    off_t off = 0;
    ssize_t n;
    while ((n = pread(fd, b, sizeof b, off)) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            if (b[i] == '\n') {
                if (cur > max) max = cur;
                cur = 0;
            } else
                cur++;
        }
        off += n;
    }
    return cur > max ? cur : max;
}

/* a path GTKWave may run as a filter: it passes the view line to /bin/sh, split at blanks,
 * so only these characters (make_view.sh's safe_path; another path is left to make_view.sh,
 * which says in one line that the names are off) */
static bool view_safe_path(const char *p) {
    if (!*p || *p == '-') return false;
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("_./+,:@%=-", *p)))
            return false;
    return true;
}

/* a GTKWave process filter: "#!/bin/sh\nexec TRACESIM CMD [ELF]\n", every path one shell word */
static int write_filter(const char *path, const char *self, const char *cmd, const char *elf, char *err, size_t errlen) {
    FILE *f = ts_fopen_output(path, "wx", err, errlen);
    if (!f) return -1;
    fputs("#!/bin/sh\nexec ", f);
    sh_word(f, self);
    fprintf(f, " %s", cmd);
    if (elf) {
        fputc(' ', f);
        sh_word(f, elf);
    }
    fputc('\n', f);
    return ts_fclose_output(f, path, err, errlen);
}

/* runs argv with its stdout to out_fd (-1: ours); its exit status or -1 */
static int run_wait(char *const argv[], int out_fd) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (out_fd >= 0) posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    pid_t pid;
    int st = 0, r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (r || waitpid(pid, &st, 0) < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* 0 when the file at path starts as an FST (its header block: type 0, section length 329,
 * big-endian) or a VCD (a '$' keyword after blanks) does; else -1 with the reason in err */
static int waves_file_ok(const char *path, char *err, size_t errlen) {
    int fd = ts_open_input(path, err, errlen);
    if (fd < 0) return -1;
    unsigned char b[64];
    ssize_t n = read(fd, b, sizeof b);
    close(fd);
    if (n < 0) {
        snprintf(err, errlen, "cannot read the run's waves %s: %s", path, strerror(errno));
        return -1;
    }
    static const unsigned char fst_hdr[9] = {0, 0, 0, 0, 0, 0, 0, 0x01, 0x49};
    if (n >= 9 && !memcmp(b, fst_hdr, sizeof fst_hdr)) return 0;
    ssize_t i = 0;
    while (i < n && isspace(b[i])) i++;
    if (i < n && b[i] == '$') return 0;
    snprintf(err, errlen, "the run's waves %s are not an FST or VCD file (%s)", path,
             n == 0 ? "empty" : "damaged or something else");
    return -1;
}

int ts_waves_run(const ts_waves_cfg_t *cfg) {
    const char *run = cfg->run, *view = cfg->view, *hart = cfg->hart, *elf_opt = cfg->elf;
    bool gui = cfg->gui;
    /* the waves and the ELF through stats.txt, from wherever the run folder is now
     * (run_folder.h); no ELF: PCs stay numbers */
    char waves[4400], elf[4400], err[4600];
    if (!ts_is_dir(run)) {
        fprintf(stderr, "tracesim: waves needs a run folder: %s is not a folder\n", run);
        return TS_EXIT_NO_FILE;
    }
    if (ts_run_folder_check(run, err, sizeof err)) { /* the strict reader (ts_file.h) */
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    if (ts_run_say_unfinished(run) == TS_RUN_INCOMPLETE) return TS_EXIT_NO_FILE;
    int wr = ts_run_path(run, "waves", waves, sizeof waves);
    if (wr < 0) {
        fprintf(stderr, "tracesim: %s/stats.txt names no waves (run with --waves FILE)\n", run);
        return TS_EXIT_NO_FILE;
    }
    if (wr == 0) {
        fprintf(stderr, "tracesim: cannot open the run's waves %s: %s\n", waves, strerror(ENOENT));
        return TS_EXIT_NO_FILE;
    }
    if (waves_file_ok(waves, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    if (waves[0] == '-') { /* a name GTKWave and fst2vcd would take as an option */
        memmove(waves + 2, waves, strnlen(waves, sizeof waves - 3) + 1);
        memcpy(waves, "./", 2);
        waves[sizeof waves - 1] = 0;
    }
    int er = ts_run_elf(run, elf_opt, elf, sizeof elf, err, sizeof err);
    if (er < 0) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    /* the view: make_view.sh, with this tracesim as the PC filter, from $TRACESIM_WAVES_DIR,
     * else an installed tree's (BINDIR/../share/tracesim/waves), else the source tree's */
    char mv[4200], gtkw[4400], self[4096], mtxt[4400], mtcl[4400], inst[4200];
    const char *wdir = getenv("TRACESIM_WAVES_DIR");
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl > 0) self[sl] = 0;
    if (!wdir && sl > 0 && strrchr(self, '/')) {
        snprintf(inst, sizeof inst, "%.*s/../share/tracesim/waves", (int)(strrchr(self, '/') - self), self);
        snprintf(mv, sizeof mv, "%s/make_view.sh", inst);
        if (!access(mv, R_OK)) wdir = inst;
    }
    if (!wdir) wdir = TS_WAVES_DIR;
    /* VIEW and HART before anything is written: one line, nothing left in the run folder */
    {
        char vf[4400], nh[32];
        bool name_ok = *view != 0;
        for (const char *p = view; *p; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) name_ok = false;
        snprintf(vf, sizeof vf, "%s/views/%s.gtkw", wdir, view);
        if (!name_ok || (strcmp(view, "harts") && access(vf, R_OK))) {
            fprintf(stderr, "tracesim: waves: no view '%s' (pipeline, bus, trace, hpm, harts)\n", view);
            return TS_EXIT_USAGE;
        }
        bool hart_ok = *hart != 0 && strlen(hart) < 4;
        for (const char *p = hart; *p; p++)
            if (*p < '0' || *p > '9') hart_ok = false;
        if (!hart_ok) {
            fprintf(stderr, "tracesim: waves: HART must be a hart number, not '%s'\n", hart);
            return TS_EXIT_USAGE;
        }
        /* stats.txt without harts (an older run): the view script checks the range */
        if (ts_run_stat(run, "harts", nh, sizeof nh) && (unsigned long)atoi(hart) >= strtoul(nh, NULL, 10)) {
            fprintf(stderr, "tracesim: waves: no hart %s: the run has %lu hart(s)\n", hart, strtoul(nh, NULL, 10));
            return TS_EXIT_USAGE;
        }
    }
    ts_markers_t ms;
    if (ts_markers_read(&ms, run, er ? elf : NULL, err, sizeof err)) { /* a run-folder file missing or damaged */
        fprintf(stderr, "tracesim: %s\n", err);
        ts_markers_free(&ms);
        return TS_EXIT_NO_FILE;
    }
    ts_waves_focus_t focus;
    if (ts_waves_focus(&ms, cfg->has_at, cfg->at, &focus, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        ts_markers_free(&ms);
        return TS_EXIT_USAGE;
    }
    int wrc = ts_markers_write(&ms, &focus, run, err, sizeof err);
    if (wrc) {
        fprintf(stderr, "tracesim: %s\n", err);
        ts_markers_free(&ms);
        return wrc == -2 ? TS_EXIT_NO_FILE : TS_EXIT_HOST; /* -2: a damaged trace.json / itc.csv */
    }
    size_t n = ms.n;
    ts_markers_free(&ms);
    snprintf(mv, sizeof mv, "%s/make_view.sh", wdir);
    snprintf(gtkw, sizeof gtkw, "%s/view.gtkw", run);
    snprintf(mtxt, sizeof mtxt, "%s/markers.txt", run);
    snprintf(mtcl, sizeof mtcl, "%s/markers.tcl", run);
    if (sl > 0) setenv("TRACESIM", self, 1);
    setenv("TS_VIEW_TMP", run, 1);
    /* the filter scripts GTKWave runs (PC names, software trace ids), written here through
     * the run-folder writer (ts_file.h: a planted link is replaced, never followed or
     * chmod-ed), not by make_view.sh */
    char rabs[PATH_MAX];
    /* a path GTKWave's view line cannot hold (TS_VIEW_LINE_MAX) is left to make_view.sh,
     * which says in one line that the names are off */
    if (sl > 0 && realpath(run, rabs) && strlen(rabs) + 20 <= 1000 && view_safe_path(rabs)) {
        char sp[PATH_MAX + 32], eabs[PATH_MAX];
        snprintf(sp, sizeof sp, "%s/stmfilter.sh", rabs);
        if (write_filter(sp, self, "stmfilter", NULL, err, sizeof err)) {
            fprintf(stderr, "tracesim: %s\n", err);
            return TS_EXIT_HOST;
        }
        setenv("TS_STMFILTER", sp, 1);
        if (er && realpath(elf, eabs)) {
            snprintf(sp, sizeof sp, "%s/symfilter.sh", rabs);
            if (write_filter(sp, self, "symfilter", eabs, err, sizeof err)) {
                fprintf(stderr, "tracesim: %s\n", err);
                return TS_EXIT_HOST;
            }
            setenv("TS_SYMFILTER", sp, 1);
        }
    }
    char start[32];
    snprintf(start, sizeof start, "%" PRIu64, focus.from);
    setenv("TS_VIEW_START", start, 1); /* the view's [timestart] */
    char *mva[] = {"bash", mv, waves, (char *)view, (char *)hart, NULL};
    /* view.gtkw stays until the new one is made: a temporary file of its own per process
     * (two waves at once on one folder each rename a whole view into place) */
    int gfd = ts_open_output(gtkw, 0666, err, sizeof err);
    if (gfd < 0) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_HOST;
    }
    if (run_wait(mva, gfd) != 0) {
        ts_output_abort_fd(gfd);
        fprintf(stderr, "tracesim: making the view '%s' failed (%s)\n", view, mv);
        return TS_EXIT_USAGE;
    }
    size_t longest = longest_line(gfd);
    if (longest > TS_VIEW_LINE_MAX) { /* GTKWave would overflow a buffer on it (stack smashing) */
        ts_output_abort_fd(gfd);
        fprintf(stderr, "tracesim: waves: the view has a line of %zu characters, more than GTKWave reads safely (%d); "
                        "use a shorter run-folder path\n",
                longest, TS_VIEW_LINE_MAX);
        return TS_EXIT_HOST;
    }
    if (ts_close_output(gfd, gtkw, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_HOST;
    }
    char *ga[] = {"gtkwave", waves, gtkw, "-S", mtcl, "-l", mtxt, NULL};
    if (!gui) {
        /* a command to copy and paste: every path one shell word */
        printf("%zu markers: %s, %s\ngtkwave", n, mtxt, mtcl);
        for (int i = 1; ga[i]; i++) {
            putchar(' ');
            sh_word(stdout, ga[i]);
        }
        putchar('\n');
        return 0;
    }
    execvp("gtkwave", ga);
    fprintf(stderr, "tracesim: cannot run gtkwave: %s (Debian package gtkwave)\n", strerror(errno));
    return TS_EXIT_HOST;
}
