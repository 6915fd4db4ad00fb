/* soc.c - SoC model: bus decode, RAM, UART, simctrl and the cycle loop (see soc.h).
 *
 * Bus rules: every device access is 1, 2 or 4 bytes, naturally aligned (the core traps on
 * misaligned accesses before they reach the bus). RAM takes any size; device registers are
 * 32-bit only (UART TX also takes byte stores). Anything else, and every unmapped address,
 * answers with a bus error: the core takes an access fault and the access is logged as a
 * guest error; the simulation carries on.
 */
#include "soc.h"
#include "dpi.h"
#include "cli_util.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define TS_REGION(name, base, size, desc) enum { MAP_##name##_BASE = base, MAP_##name##_SIZE = size };
#include "soc_map.def"
#define TS_REG(block, name, off, acc, desc) enum { block##_##name = off };
#include "soc_map.def"

#define TS_TREG(block, name, off, acc, desc) enum { TREG_##block##_##name = off };
#include "trace_regs.def"
_Static_assert((int)TREG_TF_TS_LOWER == (int)TREG_TE_TS_LOWER &&
               (int)TREG_TF_TS_UPPER == (int)TREG_TE_TS_UPPER,
               "encoder and funnel timestamp registers share their offsets");

#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) enum { EVB_##id = 1u << (idx) };
#include "hpm_events.def"
#undef TS_EVENT

/* Which edges need gt_retire, from the core's event vector of the same edge (ev_o and the
 * retire port are registered together from the same commit): a JAL, JALR or SYSTEM
 * instruction (CSR access, mret) retired, or a trap was taken; while a call/return waits
 * for its target, any retired instruction. One AND per cycle (callgrind, bench_int: 0.03 %
 * more host instructions; decoding every retired instruction's bits instead cost 1.4 %). */
#define GT_EVENTS (EVB_JAL | EVB_JALR | EVB_SYSTEM | EVB_EXC_TAKEN | EVB_IRQ_TAKEN)

#define GUEST_ERRORS_SHOWN 20
#define GUEST_ERRORS_LOGGED 10000   /* a trap loop must not fill the disk */

enum bus_status { BUS_OK, BUS_ERR, BUS_WAIT };

void soc_default_cfg(soc_cfg_t *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->ram_size = MAP_RAM_SIZE;
    cfg->mtime_div = 100;
    cfg->max_cycles = 1000000000ull;
    cfg->waves_fst = 1;
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
    char *argv[] = {"fst2vcd", "-f", s->waves_tmp, "-o", (char *)s->cfg.waves_path, NULL};
    pid_t pid;
    int st = 0;
    if (posix_spawnp(&pid, "fst2vcd", NULL, NULL, argv, environ) || waitpid(pid, &st, 0) < 0 ||
        !WIFEXITED(st) || WEXITSTATUS(st)) {
        fprintf(stderr, "tracesim: converting waves to VCD with fst2vcd failed; the FST is kept as %s\n", s->waves_tmp);
        return -1;
    }
    unlink(s->waves_tmp);
    return 0;
}

static FILE *open_out(const char *dir, const char *name, char *err, size_t errlen) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
    return f;
}

static dpi_csr_read_hook_t gt_csr_hook;

int soc_init(soc_t *s, const soc_cfg_t *cfg, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    if (cfg->ram_size < 4096 || cfg->ram_size > 0x40000000u || (cfg->ram_size & 3)) {
        snprintf(err, errlen, "RAM size %u out of range (4 KiB .. 1 GiB, multiple of 4)", cfg->ram_size);
        return -1;
    }
    if (clint_init(&s->clint, 1, cfg->mtime_div) || hpm_init(&s->hpm, &cfg->hpm)) {
        snprintf(err, errlen, "invalid CLINT or HPM configuration");
        return -1;
    }
    s->ram_base = MAP_RAM_BASE;
    s->ram_size = cfg->ram_size;
    s->ram = calloc(1, cfg->ram_size);
    if (!s->ram) { snprintf(err, errlen, "out of memory for %u bytes of RAM", cfg->ram_size); return -1; }
    s->vc = vcore_new();
    if (!s->vc) { snprintf(err, errlen, "cannot create the core model"); return -1; }
    s->p = vcore_ports(s->vc);
    if (cfg->out_dir) {
        if (!(s->uart_txt = open_out(cfg->out_dir, "uart.txt", err, errlen))) return -1;
        if (!(s->marks_csv = open_out(cfg->out_dir, "marks.csv", err, errlen))) return -1;
        if (!(s->guest_log = open_out(cfg->out_dir, "guest_errors.log", err, errlen))) return -1;
        fputs("value,cycle,instret\n", s->marks_csv);
    }
    if (cfg->retire_log && !(s->retire_log = fopen(cfg->retire_log, "w"))) {
        snprintf(err, errlen, "cannot create %s: %s", cfg->retire_log, strerror(errno));
        return -1;
    }
    if (cfg->waves_path) {
        if (!vcore_has_waves()) { snprintf(err, errlen, "this build has no waveform support"); return -1; }
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
        if (vcore_waves_open(s->vc, path, 1)) {
            snprintf(err, errlen, "cannot create waveform file %s", cfg->waves_path);
            return -1;
        }
        s->waves_open = true;
    }
    if (cfg->icache.size) {
        if (cache_init(&s->icache, &cfg->icache)) { snprintf(err, errlen, "invalid I-cache configuration"); return -1; }
        s->icache_on = true;
    }
    if (cfg->dcache.size) {
        if (cache_init(&s->dcache, &cfg->dcache)) { snprintf(err, errlen, "invalid D-cache configuration"); return -1; }
        s->dcache_on = true;
    }
    te_cfg_t tc = cfg->te;
    tc.has_funnel = cfg->funnel;
    if (te_init(&s->te, &tc)) { snprintf(err, errlen, "invalid trace encoder configuration"); return -1; }
    s->te_ready = true;
    if (cfg->funnel) {
        if (funnel_init(&s->funnel, tc.sink_bytes, tc.sram_size, tc.ts_width)) {
            snprintf(err, errlen, "invalid trace funnel configuration");
            return -1;
        }
        s->funnel_ready = s->funnel_on = true;
        funnel_attach(&s->funnel, &s->te);
    }
    if (cfg->out_dir) {
        if (!(s->itc_csv = open_out(cfg->out_dir, "itc.csv", err, errlen))) return -1;
        fputs("cycle,hart,stimulus,offset,size,value\n", s->itc_csv);
        if (!(s->counters_csv = open_out(cfg->out_dir, "counters.csv", err, errlen))) return -1;
        fputs("cycle,hart,pc,csr,value\n", s->counters_csv);
        if (!(s->flow_csv = open_out(cfg->out_dir, "flow.csv", err, errlen))) return -1;
        fputs("cycle,hart,kind,pc,target,link\n", s->flow_csv);
    }
    s->waves_switch = !cfg->waves_by_firmware;
    dpi_register_hart(0, &s->hpm, s->counters_csv ? gt_csr_hook : NULL, s);
    s->gt_mask = s->flow_csv ? GT_EVENTS : 0;
    return 0;
}

void soc_free(soc_t *s) {
    dpi_register_hart(0, NULL, NULL, NULL);
    if (s->vc) vcore_free(s->vc);
    free(s->ram);
    if (s->uart_txt) fclose(s->uart_txt);
    if (s->marks_csv) fclose(s->marks_csv);
    if (s->guest_log) {
        if (s->guest_errors_total > GUEST_ERRORS_LOGGED)
            fprintf(s->guest_log, "... %llu more guest errors not logged (%llu in all, see stats.txt)\n",
                    (unsigned long long)(s->guest_errors_total - GUEST_ERRORS_LOGGED),
                    (unsigned long long)s->guest_errors_total);
        fclose(s->guest_log);
    }
    if (s->retire_log) fclose(s->retire_log);
    cache_free(&s->icache);
    cache_free(&s->dcache);
    if (s->te_ready) te_free(&s->te);
    if (s->funnel_ready) funnel_free(&s->funnel);
    if (s->itc_csv) fclose(s->itc_csv);
    if (s->counters_csv) fclose(s->counters_csv);
    if (s->flow_csv) fclose(s->flow_csv);
    memset(s, 0, sizeof *s);
}

bool soc_load(soc_t *s, uint32_t addr, const void *src, uint32_t len, uint32_t zero_fill) {
    uint64_t off = (uint64_t)addr - s->ram_base, end = off + len + zero_fill;
    if (addr < s->ram_base || end > s->ram_size) return false;
    if (len) memcpy(s->ram + off, src, len);
    memset(s->ram + off + len, 0, zero_fill);
    return true;
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
    s->waves_active = s->waves_open && s->waves_switch && in_window;
    if (s->waves_active && !was) { s->te.probe_tcode = 0; s->te.probe_nbytes = 0; }
}

void soc_reset(soc_t *s, uint32_t entry) {
    const vcore_ports_t *p = s->p;
    clint_reset(&s->clint);
    hpm_reset(&s->hpm);
    if (s->icache_on) cache_reset(&s->icache);
    if (s->dcache_on) cache_reset(&s->dcache);
    te_reset(&s->te);
    if (s->funnel_on) funnel_reset(&s->funnel);
    memset(s->ev_total, 0, sizeof s->ev_total);
    s->bus_ev = 0;
    *p->boot_addr = entry;
    *p->rst_n = 0;
    *p->instr_rdy = 0; *p->data_rdy = 0; *p->instr_err = 0; *p->data_err = 0;
    *p->irq_timer = 0; *p->irq_software = 0;
    *p->clk = 0;
    vcore_eval(s->vc);
    for (int i = 0; i < 4; i++) { *p->clk ^= 1; vcore_eval(s->vc); }
    *p->rst_n = 1;
    vcore_eval(s->vc);
    s->cycle = 0; s->instret = 0;
    s->d_busy = s->i_busy = false;
    s->stop = SOC_RUNNING;
    waves_update(s);
}

/* ---- UART / simctrl ------------------------------------------------------------------ */

static void uart_tx(soc_t *s, uint8_t c) {
    if (!s->cfg.quiet) putchar(c);
    if (s->uart_txt) fputc(c, s->uart_txt);
}

static bool ram_span(const soc_t *s, uint32_t addr, uint32_t len) {
    uint64_t off = (uint64_t)addr - s->ram_base;
    return addr >= s->ram_base && off + len <= s->ram_size;
}

static uint32_t simctrl_file_cmd(soc_t *s, uint32_t cmd) {
    if (cmd != 1 && cmd != 2) return 4;
    char name[256];
    size_t n = 0;
    for (;; n++) {
        if (n == sizeof name || !ram_span(s, s->file_name + (uint32_t)n, 1)) return 1;
        name[n] = (char)s->ram[s->file_name + n - s->ram_base];
        if (!name[n]) break;
    }
    if (n == 0 || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) return 1;
    if (!ram_span(s, s->file_addr, s->file_len)) return 2;
    if (!s->cfg.out_dir) return 3;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", s->cfg.out_dir, name);
    FILE *f = fopen(path, cmd == 1 ? "wb" : "ab");
    if (!f) return 3;
    size_t w = fwrite(s->ram + (s->file_addr - s->ram_base), 1, s->file_len, f);
    if (fclose(f) || w != s->file_len) return 3;
    return 0;
}

static enum bus_status simctrl_access(soc_t *s, uint32_t off, bool we, uint32_t *val) {
    if (we) {
        switch (off) {
        case SIMCTRL_EXIT: s->stop = SOC_EXIT; s->exit_code = (int)(*val & 0xFF); return BUS_OK;
        case SIMCTRL_MARK:
            if (s->marks_csv)
                fprintf(s->marks_csv, "%u,%llu,%llu\n", *val, (unsigned long long)s->cycle,
                        (unsigned long long)s->instret);
            return BUS_OK;
        case SIMCTRL_WAVES: s->waves_switch = (*val & 1) != 0; waves_update(s); return BUS_OK;
        case SIMCTRL_FILE_NAME: s->file_name = *val; return BUS_OK;
        case SIMCTRL_FILE_ADDR: s->file_addr = *val; return BUS_OK;
        case SIMCTRL_FILE_LEN: s->file_len = *val; return BUS_OK;
        case SIMCTRL_FILE_CMD: s->file_status = simctrl_file_cmd(s, *val); return BUS_OK;
        default: return BUS_ERR;
        }
    }
    switch (off) {
    case SIMCTRL_CYCLE_LO: *val = (uint32_t)s->cycle; return BUS_OK;
    case SIMCTRL_CYCLE_HI: *val = (uint32_t)(s->cycle >> 32); return BUS_OK;
    case SIMCTRL_INSTRET_LO: *val = (uint32_t)s->instret; return BUS_OK;
    case SIMCTRL_INSTRET_HI: *val = (uint32_t)(s->instret >> 32); return BUS_OK;
    case SIMCTRL_FILE_NAME: *val = s->file_name; return BUS_OK;
    case SIMCTRL_FILE_ADDR: *val = s->file_addr; return BUS_OK;
    case SIMCTRL_FILE_LEN: *val = s->file_len; return BUS_OK;
    case SIMCTRL_FILE_STATUS: *val = s->file_status; return BUS_OK;
    default: return BUS_ERR;
    }
}

/* ---- ground truth log ------------------------------------------------------------------ */

static char *put_u64(char *p, uint64_t v) {
    char tmp[24];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

/* itc.csv row: cycle,hart,stimulus,offset,size,value with the value in hex (hand-formatted:
 * this is on the ITC hot path) */
static void log_itc(soc_t *s, unsigned stim, unsigned off, unsigned size, uint32_t value) {
    char line[96], *p = line;
    p = put_u64(p, s->cycle);
    *p++ = ','; *p++ = '0'; *p++ = ',';
    p = put_u64(p, stim); *p++ = ',';
    *p++ = (char)('0' + off); *p++ = ',';
    *p++ = (char)('0' + size); *p++ = ',';
    *p++ = '0'; *p++ = 'x';
    for (int sh = 28; sh >= 0; sh -= 4) *p++ = "0123456789abcdef"[(value >> sh) & 15];
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), s->itc_csv);
}

/* counters.csv and flow.csv (README "Running firmware"). Every row's cycle is the cycle in
 * which its instruction was in MEM and committed (or trapped): the clock of itc.csv, where a
 * store's cycle is also its commit cycle, so one cycle holds at most one row of the three
 * files and cycle order is program order. A counter CSR is read at the clock edge that ends
 * that cycle (before the HPM counts that cycle's events); a timestamp register is read by
 * the load's bus access in that cycle (after the trace model's tick of that cycle). */

static char *put_hex32(char *p, uint32_t v) {
    *p++ = '0'; *p++ = 'x';
    for (int sh = 28; sh >= 0; sh -= 4) *p++ = "0123456789abcdef"[(v >> sh) & 15];
    return p;
}

static char *put_str(char *p, const char *str) {
    while (*str) *p++ = *str++;
    return p;
}

static void internal_error(const char *what) {
    fprintf(stderr, "tracesim: internal error: %s\n", what);
    abort();
}

/* counters.csv row: cycle,hart,pc,csr,value; name NULL: the CSR's name from its number */
static void log_counter(soc_t *s, uint64_t cycle, unsigned hart, uint32_t pc, uint32_t csr,
                        const char *name, uint32_t value) {
    char line[96], *p = line;
    p = put_u64(p, cycle); *p++ = ',';
    p = put_u64(p, hart); *p++ = ',';
    p = put_hex32(p, pc); *p++ = ',';
    if (name) {
        p = put_str(p, name);
    } else {
        unsigned n = csr & 0x1Fu;
        if ((csr & 0xF00u) == 0xB00u) *p++ = 'm';
        p = put_str(p, n == 0 ? "cycle" : n == 1 ? "time" : n == 2 ? "instret" : "hpmcounter");
        if (n >= 3) p = put_u64(p, n);
        if (csr & 0x80u) *p++ = 'h';
    }
    *p++ = ',';
    p = put_hex32(p, value);
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), s->counters_csv);
}

/* DPI hook, called inside the core's evaluation at the edge ending the commit cycle of a
 * CSR instruction that accessed a counter; the row waits for the retire port (gt_retire) */
static void gt_csr_hook(void *ctx, unsigned hart, uint32_t pc, uint32_t csr, uint32_t value) {
    soc_t *s = ctx;
    if (s->gt_csr.pending) internal_error("two counter CSR reads at one clock edge");
    s->gt_csr.pending = true;
    s->gt_csr.hart = hart;
    s->gt_csr.pc = pc;
    s->gt_csr.csr = csr;
    s->gt_csr.value = value;
}

/* flow.csv row: cycle,hart,kind,pc,target,link (target/link empty when has_* is false) */
static void log_flow(soc_t *s, uint64_t cycle, const char *kind, uint32_t pc, bool has_target,
                     uint32_t target, bool has_link, uint32_t link) {
    char line[96], *p = line;
    p = put_u64(p, cycle);
    *p++ = ','; *p++ = '0'; *p++ = ',';
    p = put_str(p, kind); *p++ = ',';
    p = put_hex32(p, pc); *p++ = ',';
    if (has_target) p = put_hex32(p, target);
    *p++ = ',';
    if (has_link) p = put_hex32(p, link);
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), s->flow_csv);
}

static void gt_jump_done(soc_t *s, bool has_target, uint32_t target) {
    log_flow(s, s->gt_jump.cycle, s->gt_jump.ret ? "ret" : "call", s->gt_jump.pc, has_target,
             target, !s->gt_jump.ret, s->gt_jump.link);
    s->gt_jump.pending = false;
}

static inline bool is_link_reg(unsigned r) { return r == 1 || r == 5; }

/* The retire port after an edge describes the instruction that committed, or trapped, in the
 * cycle that edge ended (s->cycle - 1): rvfi_pc is its pc (= the mepc a trap writes),
 * rvfi_insn its raw bits (16 for a compressed one), rvfi_rd_wdata what it wrote to rd, and
 * instr_addr already the fetch redirect a trap or mret made at that edge. A JAL/JALR
 * redirected fetch earlier (IF/EX), so its target is taken from the next instruction that
 * retires or traps: nothing else can commit in between. */
static __attribute__((noinline)) void gt_retire(soc_t *s) {
    const vcore_ports_t *p = s->p;
    uint64_t cycle = s->cycle - 1;
    uint32_t pc = *p->rvfi_pc;
    if (s->gt_jump.pending) gt_jump_done(s, true, pc);
    s->gt_mask = GT_EVENTS;
    if (*p->rvfi_trap) {
        if (s->gt_csr.pending) internal_error("counter CSR read by a trapping instruction");
        log_flow(s, cycle, "trap", pc, true, *p->instr_addr, true, *p->rvfi_cause);
        return;
    }
    uint32_t insn = *p->rvfi_insn;
    int call = 0;                  /* 1 call, -1 return */
    if ((insn & 3u) == 3u) {
        unsigned op = insn & 0x7Fu, rd = (insn >> 7) & 31u, rs1 = (insn >> 15) & 31u;
        if (op == 0x6Fu) {                                   /* JAL */
            call = is_link_reg(rd);
        } else if (op == 0x67u) {                            /* JALR */
            call = is_link_reg(rd) ? 1 : (rd == 0 && is_link_reg(rs1)) ? -1 : 0;
        } else if (op == 0x73u) {                            /* SYSTEM */
            if (insn == 0x30200073u) log_flow(s, cycle, "mret", pc, true, *p->instr_addr, false, 0);
            if (s->gt_csr.pending) {
                unsigned f3 = (insn >> 12) & 7u;
                if (s->gt_csr.pc != pc || !(f3 & 3u))
                    internal_error("counter CSR read does not match the retire port");
                /* CSRRW/CSRRWI with rd = x0 (csrw) does not read the CSR */
                if (!((f3 & 3u) == 1u && rd == 0))
                    log_counter(s, cycle, s->gt_csr.hart, pc, s->gt_csr.csr, NULL, s->gt_csr.value);
                s->gt_csr.pending = false;
            }
        }
    } else if ((insn & 0xE003u) == 0x2001u) {                /* c.jal (RV32) */
        call = 1;
    } else if ((insn & 0xE07Fu) == 0x8002u && (insn & 0x0F80u)) {   /* c.jr / c.jalr */
        unsigned rs1 = (insn >> 7) & 31u;
        call = (insn & 0x1000u) ? 1 : is_link_reg(rs1) ? -1 : 0;
    }
    if (s->gt_csr.pending) internal_error("counter CSR read without a CSR instruction retiring");
    if (call) {
        s->gt_mask = GT_EVENTS | EVB_RETIRE;
        s->gt_jump.pending = true;
        s->gt_jump.ret = call < 0;
        s->gt_jump.pc = pc;
        s->gt_jump.link = *p->rvfi_rd_wdata;
        s->gt_jump.cycle = cycle;
    }
}

/* ---- bus ------------------------------------------------------------------------------ */

/* a successful word load of tsLower/tsUpper (encoder or funnel) in this cycle: the load
 * commits in this cycle (an answered data request is never interrupted) */
static inline void log_ts_read(soc_t *s, uint32_t off, const char *lower, const char *upper, uint32_t val) {
    if (s->counters_csv && (off == TREG_TE_TS_LOWER || off == TREG_TE_TS_UPPER))
        log_counter(s, s->cycle, 0, *s->p->data_pc, 0, off == TREG_TE_TS_LOWER ? lower : upper, val);
}

static enum bus_status dev_access(soc_t *s, uint32_t addr, unsigned size, bool we, uint32_t *val) {
    uint32_t page = addr & ~0xFFFu, off = addr & 0xFFFu;
    if (addr - MAP_CLINT_BASE < MAP_CLINT_SIZE) {
        uint32_t o = addr - MAP_CLINT_BASE;
        return (we ? clint_write(&s->clint, o, size, *val) : clint_read(&s->clint, o, size, val))
                   ? BUS_OK : BUS_ERR;
    }
    if (page == MAP_UART_BASE) {
        if (off != UART_TXDATA) return BUS_ERR;
        if (we) uart_tx(s, (uint8_t)*val); else *val = 0;
        return BUS_OK;
    }
    if (page == MAP_SIMCTRL_BASE) {
        if (size != 4) return BUS_ERR;
        return simctrl_access(s, off, we, val);
    }
    if (page == MAP_TRACE_BASE && s->cfg.no_trace) {
        if (!we) {
            *val = (off == 0) ? 8u : 1u;   /* teControl says "empty", the rest "ready" */
            log_ts_read(s, off, "ts_lower", "ts_upper", *val);
        }
        return BUS_OK;
    }
    if (page == MAP_TRACE_BASE) {
        if (!we) {
            if (te_read(&s->te, off, size, val) != TE_OK) return BUS_ERR;
            log_ts_read(s, off, "ts_lower", "ts_upper", *val);
            return BUS_OK;
        }
        uint64_t before = s->te.itc_accepted;
        enum te_access r = te_write(&s->te, off, size, *val);
        if (r == TE_WAIT) { s->bus_ev |= EVB_ITC_STALL; return BUS_WAIT; }
        if (r == TE_ERR) return BUS_ERR;
        if (s->itc_csv && off >= 0x80 && off < 0x100 && s->te.itc_accepted != before)
            log_itc(s, (off - 0x80) >> 2, off & 3, size,
                    size == 4 ? *val : *val & (size == 2 ? 0xFFFFu : 0xFFu));
        return BUS_OK;
    }
    if (page == MAP_FUNNEL_BASE && s->funnel_on) {
        enum te_access r = we ? funnel_write(&s->funnel, off, size, *val) : funnel_read(&s->funnel, off, size, val);
        if (r != TE_OK) return BUS_ERR;
        if (!we) log_ts_read(s, off, "tf_ts_lower", "tf_ts_upper", *val);
        return BUS_OK;
    }
    return BUS_ERR;
}

static inline void ram_read(const soc_t *s, uint32_t off, unsigned size, uint32_t *val) {
    const uint8_t *m = s->ram + off;
    switch (size) {
    case 1: *val = m[0]; break;
    case 2: *val = (uint32_t)m[0] | (uint32_t)m[1] << 8; break;
    default: *val = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
    }
}

static inline void ram_write(soc_t *s, uint32_t off, unsigned size, uint32_t val) {
    uint8_t *m = s->ram + off;
    m[0] = (uint8_t)val;
    if (size >= 2) m[1] = (uint8_t)(val >> 8);
    if (size == 4) { m[2] = (uint8_t)(val >> 16); m[3] = (uint8_t)(val >> 24); }
}

static const char *size_name(unsigned size) { return size == 1 ? "byte" : size == 2 ? "half" : "word"; }

/* Wait states of a new RAM access: with a cache, 0 on a hit and the miss latency on a miss
 * (*fill tells to install the line when the wait ends); without, the RAM's wait states. */
static inline unsigned ram_access_wait(soc_t *s, cache_t *c, bool on, bool allocate,
                                       uint32_t addr, uint32_t ev_access, uint32_t ev_miss,
                                       bool *fill) {
    *fill = false;
    if (!on) return s->cfg.ram_wait;
    s->bus_ev |= ev_access;
    if (!allocate || cache_access(c, addr)) return 0;
    s->bus_ev |= ev_miss;
    *fill = true;
    return c->cfg.miss_latency;
}

static inline void service_data(soc_t *s) {
    const vcore_ports_t *p = s->p;
    if (!*p->data_req) { *p->data_rdy = 0; *p->data_err = 0; s->d_busy = false; return; }
    uint32_t addr = *p->data_addr;
    unsigned size = 1u << *p->data_size;
    bool we = *p->data_we;
    uint32_t off = addr - s->ram_base;
    if (addr >= s->ram_base && off <= s->ram_size - size) {
        if (s->sba_busy) {                 /* the SBA sink has the RAM this cycle */
            s->bus_ev |= EVB_SBA_CONFLICT;
            *p->data_rdy = 0; *p->data_err = 0;
            return;
        }
        if (!s->d_busy) {
            /* stores are write-through without allocation: they look up but never miss */
            unsigned w = ram_access_wait(s, &s->dcache, s->dcache_on, !we, addr,
                                         EVB_D_CACHE_ACCESS, EVB_D_CACHE_MISS, &s->d_fill);
            if (w) { s->d_busy = true; s->d_wait = w - 1; *p->data_rdy = 0; *p->data_err = 0; return; }
        } else if (s->d_wait) {
            s->d_wait--; *p->data_rdy = 0; *p->data_err = 0; return;
        } else {
            s->d_busy = false;
            if (s->d_fill) cache_fill(&s->dcache, addr);
        }
        if (we) {
            ram_write(s, off, size, *p->data_wdata);
            if (s->retire_log) { s->log_store = true; s->log_st_addr = addr; s->log_st_data = *p->data_wdata; s->log_st_size = size; }
        } else {
            ram_read(s, off, size, p->data_rdata);
        }
        *p->data_rdy = 1; *p->data_err = 0;
        return;
    }
    uint32_t val = we ? *p->data_wdata : 0;
    enum bus_status st = dev_access(s, addr, size, we, &val);
    if (st == BUS_WAIT) { *p->data_rdy = 0; *p->data_err = 0; return; }   /* retried next cycle */
    s->d_busy = false;
    *p->data_rdy = 1;
    *p->data_err = st == BUS_ERR;
    if (!we) *p->data_rdata = val;
    if (st == BUS_ERR)
        soc_guest_error(s, "%s access fault: %s %s at 0x%08x (pc 0x%08x)", we ? "store" : "load",
                        size_name(size), we ? "store" : "load", addr, *p->data_pc);
}

static inline void service_fetch(soc_t *s) {
    const vcore_ports_t *p = s->p;
    uint32_t addr = *p->instr_addr;
    uint32_t off = addr - s->ram_base;
    bool in_ram = addr >= s->ram_base && off <= s->ram_size - 2;
    if (s->i_busy && s->i_busy_addr == addr) {
        if (s->i_wait) { s->i_wait--; *p->instr_rdy = 0; return; }
        s->i_busy = false;
        if (s->i_fill) cache_fill(&s->icache, addr);
    } else if (in_ram) {
        /* a new fetch (a redirect abandons a fetch in progress) */
        unsigned w = ram_access_wait(s, &s->icache, s->icache_on, true, addr,
                                     EVB_I_CACHE_ACCESS, EVB_I_CACHE_MISS, &s->i_fill);
        if (w) { s->i_busy = true; s->i_busy_addr = addr; s->i_wait = w - 1; *p->instr_rdy = 0; return; }
        s->i_busy = false;
    }
    *p->instr_rdy = 1;
    if (in_ram && off <= s->ram_size - 4) {
        ram_read(s, off, 4, p->instr_rdata);
        *p->instr_err = 0;
    } else if (in_ram) {
        ram_read(s, off, 2, p->instr_rdata);
        *p->instr_err = 2;   /* only the upper halfword is outside RAM */
    } else {
        *p->instr_rdata = 0;
        *p->instr_err = 3;
    }
}

static void progress(soc_t *s, struct timespec *t0, struct timespec *last, uint64_t *last_cycle) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double dt = (double)(now.tv_sec - last->tv_sec) + (double)(now.tv_nsec - last->tv_nsec) * 1e-9;
    if (dt < 1.0) return;
    double total = (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
    fprintf(stderr, "\r[tracesim] %.1f M cycles, %.2f M cycles/s, %.0f s   ",
            (double)s->cycle / 1e6, (double)(s->cycle - *last_cycle) / dt / 1e6, total);
    *last = now;
    *last_cycle = s->cycle;
}

/* The core's event vector and the bus events describe the cycle that ended at this edge;
 * the first edge after reset describes no executed cycle and is not counted. */
static inline uint32_t account_events(soc_t *s) {
    uint32_t ev = *s->p->ev | s->bus_ev;
    s->bus_ev = 0;
    if (!s->cycle) return ev;
    hpm_tick(&s->hpm, ev);
    for (uint32_t e = ev; e; e &= e - 1) s->ev_total[__builtin_ctz(e)]++;
    return ev;
}

/* Trace encoder and funnel tick; an SBA sink word goes into RAM at once and takes the RAM
 * port for this cycle (rule: the SBA sink wins, the core's RAM data access waits). */
static inline void trace_tick(soc_t *s) {
    te_tick(&s->te);
    sink_t *k = &s->te.sink;
    if (s->funnel_on) { funnel_tick(&s->funnel); k = &s->funnel.sink; }
    s->sba_busy = false;
    if (__builtin_expect(k->stopped && !s->sink_stop_cycle, 0)) s->sink_stop_cycle = s->cycle;
    if (!k->sba_valid) return;
    if (ram_span(s, k->sba_addr, k->width)) {
        memcpy(s->ram + (k->sba_addr - s->ram_base), k->sba_data, k->width);
        s->sba_busy = true;
    } else {
        te_sink_error(&s->te);
        soc_guest_error(s, "trace SBA sink write to 0x%08x outside RAM (teSinkError set)", k->sba_addr);
    }
}

/* one line per retired instruction or trap, for the cycle that just ended */
static void log_retire(soc_t *s) {
    const vcore_ports_t *p = s->p;
    if (*p->rvfi_valid && *p->rvfi_rd)
        fprintf(s->retire_log, "%llu %08x %08x x%u=%08x\n", (unsigned long long)(s->cycle - 1),
                *p->rvfi_pc, *p->rvfi_insn, *p->rvfi_rd, *p->rvfi_rd_wdata);
    else if (*p->rvfi_valid && s->log_store)
        fprintf(s->retire_log, "%llu %08x %08x mem[%08x]%u=%08x\n", (unsigned long long)(s->cycle - 1),
                *p->rvfi_pc, *p->rvfi_insn, s->log_st_addr, s->log_st_size, s->log_st_data);
    else if (*p->rvfi_valid)
        fprintf(s->retire_log, "%llu %08x %08x\n", (unsigned long long)(s->cycle - 1), *p->rvfi_pc, *p->rvfi_insn);
    else
        fprintf(s->retire_log, "%llu %08x trap mcause=0x%08x\n", (unsigned long long)(s->cycle - 1), *p->rvfi_pc, *p->rvfi_cause);
    s->log_store = false;
}

/* Waves: after the C side has answered this cycle, drive the probes, settle the logic that
 * depends on the answers (one extra eval, no clock edge) and dump: at time 10 * cycle ns the
 * waves show registers, bus answers and C-model state of that cycle together. */
static void waves_sample(soc_t *s) {
    const vcore_ports_t *p = s->p;
    const te_t *t = &s->te;
    const sink_t *k = s->funnel_on ? &s->funnel.sink : &s->te.sink;
    uint32_t c = te_control(t);
    *p->probe_cycle = s->cycle;
    *p->probe_itc_level = (uint8_t)(t->fifo_count > 255 ? 255 : t->fifo_count);
    *p->probe_itc_full = !te_itc_ready(t);
    *p->probe_itc_stall = (s->bus_ev & EVB_ITC_STALL) != 0;
    *p->probe_te_control = c;
    *p->probe_te_enable = (c >> 1) & 1;
    *p->probe_te_tracing = (c >> 2) & 1;
    *p->probe_te_empty = (c >> 3) & 1;
    *p->probe_te_overflow = (c >> 12) & 1;
    *p->probe_te_tcode = t->probe_tcode;
    *p->probe_te_msg_len = t->probe_tcode ? t->probe_len : 0;
    *p->probe_sink_nbytes = t->probe_nbytes;
    uint64_t b = 0;
    for (unsigned i = 0; i < t->probe_nbytes && i < 8; i++) b |= (uint64_t)t->probe_bytes[i] << (8 * i);
    *p->probe_sink_bytes = b;
    *p->probe_sink_wp = k->wp;
    *p->probe_sba_write = s->sba_busy;
    *p->probe_sba_conflict = (s->bus_ev & EVB_SBA_CONFLICT) != 0;
    *p->probe_mcycle = hpm_counter(&s->hpm, 0);
    *p->probe_minstret = hpm_counter(&s->hpm, 2);
    for (unsigned i = 0; i < 8; i++) *p->probe_hpm[i] = hpm_counter(&s->hpm, 3 + i);
    s->te.probe_tcode = 0;          /* consumed: the next cycle shows only its own activity */
    s->te.probe_nbytes = 0;
    vcore_eval(s->vc);
    vcore_waves_dump(s->vc, 10 * s->cycle);
}

static inline void soc_step(soc_t *s) {
    const vcore_ports_t *p = s->p;
    *p->clk ^= 1;              /* one edge = one cycle (TS_CLK_EDGE=edge build) */
    vcore_eval(s->vc);

    uint32_t ev = account_events(s);
    s->instret += *p->rvfi_valid;
    if (ev & s->gt_mask) gt_retire(s);
    if (s->retire_log && (*p->rvfi_valid || *p->rvfi_trap)) log_retire(s);
    if (*p->rvfi_trap && (*p->rvfi_cause == 1))
        soc_guest_error(s, "instruction access fault: fetch at 0x%08x", *p->rvfi_pc);

    if (!s->cfg.no_trace) trace_tick(s);
    service_fetch(s);
    service_data(s);

    clint_tick(&s->clint);
    hpm_set_time(&s->hpm, s->clint.mtime);
    *p->irq_timer = clint_timer_irq(&s->clint, 0);
    *p->irq_software = clint_soft_irq(&s->clint, 0);

    if (s->waves_active) waves_sample(s);
    s->cycle++;
}

enum soc_stop soc_run(soc_t *s) {
    struct timespec t0, last;
    uint64_t last_cycle = 0;
    bool show = s->cfg.progress && !s->cfg.quiet;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    last = t0;
    const uint64_t max = s->cfg.max_cycles ? s->cfg.max_cycles : UINT64_MAX;
    /* the waves window is checked only at its edges, the progress clock every 2^20 cycles */
    while (s->stop == SOC_RUNNING) {
        uint64_t next = max;
        if (s->waves_open) {
            if (s->cycle < s->cfg.waves_from && s->cfg.waves_from < next) next = s->cfg.waves_from;
            if (s->cfg.waves_to && s->cycle < s->cfg.waves_to && s->cfg.waves_to < next) next = s->cfg.waves_to;
        }
        uint64_t chunk = (s->cycle | 0xFFFFF) + 1;
        if (chunk < next) next = chunk;
        while (s->cycle < next && s->stop == SOC_RUNNING) soc_step(s);
        waves_update(s);
        if (show) progress(s, &t0, &last, &last_cycle);
        if (s->cycle >= max && s->stop == SOC_RUNNING) s->stop = SOC_CYCLE_LIMIT;
    }
    if (s->stop == SOC_EXIT) {
        /* let the EXIT store retire so that instret counts it */
        *s->p->clk ^= 1;
        vcore_eval(s->vc);
        uint32_t ev = account_events(s);
        s->instret += *s->p->rvfi_valid;
        if (ev & s->gt_mask) gt_retire(s);
    }
    /* a call or return at the very end (cycle limit): its target never retired */
    if (s->gt_jump.pending) gt_jump_done(s, false, 0);
    if (show) fputc('\n', stderr);
    vcore_waves_close(s->vc);
    if (s->waves_open && s->waves_tmp[0]) waves_to_vcd(s);
    if (s->uart_txt) fflush(s->uart_txt);
    fflush(stdout);
    return s->stop;
}

int soc_write_trace(soc_t *s, char *err, size_t errlen) {
    const sink_t *k = s->funnel_on ? &s->funnel.sink : &s->te.sink;
    if (!s->cfg.out_dir || (!s->te.messages && !k->words)) return 0;
    if (k->kind == SINK_SBA && k->limit < k->base) {
        fprintf(stderr, "tracesim: warning: SBA trace buffer limit 0x%08x is below its base 0x%08x; no trace.rtd\n",
                k->limit, k->base);
        return 0;
    }
    uint32_t size = k->kind == SINK_SRAM ? k->sram_size : (k->limit + k->width - k->base);
    uint8_t *img = malloc(size ? size : 1);
    if (!img) { snprintf(err, errlen, "out of memory for the trace image"); return -1; }
    uint32_t n = 0, wp = k->wp & ~1u;
    bool wrapped = k->wp & 1u;
    if (k->kind == SINK_SRAM) {
        n = sink_sram_image(k, img, size);
    } else if (ram_span(s, k->base, size) && wp >= k->base && wp <= k->base + size) {
        const uint8_t *m = s->ram + (k->base - s->ram_base);
        if (wrapped) { memcpy(img, m + (wp - k->base), k->base + size - wp); n = k->base + size - wp; }
        memcpy(img + n, m, wp - k->base);
        n += wp - k->base;
    } else {
        fprintf(stderr, "tracesim: warning: SBA trace buffer [0x%08x, +%u) is not in RAM; no trace.rtd\n", k->base, size);
        free(img);
        return 0;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.rtd", s->cfg.out_dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(img, 1, n, f) != n || fclose(f)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        free(img);
        return -1;
    }
    free(img);
    unsigned queued = (unsigned)(s->te.fifo_count + s->te.outq_count + k->fill);
    if (queued && !k->stopped)
        fprintf(stderr, "tracesim: warning: %u trace messages/bytes were still queued in the encoder at exit "
                        "(the firmware did not flush: clear teEnable and wait for teEmpty)\n", queued);
    bool src = s->te.cfg.src_bits && !(s->te.control & (1u << 15));
    snprintf(path, sizeof path, "%s/trace.json", s->cfg.out_dir);
    f = fopen(path, "w");
    if (!f) { snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno)); return -1; }
    fprintf(f, "{\n  \"format\": \"tracesim-trace-1\",\n  \"sink\": \"%s\",\n  \"through_funnel\": %s,\n"
               "  \"srcbits\": %u,\n  \"tsbits\": %u,\n  \"sink_width\": %u,\n  \"start\": %u,\n"
               "  \"wp\": %u,\n  \"wrapped\": %s,\n  \"stopped_on_wrap\": %s,\n  \"stopped_at_cycle\": %llu,\n  \"bytes\": %u,\n"
               "  \"messages\": %llu,\n  \"itc_lost\": %llu,\n  \"itc_stall_cycles\": %llu,\n"
               "  \"queued_at_exit\": %u,\n  \"bytes_written\": %llu\n}\n",
            k->kind == SINK_SRAM ? "sram" : "sba", s->funnel_on ? "true" : "false",
            src ? s->te.cfg.src_bits : 0, s->te.cfg.ts_width, k->width, sink_start(k), k->wp,
            wrapped ? "true" : "false", k->stopped ? "true" : "false", (unsigned long long)s->sink_stop_cycle, n,
            (unsigned long long)s->te.messages, (unsigned long long)s->te.lost,
            (unsigned long long)s->te.stall_cycles, queued, (unsigned long long)(k->words * k->width));
    fclose(f);
    /* perf_config.txt: the perf header out of band, for decoding a trace that lost it */
    if (s->itc_csv && s->te.itc_accepted) {
        char perr[512];
        fflush(s->itc_csv);
        if (ts_write_perf_config(s->cfg.out_dir, perr, sizeof perr) < 0)
            fprintf(stderr, "tracesim: warning: no perf_config.txt: %s\n", perr);
    }
    return 0;
}
