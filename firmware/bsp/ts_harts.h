/* ts_harts.h - several harts on the tracesim SoC (tracesim run --harts N): hart numbers,
 * starting a function on another hart, a lock (A extension: amoadd) and a barrier.
 * docs/firmware/bsp.md describes the boot protocol and the memory layout.
 *
 * Boot: every hart starts at the ELF entry. Hart 0 initialises the C runtime and runs
 * main(); every other hart parks in wfi with only the machine software interrupt enabled
 * (mie = MSIE, mstatus.MIE = 0) until ts_hart_start() wakes it through its CLINT msip. The
 * function then runs on that hart with interrupts off (mie = 0, mstatus.MIE = 0, as hart 0
 * leaves reset), on the hart's own 16 KiB stack with its own thread-local storage; its
 * return value is kept for ts_hart_join(), and the hart parks again.
 *
 * Memory is sequentially consistent on the SoC, and the lock and barrier below also issue
 * the fences a weaker (RVWMO) memory model needs. Do not take a ts_lock_t in an interrupt
 * handler of a hart that may hold it. */
#ifndef TS_HARTS_H
#define TS_HARTS_H
#include <stdint.h>

#ifndef TS_NOINSTR
#define TS_NOINSTR __attribute__((no_instrument_function))
#endif

#define TS_MAX_HARTS 8u            /* harts the BSP supports (stacks, locks) */
#define TS_HART_STACK_SIZE 0x4000u /* bytes of stack per hart (tracesim.ld) */

/* ts_hart_start / ts_hart_join results */
enum {
    TS_HART_OK = 0,
    TS_HART_EINVAL = -1, /* no such hart (>= ts_num_harts()), the calling hart itself, or hart 0 */
    TS_HART_EBUSY = -2,  /* the hart runs a function, or its result was not joined yet */
    TS_HART_EIDLE = -3,  /* ts_hart_join: nothing was started on that hart */
};

typedef int (*ts_hart_fn_t)(void *arg);

/* this hart's number (mhartid) */
static inline TS_NOINSTR unsigned ts_hart_id(void) {
    unsigned h;
    __asm__ volatile("csrr %0, mhartid"
                     : "=r"(h));
    return h;
}
/* harts in the SoC (simctrl HARTS; 1 on a single-hart SoC), at most TS_MAX_HARTS are used */
unsigned ts_num_harts(void) TS_NOINSTR;

/* Runs fn(arg) on hart `hart` (1 .. ts_num_harts() - 1). Returns TS_HART_OK once the
 * request is posted (the hart starts within a few dozen cycles), TS_HART_EINVAL or
 * TS_HART_EBUSY (see above) without side effects. May be called from any hart. */
int ts_hart_start(unsigned hart, ts_hart_fn_t fn, void *arg) TS_NOINSTR;
/* Waits until the function started on `hart` returned; stores its return value in *ret
 * (if ret is not NULL) and makes the hart free for the next ts_hart_start. Polls the hart's
 * state every ~40 cycles with no other memory access in between, so a waiting hart takes
 * little of the RAM port from the working ones. */
int ts_hart_join(unsigned hart, int *ret) TS_NOINSTR;
/* 1 while a function started on `hart` has not returned yet */
int ts_hart_busy(unsigned hart) TS_NOINSTR;

/* A ticket lock (A extension: one amoadd.w.aq to take a ticket, a plain store to pass the
 * lock on), for any number of harts: fair (first come, first served). A zero-initialised
 * ts_lock_t is unlocked. Not recursive. */
typedef struct {
    volatile uint32_t next;  /* the next ticket to hand out */
    volatile uint32_t owner; /* the ticket that holds the lock */
} ts_lock_t;
void ts_lock(ts_lock_t *l) TS_NOINSTR;
void ts_unlock(ts_lock_t *l) TS_NOINSTR;

/* A reusable barrier for n harts (a counter under a ts_lock_t and a sense flag). A
 * zero-initialised ts_barrier_t is ready. Every one of the n harts calls ts_barrier() with
 * the same n; it returns when all n have arrived: 1 on the last one to arrive, else 0. */
typedef struct {
    ts_lock_t lock;
    volatile uint32_t count;
    volatile uint32_t sense;
} ts_barrier_t;
int ts_barrier(ts_barrier_t *b, unsigned n) TS_NOINSTR;

/* Printing from several harts: once a hart other than 0 has been started, stdout is line
 * buffered per hart (up to TS_LINE_MAX bytes) and each line goes to the UART in one piece
 * under a lock, so lines of different harts never interleave. Before that (and on a
 * single-hart run) every byte goes straight to the UART as it always did. A line longer
 * than TS_LINE_MAX is sent in pieces; an unterminated line is sent by ts_flush_line(), and
 * by exit() for the exiting hart. */
#define TS_LINE_MAX 120u
void ts_flush_line(void) TS_NOINSTR;

/* 1 once ts_hart_start() has been called ("activation": the several-harts state is set
 * up and stdout goes through the line lock); 0 before, and always on a single-hart run */
int ts_harts_started(void) TS_NOINSTR;
#endif
