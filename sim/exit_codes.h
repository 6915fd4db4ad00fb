/* exit_codes.h - tracesim run's exit statuses (docs/commands/run.md "Exit status"): the
 * statuses are those of every command, defined once in rtl_model/regs/exit_status.def with
 * the rule (0..118 the firmware's code, 119 any other, 120..127 the simulator's verdicts,
 * 128 + n a signal); this adds the mapping of the firmware's exit code. */
#ifndef TS_EXIT_CODES_H
#define TS_EXIT_CODES_H
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
/* the exit status of a run whose firmware exited with code */
static inline int ts_fw_exit_status(long long code) {
    return code >= 0 && code <= TS_EXIT_FW_MAX ? (int)code : TS_EXIT_FW_OTHER;
}
#endif
