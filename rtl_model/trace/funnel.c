/* funnel.c - trace funnel model; see funnel.h. Arbitration: when the sink is free, the
 * funnel takes the next whole message from the first non-empty input at or after the
 * round-robin pointer, which then moves past that input (no input starves). One message is
 * taken per cycle at most; bytes go to the sink at the sink width per cycle.
 * After the sink stopped on wrap (the buffer is full, tfEnable cleared), the funnel goes on
 * taking every message the encoders send and discards it (counted in the sink's discarded
 * bytes), as a stopped encoder discards its own: writers that poll the ITC before each store
 * (SiFive's perf library does) never wait for a consumer that is gone. */
#include "funnel.h"
#include <string.h>

#define TS_TREG(block, name, off, acc, desc) enum { block##_##name = off };
#include "trace_regs.def"

enum { F_ACTIVE = 1u << 0,
       F_ENABLE = 1u << 1,
       F_EMPTY = 1u << 3,
       F_STOP_ON_WRAP = 1u << 14,
       F_SINK_ERROR = 1u << 27,
       F_WRITABLE = 0x00004007u };

int funnel_init(funnel_t *f, unsigned sink_bytes, unsigned sram_size, unsigned ts_width) {
    memset(f, 0, sizeof *f);
    if (sink_init(&f->sink, sink_bytes, sram_size)) return -1;
    tsunit_init(&f->ts, 2, ts_width, NULL);
    funnel_reset(f);
    return 0;
}

void funnel_free(funnel_t *f) { sink_free(&f->sink); }

void funnel_reset(funnel_t *f) {
    f->control = 0;
    tsunit_reset(&f->ts);
    sink_reset(&f->sink);
    f->have_cur = f->flushing = false;
    f->cur_pos = 0;
    f->next = 0;
}

int funnel_attach(funnel_t *f, te_t *t) {
    if (f->n_in == FUNNEL_MAX_INPUTS) return -1;
    f->in[f->n_in++] = t;
    te_set_ts_master(t, &f->ts);
    return 0;
}

static bool inputs_empty(const funnel_t *f) {
    for (unsigned i = 0; i < f->n_in; i++)
        if (te_port_peek(f->in[i])) return false;
    return true;
}

bool funnel_busy(const funnel_t *f) { return f->have_cur || !inputs_empty(f); }

bool funnel_empty(const funnel_t *f) {
    return !f->have_cur && inputs_empty(f) && (f->sink.fill == 0 || f->sink.stopped);
}

void funnel_sink_error(funnel_t *f) { f->control |= F_SINK_ERROR; }

void funnel_tick(funnel_t *f) {
    tsunit_tick(&f->ts);
    f->sink.sba_valid = false;
    f->probe_nbytes = 0;
    if (!(f->control & F_ACTIVE)) return;
    if (__builtin_expect(f->sink.stopped, 0)) {
        for (unsigned i = 0; i < f->n_in; i++)
            for (const nx_msg_t *m; (m = te_port_peek(f->in[i]));) {
                f->sink.discarded += m->len;
                te_port_pop(f->in[i]);
            }
        return;
    }
    if (!(f->control & F_ENABLE) && !f->flushing) return;
    if (!f->have_cur) {
        for (unsigned k = 0; k < f->n_in; k++) {
            unsigned i = (f->next + k) % f->n_in;
            const nx_msg_t *m = te_port_peek(f->in[i]);
            if (!m) continue;
            f->cur = *m;
            f->cur_pos = 0;
            f->have_cur = true;
            te_port_pop(f->in[i]);
            f->next = (i + 1) % f->n_in;
            f->probe_take = true;
            f->probe_src = (uint8_t)i;
            break;
        }
    }
    for (unsigned budget = f->sink.width; budget && f->have_cur; budget--) {
        sink_push(&f->sink, f->cur.b[f->cur_pos]);
        f->probe_nbytes++;
        if (f->sink.stopped) {
            f->control &= ~F_ENABLE;
            f->sink.discarded += f->cur.len - f->cur_pos - 1;
            f->have_cur = false;
            f->flushing = false;
            return;
        }
        if (++f->cur_pos == f->cur.len) f->have_cur = false;
    }
    if (f->flushing && !f->have_cur && inputs_empty(f) && !f->sink.sba_valid) {
        sink_flush(&f->sink);
        f->flushing = false;
    }
}

static void write_control(funnel_t *f, uint32_t v) {
    if (!(v & F_ACTIVE)) {
        funnel_reset(f);
        return;
    }
    uint32_t old = f->control, keep = old & F_SINK_ERROR;
    if (v & F_SINK_ERROR) keep = 0;
    unsigned sink = v >> 28;
    if (sink != 0 && sink != 4 && sink != 7) sink = 0;
    f->control = (v & F_WRITABLE) | keep | sink << 28;
    f->sink.kind = sink == 7 ? SINK_SBA : SINK_SRAM;
    f->sink.stop_on_wrap = (v & F_STOP_ON_WRAP) != 0;
    bool was_on = (old & (F_ACTIVE | F_ENABLE)) == (F_ACTIVE | F_ENABLE);
    bool on = (v & F_ENABLE) != 0;
    if (was_on && !on && !funnel_empty(f)) f->flushing = true;
    if (on) f->flushing = false;
}

enum te_access funnel_read(funnel_t *f, uint32_t off, unsigned size, uint32_t *val) {
    if (size != 4 || (off & 3)) return TE_ERR;
    unsigned sb = f->sink.width == 4 ? 0 : f->sink.width == 8 ? 1 :
                                       f->sink.width == 16    ? 2 :
                                                                3;
    if (off == TF_CONTROL) {
        *val = f->control | ((funnel_empty(f) && !f->flushing) ? F_EMPTY : 0);
        return TE_OK;
    }
    if (off == TF_IMPL) {
        *val = (1u << 4) | (1u << 7) | sb << 16;
        return TE_OK;
    }
    if (off == TF_SINK_DATA && !(f->control & F_ACTIVE)) {
        *val = 0;
        return TE_OK;
    }
    if (sink_reg_read(&f->sink, off, val) || tsunit_reg_read(&f->ts, off, val)) return TE_OK;
    *val = 0;
    return off < 0x1000 ? TE_OK : TE_ERR;
}

enum te_access funnel_write(funnel_t *f, uint32_t off, unsigned size, uint32_t val) {
    if (size != 4 || (off & 3)) return TE_ERR;
    if (off == TF_CONTROL) {
        write_control(f, val);
        return TE_OK;
    }
    if (!(f->control & F_ACTIVE)) return TE_OK;
    if (!sink_reg_write(&f->sink, off, val)) tsunit_reg_write(&f->ts, off, val);
    return TE_OK; /* read-only and reserved offsets ignore writes */
}
