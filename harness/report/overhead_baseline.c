/* overhead_baseline.c - `tracesim overhead --baseline PLAIN FW...`: the overhead of the user's
 * own builds. PLAIN and each FW are an ELF, run with this executable (`tracesim run -q`) into
 * OUTDIR/runs/NAME/ (NAME: the ELF's file name without extension, -2, -3... if taken), or the
 * run folder of an earlier run, read as it is. From each run folder: cycles and instructions
 * (stats.txt) and the complete perf records decoded from trace.rtd (none without a trace).
 * Per FW: extra cycles = cycles - cycles of PLAIN, overhead = extra / cycles of PLAIN in %,
 * cycles per record = extra / records. Written as Markdown (stdout and OUTDIR/overhead.md),
 * CSV (OUTDIR/overhead.csv) and a bar chart of the overhead (OUTDIR/overhead.svg). */
#include "cli_util.h"
#include "overhead_int.h"
#include "ts_opts.h"
#include "run_folder.h"
#include "ts_text.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define B_FAILED 1
#define B_USAGE 120
#define B_NO_FILE 121
#define B_HOST 126

typedef struct b_fw {
    ovh_run_t r;              /* r.name: the row's name, r.dir: its run folder, r.elf: "" for a run folder */
    bool from_run;            /* given as a run folder */
} b_fw_t;

/* the name of an ELF or run folder argument: its last component, without an ELF's extension */
static void name_of(const char *arg, bool dir, char *out, size_t len) {
    char buf[OVH_PATH];
    snprintf(buf, sizeof buf, "%s", arg);
    size_t l = strlen(buf);
    while (l > 1 && buf[l - 1] == '/') buf[--l] = 0;
    const char *base = strrchr(buf, '/');
    base = base && base[1] ? base + 1 : buf;
    snprintf(out, len, "%s", base);
    char *dot = dir ? NULL : strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

/* reads cycles, instructions and records of a run folder; 0, or -1 with a reason */
static int b_read(ovh_run_t *r, unsigned channel, char *why, size_t whylen) {
    size_t len;
    char *stats = ovh_slurp(r->dir, "stats.txt", &len);
    int rc = -1;
    if (!stats || !ovh_stats_value(stats, "cycles", &r->cycles) || !ovh_stats_value(stats, "instret", &r->instret)) {
        snprintf(why, whylen, "no cycles/instret in %s/stats.txt", r->dir);
    } else {
        char *json = ovh_slurp(r->dir, "trace.json", &len);
        char p[OVH_PATH + 16];
        snprintf(p, sizeof p, "%s/trace.rtd", r->dir);
        if (!json || access(p, R_OK)) rc = 0;          /* nothing traced: no records */
        else {
            rc = ovh_count_records(r, json, channel, why, whylen);
            r->stopped = ovh_json_true(json, "stopped_on_wrap");
            r->wrapped = ovh_json_true(json, "wrapped");
            ovh_json_u64(json, "itc_lost", &r->itc_lost);
        }
        free(json);
    }
    free(stats);
    return rc;
}

static int64_t extra(const b_fw_t *f, const b_fw_t *base) { return (int64_t)(f->r.cycles - base->r.cycles); }
static double pct_of(const b_fw_t *f, const b_fw_t *base) {
    return base->r.cycles ? 100.0 * (double)extra(f, base) / (double)base->r.cycles : 0.0;
}

/* a name in a Markdown cell: `|` escaped */
static void md_name(FILE *o, const char *s) {
    for (; *s; s++) {
        if (*s == '|' || *s == '\\') fputc('\\', o);
        fputc(*s == '\n' ? ' ' : *s, o);
    }
}
static void xml_text(FILE *o, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '&': fputs("&amp;", o); break;
        case '"': fputs("&quot;", o); break;
        default: fputc(*s, o);
        }
    }
}

static void write_md(FILE *o, const b_fw_t *fw, size_t n, unsigned channel) {
    const b_fw_t *b = &fw[0];
    fputs("# Instrumentation overhead over a baseline\n\nWritten by `tracesim overhead --baseline` "
          "(harness/report/overhead_baseline.c): every firmware is a whole `tracesim run` with the default SoC "
          "(or the run folder given); the baseline is `", o);
    md_name(o, b->r.name);
    fprintf(o, "`. Perf records: complete records decoded from each run's `trace.rtd` (ITC channel %u).\n\n", channel);
    fputs("| firmware | cycles | instructions | extra cycles | overhead (cycles) | perf records | cycles per record |\n"
          "|---|--:|--:|--:|--:|--:|--:|\n", o);
    for (size_t i = 0; i < n; i++) {
        const b_fw_t *f = &fw[i];
        fputs("| ", o);
        md_name(o, f->r.name);
        fprintf(o, "%s | %" PRIu64 " | %" PRIu64, i ? "" : " (baseline)", f->r.cycles, f->r.instret);
        if (!i) fprintf(o, " | 0 | (baseline) | %" PRIu64 " | - |\n", f->r.records);
        else {
            fprintf(o, " | %+" PRId64 " | %+.1f %% | %" PRIu64, extra(f, b), pct_of(f, b), f->r.records);
            if (f->r.records) fprintf(o, " | %.1f |\n", (double)extra(f, b) / (double)f->r.records);
            else fputs(" | - |\n", o);
        }
    }
    bool note = false;
    for (size_t i = 0; i < n; i++) {
        const ovh_run_t *r = &fw[i].r;
        if (!r->stopped && !r->wrapped && !r->truncated && !r->itc_lost && !r->perf_errors) continue;
        if (!note) fputs("\nNotes:\n\n", o);
        note = true;
        fputs("* `", o);
        md_name(o, r->name);
        fputs("`:", o);
        if (r->stopped) fputs(" the trace buffer filled and tracing stopped (stop-on-wrap): later records are not counted;", o);
        if (r->wrapped) fputs(" the trace buffer wrapped: the oldest records are not counted;", o);
        if (r->truncated) fprintf(o, " %" PRIu64 " record(s) cut off;", r->truncated);
        if (r->itc_lost) fprintf(o, " %" PRIu64 " ITC store(s) lost;", r->itc_lost);
        if (r->perf_errors) fprintf(o, " %" PRIu64 " perf data error(s) in the trace;", r->perf_errors);
        fputc('\n', o);
    }
    fputs("\nColumns: **cycles**, **instructions**: the whole run (`stats.txt`); **extra cycles** = cycles - "
          "cycles of the baseline; **overhead** = extra cycles / cycles of the baseline; **cycles per record** = "
          "extra cycles / perf records.\n", o);
}

static void write_csv(FILE *o, const b_fw_t *fw, size_t n) {
    fputs("firmware,source,baseline,cycles,instructions,extra_cycles,overhead_percent,records,cycles_per_record\n", o);
    for (size_t i = 0; i < n; i++) {
        const b_fw_t *f = &fw[i];
        ts_csv_field(o, f->r.name);
        fputc(',', o);
        ts_csv_field(o, f->from_run ? f->r.dir : f->r.elf);
        fprintf(o, ",%d,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%.2f,%" PRIu64 ",", i == 0, f->r.cycles, f->r.instret,
                i ? extra(f, &fw[0]) : 0, i ? pct_of(f, &fw[0]) : 0.0, f->r.records);
        if (i && f->r.records) fprintf(o, "%.2f", (double)extra(f, &fw[0]) / (double)f->r.records);
        fputc('\n', o);
    }
}

#define C_LEFT 70
#define C_TOP 60
#define C_H 220
#define C_BAR 36
#define C_GAP 24

static void write_svg(FILE *o, const b_fw_t *fw, size_t n) {
    double lo = 0, hi = 0;
    for (size_t i = 1; i < n; i++) {
        double v = pct_of(&fw[i], &fw[0]);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    int dec;
    double step = ovh_tick_step(hi - lo > 0 ? hi - lo : 1, &dec), top = step, bot = 0;
    while (top < hi - 1e-9) top += step;
    while (bot > lo + 1e-9) bot -= step;
    int pw = (int)(n - 1) * (C_BAR + C_GAP) + C_GAP, width = C_LEFT + pw + 30, height = C_TOP + C_H + 60;
    if (width < 400) width = 400;
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n", width, height, width, height);
    fprintf(o, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
    fputs("<text x=\"20\" y=\"20\" font-size=\"14\" font-weight=\"bold\">Instrumentation overhead over ", o);
    xml_text(o, fw[0].r.name);
    fputs("</text>\n<text x=\"20\" y=\"38\" fill=\"#555555\">extra cycles in % of the baseline's cycles</text>\n", o);
    for (double t = bot; t <= top + step * 1e-6; t += step) {
        double y = C_TOP + (double)C_H * (top - t) / (top - bot);
        bool zero = t > -step * 1e-6 && t < step * 1e-6;
        fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n", C_LEFT, y, C_LEFT + pw, y,
                zero ? "#444444" : "#e0e0e0");
        fprintf(o, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.*f%%</text>\n", C_LEFT - 4, y + 4, dec, zero ? 0.0 : t);
    }
    double y0 = C_TOP + (double)C_H * top / (top - bot);
    for (size_t i = 1; i < n; i++) {
        double v = pct_of(&fw[i], &fw[0]), y = C_TOP + (double)C_H * (top - v) / (top - bot);
        int x = C_LEFT + C_GAP + (int)(i - 1) * (C_BAR + C_GAP);
        double y1 = v > 0 ? y : y0, h = v > 0 ? y0 - y : y - y0;
        fprintf(o, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#2171b5\"><title>", x, y1, C_BAR, h);
        xml_text(o, fw[i].r.name);
        fprintf(o, ": %+.1f%% (%" PRIu64 " cycles, %" PRIu64 " records)</title></rect>\n", v, fw[i].r.cycles, fw[i].r.records);
        fprintf(o, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%+.1f</text>\n", x + C_BAR / 2,
                v >= 0 ? y1 - 3 : y1 + h + 10, v);
        fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x + C_BAR / 2, C_TOP + C_H + 16);
        xml_text(o, fw[i].r.name);
        fputs("</text>\n", o);
    }
    fputs("</svg>\n", o);
}

typedef void (*b_writer_t)(FILE *, const b_fw_t *, size_t, unsigned);
static void md_w(FILE *o, const b_fw_t *f, size_t n, unsigned ch) { write_md(o, f, n, ch); }
static void csv_w(FILE *o, const b_fw_t *f, size_t n, unsigned ch) { (void)ch; write_csv(o, f, n); }
static void svg_w(FILE *o, const b_fw_t *f, size_t n, unsigned ch) { (void)ch; write_svg(o, f, n); }

static int write_out(const char *dir, const char *file, b_writer_t w, const b_fw_t *fw, size_t n, unsigned ch) {
    char path[OVH_PATH];
    if (ovh_fmt(path, sizeof path, "%s/%s", dir, file)) { errno = ENAMETOOLONG; return -1; }
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    w(f, fw, n, ch);
    bool bad = ferror(f) != 0;
    if (fclose(f) || bad) return -1;
    return 0;
}
/* what a failed firmware's run left in the folder this command made for it (its stderr.txt,
 * a run folder's files and their folders one level down), removed with the folder */
static void remove_made(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !unlinkat(dirfd(d), e->d_name, 0)) continue;
            int sfd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
            DIR *sd = sfd >= 0 ? fdopendir(sfd) : NULL;
            if (sd) {
                struct dirent *se;
                while ((se = readdir(sd)))
                    if (strcmp(se->d_name, ".") && strcmp(se->d_name, "..")) unlinkat(dirfd(sd), se->d_name, 0);
                closedir(sd);
            } else if (sfd >= 0) {
                close(sfd);
            }
            unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
        }
        closedir(d);
    }
    rmdir(dir);
}


int ovh_baseline_run(const char *base, const char *out, unsigned channel, size_t nfw, char *const *fws) {
    if (!base || !*base) { fprintf(stderr, "tracesim: overhead: --baseline needs an ELF or run folder\n"); return B_USAGE; }
    if (!nfw) {
        fprintf(stderr, "tracesim: overhead --baseline %s: no firmware to compare (give FW.elf or run folders after it)\n", base);
        return B_USAGE;
    }
    if (!*out || (ts_is_dir(out) ? 0 : !access(out, F_OK))) {
        fprintf(stderr, "tracesim: overhead -o takes an output folder, not a file: '%s'\n", out);
        return B_USAGE;
    }
    size_t n = nfw + 1;
    b_fw_t *fw = calloc(n, sizeof *fw);
    if (!fw) { fprintf(stderr, "tracesim: overhead: out of memory\n"); return B_HOST; }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {          /* check every argument before the first run */
        const char *arg = i ? fws[i - 1] : base;
        b_fw_t *f = &fw[i];
        f->r.kind = -1;
        f->r.mode = MODE_ON;
        f->from_run = ts_is_dir(arg);
        name_of(arg, f->from_run, f->r.name, sizeof f->r.name);
        for (unsigned k = 2; ; k++) {                  /* names are unique */
            bool taken = false;
            for (size_t j = 0; j < i; j++) taken |= !strcmp(fw[j].r.name, f->r.name);
            if (!taken) break;
            char nb[64];
            name_of(arg, f->from_run, nb, sizeof nb - 12);
            snprintf(f->r.name, sizeof f->r.name, "%s-%u", nb, k);
        }
        struct stat sb;
        errno = 0;
        if (f->from_run) {
            snprintf(f->r.dir, sizeof f->r.dir, "%s", arg);
            char sp[OVH_PATH + 16];
            snprintf(sp, sizeof sp, "%s/stats.txt", arg);
            if (access(sp, R_OK)) {
                fprintf(stderr, "tracesim: overhead: %s%s is not a run folder (no stats.txt)\n", i ? "" : "baseline ", arg);
                rc = B_NO_FILE;
            }
        } else if (stat(arg, &sb) || !S_ISREG(sb.st_mode) || access(arg, R_OK)) {
            fprintf(stderr, "tracesim: overhead: cannot open %s%s: %s\n", i ? "" : "the baseline ", arg,
                    errno ? strerror(errno) : "not a regular file");
            rc = B_NO_FILE;
        } else if (ovh_fmt(f->r.elf, sizeof f->r.elf, "%s", arg) ||
                   ovh_fmt(f->r.dir, sizeof f->r.dir, "%s/runs/%s", out, f->r.name)) {
            fprintf(stderr, "tracesim: overhead: path too long: %s\n", arg);
            rc = B_USAGE;
        }
    }
    /* the folders this command makes: out, out/runs, one per firmware; on a failure the failed
     * firmware's goes again, and out/runs and out if nothing else is in them */
    char runs_dir[4200];
    snprintf(runs_dir, sizeof runs_dir, "%s/runs", out);
    bool made_out = access(out, F_OK) != 0, made_runs = access(runs_dir, F_OK) != 0;
    for (size_t i = 0; i < n && !rc; i++) {
        b_fw_t *f = &fw[i];
        char why[768];
        bool made = !f->from_run && access(f->r.dir, F_OK) != 0;
        if (!f->from_run && ts_mkdir_p(f->r.dir)) {
            fprintf(stderr, "tracesim: overhead: cannot create %s: %s\n", f->r.dir, strerror(errno));
            rc = B_HOST;
        } else if ((!f->from_run && ovh_simulate(&f->r, why, sizeof why)) || b_read(&f->r, channel, why, sizeof why)) {
            fprintf(stderr, "tracesim: overhead: %s failed: %s\n", f->r.name, why);
            rc = B_FAILED;
            if (made) remove_made(f->r.dir);
            if (made_runs) rmdir(runs_dir);
            if (made_out) rmdir(out);
        } else {
            fprintf(stderr, "overhead: [%zu/%zu] %-26s %10" PRIu64 " cycles %6" PRIu64 " records%s\n", i + 1, n, f->r.name,
                    f->r.cycles, f->r.records, i ? "" : "  (baseline)");
        }
    }
    if (!rc) {
        if (ts_mkdir_p(out) || write_out(out, "overhead.md", md_w, fw, n, channel) ||
            write_out(out, "overhead.csv", csv_w, fw, n, channel) || write_out(out, "overhead.svg", svg_w, fw, n, channel)) {
            fprintf(stderr, "tracesim: overhead: cannot write the report in %s: %s\n", out, strerror(errno));
            rc = B_HOST;
        } else {
            write_md(stdout, fw, n, channel);
            fprintf(stderr, "overhead: wrote %s/overhead.md, overhead.csv and overhead.svg\n", out);
        }
    }
    free(fw);
    return rc;
}
