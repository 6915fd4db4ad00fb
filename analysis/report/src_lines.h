/* src_lines.h - source file and line of an address from an ELF's DWARF line table (libdw),
 * for the manual record sites of `tracesim report`. */
#ifndef TS_SRC_LINES_H
#define TS_SRC_LINES_H
#include <stdint.h>

typedef struct src_lines src_lines_t;

/* NULL when the file cannot be opened or has no DWARF (sites are then shown without) */
src_lines_t *src_lines_open(const char *elf);
/* the file of addr (NULL if unknown; valid until src_lines_close) and *line; a prof_line_fn */
const char *src_lines_at(void *ctx, uint64_t addr, unsigned *line);
void src_lines_close(src_lines_t *s);
#endif
