/* elf_syms.h - function symbols of an ELF file, for naming addresses in decoder output. */
#ifndef TS_ELF_SYMS_H
#define TS_ELF_SYMS_H
#include <stddef.h>
#include <stdint.h>

typedef struct elf_sym {
    uint64_t addr, size;
    char *name;
} elf_sym_t;
typedef struct elf_syms {
    elf_sym_t *s;
    size_t n;
} elf_syms_t;

/* 0 on success; -1 with a one-line reason in err */
int elf_syms_load(elf_syms_t *t, const char *path, char *err, size_t errlen);
void elf_syms_free(elf_syms_t *t);
/* the function named name, or NULL: the symbol of that exact name, else the one clone GCC
 * made of it and renamed (name.isra.N, name.constprop.N, name.lto_priv.N and their
 * combinations, e.g. at -O2 with -flto), whose entry is the function's entry for every
 * caller; NULL if there are several such clones (no single entry) or only name.part.N /
 * name.cold pieces (not entries) */
const elf_sym_t *elf_syms_by_name(const elf_syms_t *t, const char *name);
/* the function containing addr, or NULL */
const char *elf_syms_find(const elf_syms_t *t, uint64_t addr);
/* the same as the symbol (start address, size, name), or NULL */
const elf_sym_t *elf_syms_lookup(const elf_syms_t *t, uint64_t addr);
/* elf_syms_lookup with the last answer remembered: the addresses [lo, hi) that give the same
 * symbol (up to its end or the next symbol's start) are answered without a search. A zeroed
 * cache is empty; it belongs to one table. */
typedef struct elf_syms_cache {
    uint64_t lo, hi;
    const elf_sym_t *s;
} elf_syms_cache_t;
const elf_sym_t *elf_syms_lookup_cached(const elf_syms_t *t, elf_syms_cache_t *c, uint64_t addr);
#endif
