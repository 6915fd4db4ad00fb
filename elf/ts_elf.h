/* ts_elf.h - the one validating ELF reader: every reader of an ELF (the loader sim/elf_read.c,
 * the symbols of decoder/src/elf_syms.c, the code image of prog_flow.c) opens the file
 * through ts_elf_open, which refuses with one line what the readers could not read whole
 * instead of letting them read part of it as "no symbols" or "no code":
 *   - a path that is not a regular file (ts_open_input: no block on a FIFO), an empty file,
 *     text, any file libelf does not take for an ELF;
 *   - an ELF that is not little-endian RISC-V (e.g. /bin/true), or of neither class;
 *   - header, program-header or section-header entry sizes that are not the class's;
 *   - program headers or section headers (or any section's bytes, SHT_NOBITS aside) that lie
 *     outside the file;
 *   - a string table that is empty or not terminated by a NUL byte; a symbol table whose
 *     entry size is not the class's or whose string table (sh_link) is not a string table;
 *   - a symbol whose name (st_name) lies outside its string table.
 * Names are then read with ts_elf_str, which refuses an offset outside the table. */
#ifndef TS_ELF_H
#define TS_ELF_H
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>

enum ts_elf_status {
    TS_ELF_OK = 0,
    TS_ELF_CANNOT_OPEN, /* missing, unreadable or not a regular file */
    TS_ELF_INVALID,     /* not an ELF, truncated or malformed */
    TS_ELF_WRONG_ARCH,  /* an ELF, but not little-endian RISC-V */
};

typedef struct ts_elf {
    int fd;
    Elf *e;
    const char *raw; /* the whole file */
    size_t size;
    GElf_Ehdr eh;
    size_t shnum; /* section headers, section 0 included */
    bool rv64;
} ts_elf_t;

/* opens and validates path; on failure a one-line reason naming path in err, nothing to close */
enum ts_elf_status ts_elf_open(ts_elf_t *x, const char *path, char *err, size_t errlen);
void ts_elf_close(ts_elf_t *x);
/* the NUL-terminated string at off in string table section sec (checked by ts_elf_open), or
 * NULL if off lies outside it */
const char *ts_elf_str(const ts_elf_t *x, size_t sec, size_t off);
#endif
