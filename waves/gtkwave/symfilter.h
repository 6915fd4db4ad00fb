/* symfilter.h - `tracesim symfilter FW.elf`: a GTKWave translate process filter that shows a
 * PC signal's value as function+offset (the ELF's function symbols, read once). */
#ifndef TS_SYMFILTER_H
#define TS_SYMFILTER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "elf_syms.h"

/* Shared by the GTKWave filters (symfilter, stmfilter). One value line as GTKWave sends it:
 * the token is copied into v (vlen bytes); true with *val if it is a number no larger than max
 * (hex digits, optionally 0x-prefixed; a string of 0/1 longer than bin_digits is binary),
 * false for x, z or anything else. */
bool ts_filter_value(const char *in, char *v, size_t vlen, size_t bin_digits, uint64_t max, uint64_t *val);
/* the filter loop: one answer line per line of stdin (a line of any length: the value is its
 * first 4095 bytes; a last line without newline is answered too), flushed, until end of
 * input; control characters in an answer are shown as '?' (one answer is one line).
 * 0 at the end of input; -1 as soon as an answer cannot be written (stdout's error flag set) */
int ts_filter_loop(void (*line)(void *ctx, const char *in, char *out, size_t outlen), void *ctx);

/* One value as GTKWave sends it (hex digits, optionally 0x-prefixed; a binary string of 0/1
 * is taken as binary when it is longer than 8 digits) -> "name+0xoff" ("name" at offset 0),
 * or the value itself when it is not a number (x, z) or no function contains it. */
void ts_symfilter_line(const elf_syms_t *syms, const char *in, char *out, size_t outlen);
/* `tracesim symfilter` (its options: cli/symfilter_cli.c): FW.elf's symbols loaded, then
 * reads values on stdin, one per line, answers one line each (flushed); the exit status
 * (0: stdin ended; TS_EXIT_BAD_ELF with one line on stderr: the ELF cannot be read) */
typedef struct ts_symfilter_cfg {
    const char *elf; /* FW.elf */
} ts_symfilter_cfg_t;
int ts_symfilter_run(const ts_symfilter_cfg_t *cfg);
#endif
