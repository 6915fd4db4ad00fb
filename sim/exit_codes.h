/* exit_codes.h - tracesim's exit statuses. 0..119 (and anything else the firmware writes to
 * simctrl EXIT) is the firmware's own exit code; the values below are the simulator's. */
#ifndef TS_EXIT_CODES_H
#define TS_EXIT_CODES_H
enum {
    TS_EXIT_USAGE       = 120,  /* unknown option, bad option value, missing argument */
    TS_EXIT_NO_FILE     = 121,  /* input file missing or unreadable */
    TS_EXIT_BAD_ELF     = 122,  /* not an ELF, truncated or malformed */
    TS_EXIT_WRONG_ARCH  = 123,  /* ELF is not an RV32 little-endian executable */
    TS_EXIT_CYCLE_LIMIT = 124,  /* --max-cycles reached before the firmware exited */
    TS_EXIT_OUTSIDE_RAM = 125,  /* a loadable segment does not fit in RAM */
    TS_EXIT_HOST        = 126,  /* host-side failure: cannot create outputs, out of memory */
    TS_EXIT_HANG        = 127,  /* every hart hangs: a jump to itself or wfi nothing can end (sim/hang.h) */
};
#endif
