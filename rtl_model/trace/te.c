/* te.c - trace encoder model; see te.h.
 *
 * How the open questions of trace-hw-facts.md 8.2 are resolved here (and in docs/reference/trace-registers.md):
 *  1. ICT-WS Control(0,0) with a full timestamp is emitted when teTracing goes 0 -> 1 while
 *     the encoder is active and enabled (teInstruction is always 0 here), and after every
 *     overflow (following the Error message). Never periodically. When tracing stops
 *     (teTracing or teEnable cleared while tracing) an ICT Control message with control
 *     code 3 (trace off) and a relative timestamp is emitted, and drained by the flush.
 *  2. Stimulus 16..31 fold onto IDTAGs of 0..15 and get no forced timestamp. Byte stores at
 *     offsets 0..2 and halfword stores at offset 0 are accepted with IDTAG = ((n & 15) << 2)
 *     | offset and the value right-aligned (dqr reads IDTAG & 3 == 1 as a word).
 *  4. A stimulus read returns 1 when a store would be accepted, 0 when the ITC FIFO is full;
 *     default depth 8 messages. A store into a full FIFO stalls the hart (teStallEnable = 1)
 *     or is lost (0): teStallOrOverflow is set, and an Error message (TCODE 8, ETYPE 0, ECODE
 *     0, no timestamp) then an ICT-WS Control(0,0) with a full timestamp are emitted as soon
 *     as the FIFO has room, before any later message.
 *  5. teFifo reads the ITC FIFO level, teBtmCount the number of messages emitted, teWordCount
 *     the number of sink words written (model-defined).
 *  6. teStallOrOverflow: writing 0 clears it (SiFive software writes 0 when configuring),
 *     writing 1 leaves it. A software write to WP takes bit 0 as the wrap flag. RP resets to 0;
 *     SRAM reads are allowed at any time.
 *  7. After a stop-on-wrap WP holds the end address (limit + width) with the wrap flag clear;
 *     the bytes up to the end of the buffer are kept, the rest of the cut message and
 *     everything queued behind it are discarded, and no padding is written.
 *  9. Reset values are 0 except teSliceFormat (1) and teEmpty (1). teActive = 0 resets the
 *     whole block, including the timestamp unit and itcTraceEnable, and ignores writes to any
 *     register but teControl.
 * 10. teSliceFormat is read-only 1.
 * 12. Only the sync after an overflow carries a timestamp; the Error message has none.
 * 14. Relative timestamps XOR against the previous timestamped message of this encoder.
 * 16. ITC messages need teEnable and teTracing; otherwise stores are dropped silently and
 *     stimulus reads return 1.
 * 17. Stores while disabled or in reset are dropped silently.
 */
#include "te.h"
#include <stdlib.h>
#define TS_STM_CONST(name, value, desc) enum { STM_##name = value };
#include "stm.def"
#define TS_STM_EVENT(name, id, desc) enum { STM_ID_##name = id };
#include "stm.def"
#include <string.h>

#define TS_TREG(block, name, off, acc, desc) enum { block##_##name = off };
#include "trace_regs.def"

enum {
    C_ACTIVE = 1u << 0,
    C_ENABLE = 1u << 1,
    C_TRACING = 1u << 2,
    C_EMPTY = 1u << 3,
    C_INSTRUMENTATION_SHIFT = 7,
    C_STALL_OR_OVERFLOW = 1u << 12,
    C_STALL_ENABLE = 1u << 13,
    C_STOP_ON_WRAP = 1u << 14,
    C_INHIBIT_SRC = 1u << 15,
    C_SINK_ERROR = 1u << 27,
    C_SINK_SHIFT = 28,
    C_CONTEXT = TE_C_CONTEXT,
    /* bits kept as written: active, enable, tracing, instrumentation, teContext (bit 9, TCI
     * v1's trTeContext: Ownership messages in BTM/HTM, te_prog.c), stall enable, stop-on-wrap,
     * inhibit SRC, sync counters (the rest are status, WARL or actions) */
    C_WRITABLE = 0x00FFE387u,
};
enum { SINK_DEFAULT = 0,
       SINK_CODE_SRAM = 4,
       SINK_CODE_SBA = 7,
       SINK_CODE_FUNNEL = 8 };

void te_default_cfg(te_cfg_t *c) {
    c->hart = 0;
    c->src_bits = 0;
    c->itc_depth = 8;
    c->sink_bytes = 4;
    c->sram_size = 16384;
    c->ts_width = 40;
    c->has_funnel = false;
    c->stall_force = false;
}

int te_init(te_t *t, const te_cfg_t *cfg) {
    memset(t, 0, sizeof *t);
    if (cfg->hart > 15 || cfg->src_bits > 7 || cfg->itc_depth < 1 || cfg->itc_depth > 1024 ||
        cfg->ts_width < 8 || cfg->ts_width > 64 || (cfg->src_bits && cfg->hart >= (1u << cfg->src_bits)))
        return -1;
    t->cfg = *cfg;
    if (sink_init(&t->sink, cfg->sink_bytes, cfg->sram_size)) return -1;
    t->fifo_cap = cfg->itc_depth + 4;
    t->fifo = calloc(t->fifo_cap, sizeof *t->fifo);
    if (!t->fifo) {
        sink_free(&t->sink);
        return -1;
    }
    tsunit_init(&t->ts, 3, cfg->ts_width, NULL);
    te_reset(t);
    return 0;
}

void te_free(te_t *t) {
    sink_free(&t->sink);
    free(t->fifo);
    t->fifo = NULL;
}

void te_reset(te_t *t) {
    t->control = 0;
    t->evcontrol = t->xti = t->xto = t->wpctl = t->itc_enable = t->itc_trig = 0;
    if (t->cfg.insn_force == TE_INSN_EVENT) t->evcontrol = 0x3Fu; /* run --trace-insn event */
    t->stm_control = t->stm_lost = 0;
    tsunit_reset(&t->ts);
    sink_reset(&t->sink);
    t->fifo_head = t->fifo_count = 0;
    t->overflow_pending = false;
    t->outq_head = t->outq_count = t->out_pos = 0;
    t->flushing = false;
    t->have_last_ts = false;
    t->last_ts = 0;
    t->stalled = false;
    t->prog = (te_prog_t){.force = t->cfg.insn_force, .priv = 3, .rep_priv = 3};
}

void te_set_ts_master(te_t *t, const tsunit_t *master) {
    t->ts.master = master;
    t->ts.type = master ? 4 : 3;
}

static unsigned sink_code(const te_t *t) { return t->control >> C_SINK_SHIFT; }
bool te_to_funnel(const te_t *t) { return sink_code(t) == SINK_CODE_FUNNEL; }

bool te_empty(const te_t *t) {
    return !t->fifo_count && !t->outq_count && !t->overflow_pending &&
           (te_to_funnel(t) || t->sink.fill == 0 || t->sink.stopped);
}

static void fifo_push(te_t *t, uint8_t kind, uint32_t idtag, uint32_t data) {
    if (t->fifo_count == t->fifo_cap) return; /* cannot happen: callers check room */
    te_entry_t *e = &t->fifo[(t->fifo_head + t->fifo_count) % t->fifo_cap];
    *e = (te_entry_t){.kind = kind, .idtag = idtag, .data = data, .ts = tsunit_now(&t->ts)};
    t->fifo_count++;
}

void te_fifo_put(te_t *t, const te_entry_t *src) {
    if (t->fifo_count == t->fifo_cap) return; /* cannot happen: callers check room */
    te_entry_t *e = &t->fifo[(t->fifo_head + t->fifo_count) % t->fifo_cap];
    *e = *src;
    e->ts = tsunit_now(&t->ts);
    t->fifo_count++;
}

/* after lost messages: the Error message and the sync that follow them */
static void push_resync(te_t *t) {
    fifo_push(t, TE_ERROR, 0, 0);
    fifo_push(t, TE_SYNC, 0, 0);
    t->overflow_pending = false;
    if (t->prog.on) t->prog.sync_owed = NX_SYNC_FIFO_OVERRUN; /* program trace: a sync at the next retirement */
}
/* a message lost on a full FIFO: flagged, Error + sync owed */
static void mark_lost(te_t *t) {
    t->control |= C_STALL_OR_OVERFLOW;
    t->overflow_pending = true;
}
void te_fifo_lost(te_t *t) { mark_lost(t); }
void te_fifo_resync(te_t *t) {
    if (t->overflow_pending && t->fifo_count + 2 <= t->fifo_cap) push_resync(t);
}

static void pack(te_t *t, const te_entry_t *e, nx_msg_t *m) {
    static const uint8_t tcode[] = {[TE_DQM] = NX_DATA_ACQ, [TE_OWN] = NX_OWNERSHIP, [TE_ERROR] = NX_ERROR, [TE_SYNC] = NX_ICT_WS, [TE_STOP] = NX_ICT, [TE_STM_OWN] = NX_OWNERSHIP, [TE_PROG] = 0};
    uint32_t tsc = t->ts.control;
    bool ts_on = tsunit_enabled(&t->ts), full = false, rel = false;
    nx_begin(m);
    nx_fixed(m, e->kind == TE_PROG ? e->tcode : tcode[e->kind], NX_W_TCODE);
    if (t->cfg.src_bits && !(t->control & C_INHIBIT_SRC)) nx_fixed(m, t->cfg.hart, t->cfg.src_bits);
    switch (e->kind) {
    case TE_DQM:
        nx_var(m, e->idtag);
        nx_var(m, e->data);
        rel = ts_on && (tsc & (1u << 18));
        break;
    case TE_OWN:
        nx_var(m, e->data);
        rel = ts_on && (tsc & (1u << 19));
        break;
    case TE_STM_OWN: /* THREAD_SWITCH: PROCESS = tp << 5 | V 0 | PRV | format */
        nx_var(m, (uint64_t)e->data << STM_OWN_SHIFT | STM_OWN_PRV << 2 | STM_OWN_FORMAT);
        rel = ts_on && (tsc & (1u << 19));
        break;
    case TE_ERROR:
        nx_fixed(m, NX_ETYPE_OVERRUN, NX_W_ETYPE); /* FIFO overrun, messages lost */
        nx_var(m, 0);                              /* ECODE */
        break;
    case TE_PROG:
        te_prog_pack(t, e, m, &full, &rel);
        full = full && ts_on;
        rel = rel && ts_on;
        break;
    case TE_STOP: /* ICT: CKSRC 0 (control), CKDF 0, CKDATA0 3 (trace off) */
        nx_fixed(m, NX_CKSRC_CONTROL, NX_W_CKSRC);
        nx_fixed(m, 0, NX_W_CKDF);
        nx_var(m, NX_CONTROL_TRACE_OFF);
        rel = ts_on;
        break;
    default: /* ICT-WS: CKSRC 0 (control), CKDF 0, CKDATA0 0 (none) */
        nx_fixed(m, NX_CKSRC_CONTROL, NX_W_CKSRC);
        nx_fixed(m, 0, NX_W_CKDF);
        nx_var(m, NX_CONTROL_NONE);
        full = ts_on;
        break;
    }
    if (full || rel) {
        nx_var(m, full ? e->ts : (e->ts ^ t->last_ts));
        t->last_ts = e->ts;
        t->have_last_ts = true;
    }
    nx_end(m);
}

static void discard_all(te_t *t) {
    t->fifo_count = 0;
    t->outq_count = 0;
    t->out_pos = 0;
    t->overflow_pending = false;
    t->flushing = false;
}

void te_work(te_t *t) {
    if (!(t->control & C_ACTIVE)) return;
    if (!(t->control & C_ENABLE) && !t->flushing) return;
    if (t->overflow_pending && t->fifo_count + 2 <= t->fifo_cap) push_resync(t);
    /* one message per cycle from the FIFO into the packer */
    if (t->fifo_count && t->outq_count < TE_OUTQ) {
        te_entry_t *e = &t->fifo[t->fifo_head];
        nx_msg_t *m = &t->outq[(t->outq_head + t->outq_count) % TE_OUTQ];
        pack(t, e, m);
        t->probe_tcode = m->b[0] >> 2;
        t->probe_len = (uint8_t)m->len;
        t->outq_count++;
        t->fifo_head = (t->fifo_head + 1) % t->fifo_cap;
        t->fifo_count--;
        t->messages++;
    }
    if (te_to_funnel(t)) {
        if (t->flushing && te_empty(t)) t->flushing = false;
        return;
    }
    /* up to sink-width bytes per cycle (one sink word at most) */
    for (unsigned budget = t->sink.width; budget && t->outq_count;) {
        const nx_msg_t *m = &t->outq[t->outq_head];
        unsigned want = m->len - t->out_pos < budget ? m->len - t->out_pos : budget;
        unsigned took = sink_push_bytes(&t->sink, m->b + t->out_pos, want);
        for (unsigned i = 0; i < took && t->probe_nbytes < 8; i++)
            t->probe_bytes[t->probe_nbytes++] = m->b[t->out_pos + i];
        if (t->sink.stopped) { /* stop-on-wrap: the buffer is full */
            t->control &= ~C_ENABLE;
            t->sink.discarded += m->len - t->out_pos - want; /* sink counted want - took */
            discard_all(t);
            te_prog_sink_stopped(t); /* no more branch messages (nothing would drain them) */
            return;
        }
        budget -= took;
        t->out_pos += took;
        if (t->out_pos == m->len) {
            t->out_pos = 0;
            t->outq_head = (t->outq_head + 1) % TE_OUTQ;
            t->outq_count--;
        }
    }
    if (t->flushing && !t->fifo_count && !t->outq_count && !t->sink.sba_valid) {
        sink_flush(&t->sink);
        t->flushing = false;
    }
}

const nx_msg_t *te_port_peek(const te_t *t) {
    return (te_to_funnel(t) && t->outq_count) ? &t->outq[t->outq_head] : NULL;
}

void te_port_pop(te_t *t) {
    if (!t->outq_count) return;
    t->outq_head = (t->outq_head + 1) % TE_OUTQ;
    t->outq_count--;
}

void te_sink_error(te_t *t) { t->control |= C_SINK_ERROR; }

static uint32_t impl_value(const te_t *t) {
    unsigned sb = t->cfg.sink_bytes == 4 ? 0 : t->cfg.sink_bytes == 8 ? 1 :
                                           t->cfg.sink_bytes == 16    ? 2 :
                                                                        3;
    return (1u << 4) | (1u << 7) | (t->cfg.has_funnel ? 1u << 8 : 0) | sb << 16 |
           (t->cfg.hart & 15u) << 20 | (t->cfg.src_bits & 7u) << 24 | (t->cfg.hart & 15u) << 28;
}

static uint32_t control_value(const te_t *t) {
    uint32_t v = t->control | 1u << 24; /* teSliceFormat = 1 */
    if (te_empty(t) && !t->flushing) v |= C_EMPTY;
    return v;
}

/* a stimulus store would be accepted now */
static bool itc_room(const te_t *t) {
    return t->fifo_count + (t->overflow_pending ? 3u : 1u) <= t->cfg.itc_depth;
}
bool te_fifo_room(const te_t *t) { return itc_room(t); }

uint32_t te_control(const te_t *t) { return control_value(t); }
bool te_itc_ready(const te_t *t) {
    bool on = (t->control & (C_ACTIVE | C_ENABLE | C_TRACING)) == (C_ACTIVE | C_ENABLE | C_TRACING);
    return !on || itc_room(t);
}

bool te_itc_store_waits(const te_t *t, uint32_t off) {
    uint32_t c = t->control;
    unsigned n = (off - TE_ITC_STIMULUS) >> 2, mode = (c >> C_INSTRUMENTATION_SHIFT) & 3;
    if (off < TE_ITC_STIMULUS || off >= TE_ITC_STIMULUS + 0x80) return false;
    if ((c & (C_ACTIVE | C_ENABLE | C_TRACING)) != (C_ACTIVE | C_ENABLE | C_TRACING)) return false;
    if (!((t->itc_enable >> n) & 1) || mode == 0 || (mode == 2 && n != 15 && n != 31)) return false;
    return !itc_room(t) && (c & C_STALL_ENABLE);
}

static enum te_access stimulus_store(te_t *t, uint32_t off, unsigned size, uint32_t val) {
    unsigned n = (off - TE_ITC_STIMULUS) >> 2, byte = off & 3;
    if ((size == 4 && byte) || (size == 2 && (byte & 1))) return TE_ERR;
    uint32_t c = t->control;
    if ((c & (C_ACTIVE | C_ENABLE | C_TRACING)) != (C_ACTIVE | C_ENABLE | C_TRACING)) return TE_IGNORED;
    if (!((t->itc_enable >> n) & 1)) return TE_IGNORED;
    unsigned mode = (c >> C_INSTRUMENTATION_SHIFT) & 3, kind;
    bool owner = n == 15 || n == 31;
    if (mode == 0 || (mode == 2 && !owner)) return TE_IGNORED;
    kind = (mode >= 2 && owner) ? TE_OWN : TE_DQM;
    if (!itc_room(t)) {
        if (c & C_STALL_ENABLE) {
            t->control |= C_STALL_OR_OVERFLOW;
            t->stalled = true;
            t->stall_cycles++;
            return TE_WAIT;
        }
        mark_lost(t);
        t->lost++;
        return TE_DROPPED;
    }
    if (t->overflow_pending) push_resync(t);
    uint32_t mask = size == 4 ? 0xFFFFFFFFu : size == 2 ? 0xFFFFu :
                                                          0xFFu;
    fifo_push(t, (uint8_t)kind, ((n & 15) << 2) | byte, val & mask);
    t->itc_accepted++;
    return TE_OK;
}

enum te_stm_status te_stm_event(te_t *t, uint16_t id, uint32_t value) {
    uint32_t on = C_ACTIVE | C_ENABLE | C_TRACING;
    if ((t->control & on) != on || !(t->stm_control & 1) || !id) return TE_STMEV_OFF;
    if (!itc_room(t)) { /* no back-pressure: drop and count */
        mark_lost(t);
        t->stm_lost++;
        return TE_STMEV_LOST;
    }
    if (t->overflow_pending) push_resync(t);
    if (id == STM_ID_THREAD_SWITCH) fifo_push(t, TE_STM_OWN, 0, value);
    else
        fifo_push(t, TE_DQM, STM_IDTAG_BASE + 4u * id, value);
    return TE_STMEV_TRACED;
}

static void write_control(te_t *t, uint32_t v) {
    if (!(v & C_ACTIVE)) {
        te_reset(t);
        return;
    }
    if (t->cfg.stall_force) v |= C_STALL_ENABLE; /* run --trace-stall */
    uint32_t old = t->control;
    uint32_t keep = old & (C_STALL_OR_OVERFLOW | C_SINK_ERROR);
    if (!(v & C_STALL_OR_OVERFLOW)) keep &= ~C_STALL_OR_OVERFLOW; /* writing 0 clears */
    if (v & C_SINK_ERROR) keep &= ~C_SINK_ERROR;                  /* W1C */
    unsigned sink = v >> C_SINK_SHIFT;
    if (!(sink == SINK_DEFAULT || sink == SINK_CODE_SRAM || sink == SINK_CODE_SBA ||
          (sink == SINK_CODE_FUNNEL && t->cfg.has_funnel)))
        sink = SINK_DEFAULT; /* WARL */
    uint32_t nv = (v & C_WRITABLE & ~(0xFu << C_SINK_SHIFT)) | keep | sink << C_SINK_SHIFT |
                  te_prog_warl(&t->prog, (v >> 4) & 7u) << 4;
    if (!((v >> 4) & 7u) && t->prog.force == TE_INSN_EVENT) nv &= ~(0xFu << 20); /* forced: PC samples on */
    if (t->cfg.context_force) nv |= C_CONTEXT;                                   /* run --trace-context */
    t->control = nv;
    bool prog_was = t->prog.on;
    te_prog_control(t, old, nv); /* program trace: start (sync owed) or stop */
    t->sink.kind = sink == SINK_CODE_SBA ? SINK_SBA : SINK_SRAM;
    t->sink.stop_on_wrap = (nv & C_STOP_ON_WRAP) != 0;
    bool was_on = (old & (C_ACTIVE | C_ENABLE)) == (C_ACTIVE | C_ENABLE);
    bool on = (nv & C_ENABLE) != 0;
    if (was_on && (old & C_TRACING) && !((nv & C_TRACING) && on) && t->fifo_count < t->fifo_cap &&
        !prog_was)
        fifo_push(t, TE_STOP, 0, 0);                       /* trace stop */
    if (was_on && !on && !te_empty(t)) t->flushing = true; /* drain to the sink */
    if (on) t->flushing = false;
    if (on && (nv & C_TRACING) && !((old & C_TRACING) && was_on) && t->fifo_count < t->fifo_cap &&
        !t->prog.on)
        fifo_push(t, TE_SYNC, 0, 0); /* trace start */
}

enum te_access te_read(te_t *t, uint32_t off, unsigned size, uint32_t *val) {
    if (size != 4 || (off & 3)) return TE_ERR;
    bool active = t->control & C_ACTIVE;
    if (off >= TE_ITC_STIMULUS && off < TE_ITC_STIMULUS + 0x80) {
        bool on = (t->control & (C_ACTIVE | C_ENABLE | C_TRACING)) == (C_ACTIVE | C_ENABLE | C_TRACING);
        *val = (!on || itc_room(t)) ? 1 : 0;
        return TE_OK;
    }
    switch (off) {
    case TE_CONTROL: *val = control_value(t); return TE_OK;
    case TE_IMPL: *val = impl_value(t); return TE_OK;
    case TE_EVCONTROL: *val = t->evcontrol; return TE_OK;
    case TE_SINK_DATA: *val = active ? sink_read_data(&t->sink) : 0; return TE_OK;
    case TE_FIFO: *val = t->fifo_count; return TE_OK;
    case TE_BTM_COUNT: *val = (uint32_t)t->messages; return TE_OK;
    case TE_WORD_COUNT: *val = (uint32_t)t->sink.words; return TE_OK;
    case TE_XTI_CONTROL: *val = t->xti; return TE_OK;
    case TE_XTO_CONTROL: *val = t->xto; return TE_OK;
    case TE_WP_CONTROL: *val = t->wpctl; return TE_OK;
    case TE_ITC_TRACE_ENABLE: *val = t->itc_enable; return TE_OK;
    case TE_ITC_TRIG_ENABLE: *val = t->itc_trig; return TE_OK;
    case TE_STM_CONTROL: *val = t->stm_control; return TE_OK;
    case TE_STM_LOST: *val = t->stm_lost; return TE_OK;
    default:
        if (sink_reg_read(&t->sink, off, val) || tsunit_reg_read(&t->ts, off, val)) return TE_OK;
        if (off < 0x1000) {
            *val = 0;
            return TE_OK;
        } /* reserved: reads 0 */
        return TE_ERR;
    }
}

enum te_access te_write(te_t *t, uint32_t off, unsigned size, uint32_t val) {
    if (off >= TE_ITC_STIMULUS && off < TE_ITC_STIMULUS + 0x80) {
        if (!(t->control & C_ACTIVE)) return TE_IGNORED;
        return stimulus_store(t, off, size, val);
    }
    if (size != 4 || (off & 3)) return TE_ERR;
    if (off == TE_CONTROL) {
        write_control(t, val);
        return TE_OK;
    }
    if (!(t->control & C_ACTIVE)) return TE_OK; /* in reset: ignored */
    switch (off) {
    case TE_EVCONTROL: t->evcontrol = val & 0x3Fu; break;
    case TE_XTI_CONTROL: t->xti = val; break;
    case TE_XTO_CONTROL: t->xto = val; break;
    case TE_WP_CONTROL: t->wpctl = val; break;
    case TE_ITC_TRACE_ENABLE: t->itc_enable = val; break;
    case TE_ITC_TRIG_ENABLE: t->itc_trig = val; break;
    case TE_STM_CONTROL: t->stm_control = val & 1u; break;
    case TE_STM_LOST: t->stm_lost = val; break;
    default: /* sink, timestamp, or ignored */
        if (!sink_reg_write(&t->sink, off, val)) tsunit_reg_write(&t->ts, off, val);
        break;
    }
    return TE_OK;
}
