/* elf_load.c - the segments elf_read finds, copied into the SoC's RAM, or only checked
 * against the RAM before anything is created (elf_check). */
#include "elf_load.h"
#include "bus.h"
#include <stdio.h>

typedef struct load_ctx {
    soc_t *s;
    const char *path;
    uint32_t ram_base, ram_size;
} load_ctx_t;

static bool outside(const load_ctx_t *c, size_t index, uint32_t paddr, uint32_t memsz, char *err, size_t errlen) {
    snprintf(err, errlen, "%s: segment %zu [0x%08x, 0x%08llx) is outside RAM [0x%08x, 0x%08llx)", c->path, index, paddr,
             (unsigned long long)paddr + memsz, c->ram_base, (unsigned long long)c->ram_base + c->ram_size);
    return false;
}

static bool place(void *vctx, size_t index, uint32_t paddr, const void *data, uint32_t filesz, uint32_t memsz,
                  char *err, size_t errlen) {
    load_ctx_t *c = vctx;
    if (soc_load(c->s, paddr, data, filesz, memsz - filesz)) return true;
    return outside(c, index, paddr, memsz, err, errlen);
}

/* the test bus_load makes, without a bus */
static bool fits(void *vctx, size_t index, uint32_t paddr, const void *data, uint32_t filesz, uint32_t memsz,
                 char *err, size_t errlen) {
    (void)data;
    (void)filesz;
    load_ctx_t *c = vctx;
    uint64_t end = (uint64_t)paddr - c->ram_base + memsz;
    if (paddr >= c->ram_base && end <= c->ram_size) return true;
    return outside(c, index, paddr, memsz, err, errlen);
}

enum elf_load_status elf_load(soc_t *s, const char *path, uint32_t *entry, char *err, size_t errlen) {
    load_ctx_t c = {s, path, s->bus.ram_base, s->bus.ram_size};
    unsigned xlen = 0, want = s->xlen == 64 ? 64 : 32;
    enum elf_load_status st = elf_read(path, place, &c, entry, &xlen, err, errlen);
    if (st == ELF_OK && xlen != want) { /* the caller chose the model from another file */
        snprintf(err, errlen, "%s is an RV%u executable and the SoC's cores are RV%u", path, xlen, want);
        return ELF_WRONG_ARCH;
    }
    return st;
}

enum elf_load_status elf_check(const char *path, uint32_t ram_size, unsigned *xlen, char *err, size_t errlen) {
    load_ctx_t c = {NULL, path, MAP_RAM_BASE, ram_size};
    uint32_t entry;
    return elf_read(path, fits, &c, &entry, xlen, err, errlen);
}
