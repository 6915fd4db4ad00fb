/* prog_gt.h - ground truth of program trace: prog_flow.csv in the run folder, what the core
 * retired while its encoder traced the program (teInstruction 3), as the flow's
 * discontinuities, for `tracesim check` (analysis/check/prog_check.c). Written only while a
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
 *   priv      only while the encoder reports privilege (teContext, teControl bit 9, in BTM/HTM;
 *             evControl bit 5 in event mode): the hart's privilege mode (0 U, 1 S, 3 M) went
 *             from `last` to `next` with the retirement of this cycle (a trap or an xRET; its
 *             own row comes first); right after a start row, last = next = the mode tracing
 *             started in; n 0;
 * n: instructions executed and traced since the hart's previous row, `last` included; 0 when a
 * trap came right after the previous row's instruction (then `last` is that one and the
 * previous row's `next` never executed). Between rows the flow is sequential (priv rows are
 * not flow rows). */
#ifndef TS_PROG_GT_H
#define TS_PROG_GT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct prog_gt {
    uint32_t last; /* the last executed traced instruction */
    uint64_t n;    /* executed since the last row */
    unsigned priv; /* the privilege mode after the last retirement */
    bool rv64;     /* an RV64 hart: the compressed words RV32 reads as C.JAL are C.ADDIW */
} prog_gt_t;

enum prog_gt_phase { PROG_GT_RUN,
                     PROG_GT_START,
                     PROG_GT_STOP };
/* one retirement (see te_prog.h for the arguments); f: the open prog_flow.csv; priv: the
 * hart's mode after it; ctx: the encoder reports privilege changes (priv rows) */
void prog_gt_retire(prog_gt_t *g, FILE *f, unsigned hart, uint64_t cycle, enum prog_gt_phase phase, uint32_t pc,
                    uint32_t insn, uint32_t npc, bool trap, unsigned priv, bool ctx);
#define PROG_GT_HEADER "cycle,hart,kind,last,next,n\n"
#endif
