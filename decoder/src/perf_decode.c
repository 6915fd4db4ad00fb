/* perf_decode.c - SiFive perf protocol decoder; see perf_decode.h. */
#include "perf_decode.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *perf_record_name(enum perf_record_type t) {
    switch (t) {
    case PERF_FUNC_ENTER: return "enter";
    case PERF_FUNC_EXIT: return "exit";
    case PERF_MANUAL: return "manual";
    default: return "isr";
    }
}

/* OpenSBI event names (SBI PMU extension; the table rtl_model/regs/sbi_events.def lists
 * them with this platform's mapping, the names are the standard's) */
static const struct {
    unsigned type, code;
    const char *name;
} sbi_names[] = {
#define TS_SBI_GENERAL(code, name, counter, ev) {0, code, #name},
#define TS_SBI_CACHE(cache, op, result, name, ev) {1, (cache) << 3 | (op) << 1 | (result), #name},
#include "sbi_events.def"
};

void perf_counter_name(const perf_counter_def_t *d, char *buf, size_t len) {
    if (d->index == TS_PW_COUNTER_TS) {
        snprintf(buf, len, "timestamp");
        return;
    }
    if (d->type == TS_PW_EV_HW_GENERAL && d->code == 1) {
        snprintf(buf, len, "cycles");
        return;
    }
    if (d->type == TS_PW_EV_HW_GENERAL && d->code == 2) {
        snprintf(buf, len, "instructions");
        return;
    }
    if (d->type == TS_PW_EV_HW_RAW) {
        snprintf(buf, len, "raw_0x%" PRIx64, d->event_data);
        return;
    }
    for (size_t i = 0; i < sizeof sbi_names / sizeof sbi_names[0]; i++)
        if (sbi_names[i].type == d->type && sbi_names[i].code == d->code) {
            size_t k = 0;
            for (; sbi_names[i].name[k] && k + 1 < len; k++) {
                char c = sbi_names[i].name[k];
                buf[k] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
            }
            if (len) buf[k] = 0;
            return;
        }
    snprintf(buf, len, "type%u_code%u", d->type, d->code);
}

void perf_dec_init(perf_dec_t *d, unsigned channel, const perf_dec_cb_t *cb) {
    memset(d, 0, sizeof *d);
    d->channel = channel;
    d->marker = TS_PW_MARKER;
    d->cb = *cb;
}

static void error(perf_dec_t *d, unsigned core, uint64_t off, const char *what) {
    d->errors++;
    if (d->cb.error) d->cb.error(d->cb.ctx, core, off, what);
}

static void warning(perf_dec_t *d, unsigned core, uint64_t off) {
    d->warnings++;
    if (d->cb.error) d->cb.error(d->cb.ctx, core, off, d->msg);
}

static uint64_t wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

typedef struct sw {
    bool tics_valid;
    uint64_t tics, offset;
} sw_t;

/* completes the next counter of the current record with the received value v; tv/tics: the
 * time of the message that completed it */
static void add_value(perf_core_t *c, uint64_t v, bool tv, uint64_t tics) {
    perf_record_t *r = &c->r;
    if (r->n >= c->h.n) return;
    const perf_counter_def_t *def = &c->h.def[r->n];
    unsigned idx = def->index % PERF_MAX_COUNTERS;
    uint64_t prev = c->prev[idx], abs;
    /* after a gap (see perf_decode.h): what the lost records carried is unknown */
    bool vu = false, du = false;
    switch (c->h.count_type) {
    case PERF_DELTA:
        abs = (prev + v) & wmask(def->width);
        vu = c->lost;
        break;
    case PERF_DELTA_XOR:
        abs = prev ^ v;
        vu = du = c->lost;
        break;
    default:
        abs = v;
        du = !(c->prev_known >> idx & 1);
        break;
    }
    uint32_t bit = 1u << r->n;
    r->index[r->n] = def->index;
    r->raw[r->n] = v;
    r->value[r->n] = vu ? 0 : abs;
    r->delta[r->n] = du ? 0 : (abs - prev) & wmask(def->width);
    if (vu) r->value_unknown |= bit;
    if (du) r->delta_unknown |= bit;
    r->vtics_valid[r->n] = tv;
    r->vtics[r->n] = tv ? tics : 0;
    c->prev[idx] = abs;
    c->prev_known |= 1u << idx;
    r->n++;
}

/* every part of the current record arrived */
static bool complete(const perf_core_t *c) {
    const perf_record_t *r = &c->r;
    bool two = r->type == PERF_FUNC_ENTER || r->type == PERF_FUNC_EXIT;
    return r->n == c->h.n && c->got_addrs == (two ? 2u : 1u);
}

static void emit_record(perf_dec_t *d, perf_core_t *c, bool truncated) {
    c->r.truncated = truncated;
    d->records++;
    if (d->cb.record) d->cb.record(d->cb.ctx, &c->r);
    c->in_record = false;
}

/* the pending low word is a whole value: take it, with the time of the message m that
 * showed it is whole (NULL: nothing followed it, its own time) */
static void flush_low(perf_core_t *c, const sw_t *m) {
    if (!c->pending_low) return;
    if (m) add_value(c, c->low, m->tics_valid, m->tics);
    else
        add_value(c, c->low, c->low_tics_valid, c->low_tics);
    c->pending_low = c->low_off = false;
}

static void start_header(perf_dec_t *d, perf_core_t *c, unsigned core, const sw_t *m) {
    if (c->in_record) {
        flush_low(c, m);
        emit_record(d, c, !complete(c));
    }
    memset(&c->h, 0, sizeof c->h);
    c->h.core = core;
    c->h.tics_valid = m->tics_valid;
    c->h.tics = m->tics;
    c->st = PS_COUNT_TYPE;
    c->prev_addr = 0;
    c->pending_low = false;
    memset(c->prev, 0, sizeof c->prev);
    c->prev_known = ~0u;                /* every counter starts from 0 (Delta: the latch) */
    c->lost = false;                    /* c->gap stays: the next record follows lost data, */
    if (c->cfg_pending) c->gap = false; /* unless nothing was decoded before this header */
    c->cfg_pending = false;
}

static bool same_header(const perf_header_t *a, const perf_header_t *b) {
    if (a->count_type != b->count_type || a->mask != b->mask || a->n != b->n) return false;
    for (unsigned i = 0; i < a->n && i < PERF_MAX_COUNTERS; i++) {
        const perf_counter_def_t *x = &a->def[i], *y = &b->def[i];
        if (x->index != y->index || x->type != y->type || x->info != y->info ||
            (x->type == 2 ? x->event_data != y->event_data : x->code != y->code))
            return false;
    }
    return true;
}

/* a complete header arrived */
static void header_done(perf_dec_t *d, perf_core_t *c, unsigned core, const sw_t *m) {
    if (c->cfg_used && !same_header(&c->h, &c->cfg)) {
        snprintf(d->msg, sizeof d->msg, "warning: the trace's perf header differs from the out-of-band "
                                        "configuration (--perf-config) that decoded the records before it");
        warning(d, core, m->offset);
    }
    c->cfg_used = false;
    d->headers++;
    if (d->cb.header) d->cb.header(d->cb.ctx, &c->h);
}

static void feed(perf_dec_t *d, unsigned src, unsigned size, uint64_t v, const sw_t *m) {
    unsigned core = src % PERF_MAX_CORES;
    perf_core_t *c = &d->core[core];

    /* the marker starts a header where a header can start: before any, or where a record
     * could start (the trace was switched off and on); elsewhere it is data */
    if (size == TS_PW_BYTES_HEADER_MARKER && v == d->marker && (c->st == PS_SYNC || c->st == PS_REC_TYPE || c->st == PS_RESYNC)) {
        start_header(d, c, core, m);
        return;
    }
    switch (c->st) {
    case PS_SYNC:
        return;
    case PS_RESYNC: /* after a gap: the next record type */
        if (size != TS_PW_BYTES_RECORD_TYPE || v >= TS_PW_RECORD_TYPES) return;
        if (c->cfg_pending) { /* the out-of-band header is used now */
            c->cfg_pending = false;
            c->cfg_used = true;
            d->config_used++;
            if (d->cb.header) d->cb.header(d->cb.ctx, &c->h);
        }
        c->st = PS_REC_TYPE;
        break;
    case PS_COUNT_TYPE:
        if (size != TS_PW_BYTES_HEADER_COUNT_TYPE || v >= TS_PW_COUNT_TYPES) {
            error(d, core, m->offset, "count type is not an 8-bit 0..2");
            c->st = PS_SYNC;
            return;
        }
        c->h.count_type = (enum perf_count_type)v;
        c->st = PS_MASK;
        return;
    case PS_MASK:
        if (size != TS_PW_BYTES_HEADER_MASK) {
            error(d, core, m->offset, "counter mask is not a 32-bit store");
            c->st = PS_SYNC;
            return;
        }
        c->h.mask = (uint32_t)v;
        c->h.mask_tics_valid = m->tics_valid;
        c->h.mask_tics = m->tics;
        c->h.n = 0;
        for (unsigned i = 0; i < TS_PW_MAX_COUNTERS; i++)
            if ((v >> i) & 1) c->h.def[c->h.n++].index = i;
        c->def_i = 0;
        c->st = c->h.n ? PS_DEF_TYPE : PS_REC_TYPE;
        if (!c->h.n) header_done(d, c, core, m);
        return;
    default:
        break;
    }
    perf_counter_def_t *def = &c->h.def[c->def_i];
    switch (c->st) {
    case PS_DEF_TYPE:
        if (size != TS_PW_BYTES_DEF_TYPE || v > TS_PW_EV_HW_RAW) {
            error(d, core, m->offset, "counter definition has an unknown event type");
            c->st = PS_SYNC;
            return;
        }
        def->type = (unsigned)v;
        c->st = v == TS_PW_EV_HW_RAW ? PS_DEF_ED_LO : PS_DEF_CODE;
        return;
    case PS_DEF_CODE:
        def->code = (uint32_t)v;
        c->st = PS_DEF_INFO;
        return;
    case PS_DEF_ED_LO:
        def->event_data = (uint32_t)v;
        c->st = PS_DEF_ED_HI;
        return;
    case PS_DEF_ED_HI:
        def->event_data |= v << 32;
        c->st = PS_DEF_INFO;
        return;
    case PS_DEF_INFO:
        def->info = (uint32_t)v;
        def->width = ((def->info >> TS_PW_INFO_WIDTH_SHIFT) & TS_PW_INFO_WIDTH_MASK) + 1;
        def->tics_valid = m->tics_valid;
        def->tics = m->tics;
        if (def->width == 1) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter %u has a width of 1 bit "
                                            "(counter_info 0x%08x)",
                     def->index, def->info);
            warning(d, core, m->offset);
        }
        if ((def->info & TS_PW_INFO_CSR_MASK) == 0 && def->index != TS_PW_COUNTER_TS) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter %u has CSR 0 "
                                            "(only counter 1, the timestamp, has none; counter_info 0x%08x)",
                     def->index, def->info);
            warning(d, core, m->offset);
        } else if (def->index != TS_PW_COUNTER_TS && (((def->info & 0xF60u) != 0xC00u && (def->info & 0xF60u) != 0xB00u) ||
                                                      (def->info & 0x1Fu) != def->index)) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter %u names CSR 0x%03x, which is not "
                                            "counter %u's (0xc%02x)",
                     def->index, def->info & 0xFFFu, def->index, def->index);
            warning(d, core, m->offset);
        }
        if (def->type == TS_PW_EV_HW_GENERAL && def->code == 0) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter %u is a general event with code 0, "
                                            "which names no event",
                     def->index);
            warning(d, core, m->offset);
        } else if (def->type == TS_PW_EV_HW_RAW && def->event_data == 0) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter %u is a raw event with event data 0, "
                                            "which counts nothing",
                     def->index);
            warning(d, core, m->offset);
        } else if (def->index == TS_PW_COUNTER_TS && (def->type != TS_PW_EV_HW_GENERAL || def->code != 0x80)) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter 1 (the timestamp) is defined as type %u "
                                            "code 0x%x, not the timestamp (type 0, code 0x80)",
                     def->type, def->code);
            warning(d, core, m->offset);
        }
        if (++c->def_i == c->h.n) {
            c->st = PS_REC_TYPE;
            header_done(d, c, core, m);
        } else {
            c->st = PS_DEF_TYPE;
        }
        return;
    case PS_COUNTERS:
        if (size == TS_PW_BYTES_RECORD_VALUE_HI && c->pending_low && c->low_off) { /* its parts straddle a trace-off */
            perf_dec_gap(d, core, m->offset, "a trace-off between a counter value's low word and its high part");
            return; /* the high part is not used */
        }
        c->low_off = false;
        if (size == TS_PW_BYTES_RECORD_VALUE_HI && c->pending_low) { /* bits 47:32 of the pending value */
            add_value(c, (v & ((1u << TS_PW_VALUE_HI_BITS) - 1)) << 32 | c->low, m->tics_valid, m->tics);
            c->pending_low = false;
            if (c->r.n == c->h.n) {
                c->st = PS_REC_TYPE;
                emit_record(d, c, false);
            }
            return;
        }
        if (size == TS_PW_BYTES_RECORD_VALUE) {
            flush_low(c, m);
            if (c->r.n == c->h.n) {
                emit_record(d, c, false);
                c->st = PS_REC_TYPE;
                if (v == d->marker) {
                    start_header(d, c, core, m);
                    return;
                }
                error(d, core, m->offset, "more counter values than the mask has");
                c->st = PS_SYNC;
                return;
            }
            c->low = (uint32_t)v;
            c->low_tics_valid = m->tics_valid;
            c->low_tics = m->tics;
            c->pending_low = true;
            return;
        }
        if (size == TS_PW_BYTES_RECORD_TYPE) { /* the next record starts */
            flush_low(c, m);
            if (c->r.n != c->h.n) error(d, core, m->offset, "record with fewer counter values than the mask");
            emit_record(d, c, c->r.n != c->h.n);
            c->st = PS_REC_TYPE;
            break; /* handled below as a record type */
        }
        error(d, core, m->offset, "unexpected store size in the counter values");
        c->st = PS_SYNC;
        return;
    default:
        break;
    }
    switch (c->st) {
    case PS_REC_TYPE:
        if (size != TS_PW_BYTES_RECORD_TYPE || v >= TS_PW_RECORD_TYPES) {
            error(d, core, m->offset, "record does not start with an 8-bit record type");
            c->st = PS_SYNC;
            return;
        }
        memset(&c->r, 0, sizeof c->r);
        c->r.core = core;
        c->r.type = (enum perf_record_type)v;
        c->r.tics_valid = m->tics_valid;
        c->r.tics = m->tics;
        c->r.offset = m->offset;
        c->r.gap_before = c->gap;
        c->gap = false;
        c->in_record = true;
        c->addr_i = 0;
        c->got_addrs = 0;
        c->st = PS_ADDR;
        return;
    case PS_ADDR:
    case PS_ADDR_HI: {
        if (size != TS_PW_BYTES_RECORD_ADDR) {
            error(d, core, m->offset, "address is not a 32-bit store");
            c->in_record = false;
            c->st = PS_SYNC;
            return;
        }
        uint64_t a, wire;
        if (c->st == PS_ADDR) {
            if (v & TS_PW_ADDR_HI) {
                c->addr_lo = v & ~(uint64_t)TS_PW_ADDR_HI;
                c->st = PS_ADDR_HI;
                return;
            }
            a = v;
        } else {
            a = c->addr_lo | v << 32;
        }
        wire = a;
        if (c->h.count_type == PERF_DELTA_XOR) { a ^= c->prev_addr; }
        c->prev_addr = a;
        /* DeltaXOR after a gap: XORed into an address that was lost */
        bool unknown = c->lost && c->h.count_type == PERF_DELTA_XOR;
        if (unknown) {
            c->r.addr_unknown = true;
            a = 0;
        }
        if (c->addr_i == 0) {
            c->r.addr = a;
            c->r.has_addr = !unknown;
            c->r.addr_wire = wire;
        } else {
            c->r.call_site = a;
            c->r.has_call_site = !unknown;
            c->r.call_site_wire = wire;
        }
        c->got_addrs++;
        bool two = c->r.type == PERF_FUNC_ENTER || c->r.type == PERF_FUNC_EXIT;
        if (two && c->addr_i == 0) {
            c->addr_i = 1;
            c->st = PS_ADDR;
            return;
        }
        c->r.addr_tics_valid = m->tics_valid;
        c->r.addr_tics = m->tics;
        c->st = PS_COUNTERS;
        if (!c->h.n) {
            c->st = PS_REC_TYPE;
            emit_record(d, c, false);
        }
        return;
    }
    default:
        return;
    }
}

#define GAP_OVERFLOW "ITC FIFO overflow (Error message): perf data lost"
#define GAP_CORRUPT "a corrupt message: perf data may be lost"

static void gap_all(perf_dec_t *d, uint64_t offset) {
    for (unsigned i = 0; i < PERF_MAX_CORES; i++) perf_dec_gap(d, i, offset, GAP_CORRUPT);
}

void perf_dec_feed_elem(perf_dec_t *d, const ts_elem_t *e) {
    if (e->type == TS_ELEM_TRUNCATED) {
        d->cut = true;
        return;
    }
    if (e->type == TS_ELEM_EOT || e->type == TS_ELEM_NO_SYNC) return;
    d->cut = false; /* a whole message came after it */
    if (e->type == TS_ELEM_OVERFLOW) {
        perf_dec_gap(d, e->src, e->offset, GAP_OVERFLOW);
        return;
    }
    if (e->type == TS_ELEM_TRACE_OFF) {
        perf_dec_trace_off(d, e->src);
        return;
    }
    if (e->type == TS_ELEM_CORRUPT && e->msg && e->msg->status == NXD_BAD) {
        gap_all(d, e->offset);
        return;
    }
    if (e->type != TS_ELEM_SWTRACE || e->u.sw.channel != d->channel) return;
    sw_t m = {e->has_time, e->time, e->offset};
    feed(d, e->src, e->u.sw.size, e->u.sw.value, &m);
}

void perf_dec_feed(perf_dec_t *d, const nxd_msg_t *m) {
    if (m->status == NXD_TRUNCATED) {
        d->cut = true;
        return;
    }
    d->cut = false;
    if (m->status == NXD_BAD) {
        gap_all(d, m->offset);
        return;
    }
    if (m->tcode == NX_ERROR) {
        perf_dec_gap(d, m->src, m->offset, GAP_OVERFLOW);
        return;
    }
    if ((m->tcode == NX_CORRELATION && m->f[NXF_EVCODE] == NX_EVCODE_TRACE_OFF) ||
        ((m->tcode == NX_ICT || m->tcode == NX_ICT_WS) && m->f[NXF_CKSRC] == NX_CKSRC_CONTROL && m->f[NXF_CONTROL] == NX_CONTROL_TRACE_OFF)) {
        perf_dec_trace_off(d, m->src);
        return;
    }
    if (m->tcode != NX_DATA_ACQ) return;
    uint64_t tag = m->f[NXF_IDTAG];
    if (tag < 4u * d->channel || tag > 4u * d->channel + 3) return;
    unsigned kind = (unsigned)(tag & 3);
    sw_t s = {m->tics_valid, m->tics, m->offset};
    feed(d, m->src, kind == 3 ? 1 : kind == 2 ? 2 :
                                                4,
         m->f[NXF_DATA], &s);
}

void perf_dec_finish(perf_dec_t *d) {
    for (unsigned i = 0; i < PERF_MAX_CORES; i++) {
        perf_core_t *c = &d->core[i];
        if (!c->in_record) continue;
        if (d->cut || d->ended_early) c->pending_low = false; /* its high part may have been cut off */
        flush_low(c, NULL);
        emit_record(d, c, !complete(c));
    }
}

void perf_dec_ended_early(perf_dec_t *d) { d->ended_early = true; }

void perf_dec_trace_off(perf_dec_t *d, unsigned src) {
    perf_core_t *c = &d->core[src % PERF_MAX_CORES];
    if (c->pending_low) c->low_off = true;
}

void perf_dec_gap(perf_dec_t *d, unsigned core, uint64_t offset, const char *why) {
    core %= PERF_MAX_CORES;
    perf_core_t *c = &d->core[core];
    if (c->st == PS_SYNC) return; /* no header: nothing to lose */
    d->gaps++;
    if (c->st >= PS_COUNT_TYPE && c->st <= PS_DEF_INFO) {
        c->st = PS_SYNC; /* records until the next header are lost */
        c->gap = true;
        snprintf(d->msg, sizeof d->msg, "gap: %s, in the middle of a perf header: records are "
                                        "ignored until the next header",
                 why);
    } else {
        if (c->in_record) {         /* incomplete: never completed */
            c->pending_low = false; /* its high part may be what was lost */
            emit_record(d, c, true);
        }
        c->pending_low = c->low_off = false;
        c->st = PS_RESYNC;
        c->gap = true;
        c->lost = true;
        c->prev_known = 0;
        snprintf(d->msg, sizeof d->msg, "gap: %s", why);
    }
    if (d->cb.error) d->cb.error(d->cb.ctx, core, offset, d->msg);
}

void perf_dec_set_config(perf_dec_t *d, const perf_header_t *h) {
    unsigned core = h->core % PERF_MAX_CORES;
    perf_core_t *c = &d->core[core];
    memset(c, 0, sizeof *c);
    c->h = *h;
    c->h.core = core;
    c->h.tics_valid = false;
    c->h.tics = 0;
    if (c->h.n > PERF_MAX_COUNTERS) c->h.n = PERF_MAX_COUNTERS;
    c->cfg = c->h;
    c->cfg_pending = true;
    c->st = PS_RESYNC; /* as after a gap */
    c->gap = true;
    c->lost = true;
    c->prev_known = 0;
}

/* ---- out-of-band header text (perf_config.txt) ------------------------------------------ */
static const char *const count_names[3] = {"Raw", "Delta", "DeltaXOR"};

int perf_config_write(FILE *f, unsigned channel, const perf_header_t *h) {
    fprintf(f, "channel=%u\nhart=%u\ncount_type=%s\nmask=0x%08x\n", channel, h->core,
            count_names[h->count_type <= PERF_DELTA_XOR ? h->count_type : 0], h->mask);
    for (unsigned i = 0; i < h->n && i < PERF_MAX_COUNTERS; i++) {
        const perf_counter_def_t *d = &h->def[i];
        if (d->type == 2)
            fprintf(f, "counter=%u type=2 event_data=0x%" PRIx64 " info=0x%08x\n", d->index, d->event_data, d->info);
        else
            fprintf(f, "counter=%u type=%u code=%u info=0x%08x\n", d->index, d->type, d->code, d->info);
    }
    return ferror(f) ? -1 : 0;
}

/* a number, the whole of [p, end) */
static bool cfg_num(const char *p, const char *end, uint64_t max, uint64_t *out) {
    char buf[32];
    size_t n = (size_t)(end - p);
    if (!n || n >= sizeof buf || *p == '-' || *p == '+') return false;
    memcpy(buf, p, n);
    buf[n] = 0;
    char *e;
    unsigned long long v = strtoull(buf, &e, 0);
    if (*e || v > max) return false;
    *out = v;
    return true;
}

enum { CF_TYPE = 1,
       CF_CODE = 2,
       CF_ED = 4,
       CF_INFO = 8 };

static bool same_nocase(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return false;
    return true;
}

/* the header being built is complete and consistent */
static bool cfg_check(const perf_header_t *h, bool have_ct, bool have_mask, const unsigned *seen,
                      unsigned nseen, char *err, size_t errlen) {
    if (!have_ct || !have_mask) {
        snprintf(err, errlen, "hart %u: %s missing", h->core, have_ct ? "mask" : "count_type");
        return false;
    }
    unsigned want = 0;
    for (unsigned i = 0; i < 32; i++) want += h->mask >> i & 1;
    if (nseen != want) {
        snprintf(err, errlen, "hart %u: the mask 0x%08x has %u counters, %u counter lines given", h->core, h->mask, want, nseen);
        return false;
    }
    for (unsigned i = 0; i < nseen; i++) {
        const perf_counter_def_t *d = &h->def[i];
        unsigned need = CF_TYPE | CF_INFO | (d->type == 2 ? CF_ED : CF_CODE);
        if ((seen[i] & need) != need || (seen[i] & ~need)) {
            snprintf(err, errlen, "hart %u, counter %u: needs type, info and %s (and nothing else)", h->core,
                     d->index, d->type == 2 ? "event_data" : "code");
            return false;
        }
    }
    return true;
}

int perf_config_parse(const char *text, perf_header_t *h, unsigned max, unsigned *channel, char *err, size_t errlen) {
    unsigned nh = 0, line = 1, nseen = 0, seen[PERF_MAX_COUNTERS];
    bool open = false, have_ct = false, have_mask = false;
    uint32_t hart_used = 0;
    perf_header_t *cur = NULL;
    char e2[200];
    if (!max) {
        snprintf(err, errlen, "no room for a header");
        return -1;
    }
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            if (*p == '\n') line++;
            p++;
        }
        if (*p == '#') {
            while (*p && *p != '\n') p++;
            continue;
        }
        if (!*p) break;
        const char *tok = p;
        while (*p && !isspace((unsigned char)*p) && *p != '#') p++;
        const char *eq = memchr(tok, '=', (size_t)(p - tok));
        size_t klen = eq ? (size_t)(eq - tok) : 0;
        if (!eq || !klen) {
            snprintf(err, errlen, "line %u: '%.*s' is not key=value", line, (int)(p - tok > 40 ? 40 : p - tok), tok);
            return -1;
        }
        const char *val = eq + 1;
#define KEY(k) (klen == sizeof k - 1 && !memcmp(tok, k, klen))
        uint64_t v = 0;
        if (KEY("channel")) {
            if (!cfg_num(val, p, 31, &v)) goto bad_value;
            if (channel) *channel = (unsigned)v;
            continue;
        }
        if (KEY("hart") || !open) {
            uint64_t hart = 0;
            if (KEY("hart") && !cfg_num(val, p, PERF_MAX_CORES - 1, &hart)) goto bad_value;
            if (open) {
                if (!cfg_check(cur, have_ct, have_mask, seen, nseen, e2, sizeof e2)) goto bad_header;
            }
            if (hart_used >> hart & 1) {
                snprintf(err, errlen, "line %u: hart %u given twice", line, (unsigned)hart);
                return -1;
            }
            if (nh == max) {
                snprintf(err, errlen, "line %u: more than %u harts", line, max);
                return -1;
            }
            hart_used |= 1u << hart;
            cur = &h[nh++];
            memset(cur, 0, sizeof *cur);
            cur->core = (unsigned)hart;
            open = true;
            have_ct = have_mask = false;
            nseen = 0;
            if (KEY("hart")) continue;
        }
        if (KEY("count_type")) {
            size_t n = (size_t)(p - val);
            int t = -1;
            for (int k = 0; k < 3; k++)
                if (n == strlen(count_names[k]) && same_nocase(val, count_names[k], n)) t = k;
            if (t < 0 && cfg_num(val, p, 2, &v)) t = (int)v;
            if (t < 0) goto bad_value;
            cur->count_type = (enum perf_count_type)t;
            have_ct = true;
        } else if (KEY("mask")) {
            if (nseen || !cfg_num(val, p, 0xFFFFFFFFu, &v)) goto bad_value;
            cur->mask = (uint32_t)v;
            have_mask = true;
        } else if (KEY("counter")) {
            if (!have_mask || !cfg_num(val, p, 31, &v) || !(cur->mask >> v & 1) ||
                (nseen && cur->def[nseen - 1].index >= v) || nseen >= PERF_MAX_COUNTERS) {
                snprintf(err, errlen, "line %u: counter=%.*s: counters must follow the mask line, be bits of the "
                                      "mask and ascend",
                         line, (int)(p - val > 20 ? 20 : p - val), val);
                return -1;
            }
            seen[nseen] = 0;
            cur->def[nseen++].index = (unsigned)v;
            cur->n = nseen;
        } else if (KEY("type") || KEY("code") || KEY("event_data") || KEY("info")) {
            if (!nseen) {
                snprintf(err, errlen, "line %u: %.*s before any counter=", line, (int)klen, tok);
                return -1;
            }
            perf_counter_def_t *d = &cur->def[nseen - 1];
            unsigned f = KEY("type") ? CF_TYPE : KEY("code")   ? CF_CODE :
                                             KEY("event_data") ? CF_ED :
                                                                 CF_INFO;
            if (seen[nseen - 1] & f) {
                snprintf(err, errlen, "line %u: %.*s given twice", line, (int)klen, tok);
                return -1;
            }
            if (!cfg_num(val, p, f == CF_TYPE ? TS_PW_EV_HW_RAW : f == CF_ED ? UINT64_MAX :
                                                                               0xFFFFFFFFu,
                         &v)) goto bad_value;
            seen[nseen - 1] |= f;
            if (f == CF_TYPE) d->type = (unsigned)v;
            else if (f == CF_CODE)
                d->code = (uint32_t)v;
            else if (f == CF_ED)
                d->event_data = v;
            else {
                d->info = (uint32_t)v;
                d->width = ((d->info >> TS_PW_INFO_WIDTH_SHIFT) & TS_PW_INFO_WIDTH_MASK) + 1;
            }
        } else {
            snprintf(err, errlen, "line %u: unknown key '%.*s'", line, (int)(klen > 30 ? 30 : klen), tok);
            return -1;
        }
        continue;
    bad_value:
        snprintf(err, errlen, "line %u: bad value in '%.*s'", line, (int)(p - tok > 40 ? 40 : p - tok), tok);
        return -1;
    bad_header:
        snprintf(err, errlen, "%s", e2);
        return -1;
#undef KEY
    }
    if (!open) {
        snprintf(err, errlen, "no perf header in the configuration");
        return -1;
    }
    if (!cfg_check(cur, have_ct, have_mask, seen, nseen, e2, sizeof e2)) {
        snprintf(err, errlen, "%s", e2);
        return -1;
    }
    return (int)nh;
}

void perf_dec_feed_store(perf_dec_t *d, unsigned hart, unsigned stim, unsigned off, uint32_t value,
                         uint64_t tics) {
    nxd_msg_t m;
    memset(&m, 0, sizeof m);
    m.status = NXD_OK;
    m.tcode = 7;
    m.src = hart;
    m.f[NXF_IDTAG] = ((stim & 15u) << 2) | off;
    m.f[NXF_DATA] = value;
    m.tics_valid = true;
    m.tics = tics;
    perf_dec_feed(d, &m);
}
