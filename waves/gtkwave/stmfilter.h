/* stmfilter.h - `tracesim stmfilter`: a GTKWave translate process filter that shows the
 * software trace port's event id (stm_id_o) as its group and name from rtl_model/regs/stm.def:
 * "USER 0x0012", "COM THREAD_NAME", "SYS THREAD_SWITCH", "RSVD 0x8123", "SYS 0xc001". */
#ifndef TS_STMFILTER_H
#define TS_STMFILTER_H
#include <stddef.h>

/* One value as GTKWave sends it (hex digits, optionally 0x-prefixed; a string of 0/1 longer
 * than 4 digits is taken as binary) -> "GROUP NAME" for an id stm.def names, "GROUP" for the
 * one id of a one-id group without a name (NONE: 0), else "GROUP 0x%04x"; the value itself
 * when it is not a number (x, z) or above 0xffff. */
void ts_stmfilter_line(const char *in, char *out, size_t outlen);
/* `tracesim stmfilter` (its options: cli/stmfilter_cli.c): reads values on stdin, one per
 * line, answers one line each (flushed); the exit status (0: stdin ended) */
int ts_stmfilter_run(void);
#endif
