/* tl_flow.h - call slices from the program flow in the Chrome/Perfetto timeline (`tracesim
 * decode --format timeline` of an instruction-traced run with its ELF): a track per hart in
 * a process "program flow" (pid 1), a B event at every frame entry and an E at its exit, as
 * flow_calls.h defines frames (calls, returns, traps and xRETs, tail calls), named after the
 * function. Times: the instruction of a timestamped program-trace message is exact; those
 * between two such are interpolated evenly (flow_profile.h's approximation), in the
 * timeline's clock (tl_time.h). A stretch without any timestamp has no slices. */
#ifndef TS_TL_FLOW_H
#define TS_TL_FLOW_H
#include "nexus_decode.h"
#include "tl_time.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct tl_flow tl_flow_t;
/* first: the timeline's "no event written yet" flag (shared with the other writers); NULL
 * with a one-line reason in err (the ELF cannot be read, no memory) */
tl_flow_t *tl_flow_open(FILE *out, bool *first, const ts_tl_time_t *tt, const char *elf, char *err, size_t errlen);
/* an nxd_cb */
int tl_flow_msg(void *t, const nxd_msg_t *m);
/* ends the flow (frames still open end at the last timed point) and frees t; returns the
 * number of slices written, or -1 (no memory) */
int64_t tl_flow_close(tl_flow_t *t, uint64_t end_offset);
#endif
