/* elf_syms.c - function symbols through libelf (sorted, binary search). */
#include "elf_syms.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_addr(const void *a, const void *b) {
    const elf_sym_t *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int elf_syms_load(elf_syms_t *t, const char *path, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    int fd = open(path, O_RDONLY);
    if (fd < 0) { snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno)); return -1; }
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (!e || elf_kind(e) != ELF_K_ELF) {
        snprintf(err, errlen, "%s is not an ELF file", path);
        if (e) elf_end(e);
        close(fd);
        return -1;
    }
    size_t cap = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t n = data ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value) continue;
            const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
            if (!name || !*name) continue;
            if (t->n == cap) {
                cap = cap ? 2 * cap : 256;
                elf_sym_t *ns = realloc(t->s, cap * sizeof *ns);
                if (!ns) break;
                t->s = ns;
            }
            t->s[t->n].addr = sym.st_value;
            t->s[t->n].size = sym.st_size;
            t->s[t->n].name = strdup(name);
            if (t->s[t->n].name) t->n++;
        }
    }
    elf_end(e);
    close(fd);
    if (t->n) qsort(t->s, t->n, sizeof *t->s, by_addr);
    return 0;
}

void elf_syms_free(elf_syms_t *t) {
    for (size_t i = 0; i < t->n; i++) free(t->s[i].name);
    free(t->s);
    memset(t, 0, sizeof *t);
}

const char *elf_syms_find(const elf_syms_t *t, uint64_t addr) {
    const elf_sym_t *s = elf_syms_lookup(t, addr);
    return s ? s->name : NULL;
}

const elf_sym_t *elf_syms_lookup(const elf_syms_t *t, uint64_t addr) {
    size_t lo = 0, hi = t->n;
    while (lo < hi) {                      /* last symbol with start <= addr */
        size_t mid = (lo + hi) / 2;
        if (t->s[mid].addr <= addr) lo = mid + 1; else hi = mid;
    }
    if (!lo) return NULL;
    const elf_sym_t *s = &t->s[lo - 1];
    return (addr < s->addr + (s->size ? s->size : 1)) ? s : NULL;
}
