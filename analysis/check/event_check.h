/* event_check.h - `tracesim check` of event / PC-sample mode (teInstruction 1,
 * rtl_model/trace/te_event.c): every In-Circuit-Trace event message of the run's trace
 * against what each core did while its encoder traced (flow.csv: calls and traps with their
 * cycles; prog_flow.csv: the trace windows and the sequential stretches). event_check.c says
 * what is compared. */
#ifndef TS_EVENT_CHECK_H
#define TS_EVENT_CHECK_H
#include <stdbool.h>
#include <stdio.h>

/* 0: equal (summary lines on out), 1: different (msg), -1: cannot check (msg), 2: the trace
 * holds no event-mode trace start (not an event trace: check it as program flow) */
int event_check_run(const char *dir, unsigned srcbits, unsigned tsbits, bool stopped, FILE *out, char *msg,
                    size_t msglen);
#endif
