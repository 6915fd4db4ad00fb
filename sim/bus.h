/* bus.h - the SoC interconnect: address decode (rtl_model/regs/soc_map.def), RAM with wait
 * states, the cores' timing caches, device dispatch, arbitration and bus errors.
 *
 * Initiators: each core's instruction and data ports (bus_port_t, one per hart) and the trace
 * sink's SBA write port. Targets: RAM, the CLINT, the UART, simctrl, each trace encoder's
 * register page and the funnel's. The bus owns the RAM and the decode; every other target is
 * registered as callbacks with a context (bus_target_ops_t, bus_set_target: sim/soc.c
 * registers the models, sim/soc_targets.h; the SystemC platform replaces them with TLM
 * transactions), and a platform may take over the cores' RAM data accesses
 * (bus_set_ram_access). Fetches and the direct RAM path make no call.
 *
 * Rules:
 * - Every device access is 1, 2 or 4 bytes, naturally aligned (the core traps on misaligned
 *   accesses before they reach the bus). RAM takes any size; device registers are 32-bit
 *   only (UART TXDATA also takes byte stores; the device models check sizes). Anything else,
 *   and every unmapped address, answers with a bus error: the core takes an access fault and
 *   the access is reported as a guest error (bus_hooks_t); the simulation carries on.
 * - RAM wait states: with a timing cache, 0 on a hit and the miss latency on a miss; without,
 *   the configured wait states on every access. The I-side looks up every new fetch, the
 *   D-side loads (which allocate) and stores (write-through without allocation: they never
 *   miss). A fetch redirect abandons the fetch in progress.
 * - Arbitration (a crossbar: one access per target per cycle). The targets are the RAM's data
 *   port, the CLINT, the UART, simctrl, the funnel page and each encoder page; an unmapped
 *   address is no target and answers a bus error at once. Per target and cycle:
 *   1. the SBA sink first: an SBA word is written into RAM in the cycle the sink produces it
 *      and takes the RAM port for that cycle; a core data access to RAM in the same cycle
 *      waits (event SBA_CONFLICT) and is retried the next cycle;
 *   2. a core whose RAM access is counting wait states keeps the RAM until it completes (the
 *      RAM is not split);
 *   3. otherwise the harts requesting the target in round-robin order: the first hart after
 *      the one that won the target last (hart order n+1, ..., N-1, 0, ..., n). A hart that
 *      loses waits this cycle (event BUS_ARB) and asks again in the next.
 *   So two harts' stores to their own encoders' ITC complete in the same cycle, two RAM
 *   accesses never do. Instruction fetches have a read port of their own per hart (the
 *   instruction side is not arbitrated) and never wait for the SBA sink.
 * - Atomics (A extension): LR, SC and every AMO reach the bus as ONE data-port access
 *   (data_amo: BUS_AMO_VALID | the instruction's funct5) and only to RAM (any other target:
 *   a bus error, the core's access fault, and a guest error). The bus does the whole
 *   read-modify-write within that access (bus_amo), so no other access can fall between its
 *   read and its write, and answers the old value (SC: 0 stored, 1 failed). Reservations:
 *   one per hart (resv_*), set by LR on the naturally aligned bytes it read (the granule: a
 *   word for LR.W); an SC succeeds only if its hart's reservation is valid and on the same
 *   address and size, and clears it either way; any OTHER hart's store, AMO or successful SC
 *   that overlaps the granule, and an SBA sink word written over it, clear it. A hart's own
 *   stores and traps leave it (software does an SC to clear it on a context switch).
 * - A store to the ITC of a full FIFO with teStallEnable waits (BUS_WAIT, event ITC_STALL)
 *   until the FIFO takes it; it does not keep its target: it is arbitrated again each cycle
 *   (a retry), so a hart stalled on its own encoder never blocks another hart.
 *
 * Per-cycle order (see soc.h): bus_sba_write() first (the trace tick), then for each core
 * bus_service_fetch(), then the data ports: bus_service_data() for a single hart (it always
 * wins), bus_service_data_all() for several (arbitration as above). A port's `ev` collects the
 * bus-side events of its cycle until the run controller takes them at the next edge. The
 * per-cycle functions are inline: they run every simulated cycle.
 */
#ifndef TS_BUS_H
#define TS_BUS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cache.h"
#include "clint.h"
#include "ev_bits.h"
#include "funnel.h"
#include "simctrl.h"
#include "te.h"
#include "uart.h"
#include "vcore.h"

#define TS_REGION(name, base, size, desc) enum { MAP_##name##_BASE = base, \
                                                 MAP_##name##_SIZE = size };
#include "soc_map.def"

enum bus_status { BUS_OK,
                  BUS_ERR,
                  BUS_WAIT };

/* what became of an ITC stimulus store (itc.csv's status column, docs/reference/run-folder.md):
 * accepted by the encoder; dropped on a full FIFO (teStallEnable 0); made after the sink
 * stopped on wrap (the encoder, or the funnel, discards it); dropped because the encoder was
 * not tracing it (teEnable/teTracing clear, channel not in itcTraceEnable, mode 0) */
enum bus_itc_status { BUS_ITC_TRACED,
                      BUS_ITC_DROPPED_FIFO,
                      BUS_ITC_AFTER_STOP,
                      BUS_ITC_ENCODER_OFF };

/* arbitration targets (bus_target()); BT_NONE: unmapped, a bus error without arbitration */
enum bus_target { BT_NONE = -1,
                  BT_RAM = 0,
                  BT_CLINT,
                  BT_UART,
                  BT_SIMCTRL,
                  BT_FUNNEL,
                  BT_TRACE0,
                  BUS_N_TARGETS = BT_TRACE0 + 8 };

/* Where the bus reports to; ctx is the first argument of each hook. */
typedef struct bus_hooks {
    void *ctx;
    /* a guest error (bus error, SBA write outside RAM): one line, no newline; required */
    void (*guest_error)(void *ctx, const char *msg);
    /* ground truth, NULL for none: every ITC stimulus store the firmware made to the encoder
     * of `hart` (value cut to size) with what became of it (enum bus_itc_status), and a
     * successful word load of a timestamp register (reg: ts_lower, ts_upper, tf_ts_lower or
     * tf_ts_upper) by the instruction at pc */
    void (*itc_store)(void *ctx, unsigned hart, unsigned stim, unsigned off, unsigned size, uint32_t value,
                      int status);
    void (*ts_read)(void *ctx, unsigned hart, uint32_t pc, const char *reg, uint32_t value);
    /* NULL for none: a stimulus store the encoder of `hart` dropped (full FIFO, no stall) */
    void (*itc_lost)(void *ctx, unsigned hart, unsigned stim);
    /* trace bus log, NULL for none: every access to an encoder or funnel page (value written,
     * or read; st its answer, BUS_WAIT for a held ITC store, which is tried again next cycle)
     * and every SBA word the sink writes */
    void (*trace_access)(void *ctx, unsigned hart, uint32_t addr, unsigned size, bool we, uint32_t val,
                         int st);
    void (*trace_sba)(void *ctx, uint32_t addr, const uint8_t *data, unsigned width);
} bus_hooks_t;

#define BUS_MAX_HARTS 8

/* The data port's data_amo (A extension): BUS_AMO_VALID | the instruction's funct5 (bits
 * 31:27, one of enum bus_amo_op) for LR, SC and the AMOs; without BUS_AMO_VALID a plain
 * access (the low bits are then whatever the core's decode left there). */
#define BUS_AMO_VALID 0x20u
enum bus_amo_op { BUS_AMO_ADD = 0x00,
                  BUS_AMO_SWAP = 0x01,
                  BUS_AMO_LR = 0x02,
                  BUS_AMO_SC = 0x03,
                  BUS_AMO_XOR = 0x04,
                  BUS_AMO_OR = 0x08,
                  BUS_AMO_AND = 0x0C,
                  BUS_AMO_MIN = 0x10,
                  BUS_AMO_MAX = 0x14,
                  BUS_AMO_MINU = 0x18,
                  BUS_AMO_MAXU = 0x1C };

/* A target's answer to an access: the values of rtl_model/trace/te.h's enum te_access (the
 * CLINT, UART and simctrl answer BUS_A_OK or BUS_A_ERR; an encoder page also BUS_A_WAIT for a
 * held stimulus store and, for a stimulus store, BUS_A_DROPPED or BUS_A_IGNORED). */
enum bus_answer { BUS_A_OK = TE_OK,
                  BUS_A_ERR = TE_ERR,
                  BUS_A_WAIT = TE_WAIT,
                  BUS_A_DROPPED = TE_DROPPED,
                  BUS_A_IGNORED = TE_IGNORED };

/* One bus target (a device block of the memory map: the CLINT, the UART, simctrl, the funnel
 * page, each encoder page), registered with bus_set_target(). read/write: an access of size
 * bytes (1, 2 or 4) at offset off of the block by the core of `hart`, whose instruction at pc
 * made it. tick: NULL, or once per cycle in step 6 of sim/soc.h (bus_tick), true if the
 * target's outputs changed (the CLINT: mtime and its interrupt lines). Each callback gets the
 * target's ctx. A platform replaces a target's read/write to reach it another way (the SystemC
 * platform: a TLM-2.0 transaction to the target module). */
typedef struct bus_target_ops {
    void *ctx;
    enum bus_answer (*read)(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t *val);
    enum bus_answer (*write)(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size, uint32_t val);
    bool (*tick)(void *ctx);
} bus_target_ops_t;

/* NULL for the direct path (tracesim), else every data access of a core to RAM (not the
 * fetches, not the SBA sink) goes through it: off is the RAM offset, *val the value stored or
 * the one loaded (the SystemC platform: a TLM-2.0 transaction to its RAM module). */
typedef void (*bus_ram_access_fn)(void *ctx, unsigned hart, uint32_t pc, uint32_t off, unsigned size, bool we,
                                  uint32_t *val);

/* The trace subsystem as the bus sees it (the bus owns none of it): to give the encoders and
 * the funnel the trace ticks they missed (bus_trace_catch_up), to tell a store after the sink
 * stopped on wrap (bus_itc_status), and which pages are mapped. */
typedef struct bus_targets {
    te_t *te[BUS_MAX_HARTS]; /* trace encoder of hart n, at MAP_TRACE_BASE + 0x1000 n */
    unsigned n_te;
    funnel_t *funnel;    /* NULL: no funnel (its page is unmapped) */
    bool trace_detached; /* --no-trace: the trace page reads 1 (teControl 8), ignores writes */
} bus_targets_t;

typedef struct bus {
    uint8_t *ram;
    uint32_t ram_base, ram_size;
    unsigned ram_wait; /* wait states of a RAM access without a cache */
    bus_targets_t dev;
    bus_hooks_t hooks;
    bus_target_ops_t tgt[BUS_N_TARGETS]; /* per enum bus_target (BT_RAM's unused) */
    unsigned n_tick;
    uint8_t tick[BUS_N_TARGETS];  /* the targets with a tick, in target order */
    bus_ram_access_fn ram_access; /* NULL: RAM data accesses made here */
    void *ram_access_ctx;
    bool sba_busy;                        /* the SBA sink wrote RAM this cycle: core data accesses to RAM wait */
    bool trace_touched;                   /* an encoder or funnel register was accessed (cleared by the user:
                            * sim/soc.c's trace tick) */
    uint64_t trace_owed;                  /* trace ticks the run controller skipped (an idle trace subsystem,
                            * only timestamp units counting): given to the encoders and the
                            * funnel (bus_trace_catch_up) before any of their registers is
                            * accessed, and by the controller before it reads them */
    struct bus_port *port[BUS_MAX_HARTS]; /* the data ports bus_service_data_all() arbitrates */
    unsigned n_ports;
    uint8_t last[BUS_N_TARGETS]; /* per target: the hart that won it last */
    /* LR/SC reservations (A extension), one per hart: hart n holds one when bit n of
     * resv_harts is set, on the resv_size[n] bytes at resv_addr[n] (naturally aligned: what
     * its LR read). resv_harts 0 (no LR outstanding, the usual case): stores check nothing */
    uint32_t resv_harts;
    uint32_t resv_addr[BUS_MAX_HARTS];
    uint8_t resv_size[BUS_MAX_HARTS];
} bus_t;

/* One core as an initiator: its instruction and data ports (the Verilated top's pins), the
 * state of the requests in progress, and its timing caches. */
typedef struct bus_port {
    const vcore_ports_t *p;
    unsigned hart;
    uint64_t ev;             /* bus-side events of this cycle (caches, ITC stall, SBA conflict,
                               * bus arbitration) */
    unsigned d_wait, i_wait; /* wait states left for the request in progress */
    bool d_busy, i_busy;     /* a request is waiting (its wait count is running) */
    uint32_t i_busy_addr;
    bool i_fill, d_fill; /* the wait is a cache miss: fill the line when it ends */
    cache_t icache, dcache;
    bool icache_on, dcache_on;
    uint32_t fetch_end; /* no I-cache and no RAM wait states: ram_size - 3 (a fetch at
                               * RAM offset below it is answered at once), else 0 (set by
                               * bus_attach_port) */
    bool record_stores; /* keep the last completed RAM or device store (for the retire log) */
    bool st_done;       /* a RAM store completed; cleared by whoever consumes it */
    bool held;          /* the core was not clocked this cycle (its trace encoder's stall
                               * request, sim/soc.c): its ports are not served, their answers
                               * stay as they were for the edge that comes */
    uint32_t st_addr, st_data, st_size;
    uint32_t st_data_hi; /* an 8-byte store's (RV64 SD, SC.D, AMO*.D) high word */
} bus_port_t;

/* RAM of ram_size bytes (4 KiB .. 1 GiB, multiple of 4) at MAP_RAM_BASE, zeroed. 0, or -1
 * with a message in err. */
int bus_init(bus_t *b, uint32_t ram_size, unsigned ram_wait, const bus_targets_t *dev,
             const bus_hooks_t *hooks, char *err, size_t errlen);
void bus_free(bus_t *b);
void bus_reset(bus_t *b);
/* the skipped trace ticks (trace_owed) given to every encoder and the funnel (te_skip,
 * funnel_skip) */
static inline void bus_trace_catch_up(bus_t *b) {
    for (unsigned i = 0; i < b->dev.n_te; i++)
        if (b->dev.te[i]) te_skip(b->dev.te[i], b->trace_owed);
    if (b->dev.funnel) funnel_skip(b->dev.funnel, b->trace_owed);
    b->trace_owed = 0;
}
/* caches: size 0 for none. 0, or -1 with a message in err. */
int bus_port_init(bus_port_t *ip, const vcore_ports_t *p, unsigned hart, const cache_cfg_t *icache,
                  const cache_cfg_t *dcache, char *err, size_t errlen);
void bus_port_free(bus_port_t *ip);
/* Adds the port to those bus_service_data_all() arbitrates (hart order); 0, or -1 if full. */
int bus_attach_port(bus_t *b, bus_port_t *ip);
void bus_port_reset(bus_port_t *ip);

/* Copies len bytes to guest address addr and zeroes zero_fill bytes after them; false if
 * that is not all RAM. */
bool bus_load(bus_t *b, uint32_t addr, const void *src, uint32_t len, uint32_t zero_fill);
/* Guest RAM [addr, addr + len) as host memory, or NULL if it is not all RAM. */
uint8_t *bus_ram(bus_t *b, uint32_t addr, uint32_t len);
/* A device access (not RAM) by the core of `hart`, whose instruction at pc made it. */
enum bus_status bus_dev_access(bus_t *b, unsigned hart, uint32_t pc, uint32_t addr, unsigned size,
                               bool we, uint32_t *val);
/* cold paths of the per-cycle functions: guest-error reports */
void bus_data_fault(bus_t *b, const bus_port_t *ip, uint32_t addr, unsigned size, bool we);
void bus_sba_fault(bus_t *b, uint32_t addr);
/* an LR, SC or AMO (data_amo amo) to an address that is not all RAM: the guest error */
void bus_amo_fault(bus_t *b, const bus_port_t *ip, uint32_t addr, unsigned size, unsigned amo);
/* An LR, SC or AMO of the port's hart to RAM offset off (addr) once its wait states are
 * over: the read-modify-write and the reservations (the rules above); answers *data_rdata,
 * records the store for the retire log. */
void bus_amo(bus_t *b, bus_port_t *ip, uint32_t addr, uint32_t off, unsigned size, unsigned amo);
/* RV64: a plain 8-byte load or store (LD, SD) to RAM offset off (addr) once its wait states
 * are over: one access of the RAM (a platform's RAM access function sees its two words, the
 * low one first); answers data_rdata/data_rdata_hi, records the store. */
void bus_ram_access8(bus_t *b, bus_port_t *ip, uint32_t addr, uint32_t off, bool we);
/* RV64: an 8-byte load or store to a device: the CLINT takes it as two 32-bit accesses in the
 * same cycle, the low word (addr) first (mtime and mtimecmp as one 64-bit register, as on
 * SiFive's 64-bit cores); every other device answers a bus error (the core's access fault and
 * a guest error), its registers being 32 bits wide. */
void bus_dev_access8(bus_t *b, bus_port_t *ip, uint32_t addr, bool we);
/* Clears the reservation of every hart but `hart` (BUS_MAX_HARTS: every hart) whose bytes
 * overlap [addr, addr + len): a store into them (called only while resv_harts != 0). */
void bus_resv_clear(bus_t *b, unsigned hart, uint32_t addr, unsigned len);

/* Registers (or replaces) the target t (BT_CLINT .. BT_TRACE0 + 7) */
void bus_set_target(bus_t *b, int t, const bus_target_ops_t *ops);
/* Every data access of a core to RAM through fn (NULL: the direct path again) */
void bus_set_ram_access(bus_t *b, bus_ram_access_fn fn, void *ctx);
/* The ticks of the targets that have one (step 6); true if any target's outputs changed */
static inline bool bus_tick(bus_t *b) {
    bool changed = false;
    for (unsigned i = 0; i < b->n_tick; i++) {
        const bus_target_ops_t *o = &b->tgt[b->tick[i]];
        changed |= o->tick(o->ctx);
    }
    return changed;
}

/* ---- per cycle -------------------------------------------------------------------------- */

static inline bool bus_in_ram(const bus_t *b, uint32_t addr, uint32_t len) {
    uint64_t off = (uint64_t)addr - b->ram_base;
    return addr >= b->ram_base && off + len <= b->ram_size;
}

static inline void bus_ram_read(const bus_t *b, uint32_t off, unsigned size, uint32_t *val) {
    const uint8_t *m = b->ram + off;
    switch (size) {
    case 1: *val = m[0]; break;
    case 2: *val = (uint32_t)m[0] | (uint32_t)m[1] << 8; break;
    default: *val = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
    }
}

static inline void bus_ram_write(bus_t *b, uint32_t off, unsigned size, uint32_t val) {
    uint8_t *m = b->ram + off;
    m[0] = (uint8_t)val;
    if (size >= 2) m[1] = (uint8_t)(val >> 8);
    if (size == 4) {
        m[2] = (uint8_t)(val >> 16);
        m[3] = (uint8_t)(val >> 24);
    }
}

/* The SBA sink's port for this cycle (sink_t sba_valid, sba_addr, sba_data, width bytes):
 * a valid word goes into RAM at once and takes the RAM port for this cycle (the SBA sink
 * wins). Returns false on a bus error (not all RAM; reported as a guest error): the sink's
 * owner sets teSinkError. */
static inline bool bus_sba_write(bus_t *b, const sink_t *k) {
    b->sba_busy = false;
    if (!k->sba_valid) return true;
    if (!bus_in_ram(b, k->sba_addr, k->width)) {
        bus_sba_fault(b, k->sba_addr);
        return false;
    }
    memcpy(b->ram + (k->sba_addr - b->ram_base), k->sba_data, k->width);
    if (__builtin_expect(b->resv_harts != 0, 0)) bus_resv_clear(b, BUS_MAX_HARTS, k->sba_addr, k->width);
    b->sba_busy = true;
    if (b->hooks.trace_sba) b->hooks.trace_sba(b->hooks.ctx, k->sba_addr, k->sba_data, k->width);
    return true;
}

/* Wait states of a new RAM access: with a cache, 0 on a hit and the miss latency on a miss
 * (*fill tells to install the line when the wait ends); without, the RAM's wait states. */
static inline unsigned bus_ram_access_wait(bus_t *b, bus_port_t *ip, cache_t *c, bool on, bool allocate,
                                           uint32_t addr, uint64_t ev_access, uint64_t ev_miss,
                                           bool *fill) {
    *fill = false;
    if (!on) return b->ram_wait;
    ip->ev |= ev_access;
    if (!allocate || cache_access(c, addr)) return 0;
    ip->ev |= ev_miss;
    *fill = true;
    return c->cfg.miss_latency;
}

/* The core's data port with a request this cycle (bus_service_data). */
static inline void bus_service_data_req(bus_t *b, bus_port_t *ip) {
    const vcore_ports_t *p = ip->p;
    uint32_t addr = *p->data_addr;
    unsigned size = 1u << *p->data_size;
    bool we = *p->data_we;
    unsigned amo = vcore_data_amo(p) & BUS_AMO_VALID ? vcore_data_amo(p) : 0; /* LR, SC, AMO: VALID | funct5 */
    uint32_t off = addr - b->ram_base;
    if (addr >= b->ram_base && off <= b->ram_size - size) {
        if (b->sba_busy) { /* the SBA sink has the RAM this cycle */
            ip->ev |= EVB_SBA_CONFLICT;
            *p->data_rdy = 0;
            *p->data_err = 0;
            return;
        }
        if (!ip->d_busy) {
            /* stores are write-through without allocation: they look up but never miss;
             * LR, SC and AMOs allocate like loads (they read the line) */
            unsigned w = bus_ram_access_wait(b, ip, &ip->dcache, ip->dcache_on, !we || amo, addr,
                                             EVB_D_CACHE_ACCESS, EVB_D_CACHE_MISS, &ip->d_fill);
            if (w) {
                ip->d_busy = true;
                ip->d_wait = w - 1;
                *p->data_rdy = 0;
                *p->data_err = 0;
                return;
            }
        } else if (ip->d_wait) {
            ip->d_wait--;
            *p->data_rdy = 0;
            *p->data_err = 0;
            return;
        } else {
            ip->d_busy = false;
            if (ip->d_fill) cache_fill(&ip->dcache, addr);
        }
        if (__builtin_expect(amo != 0 || size == 8, 0)) { /* (8: RV64's LD and SD) */
            if (amo) bus_amo(b, ip, addr, off, size, amo);
            else
                bus_ram_access8(b, ip, addr, off, we);
            *p->data_rdy = 1;
            *p->data_err = 0;
            return;
        }
        if (we) {
            if (__builtin_expect(b->ram_access != NULL, 0)) {
                uint32_t wv = *p->data_wdata;
                b->ram_access(b->ram_access_ctx, ip->hart, *p->data_pc, off, size, true, &wv);
            } else {
                bus_ram_write(b, off, size, *p->data_wdata);
            }
            if (__builtin_expect(b->resv_harts != 0, 0)) bus_resv_clear(b, ip->hart, addr, size);
            if (ip->record_stores) {
                ip->st_done = true;
                ip->st_addr = addr;
                ip->st_data = *p->data_wdata;
                ip->st_size = size;
            }
        } else if (__builtin_expect(b->ram_access != NULL, 0)) {
            b->ram_access(b->ram_access_ctx, ip->hart, *p->data_pc, off, size, false, p->data_rdata);
        } else {
            bus_ram_read(b, off, size, p->data_rdata);
        }
        *p->data_rdy = 1;
        *p->data_err = 0;
        return;
    }
    if (__builtin_expect(amo != 0, 0)) { /* atomics only on RAM: an access fault */
        ip->d_busy = false;
        *p->data_rdy = 1;
        *p->data_err = 1;
        bus_amo_fault(b, ip, addr, size, amo);
        return;
    }
    if (__builtin_expect(size == 8, 0)) {
        bus_dev_access8(b, ip, addr, we);
        return;
    }
    uint32_t val = we ? *p->data_wdata : 0;
    enum bus_status st = bus_dev_access(b, ip->hart, *p->data_pc, addr, size, we, &val);
    if (st == BUS_WAIT) {
        ip->ev |= EVB_ITC_STALL;
        *p->data_rdy = 0;
        *p->data_err = 0;
        return;
    } /* retried next cycle */
    ip->d_busy = false;
    *p->data_rdy = 1;
    *p->data_err = st == BUS_ERR;
    if (!we) *p->data_rdata = val;
    /* a device store completed: the retire log shows it like a RAM store (mem[addr]size=value) */
    else if (st == BUS_OK && ip->record_stores) {
        ip->st_done = true;
        ip->st_addr = addr;
        ip->st_data = *p->data_wdata;
        ip->st_size = size;
    }
    if (st == BUS_ERR) bus_data_fault(b, ip, addr, size, we);
}

/* The core's data port: answers (rdy, err, rdata) for this cycle, or holds it (rdy 0). The
 * idle port (most cycles) is answered inline; a request goes to bus_service_data_req. */
static inline __attribute__((always_inline)) void bus_service_data(bus_t *b, bus_port_t *ip) {
    const vcore_ports_t *p = ip->p;
    if (!*p->data_req) {
        *p->data_rdy = 0;
        *p->data_err = 0;
        ip->d_busy = false;
        return;
    }
    bus_service_data_req(b, ip);
}

/* bus_service_fetch() but for its common case */
static inline void bus_service_fetch_any(bus_t *b, bus_port_t *ip, uint32_t addr) {
    const vcore_ports_t *p = ip->p;
    uint32_t off = addr - b->ram_base;
    bool in_ram = addr >= b->ram_base && off <= b->ram_size - 2;
    if (ip->i_busy && ip->i_busy_addr == addr) {
        if (ip->i_wait) {
            ip->i_wait--;
            *p->instr_rdy = 0;
            return;
        }
        ip->i_busy = false;
        if (ip->i_fill) cache_fill(&ip->icache, addr);
    } else if (in_ram) {
        /* a new fetch (a redirect abandons a fetch in progress) */
        unsigned w = bus_ram_access_wait(b, ip, &ip->icache, ip->icache_on, true, addr,
                                         EVB_I_CACHE_ACCESS, EVB_I_CACHE_MISS, &ip->i_fill);
        if (w) {
            ip->i_busy = true;
            ip->i_busy_addr = addr;
            ip->i_wait = w - 1;
            *p->instr_rdy = 0;
            return;
        }
        ip->i_busy = false;
    }
    *p->instr_rdy = 1;
    if (in_ram && off <= b->ram_size - 4) {
        bus_ram_read(b, off, 4, p->instr_rdata);
        *p->instr_err = 0;
    } else if (in_ram) {
        bus_ram_read(b, off, 2, p->instr_rdata);
        *p->instr_err = 2; /* only the upper halfword is outside RAM */
    } else {
        *p->instr_rdata = 0;
        *p->instr_err = 3;
    }
}

/* The core's instruction port: a fetch is always answered from RAM (4 bytes, or 2 with
 * instr_err 2 when only the upper halfword is outside RAM), after its wait states; outside
 * RAM it answers instr_err 3 (the core raises the instruction access fault). Without wait
 * states (no I-cache, --ram-wait 0: fetch_end) a fetch of a whole word in RAM is answered
 * at once and nothing else changes (no wait count, no cache, i_busy stays false): that case
 * goes first, without the rest of the decode. */
static inline __attribute__((always_inline)) void bus_service_fetch(bus_t *b, bus_port_t *ip) {
    const vcore_ports_t *p = ip->p;
    uint32_t addr = *p->instr_addr;
    uint32_t off = addr - MAP_RAM_BASE; /* below RAM: wraps past ram_size */
    if (__builtin_expect(off < ip->fetch_end, 1)) {
        bus_ram_read(b, off, 4, p->instr_rdata);
        *p->instr_rdy = 1;
        *p->instr_err = 0;
        return;
    }
    bus_service_fetch_any(b, ip, addr);
}

/* The target of a data access (enum bus_target). */
static inline int bus_target(const bus_t *b, uint32_t addr, unsigned size) {
    if (bus_in_ram(b, addr, size)) return BT_RAM;
    if (addr - MAP_CLINT_BASE < MAP_CLINT_SIZE) return BT_CLINT;
    uint32_t page = addr & ~0xFFFu;
    if (page == MAP_UART_BASE) return BT_UART;
    if (page == MAP_SIMCTRL_BASE) return BT_SIMCTRL;
    if (page == MAP_FUNNEL_BASE && b->tgt[BT_FUNNEL].read) return BT_FUNNEL;
    uint32_t n = (page - MAP_TRACE_BASE) >> 12;
    if (page >= MAP_TRACE_BASE && n < (b->dev.n_te ? b->dev.n_te : 1)) return BT_TRACE0 + (int)n;
    return BT_NONE;
}

/* Several harts: every data port's answer for this cycle, one access per target (the rules in
 * the header comment). Out of line: a single hart calls bus_service_data() directly. */
void bus_service_data_all(bus_t *b);
#endif
