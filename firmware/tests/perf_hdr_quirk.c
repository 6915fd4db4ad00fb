/* perf_hdr_quirk.c - a perf header against the hardware (`tracesim check`,
 * docs/commands/check.md): a stand-in for SiFive's own library, whose header
 * defines a programmed counter as type 0, code 0, 1 bit. It programs mhpmevent4 with raw
 * event 0x600 (loads | stores), writes a Raw header for cycle (counter 0) and counter 4, and
 * five manual records through its own perfWriteCntrs. QUIRK=1: counter 4's definition is
 * SiFive's corrupted one (check must fail, naming counter 4); QUIRK=0: the true one (type 2,
 * event data 0x600, CSR 0xc04, 40 bits: check passes). */
#include <stdint.h>
#include "bsp.h"
#include "perf_wire.h"
#include "ts_trace.h"

#define CH 6
#ifndef QUIRK
#define QUIRK 1
#endif

static volatile uint32_t buf[16];

/* the library's manual record: the caller's address (ra) and both counters as read */
__attribute__((noinline)) int perfWriteCntrs(void) {
    uint32_t ra;
    __asm__ volatile("mv %0, ra" : "=r"(ra));
    perf_wire_record(CH, TS_PW_REC_MANUAL);
    perf_wire_addr(CH, ra);
    uint32_t ch = TS_CSR_READ(cycleh), cl = TS_CSR_READ(cycle);
    perf_wire_value(CH, (uint64_t)ch << 32 | cl);
    uint32_t eh = TS_CSR_READ(hpmcounter4h), el = TS_CSR_READ(hpmcounter4);
    perf_wire_value(CH, (uint64_t)(eh & 0xFFu) << 32 | el);
    return 0;
}

int main(void) {
    TS_CSR_WRITE(mhpmevent4, 0x600);
    TS_CSR_WRITE(mcountinhibit, 0);
    ts_trace_itc_start(0, 1u << CH, 1);
    perf_wire_header(CH, TS_PW_COUNT_RAW, 0x11);
    perf_wire_def_code(CH, TS_PW_EV_HW_GENERAL, 1, (63u << TS_PW_INFO_WIDTH_SHIFT) | 0xC00);   /* cycles, 64 bits */
#if QUIRK
    perf_wire_def_code(CH, TS_PW_EV_HW_GENERAL, 0, 0xC04);   /* SiFive's: type 0, code 0, 1 bit */
#else
    ts_itc_write32(0, CH, 2);                                     /* raw event data 0x600, 40 bits */
    ts_itc_write32(0, CH, 0x600);
    ts_itc_write32(0, CH, 0);
    ts_itc_write32(0, CH, (39u << 12) | 0xC04);
#endif
    for (unsigned i = 0; i < 5; i++) {
        buf[i] += i;
        perfWriteCntrs();
    }
    ts_trace_flush(0);
    return 0;
}
