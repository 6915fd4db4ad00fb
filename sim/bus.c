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
    if (!b->ram) { snprintf(err, errlen, "out of memory for %u bytes of RAM", ram_size); return -1; }
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
        if (ip->held) continue;            /* held core: its answers wait for its next edge */
        bool wins = true;
        if (tgt[i] != BT_NONE)
            for (unsigned j = 0; j < n && wins; j++)
                if (j != i && tgt[j] == tgt[i] && rank[j] < rank[i]) wins = false;
        if (!wins) {
            const vcore_ports_t *p = ip->p;
            ip->ev |= EVB_BUS_ARB;
            *p->data_rdy = 0; *p->data_err = 0;
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
        if (cache_init(&ip->icache, icache)) { snprintf(err, errlen, "invalid I-cache configuration"); return -1; }
        ip->icache_on = true;
    }
    if (dcache->size) {
        if (cache_init(&ip->dcache, dcache)) { snprintf(err, errlen, "invalid D-cache configuration"); return -1; }
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

static const char *size_name(unsigned size) { return size == 1 ? "byte" : size == 2 ? "half" : "word"; }

void bus_data_fault(bus_t *b, const bus_port_t *ip, uint32_t addr, unsigned size, bool we) {
    guest_error(b, "%s access fault: %s %s at 0x%08x (pc 0x%08x)", we ? "store" : "load",
                size_name(size), we ? "store" : "load", addr, *ip->p->data_pc);
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

/* A device model's answer; with TS_BUS_TLM the access is a TLM-2.0 transaction to the
 * target instead (the model call is not made here: the target module makes it). */
#ifdef TS_BUS_TLM
#define DEV(tgt, call) bus_tlm_dev(b, (tgt), hart, pc, addr, size, we, val)
#else
#define DEV(tgt, call) (call)
#endif
static inline enum bus_status ok_err(bool ok) { return ok ? BUS_OK : BUS_ERR; }
static inline enum bus_status te_status(enum te_access r) {
    return r == TE_OK ? BUS_OK : r == TE_WAIT ? BUS_WAIT : BUS_ERR;
}

static inline void trace_log(bus_t *b, unsigned hart, uint32_t addr, unsigned size, bool we, uint32_t val,
                             enum bus_status st) {
    if (b->hooks.trace_access) b->hooks.trace_access(b->hooks.ctx, hart, addr, size, we, val, (int)st);
}

enum bus_status bus_dev_access(bus_t *b, unsigned hart, uint32_t pc, uint32_t addr, unsigned size,
                               bool we, uint32_t *val) {
    uint32_t page = addr & ~0xFFFu, off = addr & 0xFFFu;
    const bus_targets_t *d = &b->dev;
    if (addr - MAP_CLINT_BASE < MAP_CLINT_SIZE) {
        return DEV(BT_CLINT, ok_err(we ? clint_write(d->clint, addr - MAP_CLINT_BASE, size, *val)
                                       : clint_read(d->clint, addr - MAP_CLINT_BASE, size, val)));
    }
    if (page == MAP_UART_BASE)
        return DEV(BT_UART, ok_err(we ? uart_write(d->uart, off, size, *val) : uart_read(d->uart, off, size, val)));
    if (page == MAP_SIMCTRL_BASE)
        return DEV(BT_SIMCTRL, ok_err(we ? simctrl_write(d->simctrl, hart, off, size, *val)
                                         : simctrl_read(d->simctrl, hart, off, size, val)));
    uint32_t te_n = (page - MAP_TRACE_BASE) >> 12;
    bool te_page = page >= MAP_TRACE_BASE && te_n < (d->n_te ? d->n_te : 1);
    if (te_page && d->trace_detached) {
        if (!we) {
            *val = (off == 0) ? 8u : 1u;   /* teControl says "empty", the rest "ready" */
            ts_read(b, hart, pc, off, "ts_lower", "ts_upper", *val);
        }
        return BUS_OK;
    }
    if (te_page) {
        te_t *te = d->te[te_n];
        b->trace_touched = true;
        if (b->trace_owed) bus_trace_catch_up(b);
        if (!we) {
            enum bus_status r = DEV(BT_TRACE0 + (int)te_n, te_status(te_read(te, off, size, val)));
            trace_log(b, hart, addr, size, we, r == BUS_OK ? *val : 0, r);
            if (r != BUS_OK) return BUS_ERR;
            ts_read(b, hart, pc, off, "ts_lower", "ts_upper", *val);
            return BUS_OK;
        }
        uint64_t before = te->itc_accepted, lost = te->lost;
        enum bus_status r = DEV(BT_TRACE0 + (int)te_n, te_status(te_write(te, off, size, *val)));
        if (b->hooks.itc_lost && te->lost != lost) b->hooks.itc_lost(b->hooks.ctx, te_n, (off - 0x80) >> 2);
        trace_log(b, hart, addr, size, we, *val, r);
        if (r != BUS_OK) return r;           /* BUS_WAIT: the data port counts ITC_STALL */
        if (b->hooks.itc_store && off >= 0x80 && off < 0x100) {
            /* what became of the store: the sink that stopped on wrap is the funnel's when
             * the encoder sends to it (the encoder still accepts), else its own (the encoder
             * cleared teEnable and drops) */
            bool stopped = te_to_funnel(te) ? (d->funnel && d->funnel->sink.stopped) : te->sink.stopped;
            int st = te->lost != lost ? BUS_ITC_DROPPED_FIFO : stopped ? BUS_ITC_AFTER_STOP
                   : te->itc_accepted != before ? BUS_ITC_TRACED : BUS_ITC_ENCODER_OFF;
            b->hooks.itc_store(b->hooks.ctx, te_n, (off - 0x80) >> 2, off & 3, size,
                               size == 4 ? *val : *val & (size == 2 ? 0xFFFFu : 0xFFu), st);
        }
        return BUS_OK;
    }
    if (page == MAP_FUNNEL_BASE && d->funnel) {
        if (!d->trace_detached) b->trace_touched = true;   /* --no-trace: no trace tick */
        if (b->trace_owed) bus_trace_catch_up(b);
        enum bus_status r = DEV(BT_FUNNEL, te_status(we ? funnel_write(d->funnel, off, size, *val)
                                                         : funnel_read(d->funnel, off, size, val)));
        trace_log(b, hart, addr, size, we, (we || r == BUS_OK) ? *val : 0, r);
        if (r != BUS_OK) return BUS_ERR;
        if (!we) ts_read(b, hart, pc, off, "tf_ts_lower", "tf_ts_upper", *val);
        return BUS_OK;
    }
    return BUS_ERR;
}
