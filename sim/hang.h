/* hang.h - hang detection: a run in which every hart is stuck for good ends with exit status
 * TS_EXIT_HANG (127) instead of running to the cycle limit (docs/commands/run.md).
 *
 * A hart is stuck when it
 *   - keeps retiring one control-transfer instruction at one pc (`j .`, `c.j .`,
 *     `beq x0, x0, .`, `jalr` to itself): seen retiring there three times in a row with
 *     nothing else retired and no trap in between. The instruction changes at most its link
 *     register, always to the same value, so from the second time on the state repeats;
 *   - or waits in wfi,
 * and no interrupt can end that: a machine timer interrupt (MTIE set and mtimecmp not all
 * ones) or a counter overflow interrupt (LCOFIE set and an HPM counter counting with its OF
 * bit clear); in the jump loop such an interrupt must also be globally enabled for the mode
 * it goes to (mideleg, mstatus.MIE/SIE and the current mode, as the core decides). Software
 * interrupts and the S-level pending bits are set only by stores and CSR writes, which a stuck
 * hart does not make: the run ends only when every hart is stuck at the same time, so none
 * is left to send an msip (harts parked in wfi while another runs are not hangs).
 *
 * Cost: nothing in the per-cycle loop. Every HANG_CHECK_PERIOD cycles a probe starts: it
 * watches each hart's retire port after every cycle, and ends as soon as one hart is seen
 * doing anything else (normally within a few cycles) or when all are stuck (the run stops);
 * one still undecided after its window (hang_window(); harts stalled, or a slow loop) starts
 * afresh. A hang is therefore stopped within HANG_CHECK_PERIOD + the window cycles of its
 * start (8192 at the defaults). The probe only reads ports and model state: the run is the
 * same, cycle for cycle, with or without it. */
#ifndef TS_HANG_H
#define TS_HANG_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define HANG_CHECK_PERIOD 4096u /* a power of two */
#define HANG_MAX_HARTS 8

enum hang_kind { HANG_UNSEEN = 0,
                 HANG_JUMP,
                 HANG_WFI,
                 HANG_LIVE };

typedef struct hang_hart {
    uint8_t kind;   /* enum hang_kind */
    uint8_t count;  /* HANG_JUMP: retires at pc seen so far */
    uint32_t pc;    /* the jump's or the wfi's address */
    uint64_t since; /* cycle in which the probe first saw it there */
} hang_hart_t;

typedef struct hang {
    bool probing;
    uint64_t probe_end; /* an undecided probe gives up at this cycle */
    uint64_t window;    /* cycles a probe may watch (hang_window()) */
    hang_hart_t h[HANG_MAX_HARTS];
} hang_t;

/* The probe window: 4096 cycles, plus 16 per RAM wait state and 4 per cache-miss cycle (an
 * instruction cache miss), so that three fetches of the jump fit in it. */
static inline uint64_t hang_window(unsigned ram_wait, unsigned icache_miss) {
    return 4096u + 16u * (uint64_t)ram_wait + 4u * (uint64_t)icache_miss;
}
/* The probe itself reads the SoC's ports and models: soc_hang_begin, soc_hang_observe and
 * soc_hang_report are the SoC's (soc.h, sim/soc_hang.c), so that this header, which the SoC's
 * state embeds, needs nothing of the SoC. */
#endif
