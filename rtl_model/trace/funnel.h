/* funnel.h - trace funnel: merges whole messages from up to 8 encoders (teSink = 8) into one
 * SRAM or SBA sink, round-robin one message at a time, and owns the master timestamp unit
 * (type 2) that the encoders' slave units read. Registers: tfControl (active, enable, bit 2
 * stored, empty, stop-on-wrap, sink error, sink), tfImpl, the sink registers and tsControl/
 * tsLower/tsUpper at the encoder's offsets. Bytes of two messages never interleave. */
#ifndef TS_FUNNEL_H
#define TS_FUNNEL_H
#include "te.h"

#define FUNNEL_MAX_INPUTS 8

typedef struct funnel {
    te_t *in[FUNNEL_MAX_INPUTS];
    unsigned n_in, next; /* round-robin pointer */
    uint32_t control;
    tsunit_t ts;
    sink_t sink;
    nx_msg_t cur;
    unsigned cur_pos;
    bool have_cur, flushing;
    /* for waveform probes: a message was taken from input probe_src since the consumer
     * (sim/soc.c) last cleared probe_take; bytes that entered the sink in the last tick */
    bool probe_take;
    uint8_t probe_src, probe_nbytes;
} funnel_t;

int funnel_init(funnel_t *f, unsigned sink_bytes, unsigned sram_size, unsigned ts_width);
void funnel_free(funnel_t *f);
void funnel_reset(funnel_t *f);
/* connects an encoder: its messages come here and its timestamp unit becomes a slave */
int funnel_attach(funnel_t *f, te_t *t);
enum te_access funnel_read(funnel_t *f, uint32_t off, unsigned size, uint32_t *val);
enum te_access funnel_write(funnel_t *f, uint32_t off, unsigned size, uint32_t val);
/* after the encoders' ticks */
void funnel_tick(funnel_t *f);
/* true if funnel_tick() would change nothing now but the timestamp unit's counter, its
 * inputs being idle (te_tick_idle() of every encoder): no message in hand, not flushing, no
 * sink word out, no bytes counted for the probe. Keep it in step with funnel_tick(). */
static inline bool funnel_tick_idle(const funnel_t *f) {
    return !f->have_cur && !f->flushing && !f->sink.sba_valid && !f->probe_nbytes;
}
/* n funnel_tick()s of a funnel that was funnel_tick_idle() before them (inputs idle): only
 * its timestamp unit moves */
static inline void funnel_skip(funnel_t *f, uint64_t n) { tsunit_advance(&f->ts, n); }
bool funnel_empty(const funnel_t *f);
/* a message taken or waiting at an input (not counting a partial sink word) */
bool funnel_busy(const funnel_t *f);
/* the SoC reports a failed SBA write: tfSinkError */
void funnel_sink_error(funnel_t *f);
#endif
