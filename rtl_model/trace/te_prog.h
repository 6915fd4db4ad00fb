/* te_prog.h - program trace of the trace encoder (teInstruction 3: BTM + sync; 6, 7: HTM), fed by the
 * core's retire port one retired instruction (or trap) at a time. Part of te_t (te.h); the
 * messages go through the encoder's one FIFO, interleaved with ITC/perf records in the
 * order the hart emitted them. The rules and where each comes from: te_prog.c. */
#ifndef TS_TE_PROG_H
#define TS_TE_PROG_H
#include <stdbool.h>
#include <stdint.h>

/* teInstruction values the model implements (WARL: others read back as te_prog.c says);
 * 1: event / PC-sample mode (te_event.c) */
enum { TE_INSN_OFF = 0,
       TE_INSN_EVENT = 1,
       TE_INSN_BTM = 3,
       TE_INSN_HTM = 6,
       TE_INSN_HTM_RET = 7 };

/* event mode: a PC sample every TE_PC_SAMPLE_PERIOD executed instructions while teSyncMaxInst
 * is 0 (te_event.c) */
#define TE_PC_SAMPLE_PERIOD 256

/* teInstruction 7: the return stack (entries), as deep as the decoder's (prog_flow.h) */
#define TE_RSTACK_DEPTH 2048

/* teInstruction 7: repeat-branch optimisation (te_prog.c). A run of TE_REP_MIN equal
 * conditional-branch outcomes in a row leaves HIST for a taken / not-taken counter, sent as
 * RESOURCE FULL RCODE 9 / 8 when the run ends; a counter at TE_REP_MAX is sent at once */
#define TE_REP_MIN 16u
#define TE_REP_MAX 0xFFFFu

/* the I-CNT counter of the model: 16 bits of 16-bit units; with teSyncMaxInst = 15 (off) a
 * full counter forces a sync (te_prog.c) */
#define TE_ICNT_MAX 0xFFFFu

/* teControl bit 9, teContext (TCI v1's trTeContext): BTM/HTM report privilege changes with
 * Ownership messages (te_prog.c) */
#define TE_C_CONTEXT (1u << 9)

typedef struct te_prog {
    unsigned mode;     /* teInstruction as read back (0, 1, 3, 6 or 7) */
    unsigned force;    /* run option (--trace-insn): a teControl write with teInstruction
                             * 0 gets this mode instead (0: no forcing) */
    bool on;           /* program trace running: the SoC passes every retirement */
    bool gt_start;     /* tracing started: the next retirement is the store that did it */
    bool stopping;     /* tracing stopped: the next retirement is the store that did it
                             * (`on` stays set until then, for the ground truth) */
    uint8_t sync_owed; /* SYNC code of a sync owed at the next retirement (5 trace
                             * enable, 7 after an overflow), 0 none */
    bool lost;         /* a message was lost: nothing is counted until the resync */
    uint32_t icnt;     /* 16-bit units retired since the last message */
    uint32_t hist;     /* HTM: branch outcomes after a 1 stop bit, newest in bit 0 */
    unsigned sp;       /* HTM 7: return stack entries */
    uint64_t stack[TE_RSTACK_DEPTH];
    uint32_t msgs_since_sync;                  /* program trace messages (not Ownership) since the last sync-type one */
    uint64_t last_addr;                        /* the last address a message reported (U-ADDR base; pack time) */
    bool ev_full;                              /* event mode: the next event message is TCODE 35 (full address) */
    uint32_t ev_count;                         /* event mode: instructions executed since the last PC sample */
    uint8_t priv;                              /* the hart's privilege after the retirement being passed (0 U,
                             * 1 S, 3 M; te_prog_priv), 3 after reset */
    uint8_t rep_priv;                          /* the privilege the trace last reported (or would have) */
    bool sync_sent;                            /* this retirement emitted a sync-type message (9, 11, 12, 29) */
    uint64_t messages, lost_messages, retired; /* statistics */
    uint64_t hold_cycles;                      /* cycles the hart was held (teStallEnable: te_prog_hold) */
    unsigned tail;                             /* HTM 7: newest outcomes in HIST that are all equal (0: none) */
    uint32_t rep;                              /* HTM 7: equal outcomes counted in a run (0: no run) */
    bool rep_taken;                            /* ... their outcome */
} te_prog_t;

struct te;
/* teControl was written: old and new values as stored (called by te.c) */
void te_prog_control(struct te *t, uint32_t old, uint32_t nv);
/* The sink stopped on wrap and cleared teEnable (te.c): program trace stops as at a trace
 * stop, without a message (the buffer is full); the next retirement is the last one seen */
void te_prog_sink_stopped(struct te *t);
/* teInstruction as stored for a written value (WARL) */
unsigned te_prog_warl(const te_prog_t *p, unsigned written);
/* One retirement of the encoder's hart, in the cycle after it (before this cycle's tick,
 * like a software trace port event): pc and raw bits (16 bits for a compressed one) of the
 * instruction that committed, or of the one that trapped (trap: not committed; cause as
 * mcause); npc: the pc that follows it in program order (branch or jump target,
 * fall-through, xRET's return address, the trap handler). Addresses are XLEN bits wide
 * (te_cfg_t.rv64): F-ADDR and U-ADDR carry all of them, leading zeros not sent. */
void te_prog_retire(struct te *t, uint64_t pc, uint32_t insn, uint64_t npc, bool trap, uint64_t cause);
/* teStallEnable (te_prog_hold.c): the FIFO entries one retirement may need at most (its
 * program-trace messages, a software trace event, the Error + sync of a pending overflow) */
unsigned te_prog_worst_case(const struct te *t);
/* the encoder's stall request to its hart for this cycle, asked before the hart's clock edge:
 * true when program trace runs with teStallEnable and the FIFO cannot take te_prog_worst_case()
 * more entries. te_prog_hold() also records the held cycle (teStallOrOverflow, hold_cycles);
 * te_prog_must_hold() only decides. */
bool te_prog_must_hold(const struct te *t);
bool te_prog_hold(struct te *t);
/* The hart's privilege mode (0 U, 1 S, 3 M) after the retirement the next te_prog_retire
 * passes (the core's flop after that edge: a trap's handler mode, an xRET's new mode). The
 * SoC calls it before every te_prog_retire; without it the mode stays M. */
static inline void te_prog_priv(te_prog_t *p, unsigned priv) { p->priv = (uint8_t)(priv & 3u); }
/* event mode (te_event.c): the same retirement, called by te_prog_retire; trace stop */
void te_event_retire(struct te *t, uint64_t pc, uint32_t insn, uint64_t npc, bool trap, uint64_t cause);
void te_event_stop(struct te *t);
#endif
