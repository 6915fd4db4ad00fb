/* bus.c - the SoC interconnect's set-up, device decode and error reports; see bus.h (the
 * per-cycle RAM paths are inline there). */
#include "bus.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define TS_TREG(block, name, off, acc, desc) enum { TREG_##block##_##name = off };
#include "trace_regs.def"
_Static_assert((int)TREG_TF_TS_LOWER == (int)TREG_TE_TS_LOWER &&
                   (int)TREG_TF_TS_UPPER == (int)TREG_TE_TS_UPPER,
               "encoder and funnel timestamp registers share their offsets");

int bus_init(bus_t *b, uint32_t ram_size, unsigned ram_wait, const bus_targets_t *dev,
             const bus_hooks_t *hooks, char *err, size_t errlen) {
    memset(b, 0, sizeof *b);
    if (ram_size < 4096 || ram_size > 0x40000000u || (ram_size & 3)) {
        snprintf(err, errlen, "RAM size %u out of range (4 KiB .. 1 GiB, multiple of 4)", ram_size);
        return -1;
    }
    b->dev = *dev;
    b->hooks = *hooks;
    b->ram_base = MAP_RAM_BASE;
    b->ram_size = ram_size;
    b->ram_wait = ram_wait;
    b->ram = calloc(1, ram_size);
    if (!b->ram) {
        snprintf(err, errlen, "out of memory for %u bytes of RAM", ram_size);
        return -1;
    }
    return 0;
}

void bus_free(bus_t *b) {
    free(b->ram);
    b->ram = NULL;
}

void bus_reset(bus_t *b) {
    b->sba_busy = false;
    b->trace_touched = false;
    b->trace_owed = 0;
    b->resv_harts = 0;
    /* round robin starts at hart 0: "the last winner" is the last hart */
    memset(b->last, b->n_ports ? (int)b->n_ports - 1 : 0, sizeof b->last);
}

int bus_attach_port(bus_t *b, bus_port_t *ip) {
    if (b->n_ports == BUS_MAX_HARTS) return -1;
    b->port[b->n_ports++] = ip;
    ip->fetch_end = (!ip->icache_on && !b->ram_wait) ? b->ram_size - 3 : 0;
    memset(b->last, (int)b->n_ports - 1, sizeof b->last);
    return 0;
}

void bus_service_data_all(bus_t *b) {
    unsigned n = b->n_ports;
    int tgt[BUS_MAX_HARTS];
    unsigned rank[BUS_MAX_HARTS];
    /* what each port asks for, and its place in its target's round robin (0 = first) */
    for (unsigned i = 0; i < n; i++) {
        bus_port_t *ip = b->port[i];
        const vcore_ports_t *p = ip->p;
        tgt[i] = BT_NONE;
        if (!*p->data_req || ip->held) continue;
        tgt[i] = bus_target(b, *p->data_addr, 1u << *p->data_size);
        if (tgt[i] == BT_NONE) continue;
        /* a RAM access counting wait states keeps the RAM */
        rank[i] = (ip->d_busy && tgt[i] == BT_RAM) ? 0 : 1 + (i + n - 1 - b->last[tgt[i]]) % n;
    }
    for (unsigned i = 0; i < n; i++) {
        bus_port_t *ip = b->port[i];
        if (ip->held) continue; /* held core: its answers wait for its next edge */
        bool wins = true;
        if (tgt[i] != BT_NONE)
            for (unsigned j = 0; j < n && wins; j++)
                if (j != i && tgt[j] == tgt[i] && rank[j] < rank[i]) wins = false;
        if (!wins) {
            const vcore_ports_t *p = ip->p;
            ip->ev |= EVB_BUS_ARB;
            *p->data_rdy = 0;
            *p->data_err = 0;
            continue;
        }
        if (tgt[i] != BT_NONE) b->last[tgt[i]] = (uint8_t)i;
        bus_service_data(b, ip);
    }
}

int bus_port_init(bus_port_t *ip, const vcore_ports_t *p, unsigned hart, const cache_cfg_t *icache,
                  const cache_cfg_t *dcache, char *err, size_t errlen) {
    memset(ip, 0, sizeof *ip);
    ip->p = p;
    ip->hart = hart;
    if (icache->size) {
        if (cache_init(&ip->icache, icache)) {
            snprintf(err, errlen, "invalid I-cache configuration");
            return -1;
        }
        ip->icache_on = true;
    }
    if (dcache->size) {
        if (cache_init(&ip->dcache, dcache)) {
            snprintf(err, errlen, "invalid D-cache configuration");
            return -1;
        }
        ip->dcache_on = true;
    }
    return 0;
}

void bus_port_free(bus_port_t *ip) {
    cache_free(&ip->icache);
    cache_free(&ip->dcache);
}

void bus_port_reset(bus_port_t *ip) {
    if (ip->icache_on) cache_reset(&ip->icache);
    if (ip->dcache_on) cache_reset(&ip->dcache);
    ip->d_busy = ip->i_busy = false;
    ip->st_done = false;
}

bool bus_load(bus_t *b, uint32_t addr, const void *src, uint32_t len, uint32_t zero_fill) {
    uint64_t off = (uint64_t)addr - b->ram_base, end = off + len + zero_fill;
    if (addr < b->ram_base || end > b->ram_size) return false;
    if (len) memcpy(b->ram + off, src, len);
    memset(b->ram + off + len, 0, zero_fill);
    return true;
}

uint8_t *bus_ram(bus_t *b, uint32_t addr, uint32_t len) {
    return bus_in_ram(b, addr, len) ? b->ram + (addr - b->ram_base) : NULL;
}

static void guest_error(bus_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void guest_error(bus_t *b, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    b->hooks.guest_error(b->hooks.ctx, msg);
}

static const char *size_name(unsigned size) {
    return size == 1 ? "byte" : size == 2 ? "half" :
                            size == 8     ? "doubleword" :
                                            "word";
}

void bus_data_fault(bus_t *b, const bus_port_t *ip, uint32_t addr, unsigned size, bool we) {
    guest_error(b, "%s access fault: %s %s at 0x%08x (pc 0x%08x)", we ? "store" : "load",
                size_name(size), we ? "store" : "load", addr, *ip->p->data_pc);
}

static const char *amo_name(unsigned op) {
    switch (op) {
    case BUS_AMO_ADD: return "amoadd.w";
    case BUS_AMO_SWAP: return "amoswap.w";
    case BUS_AMO_LR: return "lr.w";
    case BUS_AMO_SC: return "sc.w";
    case BUS_AMO_XOR: return "amoxor.w";
    case BUS_AMO_OR: return "amoor.w";
    case BUS_AMO_AND: return "amoand.w";
    case BUS_AMO_MIN: return "amomin.w";
    case BUS_AMO_MAX: return "amomax.w";
    case BUS_AMO_MINU: return "amominu.w";
    case BUS_AMO_MAXU: return "amomaxu.w";
    default: return "atomic";
    }
}

void bus_amo_fault(bus_t *b, const bus_port_t *ip, uint32_t addr, unsigned size, unsigned amo) {
    unsigned op = amo & 0x1Fu;
    const char *name = amo_name(op);
    size_t n = strlen(name);
    /* the .D forms (RV64): the name's ".w" as ".d" */
    guest_error(b, "%s access fault: %.*s%s at 0x%08x (pc 0x%08x): LR/SC and AMOs work on RAM only",
                op == BUS_AMO_LR ? "load" : "store/AMO", (int)(size == 8 && n > 2 ? n - 2 : n), name,
                size == 8 && n > 2 ? ".d" : "", addr, *ip->p->data_pc);
}

void bus_resv_clear(bus_t *b, unsigned hart, uint32_t addr, unsigned len) {
    for (unsigned h = 0; h < BUS_MAX_HARTS; h++) {
        if (h == hart || !(b->resv_harts >> h & 1u)) continue;
        uint64_t ra = b->resv_addr[h], a = addr;
        if (a < ra + b->resv_size[h] && ra < a + len) b->resv_harts &= ~(1u << h);
    }
}

/* RAM reads and writes of 1, 2, 4 or 8 bytes (8: RV64; a platform's RAM access function sees
 * the two words, the low one first) */
static void amo_ram_read(bus_t *b, const bus_port_t *ip, uint32_t off, unsigned size, uint64_t *v) {
    uint32_t lo = 0, hi = 0;
    unsigned n = size == 8 ? 4 : size;
    if (b->ram_access) {
        b->ram_access(b->ram_access_ctx, ip->hart, *ip->p->data_pc, off, n, false, &lo);
        if (size == 8) b->ram_access(b->ram_access_ctx, ip->hart, *ip->p->data_pc, off + 4, 4, false, &hi);
    } else {
        bus_ram_read(b, off, n, &lo);
        if (size == 8) bus_ram_read(b, off + 4, 4, &hi);
    }
    *v = (uint64_t)hi << 32 | lo;
}

static void amo_ram_write(bus_t *b, bus_port_t *ip, uint32_t addr, uint32_t off, unsigned size, uint64_t v) {
    uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
    unsigned n = size == 8 ? 4 : size;
    if (b->ram_access) {
        b->ram_access(b->ram_access_ctx, ip->hart, *ip->p->data_pc, off, n, true, &lo);
        if (size == 8) b->ram_access(b->ram_access_ctx, ip->hart, *ip->p->data_pc, off + 4, 4, true, &hi);
    } else {
        bus_ram_write(b, off, n, lo);
        if (size == 8) bus_ram_write(b, off + 4, 4, hi);
    }
    if (b->resv_harts) bus_resv_clear(b, ip->hart, addr, size);
    if (ip->record_stores) {
        ip->st_done = true;
        ip->st_addr = addr;
        ip->st_data = (uint32_t)v;
        ip->st_data_hi = (uint32_t)(v >> 32);
        ip->st_size = size;
    }
}

void bus_amo(bus_t *b, bus_port_t *ip, uint32_t addr, uint32_t off, unsigned size, unsigned amo) {
    const vcore_ports_t *p = ip->p;
    unsigned op = amo & 0x1Fu;
    uint32_t bit = 1u << ip->hart;
    /* the operand and the old value: 32 bits for the .W forms, 64 for the .D forms (RV64) */
    uint64_t src = *p->data_wdata, old;
    if (size == 8) src |= (uint64_t)*p->data_wdata_hi << 32;
    if (op == BUS_AMO_SC) {
        bool ok = (b->resv_harts & bit) && b->resv_addr[ip->hart] == addr && b->resv_size[ip->hart] == size;
        b->resv_harts &= ~bit; /* an SC clears its hart's reservation, whether it stores or not */
        if (ok) amo_ram_write(b, ip, addr, off, size, src);
        *p->data_rdata = ok ? 0 : 1;
        if (size == 8) *p->data_rdata_hi = 0; /* (.W: the core reads the low word only) */
        return;
    }
    amo_ram_read(b, ip, off, size, &old);
    *p->data_rdata = (uint32_t)old;
    if (size == 8) *p->data_rdata_hi = (uint32_t)(old >> 32);
    if (op == BUS_AMO_LR) {
        b->resv_harts |= bit;
        b->resv_addr[ip->hart] = addr;
        b->resv_size[ip->hart] = (uint8_t)size;
        return;
    }
    /* signed compares: the operands sign-extended from their width */
    int64_t so = size == 8 ? (int64_t)old : (int64_t)(int32_t)(uint32_t)old;
    int64_t ss = size == 8 ? (int64_t)src : (int64_t)(int32_t)(uint32_t)src;
    uint64_t v;
    switch (op) {
    case BUS_AMO_SWAP: v = src; break;
    case BUS_AMO_XOR: v = old ^ src; break;
    case BUS_AMO_OR: v = old | src; break;
    case BUS_AMO_AND: v = old & src; break;
    case BUS_AMO_MIN: v = so < ss ? old : src; break;
    case BUS_AMO_MAX: v = so > ss ? old : src; break;
    case BUS_AMO_MINU: v = old < src ? old : src; break;
    case BUS_AMO_MAXU: v = old > src ? old : src; break;
    default: v = old + src; break; /* BUS_AMO_ADD (the core decodes no other funct5) */
    }
    amo_ram_write(b, ip, addr, off, size, v);
}

void bus_ram_access8(bus_t *b, bus_port_t *ip, uint32_t addr, uint32_t off, bool we) {
    const vcore_ports_t *p = ip->p;
    if (we) {
        amo_ram_write(b, ip, addr, off, 8, (uint64_t)*p->data_wdata_hi << 32 | *p->data_wdata);
    } else {
        uint64_t v;
        amo_ram_read(b, ip, off, 8, &v);
        *p->data_rdata = (uint32_t)v;
        *p->data_rdata_hi = (uint32_t)(v >> 32);
    }
}

void bus_dev_access8(bus_t *b, bus_port_t *ip, uint32_t addr, bool we) {
    const vcore_ports_t *p = ip->p;
    uint32_t lo = we ? *p->data_wdata : 0, hi = we ? *p->data_wdata_hi : 0;
    enum bus_status st = BUS_ERR;
    ip->d_busy = false;
    if (addr - MAP_CLINT_BASE < MAP_CLINT_SIZE) {
        st = bus_dev_access(b, ip->hart, *p->data_pc, addr, 4, we, &lo);
        if (st == BUS_OK) st = bus_dev_access(b, ip->hart, *p->data_pc, addr + 4, 4, we, &hi);
    }
    *p->data_rdy = 1;
    *p->data_err = st != BUS_OK;
    if (st != BUS_OK) {
        bus_data_fault(b, ip, addr, 8, we);
        return;
    }
    if (!we) {
        *p->data_rdata = lo;
        *p->data_rdata_hi = hi;
    } else if (ip->record_stores) {
        ip->st_done = true;
        ip->st_addr = addr;
        ip->st_data = lo;
        ip->st_data_hi = hi;
        ip->st_size = 8;
    }
}

void bus_sba_fault(bus_t *b, uint32_t addr) {
    guest_error(b, "trace SBA sink write to 0x%08x outside RAM (teSinkError set)", addr);
}

/* a successful word load of tsLower/tsUpper (encoder or funnel): the load commits in this
 * cycle (an answered data request is never interrupted) */
static inline void ts_read(bus_t *b, unsigned hart, uint32_t pc, uint32_t off, const char *lower,
                           const char *upper, uint32_t val) {
    if (b->hooks.ts_read && (off == TREG_TE_TS_LOWER || off == TREG_TE_TS_UPPER))
        b->hooks.ts_read(b->hooks.ctx, hart, pc, off == TREG_TE_TS_LOWER ? lower : upper, val);
}

static inline enum bus_status bus_status_of(enum bus_answer r) {
    return r == BUS_A_ERR ? BUS_ERR : r == BUS_A_WAIT ? BUS_WAIT :
                                                        BUS_OK;
}

static inline void trace_log(bus_t *b, unsigned hart, uint32_t addr, unsigned size, bool we, uint32_t val,
                             enum bus_status st) {
    if (b->hooks.trace_access) b->hooks.trace_access(b->hooks.ctx, hart, addr, size, we, val, (int)st);
}

void bus_set_target(bus_t *b, int t, const bus_target_ops_t *ops) {
    if (t <= BT_RAM || t >= BUS_N_TARGETS) return;
    bool had = b->tgt[t].tick != NULL;
    b->tgt[t] = *ops;
    if (had != (ops->tick != NULL)) { /* the tick list again, in target order */
        b->n_tick = 0;
        for (int i = 0; i < BUS_N_TARGETS; i++)
            if (b->tgt[i].tick) b->tick[b->n_tick++] = (uint8_t)i;
    }
}

void bus_set_ram_access(bus_t *b, bus_ram_access_fn fn, void *ctx) {
    b->ram_access = fn;
    b->ram_access_ctx = ctx;
}

/* what became of a stimulus store the encoder took or refused without a bus error (r): the
 * sink that stopped on wrap is the funnel's when the encoder sends to it (the encoder still
 * accepts), else its own (the encoder cleared teEnable and ignores it) */
static int itc_status(const bus_t *b, const te_t *te, enum bus_answer r) {
    if (r == BUS_A_DROPPED) return BUS_ITC_DROPPED_FIFO;
    bool stopped = te_to_funnel(te) ? (b->dev.funnel && b->dev.funnel->sink.stopped) : te->sink.stopped;
    if (stopped) return BUS_ITC_AFTER_STOP;
    return r == BUS_A_OK ? BUS_ITC_TRACED : BUS_ITC_ENCODER_OFF;
}

enum bus_status bus_dev_access(bus_t *b, unsigned hart, uint32_t pc, uint32_t addr, unsigned size,
                               bool we, uint32_t *val) {
    int t = bus_target(b, addr, size);
    const bus_target_ops_t *o = &b->tgt[t > BT_RAM ? t : BT_RAM];
    if (!o->read) return BUS_ERR; /* unmapped, or no target registered there */
    uint32_t off = t == BT_CLINT ? addr - MAP_CLINT_BASE : addr & 0xFFFu;
    if (t < BT_FUNNEL) /* CLINT, UART, simctrl: done or a bus error */
        return bus_status_of(we ? o->write(o->ctx, hart, pc, off, size, *val) : o->read(o->ctx, hart, pc, off, size, val));
    const bus_targets_t *d = &b->dev;
    bool funnel = t == BT_FUNNEL;
    if (!funnel && d->trace_detached) {
        if (!we) {
            *val = (off == 0) ? 8u : 1u; /* teControl says "empty", the rest "ready" */
            ts_read(b, hart, pc, off, "ts_lower", "ts_upper", *val);
        }
        return BUS_OK;
    }
    if (!d->trace_detached) b->trace_touched = true; /* --no-trace: no trace tick */
    if (b->trace_owed) bus_trace_catch_up(b);
    if (!we) {
        enum bus_status r = bus_status_of(o->read(o->ctx, hart, pc, off, size, val));
        trace_log(b, hart, addr, size, we, r == BUS_OK ? *val : 0, r);
        if (r != BUS_OK) return BUS_ERR;
        if (funnel) ts_read(b, hart, pc, off, "tf_ts_lower", "tf_ts_upper", *val);
        else
            ts_read(b, hart, pc, off, "ts_lower", "ts_upper", *val);
        return BUS_OK;
    }
    enum bus_answer a = o->write(o->ctx, hart, pc, off, size, *val);
    enum bus_status r = bus_status_of(a);
    unsigned te_n = (unsigned)(t - BT_TRACE0);
    if (!funnel && a == BUS_A_DROPPED && b->hooks.itc_lost) b->hooks.itc_lost(b->hooks.ctx, te_n, (off - 0x80) >> 2);
    trace_log(b, hart, addr, size, we, *val, r);
    if (funnel) return r == BUS_OK ? BUS_OK : BUS_ERR;
    if (r != BUS_OK) return r; /* BUS_WAIT: the data port counts ITC_STALL */
    if (b->hooks.itc_store && off >= 0x80 && off < 0x100)
        b->hooks.itc_store(b->hooks.ctx, te_n, (off - 0x80) >> 2, off & 3, size,
                           size == 4 ? *val : *val & (size == 2 ? 0xFFFFu : 0xFFu), itc_status(b, d->te[te_n], a));
    return BUS_OK;
}
