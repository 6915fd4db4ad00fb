/* gdb_stub.h - `tracesim run --gdb PORT`: a GDB remote-protocol stub on the simulated SoC.
 *
 * The stub is passive: soc_run() calls gdb_stub_between() before every cycle (soc.h,
 * soc_t.between); while the SoC is halted the stub only reads the models' state and answers
 * GDB, and no model is ticked, so a run stopped at breakpoints and continued is cycle for
 * cycle and byte for byte the run without a debugger. A halt is between two cycles; the
 * harts' architectural state there is that after each hart's last retired instruction: the
 * pc is the next instruction's (the pipeline's first valid stage behind the retirement, as
 * program trace computes it), the GPRs the register file with the retired instruction's
 * write (still in WB) on top. Breakpoints (Z0/Z1, the same: the ELF is never patched) stop
 * when a hart retires into their address; a step is one retirement (or trap) of the hart;
 * watchpoints (Z2/Z3/Z4, RAM and device addresses) stop in the cycle the data port completes
 * the access, before the instruction retires. Every write GDB makes (registers, memory) is
 * logged in RUN/gdb.log, with the connection and the stops. See docs/commands/gdb.md. */
#ifndef TS_GDB_STUB_H
#define TS_GDB_STUB_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "rsp.h"
#include "soc.h"

#define GDB_MAX_BP 64
#define GDB_MAX_WP 16

typedef struct gdb_stub {
    rsp_t r;
    soc_t *s;
    FILE *log;
    char log_path[4200]; /* RUN/gdb.log: written through a temporary file, renamed at the end (ts_file.h) */ /* RUN/gdb.log */
    bool connected, detached;
    uint32_t pc[SOC_MAX_HARTS]; /* each hart's pc at a halt */
    uint32_t bp[GDB_MAX_BP];
    unsigned nbp;
    struct {
        uint32_t addr, len;
        int type;
    } wp[GDB_MAX_WP]; /* type 2 write, 3 read, 4 access */
    unsigned nwp;
    int step_hart;           /* -1: continue */
    unsigned g_hart, c_hart; /* Hg, Hc */
    unsigned stop_hart;
    char stop[96];                               /* the last stop reply */
    uint64_t break_cycle;                        /* monitor break cycle N (0: none) */
    bool break_perf, break_wrap, break_overflow; /* monitor break perf / wrap / overflow */
    uint64_t perf_seen[SOC_MAX_HARTS], lost_seen[SOC_MAX_HARTS];
    bool wrap_seen;
    unsigned poll_every; /* cycles between two looks for Ctrl-C (a power of two) */
    uint64_t writes;     /* writes GDB made (logged) */
} gdb_stub_t;

/* Listens on 127.0.0.1:port (0: any free port) and prints the port on stderr; the log is
 * RUN/gdb.log. 0, or -1 with err. Call after soc_reset(); then set s->between. */
int gdb_stub_open(gdb_stub_t *g, soc_t *s, unsigned port, const char *run_dir, char *err, size_t errlen);
/* soc_t.between: waits for GDB before the first cycle, then stops where asked */
void gdb_stub_between(void *ctx, soc_t *s);
/* the run ended with exit status rc: GDB gets W rc (process exited), the connection closes */
void gdb_stub_finish(gdb_stub_t *g, int rc);
void gdb_stub_free(gdb_stub_t *g);
#endif
