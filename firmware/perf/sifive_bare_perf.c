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
 *  - counter widths come from probing with both halves on RV32 (the whole CSR on RV64) and a
 *    leading-zero count (the original's width loop never ends for widths above 32 with a
 *    32-bit long);
 *  - counters of 32 bits or more are read high, low, high until the highs agree on RV32, in
 *    one csrr on RV64; narrower ones with one csrr;
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
 *  - perfWriteTrace works on bare metal (simctrl host file I/O);
 *  - several harts share the state safely (a lock through perf_port.h on the init, on/off and
 *    write-out paths only): the defaults, the funnel and the shared sink are set up once, by
 *    the first perfXXXInit; a later hart's init touches only its own encoder and counters;
 *    the funnel is stopped only when the last hart's encoder stops.
 * The hot path (perfWriteCntrs, the entry/exit hooks, the timer handler) has no division, no
 * 64-bit multiply and no loop over counters that are not selected. */
#include "sifive_bare_perf.h"
#include "perf_port.h"
#include "ts_hpm.h"
#include <stddef.h>
#include <string.h>

_Static_assert(PERF_MAX_CNTRS == TS_PW_MAX_COUNTERS, "the counter mask of the wire format (perf_wire.def) has 32 bits");
_Static_assert(TS_PW_BYTES_RECORD_TYPE == 1 && TS_PW_BYTES_RECORD_VALUE_HI == 2 && TS_PW_BYTES_HEADER_COUNT_TYPE == 1,
               "perf_wire.def: the record type and count type are 8-bit stores (itc8), a value's bits 47:32 a 16-bit one (itc16)");

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

/* One counter on the record path (16 bytes, slot[n] for counter n). A counter of 32 bits or
 * more is "wide" (read high/low/high) and `wrap` is the mask of bits 63:32 that Delta
 * applies, 2^(width-32) - 1 (0 for 32 bits; the low word never needs one); a narrower one is
 * read with one csrr and `wrap` is the mask of bits 31:0, 2^width - 1. The timestamp's mask
 * is `ts_wrap` of the core. */
typedef struct perf_slot {
    uint32_t prev_lo, prev_hi; /* previous value (Delta, DeltaXOR) */
    uint32_t wrap;
    uint32_t key;              /* read key (perf_port.h) */
} perf_slot_t;

typedef struct perf_def {      /* a counter definition as the header states it */
    uint32_t type, code, info;
    uint64_t event_data;
} perf_def_t;

struct perf_core;
/* the record writers, one each per count type: (core, record type, address) for manual and
 * ISR records, (core, record type, function, call site) for entry/exit records */
typedef int (*perf_write1_t)(struct perf_core *, uint8_t, uintptr_t);
typedef void (*perf_write2_t)(struct perf_core *, uint8_t, uintptr_t, uintptr_t);

/* perf_core.fixed: how the record writer reads the fixed counters (numbers 0..2) */
enum {
    FX_CYCLE = 1u << 0,        /* cycles, wide */
    FX_TS = 1u << 1,           /* the timestamp, 32 bits or more */
    FX_INSTRET = 1u << 2,      /* instret, wide */
    FX_ANY = 1u << 3,          /* one of them is narrower: all three through put_any */
    FX_USUAL = FX_CYCLE | FX_INSTRET,
};
/* FX_ANY, or programmable counters but not one run of wide ones: put_counters_any (the sign
 * bit: one branch tests it) */
#define FX_SLOW 0x80000000u

/* Per-core state. It lives in the non-zeroed section (about 1.4 KiB a core: zeroing 8 of
 * them at start-up would cost every program tens of thousands of cycles); a core's state is
 * cleared by its perfXXXInit and only read when the zeroed flags in `perf` say it is valid. */
typedef struct perf_core {
    volatile uint32_t *stim;                /* itcStimulus[channel] (32-bit view) */
    perf_write1_t write1;                   /* the record writers for count_type */
    perf_write2_t write2;
    uint32_t fixed;                         /* FX_* */
    int8_t hpm_run;                         /* the programmable counters (3..31) selected are
                                             * hpm_run + 3 .. hpm_last, all wide; -1: none or
                                             * not such a run (then FX_SLOW if any) */
    uint8_t hpm_last;
    uint8_t n_hpm;                          /* selected programmable counters */
    uint8_t hpm_list[PERF_MAX_CNTRS];       /* their numbers, ascending */
    uintptr_t prev_addr;                    /* previous address (DeltaXOR) */
    uint32_t records;
    uint8_t header_written, paused, count_type, mode, n;
    uint32_t mask;                          /* counter mask of the header */
    uint64_t ts_wrap;                       /* 2^width - 1 of the timestamp */
    perf_slot_t slot[PERF_MAX_CNTRS];       /* by counter number (1: the timestamp) */
    perf_def_t def[PERF_MAX_CNTRS];         /* per selected counter, ascending number */
    volatile uint32_t *ts_lower, *ts_upper; /* master timestamp (counter index 1) */
    volatile uint32_t *sink_ctl;            /* control register of the block owning the sink */
    volatile uint32_t *sink_regs;           /* base of that block (sink registers at 0x10..0x24) */
    int sink_sba;
    uint32_t sink_start, sink_size;         /* bus address (SBA) or 0 (SRAM), bytes */
    uint8_t *sba_buf;
    uint64_t timer_next, timer_ticks;
} perf_core_t;

/* Shared by all harts; after perfInit changed only under perf_port_lock(). recording[] and
 * ready[] have one writer each (the hart itself, under the lock). */
static struct {
    perf_core_t *recording[PERF_MAX_CORES]; /* its state between perfTraceOn and perfTraceOff */
    int initialized, defaults_done, num_cores, funnel;
    size_t pool_used;
    uint8_t ready[PERF_MAX_CORES];          /* the core ran its perfXXXInit */
} perf;
/* The state of several harts: only used after perfInit, which clears it, so it lives in the
 * non-zeroed section (the start-up code of every program would otherwise clear it byte by
 * byte). */
static struct {
    uint32_t te_running;                    /* bit n: hart n's encoder enabled by the library */
    /* with the funnel: the one sink, set up by the first perfXXXInit */
    int funnel_ready;
    uint32_t funnel_sba_req;                /* that init's SBABufferSize (0: SRAM) */
    uint32_t sink_start, sink_size;
    uint8_t *sba_buf;
} perf_mh __attribute__((section(".preserve.tsperf_mh")));
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
        itc32(s, (uint32_t)a | TS_PW_ADDR_HI);
        itc32(s, (uint32_t)(a >> 32));
        return;
    }
#endif
    itc32(s, (uint32_t)a);
}

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* the master timestamp: upper, lower, upper until the uppers agree (the retry out of line) */
static inline __attribute__((always_inline)) PERF_NOINSTR uint64_t read_ts(const perf_core_t *c) {
    volatile uint32_t *up = c->ts_upper, *lo = c->ts_lower;
    uint32_t h = perf_rd32(up), l = perf_rd32(lo), h2 = perf_rd32(up);
    if (UNLIKELY(h != h2))
        do {
            h = h2;
            l = perf_rd32(lo);
            h2 = perf_rd32(up);
        } while (h != h2);
    return (uint64_t)h << 32 | l;
}
/* any counter by read key (not on the record path) */
static __attribute__((noinline)) uint64_t read_counter_any(const perf_core_t *c, unsigned key) {
    return key == PERF_KEY_TS ? read_ts(c) : perf_counter_read(key);
}

/* ---- records (the hot path) ------------------------------------------------------------
 * Two writers per count type, write_<type>1 (manual and ISR records: one address) and
 * write_<type>2 (entry/exit: two); perf_core.write1/write2 point to the core's, so the count
 * type costs one indirect jump per record and no test. Both continue in write_<type>_cntrs
 * (a tail call). All of them are leaf functions without a stack frame; interrupts are off
 * from the type byte to the last counter. Written for our core's timing (docs/internals.md
 * "Pipeline and timing"): the likely way is the fall-through of forward branches; wide counters are read
 * without a backward branch (perf_counter_read); every counter has its slot at a fixed
 * offset (slot[n]); the programmable counters, in the usual case one run of wide counters
 * (hpm_run + 3 .. hpm_last), are written by straight-line code entered once per record
 * through a jump table (not a loop with a jump table per counter); Delta masks only the word
 * that can wrap. */

/* The value of a wide counter: v was read after the ready-poll r; the value for the count
 * type ct (a constant in each writer) is stored as the low word, and bits 47:32 as a 16-bit
 * store when bits 63:32 are not zero. Delta: (v - prev) mod 2^width, one wrap between
 * records. */
static inline __attribute__((always_inline)) PERF_NOINSTR void put_wide(volatile uint32_t *s, uint32_t r,
                                                                         perf_slot_t *sl, uint64_t v, int ct) {
    uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32), dl = lo, dh = hi;
    if (ct == perfCount_Delta) {
        uint32_t pl = sl->prev_lo;
        dl = lo - pl;
        dh = (hi - sl->prev_hi - (lo < pl)) & sl->wrap;
    } else if (ct == perfCount_DeltaXOR) {
        dl = lo ^ sl->prev_lo;
        dh = hi ^ sl->prev_hi;
    }
    if (ct != perfCount_Raw) {
        sl->prev_lo = lo;
        sl->prev_hi = hi;
    }
    ITC_READY(s, r);
    perf_wr32(s, dl);
    if (UNLIKELY(dh != 0)) itc16(s, dh);
}

/* the same for a narrow counter (bits 63:32 are 0) */
static inline __attribute__((always_inline)) PERF_NOINSTR void put_narrow(volatile uint32_t *s, uint32_t r,
                                                                           perf_slot_t *sl, uint32_t v, int ct) {
    uint32_t d = v;
    if (ct == perfCount_Delta) d = (v - sl->prev_lo) & sl->wrap;
    else if (ct == perfCount_DeltaXOR) d = v ^ sl->prev_lo;
    if (ct != perfCount_Raw) sl->prev_lo = v;
    ITC_READY(s, r);
    perf_wr32(s, d);
}

/* one of the fixed counters in 64-bit arithmetic with the full mask (a narrow one, or a
 * narrow timestamp: the rare configurations, FX_ANY) */
static inline __attribute__((always_inline)) PERF_NOINSTR void put_any(perf_core_t *c, volatile uint32_t *s,
                                                                        unsigned n, int ct) {
    perf_slot_t *sl = &c->slot[n];
    uint32_t r = perf_rd32(s);
    uint64_t v, wrap;
    if (n == 1) {
        v = read_ts(c);
        wrap = c->ts_wrap;
    } else if (sl->key & PERF_KEY_WIDE) {
        v = perf_counter_read(PERF_KEY_WIDE + n);
        wrap = (uint64_t)sl->wrap << 32 | 0xFFFFFFFFu;
    } else {
        v = perf_counter_read(n);
        wrap = sl->wrap;
    }
    uint64_t prev = (uint64_t)sl->prev_hi << 32 | sl->prev_lo, d = v;
    if (ct == perfCount_Delta) d = (v - prev) & wrap;
    else if (ct == perfCount_DeltaXOR) d = v ^ prev;
    if (ct != perfCount_Raw) {
        sl->prev_lo = (uint32_t)v;
        sl->prev_hi = (uint32_t)(v >> 32);
    }
    ITC_READY(s, r);
    perf_wr32(s, (uint32_t)d);
    if (d >> 32) itc16(s, (uint32_t)(d >> 32));
}

/* wide counter n (a constant) */
static inline __attribute__((always_inline)) PERF_NOINSTR void put_counter(perf_core_t *c, volatile uint32_t *s,
                                                                            unsigned n, int ct) {
    uint32_t r = perf_rd32(s);
    put_wide(s, r, &c->slot[n], perf_counter_read(PERF_KEY_WIDE + n), ct);
}

/* the timestamp (32 bits or more) */
static inline __attribute__((always_inline)) PERF_NOINSTR void put_ts(perf_core_t *c, volatile uint32_t *s, int ct) {
    uint32_t r = perf_rd32(s);
    put_wide(s, r, &c->slot[1], read_ts(c), ct);
}

/* the programmable counters 3..30 (and 31) */
#define PERF_HPM_LIST(X)                                                                      \
    X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) \
    X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30)

/* the counters and the end of a record, write_<type>_cntrs, reached by a tail call from the
 * writers. x and y are not used: they are the writer's own second and third arguments, so
 * that s and irq travel in the next two registers and the tail call needs no register
 * moves (noipa: GCC must not drop them). */
typedef int (*perf_cntrs_t)(perf_core_t *c, uintptr_t x, uintptr_t y, volatile uint32_t *s, uint32_t irq);

#if defined(__GNUC__) && !defined(__clang__)
#define PERF_NOIPA __attribute__((noipa))     /* keeps x and y (no IPA-SRA) */
#else
#define PERF_NOIPA __attribute__((noinline))
#endif

/* the end of a record */
static inline __attribute__((always_inline)) PERF_NOINSTR int end_record(perf_core_t *c, uint32_t irq,
                                                                          uint32_t records) {
    c->records = records + 1;
    if (UNLIKELY(irq)) perf_irq_restore(irq);
    return PERF_OK;
}

/* The counters of a record in ascending number order, and its end (interrupts back on if
 * they were: irq = perf_irq_save()), for any configuration (FX_SLOW): the fixed counters by
 * their flags, the programmable ones through hpm_list, a jump table on the read key each. */
static inline __attribute__((always_inline)) PERF_NOINSTR int put_counters_any(perf_core_t *c, volatile uint32_t *s,
                                                                                uint32_t irq, int ct) {
    uint32_t f = c->fixed, records = c->records;
    if (f & FX_ANY) {
        uint32_t m = c->mask;
        if (m & 1u) put_any(c, s, 0, ct);
        if (m & 2u) put_any(c, s, 1, ct);
        if (m & 4u) put_any(c, s, 2, ct);
    } else {
        if (f & FX_CYCLE) put_counter(c, s, 0, ct);
        if (f & FX_TS) put_ts(c, s, ct);
        if (f & FX_INSTRET) put_counter(c, s, 2, ct);
    }
    for (const uint8_t *p = c->hpm_list, *e = p + c->n_hpm; p != e; p++) {
        perf_slot_t *sl = &c->slot[*p];
        unsigned key = sl->key;
        uint32_t r = perf_rd32(s);
        if (key & PERF_KEY_WIDE) put_wide(s, r, sl, perf_counter_read(key), ct);
        else put_narrow(s, r, sl, (uint32_t)perf_counter_read(key), ct);
    }
    return end_record(c, irq, records);
}

/* The same, fast, when the programmable counters are one run of wide counters (or none)
 * and the fixed ones wide; else (FX_SLOW) put_counters_any through `any`. */
static inline __attribute__((always_inline)) PERF_NOINSTR int put_counters(perf_core_t *c, uintptr_t x, uintptr_t y,
                                                                            volatile uint32_t *s, uint32_t irq, int ct,
                                                                            perf_cntrs_t any) {
    /* loaded first: the compiler keeps loads from the core after the ITC stores before
     * them (it cannot tell that they do not alias), and load-use bubbles cost cycles */
    uint32_t f = c->fixed, last = c->hpm_last, records = c->records;
    int run = c->hpm_run;
    if (UNLIKELY(f & FX_SLOW)) return any(c, x, y, s, irq);
    if (LIKELY(f == FX_USUAL)) {
        put_counter(c, s, 0, ct);
        put_counter(c, s, 2, ct);
    } else {
        if (f & FX_CYCLE) put_counter(c, s, 0, ct);
        if (f & FX_TS) put_ts(c, s, ct);
        if (f & FX_INSTRET) put_counter(c, s, 2, ct);
    }
    /* the programmable counters: straight-line code entered at the first (through a jump
     * table without bounds check: every value has a case), left after the last */
    if (LIKELY(run >= 0)) {
        switch (run) {
#define PERF_HPM_STEP(n)              \
    case n - 3:                       \
        put_counter(c, s, n, ct);     \
        if (last == n) break;         \
        __attribute__((fallthrough));
            PERF_HPM_LIST(PERF_HPM_STEP)
#undef PERF_HPM_STEP
        case 31 - 3:
            put_counter(c, s, 31, ct);
            break;
        default:
            __builtin_unreachable();
        }
    }
    return end_record(c, irq, records);
}

/* an address; DeltaXOR: XOR-chained with the previous one */
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

/* The writers of a count type: name##1 (core, record type, address) and name##2 (core,
 * record type, function, call site) write the type and the address(es) with interrupts off
 * and continue (a tail call) in name##_cntrs, which continues in name##_any for the rare
 * configurations. */
#define PERF_WRITERS(name, ct)                                                                       \
    static PERF_NOIPA PERF_NOINSTR int name##_any(perf_core_t *c, uintptr_t x, uintptr_t y,          \
                                                  volatile uint32_t *s, uint32_t irq) {              \
        (void)x, (void)y;                                                                            \
        return put_counters_any(c, s, irq, ct);                                                      \
    }                                                                                                \
    static PERF_NOIPA PERF_NOINSTR int name##_cntrs(perf_core_t *c, uintptr_t x, uintptr_t y,        \
                                                    volatile uint32_t *s, uint32_t irq) {            \
        return put_counters(c, x, y, s, irq, ct, name##_any);                                        \
    }                                                                                                \
    static __attribute__((noinline)) PERF_NOINSTR int name##1(perf_core_t *c, uint8_t type,          \
                                                              uintptr_t a) {                         \
        uint32_t irq = perf_irq_save();                                                              \
        volatile uint32_t *s = c->stim;                                                              \
        itc8(s, type);                                                                               \
        put_addrs(c, s, a, 0, 0, ct);                                                                \
        return name##_cntrs(c, type, a, s, irq);                                                     \
    }                                                                                                \
    static __attribute__((noinline)) PERF_NOINSTR void name##2(perf_core_t *c, uint8_t type,         \
                                                               uintptr_t a, uintptr_t b) {           \
        uint32_t irq = perf_irq_save();                                                              \
        volatile uint32_t *s = c->stim;                                                              \
        itc8(s, type);                                                                               \
        put_addrs(c, s, a, b, 1, ct);                                                                \
        (void)name##_cntrs(c, type, a, s, irq);                                                      \
    }
PERF_WRITERS(write_raw, perfCount_Raw)
PERF_WRITERS(write_delta, perfCount_Delta)
PERF_WRITERS(write_xor, perfCount_DeltaXOR)
#undef PERF_WRITERS

/* this hart's state, or NULL when it ran no perfXXXInit */
static inline PERF_NOINSTR perf_core_t *this_core(void) {
    unsigned h = perf_hartid();
    return h < PERF_MAX_CORES && perf.ready[h] ? &perf_cores[h] : NULL;
}
/* this hart's state if it is recording, else NULL */
static inline PERF_NOINSTR perf_core_t *recording_core(void) {
    unsigned h = perf_hartid();
    return LIKELY(h < PERF_MAX_CORES) ? perf.recording[h] : NULL;
}

/* the caller's address in perfWriteCntrs: on the target read from ra as the first thing, as
 * __builtin_return_address(0) makes GCC save ra in a stack frame */
#if defined(__riscv)
#define CALLER_PC(v) __asm__ volatile("mv %0, ra" : "=r"(v))
#else
#define CALLER_PC(v) ((v) = (uintptr_t)__builtin_return_address(0))
#endif

/* The three hooks are never inlined, also not by -flto: perfWriteCntrs reads its own return
 * address (an inlined copy would read its caller's), and a record is made inside a hook, whose
 * entry the simulator's ground truth (hooks.csv) and report's hook costs see. GCC may still
 * rename the one copy (perfWriteCntrs.isra.0); run and check find it (decoder/include/elf_syms.h). */
__attribute__((noinline)) int perfWriteCntrs(void) {
    uintptr_t ra;
    CALLER_PC(ra);
    perf_core_t *c = recording_core();
    if (LIKELY(c != NULL)) return c->write1(c, perfRecord_Manual, ra);
    return this_core() ? PERF_OK : PERF_ERR_NOT_INIT;
}

__attribute__((noinline)) void __cyg_profile_func_enter(void *this_fn, void *call_site) {
    perf_core_t *c = recording_core();
    if (LIKELY(c != NULL)) c->write2(c, perfRecord_FuncEnter, (uintptr_t)this_fn, (uintptr_t)call_site);
}

__attribute__((noinline)) void __cyg_profile_func_exit(void *this_fn, void *call_site) {
    perf_core_t *c = recording_core();
    if (LIKELY(c != NULL)) c->write2(c, perfRecord_FuncExit, (uintptr_t)this_fn, (uintptr_t)call_site);
}

void perf_timer_tick(uintptr_t mepc) {
    perf_core_t *c = this_core();
    if (!c) return;
    if (perf.recording[c - perf_cores] && c->mode == MODE_ISR) (void)c->write1(c, perfRecord_ISR, mepc);
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
    unsigned core = (unsigned)(c - perf_cores);
    volatile uint32_t *te = &tmm[core]->te_control_register;
    uint32_t ctl = perf_rd32(te);
    *was_running = (ctl & (C_ACTIVE | C_ENABLE)) == (C_ACTIVE | C_ENABLE);
    if (*was_running) perf_wr32(te, ctl & ~(C_ENABLE | C_TRACING));
    perf_mh.te_running &= ~(1u << core);
    unsigned polls = 0;
    while (!(perf_rd32(te) & C_EMPTY))
        if (++polls == DRAIN_POLLS) return PERF_ERR_NO_TRACE;
    /* the funnel carries the other harts' messages too: it stops with the last encoder; until
     * then this encoder's messages are in the funnel on their way to the sink */
    if (perf.funnel && !perf_mh.te_running) {
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
    perf_mh.te_running |= 1u << (c - perf_cores);
    volatile uint32_t *te = &tmm[c - perf_cores]->te_control_register;
    uint32_t ctl = perf_rd32(te) | C_ACTIVE | C_ENABLE;
    perf_wr32(te, ctl);
    perf_wr32(te, ctl | C_TRACING);
}

/* every selected counter's current value as the previous one */
static void latch_counters(perf_core_t *c) {
    for (unsigned n = 0; n < PERF_MAX_CNTRS; n++) {
        if (!(c->mask & (1u << n))) continue;
        uint64_t v = read_counter_any(c, c->slot[n].key);
        c->slot[n].prev_lo = (uint32_t)v;
        c->slot[n].prev_hi = (uint32_t)(v >> 32);
    }
}

int perfTraceOn(void) {
    perf_core_t *c = this_core();
    if (!c) return PERF_ERR_NOT_INIT;
    unsigned h = (unsigned)(c - perf_cores);
    if (perf.recording[h]) return PERF_OK;
    perf_port_lock();
    if (c->paused) {
        resume(c);
        c->paused = 0;
    }
    if (!c->header_written) {
        write_header(c);
        c->header_written = 1;
        /* Delta counts from here; Raw and DeltaXOR start from 0 like the decoders */
        if (c->count_type == perfCount_Delta)
            latch_counters(c);
    }
    perf.recording[h] = c;
    perf_port_unlock();
    return PERF_OK;
}

int perfTraceOff(void) {
    perf_core_t *c = this_core();
    if (!c) return PERF_ERR_NOT_INIT;
    perf_port_lock();
    perf.recording[c - perf_cores] = NULL;
    int was_running, rc = drain(c, &was_running);
    if (was_running) c->paused = 1;
    perf_port_unlock();
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
    perf_port_lock();
    if (perf.funnel && (perf_mh.te_running & ~(1u << (c - perf_cores)))) {
        perf_port_unlock();
        return PERF_ERR_BUSY;              /* another hart still writes into the funnel's sink */
    }
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
    perf_port_unlock();
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
    /* a funnel named at build time may be absent from this SoC (tracesim run without
     * --funnel): its page is unmapped and the first access faults. The encoder's teImpl
     * says whether it has a funnel sink (hasFunnelSink, bit 8; readable in reset): probe
     * that first, never the funnel */
    if (num_funnels == 1) {
        unsigned core = perf_hartid();
        if (core >= (unsigned)num_cores || !tmm[core] || !(perf_rd32(&tmm[core]->te_impl_register) & IMPL_FUNNEL))
            return PERF_ERR_NO_TRACE;
    }
    memset(&perf, 0, sizeof perf);
    perf_mh.te_running = 0;                /* (memset would clear it byte by byte) */
    perf_mh.funnel_ready = 0;
    perf_mh.funnel_sba_req = perf_mh.sink_start = perf_mh.sink_size = 0;
    perf_mh.sba_buf = NULL;
    perf_port_lock_init();
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
#if defined(__riscv) && __riscv_xlen == 64
/* RV64: the counter is one 64-bit CSR (no `h` half) */
static unsigned probe_width(unsigned n) {
    perf_csr_write(0xB00 + n, ~(perf_reg_t)0);
    perf_reg_t v = perf_csr_read(0xB00 + n);
    perf_csr_write(0xB00 + n, 0);
    return width_of((uint32_t)v, (uint32_t)(v >> 32));
}
#else
static unsigned probe_width(unsigned n) {
    perf_csr_write(0xB00 + n, 0xFFFFFFFFu);
    perf_csr_write(0xB80 + n, 0xFFFFFFFFu);
    unsigned w = width_of(perf_csr_read(0xB00 + n), perf_csr_read(0xB80 + n));
    perf_csr_write(0xB00 + n, 0);
    perf_csr_write(0xB80 + n, 0);
    return w;
}
#endif

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
    c->fixed = 0;
    c->n_hpm = 0;
    int run = 1;                                            /* one run of wide hpm counters */
    for (uint32_t m = used; m; m &= m - 1) {
        unsigned idx = (unsigned)__builtin_ctz(m), w;
        perf_def_t *d = &c->def[c->n];
        *d = def_by_idx[idx];
        if (idx == TS_PW_COUNTER_TS) {
            w = ts_width;
            d->info = (w - 1u) << TS_PW_INFO_WIDTH_SHIFT;           /* not CSR-mapped: CSR field 0 */
        } else {
            if (idx >= 3) perf_csr_write(0x320 + idx, ev_by_idx[idx]);
            w = probe_width(idx);
            if (!w) { perf_csr_write(CSR_MCOUNTINHIBIT, inhibit); return PERF_ERR_UNSUPPORTED; }
            d->info = (w - 1u) << TS_PW_INFO_WIDTH_SHIFT | (0xC00u + idx);
        }
        /* the w-bit mask from 32-bit shifts: GCC 14 makes (1ull << w) - 1 a libgcc
           __ashldi3 call on RV32, which a payload linking this library after libgcc lacks */
        uint32_t wrap_lo = w >= 32 ? ~0u : (1u << w) - 1u;
        uint32_t wrap_hi = w >= 64 ? ~0u : w > 32 ? (1u << (w - 32u)) - 1u : 0u;
        uint64_t wrap = (uint64_t)wrap_hi << 32 | wrap_lo;
        perf_slot_t *sl = &c->slot[idx];                    /* see perf_slot_t */
        sl->key = idx == 1 ? PERF_KEY_TS : w >= 32 ? PERF_KEY_WIDE + idx : idx;
        sl->wrap = w >= 32 ? (uint32_t)(wrap >> 32) : (uint32_t)wrap;
        sl->prev_lo = sl->prev_hi = 0;
        if (idx == 1) c->ts_wrap = wrap;
        if (idx < 3) {
            c->fixed |= w >= 32 ? 1u << idx : FX_ANY;
        } else {
            if (c->n_hpm && idx != c->hpm_list[c->n_hpm - 1] + 1u) run = 0;
            if (w < 32) run = 0;
            c->hpm_list[c->n_hpm++] = (uint8_t)idx;
        }
        list[list_pos[idx]].ctrIdx = idx;
        list[list_pos[idx]].ctrInfo = d->info;
        c->n++;
    }
    c->hpm_run = -1;
    if (c->n_hpm && run) {
        c->hpm_run = (int8_t)(c->hpm_list[0] - 3);
        c->hpm_last = c->hpm_list[c->n_hpm - 1];
    }
    if ((c->fixed & FX_ANY) || (c->n_hpm && !run)) c->fixed |= FX_SLOW;
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

static int init_locked(int mode, perfEvent *list, int n, int ch, perfCountType_t type, uint32_t sba_size) {
    unsigned core = perf_hartid();
    if (core >= (unsigned)perf.num_cores) return PERF_ERR_CORE;
    perf_core_t *c = &perf_cores[core];
    if (perf.ready[core]) return PERF_ERR_INIT_TWICE;
    if (!list || n < 0 || ch < 0 || ch > 31 || (unsigned)type > perfCount_DeltaXOR) return PERF_ERR_ARG;
    if (n > PERF_MAX_CNTRS) return PERF_ERR_TOO_MANY;
    /* with the funnel, a later hart shares the sink the first init set up */
    int shared = perf.funnel && perf_mh.funnel_ready;
    if (shared && sba_size != perf_mh.funnel_sba_req) return PERF_ERR_ARG;
    volatile struct TraceRegMemMap *t = tmm[core];
    if (!t) return PERF_ERR_NO_TRACE;
    /* the ITC channel and the sink must exist (an encoder in reset ignores the probe) */
    perf_wr32(&t->te_control_register, perf_rd32(&t->te_control_register) | C_ACTIVE);
    perf_wr32(&t->itc_traceenable_register, 0xFFFFFFFFu);
    uint32_t itc = perf_rd32(&t->itc_traceenable_register);
    perf_wr32(&t->itc_traceenable_register, 0);
    if (perf.funnel && !(perf_rd32(&t->te_impl_register) & IMPL_FUNNEL)) return PERF_ERR_NO_TRACE;   /* before fmm */
    uint32_t impl = perf.funnel ? perf_rd32(&fmm->tf_impl_register) : perf_rd32(&t->te_impl_register);
    if (!((itc >> ch) & 1u) || !(impl & (sba_size ? IMPL_SBA : IMPL_SRAM))) return PERF_ERR_NO_TRACE;
    /* the SBA buffer: aligned to 32 bytes (any sink width up to 256 bits), whole words */
    size_t start = (perf.pool_used + 31u) & ~(size_t)31u, size = ((size_t)sba_size + 31u) & ~(size_t)31u;
    if (!shared && sba_size && (sba_size > PERF_MEM_POOL_SIZE || start + size > PERF_MEM_POOL_SIZE))
        return PERF_ERR_POOL;

    /* word by word (volatile, or GCC makes it a memset call again): picolibc's memset for
     * rv32im stores bytes, 4x the cycles */
    _Static_assert(sizeof *c % sizeof(uint32_t) == 0, "perf_core_t is whole words");
    for (volatile uint32_t *w = (volatile uint32_t *)c, *e = w + sizeof *c / sizeof *w; w != e; w++) *w = 0;
    int rc = setup_counters(c, core, list, n);
    if (rc) return rc;
    if (sba_size && !shared) {
        c->sba_buf = perf_pool + start;
        perf.pool_used = start + size;
    } else if (shared) {
        c->sba_buf = perf_mh.sba_buf;                         /* the funnel's one buffer */
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
        if (!shared) setup_funnel(sink, base, (uint32_t)size);
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
    if (shared) {                                          /* no size probe: WP is in use */
        c->sink_start = perf_mh.sink_start;
        c->sink_size = perf_mh.sink_size;
    } else {
        read_sink_bounds(c);
    }
    if (perf.funnel && !shared) {
        perf_mh.funnel_ready = 1;
        perf_mh.funnel_sba_req = sba_size;
        perf_mh.sba_buf = c->sba_buf;
        perf_mh.sink_start = c->sink_start;
        perf_mh.sink_size = c->sink_size;
    }
    c->stim = &t->itc_stimulus_register[ch].reg_size_32;
    c->count_type = (uint8_t)type;
    c->write1 = type == perfCount_Raw ? write_raw1 : type == perfCount_Delta ? write_delta1 : write_xor1;
    c->write2 = type == perfCount_Raw ? write_raw2 : type == perfCount_Delta ? write_delta2 : write_xor2;
    c->mode = (uint8_t)mode;
    perf_wr32(&t->te_control_register, perf_rd32(&t->te_control_register) | C_TRACING);
    perf_mh.te_running |= 1u << core;
    perf.ready[core] = 1;
    return PERF_OK;
}

static int init_common(int mode, perfEvent *list, int n, int ch, perfCountType_t type, uint32_t sba_size) {
    if (!perf.initialized) return PERF_ERR_NOT_INIT;      /* the lock exists from perfInit on */
    perf_port_lock();
    int rc = init_locked(mode, list, n, ch, type, sba_size);
    perf_port_unlock();
    return rc;
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
    case PERF_ERR_BUSY: return "another hart still records into the shared sink";
    default: return "unknown error";
    }
}
