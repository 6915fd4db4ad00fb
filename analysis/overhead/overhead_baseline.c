/* overhead_baseline.c - `tracesim overhead --baseline PLAIN FW...`: the overhead of the user's
 * own builds. PLAIN and each FW are an ELF, run with this executable (`tracesim run -q`) into
 * OUTDIR/runs/NAME/ (NAME: the ELF's file name without extension, -2, -3... if taken), or the
 * run folder of an earlier run, read as it is. From each run folder: cycles and instructions
 * (stats.txt), the complete perf records the firmware made (decoded from every perf store of
 * itc.csv, the ground truth) and those that reached the trace (decoded from trace.rtd; none
 * without a trace). Per FW: extra cycles = cycles - cycles of PLAIN, overhead = extra / cycles
 * of PLAIN in %, cycles per record = extra / records made (a stopped or wrapped buffer holds
 * fewer, but the firmware paid for every one; an older run folder without itc.csv: / records
 * in the trace, noted). Written as Markdown (stdout and OUTDIR/overhead.md),
 * CSV (OUTDIR/overhead.csv) and a bar chart of the overhead (OUTDIR/overhead.svg). */
#include "run_trace.h"
#include "overhead_int.h"
#include "ts_opts.h"
#include "run_folder.h"
#include "elf_syms.h"
#include "ts_file.h"
#include "ts_text.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define B_FAILED 1

typedef struct b_fw {
    ovh_run_t r;   /* r.name: the row's name, r.dir: its run folder, r.elf: "" for a run folder */
    bool from_run; /* given as a run folder */
    /* the part of the run this firmware and the baseline share (shared_point): it ends at
     * cycle sh_fw here and sh_base in the baseline, a call or return both make (sh_what) */
    bool shared;
    uint64_t sh_fw, sh_base;
    char sh_what[200];
} b_fw_t;

/* ---- the part of the run both builds share ------------------------------------------------
 * The instrumented build makes its last perf record, then goes on with what only it does
 * (perfTraceOff, perfWriteTrace copying out as much trace as the buffer kept: a stopped
 * buffer less, a full one more) and with what the program does either way. The part both
 * builds share ends at the first call or return after the last perf store (flow.csv, the
 * hart that made it) between two functions that both ELFs have by name (e.g. the return of
 * the outermost fib to main) whose n-th occurrence here the baseline makes too (its n-th);
 * of the first 32 such rows, the first. Not found
 * (no such row, a run folder without flow.csv or ELF): whole runs, said in the notes. */

typedef struct flow_row {
    uint64_t cycle;
    unsigned hart;
    bool call;
    uint64_t pc, target;
} flow_row_t;

static bool flow_parse(const char *line, flow_row_t *r) {
    unsigned long long c, pc, t;
    unsigned h;
    char kind[8];
    if (sscanf(line, "%llu,%u,%7[a-z],0x%llx,0x%llx", &c, &h, kind, &pc, &t) != 5) return false;
    if (strcmp(kind, "call") && strcmp(kind, "ret")) return false;
    *r = (flow_row_t){c, h, !strcmp(kind, "call"), pc, t};
    return true;
}

static FILE *flow_open(const char *dir) {
    char path[OVH_PATH + 16], e[OVH_PATH + 64];
    snprintf(path, sizeof path, "%s/flow.csv", dir);
    return access(path, F_OK) ? NULL : ts_fopen_input(path, e, sizeof e);
}

static int load_syms(const ovh_run_t *r, elf_syms_t *t) {
    char path[OVH_PATH + 400], err[OVH_PATH + 400];
    if (r->elf[0]) snprintf(path, sizeof path, "%s", r->elf);
    else if (ts_run_elf(r->dir, NULL, path, sizeof path, err, sizeof err) != 1)
        return -1;
    return elf_syms_load(t, path, err, sizeof err);
}

/* the function names of a row in t: both, or false */
static bool row_names(const elf_syms_t *t, const flow_row_t *r, const char **from, const char **to) {
    *from = elf_syms_find(t, r->pc);
    *to = elf_syms_find(t, r->target);
    return *from && *to;
}

/* a call or return that may end the shared part: its names, kind and cycle here, its
 * occurrence number here (nth) and the cycle of the same occurrence in the baseline (0: none) */
#define SH_CAND 32
typedef struct sh_cand {
    char from[128], to[128];
    bool call;
    uint64_t cycle, nth, base;
} sh_cand_t;

static bool cand_is(const sh_cand_t *c, const flow_row_t *r, const char *a, const char *b) {
    return c->call == r->call && !strcmp(c->from, a) && !strcmp(c->to, b);
}

static void shared_point(b_fw_t *f, const b_fw_t *base) {
    f->shared = false;
    if (!f->r.have_made || !f->r.made) return;
    elf_syms_t fs = {0}, bs = {0};
    if (load_syms(&f->r, &fs)) return;
    if (load_syms(&base->r, &bs)) {
        elf_syms_free(&fs);
        return;
    }
    FILE *in = flow_open(f->r.dir);
    char line[256];
    sh_cand_t c[SH_CAND];
    size_t nc = 0;
    /* the first SH_CAND rows after the last store between functions the baseline has (the
     * first is not always one the baseline makes: a perf library function both ELFs link
     * returning to an instrumented one, e.g. write_delta_cntrs to run) */
    while (in && nc < SH_CAND && fgets(line, sizeof line, in)) {
        flow_row_t r;
        const char *a, *b;
        if (!flow_parse(line, &r) || r.hart != f->r.last_hart || !row_names(&fs, &r, &a, &b)) continue;
        if (r.cycle <= f->r.last_store) continue;
        if (!elf_syms_by_name(&bs, a) || !elf_syms_by_name(&bs, b)) continue;
        sh_cand_t *k = &c[nc++];
        snprintf(k->from, sizeof k->from, "%s", a);
        snprintf(k->to, sizeof k->to, "%s", b);
        k->call = r.call;
        k->cycle = r.cycle;
        k->nth = k->base = 0;
    }
    /* each one's occurrence number here, then the cycle of that occurrence in the baseline */
    if (in) rewind(in);
    while (nc && in && fgets(line, sizeof line, in)) {
        flow_row_t r;
        const char *a, *b;
        if (!flow_parse(line, &r) || r.hart != f->r.last_hart || !row_names(&fs, &r, &a, &b)) continue;
        if (r.cycle > c[nc - 1].cycle) break;
        for (size_t i = 0; i < nc; i++)
            if (r.cycle <= c[i].cycle && cand_is(&c[i], &r, a, b)) c[i].nth++;
    }
    if (in) fclose(in);
    FILE *bin = nc ? flow_open(base->r.dir) : NULL;
    uint64_t seen[SH_CAND] = {0};
    while (bin && fgets(line, sizeof line, bin)) {
        flow_row_t r;
        const char *a, *b;
        if (!flow_parse(line, &r) || r.hart != f->r.last_hart || !row_names(&bs, &r, &a, &b)) continue;
        for (size_t i = 0; i < nc; i++)
            if (!c[i].base && cand_is(&c[i], &r, a, b) && ++seen[i] == c[i].nth) c[i].base = r.cycle;
    }
    if (bin) fclose(bin);
    /* the first one the baseline makes as often */
    for (size_t i = 0; i < nc && !f->shared; i++) {
        if (!c[i].base) continue;
        f->sh_fw = c[i].cycle;
        f->sh_base = c[i].base;
        f->shared = true;
        snprintf(f->sh_what, sizeof f->sh_what, "%s %s %s #%" PRIu64, c[i].from, c[i].call ? "calls" : "returns to",
                 c[i].to, c[i].nth);
    }
    elf_syms_free(&fs);
    elf_syms_free(&bs);
}

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
        if (!json || access(p, R_OK)) rc = 0; /* nothing traced: no records */
        else {
            rc = ovh_count_records(r, json, channel, why, whylen);
            r->stopped = ovh_json_true(json, "stopped_on_wrap");
            r->wrapped = ovh_json_true(json, "wrapped");
            ovh_json_u64(json, "itc_lost", &r->itc_lost);
        }
        if (!rc) rc = ovh_count_made(r, channel, why, whylen);
        free(json);
    }
    free(stats);
    return rc;
}

static int64_t extra(const b_fw_t *f, const b_fw_t *base) { return (int64_t)(f->r.cycles - base->r.cycles); }
static double pct_of(const b_fw_t *f, const b_fw_t *base) {
    return base->r.cycles ? 100.0 * (double)extra(f, base) / (double)base->r.cycles : 0.0;
}

static uint64_t n_made(const b_fw_t *f) { return ovh_per_record_n(&f->r); }
/* the extra cycles of the part both builds share (the whole runs when it was not found) */
static int64_t sh_extra(const b_fw_t *f, const b_fw_t *base) {
    return f->shared ? (int64_t)(f->sh_fw - f->sh_base) : extra(f, base);
}
static double sh_pct(const b_fw_t *f, const b_fw_t *base) {
    if (!f->shared) return pct_of(f, base);
    return f->sh_base ? 100.0 * (double)sh_extra(f, base) / (double)f->sh_base : 0.0;
}
static double per_rec(const b_fw_t *f, const b_fw_t *base) { return (double)sh_extra(f, base) / (double)n_made(f); }

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
          "(analysis/overhead/overhead_baseline.c): every firmware is a whole `tracesim run` with the default SoC "
          "(or the run folder given); the baseline is `",
          o);
    md_name(o, b->r.name);
    fprintf(o, "`. Perf records (ITC channel %u): made = complete records in every perf store the firmware made "
               "(`itc.csv`, the ground truth), in the trace = complete records decoded from `trace.rtd`.\n\n",
            channel);
    fputs("| firmware | cycles | instructions | extra cycles | overhead (cycles) | shared part: extra cycles "
          "| shared part: overhead | perf records made | in the trace | cycles per record |\n"
          "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
          o);
    for (size_t i = 0; i < n; i++) {
        const b_fw_t *f = &fw[i];
        fputs("| ", o);
        md_name(o, f->r.name);
        fprintf(o, "%s | %" PRIu64 " | %" PRIu64, i ? "" : " (baseline)", f->r.cycles, f->r.instret);
        char mk[32] = "?";
        if (f->r.have_made) snprintf(mk, sizeof mk, "%" PRIu64, f->r.made);
        if (!i) fprintf(o, " | 0 | (baseline) | - | - | %s | %" PRIu64 " | - |\n", mk, f->r.records);
        else {
            fprintf(o, " | %+" PRId64 " | %+.1f %%", extra(f, b), pct_of(f, b));
            if (f->shared) fprintf(o, " | %+" PRId64 " | %+.1f %%", sh_extra(f, b), sh_pct(f, b));
            else
                fputs(" | (whole run) | (whole run)", o);
            fprintf(o, " | %s | %" PRIu64, mk, f->r.records);
            if (n_made(f)) fprintf(o, " | %.1f |\n", per_rec(f, b));
            else
                fputs(" | - |\n", o);
        }
    }
    bool note = false;
    for (size_t i = 0; i < n; i++) {
        const ovh_run_t *r = &fw[i].r;
        bool whole = i && n_made(&fw[i]) && !fw[i].shared;
        if (!r->stopped && !r->wrapped && !r->truncated && !r->itc_lost && !r->perf_errors && r->have_made && !whole &&
            !(i && fw[i].shared))
            continue;
        if (!note) fputs("\nNotes:\n\n", o);
        note = true;
        fputs("* `", o);
        md_name(o, r->name);
        fputs("`:", o);
        if (r->stopped)
            fputs(" the trace buffer filled and tracing stopped (stop-on-wrap): later records are not in the trace, "
                  "cycles per record counts every record made;",
                  o);
        if (r->wrapped)
            fputs(" the trace buffer wrapped: the oldest records are not in the trace, cycles per record counts every "
                  "record made;",
                  o);
        if (!r->have_made)
            fputs(" no `itc.csv` (an older run folder): cycles per record divides by the records in the trace, which "
                  "is too many cycles per record if records were lost;",
                  o);
        if (i && fw[i].shared) {
            fprintf(o, " the shared part ends where `");
            md_name(o, fw[i].sh_what);
            fprintf(o, "` (cycle %" PRIu64 ", in the baseline %" PRIu64 "), the first call or return between functions "
                       "both builds have after the last perf record;",
                    fw[i].sh_fw, fw[i].sh_base);
        } else if (whole)
            fputs(" no call or return after the last perf record that both builds make (or no `flow.csv`, or no ELF): "
                  "the shared part is the whole run, which includes what only the instrumented build does after its "
                  "last record (copying the trace out);",
                  o);
        if (r->truncated) fprintf(o, " %" PRIu64 " record(s) cut off;", r->truncated);
        if (r->itc_lost) fprintf(o, " %" PRIu64 " ITC store(s) lost;", r->itc_lost);
        if (r->perf_errors) fprintf(o, " %" PRIu64 " perf data error(s) in the trace;", r->perf_errors);
        fputc('\n', o);
    }
    fputs("\nColumns: **cycles**, **instructions**: the whole run (`stats.txt`), reset to exit, whatever became of "
          "the trace (a stopped or wrapped buffer changes what reached the trace, not what the firmware did); "
          "**extra cycles** = cycles - cycles of the baseline; **overhead** = extra cycles / cycles of the baseline, "
          "both whole runs; **shared part**: the run up to the first call or return, after the last perf record "
          "made, that both builds make (see the notes; it leaves out what only the instrumented build does after its "
          "last record, above all `perfWriteTrace()` copying out as much trace as the buffer kept), its extra cycles "
          "and overhead (extra / the baseline's cycles up to the same point); **cycles per record** = extra cycles of "
          "the shared part / perf records made.\n",
          o);
}

static void write_csv(FILE *o, const b_fw_t *fw, size_t n) {
    fputs("firmware,source,baseline,cycles,instructions,extra_cycles,overhead_percent,records,cycles_per_record,"
          "records_in_trace,shared_extra_cycles,shared_overhead_percent\n",
          o);
    for (size_t i = 0; i < n; i++) {
        const b_fw_t *f = &fw[i];
        ts_csv_field(o, f->r.name);
        fputc(',', o);
        ts_csv_field(o, f->from_run ? f->r.dir : f->r.elf);
        fprintf(o, ",%d,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%.2f,%" PRIu64 ",", i == 0, f->r.cycles, f->r.instret,
                i ? extra(f, &fw[0]) : 0, i ? pct_of(f, &fw[0]) : 0.0, n_made(f));
        if (i && n_made(f)) fprintf(o, "%.2f", per_rec(f, &fw[0]));
        fprintf(o, ",%" PRIu64 ",", f->r.records);
        if (i) fprintf(o, "%" PRId64 ",%.2f", sh_extra(f, &fw[0]), sh_pct(f, &fw[0]));
        else
            fputc(',', o);
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
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n",
            width, height, width, height);
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
        fprintf(o, ": %+.1f%% (%" PRIu64 " cycles, %" PRIu64 " records)</title></rect>\n", v, fw[i].r.cycles, n_made(&fw[i]));
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
static void csv_w(FILE *o, const b_fw_t *f, size_t n, unsigned ch) {
    (void)ch;
    write_csv(o, f, n);
}
static void svg_w(FILE *o, const b_fw_t *f, size_t n, unsigned ch) {
    (void)ch;
    write_svg(o, f, n);
}

/* err: "cannot create|write P: reason" */
static char werr[OVH_PATH + 200];
static int write_out(const char *dir, const char *file, b_writer_t w, const b_fw_t *fw, size_t n, unsigned ch) {
    char path[OVH_PATH];
    if (ovh_fmt(path, sizeof path, "%s/%s", dir, file)) {
        snprintf(werr, sizeof werr, "cannot write the report in %s: %s", dir, strerror(ENAMETOOLONG));
        return -1;
    }
    FILE *f = ts_fopen_output(path, "w", werr, sizeof werr);
    if (!f) return -1;
    w(f, fw, n, ch);
    return ts_fclose_output(f, path, werr, sizeof werr);
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
    if (!base || !*base) {
        fprintf(stderr, "tracesim: overhead: --baseline needs an ELF or run folder\n");
        return TS_EXIT_USAGE;
    }
    if (!nfw) {
        fprintf(stderr, "tracesim: overhead --baseline %s: no firmware to compare (give FW.elf or run folders after it)\n", base);
        return TS_EXIT_USAGE;
    }
    if (!*out || (ts_is_dir(out) ? 0 : !access(out, F_OK))) {
        fprintf(stderr, "tracesim: overhead -o takes an output folder, not a file: '%s'\n", out);
        return TS_EXIT_USAGE;
    }
    size_t n = nfw + 1;
    b_fw_t *fw = calloc(n, sizeof *fw);
    if (!fw) {
        fprintf(stderr, "tracesim: overhead: out of memory\n");
        return TS_EXIT_HOST;
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) { /* check every argument before the first run */
        const char *arg = i ? fws[i - 1] : base;
        b_fw_t *f = &fw[i];
        f->r.kind = -1;
        f->r.mode = MODE_ON;
        f->from_run = ts_is_dir(arg);
        name_of(arg, f->from_run, f->r.name, sizeof f->r.name);
        for (unsigned k = 2;; k++) { /* names are unique */
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
            char rerr[OVH_PATH + 200];
            enum ts_run_finish fin = ts_run_say_unfinished(arg); /* a run cut short costs nothing to compare */
            if (fin != TS_RUN_FINISHED) {
                rc = TS_EXIT_NO_FILE;
            } else if (access(sp, R_OK)) {
                fprintf(stderr, "tracesim: overhead: %s%s is not a run folder (no stats.txt)\n", i ? "" : "baseline ", arg);
                rc = TS_EXIT_NO_FILE;
            } else if (ts_run_folder_check(arg, rerr, sizeof rerr)) { /* the strict reader (ts_file.h) */
                fprintf(stderr, "tracesim: overhead: %s\n", rerr);
                rc = TS_EXIT_NO_FILE;
            }
        } else if (stat(arg, &sb) || !S_ISREG(sb.st_mode) || access(arg, R_OK)) {
            fprintf(stderr, "tracesim: overhead: cannot open %s%s: %s\n", i ? "" : "the baseline ", arg,
                    errno ? strerror(errno) : "not a regular file");
            rc = TS_EXIT_NO_FILE;
        } else if (ovh_fmt(f->r.elf, sizeof f->r.elf, "%s", arg) ||
                   ovh_fmt(f->r.dir, sizeof f->r.dir, "%s/runs/%s", out, f->r.name)) {
            fprintf(stderr, "tracesim: overhead: path too long: %s\n", arg);
            rc = TS_EXIT_USAGE;
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
            rc = TS_EXIT_HOST;
        } else if ((!f->from_run && ovh_simulate(&f->r, why, sizeof why)) || b_read(&f->r, channel, why, sizeof why)) {
            fprintf(stderr, "tracesim: overhead: %s failed: %s\n", f->r.name, why);
            rc = B_FAILED;
            if (made) remove_made(f->r.dir);
            if (made_runs) rmdir(runs_dir);
            if (made_out) rmdir(out);
        } else {
            fprintf(stderr, "overhead: [%zu/%zu] %-26s %10" PRIu64 " cycles %6" PRIu64 " records%s\n", i + 1, n, f->r.name,
                    f->r.cycles, n_made(f), i ? "" : "  (baseline)");
        }
    }
    for (size_t i = 1; i < n && !rc; i++) shared_point(&fw[i], &fw[0]);
    if (!rc) {
        werr[0] = 0;
        if (ts_mkdir_p(out) || write_out(out, "overhead.md", md_w, fw, n, channel) ||
            write_out(out, "overhead.csv", csv_w, fw, n, channel) || write_out(out, "overhead.svg", svg_w, fw, n, channel)) {
            if (werr[0]) fprintf(stderr, "tracesim: overhead: %s\n", werr); /* names the file */
            else
                fprintf(stderr, "tracesim: overhead: cannot write the report in %s: %s\n", out, strerror(errno));
            rc = TS_EXIT_HOST;
        } else {
            write_md(stdout, fw, n, channel);
            fprintf(stderr, "overhead: wrote %s/overhead.md, overhead.csv and overhead.svg\n", out);
        }
    }
    free(fw);
    return rc;
}
