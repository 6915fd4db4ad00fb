/* elf_load.c - the segments elf_read finds, copied into the SoC's RAM. */
#include "elf_load.h"
#include <stdio.h>

typedef struct load_ctx { soc_t *s; const char *path; } load_ctx_t;

static bool place(void *vctx, size_t index, uint32_t paddr, const void *data, uint32_t filesz, uint32_t memsz,
                  char *err, size_t errlen) {
    load_ctx_t *c = vctx;
    if (soc_load(c->s, paddr, data, filesz, memsz - filesz)) return true;
    snprintf(err, errlen, "%s: segment %zu [0x%08x, 0x%08llx) is outside RAM [0x%08x, 0x%08llx)", c->path, index, paddr,
             (unsigned long long)paddr + memsz, c->s->bus.ram_base,
             (unsigned long long)c->s->bus.ram_base + c->s->bus.ram_size);
    return false;
}

enum elf_load_status elf_load(soc_t *s, const char *path, uint32_t *entry, char *err, size_t errlen) {
    load_ctx_t c = {s, path};
    return elf_read(path, place, &c, entry, err, errlen);
}
