/* ground_truth_log.c - the ground-truth logs; see ground_truth_log.h. Rows are formatted by
 * hand (no printf): itc.csv rows are on the ITC hot path, and a call or return every few
 * cycles makes flow.csv rows frequent. */
#include "ground_truth_log.h"
#include "hpm.h"
#include "ts_file.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define GT_ITC_BUF 16384u /* itc.csv bytes gathered before stdio gets them */

static FILE *open_out(const char *dir, const char *name, char *err, size_t errlen) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return ts_fopen_output(path, "w", err, errlen); /* renamed into place at its close (ts_file.h) */
}

int gt_log_open(gt_log_t *g, const char *dir, char *err, size_t errlen) {
    if (!(g->itc = open_out(dir, "itc.csv", err, errlen))) return -1;
    fputs("cycle,hart,stimulus,offset,size,value,status\n", g->itc);
    if (!(g->itc_buf = malloc(GT_ITC_BUF))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->itc_fill = 0;
    if (!(g->counters = open_out(dir, "counters.csv", err, errlen))) return -1;
    fputs("cycle,hart,pc,csr,value\n", g->counters);
    if (!(g->flow = open_out(dir, "flow.csv", err, errlen))) return -1;
    fputs("cycle,hart,kind,pc,target,link,tp\n", g->flow);
    if (!(g->trace_events = open_out(dir, "trace_events.csv", err, errlen))) return -1;
    fputs("cycle,hart,event,detail\n", g->trace_events);
    if (!(g->stm = open_out(dir, "stm.csv", err, errlen))) return -1;
    fputs("cycle,hart,id,value,status\n", g->stm);
    if (!(g->hooks = open_out(dir, "hooks.csv", err, errlen))) return -1;
    fputs("cycle,hart,hook,how,pc,a0,a1,ra,tp\n", g->hooks);
    if (!(g->hpm_writes = open_out(dir, "hpm_writes.csv", err, errlen))) return -1;
    fputs("cycle,hart,csr,value\n", g->hpm_writes);
    if (!(g->traps = open_out(dir, "traps.csv", err, errlen))) return -1;
    fputs("cycle,hart,cause,pc,handler,pending,first,ret,depth\n", g->traps);
    g->mask = GT_LOG_EVENTS;
    return 0;
}

int gt_log_open_retire(gt_log_t *g, const char *path, char *err, size_t errlen) {
    return (g->retire = ts_fopen_output(path, "wu", err, errlen)) ? 0 : -1; /* a user-named path */
}

const char *const gt_hook_names[GT_HOOKS] = {"__cyg_profile_func_enter", "__cyg_profile_func_exit", "perfWriteCntrs"};

void gt_log_set_hooks(gt_log_t *g, const uint32_t hook[GT_HOOKS]) {
    memcpy(g->hook, hook, sizeof g->hook);
}

void gt_log_share(gt_log_t *g, const gt_log_t *owner, unsigned hart) {
    memset(g, 0, sizeof *g);
    g->hart = hart;
    g->itc = owner->itc;
    g->counters = owner->counters;
    g->flow = owner->flow;
    g->trace_events = owner->trace_events;
    g->stm = owner->stm;
    g->retire = owner->retire;
    g->hooks = owner->hooks;
    g->hpm_writes = owner->hpm_writes;
    g->traps = owner->traps;
    memcpy(g->hook, owner->hook, sizeof g->hook);
    g->mask = owner->mask;
}

int gt_log_close(gt_log_t *g, const char *dir, const char *retire_path, char *err, size_t errlen) {
    if (g->itc) gt_log_itc_flush(g);
    free(g->itc_buf);
    g->itc_buf = NULL;
    FILE *const fs[] = {g->retire, g->itc, g->counters, g->flow, g->trace_events, g->stm, g->hooks, g->hpm_writes, g->traps};
    static const char *const names[] = {NULL, "itc.csv", "counters.csv", "flow.csv", "trace_events.csv",
                                        "stm.csv", "hooks.csv", "hpm_writes.csv", "traps.csv"};
    int rc = 0;
    char path[4200], e[4400];
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        if (!fs[i]) continue;
        snprintf(path, sizeof path, "%s%s%s", i ? (dir ? dir : ".") : (retire_path ? retire_path : "the retire log"),
                 i ? "/" : "", i ? names[i] : "");
        if (ts_fclose_output(fs[i], path, e, sizeof e) && !rc) { /* a full disk: not a silent short log */
            rc = -1;
            if (err) snprintf(err, errlen, "%s", e);
        }
    }
    g->retire = g->itc = g->counters = g->flow = g->trace_events = g->stm = g->hooks = g->hpm_writes = g->traps = NULL;
    return rc;
}

static char *put_u64(char *p, uint64_t v) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

/* a hart number: one digit for the first ten (the common case costs no division) */
static inline char *put_hart(char *p, unsigned hart) {
    if (hart < 10) {
        *p++ = (char)('0' + hart);
        return p;
    }
    return put_u64(p, hart);
}

static char *put_hex32(char *p, uint32_t v) {
    *p++ = '0';
    *p++ = 'x';
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

void gt_log_trace_event(gt_log_t *g, uint64_t cycle, int hart, const char *event, unsigned detail) {
    if (g->trace_events)
        fprintf(g->trace_events, "%llu,%d,%s,%u\n", (unsigned long long)cycle, hart, event, detail);
}

void gt_log_stm(gt_log_t *g, uint64_t cycle, unsigned hart, unsigned id, uint32_t value,
                const char *status) {
    if (g->stm)
        fprintf(g->stm, "%llu,%u,0x%04x,0x%08x,%s\n", (unsigned long long)cycle, hart, id, value, status);
}

void gt_log_itc_flush(gt_log_t *g) {
    if (g->itc_fill) fwrite_unlocked(g->itc_buf, 1, g->itc_fill, g->itc); /* errors: ferror, seen at close */
    g->itc_fill = 0;
    fflush(g->itc);
}

/* a decimal number by two digits at a time (no more divisions than digits / 2) */
static char *put_u64_fast(char *p, uint64_t v) {
    static const char d2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                             "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                             "8081828384858687888990919293949596979899";
    /* the digits end at tmp + 20 (at most 20 of them); the 20 bytes from the first are copied
     * whole (a fixed-size copy, no library call; the caller's row has room), the end moved by
     * the digits' count */
    char tmp[40] = {0}, *e = tmp + 20, *q = e;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, d2 + 2 * r, 2);
    }
    if (v >= 10) {
        q -= 2;
        memcpy(q, d2 + 2 * v, 2);
    } else
        *--q = (char)('0' + v);
    memcpy(p, q, 20);
    return p + (e - q);
}

/* itc.csv row: cycle,hart,stimulus,offset,size,value,status; rows are gathered in itc_buf
 * and handed to stdio GT_ITC_BUF bytes at a time (one row per store of an ITC-heavy run:
 * stdio's per-call work was a large part of a row's cost) */
void gt_log_itc(gt_log_t *g, uint64_t cycle, unsigned hart, unsigned stim, unsigned off,
                unsigned size, uint32_t value, int status) {
    static const char st[4][16] = {"traced\n", "dropped_fifo\n", "after_stop\n", "encoder_off\n"};
    static const uint8_t st_len[4] = {7, 13, 11, 12};
    if (g->itc_fill > GT_ITC_BUF - 96) {
        fwrite_unlocked(g->itc_buf, 1, g->itc_fill, g->itc);
        g->itc_fill = 0;
    }
    char *p = g->itc_buf + g->itc_fill;
    p = put_u64_fast(p, cycle);
    *p++ = ',';
    p = put_hart(p, hart);
    *p++ = ',';
    p = put_u64_fast(p, stim);
    *p++ = ',';
    *p++ = (char)('0' + off);
    *p++ = ',';
    *p++ = (char)('0' + size);
    *p++ = ',';
    p = put_hex32(p, value);
    *p++ = ',';
    unsigned k = (unsigned)status < 4 ? (unsigned)status : 3;
    memcpy(p, st[k], 16); /* the row's end is where the length says */
    p += st_len[k];
    g->itc_fill = (size_t)(p - g->itc_buf);
}

/* counters.csv row: cycle,hart,pc,csr,value; name NULL: the CSR's name from its number */
static void log_counter(gt_log_t *g, uint64_t cycle, unsigned hart, uint32_t pc, uint32_t csr,
                        const char *name, uint32_t value) {
    char line[96], *p = line;
    p = put_u64(p, cycle);
    *p++ = ',';
    p = put_hart(p, hart);
    *p++ = ',';
    p = put_hex32(p, pc);
    *p++ = ',';
    if (name) {
        p = put_str(p, name);
    } else {
        unsigned n = csr & 0x1Fu;
        if ((csr & 0xF00u) == 0xB00u) *p++ = 'm';
        p = put_str(p, n == 0 ? "cycle" : n == 1 ? "time" :
                                      n == 2     ? "instret" :
                                                   "hpmcounter");
        if (n >= 3) p = put_u64(p, n);
        if (csr & 0x80u) *p++ = 'h';
    }
    *p++ = ',';
    p = put_hex32(p, value);
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), g->counters);
}

void gt_log_ts_read(gt_log_t *g, uint64_t cycle, unsigned hart, uint32_t pc, const char *name,
                    uint32_t value) {
    log_counter(g, cycle, hart, pc, 0, name, value);
}

/* called inside the core's evaluation at the edge ending the commit cycle of a CSR
 * instruction that accessed a counter; the row waits for the retire port (gt_log_retire) */
void gt_log_csr_hook(void *ctx, unsigned hart, uint32_t pc, uint32_t csr, uint32_t value) {
    gt_log_t *g = ctx;
    if (g->csr.pending) internal_error("two counter CSR reads at one clock edge");
    g->csr.pending = true;
    g->csr.hart = hart;
    g->csr.pc = pc;
    g->csr.csr = csr;
    g->csr.value = value;
}

void gt_log_hpm_config(gt_log_t *g, const hpm_t *h) {
    if (!g->hpm_writes) return;
    uint32_t inh = 0;
    hpm_csr_read(h, 0x320, &inh);
    fprintf(g->hpm_writes, "0,%u,mcountinhibit,0x%08x\n0,%u,implemented,0x%08x\n0,%u,width_mcycle,%u\n"
                           "0,%u,width_minstret,%u\n0,%u,width_mhpmcounter,%u\n",
            g->hart, inh, g->hart, h->implemented, g->hart,
            hpm_width(h, 0), g->hart, hpm_width(h, 2), g->hart, hpm_width(h, 3));
}

void gt_log_csrw_hook(void *ctx, unsigned hart, uint32_t csr, uint32_t value) {
    gt_log_t *g = ctx;
    (void)hart;
    if (g->csrw.pending) internal_error("two HPM CSR writes at one clock edge");
    g->csrw.pending = true;
    g->csrw.csr = csr;
    g->csrw.value = value;
}

/* flow.csv row: cycle,hart,kind,pc,target,link,tp (target/link empty when has_* is false; tp,
 * x4 after the row's instruction, empty when rf is NULL: the run ended first) */
static void log_flow(gt_log_t *g, uint64_t cycle, unsigned hart, const char *kind, uint32_t pc,
                     bool has_target, uint32_t target, bool has_link, uint32_t link, const vcore_ports_t *rf) {
    if (!g->flow) return;
    char line[96], *p = line;
    p = put_u64(p, cycle);
    *p++ = ',';
    p = put_hart(p, hart);
    *p++ = ',';
    p = put_str(p, kind);
    *p++ = ',';
    p = put_hex32(p, pc);
    *p++ = ',';
    if (has_target) p = put_hex32(p, target);
    *p++ = ',';
    if (has_link) p = put_hex32(p, link);
    *p++ = ',';
    if (rf) p = put_hex32(p, vcore_x(rf, 4));
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), g->flow);
}

/* hooks.csv row when target is a hook function's entry: cycle,hart,hook,how,pc,a0,a1,ra,tp.
 * rf is the register file after the edge that shows the hook's first instruction (or the
 * jump itself, for a direct jump) on the retire port: every older instruction's write is in
 * it, the jump's link included; a call's ra is its link; tp (x4) is the same state's, the
 * thread that called the hook (no instruction between the jump and the hook's first one). */
static void log_hook(gt_log_t *g, uint64_t cycle, uint32_t pc, uint32_t target, bool tail, const vcore_ports_t *rf,
                     uint32_t ra) {
    if (!g->hooks || !target) return;
    int k = target == g->hook[GT_HOOK_ENTER] ? GT_HOOK_ENTER : target == g->hook[GT_HOOK_EXIT] ? GT_HOOK_EXIT :
                                                           target == g->hook[GT_HOOK_MANUAL]   ? GT_HOOK_MANUAL :
                                                                                                 -1;
    if (k < 0) return;
    char line[160], *p = line;
    p = put_u64(p, cycle);
    *p++ = ',';
    p = put_hart(p, g->hart);
    *p++ = ',';
    p = put_str(p, gt_hook_names[k]);
    *p++ = ',';
    p = put_str(p, tail ? "tail" : "call");
    *p++ = ',';
    p = put_hex32(p, pc);
    *p++ = ',';
    p = put_hex32(p, vcore_x(rf, 10));
    *p++ = ',';
    p = put_hex32(p, vcore_x(rf, 11));
    *p++ = ',';
    p = put_hex32(p, ra);
    *p++ = ',';
    p = put_hex32(p, vcore_x(rf, 4));
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), g->hooks);
}

static void jump_done(gt_log_t *g, const vcore_ports_t *p, bool has_target, uint32_t target) {
    g->jump.pending = false;
    if (g->jump.tail) {
        if (has_target) log_hook(g, g->jump.cycle, g->jump.pc, target, true, p, vcore_x(p, 1));
        return;
    }
    log_flow(g, g->jump.cycle, g->hart, g->jump.ret ? "ret" : "call", g->jump.pc, has_target,
             target, !g->jump.ret, g->jump.link, p);
    if (has_target && !g->jump.ret) log_hook(g, g->jump.cycle, g->jump.pc, target, false, p, g->jump.link);
    /* sp after the jump: rf holds every write older than the instruction the port shows */
    if (g->flow_hook)
        g->flow_hook(g->flow_ctx, g->hart, g->jump.ret, has_target, target, g->jump.link, p ? vcore_x(p, 2) : 0, p ? vcore_x(p, 4) : 0);
}

/* traps.csv row: cycle,hart,cause,pc,handler,pending,first,ret,depth (pending, first, ret
 * empty when GT_NEVER) */
static void log_trap(gt_log_t *g, const gt_trap_t *t, uint64_t ret) {
    if (!g->traps) return;
    char line[192], *p = line;
    p = put_u64(p, t->taken);
    *p++ = ',';
    p = put_hart(p, g->hart);
    *p++ = ',';
    p = put_hex32(p, t->cause);
    *p++ = ',';
    p = put_hex32(p, t->pc);
    *p++ = ',';
    p = put_hex32(p, t->handler);
    *p++ = ',';
    if (t->pending != GT_NEVER) p = put_u64(p, t->pending);
    *p++ = ',';
    if (t->first != GT_NEVER) p = put_u64(p, t->first);
    *p++ = ',';
    if (ret != GT_NEVER) p = put_u64(p, ret);
    *p++ = ',';
    p = put_u64(p, t->depth);
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), g->traps);
}

void gt_log_irq_attach(gt_log_t *g, const vcore_ports_t *p) {
    static const uint16_t none = 0; /* no traps.csv: nothing is ever pending for it */
    g->irq_pend = g->traps ? p->irq_pend : &none;
}

void gt_irq_update(gt_log_t *g, const vcore_ports_t *p, uint32_t pend, uint64_t cycle) {
    uint32_t deleg = *p->mideleg, priv = *p->priv & 3u, en = 0;
    if (priv != 3u || *p->mstatus_mie) en |= pend & ~deleg;
    if (priv == 0u || (priv == 1u && *p->mstatus_sie)) en |= pend & deleg;
    for (uint32_t rise = en & ~g->irq.live; rise; rise &= rise - 1) g->irq.since[__builtin_ctz(rise)] = cycle;
    g->irq.live = en;
}

/* a trap taken in `cycle` (the retire port shows it) */
static void trap_taken(gt_log_t *g, const vcore_ports_t *p, uint64_t cycle) {
    uint32_t cause = *p->rvfi_cause;
    if (g->irq.await_first) g->irq.open[g->irq.n - 1].first = cycle; /* the handler trapped at once */
    gt_trap_t t = {.taken = cycle, .pending = GT_NEVER, .first = GT_NEVER, .cause = cause, .pc = *p->rvfi_pc, .handler = *p->instr_addr, .depth = g->irq.n};
    if (cause >> 31) {
        unsigned c = cause & 31u;
        if (g->irq.live >> c & 1u) t.pending = g->irq.since[c];
        g->irq.live &= ~(1u << c); /* pending again from the next cycle it is enabled in */
    }
    if (g->irq.n == GT_TRAP_DEPTH) { /* never returned from: the oldest goes out unreturned */
        log_trap(g, &g->irq.open[0], GT_NEVER);
        memmove(&g->irq.open[0], &g->irq.open[1], (GT_TRAP_DEPTH - 1) * sizeof g->irq.open[0]);
        g->irq.n--;
    }
    g->irq.open[g->irq.n++] = t;
    g->irq.await_first = true;
}

/* an mret or sret retired in `cycle`: the newest open trap ends (none: an xRET that was no
 * return from a trap, e.g. the first drop to a lower mode, has no row) */
static void trap_return(gt_log_t *g, uint64_t cycle) {
    if (!g->irq.n) return;
    g->irq.n--;
    log_trap(g, &g->irq.open[g->irq.n], cycle);
}

void gt_log_finish(gt_log_t *g) {
    if (g->jump.pending) jump_done(g, NULL, false, 0);
    for (unsigned i = 0; i < g->irq.n; i++) log_trap(g, &g->irq.open[i], GT_NEVER);
    g->irq.n = 0;
    g->irq.await_first = false;
}

static inline bool is_link_reg(unsigned r) { return r == 1 || r == 5; }

/* The retire port after an edge describes the instruction that committed, or trapped, in the
 * cycle that edge ended: rvfi_pc is its pc (= the mepc a trap writes), rvfi_insn its raw bits
 * (16 for a compressed one), rvfi_rd_wdata what it wrote to rd, and instr_addr already the
 * fetch redirect a trap or mret made at that edge. A JAL/JALR redirected fetch earlier
 * (IF/EX), so its target is taken from the next instruction that retires or traps: nothing
 * else can commit in between. */
__attribute__((noinline)) void gt_log_retire(gt_log_t *g, const vcore_ports_t *p, uint64_t cycle) {
    unsigned hart = g->hart;
    uint32_t pc = *p->rvfi_pc;
    if (g->jump.pending) jump_done(g, p, true, pc);
    g->mask = g->tp_hook ? GT_LOG_EVENTS | EVB_RETIRE : GT_LOG_EVENTS;
    if (*p->rvfi_trap) {
        if (g->csr.pending) internal_error("counter CSR read by a trapping instruction");
        log_flow(g, cycle, hart, "trap", pc, true, *p->instr_addr, true, *p->rvfi_cause, p);
        if (g->traps) {
            trap_taken(g, p, cycle);
            g->mask |= EVB_RETIRE; /* the handler's first instruction */
        }
        return;
    }
    if (g->irq.await_first) {
        g->irq.open[g->irq.n - 1].first = cycle;
        g->irq.await_first = false;
    }
    /* rf: tp before this instruction's write */
    if (g->tp_hook && *p->rvfi_rd == 4 && *p->rvfi_valid) g->tp_hook(g->flow_ctx, hart, vcore_x(p, 4), *p->rvfi_rd_wdata);
    uint32_t insn = *p->rvfi_insn;
    int call = 0; /* 1 call, -1 return, 2 a jump through a register (rd = x0) */
    if ((insn & 3u) == 3u) {
        unsigned op = insn & 0x7Fu, rd = (insn >> 7) & 31u, rs1 = (insn >> 15) & 31u;
        if (op == 0x6Fu) { /* JAL */
            call = is_link_reg(rd);
            if (!rd) { /* j: a tail call when it enters a hook */
                uint32_t imm = ((insn >> 21) & 0x3FFu) << 1 | ((insn >> 20) & 1u) << 11 | (insn & 0xFF000u) |
                               (uint32_t)((int32_t)insn >> 31) << 20;
                log_hook(g, cycle, pc, pc + imm, true, p, vcore_x(p, 1));
            }
        } else if (op == 0x67u) { /* JALR */
            call = is_link_reg(rd) ? 1 : (rd == 0 && is_link_reg(rs1)) ? -1 :
                                     rd == 0 && g->hooks               ? 2 :
                                                                         0;
        } else if (op == 0x73u) { /* SYSTEM */
            if (insn == 0x30200073u) log_flow(g, cycle, hart, "mret", pc, true, *p->instr_addr, false, 0, p);
            if (insn == 0x10200073u) log_flow(g, cycle, hart, "sret", pc, true, *p->instr_addr, false, 0, p);
            if (insn == 0x30200073u || insn == 0x10200073u) trap_return(g, cycle);
            if (g->csrw.pending) { /* hpm_writes.csv: cycle,hart,csr,value */
                if (g->csrw.csr == 0x320u)
                    fprintf(g->hpm_writes, "%llu,%u,mcountinhibit,0x%08x\n", (unsigned long long)cycle, hart, g->csrw.value);
                else
                    fprintf(g->hpm_writes, "%llu,%u,mhpmevent%u,0x%08x\n", (unsigned long long)cycle, hart, g->csrw.csr - 0x320u,
                            g->csrw.value);
                g->csrw.pending = false;
            }
            if (g->csr.pending) {
                unsigned f3 = (insn >> 12) & 7u;
                if (g->csr.pc != pc || !(f3 & 3u))
                    internal_error("counter CSR read does not match the retire port");
                /* CSRRW/CSRRWI with rd = x0 (csrw) does not read the CSR */
                if (!((f3 & 3u) == 1u && rd == 0))
                    log_counter(g, cycle, g->csr.hart, pc, g->csr.csr, NULL, g->csr.value);
                g->csr.pending = false;
            }
        }
    } else if (!g->rv64 && (insn & 0xE003u) == 0x2001u) { /* c.jal (RV32; C.ADDIW on RV64) */
        call = 1;
    } else if ((insn & 0xE003u) == 0xA001u) { /* c.j: a tail call when it enters a hook */
        uint32_t imm = ((insn >> 3) & 7u) << 1 | ((insn >> 11) & 1u) << 4 | ((insn >> 2) & 1u) << 5 |
                       ((insn >> 7) & 1u) << 6 | ((insn >> 6) & 1u) << 7 | ((insn >> 9) & 3u) << 8 |
                       ((insn >> 8) & 1u) << 10;
        if (insn & 0x1000u) imm |= 0xFFFFF800u;
        log_hook(g, cycle, pc, pc + imm, true, p, vcore_x(p, 1));
    } else if ((insn & 0xE07Fu) == 0x8002u && (insn & 0x0F80u)) { /* c.jr / c.jalr */
        unsigned rs1 = (insn >> 7) & 31u;
        call = (insn & 0x1000u) ? 1 : is_link_reg(rs1) ? -1 :
                                  g->hooks             ? 2 :
                                                         0;
    }
    if (g->csr.pending) internal_error("counter CSR read without a CSR instruction retiring");
    if (call) {
        g->mask = GT_LOG_EVENTS | EVB_RETIRE;
        g->jump.pending = true;
        g->jump.ret = call < 0;
        g->jump.tail = call == 2;
        g->jump.pc = pc;
        g->jump.link = *p->rvfi_rd_wdata;
        g->jump.cycle = cycle;
    }
}

void gt_log_retire_line(gt_log_t *g, const vcore_ports_t *p, uint64_t cycle, bool store,
                        uint32_t st_addr, uint32_t st_data, uint32_t st_size, uint32_t st_data_hi) {
    if (g->tag_hart) fprintf(g->retire, "h%u ", g->hart);
    /* RV64: the register and stored values in 16 hex digits (a store of 1, 2 or 4 bytes
     * zero-extended); pcs and addresses are the SoC's 32-bit physical ones */
    if (__builtin_expect(p->xlen == 64, 0) && *p->rvfi_valid && (*p->rvfi_rd || store)) {
        if (*p->rvfi_rd)
            fprintf(g->retire, "%llu %08x %08x x%u=%08x%08x\n", (unsigned long long)cycle, *p->rvfi_pc,
                    *p->rvfi_insn, *p->rvfi_rd, *p->rvfi_rd_wdata_hi, *p->rvfi_rd_wdata);
        else
            fprintf(g->retire, "%llu %08x %08x mem[%08x]%u=%08x%08x\n", (unsigned long long)cycle, *p->rvfi_pc,
                    *p->rvfi_insn, st_addr, st_size, st_size == 8 ? st_data_hi : 0u, st_data);
        return;
    }
    if (*p->rvfi_valid && *p->rvfi_rd)
        fprintf(g->retire, "%llu %08x %08x x%u=%08x\n", (unsigned long long)cycle,
                *p->rvfi_pc, *p->rvfi_insn, *p->rvfi_rd, *p->rvfi_rd_wdata);
    else if (*p->rvfi_valid && store)
        fprintf(g->retire, "%llu %08x %08x mem[%08x]%u=%08x\n", (unsigned long long)cycle,
                *p->rvfi_pc, *p->rvfi_insn, st_addr, st_size, st_data);
    else if (*p->rvfi_valid)
        fprintf(g->retire, "%llu %08x %08x\n", (unsigned long long)cycle, *p->rvfi_pc, *p->rvfi_insn);
    else
        fprintf(g->retire, "%llu %08x trap mcause=0x%08x\n", (unsigned long long)cycle, *p->rvfi_pc, *p->rvfi_cause);
}
