/* flow_profile.h - a flat profile and call graph from the program flow alone (no perf
 * records, no instrumentation): `tracesim report --from flow`, and report's choice for a
 * trace with program trace and no perf header. Frames and functions as flow_calls.h says.
 * Per function: instructions in its code (self) and while its outermost frame was open
 * (total: self and every callee; a recursive function counts once), calls (frames opened by a
 * call or a trap), and caller -> callee edges (the caller: the function of the call
 * instruction or of the instruction a trap came after).
 * Cycles, when the trace has timestamps: a timed point is the instruction a timestamped
 * message reported (flow_calls.h); the time between two timed points of one synchronised
 * stretch is shared evenly among the instructions retired after the first up to the second
 * (the approximation: each gets the interval's mean cycles per instruction). Self cycles are
 * the sum over a function's instructions; total cycles the estimated time from the call to
 * the return. Instructions before the first or after the last timed point of a stretch get
 * none. Without timestamps: instructions only. */
#ifndef TS_FLOW_PROFILE_H
#define TS_FLOW_PROFILE_H
#include "elf_syms.h"
#include "nexus_decode.h"
#include <stdbool.h>
#include <stdio.h>

/* the flow profile of the trace at path (decoded with cfg; wrapped: from the first message
 * end) and the ELF at elf, written to out as text or CSV (csv), every hart or only hart
 * (>= 0). Returns 0; 1 when the trace has no program trace (of hart): nothing written, the
 * caller says so; -1 with a one-line reason in err (unreadable ELF or trace, no memory);
 * -2: writing failed. */
int fp_report(const char *path, const nxd_cfg_t *cfg, bool wrapped, const char *elf, int hart, bool csv, FILE *out,
              char *err, size_t errlen);
#endif
