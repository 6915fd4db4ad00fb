/* perf_onoff.c - the perf library's trace on/off/resume and read-out on the simulated SoC:
 * 10 manual records, perfTraceOff (drains the encoder), 5 calls that must record nothing,
 * perfTraceOn again (resumes without a second header), 10 more records, perfTraceOff, then
 * perfWriteTrace("fw_trace.rtd"). Built for the SRAM sink (perf_onoff_sram) and an SBA
 * buffer (perf_onoff_sba). The test (tests/perf_lib_test.sh) requires fw_trace.rtd to equal
 * the simulator's own sink image (trace.rtd) byte for byte, one header and 20 records. */
#include <stdio.h>
#include "check.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"

#ifndef SBA
#define SBA 0
#endif

struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

static perfEvent ev[] = {{.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
                         {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
                         {.type = perfEventHWRaw, .event_data = 0x600}};

int main(void) {
    perfTraceStatus_t st;
    CHECK_EQ(perfInit(1, 0), PERF_OK);
    CHECK_EQ(perfManualInit(ev, 3, 6, perfCount_DeltaXOR, SBA), PERF_OK);
    CHECK_EQ(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 10; i++) CHECK_EQ(perfWriteCntrs(), PERF_OK);
    CHECK_EQ(perfTraceOff(), PERF_OK);
    /* drained: the encoder is empty and nothing is queued */
    CHECK_EQ((tmm[0]->te_control_register >> 3) & 1, 1);
    CHECK_EQ(perfGetTraceStatus(&st), PERF_OK);
    uint32_t bytes_off = st.bytes;
    CHECK_EQ(st.records, 10);
    for (int i = 0; i < 5; i++) CHECK_EQ(perfWriteCntrs(), PERF_OK);   /* off: nothing */
    CHECK_EQ(perfGetTraceStatus(&st), PERF_OK);
    CHECK_EQ(st.records, 10);
    CHECK_EQ(st.bytes, bytes_off);
    CHECK_EQ(perfTraceOn(), PERF_OK);
    for (int i = 0; i < 10; i++) CHECK_EQ(perfWriteCntrs(), PERF_OK);
    CHECK_EQ(perfTraceOff(), PERF_OK);
    CHECK_EQ(perfGetTraceStatus(&st), PERF_OK);
    CHECK_EQ(st.records, 20);
    CHECK_EQ(st.stopped, 0);
    CHECK_EQ(st.wrapped, 0);
    CHECK_EQ(st.size, SBA ? SBA : 16384);
    printf("perf_onoff: %lu bytes in the %s sink\n", (unsigned long)st.bytes, SBA ? "SBA" : "SRAM");
    CHECK_EQ(perfWriteTrace("fw_trace.rtd"), PERF_OK);
    return 0;
}
