/* sifive_bare_perf.c - tracesim's implementation of the SiFive trace performance library on
 * bare metal (API in sifive_bare_perf.h). Written from SiFive's manual and
 * ../shared/spec/trace-hw-facts.md sections 5.1-5.8; no code of the original is used.
 *
 * Output: byte-compatible with SiFive's decoder (trace-hw-facts 5.4, 5.5): a header once per
 * capture (marker, count type, counter mask, one definition per counter) and records (type
 * byte, one or two addresses with the bit-0 "high word follows" flag, one value per counter:
 * a 32-bit low word and, when bits 63:32 are not zero, bits 47:32 as a 16-bit store).
 *
 * Where the original is wrong, this one is right:
 *  - counters are kept in a table indexed by counter number, and the hardware mask is tested
 *    by counter number (the original sizes its table and tests the mask by list position);
 *  - counter widths come from probing with both halves on RV32 and a leading-zero count (the
 *    original's width loop never ends for widths above 32 with a 32-bit long);
 *  - 64-bit counters are read high, low, high until the highs agree; counters of 32 bits or
 *    less with one csrr;
 *  - every counter index 0..31 the hardware has (the original stops at 6);
 *  - DeltaXOR XORs the addresses too, as the manual says (the original writes them raw);
 *  - perfTraceOff drains the encoder (and funnel) into the sink, so no record stays half in
 *    the encoder; a later perfTraceOn resumes without a second header, which SiFive's decoder
 *    could not parse;
 *  - OpenSBI type 0 and type 1 events go through the platform table rtl_model/regs/
 *    sbi_events.def; raw events are checked against rtl_model/regs/hpm_events.def;
 *  - the SBA buffer pool is in a section that start-up code does not zero (.preserve);
 *  - counters the library does not use keep their mcountinhibit bit (the original inhibits
 *    every other counter);
 *  - a record is written with interrupts off, so an (instrumented) interrupt handler cannot
 *    interleave its stores with a record in progress;
 *  - perfWriteTrace works on bare metal (simctrl host file I/O).
 * The hot path (perfWriteCntrs, the entry/exit hooks, the timer handler) has no division, no
 * 64-bit multiply and no loop over counters that are not selected. */
#include "sifive_bare_perf.h"
#include "perf_port.h"
#include "ts_hpm.h"
#include <stddef.h>
#include <string.h>

/* teControl / tfControl / tsControl / teImpl bits (trace-hw-facts 1.2, 1.3, 1.6, 2.1) */
enum {
    C_ACTIVE = 1u << 0, C_ENABLE = 1u << 1, C_TRACING = 1u << 2, C_EMPTY = 1u << 3,
    C_ITC_DQM = 1u << 7, C_STOP_ON_WRAP = 1u << 14, C_SYNC_OFF = (0xFu << 20) | (0xFu << 16),
    SINK_SRAM = 4, SINK_SBA = 7, SINK_FUNNEL = 8,
    TS_ACTIVE = 1u << 0, TS_COUNT = 1u << 1, TS_DEBUG = 1u << 3, TS_PRESCALE = 3u << 8,
    TS_ENABLE = 1u << 15, TS_BRANCH_ALL = 3u << 16, TS_INSTRUMENTATION = 1u << 18,
    TS_OWNERSHIP = 1u << 19,
    IMPL_SRAM = 1u << 4, IMPL_SBA = 1u << 7, IMPL_FUNNEL = 1u << 8,
};
#define CSR_MCOUNTEREN 0x306u
#define CSR_MCOUNTINHIBIT 0x320u
#define DRAIN_POLLS 1000000u     /* bound on waiting for teEmpty/tfEmpty */

enum { MODE_MANUAL, MODE_ISR, MODE_ENTRY_EXIT };

typedef struct perf_slot {     /* one selected counter on the record path */
    uint64_t prev;             /* previous value (Delta, DeltaXOR) */
    uint64_t wrap;             /* 2^width - 1 */
    uint32_t key;              /* read key (perf_port.h) */
} perf_slot_t;

typedef struct perf_def {      /* a counter definition as the header states it */
    uint32_t type, code, info;
    uint64_t event_data;
} perf_def_t;

/* Per-core state. It lives in the non-zeroed section (about 1.4 KiB a core: zeroing 8 of
 * them at start-up would cost ~45k cycles); a core's state is cleared by its perfXXXInit and
 * only read when the zeroed flags in `perf` say it is valid. */
typedef struct perf_core {
    volatile uint32_t *stim;                /* itcStimulus[channel] (32-bit view) */
    uint8_t header_written, paused, count_type, mode, n;
    uint8_t n_hpm;                          /* selected counters with index >= 3 */
    uint32_t mask;                          /* counter mask of the header */
    perf_slot_t slot[PERF_MAX_CNTRS];       /* per selected counter, ascending index */
    uintptr_t prev_addr;                    /* previous address (DeltaXOR) */
    perf_def_t def[PERF_MAX_CNTRS];         /* per selected counter, ascending index */
    uint32_t records;
    volatile uint32_t *ts_lower, *ts_upper; /* master timestamp (counter index 1) */
    volatile uint32_t *sink_ctl;            /* control register of the block owning the sink */
    volatile uint32_t *sink_regs;           /* base of that block (sink registers at 0x10..0x24) */
    int sink_sba;
    uint32_t sink_start, sink_size;         /* bus address (SBA) or 0 (SRAM), bytes */
    uint8_t *sba_buf;
    uint64_t timer_next, timer_ticks;
} perf_core_t;

static struct {
    int initialized, defaults_done, num_cores, funnel;
    size_t pool_used;
    uint8_t ready[PERF_MAX_CORES];          /* the core ran its perfXXXInit */
    perf_core_t *recording[PERF_MAX_CORES]; /* its state between perfTraceOn and perfTraceOff */
} perf;
static perf_core_t perf_cores[PERF_MAX_CORES] __attribute__((section(".preserve.tsperf_state")));

/* The SBA buffer pool: not zeroed by the start-up code (picolibc.ld's NOLOAD .preserve). */
static uint8_t perf_pool[PERF_MEM_POOL_SIZE] __attribute__((section(".preserve.tsperf_pool"), aligned(32)));

/* ---- ITC stores ----------------------------------------------------------------------------
 * Every store is preceded by a read of the stimulus register that returned "ready" (not 0),
 * as every SiFive writer does. The read is issued early and tested with a forward branch to
 * a spin loop placed out of line: on this core a backward poll loop costs a branch
 * mispredict and a load-use bubble per store even when the FIFO has room. The spin is
 * inline (no call), so the record writer stays a leaf function that saves no registers. */

#define ITC_READY(s, r)                                              \
    do {                                                             \
        if (__builtin_expect((r) == 0, 0))                           \
            while (perf_rd32(s) == 0) { }                            \
    } while (0)

static inline PERF_NOINSTR void itc32(volatile uint32_t *s, uint32_t v) {
    uint32_t r = perf_rd32(s);
    ITC_READY(s, r);
    perf_wr32(s, v);
}
static inline PERF_NOINSTR void itc16(volatile uint32_t *s, uint32_t v) {
    uint32_t r = perf_rd32(s);
    ITC_READY(s, r);
    perf_wr16((volatile uint8_t *)s + 2, v);
}
static inline PERF_NOINSTR void itc8(volatile uint32_t *s, uint32_t v) {
    uint32_t r = perf_rd32(s);
    ITC_READY(s, r);
    perf_wr8((volatile uint8_t *)s + 3, v);
}
/* an address: one word, or the low word with bit 0 set and the high word */
static inline PERF_NOINSTR void put_addr(volatile uint32_t *s, uintptr_t a) {
#if UINTPTR_MAX > 0xFFFFFFFFu
    if (a >> 32) {
        itc32(s, (uint32_t)a | 1u);
        itc32(s, (uint32_t)(a >> 32));
        return;
    }
#endif
    itc32(s, (uint32_t)a);
}

static inline PERF_NOINSTR uint64_t read_ts(const perf_core_t *c) {
    uint32_t h, l;
    do {
        h = perf_rd32(c->ts_upper);
        l = perf_rd32(c->ts_lower);
    } while (h != perf_rd32(c->ts_upper));
    return (uint64_t)h << 32 | l;
}
static inline PERF_NOINSTR uint64_t read_counter(const perf_core_t *c, unsigned key) {
    return key == PERF_KEY_TS ? read_ts(c) : perf_counter_read(key);
}

/* ---- records (the hot path) ------------------------------------------------------------ */

/* One counter value: v was read after the ready-poll r; the value for the count type ct
 * (a constant in each specialised copy) is stored as the low word, and bits 47:32 as a
 * 16-bit store when bits 63:32 are not zero. */
static inline __attribute__((always_inline)) PERF_NOINSTR void put_value(volatile uint32_t *s, uint32_t r,
                                                                          perf_slot_t *sl, uint64_t v, int ct) {
    uint64_t d = v;
    if (ct == perfCount_Delta) d = (v - sl->prev) & sl->wrap;    /* one wrap between records */
    else if (ct == perfCount_DeltaXOR) d = v ^ sl->prev;
    if (ct != perfCount_Raw) sl->prev = v;
    ITC_READY(s, r);
    perf_wr32(s, (uint32_t)d);
    uint32_t hi = (uint32_t)(d >> 32);
    if (__builtin_expect(hi != 0, 0)) itc16(s, hi);
}

/* The counters in ascending index order: cycle, timestamp and instret (fixed indices 0-2)
 * inline, the programmable ones through a jump table on their read key. */
static inline __attribute__((always_inline)) PERF_NOINSTR void put_counters(perf_core_t *c, volatile uint32_t *s,
                                                                             int ct) {
    perf_slot_t *sl = c->slot;
    uint32_t m = c->mask, r;
    if (__builtin_expect(m & 1u, 1)) {
        r = perf_rd32(s);
        put_value(s, r, sl, __builtin_expect(sl->key == PERF_KEY_WIDE, 1) ? perf_counter_read(PERF_KEY_WIDE)
                                                                            : perf_counter_read(0), ct);
        sl++;
    }
    if (__builtin_expect(m & 2u, 0)) { r = perf_rd32(s); put_value(s, r, sl, read_ts(c), ct); sl++; }
    if (__builtin_expect(m & 4u, 1)) {
        r = perf_rd32(s);
        put_value(s, r, sl, __builtin_expect(sl->key == PERF_KEY_WIDE + 2, 1) ? perf_counter_read(PERF_KEY_WIDE + 2)
                                                                                : perf_counter_read(2), ct);
        sl++;
    }
    for (perf_slot_t *end = sl + c->n_hpm; sl != end; sl++) {
        r = perf_rd32(s);
        put_value(s, r, sl, perf_counter_read(sl->key), ct);
    }
}

static inline __attribute__((always_inline)) PERF_NOINSTR void put_addrs(perf_core_t *c, volatile uint32_t *s,
                                                                          uintptr_t a, uintptr_t b, int two, int ct) {
    if (ct == perfCount_DeltaXOR) {
        put_addr(s, a ^ c->prev_addr);
        if (two) put_addr(s, b ^ a);
        c->prev_addr = two ? b : a;
    } else {
        put_addr(s, a);
        if (two) put_addr(s, b);
    }
}

/* A whole record, with interrupts off. A leaf function: the entry points tail-call it. */
static __attribute__((noinline)) PERF_NOINSTR int write_record(perf_core_t *c, unsigned type, uintptr_t a,
                                                                uintptr_t b, int two) {
    uint32_t irq = perf_irq_save();
    volatile uint32_t *s = c->stim;
    itc8(s, type);
    switch (c->count_type) {
    case perfCount_Raw: put_addrs(c, s, a, b, two, perfCount_Raw); put_counters(c, s, perfCount_Raw); break;
    case perfCount_Delta: put_addrs(c, s, a, b, two, perfCount_Delta); put_counters(c, s, perfCount_Delta); break;
    default: put_addrs(c, s, a, b, two, perfCount_DeltaXOR); put_counters(c, s, perfCount_DeltaXOR); break;
    }
    c->records++;
    perf_irq_restore(irq);
    return PERF_OK;
}

/* this hart's state, or NULL when it ran no perfXXXInit */
static inline PERF_NOINSTR perf_core_t *this_core(void) {
    unsigned h = perf_hartid();
    return h < PERF_MAX_CORES && perf.ready[h] ? &perf_cores[h] : NULL;
}
/* this hart's state if it is recording, else NULL */
static inline PERF_NOINSTR perf_core_t *recording_core(void) {
    unsigned h = perf_hartid();
    return h < PERF_MAX_CORES ? perf.recording[h] : NULL;
}

int perfWriteCntrs(void) {
    perf_core_t *c = recording_core();
    if (c) return write_record(c, perfRecord_Manual, (uintptr_t)__builtin_return_address(0), 0, 0);
    return this_core() ? PERF_OK : PERF_ERR_NOT_INIT;
}

void __cyg_profile_func_enter(void *this_fn, void *call_site) {
    perf_core_t *c = recording_core();
    if (c) write_record(c, perfRecord_FuncEnter, (uintptr_t)this_fn, (uintptr_t)call_site, 1);
}

void __cyg_profile_func_exit(void *this_fn, void *call_site) {
    perf_core_t *c = recording_core();
    if (c) write_record(c, perfRecord_FuncExit, (uintptr_t)this_fn, (uintptr_t)call_site, 1);
}

void perf_timer_tick(uintptr_t mepc) {
    perf_core_t *c = this_core();
    if (!c) return;
    if (perf.recording[c - perf_cores] && c->mode == MODE_ISR) (void)write_record(c, perfRecord_ISR, mepc, 0, 0);
    /* drift-free period; a handler that overran skips the missed deadlines */
    uint64_t now = perf_port_mtime();
    c->timer_next += c->timer_ticks;
    if (c->timer_next <= now) c->timer_next = now + c->timer_ticks;
    perf_port_set_mtimecmp((unsigned)(c - perf_cores), c->timer_next);
}

/* ---- header, on/off ---------------------------------------------------------------------- */

static void write_header(perf_core_t *c) {
    uint32_t irq = perf_irq_save();
    volatile uint32_t *s = c->stim;
    itc32(s, PERF_MARKER_VAL);
    itc8(s, c->count_type);
    itc32(s, c->mask);
    for (unsigned i = 0; i < c->n; i++) {
        const perf_def_t *d = &c->def[i];
        itc32(s, d->type);
        if (d->type == perfEventHWRaw) {
            itc32(s, (uint32_t)d->event_data);
            itc32(s, (uint32_t)(d->event_data >> 32));
        } else {
            itc32(s, d->code);
        }
        itc32(s, d->info);
    }
    perf_irq_restore(irq);
}

/* Stops the encoder (and funnel) and waits until everything reached the sink. Remembers
 * whether it was running, so that resume() restarts only what this call stopped (an
 * encoder stopped by a full stop-on-wrap buffer stays stopped). 0, or PERF_ERR_NO_TRACE if
 * the hardware never reports empty. */
static int drain(perf_core_t *c, int *was_running) {
    volatile uint32_t *te = &tmm[c - perf_cores]->te_control_register;
    uint32_t ctl = perf_rd32(te);
    *was_running = (ctl & (C_ACTIVE | C_ENABLE)) == (C_ACTIVE | C_ENABLE);
    if (*was_running) perf_wr32(te, ctl & ~(C_ENABLE | C_TRACING));
    unsigned polls = 0;
    while (!(perf_rd32(te) & C_EMPTY))
        if (++polls == DRAIN_POLLS) return PERF_ERR_NO_TRACE;
    if (perf.funnel) {
        volatile uint32_t *tf = &fmm->tf_control_register;
        uint32_t f = perf_rd32(tf);
        if (f & C_ENABLE) perf_wr32(tf, f & ~(uint32_t)C_ENABLE);
        for (polls = 0; !(perf_rd32(tf) & C_EMPTY);)
            if (++polls == DRAIN_POLLS) return PERF_ERR_NO_TRACE;
    }
    return PERF_OK;
}

static void resume(perf_core_t *c) {
    if (perf.funnel) perf_wr32(&fmm->tf_control_register, perf_rd32(&fmm->tf_control_register) | C_ENABLE);
    volatile uint32_t *te = &tmm[c - perf_cores]->te_control_register;
    uint32_t ctl = perf_rd32(te) | C_ACTIVE | C_ENABLE;
    perf_wr32(te, ctl);
    perf_wr32(te, ctl | C_TRACING);
}

int perfTraceOn(void) {
    perf_core_t *c = this_core();
    if (!c) return PERF_ERR_NOT_INIT;
    unsigned h = (unsigned)(c - perf_cores);
    if (perf.recording[h]) return PERF_OK;
    if (c->paused) {
        resume(c);
        c->paused = 0;
    }
    if (!c->header_written) {
        write_header(c);
        c->header_written = 1;
        /* Delta counts from here; Raw and DeltaXOR start from 0 like the decoders */
        if (c->count_type == perfCount_Delta)
            for (unsigned i = 0; i < c->n; i++) c->slot[i].prev = read_counter(c, c->slot[i].key);
    }
    perf.recording[h] = c;
    return PERF_OK;
}

int perfTraceOff(void) {
    perf_core_t *c = this_core();
    if (!c) return PERF_ERR_NOT_INIT;
    perf.recording[c - perf_cores] = NULL;
    int was_running, rc = drain(c, &was_running);
    if (was_running) c->paused = 1;
    return rc;
}

/* ---- trace buffer read-out ---------------------------------------------------------------- */

/* valid bytes: wrapped -> the whole buffer, oldest at WP; else [start, WP) */
static void sink_state(const perf_core_t *c, uint32_t *wp_off, int *wrapped) {
    uint32_t wp = perf_rd32(&c->sink_regs[0x1C / 4]);
    *wrapped = (int)(wp & 1u);
    *wp_off = (wp & ~1u) - c->sink_start;
    if (*wp_off > c->sink_size) *wp_off = c->sink_size;
}

/* SRAM: read [off, off + len) through teSinkRP/teSinkData into the host file */
static int write_sram(perf_core_t *c, const char *name, uint32_t off, uint32_t len, int append) {
    uint32_t chunk[64];
    perf_wr32(&c->sink_regs[0x20 / 4], off);
    do {
        uint32_t n = len < sizeof chunk ? len : (uint32_t)sizeof chunk;
        for (uint32_t i = 0; i < (n + 3) / 4; i++) chunk[i] = perf_rd32(&c->sink_regs[0x24 / 4]);
        if (perf_port_host_write(name, chunk, n, append)) return PERF_ERR_IO;
        append = 1;
        len -= n;
    } while (len);
    return PERF_OK;
}

static int write_part(perf_core_t *c, const char *name, uint32_t off, uint32_t len, int append) {
    if (!c->sink_sba) return write_sram(c, name, off, len, append);
    return perf_port_host_write(name, c->sba_buf + off, len, append) ? PERF_ERR_IO : PERF_OK;
}

int perfWriteTrace(char *file) {
    perf_core_t *c = this_core();
    if (!c) return PERF_ERR_NOT_INIT;
    const char *name = file ? file : "trace.rtd";
    if (!*name) return PERF_ERR_ARG;
    int was_running, rc = drain(c, &was_running);
    if (rc == PERF_OK) {
        uint32_t wp;
        int wrapped;
        sink_state(c, &wp, &wrapped);
        if (wrapped) {
            rc = write_part(c, name, wp, c->sink_size - wp, 0);
            if (rc == PERF_OK && wp) rc = write_part(c, name, 0, wp, 1);
        } else {
            rc = write_part(c, name, 0, wp, 0);
        }
    }
    if (was_running && !c->paused) resume(c);
    return rc;
}

int perfGetTraceStatus(perfTraceStatus_t *st) {
    perf_core_t *c = this_core();
    if (!st) return PERF_ERR_ARG;
    memset(st, 0, sizeof *st);
    if (!c) return PERF_ERR_NOT_INIT;
    uint32_t wp;
    int wrapped;
    sink_state(c, &wp, &wrapped);
    uint32_t ctl = perf_rd32(c->sink_ctl);
    st->initialized = 1;
    st->recording = perf.recording[c - perf_cores] != NULL;
    st->stopped = !c->paused && !(ctl & C_ENABLE) && (ctl & C_STOP_ON_WRAP) && wp == c->sink_size;
    st->wrapped = wrapped;
    st->bytes = wrapped ? c->sink_size : wp;
    st->size = c->sink_size;
    st->records = c->records;
    return PERF_OK;
}

/* ---- initialisation --------------------------------------------------------------------- */

int perfInit(int num_cores, int num_funnels) {
    if (perf.initialized) return PERF_ERR_INIT_TWICE;
    if (num_cores < 1 || num_cores > PERF_MAX_CORES || num_funnels < 0 || num_funnels > 1) return PERF_ERR_ARG;
    if ((num_funnels == 1) != (fmm != NULL)) return PERF_ERR_ARG;   /* fmm says whether there is one */
    memset(&perf, 0, sizeof perf);
    perf.num_cores = num_cores;
    perf.funnel = num_funnels;
    perf.initialized = 1;
    return PERF_OK;
}

/* the event bits each class of rtl_model/regs/hpm_events.def defines (classes 0..3) */
static uint32_t known_events(unsigned cls) {
    static const struct { int8_t cls, bit; } ev[] = {
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) {cls, bit},
#include "hpm_events.def"
#undef TS_EVENT
    };
    uint32_t m = 0;
    for (unsigned i = 0; i < sizeof ev / sizeof ev[0]; i++)
        if (ev[i].cls == (int)cls && ev[i].bit >= 8) m |= 1u << ev[i].bit;
    return m;
}

/* an event of the list -> a fixed counter (0 cycles, 1 timestamp, 2 instret) or an
 * mhpmevent value for a programmable one; fills the header definition */
static int map_event(const perfEvent *e, int *fixed, uint32_t *mhpmevent, perf_def_t *d) {
    *fixed = -1;
    *mhpmevent = 0;
    memset(d, 0, sizeof *d);
    d->type = (uint32_t)e->type;
    switch (e->type) {
    case perfEventHWGeneral:
        d->code = (uint32_t)e->code;
        if (e->code == HW_TIMESTAMP) { *fixed = 1; return PERF_OK; }
        for (unsigned i = 0; i < TS_SBI_N_GENERAL; i++) {
            const ts_sbi_general_t *g = &ts_sbi_general_events[i];
            if ((int)g->code != e->code) continue;
            if (g->counter >= 0) { *fixed = g->counter; return PERF_OK; }
            if (!g->mhpmevent) return PERF_ERR_UNSUPPORTED;
            *mhpmevent = g->mhpmevent;
            return PERF_OK;
        }
        return PERF_ERR_EVENT_CODE;
    case perfEventHWCache:
        if (e->cache_id < HW_CACHE_L1D || e->cache_id > HW_CACHE_NODE || e->op_id < HW_CACHE_OP_READ ||
            e->op_id > HW_CACHE_OP_PREFETCH || e->result_id < HW_CACHE_RESULT_ACCESS || e->result_id > HW_CACHE_RESULT_MISS)
            return PERF_ERR_EVENT_CODE;
        d->code = (uint32_t)(e->cache_id << 3 | e->op_id << 1 | e->result_id);   /* SBI event_code */
        for (unsigned i = 0; i < TS_SBI_N_CACHE; i++) {
            const ts_sbi_cache_t *k = &ts_sbi_cache_events[i];
            if ((int)k->cache_id == e->cache_id && (int)k->op_id == e->op_id && (int)k->result_id == e->result_id) {
                if (!k->mhpmevent) return PERF_ERR_UNSUPPORTED;
                *mhpmevent = k->mhpmevent;
                return PERF_OK;
            }
        }
        return PERF_ERR_UNSUPPORTED;
    case perfEventHWRaw: {
        uint64_t ed = (uint64_t)e->event_data;
        uint32_t cls = (uint32_t)ed & 0xFFu, sel = (uint32_t)ed & ~0xFFu;
        if ((ed >> 32) || cls > 3 || !sel || (sel & ~known_events(cls))) return PERF_ERR_UNSUPPORTED;
        d->event_data = ed;
        *mhpmevent = (uint32_t)ed;
        return PERF_OK;
    }
    default:
        return PERF_ERR_EVENT_TYPE;   /* incl. perfEventFW: no firmware events on bare metal */
    }
}

static unsigned width_of(uint32_t lo, uint32_t hi) {
    if (hi) return 64u - (unsigned)__builtin_clz(hi);
    return lo ? 32u - (unsigned)__builtin_clz(lo) : 0u;
}

/* width of counter n: write all ones to both halves (counting is inhibited), read back,
 * leave it at 0 */
static unsigned probe_width(unsigned n) {
    perf_csr_write(0xB00 + n, 0xFFFFFFFFu);
    perf_csr_write(0xB80 + n, 0xFFFFFFFFu);
    unsigned w = width_of(perf_csr_read(0xB00 + n), perf_csr_read(0xB80 + n));
    perf_csr_write(0xB00 + n, 0);
    perf_csr_write(0xB80 + n, 0);
    return w;
}

static volatile uint32_t *ts_master_control(unsigned core) {
    return perf.funnel ? &fmm->ts_control_register : &tmm[core]->ts_control_register;
}

/* Assigns counters, programs their events, probes widths and fills the header definitions.
 * Everything is checked before any counter is touched. */
static int setup_counters(perf_core_t *c, unsigned core, perfEvent *list, int n) {
    perf_def_t def_by_idx[PERF_MAX_CNTRS];
    uint32_t ev_by_idx[PERF_MAX_CNTRS], used = 0;
    int list_pos[PERF_MAX_CNTRS];
    perf_csr_write(CSR_MCOUNTEREN, 0xFFFFFFFFu);            /* probe; left open for U-mode */
    uint32_t hw = perf_csr_read(CSR_MCOUNTEREN) & ~2u;      /* bit 1 is `time`, not ours */
    unsigned ts_width = perf_rd32(ts_master_control(core)) >> 24;
    for (int i = 0; i < n; i++) {
        int fixed;
        uint32_t ev;
        perf_def_t d;
        int rc = map_event(&list[i], &fixed, &ev, &d);
        if (rc) return rc;
        unsigned idx;
        if (fixed >= 0) {
            idx = (unsigned)fixed;
            if (used & (1u << idx)) return PERF_ERR_DUPLICATE;
            if (idx == 1 ? !ts_width : !((hw >> idx) & 1u)) return PERF_ERR_UNSUPPORTED;
        } else {
            uint32_t free_hpm = hw & ~used & ~7u;
            if (!free_hpm) return PERF_ERR_NO_COUNTER;
            idx = (unsigned)__builtin_ctz(free_hpm);
        }
        used |= 1u << idx;
        def_by_idx[idx] = d;
        ev_by_idx[idx] = ev;
        list_pos[idx] = i;
    }
    uint32_t inhibit = perf_csr_read(CSR_MCOUNTINHIBIT);
    perf_csr_write(CSR_MCOUNTINHIBIT, 0xFFFFFFFFu);
    c->n = 0;
    c->mask = used;
    for (uint32_t m = used; m; m &= m - 1) {
        unsigned idx = (unsigned)__builtin_ctz(m), w;
        perf_def_t *d = &c->def[c->n];
        *d = def_by_idx[idx];
        if (idx == 1) {
            w = ts_width;
            d->info = (w - 1u) << 12;                       /* not CSR-mapped: CSR field 0 */
        } else {
            if (idx >= 3) perf_csr_write(0x320 + idx, ev_by_idx[idx]);
            w = probe_width(idx);
            if (!w) { perf_csr_write(CSR_MCOUNTINHIBIT, inhibit); return PERF_ERR_UNSUPPORTED; }
            d->info = (w - 1u) << 12 | (0xC00u + idx);
        }
        c->slot[c->n].wrap = w >= 64 ? ~0ull : (1ull << w) - 1;
        c->slot[c->n].key = idx == 1 ? PERF_KEY_TS : w > 32 ? PERF_KEY_WIDE + idx : idx;
        c->slot[c->n].prev = 0;
        if (idx >= 3) c->n_hpm++;
        list[list_pos[idx]].ctrIdx = idx;
        list[list_pos[idx]].ctrInfo = d->info;
        c->n++;
    }
    perf_csr_write(CSR_MCOUNTINHIBIT, inhibit & ~used);
    return PERF_OK;
}

/* timestamp unit: reset, timestamps on ITC/Ownership messages, counting for internal types */
static void setup_ts(volatile uint32_t *ts, int master_only) {
    uint32_t t = perf_rd32(ts);
    perf_wr32(ts, t & ~TS_ACTIVE);
    perf_wr32(ts, t | TS_ACTIVE);
    t = perf_rd32(ts);
    unsigned type = (t >> 4) & 7u;
    uint32_t count = (type == 2 || type == 3) ? TS_COUNT : 0;
    if (master_only) {
        perf_wr32(ts, TS_ACTIVE | count);
        return;
    }
    t = (t & ~(TS_DEBUG | TS_PRESCALE)) | TS_INSTRUMENTATION | TS_OWNERSHIP | TS_BRANCH_ALL;
    perf_wr32(ts, t);
    perf_wr32(ts, t | count | (type ? TS_ENABLE : 0));
}

/* one encoder: reset, ITC Data Acquisition mode, no instruction trace, stop-on-wrap, no
 * stall, the sink, timestamps, the ITC channels in itc_mask */
static void setup_te(unsigned core, unsigned sink, uint32_t itc_mask, uint32_t base, uint32_t size) {
    volatile struct TraceRegMemMap *t = tmm[core];
    uint32_t ctl = perf_rd32(&t->te_control_register);
    perf_wr32(&t->te_control_register, ctl & ~C_ACTIVE);
    perf_wr32(&t->te_control_register, ctl | C_ACTIVE);
    perf_wr32(&t->te_control_register, sink << 28 | C_SYNC_OFF | C_STOP_ON_WRAP | C_ITC_DQM | C_ACTIVE | C_ENABLE);
    if (sink == SINK_SBA) {
        perf_wr32(&t->te_sinkbase_register, base);
        perf_wr32(&t->te_sinkbasehigh_register, 0);
        perf_wr32(&t->te_sinklimit_register, base + size - 4u);   /* last word; trimmed to the width */
        perf_wr32(&t->te_sink_wp_register, base);
    } else if (sink == SINK_SRAM) {
        perf_wr32(&t->te_sink_wp_register, 0);
    }
    perf_wr32(&t->te_sink_rp_register, 0);
    setup_ts(&t->ts_control_register, 0);
    perf_wr32(&t->itc_traceenable_register, itc_mask);
}

static void setup_funnel(unsigned sink, uint32_t base, uint32_t size) {
    volatile struct TfTraceRegMemMap *f = fmm;
    uint32_t ctl = perf_rd32(&f->tf_control_register);
    perf_wr32(&f->tf_control_register, ctl & ~C_ACTIVE);
    perf_wr32(&f->tf_control_register, ctl | C_ACTIVE);
    perf_wr32(&f->tf_control_register, sink << 28 | C_STOP_ON_WRAP | C_ACTIVE | C_ENABLE);
    setup_ts(&f->ts_control_register, 1);
    if (sink == SINK_SBA) {
        perf_wr32(&f->tf_sinkbase_register, base);
        perf_wr32(&f->tf_sinkbasehigh_register, 0);
        perf_wr32(&f->tf_sinklimit_register, base + size - 4u);
        perf_wr32(&f->tf_sink_wp_register, base);
    } else {
        perf_wr32(&f->tf_sink_wp_register, 0);
    }
    perf_wr32(&f->tf_sink_rp_register, 0);
}

/* sink bounds as the hardware took them (WARL trimming) */
static void read_sink_bounds(perf_core_t *c) {
    volatile uint32_t *r = c->sink_regs;
    if (c->sink_sba) {
        uint32_t base = perf_rd32(&r[0x10 / 4]), limit = perf_rd32(&r[0x18 / 4]);
        unsigned width = 4u << ((perf_rd32(&r[0x04 / 4]) >> 16) & 3u);
        c->sink_start = base;
        c->sink_size = limit + width - base;
    } else {
        uint32_t wp = perf_rd32(&r[0x1C / 4]);
        perf_wr32(&r[0x1C / 4], 0xFFFFFFFCu);              /* size probe (trace-hw-facts 1.4) */
        unsigned width = 4u << ((perf_rd32(&r[0x04 / 4]) >> 16) & 3u);
        c->sink_start = 0;
        c->sink_size = (perf_rd32(&r[0x1C / 4]) & ~3u) + width;
        perf_wr32(&r[0x1C / 4], wp);
    }
}

static int init_common(int mode, perfEvent *list, int n, int ch, perfCountType_t type, uint32_t sba_size) {
    if (!perf.initialized) return PERF_ERR_NOT_INIT;
    unsigned core = perf_hartid();
    if (core >= (unsigned)perf.num_cores) return PERF_ERR_CORE;
    perf_core_t *c = &perf_cores[core];
    if (perf.ready[core]) return PERF_ERR_INIT_TWICE;
    if (!list || n < 0 || ch < 0 || ch > 31 || (unsigned)type > perfCount_DeltaXOR) return PERF_ERR_ARG;
    if (n > PERF_MAX_CNTRS) return PERF_ERR_TOO_MANY;
    volatile struct TraceRegMemMap *t = tmm[core];
    if (!t) return PERF_ERR_NO_TRACE;
    /* the ITC channel and the sink must exist (an encoder in reset ignores the probe) */
    perf_wr32(&t->te_control_register, perf_rd32(&t->te_control_register) | C_ACTIVE);
    perf_wr32(&t->itc_traceenable_register, 0xFFFFFFFFu);
    uint32_t itc = perf_rd32(&t->itc_traceenable_register);
    perf_wr32(&t->itc_traceenable_register, 0);
    uint32_t impl = perf.funnel ? perf_rd32(&fmm->tf_impl_register) : perf_rd32(&t->te_impl_register);
    if (!((itc >> ch) & 1u) || !(impl & (sba_size ? IMPL_SBA : IMPL_SRAM))) return PERF_ERR_NO_TRACE;
    if (perf.funnel && !(perf_rd32(&t->te_impl_register) & IMPL_FUNNEL)) return PERF_ERR_NO_TRACE;
    /* the SBA buffer: aligned to 32 bytes (any sink width up to 256 bits), whole words */
    size_t start = (perf.pool_used + 31u) & ~(size_t)31u, size = ((size_t)sba_size + 31u) & ~(size_t)31u;
    if (sba_size && (sba_size > PERF_MEM_POOL_SIZE || start + size > PERF_MEM_POOL_SIZE)) return PERF_ERR_POOL;
    if (perf.funnel && sba_size && perf.pool_used) return PERF_ERR_POOL;   /* one funnel buffer */

    memset(c, 0, sizeof *c);
    int rc = setup_counters(c, core, list, n);
    if (rc) return rc;
    if (sba_size) {
        c->sba_buf = perf_pool + start;
        perf.pool_used = start + size;
    }
    unsigned sink = sba_size ? SINK_SBA : SINK_SRAM;
    uint32_t base = sba_size ? perf_bus_addr(c->sba_buf) : 0;
    /* defaults for every encoder the first time (SiFive's sequence), then this one's */
    if (!perf.defaults_done) {
        for (int k = 0; k < perf.num_cores; k++)
            if (tmm[k]) setup_te((unsigned)k, perf.funnel ? SINK_FUNNEL : SINK_SRAM, 0, 0, 0);
        if (perf.funnel) setup_funnel(SINK_SRAM, 0, 0);
        perf.defaults_done = 1;
    }
    setup_te(core, perf.funnel ? SINK_FUNNEL : sink, 1u << ch, base, (uint32_t)size);
    if (perf.funnel) {
        setup_funnel(sink, base, (uint32_t)size);
        c->sink_ctl = &fmm->tf_control_register;
        c->sink_regs = &fmm->tf_control_register;
        c->ts_lower = &fmm->ts_lower_register;
        c->ts_upper = &fmm->ts_upper_register;
    } else {
        c->sink_ctl = &t->te_control_register;
        c->sink_regs = &t->te_control_register;
        c->ts_lower = &t->ts_lower_register;
        c->ts_upper = &t->ts_upper_register;
    }
    c->sink_sba = sba_size != 0;
    read_sink_bounds(c);
    c->stim = &t->itc_stimulus_register[ch].reg_size_32;
    c->count_type = (uint8_t)type;
    c->mode = (uint8_t)mode;
    perf_wr32(&t->te_control_register, perf_rd32(&t->te_control_register) | C_TRACING);
    perf.ready[core] = 1;
    return PERF_OK;
}

int perfManualInit(perfEvent *perfCntrList, int numCntrs, int itcChannel, perfCountType_t cntType,
                   uint32_t SBABufferSize) {
    return init_common(MODE_MANUAL, perfCntrList, numCntrs, itcChannel, cntType, SBABufferSize);
}

int perfFuncEntryExitInit(perfEvent *perfCntrList, int numCntrs, int itcChannel, perfCountType_t cntType,
                          uint32_t SBABufferSize) {
    return init_common(MODE_ENTRY_EXIT, perfCntrList, numCntrs, itcChannel, cntType, SBABufferSize);
}

int perfTimerISRInit(perfEvent *perfCntrList, int numCntrs, int itcChannel, perfCountType_t cntType,
                     uint32_t SBABufferSize, int interval) {
    if (interval <= 0) return PERF_ERR_ARG;
    if (interval < 100) interval = 100;                    /* the manual's minimum, in us */
    int rc = init_common(MODE_ISR, perfCntrList, numCntrs, itcChannel, cntType, SBABufferSize);
    if (rc) return rc;
    perf_core_t *c = this_core();
    c->timer_ticks = perf_port_timebase() * (uint64_t)interval / 1000000u;
    if (!c->timer_ticks) c->timer_ticks = 1;
    c->timer_next = perf_port_mtime() + c->timer_ticks;
    if (perf_port_timer_start((unsigned)(c - perf_cores), c->timer_next)) {
        perf.ready[c - perf_cores] = 0;
        return PERF_ERR_TIMER;
    }
    return PERF_OK;
}

const char *perfErrorString(int err) {
    switch (err) {
    case PERF_OK: return "ok";
    case PERF_ERR_ARG: return "bad argument";
    case PERF_ERR_INIT_TWICE: return "already initialised";
    case PERF_ERR_NOT_INIT: return "not initialised (perfInit and an init function first)";
    case PERF_ERR_TOO_MANY: return "more than 32 events";
    case PERF_ERR_EVENT_TYPE: return "unknown or unsupported event type";
    case PERF_ERR_EVENT_CODE: return "unknown event code";
    case PERF_ERR_UNSUPPORTED: return "the hardware cannot count this event";
    case PERF_ERR_NO_COUNTER: return "no free hardware counter";
    case PERF_ERR_DUPLICATE: return "the same fixed counter twice";
    case PERF_ERR_POOL: return "SBA buffer does not fit in the memory pool";
    case PERF_ERR_CORE: return "this hart is outside tmm[]";
    case PERF_ERR_NO_TRACE: return "no trace encoder, ITC channel or sink for this";
    case PERF_ERR_TIMER: return "timer interrupt set-up failed";
    case PERF_ERR_IO: return "host file write failed";
    default: return "unknown error";
    }
}
