/* stm_dec_threads.c - software trace port events for the decoder and `tracesim check`
 * (tests/stm/decode.cmake): run with --stm-thread-switch, every write to tp is a
 * THREAD_SWITCH. Two threads (tp 0x1000 "main", tp 0x2000 "worker-1") with THREAD_NAME and
 * user events, an ITC store on channel 0 between them (the events and the store share one
 * time base), then 24 events one every few cycles and 16 in 16 cycles (`csrwi`, value a0 =
 * 0x5a5a5a5a): with --itc-depth 1 the FIFO overruns and events are lost (stm.csv `lost`,
 * Error messages in the trace). Built twice: stm_dec_threads_stop sets the sink to stop on
 * wrap (STOP=1), for a small --trace-sram. */
#include "bsp.h"
#include "ts_stm.h"
#include "ts_trace.h"
#ifndef STOP
#define STOP 0
#endif

static inline __attribute__((always_inline)) void set_tp(uint32_t v) {
    __asm__ volatile("mv tp, %0" : : "r"(v) : "memory");
}

/* THREAD_NAME: 4 bytes an event, little-endian, up to and including the word with the NUL */
static void thread_name(const char *s) {
    for (;;) {
        uint32_t w = 0;
        unsigned k;
        for (k = 0; k < 4 && s[k]; k++) w |= (uint32_t)(unsigned char)s[k] << (8 * k);
        ts_stm_event(TS_STM_ID_THREAD_NAME, w);
        if (k < 4) return;
        s += 4;
    }
}

static void pause(unsigned n) {
    for (volatile unsigned k = 0; k < n; k++) { }
}

int main(void) {
    set_tp(0x0f00);                      /* before tracing: an `off` row */
    ts_trace_itc_start(0, 1u, STOP);
    TS_TE_REG(0, TS_CONTROL) |= TS_TS_CONTROL_OWNERSHIP;
    TS_TE_REG(0, STM_CONTROL) = TS_STM_CONTROL_ENABLE;
    set_tp(0x1000);
    thread_name("main");
    ts_stm_event(1, 0x11);
    pause(20);
    ts_itc_write32(0, 0, 0xabcd0001u);
    pause(20);
    set_tp(0x2000);
    thread_name("worker-1");
    ts_stm_event(2, 0x22);
    pause(20);
    set_tp(0x1000);
    ts_stm_event(3, 0x33);
    pause(20);
    for (unsigned i = 0; i < 24; i++) ts_stm_event((uint16_t)(0x100 + i), i);
    pause(40);
    register uint32_t a0 __asm__("a0") = 0x5a5a5a5au;
    __asm__ volatile("csrwi 0x7c0, 1\n csrwi 0x7c0, 2\n csrwi 0x7c0, 3\n csrwi 0x7c0, 4\n"
                     "csrwi 0x7c0, 5\n csrwi 0x7c0, 6\n csrwi 0x7c0, 7\n csrwi 0x7c0, 8\n"
                     "csrwi 0x7c0, 9\n csrwi 0x7c0, 10\n csrwi 0x7c0, 11\n csrwi 0x7c0, 12\n"
                     "csrwi 0x7c0, 13\n csrwi 0x7c0, 14\n csrwi 0x7c0, 15\n csrwi 0x7c0, 16\n"
                     : : "r"(a0) : "memory");
    pause(40);
    ts_stm_event(0x3fff, 0xdeadbeefu);
    pause(20);
    ts_trace_flush(0);
    return 0;
}
