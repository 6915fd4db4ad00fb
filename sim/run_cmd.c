/* run_cmd.c - `tracesim run FW.elf [options]` (and tracesim-sc, the same command on the
 * SystemC platform): options, the run folder, the SoC's set-up and its outputs. The platform
 * that runs the SoC is the caller's (run_cmd.h). */
#include "run_trace.h"
#include "ts_file.h"
#include "ts_opts.h"
#include "run_losses.h"
#include "elf_load.h"
#include "exit_codes.h"
#include "run_outputs.h"
#include "run_folder.h"
#include "soc.h"
#include "gdb/gdb_stub.h"
#include "elf_syms.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "run_cmd.h"

enum {
    O_OUT = 1,
    O_MAX_CYCLES,
    O_RAM_SIZE,
    O_RAM_WAIT,
    O_WAVES,
    O_WAVES_FROM,
    O_WAVES_TO,
    O_WAVES_BY_FW,
    O_WAVES_ALL,
    O_WAVES_FUNC,
    O_WAVES_AROUND,
    O_HPM_COUNTERS,
    O_HPM_WIDTH,
    O_ICACHE,
    O_DCACHE,
    O_CACHE_WAYS,
    O_CACHE_LINE,
    O_CACHE_MISS,
    O_TRACE_SRAM,
    O_ITC_DEPTH,
    O_SINK_WIDTH,
    O_HARTS,
    O_SRCBITS,
    O_FUNNEL,
    O_NO_TRACE,
    O_STM_TS,
    O_TRACE_INSN,
    O_TRACE_STALL,
    O_TRACE_CONTEXT,
    O_RETIRE_LOG,
    O_TRACE_BUS,
    O_FORCE,
    O_HOST_IO_LIMIT,
    O_SYSTEMC,
    O_GDB,
    O_QUIET,
    O_HELP,
    O_ELF_REFUSED
};
#define S TS_OPT_SUFFIX
/* `tracesim run`'s options: the parser, --help and the docs' table (cli/opts/ts_opts.h) */
static const ts_opt_t run_opts[] = {
    {O_OUT, 'o', "out", TS_OPT_STRING, "DIR", 0, 0, 0, 0, TS_OPT_PATH, "run folder (default: runs/<elf name>-<n>, first free n)"},
    {O_MAX_CYCLES, 'n', "max-cycles", TS_OPT_UINT, "N", 0, UINT64_MAX, 0, 0, S,
     "stop after N cycles with status 124 (default 1000000000; 0: no limit)"},
    {O_RAM_SIZE, 0, "ram-size", TS_OPT_UINT, "BYTES", 4096, 0x40000000u, 0, 0, S,
     "RAM size, a multiple of 4 (default 16M)"},
    {O_RAM_WAIT, 0, "ram-wait", TS_OPT_UINT, "N", 0, 1000, 0, 0, 0, "wait states on every RAM access, fetch and data (default 0)"},
    {O_WAVES, 0, "waves", TS_OPT_STRING, "FILE", 0, 0, 0, 0, TS_OPT_PATH, "write waveforms (FST; VCD if FILE ends in .vcd)"},
    {O_WAVES_FROM, 0, "waves-from", TS_OPT_UINT, "N", 0, UINT64_MAX, 0, 0, S, "first cycle to dump (default 0)"},
    {O_WAVES_TO, 0, "waves-to", TS_OPT_UINT, "N", 0, UINT64_MAX, 0, 0, S, "first cycle not dumped (default: end of run)"},
    {O_WAVES_BY_FW, 0, "waves-by-firmware", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "dump only while the firmware has simctrl WAVES set to 1"},
    {O_WAVES_ALL, 0, "waves-all", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "dump every signal of the model (default: the signals of the\nGTKWave views in waves/, about twice as fast)"},
    {O_WAVES_FUNC, 0, "waves-func", TS_OPT_STRING, "NAME", 0, 0, 0, 0, 0,
     "dump only while function NAME (an ELF symbol) is on a call stack"},
    {O_WAVES_AROUND, 0, "waves-around-mark", TS_OPT_STRING, "V,N", 0, 0, 0, 0, 0,
     "dump N cycles before and after the first simctrl MARK of\nvalue V (runs the firmware twice: the first run finds the mark)"},
    {O_HPM_COUNTERS, 0, "hpm-counters", TS_OPT_UINT, "N", 0, 29, 0, 0, 0, "programmable HPM counters (default 29)"},
    {O_HPM_WIDTH, 0, "hpm-width", TS_OPT_UINT, "N", 1, 64, 0, 0, 0, "width of mhpmcounter3..31 in bits (default 40)"},
    {O_ICACHE, 0, "icache", TS_OPT_UINT, "SIZE", 0, 1u << 24, 0, 0, S,
     "timing-only I-cache of SIZE bytes, a power of two (default: none)"},
    {O_DCACHE, 0, "dcache", TS_OPT_UINT, "SIZE", 0, 1u << 24, 0, 0, S,
     "timing-only D-cache of SIZE bytes, a power of two (default: none)"},
    {O_CACHE_WAYS, 0, "cache-ways", TS_OPT_UINT, "N", 1, 2, 0, 0, 0, "1 (direct-mapped, default) or 2 (LRU)"},
    {O_CACHE_LINE, 0, "cache-line", TS_OPT_UINT, "N", 4, 256, 0, 0, 0, "line size in bytes, a power of two (default 32)"},
    {O_CACHE_MISS, 0, "cache-miss", TS_OPT_UINT, "N", 0, 10000, 0, 0, 0, "cycles a cache miss costs (default 10)"},
    {O_TRACE_SRAM, 0, "trace-sram", TS_OPT_UINT, "SIZE", 64, 64u << 20, 0, 0, S,
     "SRAM trace sink size, a power of two (default 16K)"},
    {O_ITC_DEPTH, 0, "itc-depth", TS_OPT_UINT, "N", 1, 1024, 0, 0, 0, "ITC stimulus FIFO entries (default 8)"},
    {O_SINK_WIDTH, 0, "sink-width", TS_OPT_UINT, "N", 4, 32, 0, 0, 0, "trace sink bytes per cycle: 4, 8, 16 or 32 (default 4)"},
    {O_HARTS, 0, "harts", TS_OPT_UINT, "N", 1, SOC_MAX_HARTS, 0, 0, 0,
     "harts (cores) in the SoC (default 1); with N > 1 the funnel\nmerges the N encoders (hart n's at 0x10000000 + 0x1000 n)"},
    {O_SRCBITS, 0, "srcbits", TS_OPT_UINT, "N", 0, 4, 0, 0, 0,
     "SRC field bits of the encoders (teImpl.nSrcBits; default 0,\nwith several harts the bits N needs: 1, 2 or 3)"},
    {O_FUNNEL, 0, "funnel", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "add a trace funnel at 0x10018000 (encoders use teSink 8)"},
    {O_NO_TRACE, 0, "no-trace", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "detach the trace model (benchmarking: its registers read 1)"},
    {O_TRACE_INSN, 0, "trace-insn", TS_OPT_STRING, "MODE", 0, 0, 0, 0, 0,
     "program trace: btm, htm, htm-ret or event (teInstruction 3, 6,\n7, 1) on every encoder whenever the firmware writes teControl with\nteInstruction 0 (default: off, the firmware's value;\ndocs/program-trace.md)"},
    {O_TRACE_STALL, 0, "trace-stall", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "teStallEnable on every encoder whenever the firmware writes\nteControl: a full FIFO holds the hart instead of losing\nmessages (ITC stores and program trace; docs/program-trace.md)"},
    {O_TRACE_CONTEXT, 0, "trace-context", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "program trace reports privilege changes: teContext (teControl\nbit 9) set on every teControl write (Ownership messages in\nBTM/HTM; docs/program-trace.md)"},
    {O_STM_TS, 0, "stm-thread-switch", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "software trace port: every write to tp (x4) emits THREAD_SWITCH"},
    {O_RETIRE_LOG, 0, "retire-log", TS_OPT_STRING, "FILE", 0, 0, 0, 0, TS_OPT_PATH, "write one line per retired instruction (cycle pc insn, plus\nxN=value for a register write or mem[addr]size=value for a\nstore) and per trap"},
    {O_FORCE, 0, "force", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0,
     "replace an existing file named by --retire-log, --record-trace-bus\nor --waves, or the files of an -o folder, that is not a previous output\nof tracesim run"},
    {O_TRACE_BUS, 0, "record-trace-bus", TS_OPT_STRING, "FILE", 0, 0, 0, 0, TS_OPT_NOT_SC | TS_OPT_PATH,
     "write every trace register access and SBA write (for the\nSystemC replay test)"},
    {O_HOST_IO_LIMIT, 0, "host-io-limit", TS_OPT_UINT, "SIZE", 0, 1ull << 40, 0, 0, S,
     "bytes the firmware may write to RUN/host/ through simctrl host\nfile I/O, per run (default 64M; 0: none)"},
    {O_GDB, 0, "gdb", TS_OPT_UINT, "PORT", 0, 65535, 0, 0, 0,
     "before the first cycle wait for GDB on 127.0.0.1:PORT (0: a free\nport, printed on stderr); halted, no clock advances\n(docs/commands/gdb.md)"},
    {O_SYSTEMC, 0, "systemc", TS_OPT_FLAG, NULL, 0, 0, 0, 0, TS_OPT_NOT_SC, "run on the SystemC/TLM-2.0 platform (tracesim-sc, same results)"},
    {O_QUIET, 'q', "quiet", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "no UART echo, no summary, no progress"},
    {O_HELP, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    /* --elf FILE names addresses in decode, report, check and waves; run's ELF is its argument */
    {O_ELF_REFUSED, 0, "elf", TS_OPT_STRING, "FILE", 0, 0, 0, 0, TS_OPT_REFUSE,
     "run takes the firmware as its argument, not as --elf: tracesim run [options] FW.elf"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
#undef S

static const ts_exit_t run_exits[] = {
    {"0-118", "the firmware's exit code (simctrl EXIT)"},
    {"119", "the firmware exited with any other code (119 to 255, 256 or more,\n"
            "negative): one line on stderr names it, stats.txt has it as\n"
            "fw_exit_code"},
    {"120", "usage: unknown option, bad option value, missing argument"},
    {"121", "the ELF is missing or unreadable"},
    {"122", "the ELF is invalid (not an ELF, truncated, malformed)"},
    {"123", "the ELF is not an RV32 or RV64 little-endian executable the cores run (a hard-float ABI, RV64E)"},
    {"124", "cycle limit (--max-cycles) reached before the firmware exited"},
    {"125", "a loadable segment does not fit in RAM"},
    {"126", "host error: cannot create the outputs, out of memory"},
    {"127", "hang: every hart keeps jumping to itself or waits in wfi with no\n"
            "interrupt that can wake it (stopped at most 8192 cycles after it\n"
            "began, more with --ram-wait/--icache)"},
    {"130, 143", "interrupted by SIGINT / SIGTERM: the run stopped between two cycles\n"
                 "and wrote its folder up to there (stats.txt: exit_reason\n"
                 "interrupted); a second signal ends it at once"},
    {NULL, NULL}};
#define RUN_ABOUT                                                                           \
    "Runs bare-metal RV32 firmware on the simulated SoC. UART output goes to stdout and\n"  \
    "DIR/uart.txt; the exit status is the firmware's exit code (simctrl EXIT) when it is\n" \
    "0 to 118, else 119 (the code is on stderr and in DIR/stats.txt).\n"
#define RUN_OUTPUTS                                                                            \
    "  DIR/stats.txt (cycles, instret, exit), uart.txt, hpm.csv, events.csv, trace.rtd and\n"  \
    "  trace.json (the trace sink), itc.csv, flow.csv, counters.csv, stm.csv, marks.csv and\n" \
    "  perf_config.txt (the ground truth of tracesim check), the waves with --waves\n"
/* the run command as tracesim describes it; tracesim-sc has the same options but --systemc
 * and --record-trace-bus */
const ts_cmd_t ts_run_cmd = {"run", "tracesim run [options] FW.elf", RUN_ABOUT, run_opts, 0, RUN_OUTPUTS, run_exits, NULL};
const ts_cmd_t ts_sc_cmd = {
    "tracesim-sc", "tracesim-sc [options] FW.elf\ntracesim run --systemc [options] FW.elf",
    "tracesim run on the SystemC/TLM-2.0 platform (built when pkg-config finds SystemC):\n"
    "the same options but --systemc and --record-trace-bus, the same outputs, cycles and\n"
    "exit statuses.\n",
    run_opts, TS_OPT_NOT_SC, RUN_OUTPUTS, run_exits, NULL};

/* tracesim run's platform: sim/soc.c's own cycle loop */
const ts_run_platform_t ts_run_soc = {.cmd = &ts_run_cmd, .run = soc_run, .exec_systemc = true};


static int bad_value(const char *opt, const char *val, const char *allowed) {
    fprintf(stderr, "tracesim: invalid value '%s' for %s (%s)\n", val, opt, allowed);
    return TS_EXIT_USAGE;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* hpm.csv: every counter the firmware enabled (mcycle, minstret, and each mhpmcounter with
 * an event selected), events.csv: the simulator's own count of every event over the run.
 * With several harts both files start with a hart column and have one row (per counter)
 * per hart. */
static int hpm_report(const soc_t *s, const char *dir, bool print, char *err, size_t errlen) {
    char path[4200], names[512];
    bool multi = s->n > 1;
    snprintf(path, sizeof path, "%s/hpm.csv", dir);
    FILE *f = ts_fopen_output(path, "w", err, errlen); /* a temporary file renamed at its close (ts_file.h) */
    if (!f) return -1;
    if (f) fprintf(f, "%scounter,csr,mhpmevent,events,width,value\n", multi ? "hart," : "");
    bool header = false;
    for (unsigned h = 0; h < s->n; h++) {
        const hpm_t *m = &s->h[h].hpm;
        for (unsigned n = 0; n < HPM_MAX_COUNTERS; n++) {
            if (n == 1 || !((m->implemented >> n) & 1)) continue;
            bool fixed = n == 0 || n == 2;
            if (!fixed && !m->sel[n]) continue;
            char name[32];
            if (n == 0) snprintf(name, sizeof name, "mcycle");
            else if (n == 2)
                snprintf(name, sizeof name, "minstret");
            else
                snprintf(name, sizeof name, "mhpmcounter%u", n);
            if (fixed) snprintf(names, sizeof names, "%s", n == 0 ? "cycle" : "instret");
            else
                hpm_event_names(m->event[n], names, sizeof names);
            uint64_t v = hpm_counter(m, n);
            if (f) {
                if (multi) fprintf(f, "%u,", h);
                fprintf(f, "%s,0x%03x,0x%x,%s,%u,%" PRIu64 "\n", name, 0xB00 + n, fixed ? 0 : m->event[n],
                        names, hpm_width(m, n), v);
            }
            if (print && !fixed) {
                if (!header) {
                    fputs("tracesim: HPM counters enabled by the firmware:\n", stderr);
                    header = true;
                }
                char hart[16] = "";
                if (multi) snprintf(hart, sizeof hart, "hart %u ", h);
                fprintf(stderr, "  %s%-14s %20" PRIu64 "  mhpmevent 0x%08x (%s)%s\n", hart, name, v,
                        m->event[n], names, (m->inhibit >> n) & 1 ? " [inhibited]" : "");
            }
        }
    }
    if (ts_fclose_output(f, path, err, errlen)) return -1; /* write errors included */
    snprintf(path, sizeof path, "%s/events.csv", dir);
    f = ts_fopen_output(path, "w", err, errlen);
    if (!f) return -1;
    if (multi) fputs("hart,", f);
    for (unsigned i = 0; i < hpm_n_events; i++) fprintf(f, "%s%s", i ? "," : "", hpm_events[i].csv);
    fputc('\n', f);
    for (unsigned h = 0; h < s->n; h++) {
        if (multi) fprintf(f, "%u,", h);
        for (unsigned i = 0; i < hpm_n_events; i++)
            fprintf(f, "%s%" PRIu64, i ? "," : "", s->h[h].ev.total[hpm_events[i].index]);
        fputc('\n', f);
    }
    return ts_fclose_output(f, path, err, errlen);
}

/* the first run of --waves-around-mark, without waves; 0 or an exit status after one line */
static int first_run(const ts_run_platform_t *plat, const soc_cfg_t *cfg, const char *elf) {
    soc_t soc;
    char err[1024];
    int rc = 0;
    uint32_t entry = 0;
    if (soc_init(&soc, cfg, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        rc = TS_EXIT_HOST;
    } else if (elf_load(&soc, elf, &entry, err, sizeof err) != ELF_OK) {
        fprintf(stderr, "tracesim: %s\n", err);
        rc = TS_EXIT_BAD_ELF;
    } else {
        soc_reset(&soc, entry);
        plat->run(&soc);
    }
    soc_free(&soc);
    return rc;
}

/* --waves-around-mark: a first run without waves finds the cycle of the first MARK of value v
 * (the simulation is deterministic, so the second run reaches it in the same cycle) and sets
 * the waves window to [cycle - n, cycle + n]. 0, or an exit status after a one-line message. */
static int find_mark(const ts_run_platform_t *plat, soc_cfg_t *cfg, const char *elf, const char *dir, uint32_t v,
                     uint64_t n) {
    soc_cfg_t c1 = *cfg;
    c1.waves_path = NULL;
    c1.quiet = true;
    c1.progress = false;
    if (cfg->progress) fprintf(stderr, "tracesim: --waves-around-mark: first run, finding MARK %u\n", v);
    int rc;
    if (plat->fork_first_run) {
        /* SystemC elaborates once per process: the first run is a child process of its own (the
         * whole of it, so that no model state is shared across the fork), the real run this one */
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            int r = first_run(plat, &c1, elf);
            fflush(NULL);
            _exit(r);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) < 0) {
            fprintf(stderr, "tracesim: --waves-around-mark: cannot start the first run: %s\n", strerror(errno));
            return TS_EXIT_HOST;
        }
        if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM)) {
            fprintf(stderr, "tracesim: --waves-around-mark: interrupted during the first run\n");
            return TS_EXIT_SIGNAL_BASE + WTERMSIG(st);
        }
        if (!WIFEXITED(st)) {
            fprintf(stderr, "tracesim: --waves-around-mark: the first run died (signal %d)\n", WTERMSIG(st));
            return TS_EXIT_HOST;
        }
        rc = WEXITSTATUS(st);
    } else {
        rc = first_run(plat, &c1, elf);
    }
    if (rc) return rc;
    char path[4200], line[256];
    snprintf(path, sizeof path, "%s/marks.csv", dir);
    char ferr[4400];
    FILE *f = ts_fopen_input(path, ferr, sizeof ferr);
    bool found = false;
    uint64_t cycle = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        unsigned mv;
        unsigned long long mc;
        if (sscanf(line, "%u,%llu,", &mv, &mc) == 2 && mv == v) {
            found = true;
            cycle = mc;
        }
    }
    if (f) fclose(f);
    if (!found) {
        fprintf(stderr, "tracesim: --waves-around-mark: the firmware never wrote MARK %u\n", v);
        return TS_EXIT_USAGE;
    }
    cfg->waves_from = cycle > n ? cycle - n : 0;
    cfg->waves_to = cycle + n + 1;
    return 0;
}
/* the run folder this run made (and the default runs/ made for it), removed again when the run fails before it simulates
 * (outputs that cannot be created, --waves-around-mark without its mark): no partial run
 * folder is left. Only what the run can have put there: files, and empty folders. */
static void remove_made_run_folder(const char *dir, bool made_runs) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && unlinkat(dirfd(d), e->d_name, 0))
                unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
        closedir(d);
    }
    rmdir(dir);
    if (made_runs) rmdir("runs"); /* the default runs/ made for it, if nothing else is in it */
}

/* a path of stats.txt, absolute (abs) and relative to the run folder dir (rel); each is the
 * path as given if it cannot be resolved */
static void stats_paths(const char *dir, const char *path, char abs[4096], char rel[4096]) {
    char d[4096];
    snprintf(abs, 4096, "%s", path);
    snprintf(rel, 4096, "%s", path);
    if (!realpath(path, abs)) {
        snprintf(abs, 4096, "%s", path);
        return;
    }
    if (!realpath(dir, d) || ts_rel_path(d, abs, rel, 4096)) snprintf(rel, 4096, "%s", abs);
}


/* ---- SIGINT/SIGTERM during the run (docs/commands/run.md "Interrupting a run") ---------- */
static volatile sig_atomic_t run_signal; /* the signal that asked the run to stop, or 0 */
static void on_stop_signal(int sig) {
    run_signal = sig;
    signal(sig, SIG_DFL); /* a second one: the default action, at once */
}
static void catch_stop_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
static const char *signal_name(int sig) { return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
                                                                                             "a signal"; }

/* stats_paths for a file that may not exist yet (the waves before the run writes them): its
 * folder resolved, its name as given */
static void stats_paths_new(const char *dir, const char *path, char abs[4096], char rel[4096]) {
    char parent[4096], pabs[4096], d[4096];
    snprintf(abs, 4096, "%s", path);
    snprintf(rel, 4096, "%s", path);
    snprintf(parent, sizeof parent, "%s", path);
    char *sl = strrchr(parent, '/');
    const char *base = sl ? path + (sl - parent) + 1 : path;
    if (sl == parent) snprintf(parent, sizeof parent, "/");
    else if (sl)
        *sl = 0;
    else
        snprintf(parent, sizeof parent, ".");
    if (!*base || !realpath(parent, pabs)) return;
    if ((size_t)snprintf(abs, 4096, "%s%s%s", pabs, strcmp(pabs, "/") ? "/" : "", base) >= 4096) {
        snprintf(abs, 4096, "%s", path);
        return;
    }
    if (!realpath(dir, d) || ts_rel_path(d, abs, rel, 4096)) snprintf(rel, 4096, "%s", abs);
}

/* stats.txt while the run goes: the ELF and the waves (a rerun into the folder of a killed run
 * finds the waves it wrote), no end marker (a killed run is one that did not finish) */
static int write_stats_start(const char *dir, const char *elf, const soc_cfg_t *cfg, char *err, size_t errlen) {
    char path[4200], a[4096], r[4096];
    snprintf(path, sizeof path, "%s/stats.txt", dir);
    FILE *f = ts_fopen_output(path, "w", err, errlen); /* renamed into place at its close (ts_file.h) */
    if (!f) return -1;
    stats_paths(dir, elf, a, r);
    fprintf(f, "elf %s\nelf_rel %s\nexit_reason running\n", a, r);
    if (cfg->waves_path) {
        stats_paths_new(dir, cfg->waves_path, a, r);
        fprintf(f, "waves %s\nwaves_rel %s\n", a, r);
    }
    return ts_fclose_output(f, path, err, errlen);
}

/* stats.txt, the last output of a run: its last line is the end marker "end ok" */
static int write_stats(const soc_t *soc, const soc_cfg_t *cfg, const char *dir, const char *elf, enum soc_stop stop,
                       int rc, uint64_t instret, double ipc, double secs, char *err, size_t errlen) {
    char path[4200];
    snprintf(path, sizeof path, "%s/stats.txt", dir);
    FILE *f = ts_fopen_output(path, "w", err, errlen); /* renamed into place at its close (ts_file.h) */
    if (!f) return -1;
    /* the ELF and the waves: absolute, and relative to the run folder (a moved or copied
     * run folder finds them; analysis/run/run_folder.h), and the ELF's hash */
    char elf_abs[4096], elf_rel[4096];
    stats_paths(dir, elf, elf_abs, elf_rel);
    fprintf(f, "elf %s\nelf_rel %s\n", elf_abs, elf_rel);
    uint64_t elf_hash;
    if (!ts_file_fnv1a64(elf, &elf_hash)) fprintf(f, "elf_fnv1a64 0x%016" PRIx64 "\n", elf_hash);
    fprintf(f, "exit_reason %s\nexit_code %d\n",
            stop == SOC_EXIT ? "exit" : stop == SOC_HANG    ? "hang" :
                                    stop == SOC_INTERRUPTED ? "interrupted" :
                                                              "cycle_limit",
            rc);
    if (stop == SOC_EXIT) fprintf(f, "fw_exit_code %d\n", soc->exit_code); /* the firmware's own, any value */
    if (stop == SOC_INTERRUPTED) fprintf(f, "interrupted_by %s\ninterrupted_cycle %" PRIu64 "\n", signal_name(run_signal), soc->cycle);
    fprintf(f, "cycles %" PRIu64 "\ninstret %" PRIu64 "\nipc %.4f\nsim_seconds %.6f\nsim_hz %.0f\nguest_errors %" PRIu64 "\n",
            soc->cycle, instret, ipc, secs, (double)soc->cycle / secs, soc->guest_errors_total);
    fprintf(f, "harts %u\n", soc->n);
    uint64_t stm = 0;
    for (unsigned i = 0; i < soc->n; i++) stm += soc->h[i].stm_events;
    fprintf(f, "stm_events %" PRIu64 "\n", stm);
    uint64_t pm = 0, pl = 0, stall = 0; /* program trace (docs/program-trace.md): only if it ran */
    for (unsigned i = 0; i < soc->n; i++) {
        pm += soc->h[i].te.prog.messages;
        pl += soc->h[i].te.prog.lost_messages;
        stall += soc->h[i].te.stall_cycles;
    }
    if (pm || pl) {
        fprintf(f, "prog_messages %" PRIu64 "\nprog_lost_messages %" PRIu64 "\nitc_stall_cycles %" PRIu64 "\n", pm, pl, stall);
        /* cycles a hart was held by its encoder's stall request (teStallEnable) */
        uint64_t held = 0;
        for (unsigned i = 0; i < soc->n; i++) held += soc->h[i].held_cycles;
        fprintf(f, "te_stall_cycles %" PRIu64 "\n", held);
        if (soc->n > 1)
            for (unsigned i = 0; i < soc->n; i++)
                fprintf(f, "te_stall_cycles_hart%u %" PRIu64 "\n", i, soc->h[i].held_cycles);
    }
    if (cfg->waves_path) {
        char w_abs[4096], w_rel[4096];
        stats_paths(dir, cfg->waves_path, w_abs, w_rel);
        fprintf(f, "waves %s\nwaves_rel %s\n", w_abs, w_rel);
    }
    if (soc->n > 1)
        for (unsigned i = 0; i < soc->n; i++)
            fprintf(f, "instret_hart%u %" PRIu64 "\n", i, soc->h[i].instret);
    fprintf(f, "%s\n", TS_STATS_END); /* written last: the run finished writing its folder */
    return ts_fclose_output(f, path, err, errlen);
}

/* tracesim run --systemc: the same arguments to tracesim-sc, the SystemC build next to this
 * program (which itself links no SystemC) */
static int run_systemc(int argc, char **argv) {
    char self[4096], prog[4200];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "tracesim: --systemc: cannot find this program's folder\n");
        return TS_EXIT_HOST;
    }
    self[n] = 0;
    snprintf(prog, sizeof prog, "%s/tracesim-sc", dirname(self));
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) return TS_EXIT_HOST;
    int k = 0;
    args[k++] = prog;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--systemc")) args[k++] = argv[i];
    fflush(stdout);
    execv(prog, args);
    fprintf(stderr, "tracesim: --systemc: cannot run %s: %s (built when pkg-config finds SystemC)\n", prog, strerror(errno));
    free(args);
    return TS_EXIT_HOST;
}

int ts_run_main(int argc, char **argv, const ts_run_platform_t *plat) {
    if (plat->exec_systemc)
        for (int i = 1; i < argc; i++)
            if (!strcmp(argv[i], "--systemc")) return run_systemc(argc, argv);
    soc_cfg_t cfg;
    soc_default_cfg(&cfg);
    const char *out = NULL;
    unsigned icache = 0, dcache = 0;
    cache_cfg_t cc = {.size = 0, .line = 32, .ways = 1, .miss_latency = 10};
    int c;
    int srcbits = -1;
    const char *waves_func = NULL, *elf = NULL;
    bool around = false, two_elfs = false, force_outputs = false;
    uint64_t around_v = 0, around_n = 0;
    long gdb_port = -1; /* --gdb */
    gdb_stub_t gdb = {0};
    ts_opts_t op;
    ts_cmd_opts_init(&op, plat->cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        uint64_t v = op.u;
        switch (c) {
        case TS_OPTS_ERROR: fprintf(stderr, "tracesim: %s\n", op.err); return TS_EXIT_USAGE;
        case TS_OPTS_POSITIONAL:
            two_elfs |= elf != NULL;
            elf = op.arg;
            break;
        case O_OUT: out = op.arg; break;
        case O_MAX_CYCLES: cfg.max_cycles = v; break;
        case O_RAM_SIZE:
            if (v & 3) return bad_value("--ram-size", op.arg, "a multiple of 4 from 4K to 1G");
            cfg.ram_size = (uint32_t)v;
            break;
        case O_RAM_WAIT: cfg.ram_wait = (unsigned)v; break;
        case O_WAVES: {
            cfg.waves_path = op.arg;
            size_t l = strlen(op.arg);
            cfg.waves_fst = !(l > 4 && !strcmp(op.arg + l - 4, ".vcd"));
            break;
        }
        case O_WAVES_FROM: cfg.waves_from = v; break;
        case O_WAVES_TO: cfg.waves_to = v; break;
        case O_WAVES_BY_FW: cfg.waves_by_firmware = true; break;
        case O_HPM_COUNTERS: cfg.hpm.n_hpm = (unsigned)v; break;
        case O_HPM_WIDTH: cfg.hpm.width_hpm = (unsigned)v; break;
        case O_RETIRE_LOG: cfg.retire_log = op.arg; break;
        case O_FORCE: force_outputs = true; break;
        case O_ICACHE: icache = (unsigned)v; break;
        case O_DCACHE: dcache = (unsigned)v; break;
        case O_CACHE_WAYS: cc.ways = (unsigned)v; break;
        case O_CACHE_LINE:
            if (v & (v - 1)) return bad_value("--cache-line", op.arg, "a power of two from 4 to 256");
            cc.line = (unsigned)v;
            break;
        case O_CACHE_MISS: cc.miss_latency = (unsigned)v; break;
        case O_TRACE_SRAM:
            if (v & (v - 1)) return bad_value("--trace-sram", op.arg, "a power of two from 64 to 64M");
            cfg.te.sram_size = (unsigned)v;
            break;
        case O_ITC_DEPTH: cfg.te.itc_depth = (unsigned)v; break;
        case O_SINK_WIDTH:
            if (v != 4 && v != 8 && v != 16 && v != 32) return bad_value("--sink-width", op.arg, "4, 8, 16 or 32");
            cfg.te.sink_bytes = (unsigned)v;
            break;
        case O_SRCBITS: srcbits = (int)v; break;
        case O_FUNNEL: cfg.funnel = true; break;
        case O_NO_TRACE: cfg.no_trace = true; break;
        case O_TRACE_CONTEXT: cfg.te.context_force = true; break;
        case O_TRACE_INSN:
            if (!strcmp(op.arg, "btm")) cfg.te.insn_force = TE_INSN_BTM;
            else if (!strcmp(op.arg, "htm"))
                cfg.te.insn_force = TE_INSN_HTM;
            else if (!strcmp(op.arg, "htm-ret"))
                cfg.te.insn_force = TE_INSN_HTM_RET;
            else if (!strcmp(op.arg, "event"))
                cfg.te.insn_force = TE_INSN_EVENT;
            else if (!strcmp(op.arg, "off"))
                cfg.te.insn_force = TE_INSN_OFF;
            else
                return bad_value("--trace-insn", op.arg, "btm, htm, htm-ret, event or off");
            break;
        case O_TRACE_STALL: cfg.te.stall_force = true; break;
        case O_HARTS: cfg.harts = (unsigned)v; break;
        case O_TRACE_BUS: cfg.trace_bus_log = op.arg; break; /* not one of tracesim-sc (TS_OPT_NOT_SC) */
        case O_HOST_IO_LIMIT: cfg.host_io_limit = v; break;
        case O_GDB: gdb_port = (long)v; break;
        case O_SYSTEMC: break; /* handled before parsing (run_systemc) */
        case O_WAVES_FUNC: waves_func = op.arg; break;
        case O_WAVES_ALL: cfg.waves_all = true; break;
        case O_STM_TS: cfg.stm_thread_switch = true; break;
        case O_WAVES_AROUND: {
            const char *comma = strchr(op.arg, ',');
            char vbuf[32];
            if (!comma || (size_t)(comma - op.arg) >= sizeof vbuf)
                return bad_value("--waves-around-mark", op.arg, "V,N: a MARK value and a number of cycles");
            memcpy(vbuf, op.arg, (size_t)(comma - op.arg));
            vbuf[comma - op.arg] = 0;
            if (ts_parse_uint(vbuf, 0, 0xFFFFFFFFu, 0, &around_v) || ts_parse_uint(comma + 1, 0, 1ull << 40, TS_OPT_SUFFIX, &around_n))
                return bad_value("--waves-around-mark", op.arg, "V,N: V 0 to 0xffffffff, N 0 to 2^40 cycles");
            around = true;
            break;
        }
        case O_QUIET: cfg.quiet = true; break;
        case O_HELP: ts_cmd_help(stdout, plat->cmd); return 0;
        }
    }
    if (!elf || two_elfs) {
        fprintf(stderr, "tracesim: run needs exactly one firmware ELF file (see tracesim run --help)\n");
        return TS_EXIT_USAGE;
    }
    for (int i = 0; i < 2; i++) {
        unsigned size = i ? dcache : icache;
        if (!size) continue;
        if ((size & (size - 1)) || size < cc.line * cc.ways) {
            fprintf(stderr, "tracesim: %s size %u must be a power of two of at least line x ways (%u)\n",
                    i ? "--dcache" : "--icache", size, cc.line * cc.ways);
            return TS_EXIT_USAGE;
        }
        cache_cfg_t *side = i ? &cfg.dcache : &cfg.icache;
        *side = cc;
        side->size = size;
    }
    unsigned need = 0; /* SRC bits that tell the harts apart */
    while ((1u << need) < cfg.harts) need++;
    if (srcbits >= 0 && (unsigned)srcbits < need) {
        fprintf(stderr, "tracesim: --srcbits %d cannot tell %u harts apart (at least %u)\n", srcbits, cfg.harts, need);
        return TS_EXIT_USAGE;
    }
    cfg.te.src_bits = srcbits >= 0 ? (unsigned)srcbits : need;
    if (cfg.no_trace && (cfg.te.insn_force || cfg.te.stall_force || cfg.te.context_force)) {
        /* they force encoder registers: with the model detached they would do nothing */
        fprintf(stderr, "tracesim: %s needs the trace model, which --no-trace detaches\n",
                cfg.te.insn_force ? "--trace-insn" : cfg.te.stall_force ? "--trace-stall" :
                                                                          "--trace-context");
        return TS_EXIT_USAGE;
    }
    if (cfg.waves_to && cfg.waves_to <= cfg.waves_from) {
        fprintf(stderr, "tracesim: --waves-to must be greater than --waves-from\n");
        return TS_EXIT_USAGE;
    }
    if (access(elf, R_OK)) {
        fprintf(stderr, "tracesim: cannot open %s: %s\n", elf, strerror(errno));
        return TS_EXIT_NO_FILE;
    }
    { /* the whole ELF before the run folder: a bad one leaves nothing behind */
        char eerr[1024];
        enum elf_load_status es = elf_check(elf, cfg.ram_size, &cfg.xlen, eerr, sizeof eerr);
        if (es != ELF_OK) {
            fprintf(stderr, "tracesim: %s\n", eerr);
            return es == ELF_CANNOT_OPEN ? TS_EXIT_NO_FILE : es == ELF_WRONG_ARCH ? TS_EXIT_WRONG_ARCH :
                                                         es == ELF_OUTSIDE_RAM    ? TS_EXIT_OUTSIDE_RAM :
                                                                                    TS_EXIT_BAD_ELF;
        }
    }
    if (gdb_port >= 0 && cfg.xlen == 64) { /* the stub speaks RV32's registers (sim/gdb/) */
        fprintf(stderr, "tracesim: --gdb debugs RV32 cores only, and %s is an RV64 executable\n", elf);
        return TS_EXIT_USAGE;
    }
    { /* a user's file under an explicit output's name is not replaced unless it is a previous
         * output of run (its first bytes: ts_file.h) or --force */
        char oerr[4400];
        if ((cfg.retire_log && ts_output_may_replace(cfg.retire_log, "run", force_outputs, ts_is_retire_log, oerr, sizeof oerr)) ||
            (cfg.trace_bus_log && ts_output_may_replace(cfg.trace_bus_log, "run", force_outputs, ts_is_trace_bus_log, oerr, sizeof oerr)) ||
            (cfg.waves_path && ts_output_may_replace(cfg.waves_path, "run", force_outputs, ts_is_waves_output, oerr, sizeof oerr))) {
            fprintf(stderr, "tracesim: %s\n", oerr);
            return TS_EXIT_USAGE;
        }
    }
    if ((waves_func || around) && !cfg.waves_path) {
        fprintf(stderr, "tracesim: %s needs --waves FILE\n", waves_func ? "--waves-func" : "--waves-around-mark");
        return TS_EXIT_USAGE;
    }
    if (around && (cfg.waves_from || cfg.waves_to)) {
        fprintf(stderr, "tracesim: --waves-around-mark sets the window: no --waves-from/--waves-to with it\n");
        return TS_EXIT_USAGE;
    }
    if (waves_func) {
        elf_syms_t syms = {0};
        char serr[512];
        if (elf_syms_load(&syms, elf, serr, sizeof serr) == 0) {
            for (size_t i = 0; i < syms.n && !cfg.waves_func; i++)
                if (!strcmp(syms.s[i].name, waves_func)) {
                    cfg.waves_func = true;
                    cfg.waves_func_addr = (uint32_t)syms.s[i].addr;
                    cfg.waves_func_size = (uint32_t)(syms.s[i].size ? syms.s[i].size : 1);
                }
            elf_syms_free(&syms);
        }
        if (!cfg.waves_func) {
            fprintf(stderr, "tracesim: --waves-func: no function '%s' in %s\n", waves_func, elf);
            return TS_EXIT_USAGE;
        }
    }

    /* hooks.csv: the perf hook functions of this ELF (none: no rows), also when GCC renamed
     * the one copy it kept (perfWriteCntrs.isra.0 with -flto; elf_syms_by_name) */
    {
        elf_syms_t syms = {0};
        char serr[512];
        if (elf_syms_load(&syms, elf, serr, sizeof serr) == 0) {
            for (int k = 0; k < GT_HOOKS; k++) {
                const elf_sym_t *e = elf_syms_by_name(&syms, gt_hook_names[k]);
                if (e) cfg.gt_hooks[k] = (uint32_t)e->addr;
            }
            elf_syms_free(&syms);
        }
    }

    char dir[4096];
    if (out) {
        snprintf(dir, sizeof dir, "%s", out);
    } else {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s", elf);
        char *base = basename(tmp), *dot = strrchr(base, '.');
        if (dot && dot != base) *dot = 0;
        for (unsigned n = 1;; n++) {
            snprintf(dir, sizeof dir, "runs/%s-%u", base, n);
            if (access(dir, F_OK)) break;
        }
    }
    { /* -o DIR of a user's (not a previous run folder): its files are not replaced unless --force */
        char oerr[4400];
        if (ts_run_folder_may_replace(dir, force_outputs, oerr, sizeof oerr)) {
            fprintf(stderr, "tracesim: %s\n", oerr);
            return TS_EXIT_USAGE;
        }
    }
    bool made = access(dir, F_OK) != 0, made_runs = !out && access("runs", F_OK) != 0;
    if (ts_mkdir_p(dir)) {
        fprintf(stderr, "tracesim: cannot create run folder %s: %s\n", dir, strerror(errno));
        return TS_EXIT_HOST;
    }
    if (!made) { /* a folder of an earlier run: none of its outputs may pass for this run's */
        char cerr[4400];
        /* an earlier run that did not finish is named as every command names it */
        ts_run_say_unfinished_then(dir, "its files are removed, this run replaces them");
        if (ts_run_clear_previous(dir, cerr, sizeof cerr)) {
            fprintf(stderr, "tracesim: %s\n", cerr);
            return TS_EXIT_HOST;
        }
    }
    cfg.out_dir = dir;
    cfg.progress = isatty(2);
    if (around) {
        int r = find_mark(plat, &cfg, elf, dir, (uint32_t)around_v, around_n);
        if (r) {
            if (made) remove_made_run_folder(dir, made_runs);
            return r;
        }
    }

    soc_t soc;
    char err[1024];
    if (soc_init(&soc, &cfg, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        soc_free(&soc);
        if (made) remove_made_run_folder(dir, made_runs);
        return TS_EXIT_HOST;
    }
    uint32_t entry = 0;
    enum elf_load_status ls = elf_load(&soc, elf, &entry, err, sizeof err);
    if (ls != ELF_OK) {
        fprintf(stderr, "tracesim: %s\n", err);
        soc_free(&soc);
        if (made) remove_made_run_folder(dir, made_runs);
        return ls == ELF_CANNOT_OPEN ? TS_EXIT_NO_FILE : ls == ELF_WRONG_ARCH ? TS_EXIT_WRONG_ARCH :
                                                     ls == ELF_OUTSIDE_RAM    ? TS_EXIT_OUTSIDE_RAM :
                                                                                TS_EXIT_BAD_ELF;
    }
    soc_reset(&soc, entry);
    /* SIGINT/SIGTERM: the run stops between cycles and writes what it has (exit_reason
     * interrupted, status 128 + the signal); a second one ends the process at once. Caught
     * before stats.txt appears: whoever sees the run going (stats.txt without an end
     * marker) may signal it and gets an interrupted run, never a lost signal (a background
     * job of a non-interactive shell starts with SIGINT ignored) */
    soc.interrupt = &run_signal;
    catch_stop_signals();
    if (write_stats_start(dir, elf, &cfg, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        soc_free(&soc);
        if (made) remove_made_run_folder(dir, made_runs);
        return TS_EXIT_HOST;
    }
    if (gdb_port >= 0) { /* --gdb: the stub sees every cycle (sim/gdb/gdb_stub.h) */
        if (gdb_stub_open(&gdb, &soc, (unsigned)gdb_port, dir, err, sizeof err)) {
            fprintf(stderr, "tracesim: --gdb: %s\n", err);
            gdb_stub_free(&gdb);
            soc_free(&soc);
            if (made) remove_made_run_folder(dir, made_runs);
            return TS_EXIT_HOST;
        }
        soc.between = gdb_stub_between;
        soc.between_ctx = &gdb;
    }
    double t0 = now_s();
    enum soc_stop stop = plat->run(&soc);
    double secs = now_s() - t0;
    if (secs <= 0) secs = 1e-9;

    int rc = stop == SOC_EXIT ? ts_fw_exit_status(soc.exit_code) : stop == SOC_HANG    ? TS_EXIT_HANG :
                                                               stop == SOC_INTERRUPTED ? TS_EXIT_SIGNAL_BASE + run_signal :
                                                                                         TS_EXIT_CYCLE_LIMIT;
    uint64_t instret = soc_instret(&soc);
    double ipc = soc.cycle ? (double)instret / (double)soc.cycle : 0.0;
    /* every output written in full, or one line and TS_EXIT_HOST (a full disk, /dev/full);
     * stats.txt last, its end marker its last line: a run folder whose stats.txt lacks it is
     * from a run that did not finish (analysis/run/run_folder.h ts_run_unfinished) */
    if (hpm_report(&soc, dir, !cfg.quiet, err, sizeof err) || run_write_trace(&soc, err, sizeof err) ||
        soc_close_outputs(&soc, err, sizeof err) ||
        write_stats(&soc, &cfg, dir, elf, stop, rc, instret, ipc, secs, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        soc_free(&soc);
        return TS_EXIT_HOST;
    }
    if (stop == SOC_EXIT && (soc.exit_code < 0 || soc.exit_code > TS_EXIT_FW_MAX)) /* sim/exit_codes.h: the rule */
        fprintf(stderr, "tracesim: the firmware exited with code %d, outside 0..%d: exit status %d "
                        "(the code is stats.txt's fw_exit_code)\n",
                soc.exit_code, TS_EXIT_FW_MAX, TS_EXIT_FW_OTHER);
    if (stop == SOC_INTERRUPTED)
        fprintf(stderr, "tracesim: interrupted by %s at cycle %" PRIu64 ": the run folder %s holds the run up to "
                        "there (stats.txt: exit_reason interrupted)\n",
                signal_name(run_signal), soc.cycle, dir);
    if (stop == SOC_HANG) { /* one line per hart, with the function from the ELF's symbols */
        elf_syms_t syms = {0};
        char serr[512];
        bool have = elf_syms_load(&syms, elf, serr, sizeof serr) == 0;
        soc_hang_report(&soc, have ? &syms : NULL, stderr);
        if (have) elf_syms_free(&syms);
    }
    if (stop == SOC_CYCLE_LIMIT)
        fprintf(stderr, "tracesim: cycle limit of %" PRIu64 " reached; firmware did not exit (see --max-cycles)\n",
                cfg.max_cycles);
    if (!cfg.quiet)
        fprintf(stderr, "tracesim: %s %d after %" PRIu64 " cycles, %" PRIu64 " instructions (IPC %.3f); "
                        "%.2f s, %.2f M cycles/s; run folder %s\n",
                stop == SOC_EXIT ? "exit" : "stopped, status", stop == SOC_EXIT ? soc.exit_code : rc, soc.cycle, instret, ipc,
                secs, (double)soc.cycle / secs / 1e6, dir);
    if (!cfg.quiet) { /* what the trace lacks (docs/lost-data.md) */
        ts_losses_t loss;
        char lerr[512];
        if (ts_losses_read(dir, -1, &loss, lerr, sizeof lerr)) fprintf(stderr, "tracesim: warning: %s\n", lerr);
        else
            ts_losses_print(stderr, "tracesim: note: ", &loss);
    }
    if (gdb_port >= 0) {
        gdb_stub_finish(&gdb, rc);
        gdb_stub_free(&gdb);
    }
    soc_free(&soc);
    return rc;
}
