/* perf_wrap_buffer.c - perf records into a trace buffer that wraps: the library is set up as
 * usual (SRAM sink, channel 6, count type COUNT: 0 Raw, 1 Delta, 2 DeltaXOR; counters:
 * instructions and loads|stores), then teStopOnWrap is cleared (read-modify-write of
 * teControl, before perfTraceOn writes the header), and RECORDS manual records are written
 * into a small SRAM (run with --trace-sram 1K): the buffer wraps several times, the header
 * and the oldest records are overwritten. perfTraceOff, then perfGetTraceStatus must say
 * "wrapped" and not "stopped".
 *
 * To make the records' size on the wire fixed (so that how many fit can be worked out by
 * hand), tsInstrumentation is cleared too: the Data Acquisition messages carry no timestamp.
 * Every record comes from the same call site in a loop whose instructions and loads/stores do
 * not change, so in Delta mode each record is, in bytes (trace-hw-facts.md 4.1, 4.7; TCODE
 * in byte 0, IDTAG 0x18/0x1B in byte 1, then DATA in bytes of 6 bits, minimal):
 *   type byte 2                            3 bytes (DATA 1 byte)
 *   address 0x800000b0                     8 bytes (DATA 32 bits -> 6 bytes)
 *   instructions delta 92 (7 bits)         4 bytes (DATA 2 bytes)
 *   loads|stores delta 27                  3 bytes
 *   = 18 bytes. The buffer ends with perfTraceOff's ICT Control(3) message (6 bytes with its
 * timestamp) and one 0xFF pad byte to the end of the sink word: 1024 - 7 = 1017 = 56 * 18 + 9,
 * so the oldest 9 bytes are the end of a cut record (the last 2 bytes of its address message
 * and its two values) and 56 whole records follow: what `tracesim decode --perf-config`
 * must find (tests/perf_gap_test.sh, case wrap_delta). */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"

#ifndef COUNT
#define COUNT 1
#endif
#define RECORDS 200

struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

static perfEvent ev[] = {{.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
                         {.type = perfEventHWRaw, .event_data = 0x600}};      /* loads | stores */

int main(void) {
    perfTraceStatus_t st;
    CHECK_EQ(perfInit(1, 0), PERF_OK);
    CHECK_EQ(perfManualInit(ev, 2, 6, (perfCountType_t)COUNT, 0), PERF_OK);
    tmm[0]->te_control_register &= ~(1u << 14);            /* teStopOnWrap */
    tmm[0]->ts_control_register &= ~(1u << 18);            /* tsInstrumentation */
    CHECK_EQ(perfTraceOn(), PERF_OK);
    for (int i = 0; i < RECORDS; i++) CHECK_EQ(perfWriteCntrs(), PERF_OK);
    CHECK_EQ(perfTraceOff(), PERF_OK);
    CHECK_EQ(perfGetTraceStatus(&st), PERF_OK);
    CHECK_EQ(st.records, RECORDS);
    CHECK_EQ(st.wrapped, 1);
    CHECK_EQ(st.stopped, 0);
    CHECK_EQ(st.bytes, st.size);
    printf("perf_wrap_buffer: %d records into a %lu-byte buffer: wrapped\n", RECORDS, (unsigned long)st.size);
    return 0;
}
