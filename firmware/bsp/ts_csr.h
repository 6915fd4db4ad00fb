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

#define TS_CSR_READ(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define TS_CSR_WRITE(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"((uint32_t)(v)))
#define TS_CSR_SET(csr, v) __asm__ volatile("csrs " #csr ", %0" ::"r"((uint32_t)(v)))
#define TS_CSR_CLEAR(csr, v) __asm__ volatile("csrc " #csr ", %0" ::"r"((uint32_t)(v)))
#endif
