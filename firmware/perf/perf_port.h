/* perf_port.h - how the perf library reaches the hardware.
 *
 * On the RISC-V target every access is inline: volatile loads/stores for the trace blocks,
 * `csrr`/`csrw` with the CSR number as an immediate, the BSP for the timer, traps and host
 * files. Built for the host (unit tests), the same library calls functions that a fake
 * backend provides (tests/unit/perf_fake.c drives the real C models of the trace encoder
 * and the HPM counters), so its logic and error paths are tested with sanitizers.
 *
 * The library never dereferences a trace register pointer itself: it always goes through
 * perf_rd32/perf_wr32/perf_wr16/perf_wr8 with the register's address.
 *
 * Counter read keys (the record hot path): key n (0, 2..31) reads the user CSR 0xC00 + n
 * (a counter narrower than 32 bits); key 32 + n reads the 64-bit counter n: on RV32 the pair
 * (0xC80 + n high, 0xC00 + n low, high again until both highs agree), on RV64 one csrr of
 * 0xC00 + n (RV64 has no `h` CSRs; they are never named in an RV64 build); PERF_KEY_TS reads
 * the master trace timestamp (the library does that itself, through perf_rd32). */
#ifndef TS_PERF_PORT_H
#define TS_PERF_PORT_H
#include <stdint.h>

#define PERF_KEY_TS 1u
#define PERF_KEY_WIDE 32u

#define PERF_NOINSTR __attribute__((no_instrument_function))

#if defined(__riscv)
#include "bsp.h"

/* X(n) for the programmable counters 3..31 */
#define PERF_REP_HPM(X) \
    X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) \
    X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)

/* a CSR's value, XLEN wide (unsigned long: uint32_t's type on RV32) */
typedef unsigned long perf_reg_t;
#define perf_csrr(n) ({ perf_reg_t v_; __asm__ volatile("csrr %0, %1" : "=r"(v_) : "i"(n)); v_; })
#define perf_csrw(n, v) __asm__ volatile("csrw %0, %1" ::"i"(n), "r"((perf_reg_t)(v)))

static inline PERF_NOINSTR uint32_t perf_rd32(const volatile void *a) { return *(const volatile uint32_t *)a; }
static inline PERF_NOINSTR void perf_wr32(volatile void *a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline PERF_NOINSTR void perf_wr16(volatile void *a, uint32_t v) { *(volatile uint16_t *)a = (uint16_t)v; }
static inline PERF_NOINSTR void perf_wr8(volatile void *a, uint32_t v) { *(volatile uint8_t *)a = (uint8_t)v; }
#if defined(PERF_PORT_SBI)
/* S-mode through the SBI (firmware/sbi/perf_port_sbi.c): the hart id the SBI firmware
 * passed to the payload, interrupts by sstatus.SIE */
extern unsigned perf_sbi_hartid;
static inline PERF_NOINSTR unsigned perf_hartid(void) { return perf_sbi_hartid; }
#else
static inline PERF_NOINSTR unsigned perf_hartid(void) { return perf_csrr(0xF14); }
#endif
static inline PERF_NOINSTR uint32_t perf_bus_addr(const void *p) { return (uint32_t)(uintptr_t)p; }

/* a counter by read key (see above); one csrr, or high/low/high. The retry after highs that
 * differ (a carry into the high word between the reads) is a forward branch to code out of
 * line: on this core a do-while loop costs a mispredicted backward branch on every read. A
 * retry reuses the second high as the first one of the next try. */
static inline __attribute__((always_inline)) PERF_NOINSTR uint64_t perf_counter_read(unsigned key) {
#if __riscv_xlen == 64
    switch (key) {
#define PERF_RD_NARROW(n) case (n): return perf_csrr(0xC00 + (n));
#define PERF_RD_WIDE(n) case PERF_KEY_WIDE + (n): return perf_csrr(0xC00 + (n));
#else
    uint32_t h, l, h2;
    switch (key) {
#define PERF_RD_NARROW(n) case (n): return perf_csrr(0xC00 + (n));
#define PERF_RD_WIDE(n)                                                              \
    case PERF_KEY_WIDE + (n):                                                        \
        h = perf_csrr(0xC80 + (n)); l = perf_csrr(0xC00 + (n)); h2 = perf_csrr(0xC80 + (n)); \
        if (__builtin_expect(h != h2, 0))                                            \
            do { h = h2; l = perf_csrr(0xC00 + (n)); h2 = perf_csrr(0xC80 + (n)); } while (h != h2); \
        return (uint64_t)h << 32 | l;
#endif
    PERF_RD_NARROW(0) PERF_RD_NARROW(2) PERF_REP_HPM(PERF_RD_NARROW)
    PERF_RD_WIDE(0) PERF_RD_WIDE(2) PERF_REP_HPM(PERF_RD_WIDE)
#undef PERF_RD_NARROW
#undef PERF_RD_WIDE
    default: __builtin_unreachable();   /* keys are made by the library only */
    }
}

/* any counter-related CSR by number (initialisation only), XLEN wide; on RV64 the counters
 * have no `h` halves (0xB80 + n reads 0 and writes nothing there) */
perf_reg_t perf_csr_read(unsigned csr) PERF_NOINSTR;
void perf_csr_write(unsigned csr, perf_reg_t v) PERF_NOINSTR;

/* interrupts off around a record (a record is a run of ITC stores that must not interleave
 * with one written by an interrupt handler); returns the old mstatus.MIE */
#if defined(PERF_PORT_SBI)
static inline PERF_NOINSTR uint32_t perf_irq_save(void) {
    uint32_t s;
    __asm__ volatile("csrrci %0, sstatus, 2" : "=r"(s)::"memory");
    return s & 2u;
}
static inline PERF_NOINSTR void perf_irq_restore(uint32_t s) {
    if (s) __asm__ volatile("csrsi sstatus, 2" ::: "memory");
}
#else
static inline PERF_NOINSTR uint32_t perf_irq_save(void) {
    uint32_t s;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(s)::"memory");
    return s & 8u;
}
static inline PERF_NOINSTR void perf_irq_restore(uint32_t s) {
    if (s) __asm__ volatile("csrsi mstatus, 8" ::: "memory");
}
#endif

#else /* host build: the fake backend provides these */
#include <stddef.h>

uint32_t perf_port_rd32(uintptr_t addr);
void perf_port_wr(uintptr_t addr, unsigned size, uint32_t v);
unsigned perf_port_hartid(void);
uint32_t perf_port_bus_addr(const void *p);
uint64_t perf_port_counter_read(unsigned key);
typedef uint32_t perf_reg_t; /* the fake backend models RV32 */
uint32_t perf_csr_read(unsigned csr);
void perf_csr_write(unsigned csr, uint32_t v);

static inline uint32_t perf_rd32(const volatile void *a) { return perf_port_rd32((uintptr_t)a); }
static inline void perf_wr32(volatile void *a, uint32_t v) { perf_port_wr((uintptr_t)a, 4, v); }
static inline void perf_wr16(volatile void *a, uint32_t v) { perf_port_wr((uintptr_t)a, 2, v & 0xFFFFu); }
static inline void perf_wr8(volatile void *a, uint32_t v) { perf_port_wr((uintptr_t)a, 1, v & 0xFFu); }
static inline unsigned perf_hartid(void) { return perf_port_hartid(); }
static inline uint32_t perf_bus_addr(const void *p) { return perf_port_bus_addr(p); }
static inline uint64_t perf_counter_read(unsigned key) { return perf_port_counter_read(key); }
static inline uint32_t perf_irq_save(void) { return 0; }
static inline void perf_irq_restore(uint32_t s) { (void)s; }
#endif

/* Several harts (both builds): the library's shared state (perfInit's settings, the pool,
 * the funnel and its sink, which encoders run) is changed only between perf_port_lock() and
 * perf_port_unlock(): in the init functions, perfTraceOn/Off and perfWriteTrace, never on
 * the record path. perf_port_lock_init() is called by perfInit, before any other hart may
 * call the library; the lock is not recursive. On the target it is the BSP's ticket lock
 * (ts_lock_t, bsp/ts_harts.h); the host's fake backend checks the pairing. */
void perf_port_lock_init(void) PERF_NOINSTR;
void perf_port_lock(void) PERF_NOINSTR;
void perf_port_unlock(void) PERF_NOINSTR;

/* Timer, traps and host files (both builds).
 * perf_port_timer_start: calls perf_timer_tick(mepc) on every machine timer interrupt of
 * this hart from now on, and sets the first deadline; 0 on success. */
uint64_t perf_port_mtime(void) PERF_NOINSTR;
uint64_t perf_port_timebase(void) PERF_NOINSTR;
void perf_port_set_mtimecmp(unsigned hart, uint64_t t) PERF_NOINSTR;
int perf_port_timer_start(unsigned hart, uint64_t first_deadline) PERF_NOINSTR;
int perf_port_host_write(const char *name, const void *data, uint32_t len, int append) PERF_NOINSTR;
/* the library's timer handler (called by the port) */
void perf_timer_tick(uintptr_t mepc) PERF_NOINSTR;
#endif
