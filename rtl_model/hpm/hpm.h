/* hpm.h - hardware performance monitor (Zicntr/Zihpm counters) of one hart.
 *
 * Models mcycle, minstret, mhpmcounter3..31 with per-counter widths and wrap, mhpmevent3..31
 * with SiFive's class/mask event selection, mcountinhibit, mcounteren and the user aliases
 * cycle/time/instret/hpmcounterN with their RV32 high halves. The core reaches every one of
 * these CSRs through DPI-C (sim/dpi.c); the simulator ticks the model once per core cycle with
 * the core's event vector (rtl_model/regs/hpm_events.def).
 *
 * Sscofpmf (RV32): mhpmevent3h..31h (0x723-0x73F) hold OF (bit 31), MINH (30), SINH (29),
 * UINH (28); VSINH/VUINH (27/26) and the event bits 25:0 read 0 (no H extension, no events
 * above bit 31). A programmable counter does not count in a cycle spent in a mode its xINH
 * bit inhibits (the mode comes from the core through hpm_set_priv). When a programmable
 * counter wraps to 0 by counting, its OF bit is set and, if OF was clear, `lcof` is 1 after
 * that tick (the one-cycle local counter overflow request the core turns into mip.LCOFIP);
 * scountovf (0xDA0) reads the OF bits. mcycle and minstret have no OF or xINH bits.
 *
 * Timing contract: a CSR read or write issued by the instruction that commits in cycle c
 * happens before the tick that applies the events of cycle c. A counter written in cycle c
 * does not also count the events of cycle c (the written value is what the next cycle sees
 * as its start). Unimplemented counters (index >= 3 + n_hpm) read 0 and ignore writes, so
 * software can find them by writing all ones and reading back.
 */
#ifndef TS_HPM_H
#define TS_HPM_H
#include <stdint.h>
#include <stdbool.h>

#define HPM_MAX_COUNTERS 32

typedef struct hpm_cfg {
    unsigned n_hpm;         /* programmable counters 3..(3+n_hpm-1); 0..29, default 29 */
    unsigned width_cycle;   /* 1..64, default 64 */
    unsigned width_instret; /* 1..64, default 64 */
    unsigned width_hpm;     /* 1..64, default 40 */
} hpm_cfg_t;

typedef struct hpm {
    hpm_cfg_t cfg;
    uint64_t ctr[HPM_MAX_COUNTERS];
    uint64_t mask[HPM_MAX_COUNTERS];    /* 2^width - 1 */
    uint32_t event[HPM_MAX_COUNTERS];   /* mhpmeventN as written (WARL: implemented only) */
    uint64_t sel[HPM_MAX_COUNTERS];     /* event-vector bits selected by event[] */
    uint32_t implemented;               /* bit n: counter n exists (bit 1 = time) */
    uint32_t inhibit;                   /* mcountinhibit */
    uint32_t counteren;                 /* mcounteren */
    uint32_t written;                   /* counters written since the last tick */
    uint32_t active;                    /* counters that may count: implemented & !inhibit */
    uint64_t time;                      /* CLINT mtime, pushed by the simulator */
    uint32_t ofl;                       /* OF bits (scountovf) */
    uint32_t inh[4];                    /* counters inhibited in mode U, S, -, M (xINH) */
    uint8_t evh[HPM_MAX_COUNTERS];      /* mhpmeventNh bits 31:28 (OF excluded: in ofl) */
    uint8_t priv;                       /* mode of the cycle the next tick counts */
    uint8_t priv_next;                  /* mode from the cycle after that on */
    uint8_t lcof;                       /* the last tick overflowed a counter with OF clear */
    uint8_t quiet;                      /* the next tick can change only mcycle and minstret:
                                           * nothing written since the last tick, no mode change
                                           * due, lcof clear, no programmable counter that may
                                           * count in this mode, mcycle and minstret 64 bits
                                           * wide (cleared by every change) */
    uint64_t quiet_cycle, quiet_retire; /* while quiet: the ev bits mcycle and minstret count
                                           * (0 when inhibited) */
} hpm_t;

/* Fills *cfg with the defaults (29 counters, widths 64/64/40). */
void hpm_default_cfg(hpm_cfg_t *cfg);
/* Returns 0, or -1 if cfg is out of range (a wiring error: fail at init). */
int hpm_init(hpm_t *h, const hpm_cfg_t *cfg);
void hpm_reset(hpm_t *h);
/* CSR access by 12-bit address. Returns false for an address that is not a counter CSR. */
bool hpm_csr_read(const hpm_t *h, unsigned csr, uint32_t *val);
bool hpm_csr_write(hpm_t *h, unsigned csr, uint32_t val);
/* hpm_tick()'s general case */
void hpm_tick_any(hpm_t *h, uint64_t ev);
/* One core cycle: ev is the core's event vector for that cycle. Inline: it runs every
 * simulated cycle. mcycle (0) and minstret (2) select fixed events (sel[0], sel[2]: the
 * cycle and retire bits) and have no OF bit or mode filter; in a quiet tick they are all
 * that can count. */
static inline __attribute__((always_inline)) void hpm_tick(hpm_t *h, uint64_t ev) {
    if (__builtin_expect(h->quiet, 1)) {
        h->ctr[0] += ev & h->quiet_cycle;
        h->ctr[2] += (ev >> 1) & h->quiet_retire;
        return;
    }
    hpm_tick_any(h, ev);
}
/* the body of hpm_tick_any(); inline for hpm.c */
static inline void hpm_tick_all(hpm_t *h, uint64_t ev) {
    uint32_t act = h->active & ~h->written & ~h->inh[h->priv];
    h->written = 0;
    h->priv = h->priv_next;
    h->lcof = 0;
    if ((act & 1u) && (ev & h->sel[0])) h->ctr[0] = (h->ctr[0] + 1) & h->mask[0];
    if ((act & 4u) && (ev & h->sel[2])) h->ctr[2] = (h->ctr[2] + 1) & h->mask[2];
    for (act &= ~7u; act; act &= act - 1) {
        unsigned i = (unsigned)__builtin_ctz(act);
        if (ev & h->sel[i]) {
            uint64_t v = (h->ctr[i] + 1) & h->mask[i];
            h->ctr[i] = v;
            if (__builtin_expect(!v, 0) && !((h->ofl >> i) & 1)) {
                h->ofl |= 1u << i;
                h->lcof = 1;
            }
        }
    }
}
/* A cycle the hart was held (its clock edge skipped: the trace encoder's stall request,
 * teStallEnable): the cycle event and ev (the SoC-side events of that cycle, usually none)
 * count, so mcycle counts and minstret does not; a pending counter-overflow request (lcof)
 * stays up for the cycle the hart runs again. */
void hpm_tick_held(hpm_t *h, uint64_t ev);
static inline void hpm_set_time(hpm_t *h, uint64_t mtime) { h->time = mtime; }
/* The core's privilege mode (0 U, 1 S, 3 M) changes at the end of the cycle the next tick
 * counts: that tick still counts in the old mode, the ones after it in `priv`. */
static inline void hpm_set_priv(hpm_t *h, unsigned priv) {
    h->priv_next = (uint8_t)(priv & 3);
    h->quiet = 0;
}
/* 64-bit value of counter n (0..31; 1 = time) */
uint64_t hpm_counter(const hpm_t *h, unsigned n);
/* Width in bits of counter n (0 if not implemented). */
unsigned hpm_width(const hpm_t *h, unsigned n);

/* Event table lookups (from hpm_events.def) */
typedef struct hpm_event_info {
    const char *id, *csv, *desc;
    int index, cls, bit;
} hpm_event_info_t;
extern const hpm_event_info_t hpm_events[];
extern const unsigned hpm_n_events;
/* Event-vector bits selected by an mhpmevent value (class in 7:0, mask in 31:8). */
uint64_t hpm_event_select(uint32_t mhpmevent);
/* Writes the CSV names of the events mhpmevent selects, joined by '|' ("-" for none). */
void hpm_event_names(uint32_t mhpmevent, char *buf, unsigned len);

#endif
