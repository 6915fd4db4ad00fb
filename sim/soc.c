/* soc.c - the SoC's wiring and run controller: init/free, reset, the cycle loop (soc_step,
 * order in soc.h), run control (exit, cycle limit, waves window, progress) and the guest-error
 * log. Bus and RAM: bus.c; devices: clint.c, uart.c, simctrl.c, rtl_model/; ground truth:
 * ground_truth_log.c; trace.rtd/trace.json: run_outputs.c.
 */
#include "soc.h"
#include "dpi.h"
#include "soc_targets.h"
#include "ts_file.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define GUEST_ERRORS_SHOWN 20
#define GUEST_ERRORS_LOGGED 10000 /* a trap loop must not fill the disk */

void soc_default_cfg(soc_cfg_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->ram_size = MAP_RAM_SIZE;
    cfg->mtime_div = 100;
    cfg->max_cycles = 1000000000ull;
    cfg->waves_fst = 1;
    cfg->harts = 1;
    cfg->host_io_limit = SIMCTRL_HOST_BUDGET_DEFAULT;
    hpm_default_cfg(&cfg->hpm);
    te_default_cfg(&cfg->te);
}

static bool find_in_path(const char *prog) {
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
        if (!access(buf, X_OK)) return true;
        p += n + (e ? 1 : 0);
    }
    return false;
}

/* converts the temporary FST to the requested VCD; returns 0 on success */
static int waves_to_vcd(soc_t *s) {
    /* the VCD on fst2vcd's stdout into the run-folder writer's temporary file (ts_file.h) */
    char *argv[] = {"fst2vcd", "-f", s->waves_tmp, NULL};
    pid_t pid;
    int st = 0;
    char err[4400];
    int fd = ts_open_output(s->cfg.waves_path, 0666 | TS_OUTPUT_USER, err, sizeof err);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (fd >= 0) posix_spawn_file_actions_adddup2(&fa, fd, 1);
    if (fd < 0 || posix_spawnp(&pid, "fst2vcd", &fa, NULL, argv, environ) || waitpid(pid, &st, 0) < 0 ||
        !WIFEXITED(st) || WEXITSTATUS(st) || ts_close_output(fd, s->cfg.waves_path, err, sizeof err)) {
        posix_spawn_file_actions_destroy(&fa);
        if (fd >= 0) ts_output_abort_fd(fd);
        fprintf(stderr, "tracesim: converting waves to VCD with fst2vcd failed; the FST is kept as %s\n", s->waves_tmp);
        return -1;
    }
    posix_spawn_file_actions_destroy(&fa);
    unlink(s->waves_tmp);
    return 0;
}

static FILE *open_out(const char *dir, const char *name, char *err, size_t errlen) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ts_fopen_output(path, "w", err, errlen); /* renamed into place at its close (ts_file.h) */
}

/* ---- what the models ask of the run controller ---------------------------------------- */

static void hook_guest_error(void *ctx, const char *msg) { soc_guest_error(ctx, "%s", msg); }

/* the timestamp a message of the ground-truth row at `cycle` got (the encoder's time now),
 * when its messages carry one (te.c pack(): the encoder's unit on, tsInstrumentation or
 * tsOwnership set) */
static void note_ts(soc_t *s, const te_t *t, uint64_t cycle) {
    if (!tsunit_enabled(&t->ts) || !(t->ts.control & (3u << 18))) return;
    int64_t rel = (int64_t)tsunit_now(&t->ts) - (int64_t)cycle;
    if (!s->ts_rel_seen) {
        s->ts_rel_seen = true;
        s->ts_rel = rel;
    } else if (rel != s->ts_rel)
        s->ts_rel_varies = true; /* prescaled, stopped or written */
}

static void hook_itc_store(void *ctx, unsigned hart, unsigned stim, unsigned off, unsigned size,
                           uint32_t value, int status) {
    soc_t *s = ctx;
    gt_log_itc(&s->h[0].gt, s->cycle, hart, stim, off, size, value, status);
    if (status != BUS_ITC_TRACED) return;
    perf_live_store(&s->perf_live, hart, stim, off, size, value);
    if (hart < s->n) note_ts(s, &s->h[hart].te, s->cycle);
}

static void hook_itc_lost(void *ctx, unsigned hart, unsigned stim) {
    soc_t *s = ctx;
    gt_log_trace_event(&s->h[0].gt, s->cycle, (int)hart, "itc_lost", stim);
}

static void hook_ts_read(void *ctx, unsigned hart, uint32_t pc, const char *reg, uint32_t value) {
    soc_t *s = ctx;
    gt_log_ts_read(&s->h[0].gt, s->cycle, hart, pc, reg, value);
}

/* --record-trace-bus: one line per access to a trace page and per SBA word (the format:
 * docs/commands/tracesim-sc.md, "Replay"; sim/systemc/ts_replay_test.cpp reads it) */
static void hook_trace_access(void *ctx, unsigned hart, uint32_t addr, unsigned size, bool we, uint32_t val,
                              int st) {
    soc_t *s = ctx;
    fprintf(s->trace_bus, "%llu %u %c 0x%08x %u 0x%08x %s\n", (unsigned long long)s->cycle, hart, we ? 'w' : 'r',
            addr, size, val, st == BUS_OK ? "ok" : st == BUS_WAIT ? "wait" :
                                                                    "err");
}

static void hook_trace_sba(void *ctx, uint32_t addr, const uint8_t *data, unsigned width) {
    soc_t *s = ctx;
    fprintf(s->trace_bus, "%llu sba 0x%08x ", (unsigned long long)s->cycle, addr);
    for (unsigned i = 0; i < width; i++) fprintf(s->trace_bus, "%02x", data[i]);
    fputc('\n', s->trace_bus);
}

static uint64_t host_cycle(void *ctx) { return ((soc_t *)ctx)->cycle; }
static uint64_t host_instret(void *ctx, unsigned hart) {
    soc_t *s = ctx;
    return hart < s->n ? s->h[hart].instret : 0;
}

uint64_t soc_instret(const soc_t *s) {
    uint64_t n = 0;
    for (unsigned i = 0; i < s->n; i++) n += s->h[i].instret;
    return n;
}

const sink_t *soc_sink(const soc_t *s) { return s->funnel_on ? &s->funnel.sink : &s->h[0].te.sink; }
static uint8_t *host_ram(void *ctx, uint32_t addr, uint32_t len) { return bus_ram(&((soc_t *)ctx)->bus, addr, len); }

static void host_exit(void *ctx, int code) {
    soc_t *s = ctx;
    s->stop = SOC_EXIT;
    s->exit_code = code;
    if (s->run_hooks.exit) s->run_hooks.exit(s->run_hooks.ctx, code);
}

static void host_mark(void *ctx, unsigned hart, uint32_t value) {
    soc_t *s = ctx;
    if (s->run_hooks.mark) s->run_hooks.mark(s->run_hooks.ctx, hart, value);
}

static void host_file(void *ctx, unsigned hart, uint32_t cmd, const char *name, uint32_t len, uint32_t status) {
    soc_t *s = ctx;
    (void)cmd;
    if (s->run_hooks.host_io) s->run_hooks.host_io(s->run_hooks.ctx, hart, name, len, status);
}

static void waves_update(soc_t *s);

/* makes the stack of thread tp current on hart (the first tp seen names the stack in use);
 * false: out of memory */
static bool func_thread(soc_t *s, unsigned hart, uint32_t tp) {
    cs_t *cs = &s->func[hart].cs;
    uint64_t id = (uint64_t)tp | 1ull << 32;
    if (cs_thread_id(cs) != id && (s->func[hart].named || cs_name(cs, id)) && cs_switch(cs, id)) return false;
    s->func[hart].named = true;
    return true;
}

/* a write to tp retired: the switch takes effect there, so a window closes with the last
 * instruction of the thread switched out and opens with the first of the one switched in */
static void hook_tp(void *ctx, unsigned hart, uint32_t old_tp, uint32_t new_tp) {
    soc_t *s = ctx;
    cs_t *cs = &s->func[hart].cs;
    size_t before = cs_depth(cs);
    if (func_thread(s, hart, old_tp) && func_thread(s, hart, new_tp) && cs_depth(cs) != before) waves_update(s);
}

/* --waves-func: a call into the function opens a frame (the call model of
 * decoder/include/callstack.h), the return to its link address closes it, and so does any other
 * return that leaves it: one that lands outside the function with the stack pointer above
 * the frame's call, or at it (longjmp); the waves dump while any hart has a frame open (and
 * the other conditions hold). One stack per thread (tp, as THREAD_SWITCH events name
 * threads; the first tp seen names the thread running before it): a frame of a thread
 * switched out is parked with it, so the window follows the running thread's stack (a
 * switch takes effect at the write to tp: hook_tp) */
static void hook_flow(void *ctx, unsigned hart, bool ret, bool has_target, uint32_t target, uint32_t link, uint32_t sp,
                      uint32_t tp) {
    soc_t *s = ctx;
    cs_t *cs = &s->func[hart].cs;
    if (!has_target) return;
    size_t before = cs_depth(cs);
    if (!func_thread(s, hart, tp)) return;
    if (!ret && target == s->cfg.waves_func_addr) {
        cs_push(cs, 0, link, sp, false); /* too deep / no memory: not followed */
    } else if (ret && cs_depth(cs)) {
        if (target == cs_top(cs)->call_site) cs_pop(cs, CS_RETURN);
        else
            cs_unwind_left(cs, sp, target - s->cfg.waves_func_addr < s->cfg.waves_func_size ? 0 : CS_NO_FUNC);
    }
    if (cs_depth(cs) != before) waves_update(s);
}

static void host_waves(void *ctx, bool on) {
    soc_t *s = ctx;
    s->waves_switch = on;
    waves_update(s);
}

int soc_init(soc_t *s, const soc_cfg_t *cfg, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    if (cfg->harts < 1 || cfg->harts > SOC_MAX_HARTS) {
        snprintf(err, errlen, "%u harts: the SoC has 1 to %u", cfg->harts, SOC_MAX_HARTS);
        return -1;
    }
    s->n = cfg->harts;
    s->xlen = cfg->xlen == 64 ? 64 : 32;
    bool funnel = cfg->funnel || s->n > 1;
    s->cfg.funnel = funnel;
    bus_targets_t dev = {.n_te = s->n, .funnel = funnel ? &s->funnel : NULL, .trace_detached = cfg->no_trace};
    for (unsigned i = 0; i < s->n; i++) dev.te[i] = &s->h[i].te;
    bus_hooks_t hooks = {.ctx = s, .guest_error = hook_guest_error, .itc_store = cfg->out_dir ? hook_itc_store : NULL, .ts_read = cfg->out_dir ? hook_ts_read : NULL, .itc_lost = cfg->out_dir ? hook_itc_lost : NULL, .trace_access = cfg->trace_bus_log ? hook_trace_access : NULL, .trace_sba = cfg->trace_bus_log ? hook_trace_sba : NULL};
    if (bus_init(&s->bus, cfg->ram_size, cfg->ram_wait, &dev, &hooks, err, errlen)) return -1;
    /* the device models as the bus's targets (sim/soc_targets.h) */
    bus_target_ops_t o[BUS_N_TARGETS] = {[BT_CLINT] = soc_target_clint(&s->clint), [BT_UART] = soc_target_uart(&s->uart), [BT_SIMCTRL] = soc_target_simctrl(&s->simctrl)};
    for (unsigned i = 0; i < s->n; i++) o[BT_TRACE0 + i] = soc_target_te(&s->h[i].te);
    if (funnel) o[BT_FUNNEL] = soc_target_funnel(&s->funnel);
    for (int t = BT_CLINT; t < BUS_N_TARGETS; t++)
        if (o[t].read) bus_set_target(&s->bus, t, &o[t]);
    if (clint_init(&s->clint, s->n, cfg->mtime_div)) {
        snprintf(err, errlen, "invalid CLINT configuration");
        return -1;
    }
    for (unsigned i = 0; i < s->n; i++) {
        soc_hart_t *h = &s->h[i];
        if (hpm_init(&h->hpm, &cfg->hpm)) {
            snprintf(err, errlen, "invalid HPM configuration");
            return -1;
        }
        char name[16];
        snprintf(name, sizeof name, i ? "hart%u" : "soc", i);
        h->vc = vcore_new_xlen(i ? s->h[0].vc : NULL, name, s->xlen);
        if (!h->vc) {
            snprintf(err, errlen, "cannot create the core model of hart %u", i);
            return -1;
        }
        h->p = vcore_ports(h->vc);
        *h->p->hart_id = i;
    }
    if (cfg->out_dir) {
        if (!(s->uart_txt = open_out(cfg->out_dir, "uart.txt", err, errlen))) return -1;
        if (!(s->marks_csv = open_out(cfg->out_dir, "marks.csv", err, errlen))) return -1;
        if (!(s->guest_log = open_out(cfg->out_dir, "guest_errors.log", err, errlen))) return -1;
        if (cfg->waves_path) {
            if (!(s->waves_csv = open_out(cfg->out_dir, "waves_windows.csv", err, errlen))) return -1;
            fputs("from,to\n", s->waves_csv);
        }
    }
    if (cfg->trace_bus_log) {
        if (!(s->trace_bus = ts_fopen_output(cfg->trace_bus_log, "wu", err, errlen))) return -1;
        /* what a replay needs to build the same trace subsystem */
        fprintf(s->trace_bus, "# tracesim-trace-bus-1 harts %u funnel %d srcbits %u itc_depth %u sink_width %u "
                              "trace_sram %u ts_width %u ram_size %u\n# cycle hart r|w addr size value ok|wait|err, or cycle sba addr bytes; "
                              "last line: end cycles\n",
                s->n, funnel, cfg->te.src_bits, cfg->te.itc_depth, cfg->te.sink_bytes,
                cfg->te.sram_size, cfg->te.ts_width, cfg->ram_size);
    }
    uart_init(&s->uart, cfg->quiet ? NULL : stdout, s->uart_txt);
    simctrl_host_t host = {.ctx = s, .cycle = host_cycle, .instret = host_instret, .ram = host_ram, .exit = host_exit, .waves = host_waves, .harts = s->n, .guest_error = hook_guest_error, .mark = host_mark, .host_io = host_file};
    simctrl_init(&s->simctrl, &host, cfg->out_dir, s->marks_csv);
    simctrl_set_host_budget(&s->simctrl, cfg->host_io_limit);
    gt_log_t *gt = &s->h[0].gt;
    if (cfg->retire_log && gt_log_open_retire(gt, cfg->retire_log, err, errlen)) return -1;
    if (cfg->waves_path) {
        if (!vcore_has_waves()) {
            snprintf(err, errlen, "this build has no waveform support");
            return -1;
        }
        const char *path = cfg->waves_path;
        if (!cfg->waves_fst) {
            /* VCD: Verilator builds one trace format; write FST and convert with GTKWave's
             * fst2vcd when the run ends */
            if (!find_in_path("fst2vcd")) {
                snprintf(err, errlen, "VCD output needs fst2vcd (Debian package gtkwave); or write FST");
                return -1;
            }
            snprintf(s->waves_tmp, sizeof s->waves_tmp, "%s.tmp.fst", cfg->waves_path);
            path = s->waves_tmp;
        }
        vcore_t *vcs[SOC_MAX_HARTS];
        for (unsigned i = 0; i < s->n; i++) vcs[i] = s->h[i].vc;
        if (vcore_waves_open(vcs, s->n, path, 1, cfg->waves_all)) {
            snprintf(err, errlen, "cannot create waveform file %s", cfg->waves_path);
            return -1;
        }
        s->waves_open = true;
    }
    te_cfg_t tc = cfg->te;
    tc.has_funnel = funnel;
    if (funnel) {
        if (funnel_init(&s->funnel, tc.sink_bytes, tc.sram_size, tc.ts_width)) {
            snprintf(err, errlen, "invalid trace funnel configuration");
            return -1;
        }
        s->funnel_ready = s->funnel_on = true;
    }
    if (cfg->out_dir && gt_log_open(gt, cfg->out_dir, err, errlen)) return -1;
    gt_log_set_hooks(gt, cfg->gt_hooks);
    for (unsigned i = 0; i < s->n; i++) {
        soc_hart_t *h = &s->h[i];
        if (bus_port_init(&h->port, h->p, i, &cfg->icache, &cfg->dcache, err, errlen)) return -1;
        if (bus_attach_port(&s->bus, &h->port)) {
            snprintf(err, errlen, "too many bus ports");
            return -1;
        }
        h->port.record_stores = gt->retire != NULL;
        tc.hart = i;
        tc.rv64 = s->xlen == 64; /* 64-bit addresses, RV64's compressed encodings */
        if (te_init(&h->te, &tc)) {
            snprintf(err, errlen, "invalid trace encoder configuration");
            return -1;
        }
        h->te_ready = true;
        if (funnel) funnel_attach(&s->funnel, &h->te);
        if (i) gt_log_share(&h->gt, gt, i);
        h->gt.tag_hart = s->n > 1;
        h->gt.rv64 = h->pgt.rv64 = s->xlen == 64;
        gt_log_irq_attach(&h->gt, h->p);
        if (cfg->waves_path && cfg->waves_func) {
            h->gt.flow_hook = hook_flow;
            h->gt.tp_hook = hook_tp;
            h->gt.flow_ctx = s;
            h->gt.mask |= GT_LOG_EVENTS | EVB_RETIRE; /* every retirement: the writes to tp */
        }
        dpi_register_hart(i, &h->hpm, gt->counters ? gt_log_csr_hook : NULL, gt->hpm_writes ? gt_log_csrw_hook : NULL, &h->gt);
        gt_log_hpm_config(&h->gt, &h->hpm);
    }
    s->waves_switch = !cfg->waves_by_firmware;
    s->hang.window = hang_window(cfg->ram_wait, cfg->icache.size ? cfg->icache.miss_latency : 0);
    return 0;
}

void soc_free(soc_t *s) {
    for (unsigned i = s->n; i-- > 0;) { /* hart 0's model owns the shared context: last */
        soc_hart_t *h = &s->h[i];
        dpi_register_hart(i, NULL, NULL, NULL, NULL);
        if (h->vc) vcore_free(h->vc);
        bus_port_free(&h->port);
        if (h->te_ready) te_free(&h->te);
    }
    bus_free(&s->bus);
    for (unsigned i = 0; i < SOC_MAX_HARTS; i++) cs_free(&s->func[i].cs);
    soc_close_outputs(s, NULL, 0);
    simctrl_free(&s->simctrl);
    if (s->funnel_ready) funnel_free(&s->funnel);
    perf_live_free(&s->perf_live);
    memset(s, 0, sizeof *s);
}

int soc_close_outputs(soc_t *s, char *err, size_t errlen) {
    int rc = 0;
    char path[4200], e[4400];
    const char *dir = s->cfg.out_dir ? s->cfg.out_dir : ".";
    if (s->guest_log && s->guest_errors_total > GUEST_ERRORS_LOGGED)
        fprintf(s->guest_log, "... %llu more guest errors not logged (%llu in all, see stats.txt)\n",
                (unsigned long long)(s->guest_errors_total - GUEST_ERRORS_LOGGED),
                (unsigned long long)s->guest_errors_total);
    FILE **const fs[] = {&s->uart_txt, &s->marks_csv, &s->guest_log, &s->trace_bus, &s->waves_csv};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        if (!*fs[i]) continue;
        if (i == 3) snprintf(path, sizeof path, "%s", s->cfg.trace_bus_log ? s->cfg.trace_bus_log : "the trace bus log");
        else
            snprintf(path, sizeof path, "%s/%s", dir, i == 0 ? "uart.txt" : i == 1 ? "marks.csv" :
                                                                        i == 2     ? "guest_errors.log" :
                                                                                     "waves_windows.csv");
        if (ts_fclose_output(*fs[i], path, e, sizeof e) && !rc) { /* a full disk: not a silent short file */
            rc = -1;
            if (err) snprintf(err, errlen, "%s", e);
        }
        *fs[i] = NULL;
    }
    if (s->prog_csv) {
        snprintf(path, sizeof path, "%s/prog_flow.csv", dir);
        if (ts_fclose_output(s->prog_csv, path, e, sizeof e) && !rc) {
            rc = -1;
            if (err) snprintf(err, errlen, "%s", e);
        }
        s->prog_csv = NULL;
    }
    if (gt_log_close(&s->h[0].gt, s->cfg.out_dir, s->cfg.retire_log, rc ? NULL : err, errlen)) rc = -1;
    if (s->waves_err[0] && !rc) { /* the waveform file: a full disk is not a silent short file */
        rc = -1;
        if (err) snprintf(err, errlen, "%s", s->waves_err);
    }
    return rc;
}

bool soc_load(soc_t *s, uint32_t addr, const void *src, uint32_t len, uint32_t zero_fill) {
    return bus_load(&s->bus, addr, src, len, zero_fill);
}

void soc_guest_error(soc_t *s, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->guest_errors_total++;
    if (s->guest_log && s->guest_errors_total <= GUEST_ERRORS_LOGGED)
        fprintf(s->guest_log, "cycle %llu: %s\n", (unsigned long long)s->cycle, msg);
    if (s->guest_errors < GUEST_ERRORS_SHOWN) {
        fprintf(stderr, "tracesim: guest error at cycle %llu: %s\n", (unsigned long long)s->cycle, msg);
        if (++s->guest_errors == GUEST_ERRORS_SHOWN)
            fprintf(stderr, "tracesim: further guest errors go to guest_errors.log only\n");
    }
}

static void waves_update(soc_t *s) {
    bool in_window = s->cycle >= s->cfg.waves_from &&
                     (s->cfg.waves_to == 0 || s->cycle < s->cfg.waves_to);
    bool was = s->waves_active;
    bool in_func = !s->cfg.waves_func;
    for (unsigned i = 0; i < s->n && !in_func; i++) in_func = cs_depth(&s->func[i].cs) != 0;
    bool want = s->waves_open && s->waves_switch && in_window && in_func;
    /* a dumped stretch ends with one more sample, probe_dumping 0: the gap after it shows as
     * such, not as values that stopped changing */
    s->waves_closing = was && !want;
    s->waves_active = want || s->waves_closing;
    if (s->waves_active && !was)
        for (unsigned i = 0; i < s->n; i++) {
            s->h[i].te.probe_tcode = 0;
            s->h[i].te.probe_nbytes = 0;
        }
}

void soc_reset(soc_t *s, uint32_t entry) {
    clint_reset(&s->clint);
    uart_reset(&s->uart);
    simctrl_reset(&s->simctrl);
    bus_reset(&s->bus);
    if (s->funnel_on) funnel_reset(&s->funnel);
    for (unsigned i = 0; i < s->n; i++) {
        soc_hart_t *h = &s->h[i];
        const vcore_ports_t *p = h->p;
        hpm_reset(&h->hpm);
        bus_port_reset(&h->port);
        te_reset(&h->te);
        ev_count_reset(&h->ev);
        h->instret = 0;
        h->held_cycles = 0;
        h->port.held = false;
        *p->hart_id = i;
        *p->boot_addr = entry;
        *p->stm_tp_en = s->cfg.stm_thread_switch;
        h->stm_events = 0;
        *p->rst_n = 0;
        *p->instr_rdy = 0;
        *p->data_rdy = 0;
        *p->instr_err = 0;
        *p->data_err = 0;
        *p->irq_timer = 0;
        *p->irq_software = 0;
        *p->irq_lcof = 0;
        *p->clk = 0;
        vcore_eval(h->vc);
        for (int k = 0; k < 4; k++) {
            *p->clk ^= 1;
            vcore_eval(h->vc);
        }
        *p->rst_n = 1;
        vcore_eval(h->vc);
    }
    s->cycle = 0;
    s->trace_idle = s->cfg.no_trace; /* --no-trace: never ticked */
    memset(s->func, 0, sizeof s->func);
    s->stop = SOC_RUNNING;
    s->hang.probing = false;
    waves_update(s);
}

/* ---- the cycle loop --------------------------------------------------------------------- */

static void progress(soc_t *s, struct timespec *t0, struct timespec *last, uint64_t *last_cycle) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double dt = (double)(now.tv_sec - last->tv_sec) + (double)(now.tv_nsec - last->tv_nsec) * 1e-9;
    if (dt < 1.0) return;
    double total = (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
    if (s->n > 1)
        fprintf(stderr, "\r[tracesim] %.1f M cycles, %.2f M cycles/s (%u harts), %.0f s   ",
                (double)s->cycle / 1e6, (double)(s->cycle - *last_cycle) / dt / 1e6, s->n, total);
    else
        fprintf(stderr, "\r[tracesim] %.1f M cycles, %.2f M cycles/s, %.0f s   ",
                (double)s->cycle / 1e6, (double)(s->cycle - *last_cycle) / dt / 1e6, total);
    *last = now;
    *last_cycle = s->cycle;
}

/* The core's event vector and its port's bus events describe the cycle that ended at this
 * edge; the first edge after reset (first: s->cycle is 0) describes no executed cycle and is
 * not counted. */
static inline __attribute__((always_inline)) uint64_t account_events(soc_hart_t *h, bool first) {
    uint64_t ev = *h->p->ev | h->port.ev;
    h->port.ev = 0;
    if (first) return ev;
    hpm_tick(&h->hpm, ev);
    ev_count_add(&h->ev, ev);
    return ev;
}

/* Trace encoders and funnel tick; the sink's SBA word goes over the bus into RAM at once
 * (bus.h: the SBA sink wins the RAM port for this cycle); a bus error sets the sink error of
 * the block that owns the sink. */
#define SOC_INLINE static inline __attribute__((always_inline))

SOC_INLINE void trace_tick(soc_t *s, unsigned n) {
    /* an idle trace subsystem stays idle, its ticks changing nothing but its timestamp units'
     * counters, until a trace register is accessed or a software trace event comes
     * (soc_stm_event); the ticks skipped are owed to the timestamp units and given before
     * anything reads them (bus_trace_catch_up). With --no-trace it is idle for good (its
     * pages do not mark the bus, see soc_reset). */
    if (__builtin_expect(s->trace_idle && !s->bus.trace_touched, 1)) {
        s->bus.trace_owed++;
        return;
    }
    s->bus.trace_touched = false;
    if (s->bus.trace_owed) bus_trace_catch_up(&s->bus);
    for (unsigned i = 0; i < n; i++) te_tick(&s->h[i].te);
    sink_t *k = &s->h[0].te.sink;
    if (s->funnel_on) {
        funnel_tick(&s->funnel);
        k = &s->funnel.sink;
    }
    if (__builtin_expect(k->stopped && !s->sink_stop_cycle, 0)) {
        s->sink_stop_cycle = s->cycle;
        gt_log_trace_event(&s->h[0].gt, s->cycle, s->funnel_on ? -1 : 0, "sink_stopped", 0);
    }
    if (!bus_sba_write(&s->bus, k)) {
        if (s->funnel_on) funnel_sink_error(&s->funnel);
        else
            te_sink_error(&s->h[0].te);
    }
    bool idle = !s->funnel_on || funnel_tick_idle(&s->funnel);
    for (unsigned i = 0; i < n && idle; i++) idle = te_tick_idle(&s->h[i].te);
    s->trace_idle = idle;
}

/* --retire-log line for the cycle that just ended, with the store the data port completed */
static void log_retire(soc_hart_t *h, uint64_t cycle) {
    bus_port_t *ip = &h->port;
    gt_log_retire_line(&h->gt, h->p, cycle - 1, ip->st_done, ip->st_addr, ip->st_data, ip->st_size,
                       ip->st_data_hi);
    ip->st_done = false;
}

/* Waves: after the C side has answered this cycle, drive the probes, settle the logic that
 * depends on the answers (one extra eval, no clock edge) and dump: at time `cycle` the
 * waves show registers, bus answers and C-model state of that cycle together. Each hart's
 * scope shows its own encoder, HPM and bus port; the sink and funnel probes are in hart 0's. */
static void waves_probe_hart(soc_t *s, soc_hart_t *h, bool first) {
    const vcore_ports_t *p = h->p;
    te_t *t = &h->te;
    const sink_t *k = soc_sink(s);
    uint32_t c = te_control(t);
    *p->probe_cycle = s->cycle;
    *p->probe_dumping = !s->waves_closing;
    *p->probe_itc_level = (uint8_t)(t->fifo_count > 255 ? 255 : t->fifo_count);
    *p->probe_itc_full = !te_itc_ready(t);
    /* a stimulus store waited, or the hart was held by the encoder's stall request */
    *p->probe_itc_stall = (h->port.ev & EVB_ITC_STALL) != 0 || h->port.held;
    *p->probe_te_control = c;
    *p->probe_te_enable = (c >> 1) & 1;
    *p->probe_te_tracing = (c >> 2) & 1;
    *p->probe_te_empty = (c >> 3) & 1;
    *p->probe_te_overflow = (c >> 12) & 1;
    *p->probe_te_tcode = t->probe_tcode;
    *p->probe_te_msg_len = t->probe_tcode ? t->probe_len : 0;
    *p->probe_te_icnt = (uint16_t)t->prog.icnt;
    *p->probe_sink_nbytes = t->probe_nbytes;
    uint64_t b = 0;
    for (unsigned i = 0; i < t->probe_nbytes && i < 8; i++) b |= (uint64_t)t->probe_bytes[i] << (8 * i);
    *p->probe_sink_bytes = b;
    *p->probe_sink_wp = k->wp;
    *p->probe_sba_write = first && s->bus.sba_busy;
    *p->probe_sba_conflict = (h->port.ev & EVB_SBA_CONFLICT) != 0;
    *p->probe_bus_arb = (h->port.ev & EVB_BUS_ARB) != 0;
    *p->probe_funnel_take = first && s->funnel_on && s->funnel.probe_take;
    *p->probe_funnel_src = first && s->funnel_on ? s->funnel.probe_src : 0;
    *p->probe_funnel_nbytes = first && s->funnel_on ? s->funnel.probe_nbytes : 0;
    *p->probe_mcycle = hpm_counter(&h->hpm, 0);
    *p->probe_minstret = hpm_counter(&h->hpm, 2);
    for (unsigned i = 0; i < 8; i++) *p->probe_hpm[i] = hpm_counter(&h->hpm, 3 + i);
    t->probe_tcode = 0; /* consumed: the next cycle shows only its own activity */
    t->probe_nbytes = 0;
    vcore_eval(h->vc);
}

/* the dumped stretch [waves_win_from, waves_win_last] as a row of waves_windows.csv */
static void waves_window_end(soc_t *s) {
    if (!s->waves_win_open) return;
    s->waves_win_open = false;
    if (s->waves_csv)
        fprintf(s->waves_csv, "%llu,%llu\n", (unsigned long long)s->waves_win_from, (unsigned long long)s->waves_win_last + 1);
}

static void waves_sample(soc_t *s) {
    if (s->bus.trace_owed) bus_trace_catch_up(&s->bus); /* the probes show the timestamps */
    for (unsigned i = 0; i < s->n; i++) waves_probe_hart(s, &s->h[i], i == 0);
    if (s->funnel_on) s->funnel.probe_take = false;
    vcore_waves_dump(s->h[0].vc, s->cycle); /* one time unit per cycle */
    if (s->waves_closing) {                 /* the sample after the stretch: dumping 0 */
        waves_window_end(s);
        s->waves_closing = s->waves_active = false;
        return;
    }
    if (!s->waves_win_open) {
        s->waves_win_open = true;
        s->waves_win_from = s->cycle;
    }
    s->waves_win_last = s->cycle;
}

/* Program trace: the retirement the retire port shows, with the pc that follows it. After the
 * edge, the instructions younger than it are all on the right path (it redirected the
 * pipeline in EX, or in MEM for a trap or xRET), so the first valid stage behind it holds
 * the next instruction in program order, or IF's fetch pc if none does. */
static void prog_retire(soc_t *s, soc_hart_t *h) {
    const vcore_ports_t *p = h->p;
    if (!*p->rvfi_valid && !*p->rvfi_trap) return;
    uint32_t npc = *p->mem_valid ? *p->mem_pc : *p->ex_valid ? *p->ex_pc :
                                            *p->id_valid     ? *p->id_pc :
                                                               *p->if_pc;
    const te_prog_t *tp = &h->te.prog;
    if (s->cfg.out_dir && !s->prog_csv && !s->prog_csv_failed) {
        char err[4400];
        if ((s->prog_csv = open_out(s->cfg.out_dir, "prog_flow.csv", err, sizeof err))) fputs(PROG_GT_HEADER, s->prog_csv);
        else {
            s->prog_csv_failed = true;
            soc_guest_error(s, "%s (program trace ground truth)", err);
        }
    }
    unsigned priv = *p->priv & 3u; /* the mode after this retirement (priv_q after the edge) */
    if (s->prog_csv) {
        bool ctx = tp->mode == TE_INSN_EVENT ? (h->te.evcontrol >> 5) & 1u : (h->te.control & TE_C_CONTEXT) != 0;
        prog_gt_retire(&h->pgt, s->prog_csv, h->port.hart, s->cycle - 1,
                       tp->stopping ? PROG_GT_STOP : tp->gt_start ? PROG_GT_START :
                                                                    PROG_GT_RUN,
                       *p->rvfi_pc,
                       *p->rvfi_insn, npc, *p->rvfi_trap, priv, ctx);
    }
    te_prog_priv(&h->te.prog, priv);
    /* the encoder takes mcause as the hart has it: the retire port carries the Interrupt flag
     * in bit 31 on both cores, RV64's mcause in bit 63 */
    uint64_t cause = *p->rvfi_cause;
    if (s->xlen == 64 && (cause >> 31)) cause = (cause & 0x7FFFFFFFu) | 1ull << 63;
    te_prog_retire(&h->te, *p->rvfi_pc, *p->rvfi_insn, npc, *p->rvfi_trap, cause);
}

/* a cycle the hart is held (soc.h): no edge; mcycle counts, the event totals count the cycle,
 * and a stimulus store the data port holds that its encoder would refuse (full FIFO,
 * teStallEnable) counts as waiting, as it would if the port were served (event ITC_STALL;
 * an AMO there is a fault, never a wait) */
static void hart_held(soc_t *s, soc_hart_t *h) {
    const vcore_ports_t *p = h->p;
    h->port.held = true;
    h->held_cycles++;
    if (!s->cycle) return;
    uint32_t a = *p->data_addr, n = (a - MAP_TRACE_BASE) >> 12;
    bool itc = *p->data_req && *p->data_we && !(vcore_data_amo(p) & BUS_AMO_VALID) && a >= MAP_TRACE_BASE && n < s->n && !s->cfg.no_trace &&
               te_itc_store_waits(&s->h[n].te, a & 0xFFFu);
    if (itc) {
        s->h[n].te.stall_cycles++;
        h->ev.total[__builtin_ctzll(EVB_ITC_STALL)]++;
    }
    hpm_tick_held(&h->hpm, itc ? EVB_ITC_STALL : 0);
    h->ev.total[__builtin_ctzll(EVB_CYCLE)]++;
}

/* steps 1-3 of soc.h for one hart; first: s->cycle is 0 (a constant where the run loop
 * inlines it). Returns whether the hart was held. */
SOC_INLINE bool hart_edge(soc_t *s, soc_hart_t *h, bool first) {
    const vcore_ports_t *p = h->p;
    if (__builtin_expect(h->te.prog.on, 0) && te_prog_hold(&h->te)) {
        hart_held(s, h);
        return true;
    }
    h->port.held = false;
    *p->clk ^= 1; /* one edge = one cycle (TS_CLK_EDGE=edge build) */
    vcore_eval(h->vc);

    uint64_t ev = account_events(h, first);
    h->instret += *p->rvfi_valid;
    if (ev & h->gt.mask) gt_log_retire(&h->gt, p, s->cycle - 1);
    gt_log_irq_sample(&h->gt, p, s->cycle); /* the enables of the next cycle (traps.csv) */
    if (h->gt.retire && (*p->rvfi_valid || *p->rvfi_trap)) log_retire(h, s->cycle);
    if (*p->rvfi_trap && (*p->rvfi_cause == 1))
        soc_guest_error(s, "instruction access fault: fetch at 0x%08x (hart %u)", *p->rvfi_pc, h->port.hart);
    if (__builtin_expect(*p->stm_enable, 0)) soc_stm_event(s, h);
    if (__builtin_expect(h->te.prog.on, 0)) prog_retire(s, h);
    return false;
}

/* steps 5-6 of soc.h: every hart's fetch, the data accesses, the interrupt lines; held0:
 * hart 0 was held (its port.held) */
SOC_INLINE void bus_and_irqs(soc_t *s, unsigned n, bool held0, bool ticks) {
    if (n == 1) {
        if (!held0) {
            bus_service_fetch(&s->bus, &s->h[0].port);
            bus_service_data(&s->bus, &s->h[0].port);
        }
    } else {
        for (unsigned i = 0; i < n; i++)
            if (!s->h[i].port.held) bus_service_fetch(&s->bus, &s->h[i].port);
        bus_service_data_all(&s->bus);
    }
    /* mtime and the CLINT's lines change only when mtime advances or a CLINT register is
     * written (or at reset): driven then, they stay as driven in between */
    bool changed = clint_tick(&s->clint);
    if (ticks && s->bus.n_tick) changed |= bus_tick(&s->bus); /* targets with a tick */
    if (__builtin_expect(changed, 0))
        for (unsigned i = 0; i < n; i++) {
            soc_hart_t *h = &s->h[i];
            hpm_set_time(&h->hpm, s->clint.mtime);
            *h->p->irq_timer = clint_timer_irq(&s->clint, i);
            *h->p->irq_software = clint_soft_irq(&s->clint, i);
        }
    for (unsigned i = 0; i < n; i++) *s->h[i].p->irq_lcof = s->h[i].hpm.lcof;
}

/* one cycle of n harts; n and first (s->cycle is 0) are constants where it is inlined (the
 * run loops) */
SOC_INLINE void soc_step(soc_t *s, unsigned n, bool first, bool ticks) {
    bool held0 = hart_edge(s, &s->h[0], first);
    for (unsigned i = 1; i < n; i++) hart_edge(s, &s->h[i], first);
    trace_tick(s, n);
    bus_and_irqs(s, n, held0, ticks);
    if (s->waves_active) waves_sample(s);
    s->cycle++;
}

static void run_to(soc_t *s, uint64_t next) {
    if (!s->cycle && 0 < next && s->stop == SOC_RUNNING) soc_step(s, s->n, true, true); /* out of the loops */
    /* the loops without a bus tick (no target has one, the case of tracesim run) do not even
     * check for one: that check alone cost 4 host instructions per cycle (0.4 %) */
    if (s->bus.n_tick)
        while (s->cycle < next && s->stop == SOC_RUNNING) soc_step(s, s->n, false, true);
    else if (s->n == 1)
        while (s->cycle < next && s->stop == SOC_RUNNING) soc_step(s, 1, false, false);
    else
        while (s->cycle < next && s->stop == SOC_RUNNING) soc_step(s, s->n, false, false);
}

/* soc_run() with a debugger (s->between, sim/gdb/): the same cycles one at a time, with the
 * per-cycle bookkeeping of soc_step_end() (the hang probe, the waves window), which gives the
 * same results as soc_run()'s chunks (the SystemC platform runs it so: sc.equiv.*) */
static enum soc_stop run_between(soc_t *s) {
    const uint64_t max = s->cfg.max_cycles ? s->cfg.max_cycles : UINT64_MAX;
    while (s->between(s->between_ctx, s), s->stop == SOC_RUNNING) {
        soc_step(s, s->n, !s->cycle, true);
        if (s->waves_open) waves_update(s);
        if (s->hang.probing) soc_hang_observe(s);
        else if (!(s->cycle & (HANG_CHECK_PERIOD - 1)))
            soc_hang_begin(s);
        if (s->cycle >= max && s->stop == SOC_RUNNING) s->stop = SOC_CYCLE_LIMIT;
    }
    soc_run_end(s);
    return s->stop;
}

enum soc_stop soc_run(soc_t *s) {
    if (__builtin_expect(s->between != NULL, 0)) return run_between(s);
    struct timespec t0, last;
    uint64_t last_cycle = 0;
    bool show = s->cfg.progress && !s->cfg.quiet;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    last = t0;
    const uint64_t max = s->cfg.max_cycles ? s->cfg.max_cycles : UINT64_MAX;
    /* the waves window is checked only at its edges, the progress clock every 2^20 cycles; the
     * hang probe (sim/hang.h) starts every HANG_CHECK_PERIOD cycles and, while it is on, looks
     * after every cycle (as soc_step_end() does for the SystemC platform) */
    while (s->stop == SOC_RUNNING) {
        uint64_t next = max;
        if (s->waves_open) {
            if (s->cycle < s->cfg.waves_from && s->cfg.waves_from < next) next = s->cfg.waves_from;
            if (s->cfg.waves_to && s->cycle < s->cfg.waves_to && s->cfg.waves_to < next) next = s->cfg.waves_to;
        }
        uint64_t chunk = s->hang.probing ? s->cycle + 1 : (s->cycle | (HANG_CHECK_PERIOD - 1)) + 1;
        if (chunk < next) next = chunk;
        run_to(s, next);
        if (s->hang.probing) soc_hang_observe(s);
        else if (!(s->cycle & (HANG_CHECK_PERIOD - 1)))
            soc_hang_begin(s);
        waves_update(s);
        if (show && !(s->cycle & 0xFFFFF)) progress(s, &t0, &last, &last_cycle);
        if (s->cycle >= max && s->stop == SOC_RUNNING) s->stop = SOC_CYCLE_LIMIT;
        if (s->interrupt && *s->interrupt && s->stop == SOC_RUNNING) s->stop = SOC_INTERRUPTED;
    }
    if (show) fputc('\n', stderr);
    soc_run_end(s);
    return s->stop;
}

/* messages still on their way to the sink: in an encoder's FIFO or packer that can still
 * move them (active, and enabled or flushing), or in the funnel */
static bool trace_in_flight(const soc_t *s) {
    for (unsigned i = 0; i < s->n; i++) {
        const te_t *t = &s->h[i].te;
        uint32_t c = te_control(t);
        if ((c & 1u) && ((c & 2u) || t->flushing) && (t->fifo_count || t->outq_count || t->overflow_pending)) return true;
    }
    const funnel_t *f = &s->funnel;
    return s->funnel_on && (f->control & 1u) && ((f->control & 2u) || f->flushing) && funnel_busy(f);
}

void soc_run_end(soc_t *s) {
    if (s->trace_bus) fprintf(s->trace_bus, "end %llu\n", (unsigned long long)s->cycle);
    if (s->bus.trace_owed) bus_trace_catch_up(&s->bus); /* the encoders' time as at the last cycle */
    /* the cores stop here; the trace subsystem does not: what the encoders hold drains into
     * the sink as it would after the harts halt (a run cut by the cycle limit, or firmware
     * that exits without draining), so the trace ends with the last message emitted. Not
     * counted as cycles of the run; bounded in case a sink cannot take anything. */
    if (!s->cfg.no_trace) {
        for (unsigned k = 0; k < 65536 && trace_in_flight(s); k++) trace_tick(s, s->n);
        /* and the sink's partial word, padded with idle bytes, as when tracing is disabled */
        bool flushed = false;
        for (unsigned i = 0; i < s->n; i++) {
            sink_t *k = &s->h[i].te.sink;
            if (k->fill && !k->stopped) {
                sink_flush(k);
                flushed = true;
            }
        }
        if (s->funnel_on && s->funnel.sink.fill && !s->funnel.sink.stopped) {
            sink_flush(&s->funnel.sink);
            flushed = true;
        }
        if (flushed && !bus_sba_write(&s->bus, soc_sink(s))) { /* an SBA sink writes the word */
            if (s->funnel_on) funnel_sink_error(&s->funnel);
            else
                te_sink_error(&s->h[0].te);
        }
    }
    if (s->stop == SOC_EXIT) {
        /* let the EXIT store retire so that instret counts it (and what the other harts
         * committed in that cycle) */
        for (unsigned i = 0; i < s->n; i++) {
            soc_hart_t *h = &s->h[i];
            *h->p->clk ^= 1;
            vcore_eval(h->vc);
            uint64_t ev = account_events(h, !s->cycle);
            h->instret += *h->p->rvfi_valid;
            if (ev & h->gt.mask) gt_log_retire(&h->gt, h->p, s->cycle - 1);
            /* the retire log's last line: the EXIT store itself */
            if (h->gt.retire && (*h->p->rvfi_valid || *h->p->rvfi_trap)) log_retire(h, s->cycle);
        }
    }
    /* a call or return at the very end (cycle limit): its target never retired */
    for (unsigned i = 0; i < s->n; i++) gt_log_finish(&s->h[i].gt);
    for (unsigned i = 0; i < s->n; i++) ev_count_flush(&s->h[i].ev);
    waves_window_end(s);
    vcore_waves_close(s->h[0].vc, s->waves_err, sizeof s->waves_err);
    if (s->waves_open && s->waves_tmp[0] && !s->waves_err[0]) waves_to_vcd(s);
    if (s->uart_txt) fflush(s->uart_txt);
    fflush(stdout);
}

void soc_stm_event(soc_t *s, soc_hart_t *h) {
    const vcore_ports_t *p = h->p;
    unsigned hart = h->port.hart, id = *p->stm_id;
    uint32_t value = *p->stm_value;
    if (!s->cfg.no_trace) s->trace_idle = false;        /* it may be queued: the next trace tick runs */
    if (s->bus.trace_owed) bus_trace_catch_up(&s->bus); /* its time is the encoder's now */
    enum te_stm_status st = s->cfg.no_trace ? TE_STMEV_OFF : s->stm_event ? s->stm_event(s->stm_event_ctx, hart, s->cycle, (uint16_t)id, value) :
                                                                            te_stm_event(&h->te, (uint16_t)id, value);
    h->stm_events++;
    gt_log_stm(&h->gt, s->cycle - 1, hart, id, value,
               st == TE_STMEV_TRACED ? "traced" : st == TE_STMEV_LOST ? "lost" :
                                                                        "off");
    if (st == TE_STMEV_LOST) gt_log_trace_event(&h->gt, s->cycle - 1, (int)hart, "stm_lost", id);
    if (st == TE_STMEV_TRACED) note_ts(s, &h->te, s->cycle - 1);
    if (s->trace_bus)
        fprintf(s->trace_bus, "%llu stm %u 0x%04x 0x%08x\n", (unsigned long long)s->cycle, hart, id, value);
}

/* ---- the same steps out of line, for a platform that owns the clock (soc.h) -------------- */

void soc_step_hart(soc_t *s, unsigned hart) { hart_edge(s, &s->h[hart], !s->cycle); }
void soc_step_bus(soc_t *s) { bus_and_irqs(s, s->n, s->h[0].port.held, true); }
void soc_step_end(soc_t *s) {
    if (s->waves_active) waves_sample(s);
    s->cycle++;
    if (s->waves_open) waves_update(s);
    if (s->hang.probing) soc_hang_observe(s);
    else if (!(s->cycle & (HANG_CHECK_PERIOD - 1)))
        soc_hang_begin(s);
}
