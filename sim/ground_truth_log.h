/* ground_truth_log.h - what the simulated hardware really did, for checking decoded traces
 * (docs/commands/run.md): itc.csv (every ITC store the firmware made, with its status:
 * traced or why not), counters.csv
 * (every counter CSR read and timestamp-register load), flow.csv (calls, returns, traps,
 * mrets), hooks.csv (every entry into a perf hook function, by a call or a sibling/tail jump,
 * with the argument registers a0, a1 and ra as the core had them), traps.csv (every trap with
 * the cycle its interrupt became pending, its handler's first instruction and its xRET), and
 * the optional --retire-log stream.
 *
 * One clock for all of them: a row's cycle is the cycle in which its instruction was in MEM
 * and committed (or trapped), the cycle of itc.csv, where a store's cycle is also its commit
 * cycle; so one cycle holds at most one row of the three CSV files and cycle order is
 * program order. A counter CSR is read at the clock edge that ends that cycle (before the HPM
 * counts that cycle's events); a timestamp register is read by the load's bus access in that
 * cycle (after the trace model's tick of that cycle).
 *
 * The log watches one core's retire port; the run controller calls gt_log_retire() after a
 * clock edge when that edge's event vector has a bit of `mask` set (GT_LOG_EVENTS).
 *
 * Several harts: one log per hart; hart 0's owns the files, the others share them
 * (gt_log_share). Every row carries its hart. Per hart, rows are in cycle order; rows of
 * different harts in one cycle are in hart order, except that a call/ret row of flow.csv is
 * written when its target retires (a few cycles later), so a reader that checks one hart
 * takes that hart's rows in file order. */
#ifndef TS_GROUND_TRUTH_LOG_H
#define TS_GROUND_TRUTH_LOG_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "ev_bits.h"
#include "vcore.h"

/* Which edges need gt_log_retire, from the core's event vector of the same edge (ev_o and the
 * retire port are registered together from the same commit): a JAL, JALR or SYSTEM
 * instruction (CSR access, mret) retired, or a trap was taken; while a call/return waits
 * for its target, any retired instruction. One AND per cycle, far cheaper than decoding every
 * retired instruction's bits (docs/performance.md, "What features cost the simulator"). */
#define GT_LOG_EVENTS (EVB_JAL | EVB_JALR | EVB_SYSTEM | EVB_EXC_TAKEN | EVB_IRQ_TAKEN)

/* the perf hook functions whose entries hooks.csv logs (their addresses come from the ELF) */
enum { GT_HOOK_ENTER,
       GT_HOOK_EXIT,
       GT_HOOK_MANUAL,
       GT_HOOKS };
extern const char *const gt_hook_names[GT_HOOKS];

#define GT_TRAP_DEPTH 64 /* open traps followed per hart (deeper: the oldest is written unreturned) */
#define GT_NEVER UINT64_MAX

/* a trap taken and not yet returned from (traps.csv) */
typedef struct gt_trap {
    uint64_t taken, pending, first; /* GT_NEVER: none (an exception; not yet retired) */
    uint32_t cause, pc, handler;
    unsigned depth; /* traps open when it was taken */
} gt_trap_t;

typedef struct gt_log {
    unsigned hart; /* the hart whose retire port the log watches (flow.csv) */
    bool tag_hart; /* retire log lines start with "h<hart> " (several harts) */
    bool rv64;     /* an RV64 hart: the compressed words RV32 reads as C.JAL are C.ADDIW */
    /* optional: told of every call and return when its target is known (has_target false:
     * the run ended first), with the stack pointer and tp (the thread) after the jump; ctx
     * is flow_ctx */
    void (*flow_hook)(void *ctx, unsigned hart, bool ret, bool has_target, uint32_t target, uint32_t link, uint32_t sp,
                      uint32_t tp);
    /* optional: told of every retired write to tp (x4, the thread: a switch), with tp before
     * and after it; ctx is flow_ctx. Set, gt_log_retire needs every retired instruction (mask
     * and the owner's mask include EVB_RETIRE) */
    void (*tp_hook)(void *ctx, unsigned hart, uint32_t old_tp, uint32_t new_tp);
    void *flow_ctx;
    FILE *itc, *counters, *flow; /* NULL: that file is not written */
    char *itc_buf;               /* itc.csv rows not yet handed to stdio (the owner's; gt_log_itc) */
    size_t itc_fill;
    FILE *trace_events;       /* trace_events.csv: ITC stores lost, the sink stopping */
    FILE *stm;                /* stm.csv: every software trace port event */
    FILE *retire;             /* --retire-log; NULL: none */
    FILE *hooks;              /* hooks.csv; NULL: not written */
    FILE *hpm_writes;         /* hpm_writes.csv; NULL: not written */
    FILE *traps;              /* traps.csv; NULL: not written */
    const uint16_t *irq_pend; /* the core's mip & mie (vcore_ports_t.irq_pend) while traps.csv
                               * is written, else a constant 0: sampled every cycle without a
                               * test of traps (gt_log_irq_attach) */
    struct {                  /* traps.csv: per interrupt cause (mip bit), the first cycle of the
                              * current stretch of cycles in which it was pending and enabled */
        uint32_t live;        /* causes pending and enabled in the last cycle sampled */
        uint64_t since[32];
        unsigned n;       /* traps open (nesting depth) */
        bool await_first; /* the top one's handler has not retired an instruction yet */
        gt_trap_t open[GT_TRAP_DEPTH];
    } irq;
    uint32_t hook[GT_HOOKS]; /* entry addresses of the hook functions (0: not in the ELF) */
    uint32_t mask;           /* events of an edge that need gt_log_retire (0: no flow.csv) */
    struct {                 /* a counter CSR read at the last edge, logged once the retire
                                   * port shows its instruction (a csrw, rd = x0, is no read) */
        bool pending;
        unsigned hart;
        uint32_t pc, csr, value;
    } csr;
    struct { /* a write of mcountinhibit/mhpmevent at the last edge, logged
                                   * once the retire port shows its instruction */
        bool pending;
        uint32_t csr, value;
    } csrw;
    struct {                     /* a call or return waiting for its target: the pc of the
                                   * next instruction that retires or traps */
        bool pending, ret, tail; /* tail: a jump (rd = x0) that is no return, logged only
                                   * when its target is a hook function */
        uint32_t pc, link;
        uint64_t cycle;
    } jump;
} gt_log_t;

/* The log starts zeroed (memset or = {0}): nothing open, hart 0. Opens itc.csv, counters.csv and flow.csv in dir, writes their headers and sets mask; 0,
 * or -1 with a message in err. */
int gt_log_open(gt_log_t *g, const char *dir, char *err, size_t errlen);
/* The hook functions' entry addresses (0: absent), for hooks.csv; set before the run. */
void gt_log_set_hooks(gt_log_t *g, const uint32_t hook[GT_HOOKS]);
/* Opens the retire log at path; 0, or -1 with a message in err. */
int gt_log_open_retire(gt_log_t *g, const char *path, char *err, size_t errlen);
/* A log of `hart` writing to the files of owner (which must stay open while g is used). */
void gt_log_share(gt_log_t *g, const gt_log_t *owner, unsigned hart);
/* Closes whatever is open (call on the owner only): 0, or -1 with "cannot write PATH: reason"
 * in err (may be NULL) if a write or close failed; dir names the logs, retire_path the retire log. */
int gt_log_close(gt_log_t *g, const char *dir, const char *retire_path, char *err, size_t errlen);

/* trace_events.csv row: cycle,hart,event,detail (event itc_lost: detail = the stimulus
 * channel; sink_stopped: the sink stopped on wrap, hart = the encoder (-1 for the funnel)) */
void gt_log_trace_event(gt_log_t *g, uint64_t cycle, int hart, const char *event, unsigned detail);
/* hands the buffered itc.csv rows to stdio and flushes itc.csv (call on the owner) */
void gt_log_itc_flush(gt_log_t *g);
/* itc.csv row for an ITC stimulus store (value already cut to size); status: what became of
 * it (bus.h enum bus_itc_status: traced, dropped_fifo, after_stop, encoder_off) */
void gt_log_itc(gt_log_t *g, uint64_t cycle, unsigned hart, unsigned stim, unsigned off,
                unsigned size, uint32_t value, int status);
/* stm.csv row: a software trace port event of `cycle` (its commit cycle); status "traced",
 * "lost" or "off" (docs/firmware/software-trace.md) */
void gt_log_stm(gt_log_t *g, uint64_t cycle, unsigned hart, unsigned id, uint32_t value,
                const char *status);
/* counters.csv row for a load of a timestamp register; name as in counters.csv */
void gt_log_ts_read(gt_log_t *g, uint64_t cycle, unsigned hart, uint32_t pc, const char *name,
                    uint32_t value);
/* hpm_writes.csv rows at cycle 0 for the hart: the reset mcountinhibit and the configuration
 * (counter widths, implemented counters); every write follows (gt_log_csrw_hook) */
struct hpm;
void gt_log_hpm_config(gt_log_t *g, const struct hpm *h);
/* DPI hook (dpi_csr_write_hook_t) with ctx = the gt_log_t: a write of mcountinhibit or
 * mhpmeventN at this edge, value as the register now holds it */
void gt_log_csrw_hook(void *ctx, unsigned hart, uint32_t csr, uint32_t value);
/* DPI hook (dpi_csr_read_hook_t) with ctx = the gt_log_t: a counter CSR read at this edge */
void gt_log_csr_hook(void *ctx, unsigned hart, uint32_t pc, uint32_t csr, uint32_t value);
/* After an edge whose events hit mask: the instruction the retire port p shows committed or
 * trapped in `cycle` (the cycle that edge ended). */
void gt_log_retire(gt_log_t *g, const vcore_ports_t *p, uint64_t cycle);
/* traps.csv: the interrupt enables of the cycle after an edge (the flops p shows hold the
 * state of `cycle`, the one after the cycle that edge ended); call after every edge, after
 * gt_log_retire. An interrupt cause counts as pending from the first cycle in which its
 * mip bit and mie bit are set and the core's global enable for it holds (mstatus.MIE or a
 * lower mode for M-mode interrupts; for ones delegated by mideleg, U-mode, or S-mode with
 * mstatus.SIE): the condition of the core's irq_m / irq_s (rtl_model/core/ts_core.sv),
 * that makes it take the interrupt at the first cycle MEM holds an instruction that is not
 * waiting for the bus (or a higher-priority interrupt's). */
void gt_irq_update(gt_log_t *g, const vcore_ports_t *p, uint32_t pend, uint64_t cycle);
/* before the first gt_log_irq_sample: the hart whose ports p are */
void gt_log_irq_attach(gt_log_t *g, const vcore_ports_t *p);
static inline void gt_log_irq_sample(gt_log_t *g, const vcore_ports_t *p, uint64_t cycle) {
    uint32_t pend = *g->irq_pend;
    if (__builtin_expect(pend | g->irq.live, 0)) gt_irq_update(g, p, pend, cycle);
}
/* End of run: a call or return whose target never retired gets its row without target; the
 * traps still open get their traps.csv rows without ret. */
void gt_log_finish(gt_log_t *g);

/* --retire-log line for the instruction or trap the retire port shows (it ended in cycle);
 * store: a RAM store completed in that cycle (address, data, size) */
void gt_log_retire_line(gt_log_t *g, const vcore_ports_t *p, uint64_t cycle, bool store,
                        uint32_t st_addr, uint32_t st_data, uint32_t st_size, uint32_t st_data_hi);
#endif
