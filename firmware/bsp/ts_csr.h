/* ts_csr.h - CSR access and the no-instrumentation attribute: what bsp.h and ts_harts.c
 * both need (bsp.h includes it; ts_harts.c, which bsp.h's ts_harts.h is part of, includes it
 * instead of bsp.h). */
#ifndef TS_CSR_H
#define TS_CSR_H
#include <stdint.h>

/* BSP helpers are never instrumented, even when included into code built with
 * -finstrument-functions (the perf library's entry/exit hooks must not recurse) */
#ifndef TS_NOINSTR
#define TS_NOINSTR __attribute__((no_instrument_function))
#endif

/* an XLEN-wide register (CSR, mcause, mepc): unsigned long is 32 bits on RV32 (ilp32, where
 * it is uint32_t's type) and 64 on RV64 (lp64) */
typedef unsigned long ts_reg_t;
/* mcause/scause: the interrupt flag, bit XLEN-1 */
#define TS_CAUSE_IRQ (1ul << (__riscv_xlen - 1))

/* CSRs are XLEN wide: every access reads or writes the whole register (on RV64 the 64-bit
 * counters in one csrr; there are no `h` halves) */
#define TS_CSR_READ(csr) ({ ts_reg_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define TS_CSR_WRITE(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"((ts_reg_t)(v)))
#define TS_CSR_SET(csr, v) __asm__ volatile("csrs " #csr ", %0" ::"r"((ts_reg_t)(v)))
#define TS_CSR_CLEAR(csr, v) __asm__ volatile("csrc " #csr ", %0" ::"r"((ts_reg_t)(v)))
#endif
