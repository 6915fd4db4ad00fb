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
    /* round robin starts at hart 0: "the last winner" is the last hart */
    memset(b->last, b->n_ports ? (int)b->n_ports - 1 : 0, sizeof b->last);
}

int bus_attach_port(bus_t *b, bus_port_t *ip) {
    if (b->n_ports == BUS_MAX_HARTS) return -1;
    b->port[b->n_ports++] = ip;
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
        if (!*p->data_req) continue;
        tgt[i] = bus_target(b, *p->data_addr, 1u << *p->data_size);
        if (tgt[i] == BT_NONE) continue;
        /* a RAM access counting wait states keeps the RAM */
        rank[i] = (ip->d_busy && tgt[i] == BT_RAM) ? 0 : 1 + (i + n - 1 - b->last[tgt[i]]) % n;
    }
    for (unsigned i = 0; i < n; i++) {
        bus_port_t *ip = b->port[i];
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

enum bus_status bus_dev_access(bus_t *b, unsigned hart, uint32_t pc, uint32_t addr, unsigned size,
                               bool we, uint32_t *val) {
    uint32_t page = addr & ~0xFFFu, off = addr & 0xFFFu;
    const bus_targets_t *d = &b->dev;
    if (addr - MAP_CLINT_BASE < MAP_CLINT_SIZE) {
        uint32_t o = addr - MAP_CLINT_BASE;
        return (we ? clint_write(d->clint, o, size, *val) : clint_read(d->clint, o, size, val))
                   ? BUS_OK : BUS_ERR;
    }
    if (page == MAP_UART_BASE)
        return (we ? uart_write(d->uart, off, size, *val) : uart_read(d->uart, off, size, val))
                   ? BUS_OK : BUS_ERR;
    if (page == MAP_SIMCTRL_BASE)
        return (we ? simctrl_write(d->simctrl, hart, off, size, *val) : simctrl_read(d->simctrl, hart, off, size, val))
                   ? BUS_OK : BUS_ERR;
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
        if (!we) {
            if (te_read(te, off, size, val) != TE_OK) return BUS_ERR;
            ts_read(b, hart, pc, off, "ts_lower", "ts_upper", *val);
            return BUS_OK;
        }
        uint64_t before = te->itc_accepted, lost = te->lost;
        enum te_access r = te_write(te, off, size, *val);
        if (b->hooks.itc_lost && te->lost != lost) b->hooks.itc_lost(b->hooks.ctx, te_n, (off - 0x80) >> 2);
        if (r == TE_WAIT) return BUS_WAIT;   /* the data port counts ITC_STALL */
        if (r == TE_ERR) return BUS_ERR;
        if (b->hooks.itc_store && off >= 0x80 && off < 0x100 && te->itc_accepted != before)
            b->hooks.itc_store(b->hooks.ctx, te_n, (off - 0x80) >> 2, off & 3, size,
                               size == 4 ? *val : *val & (size == 2 ? 0xFFFFu : 0xFFu));
        return BUS_OK;
    }
    if (page == MAP_FUNNEL_BASE && d->funnel) {
        enum te_access r = we ? funnel_write(d->funnel, off, size, *val) : funnel_read(d->funnel, off, size, val);
        if (r != TE_OK) return BUS_ERR;
        if (!we) ts_read(b, hart, pc, off, "tf_ts_lower", "tf_ts_upper", *val);
        return BUS_OK;
    }
    return BUS_ERR;
}
