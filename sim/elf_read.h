/* elf_read.h - reads the loadable segments of an RV32 (ELFCLASS32) or RV64 (ELFCLASS64)
 * executable with libelf, for the
 * loader (elf_load.h) and the fuzz target (tests/fuzz/fuzz_elf.c). Every field of the file
 * is checked before use: a malformed, truncated or hostile file gives one line, never a
 * crash, and a FIFO or device path is refused without blocking. */
#ifndef TS_ELF_READ_H
#define TS_ELF_READ_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum elf_load_status {
    ELF_OK = 0,
    ELF_CANNOT_OPEN, /* missing or unreadable file, or not a regular file */
    ELF_INVALID,     /* not an ELF, truncated or malformed */
    ELF_WRONG_ARCH,  /* not a little-endian RISC-V executable the cores run (a float ABI, RV64E) */
    ELF_OUTSIDE_RAM, /* a loadable segment does not fit in RAM (the segment callback said so) */
};

/* one loadable segment: file bytes [data, data + filesz) at paddr, then memsz - filesz zero
 * bytes; returns true if it was placed, false if it does not fit (err then says where) */
typedef bool (*elf_seg_fn)(void *ctx, size_t index, uint32_t paddr, const void *data, uint32_t filesz,
                           uint32_t memsz, char *err, size_t errlen);

/* calls seg for each loadable segment, in file order; *entry receives the entry point, which
 * must lie inside a loadable segment, and *xlen (NULL: not wanted) the core it is for: 32
 * (ELFCLASS32) or 64 (ELFCLASS64). Refused as ELF_WRONG_ARCH: a hard-float ABI in e_flags
 * (the cores have no F or D extension), RV64E. Segments and the entry point must lie below
 * 4 GiB (the SoC's physical addresses) for both. On failure writes a one-line reason to err. */
enum elf_load_status elf_read(const char *path, elf_seg_fn seg, void *ctx, uint32_t *entry, unsigned *xlen, char *err,
                              size_t errlen);
#endif
