/* exit_codes.h - tracesim's exit statuses (docs/commands/run.md "Exit status").
 *
 * The rule: a script can always tell the firmware's exit code from the simulator's verdict.
 *   0..118    the firmware's exit code (simctrl EXIT), passed through
 *   119       the firmware exited with any other code (119..255, 256 and above, negative):
 *             the code is on stderr (one line) and in stats.txt (fw_exit_code)
 *   120..127  the simulator's verdicts below
 *   130, 143  the run was interrupted by SIGINT / SIGTERM (128 + the signal's number)
 * simctrl EXIT takes the whole 32-bit value the firmware writes (a signed int: exit(-1) is
 * -1, exit(256) is 256), so no code wraps into another. */
#ifndef TS_EXIT_CODES_H
#define TS_EXIT_CODES_H
enum {
    TS_EXIT_FW_MAX      = 118,  /* the largest firmware exit code passed through */
    TS_EXIT_FW_OTHER    = 119,  /* the firmware exited with a code outside 0..118 */
    TS_EXIT_USAGE       = 120,  /* unknown option, bad option value, missing argument */
    TS_EXIT_NO_FILE     = 121,  /* input file missing or unreadable */
    TS_EXIT_BAD_ELF     = 122,  /* not an ELF, truncated or malformed */
    TS_EXIT_WRONG_ARCH  = 123,  /* ELF is not an RV32 little-endian executable */
    TS_EXIT_CYCLE_LIMIT = 124,  /* --max-cycles reached before the firmware exited */
    TS_EXIT_OUTSIDE_RAM = 125,  /* a loadable segment does not fit in RAM */
    TS_EXIT_HOST        = 126,  /* host-side failure: cannot create outputs, out of memory */
    TS_EXIT_HANG        = 127,  /* every hart hangs: a jump to itself or wfi nothing can end (sim/hang.h) */
    TS_EXIT_SIGNAL_BASE = 128,  /* interrupted: 128 + the signal (SIGINT 130, SIGTERM 143) */
};
/* the exit status of a run whose firmware exited with code */
static inline int ts_fw_exit_status(long long code) {
    return code >= 0 && code <= TS_EXIT_FW_MAX ? (int)code : TS_EXIT_FW_OTHER;
}
#endif
