/* prog_gt.h - ground truth of program trace: prog_flow.csv in the run folder, what the core
 * retired while its encoder traced the program (teInstruction 3), as the flow's
 * discontinuities, for `tracesim check` (harness/check/prog_check.c). Written only while a
 * hart's program trace runs (the file is created at the first such retirement), so a run
 * without program trace costs nothing and has no file.
 *
 * Rows: cycle,hart,kind,last,next,n - cycle: the retire cycle (as in the retire log); kind:
 *   start     tracing started: `next` is the first traced pc (last: the store that started it,
 *             not traced; n 0);
 *   branch    a taken conditional branch at `last` went to `next`;
 *   jump      a direct jump (JAL, C.J, C.JAL);
 *   indirect  JALR, C.JR, C.JALR;
 *   xret      MRET / SRET / URET;
 *   trap      a trap to the handler `next`: last = ECALL/EBREAK's pc (it counts as executed) or,
 *             for an instruction that did not execute, the last instruction that did;
 *   stop      tracing stopped: last = the last traced instruction, next = the store that
 *             stopped it (not traced);
 * n: instructions executed and traced since the hart's previous row, `last` included; 0 when a
 * trap came right after the previous row's instruction (then `last` is that one and the
 * previous row's `next` never executed). Between rows the flow is sequential. */
#ifndef TS_PROG_GT_H
#define TS_PROG_GT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct prog_gt {
    uint32_t last;      /* the last executed traced instruction */
    uint64_t n;         /* executed since the last row */
} prog_gt_t;

enum prog_gt_phase { PROG_GT_RUN, PROG_GT_START, PROG_GT_STOP };
/* one retirement (see te_prog.h for the arguments); f: the open prog_flow.csv */
void prog_gt_retire(prog_gt_t *g, FILE *f, unsigned hart, uint64_t cycle, enum prog_gt_phase phase, uint32_t pc,
                    uint32_t insn, uint32_t npc, bool trap);
#define PROG_GT_HEADER "cycle,hart,kind,last,next,n\n"
#endif
