/* prog_check.h - `tracesim check` of program trace: the flow the decoder rebuilds from the
 * run's trace and ELF (decoder/include/prog_flow.h) against what each core retired while its
 * encoder traced the program (the run's prog_flow.csv, sim/prog_gt.h). prog_check.c says what
 * is compared. */
#ifndef TS_PROG_CHECK_H
#define TS_PROG_CHECK_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* stopped: the sink stopped on wrap (or the file was cut): the trace may end before any flow
 * of a hart. 0: equal (summary lines on out), 1: different (msg), -1: cannot check (msg) */
int prog_check_run(const char *dir, const char *elf, unsigned srcbits, unsigned tsbits, bool stopped, FILE *out,
                   char *msg, size_t msglen);
#endif
