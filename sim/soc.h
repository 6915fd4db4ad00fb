/* soc.h - the simulated SoC: N harts (1..8), each a Verilated core with its HPM model and
 * trace encoder, the shared devices wired to them through the bus (sim/bus.h), the funnel
 * when N > 1, and the run controller with its cycle loop.
 *
 * The models are passive (CLINT, UART, simctrl, HPM, trace encoder/funnel, the interconnect);
 * sim/ owns the clock. Each cycle soc_step() does, in this fixed order (steps 1-3 for hart 0,
 * then hart 1, ...):
 *   1. clock edge: clk_i toggles and the core model is evaluated once (the build clocks every
 *      flop on both edges, see rtl_model/core/ts_core_pkg.sv); the core's flops update,
 *      and the DPI CSR accesses of the instruction that committed in the previous cycle
 *      happen here;
 *   2. events: the hart's HPM model ticks with its core's event vector ORed with its bus
 *      port's events of the cycle that just ended (both describe that cycle), and the event
 *      totals count; the hart's retire counter advances;
 *   3. ground truth: the logs (counters.csv, flow.csv, --retire-log; sim/ground_truth_log.h)
 *      take the instruction the retire port shows (it committed or trapped in the cycle that
 *      just ended) and a counter CSR read made at this edge;
 *   4. trace tick: the encoders (hart order), then the funnel tick; an SBA sink word goes
 *      into RAM through the bus and takes the RAM port for this cycle (the SBA sink wins);
 *   5. bus service: the bus answers every hart's fetch, then the data requests of this cycle
 *      (one access per target; arbitration in bus.h);
 *   6. the CLINT ticks and drives every hart's interrupt lines (and the HPMs' time);
 *   7. waves: if dumping, the C-model probes are driven and the cycle is dumped.
 *   A hart whose trace encoder requests a stall (program trace with teStallEnable and a FIFO
 *   that cannot take what one more retirement may emit: te_prog_hold(), asked before step 1)
 *   is held for the cycle: no edge, no eval, its retire port and event vector are not read
 *   again (they still show the previous cycle), only mcycle counts (hpm_tick_held), its bus
 *   port is not served in step 5 (the answers it has wait for its next edge), its interrupt
 *   lines stay driven. Everything else (the encoders and sinks, the CLINT, the other harts)
 *   runs on.
 * Harts are independent Verilated models sharing one context (and one waveform file); no
 * state crosses between them except through the bus, the CLINT and the trace funnel, so
 * the order of steps 1-3 among harts does not change any result.
 *   The answers take effect at the next edge (Verilator settles the combinational logic
 *   that depends on them at the start of that eval). Waveforms get one sample per cycle,
 *   at time `cycle` (one time unit of the dump per cycle: GTKWave's "ns" read as cycles).
 */
#ifndef TS_SOC_H
#define TS_SOC_H
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include "bus.h"
#include "cache.h"
#include "clint.h"
#include "ev_count.h"
#include "funnel.h"
#include "callstack.h"
#include "ground_truth_log.h"
#include "hang.h"
#include <signal.h>
#include "hpm.h"
#include "perf_live.h"
#include "prog_gt.h"
#include "simctrl.h"
#include "te.h"
#include "uart.h"
#include "vcore.h"

enum soc_stop {
    SOC_RUNNING = 0,
    SOC_EXIT,        /* firmware wrote simctrl EXIT */
    SOC_CYCLE_LIMIT, /* --max-cycles reached */
    SOC_HANG,        /* every hart stuck for good (sim/hang.h) */
    SOC_INTERRUPTED, /* the host asked to stop (*interrupt non-zero: SIGINT/SIGTERM) */
};

/* Run hooks (soc_t run_hooks): what the firmware asked of simctrl, told to the host in the
 * cycle of its store, after the SoC did it (NULL: none; cold paths only). ctx is the first
 * argument of each. */
typedef struct soc_run_hooks {
    void *ctx;
    void (*exit)(void *ctx, int code);                      /* EXIT: the run ends after this cycle */
    void (*mark)(void *ctx, unsigned hart, uint32_t value); /* MARK (its marks.csv row written) */
    /* FILE_CMD: name NULL if FILE_NAME was no valid name; status as FILE_STATUS reads it */
    void (*host_io)(void *ctx, unsigned hart, const char *name, uint32_t len, uint32_t status);
} soc_run_hooks_t;

typedef struct soc_cfg {
    uint32_t ram_size;             /* bytes, default 16 MiB */
    unsigned ram_wait;             /* wait states per RAM access (fetch and data), default 0 */
    unsigned mtime_div;            /* core cycles per mtime tick, default 100 */
    uint64_t max_cycles;           /* 0 = no limit */
    const char *out_dir;           /* run folder (must exist) */
    const char *waves_path;        /* NULL: no waves */
    int waves_fst;                 /* 1 FST, 0 VCD */
    uint64_t waves_from, waves_to; /* cycle window [from, to); to = 0: no end */
    bool waves_func;               /* dump only while the function at waves_func_addr is on a call stack */
    uint32_t waves_func_addr, waves_func_size;
    uint32_t gt_hooks[GT_HOOKS]; /* the perf hook functions' addresses for hooks.csv (0: none) */
    bool waves_by_firmware;      /* dumping starts off; simctrl WAVES switches it */
    bool waves_all;              /* dump every signal, not only those of the views */
    bool quiet;                  /* no UART echo on stdout, no progress */
    bool progress;               /* progress line on stderr */
    const char *retire_log;      /* NULL, or a file for the retire stream (cycle pc insn / trap) */
    hpm_cfg_t hpm;
    cache_cfg_t icache, dcache; /* size 0: no cache (default) */
    te_cfg_t te;                /* trace encoders (hart and has_funnel are set per hart) */
    unsigned harts;             /* 1..SOC_MAX_HARTS, default 1 */
    bool funnel;                /* add a trace funnel at 0x1001_8000 (always there when harts > 1) */
    bool no_trace;              /* detach the trace model: its page reads 1, ignores writes */
    bool stm_thread_switch;     /* the cores emit THREAD_SWITCH on writes to tp (x4) */
    uint64_t host_io_limit;     /* bytes the firmware may write to RUN/host (default 64 MiB) */
    const char *trace_bus_log;  /* NULL, or a file for every trace register access and SBA write
                                * (--record-trace-bus; the SystemC replay test reads it) */
    unsigned xlen;              /* the cores: 32 (and 0) RV32IMAC, 64 RV64IMAC (the ELF's class) */
} soc_cfg_t;

#define SOC_MAX_HARTS BUS_MAX_HARTS

/* One hart: its core, its ports on the bus, its HPM counters and its trace encoder. */
typedef struct soc_hart {
    vcore_t *vc;
    const vcore_ports_t *p;
    bus_port_t port; /* instruction and data ports on the bus */
    hpm_t hpm;
    te_t te;
    bool te_ready;
    uint64_t instret;
    ev_count_t ev;        /* cycles in which each event of the 64-bit vector happened
                               * (ev.total: complete after soc_run_end) */
    uint64_t stm_events;  /* software trace port events (all, whatever became of them) */
    uint64_t held_cycles; /* cycles the hart was held by its encoder's stall request */
    gt_log_t gt;          /* ground truth of this hart (hart 0's log owns the files) */
    prog_gt_t pgt;        /* program trace ground truth (prog_flow.csv) */
} soc_hart_t;

typedef struct soc {
    soc_cfg_t cfg;
    unsigned n;    /* harts */
    unsigned xlen; /* 32 or 64 (cfg.xlen) */
    soc_hart_t h[SOC_MAX_HARTS];
    bus_t bus; /* interconnect and RAM */
    clint_t clint;
    uart_t uart;
    simctrl_t simctrl;
    funnel_t funnel;
    bool funnel_on, funnel_ready;
    uint64_t cycle;
    uint64_t sink_stop_cycle; /* cycle in which the sink stopped on wrap (0: it did not) */
    bool trace_idle;          /* after the last trace tick every encoder and the funnel were
                               * idle (te_tick_idle, funnel_tick_idle): the next tick is skipped
                               * unless a trace register was accessed (bus.trace_touched) */
    /* run control */
    enum soc_stop stop;
    int exit_code; /* the value the firmware wrote to simctrl EXIT (signed 32-bit) */
    /* set by the host (tracesim run: a SIGINT/SIGTERM handler), read between cycles: when
     * non-zero the run stops with SOC_INTERRUPTED. NULL: never. */
    const volatile sig_atomic_t *interrupt;
    bool waves_switch; /* firmware's WAVES switch */
    hang_t hang;       /* hang detection (sim/hang.h) */
    struct {           /* --waves-func: per hart, the frames of the function still open
                               * (decoder/include/callstack.h: call site = the call's return address, sp
                               * at the call) */
        cs_t cs;
        bool named; /* the stack's thread is known (tp) */
    } func[SOC_MAX_HARTS];
    bool waves_open, waves_active;
    /* timestamp - cycle of every traced ITC store and software event (the cycle of its
     * itc.csv / stm.csv row), while one constant: trace.json's ts_cycle_offset */
    bool ts_rel_seen, ts_rel_varies;
    int64_t ts_rel;
    perf_live_t perf_live; /* the perf headers of the traced ITC stores, for perf_config.txt */
    bool waves_closing;    /* the next sample ends a dumped stretch: probe_dumping 0 */
    bool waves_win_open;   /* a dumped stretch [waves_win_from, waves_win_last] is open */
    uint64_t waves_win_from, waves_win_last;
    FILE *waves_csv;      /* waves_windows.csv: the dumped stretches (cycles [from, to)) */
    char waves_tmp[4200]; /* VCD: FST written here first, converted at the end */
    char waves_err[4400]; /* the waveform file could not be written (a full disk) */
    /* outputs */
    FILE *uart_txt, *marks_csv, *guest_log, *trace_bus;
    FILE *prog_csv;       /* prog_flow.csv (sim/prog_gt.h), created at the first traced retirement */
    bool prog_csv_failed; /* it could not be created (said once) */
    unsigned guest_errors;
    uint64_t guest_errors_total;
    /* NULL, or where software trace port events go instead of te_stm_event() on the hart's
     * encoder: a platform whose encoders keep their own time (the SystemC platform's
     * ts_te_sc::stm_event brings the encoder up to `cycle` first). Cold path only. */
    enum te_stm_status (*stm_event)(void *ctx, unsigned hart, uint64_t cycle, uint16_t id, uint32_t value);
    void *stm_event_ctx;
    /* NULL, or the debugger (sim/gdb/gdb_stub.h): soc_run() then runs the same steps one
     * cycle at a time and calls it before every cycle (and once more after the last, with
     * s->stop set); the SystemC platform calls it before every cycle. It only looks at the
     * state and may block while the SoC is halted; it never ticks a model. It may end the
     * run by setting s->stop. */
    void (*between)(void *ctx, struct soc *s);
    void *between_ctx;
    soc_run_hooks_t run_hooks; /* set by the host after soc_init (all NULL: none) */
} soc_t;

void soc_default_cfg(soc_cfg_t *cfg);
/* Returns 0, or -1 with a message in err (size errlen). */
int soc_init(soc_t *s, const soc_cfg_t *cfg, char *err, size_t errlen);
void soc_free(soc_t *s);
/* Closes the run's output files (uart.txt, marks.csv, guest_errors.log, --record-trace-bus,
 * the ground-truth logs and --retire-log): 0, or -1 with "cannot write PATH: reason" in err
 * (may be NULL) if any write to them failed. soc_free closes what is left unchecked. */
int soc_close_outputs(soc_t *s, char *err, size_t errlen);
/* Copies len bytes to guest physical address addr; false if outside RAM. */
bool soc_load(soc_t *s, uint32_t addr, const void *src, uint32_t len, uint32_t zero_fill);
/* Resets the core (boot at entry) and the devices. */
void soc_reset(soc_t *s, uint32_t entry);
/* Runs until the firmware exits or the cycle limit; returns the stop reason. */
enum soc_stop soc_run(soc_t *s);
/* The steps of one cycle for a platform that owns the clock itself (the SystemC platform,
 * sim/systemc/): soc_step_hart() is steps 1-3 of one hart, soc_step_bus() steps 5-6 (after
 * the trace tick, which such a platform does itself), soc_step_end() step 7, the cycle count
 * and the waves window; soc_run_end() what soc_run() does after the last cycle. soc_run()
 * does the same inline (these out-of-line copies are never on its loop). soc_step_end() also
 * runs the hang detection's probe (sim/hang.h) as soc_run() does. */
void soc_step_hart(soc_t *s, unsigned hart);
void soc_step_bus(soc_t *s);
void soc_step_end(soc_t *s);
void soc_run_end(soc_t *s);
struct elf_syms;
/* The hang detection's probe (sim/hang.h, sim/soc_hang.c). Starts a probe (the run loop
 * calls it every HANG_CHECK_PERIOD cycles) and looks at the ports of the cycle that just ended. */
void soc_hang_begin(soc_t *s);
/* During a probe, after each cycle: sets s->stop = SOC_HANG when every hart is stuck. */
void soc_hang_observe(soc_t *s);
/* One line per hart on f: "tracesim: hart H hangs at 0xPC <func+0xOFF>: jump to itself
 * since cycle N" or "...: waits in wfi with no interrupt that can wake it since cycle N".
 * syms: NULL or the ELF's symbols. */
void soc_hang_report(const soc_t *s, const struct elf_syms *syms, FILE *f);
/* Guest error: firmware did something the SoC rejects; logged, simulation continues. */
void soc_guest_error(soc_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A software trace port event the hart's core shows (it committed in the previous cycle):
 * to the encoder (unless --no-trace; through s->stm_event if set), stm.csv, trace_events.csv
 * and the trace bus record. Called from step 3, before this cycle's trace tick. */
void soc_stm_event(soc_t *s, soc_hart_t *h);
/* Retired instructions of all harts */
uint64_t soc_instret(const soc_t *s);
/* The sink the trace leaves through: the funnel's, or hart 0's encoder's without a funnel */
const sink_t *soc_sink(const soc_t *s);
#endif
