/* bsp.h - tracesim board support: UART stdio (picolibc), exit, traps, timer, counters. */
#ifndef TS_BSP_H
#define TS_BSP_H
#include <stdint.h>
#include "ts_soc.h"
/* TS_NOINSTR and the TS_CSR_* macros: ts_csr.h */
#include "ts_csr.h"
#include "ts_harts.h"

#define TS_MTIME_HZ 1000000u  /* mtime ticks per second (1 MHz timebase) */
#define TS_CORE_HZ 100000000u /* nominal core clock */

/* trap handlers: return the mepc to resume at (e.g. mepc + 4 to skip an instruction). The
 * arguments are the CSRs as read, XLEN wide (ts_reg_t: uint32_t's type on RV32): mcause's
 * interrupt flag is bit XLEN-1 (TS_CAUSE_IRQ). */
typedef ts_reg_t (*ts_trap_handler_t)(ts_reg_t mcause, ts_reg_t mepc, ts_reg_t mtval);
/* Installs a handler for an exception cause (0..15) or, with 0x80000000 set in cause
 * (0x80000000 | n, on RV32 and RV64 alike), for interrupt n. Unhandled exceptions print a
 * line and exit with status 128 + cause; unhandled interrupts exit with 160 + n. */
void ts_set_trap_handler(uint32_t cause, ts_trap_handler_t h);

uint64_t ts_mtime(void);
void ts_set_mtimecmp(uint64_t t); /* the calling hart's mtimecmp */
/* simulator's own cycle/instret count (simctrl), independent of the HPM */
uint64_t ts_sim_cycles(void);
uint64_t ts_sim_instret(void);
/* marks (value, cycle, instret) in the run folder's marks.csv */
static inline TS_NOINSTR void ts_mark(uint32_t v) { TS_SIMCTRL(MARK) = v; }
/* writes len bytes to file `name` in the run folder (append != 0: append); 0 on success */
int ts_host_write(const char *name, const void *data, uint32_t len, int append);

#if __riscv_xlen == 64
/* 64-bit counters on RV64: one csrr (the `h` CSRs do not exist) */
#define TS_READ_CSR64(lo, hi) ((uint64_t)TS_CSR_READ(lo))
#else
/* 64-bit counters on RV32: high, low, high until the two highs agree */
#define TS_READ_CSR64(lo, hi) ({                                            \
    uint32_t h_, l_, h2_;                                                  \
    do { h_ = TS_CSR_READ(hi); l_ = TS_CSR_READ(lo); h2_ = TS_CSR_READ(hi); } while (h_ != h2_); \
    ((uint64_t)h_ << 32) | l_; })
#endif
static inline TS_NOINSTR uint64_t ts_rdcycle(void) { return TS_READ_CSR64(cycle, cycleh); }
static inline TS_NOINSTR uint64_t ts_rdinstret(void) { return TS_READ_CSR64(instret, instreth); }
static inline TS_NOINSTR uint64_t ts_rdtime(void) { return TS_READ_CSR64(time, timeh); }

#endif
