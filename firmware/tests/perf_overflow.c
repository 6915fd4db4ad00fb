/* perf_overflow.c - perf records around a burst of ITC stores that do not poll, so that a
 * tiny ITC FIFO overflows (run with --itc-depth 1 or 2).
 *
 * The perf library is set up as usual (perfInit, perfManualInit on channel 6, SRAM sink, the
 * count type of COUNT: 0 Raw, 1 Delta, 2 DeltaXOR) with three counters: cycles, instructions
 * and the ITC-stall event. perfTraceOn, then 4 records by perfWriteCntrs, then BURST records
 * written here as back-to-back stores without the ready poll, then 4 more records by
 * perfWriteCntrs, perfTraceOff.
 *
 * The burst records are what perfWriteCntrs would store at that point, so that every one of
 * them that reaches the trace is true (tracesim check compares each with the ground truth):
 * type 2 (manual), the address of the last perfWriteCntrs call (its return address, taken
 * from ra right after the call), and per counter: Raw - the counter read just before the
 * burst; Delta and DeltaXOR - 0, and no counter is read in the burst, so the change since the
 * library's last read is 0 (and DeltaXOR stores the address as 0: the XOR with the same
 * previous address). The library's next record then continues its own chain unchanged.
 *
 * After each store of the burst comes a 32-bit store of 0x89abcdef on channel NOISE (another
 * ITC user, e.g. ITC print, sharing the FIFO): its 6-byte messages make the burst outrun the
 * sink in every count type (DeltaXOR's burst stores are 0s, whose messages alone the sink
 * would keep up with).
 *
 * STALL 0 (teStallEnable 0, as the library sets it): the FIFO overflows, stores are lost,
 * teStallOrOverflow is set and the trace holds Error messages. STALL 1: the firmware sets
 * teStallEnable (read-modify-write of teControl) before the burst: the core waits, nothing is
 * lost, and the waits are counted by the ITC-stall counter of the records.
 *
 * The burst ends with a call to the next instruction (jal ra): with --trace-insn event its
 * call event comes while the FIFO is full, so STALL 0 loses an event message whatever code
 * the compiler puts around the burst, and --trace-stall must hold the hart instead. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "check.h"
#include "sifive_trace.h"
#include "sifive_bare_perf.h"
#include "ts_hpm.h"
#include "ts_trace.h"

#ifndef COUNT
#define COUNT 0
#endif
#ifndef STALL
#define STALL 0
#endif
#define CH 6
#define NOISE 7
#define BURST 6

struct TraceRegMemMap volatile *tmm[] = {(struct TraceRegMemMap *)0x10000000};
struct TfTraceRegMemMap volatile *fmm = NULL;

static perfEvent ev[] = {{.type = perfEventHWGeneral, .code = HW_CPU_CYCLES},
                         {.type = perfEventHWGeneral, .code = HW_INSTRUCTIONS},
                         {.type = perfEventHWRaw, .event_data = TS_HPM_ITC_STALL}};

/* perfWriteCntrs(); returns the return address of the call, the address its record holds */
static uint32_t write_cntrs(void) {
    uint32_t ra;
    __asm__ volatile("call perfWriteCntrs\n\tmv %0, ra"
                     : "=r"(ra)
                     :
                     : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4",
                       "a5", "a6", "a7", "memory");
    return ra;
}

int main(void) {
    CHECK_EQ(perfInit(1, 0), PERF_OK);
    CHECK_EQ(perfManualInit(ev, 3, CH, (perfCountType_t)COUNT, 0), PERF_OK);
    CHECK_EQ(ev[2].ctrIdx, 3);                   /* the ITC-stall event counts in mhpmcounter3 */
    CHECK_EQ(perfTraceOn(), PERF_OK);
    uint32_t a = 0;
    for (int i = 0; i < 4; i++) a = write_cntrs();

    /* the burst's values: Raw - the counters now (their high halves must be 0: only low words
     * are stored); Delta, DeltaXOR - 0 without reading anything */
    uint32_t v0 = 0, v1 = 0, v2 = 0, addr = COUNT == 2 ? 0 : a;
    if (COUNT == 0) {
        uint32_t h0 = TS_CSR_READ(mcycleh);
        v0 = TS_CSR_READ(mcycle);
        uint32_t h1 = TS_CSR_READ(minstreth);
        v1 = TS_CSR_READ(minstret);
        uint32_t h2 = TS_CSR_READ(mhpmcounter3h);
        v2 = TS_CSR_READ(mhpmcounter3);
        CHECK_EQ(h0 | h1 | h2, 0);
    }
    if (STALL) tmm[0]->te_control_register |= 1u << 13;       /* teStallEnable */
    tmm[0]->itc_traceenable_register |= 1u << NOISE;
    volatile uint32_t *stim = &tmm[0]->itc_stimulus_register[CH].reg_size_32;
    volatile uint32_t *noise = &tmm[0]->itc_stimulus_register[NOISE].reg_size_32;
    uint32_t type = 2, word = 0x89abcdefu;
    __asm__ volatile(".rept %8\n"
                     " sb %2, 3(%0)\n sw %7, 0(%1)\n"
                     " sw %3, 0(%0)\n sw %7, 0(%1)\n"
                     " sw %4, 0(%0)\n sw %7, 0(%1)\n"
                     " sw %5, 0(%0)\n sw %7, 0(%1)\n"
                     " sw %6, 0(%0)\n sw %7, 0(%1)\n"
                     ".endr\n"
                     " jal ra, 1f\n"
                     "1:"
                     :
                     : "r"(stim), "r"(noise), "r"(type), "r"(addr), "r"(v0), "r"(v1), "r"(v2), "r"(word), "i"(BURST)
                     : "ra", "memory");
    /* teStallOrOverflow: set by a store that found the FIFO full, stalled or lost */
    CHECK_EQ((tmm[0]->te_control_register >> 12) & 1, 1);

    for (int i = 0; i < 4; i++) write_cntrs();
    CHECK_EQ(perfTraceOff(), PERF_OK);
    printf("perf_overflow: count type %d, stall %d: 8 library records, %d burst records\n", COUNT, STALL, BURST);
    return 0;
}
