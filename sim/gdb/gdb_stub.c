/* gdb_stub.c - the GDB remote-protocol target on the simulated SoC (gdb_stub.h). */
#define _GNU_SOURCE
#include "gdb_stub.h"
#include "ts_file.h"
#include "nexus_decode.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the target description ------------------------------------------------------------- */

/* GDB's RISC-V numbering: x0..x31 0..31, pc 32, f0..f31 33..64, CSR n at 65 + n */
#define REG_PC 32
#define REG_CSR0 65

static const char *const gpr_names[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0",
                                          "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                          "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

/* the CSRs of the core (vcore_csr_peek) */
static const struct {
    unsigned csr;
    const char *name;
} core_csrs[] = {
    {0x300, "mstatus"}, {0x301, "misa"}, {0x302, "medeleg"}, {0x303, "mideleg"}, {0x304, "mie"}, {0x305, "mtvec"}, {0x340, "mscratch"}, {0x341, "mepc"}, {0x342, "mcause"}, {0x343, "mtval"}, {0x344, "mip"}, {0x100, "sstatus"}, {0x105, "stvec"}, {0x106, "scounteren"}, {0x140, "sscratch"}, {0x141, "sepc"}, {0x142, "scause"}, {0x143, "stval"}, {0xF14, "mhartid"}};

/* the HPM model's CSRs: mcycle 0xB00, minstret 0xB02, mhpmcounterN 0xB00+N (64 bits whole in
 * the target description, like the counters themselves), their h halves 0xB80+N (32 bits),
 * mhpmeventN 0x320+N, mcountinhibit 0x320, mcounteren 0x306 */
static bool is_counter(unsigned csr) { return csr >= 0xB00 && csr < 0xB20 && csr != 0xB01; }
static bool is_counter_h(unsigned csr) { return csr >= 0xB80 && csr < 0xBA0 && csr != 0xB81; }

typedef struct sbuf {
    char *p;
    size_t n, cap;
    bool oom;
} sbuf_t;
static void sb_printf(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf_t *b, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = true;
            return;
        }
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = (b->cap + (size_t)k + 256) * 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
}

static char *target_xml(const soc_t *s, size_t *len) {
    sbuf_t b = {0};
    sb_printf(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
                  "<architecture>riscv:rv32</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n");
    for (unsigned i = 0; i < 32; i++)
        sb_printf(&b, "<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%u\"/>\n", gpr_names[i],
                  i == 1 || i == 2 || i == 8 ? (i == 1 ? "code_ptr" : "data_ptr") : "int", i);
    sb_printf(&b, "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"32\"/>\n</feature>\n"
                  "<feature name=\"org.gnu.gdb.riscv.csr\">\n");
    for (size_t i = 0; i < sizeof core_csrs / sizeof core_csrs[0]; i++)
        sb_printf(&b, "<reg name=\"%s\" bitsize=\"32\" regnum=\"%u\" save-restore=\"no\" group=\"system\"/>\n",
                  core_csrs[i].name, REG_CSR0 + core_csrs[i].csr);
    const hpm_t *m = &s->h[0].hpm;
    sb_printf(&b, "<reg name=\"mcountinhibit\" bitsize=\"32\" regnum=\"%u\" save-restore=\"no\" group=\"system\"/>\n"
                  "<reg name=\"mcounteren\" bitsize=\"32\" regnum=\"%u\" save-restore=\"no\" group=\"system\"/>\n",
              REG_CSR0 + 0x320, REG_CSR0 + 0x306);
    for (unsigned n = 0; n < 32; n++) {
        if (n == 1 || !((m->implemented >> n) & 1)) continue;
        char name[24];
        if (n == 0) snprintf(name, sizeof name, "mcycle");
        else if (n == 2)
            snprintf(name, sizeof name, "minstret");
        else
            snprintf(name, sizeof name, "mhpmcounter%u", n);
        sb_printf(&b, "<reg name=\"%s\" bitsize=\"64\" type=\"uint64\" regnum=\"%u\" save-restore=\"no\" group=\"system\"/>\n"
                      "<reg name=\"%sh\" bitsize=\"32\" regnum=\"%u\" save-restore=\"no\" group=\"system\"/>\n",
                  name, REG_CSR0 + 0xB00 + n, name, REG_CSR0 + 0xB80 + n);
        if (n >= 3)
            sb_printf(&b, "<reg name=\"mhpmevent%u\" bitsize=\"32\" regnum=\"%u\" save-restore=\"no\" group=\"system\"/>\n",
                      n, REG_CSR0 + 0x320 + n);
    }
    sb_printf(&b, "</feature>\n<feature name=\"org.gnu.gdb.riscv.virtual\">\n"
                  "<reg name=\"priv\" bitsize=\"32\" regnum=\"%u\" save-restore=\"no\" group=\"system\"/>\n"
                  "</feature>\n</target>\n",
              REG_CSR0 + 0x1000);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    *len = b.n;
    return b.p;
}

/* ---- registers -------------------------------------------------------------------------- */

/* x[r] of hart h after its last retirement: the register file, with the write of the
 * instruction the retire port shows (in WB, not yet in the file) on top */
static uint32_t gpr(const soc_t *s, unsigned h, unsigned r) {
    const vcore_ports_t *p = s->h[h].p;
    if (!r) return 0;
    if (*p->rvfi_valid && *p->rvfi_rd == r) return *p->rvfi_rd_wdata;
    return vcore_x(p, r);
}

/* register regnum of hart h: 0 and *bytes (4 or 8), or -1 if there is none */
static int reg_read(const gdb_stub_t *g, unsigned h, unsigned regnum, uint64_t *v, unsigned *bytes) {
    const soc_t *s = g->s;
    *bytes = 4;
    if (regnum < 32) {
        *v = gpr(s, h, regnum);
        return 0;
    }
    if (regnum == REG_PC) {
        *v = g->pc[h];
        return 0;
    }
    if (regnum < REG_CSR0) return -1;
    unsigned csr = regnum - REG_CSR0;
    const hpm_t *m = &s->h[h].hpm;
    uint32_t w;
    if (csr == 0x1000) csr = 0xFFF; /* priv: the privilege mode */
    if (csr == 0xF14) {
        *v = h;
        return 0;
    }
    if (is_counter(csr)) {
        if (!((m->implemented >> (csr - 0xB00)) & 1)) return -1;
        *v = hpm_counter(m, csr - 0xB00);
        *bytes = 8;
        return 0;
    }
    if (is_counter_h(csr)) {
        if (!((m->implemented >> (csr - 0xB80)) & 1)) return -1;
        *v = hpm_counter(m, csr - 0xB80) >> 32;
        return 0;
    }
    if (csr >= 0x323 && csr < 0x340) {
        *v = m->event[csr - 0x320];
        return 0;
    }
    if (csr == 0x320) {
        *v = m->inhibit;
        return 0;
    }
    if (csr == 0x306) {
        *v = m->counteren;
        return 0;
    }
    if (vcore_csr_peek(s->h[h].vc, csr, &w) == 0) {
        *v = w;
        return 0;
    }
    return -1;
}

/* ---- small helpers ---------------------------------------------------------------------- */

static const char hexd[] = "0123456789abcdef";

static void glog(gdb_stub_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void glog(gdb_stub_t *g, const char *fmt, ...) {
    if (!g->log) return;
    va_list ap;
    fprintf(g->log, "cycle %" PRIu64 ": ", g->s->cycle);
    va_start(ap, fmt);
    vfprintf(g->log, fmt, ap);
    va_end(ap);
    fputc('\n', g->log);
    fflush(g->log);
}

/* a hex number at *p (at most 16 digits), *p moved past it; false if none or too long */
static bool hexnum(const char **p, uint64_t *v) {
    const char *q = *p;
    uint64_t x = 0;
    unsigned n = 0;
    for (;; q++, n++) {
        int c = *q, d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
                                                     c >= 'A' && c <= 'F'     ? c - 'A' + 10 :
                                                                                -1;
        if (d < 0) break;
        if (n == 16) return false;
        x = x << 4 | (uint64_t)d;
    }
    if (!n) return false;
    *p = q;
    *v = x;
    return true;
}

static void put_le(char *out, uint64_t v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; i++) {
        uint8_t b = (uint8_t)(v >> (8 * i));
        out[2 * i] = hexd[b >> 4];
        out[2 * i + 1] = hexd[b & 15];
    }
    out[2 * bytes] = 0;
}

/* bytes little-endian hex (2 * bytes digits exactly) */
static bool get_le(const char *p, unsigned bytes, uint64_t *v) {
    uint64_t x = 0;
    for (unsigned i = 0; i < bytes; i++) {
        const char *q = p + 2 * i;
        char t[3] = {q[0], q[0] ? q[1] : 0, 0};
        const char *tp = t;
        uint64_t b;
        if (!t[0] || !t[1] || !hexnum(&tp, &b) || *tp) return false;
        x |= b << (8 * i);
    }
    *v = x;
    return true;
}

/* a thread id (GDB: hart + 1; -1 all, 0 any) */
static bool thread_id(const gdb_stub_t *g, const char *p, int *h) {
    if (!strcmp(p, "-1") || !strcmp(p, "0")) {
        *h = -1;
        return true;
    }
    uint64_t v;
    if (!hexnum(&p, &v) || *p || v < 1 || v > g->s->n) return false;
    *h = (int)v - 1;
    return true;
}

static bool ram_range(const soc_t *s, uint64_t addr, uint64_t len) {
    return len && addr <= UINT32_MAX && len <= UINT32_MAX && bus_in_ram(&s->bus, (uint32_t)addr, (uint32_t)len);
}

/* ---- monitor commands (qRcmd) ----------------------------------------------------------- */

static void mon_out(gdb_stub_t *g, sbuf_t *b) {
    /* console output: O + hex, in pieces under the packet size */
    for (size_t off = 0; off < b->n;) {
        size_t k = b->n - off < 2000 ? b->n - off : 2000;
        char pkt[4100];
        pkt[0] = 'O';
        for (size_t i = 0; i < k; i++) {
            uint8_t c = (uint8_t)b->p[off + i];
            pkt[1 + 2 * i] = hexd[c >> 4];
            pkt[2 + 2 * i] = hexd[c & 15];
        }
        rsp_put(&g->r, pkt, 1 + 2 * k);
        off += k;
    }
}

static const struct {
    const char *name;
    unsigned lsb, width;
} te_fields[] = {
#define TS_TFIELD(reg, name, lsb, width, desc) {#reg "." #name, lsb, width},
#include "trace_regs.def"
#undef TS_TFIELD
};

static void show_fields(sbuf_t *b, const char *reg, uint32_t v) {
    size_t rl = strlen(reg);
    for (size_t i = 0; i < sizeof te_fields / sizeof te_fields[0]; i++) {
        const char *n = te_fields[i].name;
        if (strncmp(n, reg, rl) || n[rl] != '.') continue;
        uint32_t f = (v >> te_fields[i].lsb) & (te_fields[i].width >= 32 ? ~0u : (1u << te_fields[i].width) - 1);
        sb_printf(b, " %s=%u", n + rl + 1, f);
    }
    sb_printf(b, "\n");
}

static void show_sink(sbuf_t *b, const char *who, const sink_t *k) {
    sb_printf(b, "  %s sink: base 0x%08x limit 0x%08x WP 0x%08x (wrap %u) RP 0x%08x, stop-on-wrap %u%s, %" PRIu64 " words written, %" PRIu64 " bytes discarded\n",
              who, k->base, k->limit, k->wp & ~1u, k->wp & 1u, k->rp, k->stop_on_wrap ? 1 : 0,
              k->stopped ? " (stopped)" : "", k->words, k->discarded);
}

static void mon_trace(gdb_stub_t *g, sbuf_t *b) {
    soc_t *s = g->s;
    if (s->cfg.no_trace) {
        sb_printf(b, "the trace model is detached (--no-trace)\n");
        return;
    }
    for (unsigned i = 0; i < s->n; i++) {
        const te_t *t = &s->h[i].te;
        uint32_t c = te_control(t);
        sb_printf(b, "encoder %u (0x%08x): teControl 0x%08x:", i, MAP_TRACE_BASE + 0x1000u * i, c);
        show_fields(b, "TE_CONTROL", c);
        sb_printf(b, "  ITC FIFO %u of %u entries%s, itcTraceEnable 0x%08x, %" PRIu64 " stores accepted, %" PRIu64 " messages, %" PRIu64 " lost\n",
                  t->fifo_count, t->cfg.itc_depth, t->overflow_pending ? " (overflow pending)" : "", t->itc_enable,
                  t->itc_accepted, t->messages, t->lost);
        if (!s->funnel_on) show_sink(b, "encoder", &t->sink);
    }
    if (s->funnel_on) {
        sb_printf(b, "funnel (0x%08x): control 0x%08x:", MAP_FUNNEL_BASE, s->funnel.control);
        show_fields(b, "TE_CONTROL", s->funnel.control);
        show_sink(b, "funnel", &s->funnel.sink);
    }
    if (s->sink_stop_cycle) sb_printf(b, "the sink stopped on wrap in cycle %" PRIu64 "\n", s->sink_stop_cycle);
}

static void mon_hpm(gdb_stub_t *g, sbuf_t *b) {
    soc_t *s = g->s;
    for (unsigned h = 0; h < s->n; h++) {
        const hpm_t *m = &s->h[h].hpm;
        sb_printf(b, "hart %u: mcycle %" PRIu64 " minstret %" PRIu64 " mcountinhibit 0x%08x mcounteren 0x%08x\n", h,
                  hpm_counter(m, 0), hpm_counter(m, 2), m->inhibit, m->counteren);
        for (unsigned n = 3; n < 32; n++) {
            if (!((m->implemented >> n) & 1) || !m->event[n]) continue;
            char names[512];
            hpm_event_names(m->event[n], names, sizeof names);
            sb_printf(b, "  mhpmcounter%-2u %20" PRIu64 "  mhpmevent%u 0x%08x (%s)%s\n", n, hpm_counter(m, n), n,
                      m->event[n], names, (m->inhibit >> n) & 1 ? " [inhibited]" : "");
        }
    }
}

/* monitor messages N: the sink's content as trace.rtd would have it now (oldest byte first;
 * the sink's partial word is not in it yet), decoded, the last N messages */
#define MON_MSG_MAX 200
typedef struct {
    nxd_msg_t m[MON_MSG_MAX];
    unsigned n, cap;
    uint64_t total;
} mon_ring_t;
static int mon_msg(void *ctx, const nxd_msg_t *m) {
    mon_ring_t *r = ctx;
    r->m[r->total % r->cap] = *m;
    r->total++;
    if (r->n < r->cap) r->n++;
    return 0;
}

static void mon_messages(gdb_stub_t *g, sbuf_t *b, unsigned want) {
    soc_t *s = g->s;
    const sink_t *k = soc_sink(s);
    if (s->cfg.no_trace) {
        sb_printf(b, "the trace model is detached (--no-trace)\n");
        return;
    }
    if (k->kind == SINK_SBA && k->limit < k->base) {
        sb_printf(b, "the SBA sink's limit is below its base\n");
        return;
    }
    uint32_t size = k->kind == SINK_SRAM ? k->sram_size : (k->limit + k->width - k->base);
    uint8_t *img = malloc(size ? size : 1);
    mon_ring_t *r = calloc(1, sizeof *r);
    if (!img || !r) {
        free(img);
        free(r);
        sb_printf(b, "out of memory\n");
        return;
    }
    uint32_t n = 0, wp = k->wp & ~1u;
    const uint8_t *m = k->kind == SINK_SBA ? bus_ram(&s->bus, k->base, size) : NULL;
    if (k->kind == SINK_SRAM) n = sink_sram_image(k, img, size);
    else if (m && wp >= k->base && wp <= k->base + size) {
        if (k->wp & 1u) {
            memcpy(img, m + (wp - k->base), k->base + size - wp);
            n = k->base + size - wp;
        }
        memcpy(img + n, m, wp - k->base);
        n += wp - k->base;
    } else {
        sb_printf(b, "the SBA sink [0x%08x, +%u) is not in RAM\n", k->base, size);
        free(img);
        free(r);
        return;
    }
    nxd_t d;
    nxd_cfg_t cfg = {.srcbits = s->cfg.te.src_bits, .tsbits = s->cfg.te.ts_width ? s->cfg.te.ts_width : 40};
    r->cap = want;
    if (nxd_init(&d, &cfg) == 0) nxd_decode(&d, img, n, mon_msg, r);
    sb_printf(b, "%u bytes in the %s sink%s, %" PRIu64 " messages decoded; the last %u:\n", n,
              k->kind == SINK_SRAM ? "SRAM" : "SBA", k->wp & 1u ? " (wrapped: the oldest are gone)" : "", r->total, r->n);
    for (unsigned i = 0; i < r->n; i++) {
        const nxd_msg_t *x = &r->m[(r->total - r->n + i) % r->cap];
        sb_printf(b, "  @%" PRIu64 " %s (TCODE %u)", x->offset, nxd_tcode_name(x->tcode), x->tcode);
        if (x->status != NXD_OK) sb_printf(b, " %s", x->status == NXD_BAD ? x->error : "truncated");
        if (x->has_src) sb_printf(b, " src %u", x->src);
        for (unsigned f = 0; f < NXF__COUNT; f++)
            if ((x->fmask >> f) & 1) sb_printf(b, " %s 0x%" PRIx64, nxd_field_name((enum nxd_field)f), x->f[f]);
        if (x->tics_valid) sb_printf(b, " time %" PRIu64, x->tics);
        sb_printf(b, "\n");
    }
    free(img);
    free(r);
}

static void monitor(gdb_stub_t *g, const char *hex) {
    char cmd[512];
    size_t n = 0;
    for (; hex[0] && hex[1] && n + 1 < sizeof cmd; hex += 2) {
        char t[3] = {hex[0], hex[1], 0};
        const char *tp = t;
        uint64_t v;
        if (!hexnum(&tp, &v) || *tp) {
            rsp_puts(&g->r, "E01");
            return;
        }
        cmd[n++] = (char)v;
    }
    cmd[n] = 0;
    if (hex[0]) {
        rsp_puts(&g->r, "E01");
        return;
    }
    sbuf_t b = {0};
    soc_t *s = g->s;
    unsigned long long v;
    char extra;
    if (!strcmp(cmd, "help") || !n) {
        sb_printf(&b, "tracesim monitor commands:\n"
                      "  cycle              the cycle and each hart's retired instructions\n"
                      "  trace              encoders, funnel and sink registers decoded, ITC FIFO fill\n"
                      "  hpm                the HPM counters and their event programming\n"
                      "  messages [N]       the last N (10; at most 200) messages in the sink, decoded\n"
                      "  break cycle N      stop before cycle N\n"
                      "  break perf         stop after the next ITC store an encoder accepts (a perf record)\n"
                      "  break wrap         stop when the sink wraps (or stops on wrap)\n"
                      "  break overflow     stop when an encoder loses a message (full ITC FIFO)\n"
                      "  break clear        remove these breaks\n");
    } else if (!strcmp(cmd, "cycle")) {
        sb_printf(&b, "cycle %" PRIu64 "\n", s->cycle);
        for (unsigned h = 0; h < s->n; h++)
            sb_printf(&b, "hart %u: pc 0x%08x, %" PRIu64 " instructions retired\n", h, g->pc[h], s->h[h].instret);
    } else if (!strcmp(cmd, "trace")) {
        mon_trace(g, &b);
    } else if (sscanf(cmd, "messages %llu%c", &v, &extra) == 1 || !strcmp(cmd, "messages")) {
        if (!strcmp(cmd, "messages")) v = 10;
        mon_messages(g, &b, v < 1 ? 1 : v > MON_MSG_MAX ? MON_MSG_MAX :
                                                          (unsigned)v);
    } else if (!strcmp(cmd, "hpm")) {
        mon_hpm(g, &b);
    } else if (sscanf(cmd, "break cycle %llu%c", &v, &extra) == 1) {
        if (v <= s->cycle) sb_printf(&b, "cycle %llu is not ahead (now %" PRIu64 ")\n", v, s->cycle);
        else {
            g->break_cycle = v;
            sb_printf(&b, "will stop before cycle %llu\n", v);
        }
    } else if (!strcmp(cmd, "break perf")) {
        g->break_perf = true;
        for (unsigned h = 0; h < s->n; h++) g->perf_seen[h] = s->h[h].te.itc_accepted;
        sb_printf(&b, "will stop after the next accepted ITC store\n");
    } else if (!strcmp(cmd, "break overflow")) {
        g->break_overflow = true;
        for (unsigned h = 0; h < s->n; h++) g->lost_seen[h] = s->h[h].te.lost;
        sb_printf(&b, "will stop when an encoder loses a message (a store into a full ITC FIFO)\n");
    } else if (!strcmp(cmd, "break wrap")) {
        g->break_wrap = true;
        sb_printf(&b, "will stop when the sink wraps or stops on wrap\n");
    } else if (!strcmp(cmd, "break clear")) {
        g->break_cycle = 0;
        g->break_perf = g->break_wrap = g->break_overflow = false;
        sb_printf(&b, "monitor breaks removed\n");
    } else {
        sb_printf(&b, "unknown monitor command '%s' (monitor help)\n", cmd);
    }
    if (b.oom) {
        free(b.p);
        rsp_puts(&g->r, "E02");
        return;
    }
    mon_out(g, &b);
    free(b.p);
    rsp_puts(&g->r, "OK");
}

/* ---- the commands ----------------------------------------------------------------------- */

static void stop_reply(gdb_stub_t *g, int sig, unsigned hart, const char *extra) {
    snprintf(g->stop, sizeof g->stop, "T%02xthread:%x;%s", sig, hart + 1, extra ? extra : "");
    g->stop_hart = hart;
    g->g_hart = g->c_hart = hart;
}

static void mem_read(gdb_stub_t *g, const char *a) {
    uint64_t addr, len;
    if (!hexnum(&a, &addr) || *a++ != ',' || !hexnum(&a, &len) || *a) {
        rsp_puts(&g->r, "E01");
        return;
    }
    if (len > RSP_PKT_MAX / 2 - 8) len = RSP_PKT_MAX / 2 - 8; /* GDB asks again for the rest */
    if (!len) {
        rsp_puts(&g->r, "");
        return;
    }
    /* RAM only: device registers can have read side effects (the ITC FIFO, UART rx, sink
     * data): refused; `monitor trace` shows the trace registers without touching them */
    if (!ram_range(g->s, addr, len)) {
        rsp_puts(&g->r, "E14");
        return;
    }
    const uint8_t *m = bus_ram(&g->s->bus, (uint32_t)addr, (uint32_t)len);
    static char out[RSP_PKT_MAX];
    for (uint64_t i = 0; i < len; i++) {
        out[2 * i] = hexd[m[i] >> 4];
        out[2 * i + 1] = hexd[m[i] & 15];
    }
    rsp_put(&g->r, out, 2 * len);
}

/* M addr,len:hex  or  X addr,len:binary (escaped with 0x7d) */
static void mem_write(gdb_stub_t *g, const char *a, size_t plen, bool binary) {
    const char *end = a + plen - 1;
    uint64_t addr, len;
    if (!hexnum(&a, &addr) || *a++ != ',' || !hexnum(&a, &len) || *a++ != ':') {
        rsp_puts(&g->r, "E01");
        return;
    }
    if (!len) {
        rsp_puts(&g->r, "OK");
        return;
    } /* GDB's probe for X */
    if (len > RSP_PKT_MAX || !ram_range(g->s, addr, len)) {
        rsp_puts(&g->r, "E14");
        return;
    }
    static uint8_t buf[RSP_PKT_MAX];
    uint64_t k = 0;
    for (const char *p = a; p < end + 1 && k <= len;) {
        if (binary) {
            uint8_t c = (uint8_t)*p++;
            if (c == 0x7d) {
                if (p > end) break;
                c = (uint8_t)(*p++ ^ 0x20);
            }
            if (k < len) buf[k] = c;
            k++;
        } else {
            uint64_t v;
            if (!get_le(p, 1, &v)) {
                rsp_puts(&g->r, "E01");
                return;
            }
            if (k < len) buf[k] = (uint8_t)v;
            k++;
            p += 2;
        }
    }
    if (k != len) {
        rsp_puts(&g->r, "E01");
        return;
    }
    memcpy(bus_ram(&g->s->bus, (uint32_t)addr, (uint32_t)len), buf, len);
    g->writes++;
    if (g->log) {
        fprintf(g->log, "cycle %" PRIu64 ": debugger wrote %" PRIu64 " bytes at 0x%08" PRIx64 ":", g->s->cycle, len, addr);
        for (uint64_t i = 0; i < len && i < 64; i++) fprintf(g->log, " %02x", buf[i]);
        fprintf(g->log, "%s\n", len > 64 ? " ..." : "");
        fflush(g->log);
    }
    rsp_puts(&g->r, "OK");
}

/* a register write: GPRs only (x0 ignored); the pc only to its own value (a cycle-level
 * pipeline cannot be redirected from outside without changing its timing); CSRs refused */
static bool reg_write(gdb_stub_t *g, unsigned h, unsigned regnum, uint64_t v) {
    if (regnum == 0) return true;
    if (regnum == REG_PC) return v == g->pc[h];
    if (regnum >= 32) {
        uint64_t old;
        unsigned bytes;
        return reg_read(g, h, regnum, &old, &bytes) == 0 && old == v;
    }
    const vcore_ports_t *p = g->s->h[h].p;
    uint32_t old = gpr(g->s, h, regnum);
    if (old == (uint32_t)v) return true;
    /* the register is the retired instruction's destination, still in WB: the next edge
     * would write it over */
    if (*p->rvfi_valid && *p->rvfi_rd == regnum) return false;
    vcore_rf_poke(g->s->h[h].vc, regnum, (uint32_t)v);
    g->writes++;
    glog(g, "debugger wrote hart %u %s (x%u) = 0x%08x (was 0x%08x)", h, gpr_names[regnum], regnum, (uint32_t)v, old);
    return true;
}

static bool add_bp(gdb_stub_t *g, uint32_t a) {
    for (unsigned i = 0; i < g->nbp; i++)
        if (g->bp[i] == a) return true;
    if (g->nbp == GDB_MAX_BP) return false;
    g->bp[g->nbp++] = a;
    return true;
}

static bool del_bp(gdb_stub_t *g, uint32_t a) {
    for (unsigned i = 0; i < g->nbp; i++)
        if (g->bp[i] == a) {
            g->bp[i] = g->bp[--g->nbp];
            return true;
        }
    return true;
}

static void z_packet(gdb_stub_t *g, const char *p, bool insert) {
    uint64_t type, addr, kind;
    if (!hexnum(&p, &type) || *p++ != ',' || !hexnum(&p, &addr) || *p++ != ',' || !hexnum(&p, &kind) ||
        (*p && *p != ';') || type > 4 || addr > UINT32_MAX) {
        rsp_puts(&g->r, "E01");
        return;
    }
    if (type <= 1) {
        rsp_puts(&g->r, (insert ? add_bp(g, (uint32_t)addr) : del_bp(g, (uint32_t)addr)) ? "OK" : "E0e");
        return;
    }
    if (!kind || kind > 0x10000) {
        rsp_puts(&g->r, "E01");
        return;
    }
    if (insert) {
        if (g->nwp == GDB_MAX_WP) {
            rsp_puts(&g->r, "E0e");
            return;
        }
        g->wp[g->nwp].addr = (uint32_t)addr;
        g->wp[g->nwp].len = (uint32_t)kind;
        g->wp[g->nwp].type = (int)type;
        g->nwp++;
    } else {
        for (unsigned i = 0; i < g->nwp; i++)
            if (g->wp[i].addr == addr && g->wp[i].len == kind && g->wp[i].type == (int)type) {
                g->wp[i] = g->wp[--g->nwp];
                break;
            }
    }
    rsp_puts(&g->r, "OK");
}

static void qxfer_features(gdb_stub_t *g, const char *p) {
    /* qXfer:features:read:target.xml:OFF,LEN */
    static const char pre[] = "target.xml:";
    if (strncmp(p, pre, sizeof pre - 1)) {
        rsp_puts(&g->r, "E00");
        return;
    }
    p += sizeof pre - 1;
    uint64_t off, len;
    if (!hexnum(&p, &off) || *p++ != ',' || !hexnum(&p, &len) || *p) {
        rsp_puts(&g->r, "E01");
        return;
    }
    size_t xl = 0;
    char *x = target_xml(g->s, &xl);
    if (!x) {
        rsp_puts(&g->r, "E02");
        return;
    }
    if (len > RSP_PKT_MAX - 16) len = RSP_PKT_MAX - 16;
    static char out[RSP_PKT_MAX];
    if (off >= xl) {
        rsp_puts(&g->r, "l");
        free(x);
        return;
    }
    size_t k = xl - off < len ? xl - off : len;
    out[0] = off + k >= xl ? 'l' : 'm';
    memcpy(out + 1, x + off, k); /* the XML has none of $ # } * */
    rsp_put(&g->r, out, k + 1);
    free(x);
}

/* vCont;ACTION[:TID]... : 's' for a thread steps it; everything else continues. Returns
 * false on a malformed packet. */
static bool vcont(gdb_stub_t *g, const char *p, int *step) {
    *step = -1;
    while (*p == ';') {
        p++;
        char a = *p++;
        if (a == 'C' || a == 'S') {
            uint64_t sig;
            if (!hexnum(&p, &sig)) return false;
        } else if (a != 'c' && a != 's')
            return false;
        int h = -1;
        if (*p == ':') {
            p++;
            char tid[32];
            size_t k = 0;
            while (*p && *p != ';' && k + 1 < sizeof tid) tid[k++] = *p++;
            tid[k] = 0;
            if (!thread_id(g, tid, &h)) return false;
        }
        if ((a == 's' || a == 'S') && *step < 0) *step = h >= 0 ? h : (int)g->c_hart;
    }
    return *p == 0;
}

/* answers GDB while halted; returns when the SoC is to run (continue, step, detach, kill,
 * or the connection is gone) */
static void command_loop(gdb_stub_t *g) {
    soc_t *s = g->s;
    for (;;) {
        enum rsp_ev ev = rsp_get(&g->r, true);
        if (ev == RSP_INTERRUPT) continue; /* already halted */
        if (ev == RSP_CLOSED || ev == RSP_NONE) {
            fprintf(stderr, "tracesim: gdb: the debugger went away at cycle %" PRIu64 "; the run goes on without it\n", s->cycle);
            glog(g, "connection closed: the run goes on without the debugger");
            g->detached = true;
            return;
        }
        char *p = g->r.pkt;
        size_t len = g->r.len;
        char out[64 * 2 * 8 + 64];
        switch (p[0]) {
        case '?': rsp_puts(&g->r, g->stop); break;
        case 'g': {
            size_t k = 0;
            for (unsigned i = 0; i <= REG_PC; i++) {
                uint64_t v;
                unsigned bytes;
                reg_read(g, g->g_hart, i, &v, &bytes);
                put_le(out + k, v, 4);
                k += 8;
            }
            rsp_put(&g->r, out, k);
            break;
        }
        case 'G': {
            bool ok = len == 1 + 33 * 8;
            uint64_t v[33];
            for (unsigned i = 0; ok && i < 33; i++) ok = get_le(p + 1 + 8 * i, 4, &v[i]);
            for (unsigned i = 0; ok && i < 33; i++) ok = reg_write(g, g->g_hart, i, v[i]);
            rsp_puts(&g->r, ok ? "OK" : "E01");
            break;
        }
        case 'p': {
            const char *a = p + 1;
            uint64_t n, v;
            unsigned bytes;
            if (!hexnum(&a, &n) || *a || n > 0x2000 || reg_read(g, g->g_hart, (unsigned)n, &v, &bytes)) {
                rsp_puts(&g->r, "E01");
                break;
            }
            put_le(out, v, bytes);
            rsp_puts(&g->r, out);
            break;
        }
        case 'P': {
            const char *a = p + 1;
            uint64_t n, v;
            size_t hl = a[0] ? strlen(a) : 0;
            (void)hl;
            if (!hexnum(&a, &n) || *a++ != '=' || n > 0x2000) {
                rsp_puts(&g->r, "E01");
                break;
            }
            size_t digits = strlen(a);
            if ((digits != 8 && digits != 16) || !get_le(a, (unsigned)digits / 2, &v)) {
                rsp_puts(&g->r, "E01");
                break;
            }
            rsp_puts(&g->r, reg_write(g, g->g_hart, (unsigned)n, v) ? "OK" : "E01");
            break;
        }
        case 'm': mem_read(g, p + 1); break;
        case 'M': mem_write(g, p + 1, len - 1, false); break;
        case 'X': mem_write(g, p + 1, len - 1, true); break;
        case 'Z': z_packet(g, p + 1, true); break;
        case 'z': z_packet(g, p + 1, false); break;
        case 'H': {
            int h;
            if ((p[1] != 'g' && p[1] != 'c') || !thread_id(g, p + 2, &h)) {
                rsp_puts(&g->r, "E01");
                break;
            }
            if (p[1] == 'g') g->g_hart = h < 0 ? g->stop_hart : (unsigned)h;
            else
                g->c_hart = h < 0 ? g->stop_hart : (unsigned)h;
            rsp_puts(&g->r, "OK");
            break;
        }
        case 'T': {
            int h;
            rsp_puts(&g->r, thread_id(g, p + 1, &h) && h >= 0 ? "OK" : "E01");
            break;
        }
        case 'c':
        case 's':
        case 'C':
        case 'S': {
            /* an address to resume at is refused unless it is where the hart is */
            const char *a = p + 1;
            uint64_t v;
            if ((p[0] == 'C' || p[0] == 'S') && hexnum(&a, &v) && *a == ';') a++;
            if (*a && (!hexnum(&a, &v) || v != g->pc[g->c_hart])) {
                rsp_puts(&g->r, "E01");
                break;
            }
            g->step_hart = p[0] == 's' || p[0] == 'S' ? (int)g->c_hart : -1;
            return;
        }
        case 'D':
            rsp_puts(&g->r, "OK");
            glog(g, "detached: the run goes on without the debugger");
            g->detached = true;
            rsp_close(&g->r);
            return;
        case 'k':
            glog(g, "killed by the debugger");
            fprintf(stderr, "tracesim: gdb: killed by the debugger at cycle %" PRIu64 "; the run folder is written as for a cycle limit\n", s->cycle);
            s->stop = SOC_CYCLE_LIMIT;
            g->detached = true;
            rsp_close(&g->r);
            return;
        case 'v':
            if (!strcmp(p, "vCont?")) {
                rsp_puts(&g->r, "vCont;c;C;s;S");
                break;
            }
            if (!strncmp(p, "vCont;", 6)) {
                int step;
                if (!vcont(g, p + 5, &step)) {
                    rsp_puts(&g->r, "E01");
                    break;
                }
                g->step_hart = step;
                return;
            }
            if (!strncmp(p, "vKill", 5)) {
                rsp_puts(&g->r, "OK");
                glog(g, "killed by the debugger");
                fprintf(stderr, "tracesim: gdb: killed by the debugger at cycle %" PRIu64 "; the run folder is written as for a cycle limit\n", s->cycle);
                s->stop = SOC_CYCLE_LIMIT;
                g->detached = true;
                rsp_close(&g->r);
                return;
            }
            rsp_puts(&g->r, "");
            break;
        case 'q':
            if (!strncmp(p, "qSupported", 10)) {
                snprintf(out, sizeof out, "PacketSize=%x;qXfer:features:read+;vContSupported+", RSP_PKT_MAX);
                rsp_puts(&g->r, out);
            } else if (!strncmp(p, "qXfer:features:read:", 20)) {
                qxfer_features(g, p + 20);
            } else if (!strcmp(p, "qfThreadInfo")) {
                size_t k = 0;
                out[k++] = 'm';
                for (unsigned h = 0; h < s->n; h++) k += (size_t)snprintf(out + k, sizeof out - k, "%s%x", h ? "," : "", h + 1);
                rsp_put(&g->r, out, k);
            } else if (!strcmp(p, "qsThreadInfo")) {
                rsp_puts(&g->r, "l");
            } else if (!strcmp(p, "qC")) {
                snprintf(out, sizeof out, "QC%x", g->stop_hart + 1);
                rsp_puts(&g->r, out);
            } else if (!strcmp(p, "qAttached")) {
                rsp_puts(&g->r, "1");
            } else if (!strncmp(p, "qThreadExtraInfo,", 17)) {
                int h;
                char txt[32];
                if (!thread_id(g, p + 17, &h) || h < 0) {
                    rsp_puts(&g->r, "E01");
                    break;
                }
                snprintf(txt, sizeof txt, "hart %d", h);
                size_t k = 0;
                for (const char *t = txt; *t; t++) {
                    out[k++] = hexd[(uint8_t)*t >> 4];
                    out[k++] = hexd[*t & 15];
                }
                rsp_put(&g->r, out, k);
            } else if (!strncmp(p, "qRcmd,", 6)) {
                monitor(g, p + 6);
            } else if (!strncmp(p, "qSymbol", 7)) {
                rsp_puts(&g->r, "OK");
            } else {
                rsp_puts(&g->r, "");
            }
            break;
        default: rsp_puts(&g->r, ""); break; /* not supported */
        }
    }
}

/* ---- between two cycles ----------------------------------------------------------------- */

static void halt(gdb_stub_t *g, const char *why) {
    glog(g, "stopped (%s), hart %u at pc 0x%08x", why, g->stop_hart, g->pc[g->stop_hart]);
    rsp_puts(&g->r, g->stop);
    command_loop(g);
}

void gdb_stub_between(void *ctx, soc_t *s) {
    gdb_stub_t *g = ctx;
    if (g->detached || s->stop != SOC_RUNNING) return;
    if (!g->connected) { /* before the first cycle: wait for GDB */
        char err[256];
        if (rsp_accept(&g->r, err, sizeof err)) {
            fprintf(stderr, "tracesim: gdb: %s; the run goes on without the debugger\n", err);
            g->detached = true;
            return;
        }
        g->connected = true;
        glog(g, "debugger connected");
        stop_reply(g, 5, 0, NULL);
        command_loop(g);
        return;
    }
    /* what the cycle that just ended did (the state is only read) */
    int sig = 0;
    char extra[64] = "";
    const char *why = NULL;
    unsigned hart = 0;
    for (unsigned i = 0; i < s->n; i++) {
        soc_hart_t *h = &s->h[i];
        const vcore_ports_t *p = h->p;
        if (h->port.held) continue;
        /* a data access completed in the cycle: watchpoints (before the instruction retires) */
        if (g->nwp && *p->data_req && *p->data_rdy && !sig) {
            uint32_t a = *p->data_addr, n = 1u << *p->data_size;
            /* an SC or AMO writes (data_we 0: the bus does its write, sim/bus.h) */
            bool we = *p->data_we || ((vcore_data_amo(p) & BUS_AMO_VALID) && (vcore_data_amo(p) & 0x1Fu) != BUS_AMO_LR);
            for (unsigned k = 0; k < g->nwp; k++) {
                int t = g->wp[k].type;
                if ((t == 2 && !we) || (t == 3 && we)) continue;
                if ((uint64_t)a + n <= g->wp[k].addr || a >= (uint64_t)g->wp[k].addr + g->wp[k].len) continue;
                sig = 5;
                hart = i;
                snprintf(extra, sizeof extra, "%s:%x;", t == 2 ? "watch" : t == 3 ? "rwatch" :
                                                                                    "awatch",
                         a);
                why = "watchpoint";
                break;
            }
        }
        if (!*p->rvfi_valid && !*p->rvfi_trap) continue;
        g->pc[i] = *p->mem_valid ? *p->mem_pc : *p->ex_valid ? *p->ex_pc :
                                            *p->id_valid     ? *p->id_pc :
                                                               *p->if_pc;
        if (sig) continue;
        if (g->step_hart == (int)i) {
            sig = 5;
            hart = i;
            why = "step";
            continue;
        }
        for (unsigned k = 0; k < g->nbp; k++)
            if (g->bp[k] == g->pc[i]) {
                sig = 5;
                hart = i;
                why = "breakpoint";
                break;
            }
    }
    if (!sig && g->break_cycle && s->cycle >= g->break_cycle) {
        g->break_cycle = 0;
        sig = 5;
        hart = g->c_hart;
        why = "monitor break cycle";
    }
    if (!sig && g->break_perf)
        for (unsigned i = 0; i < s->n && !sig; i++)
            if (s->h[i].te.itc_accepted != g->perf_seen[i]) {
                g->break_perf = false;
                sig = 5;
                hart = i;
                why = "monitor break perf: an ITC store was accepted";
            }
    if (!sig && g->break_overflow)
        for (unsigned i = 0; i < s->n && !sig; i++)
            if (s->h[i].te.lost != g->lost_seen[i]) {
                g->break_overflow = false;
                sig = 5;
                hart = i;
                why = "monitor break overflow: an encoder lost a message (ITC FIFO full)";
            }
    if (!sig && g->break_wrap && !s->cfg.no_trace) {
        const sink_t *k = soc_sink(s);
        if ((k->wp & 1u) || k->stopped) {
            g->break_wrap = false;
            sig = 5;
            hart = 0;
            why = k->stopped ? "monitor break wrap: the sink stopped on wrap" : "monitor break wrap: the sink wrapped";
        }
    }
    /* Ctrl-C: one non-blocking look at the socket every poll_every cycles */
    if (!sig && !(s->cycle & (g->poll_every - 1))) {
        enum rsp_ev ev = rsp_get(&g->r, false);
        if (ev == RSP_INTERRUPT) {
            sig = 2;
            hart = g->c_hart;
            why = "interrupt";
        } else if (ev == RSP_CLOSED) {
            fprintf(stderr, "tracesim: gdb: the debugger went away at cycle %" PRIu64 "; the run goes on without it\n", s->cycle);
            glog(g, "connection closed: the run goes on without the debugger");
            g->detached = true;
            return;
        } else if (ev == RSP_PACKET) {
            rsp_puts(&g->r, "E01"); /* all-stop: nothing is answered while running */
        }
    }
    if (!sig) return;
    g->step_hart = -1;
    stop_reply(g, sig, hart, extra);
    if (why && strncmp(why, "monitor", 7) == 0) {
        sbuf_t b = {0};
        if (!strcmp(why, "monitor break cycle")) sb_printf(&b, "tracesim: %s: before cycle %" PRIu64 "\n", why, s->cycle);
        else
            sb_printf(&b, "tracesim: %s in cycle %" PRIu64 " (hart %u)\n", why, s->cycle - 1, hart);
        if (!b.oom) mon_out(g, &b);
        free(b.p);
    }
    halt(g, why ? why : "?");
}

int gdb_stub_open(gdb_stub_t *g, soc_t *s, unsigned port, const char *run_dir, char *err, size_t errlen) {
    memset(g, 0, sizeof *g);
    g->s = s;
    g->step_hart = -1;
    g->poll_every = 1024;
    rsp_init(&g->r, stderr);
    for (unsigned i = 0; i < s->n; i++) g->pc[i] = *s->h[i].p->boot_addr;
    snprintf(g->log_path, sizeof g->log_path, "%s/gdb.log", run_dir);
    g->log = ts_fopen_output(g->log_path, "w", err, errlen); /* a planted link is replaced, never followed */
    if (!g->log) return -1;
    unsigned bound = 0;
    if (rsp_listen(&g->r, port, &bound, err, errlen)) return -1;
    fprintf(stderr, "tracesim: gdb: waiting for GDB on 127.0.0.1:%u (target remote :%u)\n", bound, bound);
    fflush(stderr);
    glog(g, "listening on 127.0.0.1:%u", bound);
    return 0;
}

void gdb_stub_finish(gdb_stub_t *g, int rc) {
    if (g->connected && !g->detached && g->r.fd >= 0) {
        char w[16];
        snprintf(w, sizeof w, "W%02x", rc & 0xff);
        rsp_puts(&g->r, w);
    }
    glog(g, "run ended, status %d; %" PRIu64 " writes by the debugger", rc, g->writes);
    rsp_close(&g->r);
}

void gdb_stub_free(gdb_stub_t *g) {
    rsp_free(&g->r);
    if (g->log) {
        char e[256];
        if (ts_fclose_output(g->log, g->log_path, e, sizeof e)) fprintf(stderr, "tracesim: gdb: %s\n", e);
    }
    g->log = NULL;
}
