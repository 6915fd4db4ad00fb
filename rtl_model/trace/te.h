/* te.h - SiFive-style trace encoder of one hart ("v0" register layout): teControl/teImpl,
 * the ITC stimulus registers with their FIFO, the timestamp unit, the Nexus message
 * generator and the SRAM/SBA sink (or the funnel port).
 *
 * Models: everything an ITC/perf flow uses (trace-hw-facts.md sections 1-4), and program
 * trace in BTM and HTM (teInstruction 3, 6, 7; te_prog.h) and event / PC-sample mode
 * (teInstruction 1; te_event.c). Leaves out: the PC sampling registers (0x100..), ATB/PIB sinks, external
 * triggers (xti/xto/wpControl are storage only).
 * See te.c for how the open questions of trace-hw-facts.md 8.2 were resolved. */
#ifndef TS_TE_H
#define TS_TE_H
#include <stdbool.h>
#include <stdint.h>
#include "nexus.h"
#include "sink.h"
#include "te_prog.h"
#include "tsunit.h"

typedef struct te_cfg {
    unsigned hart;       /* teImpl.hartId and srcID */
    unsigned src_bits;   /* teImpl.nSrcBits (0..7) */
    unsigned itc_depth;  /* ITC FIFO entries (default 8) */
    unsigned sink_bytes; /* sink width: 4, 8, 16, 32 (default 4) */
    unsigned sram_size;  /* SRAM sink bytes (default 16 KiB) */
    unsigned ts_width;   /* timestamp bits (default 40) */
    bool has_funnel;     /* the encoder can sink into a funnel (teSink = 8) */
    unsigned insn_force; /* teInstruction forced on every teControl write that leaves it 0
                             * (run --trace-insn; 0: none). 1 (event) also forces
                             * teSyncMaxInst 0 (PC samples) and resets evControl to 0x3F */
    bool stall_force;    /* teStallEnable set on every teControl write (run --trace-stall) */
    bool context_force;  /* teControl bit 9 (teContext: Ownership messages on privilege
                             * changes, te_prog.c) set on every teControl write (run
                             * --trace-context) */
    bool rv64;           /* the hart is RV64: addresses are 64-bit and the compressed
                             * encoding C.JAL of RV32 is C.ADDIW (te_prog.c, te_event.c) */
} te_cfg_t;

/* What became of a register access (te_read, te_write; funnel_read, funnel_write answer only
 * the first three):
 *   TE_OK       done; a stimulus store: the encoder took it into its ITC FIFO (itc_accepted)
 *   TE_ERR      refused: a bus error (a register of the wrong size, a misaligned store)
 *   TE_WAIT     a stimulus store held: full FIFO with teStallEnable (teStallOrOverflow set,
 *               stall_cycles counts); nothing else changed, try it again in a later cycle
 *   TE_DROPPED  a stimulus store lost: full FIFO without teStallEnable (`lost` counts,
 *               teStallOrOverflow set, an Error message and a sync follow)
 *   TE_IGNORED  a stimulus store the encoder does not trace: in reset (teActive 0), teEnable
 *               or teTracing clear, the channel not in itcTraceEnable, teInstrumentation 0,
 *               or 2 and not an Ownership channel (15, 31); nothing changed
 * Only a store to the ITC stimulus registers (0x080..0x0FF) answers the last two. */
enum te_access { TE_OK,
                 TE_ERR,
                 TE_WAIT,
                 TE_DROPPED,
                 TE_IGNORED };

enum te_entry_kind { TE_DQM,
                     TE_OWN,
                     TE_ERROR,
                     TE_SYNC,
                     TE_STOP,
                     TE_STM_OWN,
                     TE_PROG }; /* TE_PROG: a program trace message (te_prog.c) */
typedef struct te_entry {
    uint8_t kind;
    uint8_t tcode, code, btype; /* TE_PROG: TCODE, SYNC/EVCODE/RCODE, B-TYPE */
    uint32_t idtag;             /* ITC: 0..0x3f; software trace: IDTAG_BASE (0x40001) + 4 id */
    uint64_t data;              /* TE_PROG: I-CNT (or RDATA); ICT: CKDATA1 */
    uint64_t addr;              /* TE_PROG: the address to report (F-ADDR or U-ADDR) */
    uint64_t ts;                /* time of the store (or of the event) */
} te_entry_t;

#define TE_OUTQ 4 /* packed messages waiting for the sink */

typedef struct te {
    te_cfg_t cfg;
    uint32_t control; /* writable teControl bits */
    uint32_t evcontrol, xti, xto, wpctl, itc_enable, itc_trig;
    uint32_t stm_control, stm_lost; /* software trace port: stmControl, stmLost */
    tsunit_t ts;
    sink_t sink;
    te_entry_t *fifo; /* ring, itc_depth + 4 entries (room for Error + sync) */
    unsigned fifo_cap, fifo_head, fifo_count;
    bool overflow_pending; /* a store was lost: Error + sync owed */
    nx_msg_t outq[TE_OUTQ];
    unsigned outq_head, outq_count, out_pos; /* out_pos: bytes of the head message sent */
    bool flushing;                           /* teEnable went 0 with data queued */
    bool have_last_ts;
    uint64_t last_ts; /* full time of the previous timestamped message */
    uint64_t messages, lost, stall_cycles, itc_accepted;
    bool stalled; /* the last stimulus store was held (for the ITC-stall event) */
    /* for waveform probes: the last message packed and the bytes that entered the sink
     * since the consumer (sim/soc.c) last cleared probe_tcode and probe_nbytes */
    uint8_t probe_tcode, probe_len, probe_nbytes, probe_bytes[8];
    te_prog_t prog; /* program trace (te_prog.h) */
} te_t;

void te_default_cfg(te_cfg_t *c);
int te_init(te_t *t, const te_cfg_t *cfg);
void te_free(te_t *t);
void te_reset(te_t *t);
/* a slave timestamp unit reads the funnel's master counter */
void te_set_ts_master(te_t *t, const tsunit_t *master);
enum te_access te_read(te_t *t, uint32_t off, unsigned size, uint32_t *val);
enum te_access te_write(te_t *t, uint32_t off, unsigned size, uint32_t val);
/* one core cycle: timestamp, one message from the ITC FIFO into the packer, up to
 * sink_bytes bytes into the sink (unless the funnel takes them). The idle case (nothing
 * queued) is inline: it is most cycles of most runs. */
void te_work(te_t *t);
static inline void te_tick(te_t *t) {
    tsunit_tick(&t->ts);
    t->sink.sba_valid = false;
    t->stalled = false;
    if (t->fifo_count || t->outq_count || t->overflow_pending || t->flushing) te_work(t);
}
/* true if te_tick() would change nothing now but the timestamp unit's counter: nothing
 * queued or owed, not flushing, no sink word out, no stall flag, program trace off. Between
 * ticks only register accesses (te_read/te_write) and software trace events (te_stm_event)
 * change that; sim/soc.c skips the ticks of an idle trace subsystem on this and gives the
 * timestamp units the ticks they missed (te_skip) before anything reads them. Keep it in
 * step with te_tick(). */
static inline bool te_tick_idle(const te_t *t) {
    return !(t->fifo_count | t->outq_count | (unsigned)t->overflow_pending | (unsigned)t->flushing |
             (unsigned)t->sink.sba_valid | (unsigned)t->stalled | (unsigned)t->prog.on);
}
/* n te_tick()s of an encoder that was te_tick_idle() before them: only its timestamp unit
 * moves */
static inline void te_skip(te_t *t, uint64_t n) { tsunit_advance(&t->ts, n); }
bool te_empty(const te_t *t);
/* teControl as software reads it; true if a stimulus store would be accepted now */
uint32_t te_control(const te_t *t);
bool te_itc_ready(const te_t *t);
/* a stimulus store at offset off would wait now (full FIFO, teStallEnable): what a store held
 * in a cycle its hart was not clocked counts as (sim/soc.c, the ITC_STALL event) */
bool te_itc_store_waits(const te_t *t, uint32_t off);
/* a software trace port event (docs/firmware/software-trace.md) from the hart's core, in the
 * cycle after its commit and before this cycle's te_tick (so it gets the timestamp an ITC store
 * of its commit cycle gets). Never stalls: returns what became of it. */
enum te_stm_status { TE_STMEV_TRACED,
                     TE_STMEV_LOST,
                     TE_STMEV_OFF };
enum te_stm_status te_stm_event(te_t *t, uint16_t id, uint32_t value);
/* funnel port: the next whole message (NULL if none) and its removal */
const nx_msg_t *te_port_peek(const te_t *t);
void te_port_pop(te_t *t);
bool te_to_funnel(const te_t *t);
/* the SoC reports a failed SBA write: teSinkError */
void te_sink_error(te_t *t);
/* for te_prog.c: room for one more message in the FIFO (as for a stimulus store); queue one
 * (stamped with the time now); record a lost one (overflow: Error + sync follow) */
bool te_fifo_room(const te_t *t);
void te_fifo_put(te_t *t, const te_entry_t *e);
void te_fifo_lost(te_t *t);
/* after lost messages: queue the Error and the ITC sync now (room for both checked) */
void te_fifo_resync(te_t *t);
/* TE_PROG fields after TCODE and SRC; sets *full / *rel for the timestamp it carries */
void te_prog_pack(te_t *t, const te_entry_t *e, nx_msg_t *m, bool *full, bool *rel);
/* the same for event mode's ICT messages (TCODE 34/35, te_event.c) */
void te_event_pack(te_t *t, const te_entry_t *e, nx_msg_t *m, bool *full, bool *rel);
#endif
