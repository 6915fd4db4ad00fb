/* main.c - the tracesim command line: `tracesim run FW.elf [options]`. */
#include "cli_util.h"
#include "run_losses.h"
#include "decode_cli.h"
#include "ground_truth.h"
#include "elf_load.h"
#include "overhead.h"
#include "exit_codes.h"
#include "run_outputs.h"
#include "sweep_cli.h"
#include "soc.h"
#include "stmfilter.h"
#include "symfilter.h"
#include "markers.h"
#include "elf_syms.h"
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f) {
    fputs("usage: tracesim run [options] FW.elf\n"
          "       tracesim decode [options] TRACE.rtd   (see tracesim decode --help)\n"
          "       tracesim check RUN_DIR                 (trace against the run's ground truth)\n"
          "       tracesim report [options] TRACE.rtd   (gprof-like profile of perf records; see --help)\n"
          "       tracesim overhead [options]           (what perf instrumentation costs; see --help)\n"
          "       tracesim symfilter FW.elf             (GTKWave filter: PC -> function+offset)\n"
          "       tracesim stmfilter                    (GTKWave filter: software trace id -> group, name)\n"
          "       tracesim waves RUN_DIR [VIEW [HART]]  (the run's waves in GTKWave with markers)\n"
          "       tracesim sweep [options] SPEC.json    (run a sweep of points, locally or on Slurm; see --help)\n"
          "\n"
          "Runs bare-metal RV32 firmware on the simulated SoC. UART output goes to stdout and\n"
          "DIR/uart.txt; the exit status is the firmware's exit code (simctrl EXIT).\n"
          "\n"
          "options:\n"
          "  -o, --out DIR          run folder (default: runs/<elf name>-<n>, first free n)\n"
          "  -n, --max-cycles N     stop after N cycles with status 124 (default 1000000000; 0: no limit)\n"
          "      --ram-size BYTES   RAM size (default 16 MiB; suffixes K, M)\n"
          "      --ram-wait N       wait states per RAM access (default 0)\n"
          "      --waves FILE       write waveforms (FST; VCD if FILE ends in .vcd)\n"
          "      --waves-from N     first cycle to dump (default 0)\n"
          "      --waves-to N       first cycle not dumped (default: end of run)\n"
          "      --waves-by-firmware  dump only while the firmware has simctrl WAVES set to 1\n"
          "      --waves-all        dump every signal of the model (default: the signals of the\n"
          "                         GTKWave views in waves/, about twice as fast)\n"
          "      --waves-func NAME  dump only while function NAME (an ELF symbol) is on a call stack\n"
          "      --waves-around-mark V,N  dump N cycles before and after the first simctrl MARK of\n"
          "                         value V (runs the firmware twice: the first run finds the mark)\n"
          "      --hpm-counters N   programmable HPM counters (0..29, default 29)\n"
          "      --hpm-width N      width of mhpmcounter3..31 in bits (1..64, default 40)\n"
          "      --icache SIZE      timing-only I-cache of SIZE bytes (default: none)\n"
          "      --dcache SIZE      timing-only D-cache of SIZE bytes (default: none)\n"
          "      --cache-ways N     1 (direct-mapped, default) or 2 (LRU)\n"
          "      --cache-line N     line size in bytes (default 32)\n"
          "      --cache-miss N     cycles a cache miss costs (default 10)\n"
          "      --trace-sram SIZE  SRAM trace sink size (default 16K)\n"
          "      --itc-depth N      ITC stimulus FIFO entries (default 8)\n"
          "      --sink-width N     trace sink bytes per cycle: 4, 8, 16, 32 (default 4)\n"
          "      --harts N          harts (cores) in the SoC, 1..8 (default 1); with N > 1 the funnel\n"
          "                         merges the N encoders (hart n's at 0x10000000 + 0x1000 n)\n"
          "      --srcbits N        SRC field bits of the encoders (teImpl.nSrcBits, 0..4; default 0,\n"
          "                         with several harts the bits N needs: 1, 2 or 3)\n"
          "      --funnel           add a trace funnel at 0x10018000 (encoders use teSink 8)\n"
          "      --no-trace         detach the trace model (benchmarking: its registers read 1)\n"
          "      --stm-thread-switch  software trace port: every write to tp (x4) emits THREAD_SWITCH\n"
          "      --retire-log FILE  write every retired instruction (cycle pc insn) and trap\n"
          "      --record-trace-bus FILE  write every trace register access and SBA write (for the\n"
          "                         SystemC replay test)\n"
          "      --systemc          run on the SystemC/TLM-2.0 platform (tracesim-sc, same results)\n"
          "  -q, --quiet            no UART echo, no summary, no progress\n"
          "  -h, --help             this text\n"
          "\n"
          "exit status: firmware exit code; 120 usage, 121 missing file, 122 invalid ELF,\n"
          "123 not RV32, 124 cycle limit, 125 segment outside RAM, 126 host error\n", f);
}

static int bad_value(const char *opt, const char *val) {
    fprintf(stderr, "tracesim: invalid value '%s' for %s (see tracesim run --help)\n", val, opt);
    return TS_EXIT_USAGE;
}

static int parse_u64(const char *s, uint64_t *out) {
    char *end;
    if (!s || !*s || *s == '-') return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno) return -1;
    if (*end == 'K' || *end == 'k') { v <<= 10; end++; }
    else if (*end == 'M' || *end == 'm') { v <<= 20; end++; }
    if (*end) return -1;
    *out = v;
    return 0;
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
static void hpm_report(const soc_t *s, const char *dir, bool print) {
    char path[4200], names[512];
    bool multi = s->n > 1;
    snprintf(path, sizeof path, "%s/hpm.csv", dir);
    FILE *f = fopen(path, "w");
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
            else if (n == 2) snprintf(name, sizeof name, "minstret");
            else snprintf(name, sizeof name, "mhpmcounter%u", n);
            if (fixed) snprintf(names, sizeof names, "%s", n == 0 ? "cycle" : "instret");
            else hpm_event_names(m->event[n], names, sizeof names);
            uint64_t v = hpm_counter(m, n);
            if (f) {
                if (multi) fprintf(f, "%u,", h);
                fprintf(f, "%s,0x%03x,0x%x,%s,%u,%" PRIu64 "\n", name, 0xB00 + n, fixed ? 0 : m->event[n],
                        names, hpm_width(m, n), v);
            }
            if (print && !fixed) {
                if (!header) { fputs("tracesim: HPM counters enabled by the firmware:\n", stderr); header = true; }
                char hart[16] = "";
                if (multi) snprintf(hart, sizeof hart, "hart %u ", h);
                fprintf(stderr, "  %s%-14s %20" PRIu64 "  mhpmevent 0x%08x (%s)%s\n", hart, name, v,
                        m->event[n], names, (m->inhibit >> n) & 1 ? " [inhibited]" : "");
            }
        }
    }
    if (f) fclose(f);
    snprintf(path, sizeof path, "%s/events.csv", dir);
    f = fopen(path, "w");
    if (!f) return;
    if (multi) fputs("hart,", f);
    for (unsigned i = 0; i < hpm_n_events; i++) fprintf(f, "%s%s", i ? "," : "", hpm_events[i].csv);
    fputc('\n', f);
    for (unsigned h = 0; h < s->n; h++) {
        if (multi) fprintf(f, "%u,", h);
        for (unsigned i = 0; i < hpm_n_events; i++)
            fprintf(f, "%s%" PRIu64, i ? "," : "", s->h[h].ev_total[hpm_events[i].index]);
        fputc('\n', f);
    }
    fclose(f);
}

/* --waves-around-mark: a first run without waves finds the cycle of the first MARK of value v
 * (the simulation is deterministic, so the second run reaches it in the same cycle) and sets
 * the waves window to [cycle - n, cycle + n]. 0, or an exit status after a one-line message. */
static int find_mark(soc_cfg_t *cfg, const char *elf, const char *dir, uint32_t v, uint64_t n) {
    soc_cfg_t c1 = *cfg;
    c1.waves_path = NULL;
    c1.quiet = true;
    c1.progress = false;
    soc_t soc;
    char err[1024];
    int rc = 0;
    uint32_t entry = 0;
    if (soc_init(&soc, &c1, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        rc = TS_EXIT_HOST;
    } else if (elf_load(&soc, elf, &entry, err, sizeof err) != ELF_OK) {
        fprintf(stderr, "tracesim: %s\n", err);
        rc = TS_EXIT_BAD_ELF;
    } else {
        if (cfg->progress) fprintf(stderr, "tracesim: --waves-around-mark: first run, finding MARK %u\n", v);
        soc_reset(&soc, entry);
        soc_run(&soc);
    }
    soc_free(&soc);
    if (rc) return rc;
    char path[4200], line[256];
    snprintf(path, sizeof path, "%s/marks.csv", dir);
    FILE *f = fopen(path, "r");
    bool found = false;
    uint64_t cycle = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        unsigned mv;
        unsigned long long mc;
        if (sscanf(line, "%u,%llu,", &mv, &mc) == 2 && mv == v) { found = true; cycle = mc; }
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
#ifdef TS_SYSTEMC
enum soc_stop ts_sc_run(soc_t *s);   /* sim/systemc/ts_sc_platform.cpp */
#else
/* tracesim run --systemc: the same arguments to tracesim-sc, the SystemC build next to this
 * program (which itself links no SystemC) */
static int run_systemc(int argc, char **argv) {
    char self[4096], prog[4200];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) { fprintf(stderr, "tracesim: --systemc: cannot find this program's folder\n"); return TS_EXIT_HOST; }
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
#endif

static int cmd_run(int argc, char **argv) {
#ifndef TS_SYSTEMC
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--systemc")) return run_systemc(argc, argv);
#endif
    soc_cfg_t cfg;
    soc_default_cfg(&cfg);
    const char *out = NULL;
    unsigned icache = 0, dcache = 0;
    cache_cfg_t cc = {.size = 0, .line = 32, .ways = 1, .miss_latency = 10};
    static const struct option opts[] = {
        {"out", required_argument, 0, 'o'},       {"max-cycles", required_argument, 0, 'n'},
        {"ram-size", required_argument, 0, 1},    {"ram-wait", required_argument, 0, 2},
        {"waves", required_argument, 0, 3},       {"waves-from", required_argument, 0, 4},
        {"waves-to", required_argument, 0, 5},    {"waves-by-firmware", no_argument, 0, 6},
        {"hpm-counters", required_argument, 0, 7}, {"hpm-width", required_argument, 0, 8},
        {"retire-log", required_argument, 0, 9},
        {"icache", required_argument, 0, 10},     {"dcache", required_argument, 0, 11},
        {"cache-ways", required_argument, 0, 12}, {"cache-line", required_argument, 0, 13},
        {"cache-miss", required_argument, 0, 14},
        {"trace-sram", required_argument, 0, 15}, {"itc-depth", required_argument, 0, 16},
        {"sink-width", required_argument, 0, 17}, {"srcbits", required_argument, 0, 18},
        {"funnel", no_argument, 0, 19},           {"no-trace", no_argument, 0, 20},
        {"harts", required_argument, 0, 21},      {"record-trace-bus", required_argument, 0, 22},
        {"systemc", no_argument, 0, 23},
        {"waves-func", required_argument, 0, 24}, {"waves-around-mark", required_argument, 0, 25},
        {"waves-all", no_argument, 0, 26},       {"stm-thread-switch", no_argument, 0, 27},
        {"quiet", no_argument, 0, 'q'},           {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    uint64_t v;
    int srcbits = -1;
    const char *waves_func = NULL;
    bool around = false;
    uint64_t around_v = 0, around_n = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:n:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'n': if (parse_u64(optarg, &cfg.max_cycles)) return bad_value("--max-cycles", optarg); break;
        case 1:
            if (parse_u64(optarg, &v) || v < 4096 || v > 0x40000000u || (v & 3)) {
                fprintf(stderr, "tracesim: invalid value '%s' for --ram-size (allowed: 4K to 1024M bytes, a multiple of 4; "
                                "suffixes K, M)\n", optarg);
                return TS_EXIT_USAGE;
            }
            cfg.ram_size = (uint32_t)v; break;
        case 2: if (parse_u64(optarg, &v) || v > 1000) return bad_value("--ram-wait", optarg); cfg.ram_wait = (unsigned)v; break;
        case 3: {
            cfg.waves_path = optarg;
            size_t l = strlen(optarg);
            cfg.waves_fst = !(l > 4 && !strcmp(optarg + l - 4, ".vcd"));
            break;
        }
        case 4: if (parse_u64(optarg, &cfg.waves_from)) return bad_value("--waves-from", optarg); break;
        case 5: if (parse_u64(optarg, &cfg.waves_to)) return bad_value("--waves-to", optarg); break;
        case 6: cfg.waves_by_firmware = true; break;
        case 7: if (parse_u64(optarg, &v) || v > 29) return bad_value("--hpm-counters", optarg); cfg.hpm.n_hpm = (unsigned)v; break;
        case 8: if (parse_u64(optarg, &v) || v < 1 || v > 64) return bad_value("--hpm-width", optarg); cfg.hpm.width_hpm = (unsigned)v; break;
        case 9: cfg.retire_log = optarg; break;
        case 10: if (parse_u64(optarg, &v) || v > (1u << 24)) return bad_value("--icache", optarg); icache = (unsigned)v; break;
        case 11: if (parse_u64(optarg, &v) || v > (1u << 24)) return bad_value("--dcache", optarg); dcache = (unsigned)v; break;
        case 12: if (parse_u64(optarg, &v) || (v != 1 && v != 2)) return bad_value("--cache-ways", optarg); cc.ways = (unsigned)v; break;
        case 13: if (parse_u64(optarg, &v) || v < 4 || v > 256 || (v & (v - 1))) return bad_value("--cache-line", optarg); cc.line = (unsigned)v; break;
        case 14: if (parse_u64(optarg, &v) || v > 10000) return bad_value("--cache-miss", optarg); cc.miss_latency = (unsigned)v; break;
        case 15: if (parse_u64(optarg, &v) || v < 64 || v > (64u << 20) || (v & (v - 1))) return bad_value("--trace-sram", optarg); cfg.te.sram_size = (unsigned)v; break;
        case 16: if (parse_u64(optarg, &v) || v < 1 || v > 1024) return bad_value("--itc-depth", optarg); cfg.te.itc_depth = (unsigned)v; break;
        case 17: if (parse_u64(optarg, &v) || (v != 4 && v != 8 && v != 16 && v != 32)) return bad_value("--sink-width", optarg); cfg.te.sink_bytes = (unsigned)v; break;
        case 18: if (parse_u64(optarg, &v) || v > 4) return bad_value("--srcbits", optarg); srcbits = (int)v; break;
        case 19: cfg.funnel = true; break;
        case 20: cfg.no_trace = true; break;
        case 21:
            if (parse_u64(optarg, &v) || v < 1 || v > SOC_MAX_HARTS) {
                fprintf(stderr, "tracesim: invalid value '%s' for --harts (1 to %u)\n", optarg, SOC_MAX_HARTS);
                return TS_EXIT_USAGE;
            }
            cfg.harts = (unsigned)v;
            break;
        case 22:
#ifdef TS_SYSTEMC
            fprintf(stderr, "tracesim: --record-trace-bus is an option of tracesim run without --systemc\n");
            return TS_EXIT_USAGE;
#endif
            cfg.trace_bus_log = optarg; break;
        case 23: break;   /* handled before parsing (run_systemc) */
        case 24: waves_func = optarg; break;
        case 26: cfg.waves_all = true; break;
        case 27: cfg.stm_thread_switch = true; break;
        case 25: {
            const char *comma = strchr(optarg, ',');
            char vbuf[32];
            if (!comma || (size_t)(comma - optarg) >= sizeof vbuf) return bad_value("--waves-around-mark", optarg);
            memcpy(vbuf, optarg, (size_t)(comma - optarg));
            vbuf[comma - optarg] = 0;
            if (parse_u64(vbuf, &around_v) || around_v > 0xFFFFFFFFu || parse_u64(comma + 1, &around_n) ||
                around_n > (1ull << 40))
                return bad_value("--waves-around-mark", optarg);
            around = true;
            break;
        }
        case 'q': cfg.quiet = true; break;
        case 'h': usage(stdout); return 0;
        case ':': fprintf(stderr, "tracesim: option %s needs a value (see tracesim run --help)\n", argv[optind - 1]); return TS_EXIT_USAGE;
        default: fprintf(stderr, "tracesim: unknown option '%s' (see tracesim run --help)\n", argv[optind - 1]); return TS_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
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
    unsigned need = 0;   /* SRC bits that tell the harts apart */
    while ((1u << need) < cfg.harts) need++;
    if (srcbits >= 0 && (unsigned)srcbits < need) {
        fprintf(stderr, "tracesim: --srcbits %d cannot tell %u harts apart (at least %u)\n", srcbits, cfg.harts, need);
        return TS_EXIT_USAGE;
    }
    cfg.te.src_bits = srcbits >= 0 ? (unsigned)srcbits : need;
    if (cfg.waves_to && cfg.waves_to <= cfg.waves_from) {
        fprintf(stderr, "tracesim: --waves-to must be greater than --waves-from\n");
        return TS_EXIT_USAGE;
    }
    const char *elf = argv[optind];
    if (access(elf, R_OK)) {
        fprintf(stderr, "tracesim: cannot open %s: %s\n", elf, strerror(errno));
        return TS_EXIT_NO_FILE;
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
                if (!strcmp(syms.s[i].name, waves_func)) { cfg.waves_func = true; cfg.waves_func_addr = (uint32_t)syms.s[i].addr; }
            elf_syms_free(&syms);
        }
        if (!cfg.waves_func) {
            fprintf(stderr, "tracesim: --waves-func: no function '%s' in %s\n", waves_func, elf);
            return TS_EXIT_USAGE;
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
    if (ts_mkdir_p(dir)) {
        fprintf(stderr, "tracesim: cannot create run folder %s: %s\n", dir, strerror(errno));
        return TS_EXIT_HOST;
    }
    cfg.out_dir = dir;
    cfg.progress = isatty(2);
    if (around) {
        int r = find_mark(&cfg, elf, dir, (uint32_t)around_v, around_n);
        if (r) return r;
    }

    soc_t soc;
    char err[1024];
    if (soc_init(&soc, &cfg, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        soc_free(&soc);
        return TS_EXIT_HOST;
    }
    uint32_t entry = 0;
    enum elf_load_status ls = elf_load(&soc, elf, &entry, err, sizeof err);
    if (ls != ELF_OK) {
        fprintf(stderr, "tracesim: %s\n", err);
        soc_free(&soc);
        return ls == ELF_CANNOT_OPEN ? TS_EXIT_NO_FILE : ls == ELF_WRONG_ARCH ? TS_EXIT_WRONG_ARCH
             : ls == ELF_OUTSIDE_RAM ? TS_EXIT_OUTSIDE_RAM : TS_EXIT_BAD_ELF;
    }
    soc_reset(&soc, entry);
    double t0 = now_s();
#ifdef TS_SYSTEMC
    enum soc_stop stop = ts_sc_run(&soc);
#else
    enum soc_stop stop = soc_run(&soc);
#endif
    double secs = now_s() - t0;
    if (secs <= 0) secs = 1e-9;

    int rc = stop == SOC_EXIT ? soc.exit_code : TS_EXIT_CYCLE_LIMIT;
    uint64_t instret = soc_instret(&soc);
    double ipc = soc.cycle ? (double)instret / (double)soc.cycle : 0.0;
    char path[4200];
    snprintf(path, sizeof path, "%s/stats.txt", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "elf %s\nexit_reason %s\nexit_code %d\ncycles %" PRIu64 "\ninstret %" PRIu64
                   "\nipc %.4f\nsim_seconds %.6f\nsim_hz %.0f\nguest_errors %" PRIu64 "\n",
                elf, stop == SOC_EXIT ? "exit" : "cycle_limit", rc, soc.cycle, instret, ipc,
                secs, (double)soc.cycle / secs, soc.guest_errors_total);
        fprintf(f, "harts %u\n", soc.n);
        uint64_t stm = 0;
        for (unsigned i = 0; i < soc.n; i++) stm += soc.h[i].stm_events;
        fprintf(f, "stm_events %" PRIu64 "\n", stm);
        if (cfg.waves_path) fprintf(f, "waves %s\n", cfg.waves_path);
        if (soc.n > 1)
            for (unsigned i = 0; i < soc.n; i++)
                fprintf(f, "instret_hart%u %" PRIu64 "\n", i, soc.h[i].instret);
        fclose(f);
    }
    hpm_report(&soc, dir, !cfg.quiet);
    if (run_write_trace(&soc, err, sizeof err)) {
        fprintf(stderr, "tracesim: %s\n", err);
        soc_free(&soc);
        return TS_EXIT_HOST;
    }
    if (stop == SOC_CYCLE_LIMIT)
        fprintf(stderr, "tracesim: cycle limit of %" PRIu64 " reached; firmware did not exit (see --max-cycles)\n",
                cfg.max_cycles);
    if (!cfg.quiet)
        fprintf(stderr, "tracesim: %s %d after %" PRIu64 " cycles, %" PRIu64 " instructions (IPC %.3f); "
                        "%.2f s, %.2f M cycles/s; run folder %s\n",
                stop == SOC_EXIT ? "exit" : "stopped, status", rc, soc.cycle, instret, ipc,
                secs, (double)soc.cycle / secs / 1e6, dir);
    if (!cfg.quiet) {                           /* what the trace lacks (README "Lost perf data") */
        ts_losses_t loss;
        char lerr[512];
        if (ts_losses_read(dir, -1, &loss, lerr, sizeof lerr)) fprintf(stderr, "tracesim: warning: %s\n", lerr);
        else ts_losses_print(stderr, "tracesim: note: ", &loss);
    }
    soc_free(&soc);
    return rc;
}

#ifdef TS_SYSTEMC
/* tracesim-sc: sc_main (sim/systemc/ts_sc_main.cpp) calls this with argv[1] = "run" */
int ts_cli_main(int argc, char **argv);
#define main ts_cli_main
#endif
int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TS_EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(argv[1], "decode")) return ts_decode_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "check")) return ts_check_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "report")) return ts_report_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "overhead")) return ts_overhead_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "symfilter")) return ts_symfilter_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "stmfilter")) return ts_stmfilter_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "waves")) return ts_waves_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "sweep")) return ts_sweep_main(argc - 1, argv + 1);
    fprintf(stderr, "tracesim: unknown command '%s' (commands: run, decode, check, report, overhead, symfilter, stmfilter, waves, sweep)\n", argv[1]);
    return TS_EXIT_USAGE;
}
