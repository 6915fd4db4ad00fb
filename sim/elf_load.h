/* elf_load.h - loads an RV32 or RV64 executable into the SoC's RAM (elf_read.h reads and
 * checks it). */
#ifndef TS_ELF_LOAD_H
#define TS_ELF_LOAD_H
#include <stdint.h>
#include <stddef.h>
#include "elf_read.h"
#include "soc.h"

/* On failure writes a one-line reason to err. *entry receives the entry point. The ELF's class
 * must be the SoC's cores' (soc_cfg_t xlen). */
enum elf_load_status elf_load(soc_t *s, const char *path, uint32_t *entry, char *err, size_t errlen);

/* everything elf_load checks (the file, and its segments inside a RAM of ram_size bytes at
 * MAP_RAM_BASE), without a SoC: the run checks the ELF before it creates the run folder, so a
 * bad ELF leaves nothing behind. Same statuses and messages as elf_load. *xlen (NULL: not
 * wanted) receives the core the file is for (32 or 64): the run's soc_cfg_t xlen. */
enum elf_load_status elf_check(const char *path, uint32_t ram_size, unsigned *xlen, char *err, size_t errlen);
#endif
