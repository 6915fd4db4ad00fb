/* run_outputs.h - what a run leaves in its folder about the trace subsystem.
 *
 * trace.rtd: the sink image, oldest byte first (SRAM sink: the SRAM from the oldest byte; SBA
 * sink: the RAM buffer [base, limit + width), unrolled at WP if it wrapped). trace.json: the
 * settings and counts a decoder needs (format tracesim-trace-1; docs/reference/trace-registers.md).
 */
#ifndef TS_RUN_OUTPUTS_H
#define TS_RUN_OUTPUTS_H
#include <stddef.h>
#include "soc.h"

/* Writes trace.rtd and trace.json to the run folder if the trace encoder was used; 0 on
 * success or nothing to write, -1 with a message in err. Warns on stderr about a
 * misprogrammed SBA buffer (no trace.rtd) and about messages still queued at exit. */
int run_write_trace(soc_t *s, char *err, size_t errlen);
#endif
