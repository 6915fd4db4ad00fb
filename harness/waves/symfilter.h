/* symfilter.h - `tracesim symfilter FW.elf`: a GTKWave translate process filter that shows a
 * PC signal's value as function+offset (the ELF's function symbols, read once). */
#ifndef TS_SYMFILTER_H
#define TS_SYMFILTER_H
#include <stddef.h>
#include "elf_syms.h"

/* One value as GTKWave sends it (hex digits, optionally 0x-prefixed; a binary string of 0/1
 * is taken as binary when it is longer than 8 digits) -> "name+0xoff" ("name" at offset 0),
 * or the value itself when it is not a number (x, z) or no function contains it. */
void ts_symfilter_line(const elf_syms_t *syms, const char *in, char *out, size_t outlen);
/* the command: reads values on stdin, one per line, answers one line each (flushed) */
int ts_symfilter_main(int argc, char **argv);
#endif
