/* soc.h - the simulated SoC: one Verilated core plus the C models, and the cycle loop.
 *
 * sim/ owns the clock. Each cycle soc_step() does, in this fixed order:
 *   1. clock edge: clk_i toggles and the model is evaluated once (the build clocks every
 *      flop on both edges, see rtl_model/core/ts_core_pkg.sv); the core's flops update,
 *      and the DPI CSR accesses of the instruction that committed in the previous cycle
 *      happen here;
 *   2. waves sample; the HPM model ticks with the core's event vector (ev_o describes the
 *      cycle that just ended); the retire counter advances; the ground-truth logs
 *      (counters.csv, flow.csv) take the instruction the retire port shows (it committed or
 *      trapped in the cycle that just ended) and a counter CSR read made at this edge;
 *   3. the bus answers the core's fetch and data requests for this cycle (RAM, CLINT, UART,
 *      simctrl, trace blocks), with wait states;
 *   4. the CLINT ticks and drives the interrupt lines;
 *   The answers take effect at the next edge (Verilator settles the combinational logic
 *   that depends on them at the start of that eval). Waveforms get one sample per cycle,
 *   at time 10 * cycle ns (100 MHz).
 */
#ifndef TS_SOC_H
#define TS_SOC_H
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include "cache.h"
#include "clint.h"
#include "funnel.h"
#include "te.h"
#include "hpm.h"
#include "vcore.h"

enum soc_stop {
    SOC_RUNNING = 0,
    SOC_EXIT,            /* firmware wrote simctrl EXIT */
    SOC_CYCLE_LIMIT,     /* --max-cycles reached */
};

typedef struct soc_cfg {
    uint32_t ram_size;        /* bytes, default 16 MiB */
    unsigned ram_wait;        /* wait states per RAM access (fetch and data), default 0 */
    unsigned mtime_div;       /* core cycles per mtime tick, default 100 */
    uint64_t max_cycles;      /* 0 = no limit */
    const char *out_dir;      /* run folder (must exist) */
    const char *waves_path;   /* NULL: no waves */
    int waves_fst;            /* 1 FST, 0 VCD */
    uint64_t waves_from, waves_to;  /* cycle window [from, to); to = 0: no end */
    bool waves_by_firmware;   /* dumping starts off; simctrl WAVES switches it */
    bool quiet;               /* no UART echo on stdout, no progress */
    bool progress;            /* progress line on stderr */
    const char *retire_log;   /* NULL, or a file for the retire stream (cycle pc insn / trap) */
    hpm_cfg_t hpm;
    cache_cfg_t icache, dcache; /* size 0: no cache (default) */
    te_cfg_t te;              /* trace encoder of hart 0 */
    bool funnel;              /* add a trace funnel at 0x1001_8000 */
    bool no_trace;            /* detach the trace model: its page reads 1, ignores writes */
} soc_cfg_t;

typedef struct soc {
    soc_cfg_t cfg;
    vcore_t *vc;
    const vcore_ports_t *p;
    uint8_t *ram;
    uint32_t ram_base, ram_size;
    clint_t clint;
    hpm_t hpm;
    uint64_t cycle, instret;
    /* bus state */
    unsigned d_wait, i_wait;  /* wait states left for the request in progress */
    bool d_busy, i_busy;      /* a request is waiting (its wait count is running) */
    uint32_t i_busy_addr;
    bool i_fill, d_fill;      /* the wait is a cache miss: fill the line when it ends */
    uint32_t bus_ev;          /* bus-side events of this cycle (cache, ITC stall, SBA conflict) */
    cache_t icache, dcache;
    bool icache_on, dcache_on;
    uint64_t ev_total[32];
    te_t te;
    funnel_t funnel;
    bool funnel_on, te_ready, funnel_ready;
    bool sba_busy;            /* the SBA sink wrote RAM this cycle: core data accesses wait */
    uint64_t sink_stop_cycle; /* cycle in which the sink stopped on wrap (0: it did not) */
    FILE *itc_csv;            /* ground truth: every accepted ITC store */
    FILE *counters_csv;       /* ground truth: every counter CSR / timestamp register read */
    FILE *flow_csv;           /* ground truth: calls, returns, traps, mrets */
    struct {                  /* a counter CSR read at the last edge, logged once the retire
                               * port shows its instruction (a csrw, rd = x0, is no read) */
        bool pending;
        unsigned hart;
        uint32_t pc, csr, value;
    } gt_csr;
    uint32_t gt_mask;         /* events of an edge that make soc_step call the slow path */
    struct {                  /* a call or return waiting for its target: the pc of the next
                               * instruction that retires or traps */
        bool pending, ret;
        uint32_t pc, link;
        uint64_t cycle;
    } gt_jump;
    bool log_store;           /* a store completed this cycle (for the retire log) */
    uint32_t log_st_addr, log_st_data, log_st_size;    /* ground truth: cycles in which each event happened */
    /* simctrl */
    enum soc_stop stop;
    int exit_code;
    uint32_t file_name, file_addr, file_len, file_status;
    bool waves_switch;        /* firmware's WAVES switch */
    bool waves_open, waves_active;
    char waves_tmp[4200];     /* VCD: FST written here first, converted at the end */
    /* outputs */
    FILE *uart_txt, *marks_csv, *guest_log, *retire_log;
    unsigned guest_errors;
    uint64_t guest_errors_total;
} soc_t;

void soc_default_cfg(soc_cfg_t *cfg);
/* Returns 0, or -1 with a message in err (size errlen). */
int soc_init(soc_t *s, const soc_cfg_t *cfg, char *err, size_t errlen);
void soc_free(soc_t *s);
/* Copies len bytes to guest physical address addr; false if outside RAM. */
bool soc_load(soc_t *s, uint32_t addr, const void *src, uint32_t len, uint32_t zero_fill);
/* Resets the core (boot at entry) and the devices. */
void soc_reset(soc_t *s, uint32_t entry);
/* Runs until the firmware exits or the cycle limit; returns the stop reason. */
enum soc_stop soc_run(soc_t *s);
/* Writes trace.rtd (sink image, oldest byte first) and trace.json (what a decoder needs) to
 * the run folder if the trace encoder was used; 0 on success or nothing to write. */
int soc_write_trace(soc_t *s, char *err, size_t errlen);
/* Guest error: firmware did something the SoC rejects; logged, simulation continues. */
void soc_guest_error(soc_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
