/* hpm.c - HPM counter model; see hpm.h for what it models and its timing contract.
 *
 * mcounteren is stored here; the core keeps a copy and does the access checks it implies
 * (counter reads from S/U-mode, scountovf bits seen from S-mode).
 */
#include "hpm.h"
#include <stdio.h>
#include <string.h>

const hpm_event_info_t hpm_events[] = {
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) {#id, csv, desc, idx, cls, bit},
#include "hpm_events.def"
#undef TS_EVENT
};
const unsigned hpm_n_events = sizeof hpm_events / sizeof hpm_events[0];

enum { EV_CYCLE_BIT = 1u << 0,
       EV_RETIRE_BIT = 1u << 1 };

void hpm_default_cfg(hpm_cfg_t *cfg) {
    cfg->n_hpm = 29;
    cfg->width_cycle = 64;
    cfg->width_instret = 64;
    cfg->width_hpm = 40;
}

static uint64_t width_mask(unsigned w) { return w >= 64 ? ~0ull : ((1ull << w) - 1); }

int hpm_init(hpm_t *h, const hpm_cfg_t *cfg) {
    if (cfg->n_hpm > 29 || cfg->width_cycle < 1 || cfg->width_cycle > 64 ||
        cfg->width_instret < 1 || cfg->width_instret > 64 ||
        cfg->width_hpm < 1 || cfg->width_hpm > 64)
        return -1;
    memset(h, 0, sizeof *h);
    h->cfg = *cfg;
    h->implemented = 0x7u;
    for (unsigned i = 0; i < cfg->n_hpm; i++) h->implemented |= 1u << (3 + i);
    for (unsigned i = 0; i < HPM_MAX_COUNTERS; i++) {
        unsigned w = i == 0 ? cfg->width_cycle : i == 2                ? cfg->width_instret :
                                             (h->implemented >> i) & 1 ? cfg->width_hpm :
                                                                         0;
        h->mask[i] = (i == 1 || w == 0) ? 0 : width_mask(w);
    }
    hpm_reset(h);
    return 0;
}

/* counters that can change in a tick: implemented, not inhibited, selecting some event */
static void update_active(hpm_t *h) {
    uint32_t selecting = 0;
    for (unsigned i = 0; i < HPM_MAX_COUNTERS; i++)
        if (h->sel[i]) selecting |= 1u << i;
    h->active = h->implemented & ~h->inhibit & ~0x2u & selecting;
}

/* after a tick: can the next one be quiet (hpm.h)? */
static void update_quiet(hpm_t *h) {
    h->quiet = !h->written && h->priv == h->priv_next && !h->lcof &&
               !(h->active & ~h->inh[h->priv] & ~7u) && h->mask[0] == ~0ull && h->mask[2] == ~0ull;
    /* sel[0] and sel[2] are the cycle and retire bits, 0 and 1 (hpm_reset) */
    h->quiet_cycle = h->active & 1u;
    h->quiet_retire = (h->active >> 2) & 1u;
}

void hpm_tick_any(hpm_t *h, uint64_t ev) {
    hpm_tick_all(h, ev);
    update_quiet(h);
}

void hpm_reset(hpm_t *h) {
    memset(h->ctr, 0, sizeof h->ctr);
    memset(h->event, 0, sizeof h->event);
    memset(h->sel, 0, sizeof h->sel);
    h->sel[0] = EV_CYCLE_BIT;
    h->sel[2] = EV_RETIRE_BIT;
    h->inhibit = 0;
    h->counteren = 0;
    h->written = 0;
    h->time = 0;
    h->ofl = 0;
    memset(h->inh, 0, sizeof h->inh);
    memset(h->evh, 0, sizeof h->evh);
    h->priv = h->priv_next = 3;
    h->lcof = 0;
    update_active(h);
    h->quiet = 0;
}

uint64_t hpm_event_select(uint32_t mhpmevent) {
    uint32_t cls = mhpmevent & 0xFF;
    uint64_t sel = 0;
    for (unsigned i = 0; i < hpm_n_events; i++) {
        const hpm_event_info_t *e = &hpm_events[i];
        if (e->cls >= 0 && (uint32_t)e->cls == cls && ((mhpmevent >> e->bit) & 1))
            sel |= 1ull << e->index;
    }
    return sel;
}

void hpm_event_names(uint32_t mhpmevent, char *buf, unsigned len) {
    uint64_t sel = hpm_event_select(mhpmevent);
    unsigned n = 0;
    if (len) buf[0] = 0;
    for (unsigned i = 0; i < hpm_n_events && len; i++) {
        if (!((sel >> hpm_events[i].index) & 1)) continue;
        int w = snprintf(buf + n, len - n, "%s%s", n ? "|" : "", hpm_events[i].csv);
        if (w < 0 || (unsigned)w >= len - n) break;
        n += (unsigned)w;
    }
    if (!n && len > 1) snprintf(buf, len, "-");
}

uint64_t hpm_counter(const hpm_t *h, unsigned n) {
    if (n == 1) return h->time;
    return n < HPM_MAX_COUNTERS ? h->ctr[n] : 0;
}

unsigned hpm_width(const hpm_t *h, unsigned n) {
    if (n == 1) return 64;
    if (n >= HPM_MAX_COUNTERS || !((h->implemented >> n) & 1)) return 0;
    unsigned w = 0;
    for (uint64_t m = h->mask[n]; m; m >>= 1) w++;
    return w;
}

/* counter number for a counter CSR address, or -1; *hi set for the upper half */
static int counter_of(unsigned csr, bool *hi, bool *user) {
    unsigned base = csr & 0xF7F; /* fold the high-half bit (0x080) */
    *hi = (csr & 0x080) != 0;
    if (base >= 0xB00 && base <= 0xB1F && base != 0xB01) {
        *user = false;
        return (int)(base - 0xB00);
    }
    if (base >= 0xC00 && base <= 0xC1F) {
        *user = true;
        return (int)(base - 0xC00);
    }
    return -1;
}

bool hpm_csr_read(const hpm_t *h, unsigned csr, uint32_t *val) {
    bool hi, user;
    int n = counter_of(csr, &hi, &user);
    if (n >= 0) {
        uint64_t v = ((h->implemented >> n) & 1) ? hpm_counter(h, (unsigned)n) : 0;
        *val = hi ? (uint32_t)(v >> 32) : (uint32_t)v;
        return true;
    }
    if (csr == 0x306) {
        *val = h->counteren;
        return true;
    }
    if (csr == 0x320) {
        *val = h->inhibit;
        return true;
    }
    if (csr >= 0x323 && csr <= 0x33F) {
        *val = h->event[csr - 0x320];
        return true;
    }
    if (csr >= 0x723 && csr <= 0x73F) {
        unsigned i = csr - 0x720;
        *val = ((uint32_t)h->evh[i] << 28) | (((h->ofl >> i) & 1u) << 31);
        return true;
    }
    if (csr == 0xDA0) {
        *val = h->ofl;
        return true;
    }
    return false;
}

/* inhibit masks per mode from the xINH bits */
static void update_inhibit(hpm_t *h) {
    memset(h->inh, 0, sizeof h->inh);
    for (unsigned i = 3; i < HPM_MAX_COUNTERS; i++) {
        if (h->evh[i] & 4) h->inh[3] |= 1u << i; /* MINH */
        if (h->evh[i] & 2) h->inh[1] |= 1u << i; /* SINH */
        if (h->evh[i] & 1) h->inh[0] |= 1u << i; /* UINH */
    }
}

bool hpm_csr_write(hpm_t *h, unsigned csr, uint32_t val) {
    bool hi, user;
    h->quiet = 0; /* whatever it changes: the next tick looks at everything */
    int n = counter_of(csr, &hi, &user);
    if (n >= 0) {
        if (user || n == 1 || !((h->implemented >> n) & 1)) return true; /* read-only / WARL */
        uint64_t v = h->ctr[n];
        v = hi ? ((uint64_t)val << 32) | (v & 0xFFFFFFFFull) : (v & 0xFFFFFFFF00000000ull) | val;
        h->ctr[n] = v & h->mask[n];
        h->written |= 1u << n;
        return true;
    }
    if (csr == 0x306) {
        h->counteren = val & h->implemented;
        return true;
    }
    if (csr == 0x320) {
        h->inhibit = val & h->implemented & ~0x2u;
        update_active(h);
        return true;
    }
    if (csr >= 0x323 && csr <= 0x33F) {
        unsigned i = csr - 0x320;
        if ((h->implemented >> i) & 1) {
            h->event[i] = val;
            h->sel[i] = hpm_event_select(val);
            update_active(h);
        }
        return true;
    }
    if (csr >= 0x723 && csr <= 0x73F) {
        unsigned i = csr - 0x720;
        if ((h->implemented >> i) & 1) {
            h->evh[i] = (uint8_t)((val >> 28) & 7u); /* MINH, SINH, UINH */
            h->ofl = (h->ofl & ~(1u << i)) | ((val >> 31) << i);
            update_inhibit(h);
        }
        return true;
    }
    if (csr == 0xDA0) return true; /* read-only */
    return false;
}

void hpm_tick_held(hpm_t *h, uint64_t ev) {
    uint8_t lcof = h->lcof;
    hpm_tick(h, ev | EV_CYCLE_BIT);
    if (lcof) {
        h->lcof = 1;
        h->quiet = 0;
    } /* the request of the last cycle the hart ran stays up */
}
