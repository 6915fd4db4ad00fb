/* perf_decode.c - SiFive perf protocol decoder; see perf_decode.h. */
#include "perf_decode.h"
#include <inttypes.h>
#include <stdio.h>
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
static const struct { unsigned type, code; const char *name; } sbi_names[] = {
#define TS_SBI_GENERAL(code, name, counter, ev) {0, code, #name},
#define TS_SBI_CACHE(cache, op, result, name, ev) {1, (cache) << 3 | (op) << 1 | (result), #name},
#include "sbi_events.def"
};

void perf_counter_name(const perf_counter_def_t *d, char *buf, size_t len) {
    if (d->index == 1) { snprintf(buf, len, "timestamp"); return; }
    if (d->type == 0 && d->code == 1) { snprintf(buf, len, "cycles"); return; }
    if (d->type == 0 && d->code == 2) { snprintf(buf, len, "instructions"); return; }
    if (d->type == 2) { snprintf(buf, len, "raw_0x%" PRIx64, d->event_data); return; }
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
    d->marker = PERF_MARKER;
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

typedef struct sw { bool tics_valid; uint64_t tics, offset; } sw_t;

/* completes the next counter of the current record with the received value v; tv/tics: the
 * time of the message that completed it */
static void add_value(perf_core_t *c, uint64_t v, bool tv, uint64_t tics) {
    perf_record_t *r = &c->r;
    if (r->n >= c->h.n) return;
    const perf_counter_def_t *def = &c->h.def[r->n];
    uint64_t prev = c->prev[def->index], abs;
    switch (c->h.count_type) {
    case PERF_DELTA: abs = (prev + v) & wmask(def->width); break;
    case PERF_DELTA_XOR: abs = prev ^ v; break;
    default: abs = v; break;
    }
    r->index[r->n] = def->index;
    r->raw[r->n] = v;
    r->value[r->n] = abs;
    r->delta[r->n] = (abs - prev) & wmask(def->width);
    r->vtics_valid[r->n] = tv;
    r->vtics[r->n] = tv ? tics : 0;
    c->prev[def->index] = abs;
    r->n++;
}

/* every part of the current record arrived */
static bool complete(const perf_core_t *c) {
    const perf_record_t *r = &c->r;
    bool two = r->type == PERF_FUNC_ENTER || r->type == PERF_FUNC_EXIT;
    return r->n == c->h.n && r->has_addr && (!two || r->has_call_site);
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
    else add_value(c, c->low, c->low_tics_valid, c->low_tics);
    c->pending_low = false;
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
}

static void feed(perf_dec_t *d, unsigned src, unsigned size, uint64_t v, const sw_t *m) {
    unsigned core = src % PERF_MAX_CORES;
    perf_core_t *c = &d->core[core];

    /* the marker starts a header where a header can start: before any, or where a record
     * could start (the trace was switched off and on); elsewhere it is data */
    if (size == 4 && v == d->marker && (c->st == PS_SYNC || c->st == PS_REC_TYPE)) {
        start_header(d, c, core, m);
        return;
    }
    switch (c->st) {
    case PS_SYNC:
        return;
    case PS_COUNT_TYPE:
        if (size != 1 || v > 2) { error(d, core, m->offset, "count type is not an 8-bit 0..2"); c->st = PS_SYNC; return; }
        c->h.count_type = (enum perf_count_type)v;
        c->st = PS_MASK;
        return;
    case PS_MASK:
        if (size != 4) { error(d, core, m->offset, "counter mask is not a 32-bit store"); c->st = PS_SYNC; return; }
        c->h.mask = (uint32_t)v;
        c->h.n = 0;
        for (unsigned i = 0; i < 32; i++)
            if ((v >> i) & 1) c->h.def[c->h.n++].index = i;
        c->def_i = 0;
        c->st = c->h.n ? PS_DEF_TYPE : PS_REC_TYPE;
        if (!c->h.n) { d->headers++; if (d->cb.header) d->cb.header(d->cb.ctx, &c->h); }
        return;
    default:
        break;
    }
    perf_counter_def_t *def = &c->h.def[c->def_i];
    switch (c->st) {
    case PS_DEF_TYPE:
        if (size != 4 || v > 2) { error(d, core, m->offset, "counter definition has an unknown event type"); c->st = PS_SYNC; return; }
        def->type = (unsigned)v;
        c->st = v == 2 ? PS_DEF_ED_LO : PS_DEF_CODE;
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
        def->width = ((def->info >> 12) & 0x3F) + 1;
        if (def->width == 1) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter %u has a width of 1 bit "
                     "(counter_info 0x%08x)", def->index, def->info);
            warning(d, core, m->offset);
        }
        if ((def->info & 0xFFF) == 0 && def->index != 1) {
            snprintf(d->msg, sizeof d->msg, "warning: implausible perf header: counter %u has CSR 0 "
                     "(only counter 1, the timestamp, has none; counter_info 0x%08x)", def->index, def->info);
            warning(d, core, m->offset);
        }
        if (++c->def_i == c->h.n) {
            c->st = PS_REC_TYPE;
            d->headers++;
            if (d->cb.header) d->cb.header(d->cb.ctx, &c->h);
        } else {
            c->st = PS_DEF_TYPE;
        }
        return;
    case PS_COUNTERS:
        if (size == 2 && c->pending_low) {             /* bits 47:32 of the pending value */
            add_value(c, (v & 0xFFFF) << 32 | c->low, m->tics_valid, m->tics);
            c->pending_low = false;
            if (c->r.n == c->h.n) { c->st = PS_REC_TYPE; emit_record(d, c, false); }
            return;
        }
        if (size == 4) {
            flush_low(c, m);
            if (c->r.n == c->h.n) {
                emit_record(d, c, false);
                c->st = PS_REC_TYPE;
                if (v == d->marker) { start_header(d, c, core, m); return; }
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
        if (size == 1) {                               /* the next record starts */
            flush_low(c, m);
            if (c->r.n != c->h.n) error(d, core, m->offset, "record with fewer counter values than the mask");
            emit_record(d, c, c->r.n != c->h.n);
            c->st = PS_REC_TYPE;
            break;                                     /* handled below as a record type */
        }
        error(d, core, m->offset, "unexpected store size in the counter values");
        c->st = PS_SYNC;
        return;
    default:
        break;
    }
    switch (c->st) {
    case PS_REC_TYPE:
        if (size != 1 || v > 3) { error(d, core, m->offset, "record does not start with an 8-bit record type"); c->st = PS_SYNC; return; }
        memset(&c->r, 0, sizeof c->r);
        c->r.core = core;
        c->r.type = (enum perf_record_type)v;
        c->r.tics_valid = m->tics_valid;
        c->r.tics = m->tics;
        c->in_record = true;
        c->addr_i = 0;
        c->st = PS_ADDR;
        return;
    case PS_ADDR:
    case PS_ADDR_HI: {
        if (size != 4) { error(d, core, m->offset, "address is not a 32-bit store"); c->in_record = false; c->st = PS_SYNC; return; }
        uint64_t a;
        if (c->st == PS_ADDR) {
            if (v & 1) { c->addr_lo = v & ~1ull; c->st = PS_ADDR_HI; return; }
            a = v;
        } else {
            a = c->addr_lo | v << 32;
        }
        if (c->h.count_type == PERF_DELTA_XOR) { a ^= c->prev_addr; }
        c->prev_addr = a;
        if (c->addr_i == 0) { c->r.addr = a; c->r.has_addr = true; }
        else { c->r.call_site = a; c->r.has_call_site = true; }
        bool two = c->r.type == PERF_FUNC_ENTER || c->r.type == PERF_FUNC_EXIT;
        if (two && c->addr_i == 0) { c->addr_i = 1; c->st = PS_ADDR; return; }
        c->st = PS_COUNTERS;
        if (!c->h.n) { c->st = PS_REC_TYPE; emit_record(d, c, false); }
        return;
    }
    default:
        return;
    }
}

void perf_dec_feed_elem(perf_dec_t *d, const ts_elem_t *e) {
    if (e->type == TS_ELEM_TRUNCATED) { d->cut = true; return; }
    if (e->type == TS_ELEM_EOT || e->type == TS_ELEM_NO_SYNC) return;
    d->cut = false;                                    /* a whole message came after it */
    if (e->type != TS_ELEM_SWTRACE || e->u.sw.channel != d->channel) return;
    sw_t m = {e->has_time, e->time, e->offset};
    feed(d, e->src, e->u.sw.size, e->u.sw.value, &m);
}

void perf_dec_feed(perf_dec_t *d, const nxd_msg_t *m) {
    if (m->status == NXD_TRUNCATED) { d->cut = true; return; }
    d->cut = false;
    if (m->status != NXD_OK || m->tcode != 7) return;
    uint64_t tag = m->f[NXF_IDTAG];
    if (tag < 4u * d->channel || tag > 4u * d->channel + 3) return;
    unsigned kind = (unsigned)(tag & 3);
    sw_t s = {m->tics_valid, m->tics, m->offset};
    feed(d, m->src, kind == 3 ? 1 : kind == 2 ? 2 : 4, m->f[NXF_DATA], &s);
}

void perf_dec_finish(perf_dec_t *d) {
    for (unsigned i = 0; i < PERF_MAX_CORES; i++) {
        perf_core_t *c = &d->core[i];
        if (!c->in_record) continue;
        if (d->cut) c->pending_low = false;            /* its high part may have been cut off */
        flush_low(c, NULL);
        emit_record(d, c, !complete(c));
    }
}
