/* elf_load.h - loads an RV32 executable into the SoC's RAM with libelf. */
#ifndef TS_ELF_LOAD_H
#define TS_ELF_LOAD_H
#include <stdint.h>
#include <stddef.h>
#include "soc.h"

enum elf_load_status {
    ELF_OK = 0,
    ELF_CANNOT_OPEN,      /* missing or unreadable file */
    ELF_INVALID,          /* not an ELF, truncated or malformed */
    ELF_WRONG_ARCH,       /* not a 32-bit little-endian RISC-V executable */
    ELF_OUTSIDE_RAM,      /* a loadable segment does not fit in RAM */
};

/* On failure writes a one-line reason to err. *entry receives the entry point. */
enum elf_load_status elf_load(soc_t *s, const char *path, uint32_t *entry, char *err, size_t errlen);
#endif
