/* elf_syms.c - function symbols through libelf (sorted, binary search). */
#include "elf_syms.h"
#include "ts_file.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static int by_addr(const void *a, const void *b) {
    const elf_sym_t *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int elf_syms_load(elf_syms_t *t, const char *path, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    int fd = ts_open_input(path, err, errlen);
    if (fd < 0) return -1;
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    GElf_Ehdr eh;
    size_t shnum = 0;
    int rc = -1;
    if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
        snprintf(err, errlen, "%s is not an ELF file", path);
        goto out;
    }
    if (eh.e_machine != EM_RISCV || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
        snprintf(err, errlen, "%s is not a little-endian RISC-V ELF (machine %d)", path, eh.e_machine);
        goto out;
    }
    size_t fsize = 0, want_sh = eh.e_ident[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Shdr) : sizeof(Elf64_Shdr);
    /* libelf reports no sections at all when the header table lies outside the file: check
     * the header's own numbers (e_shnum 0 with e_shoff set: the count is in section 0) */
    size_t hdr_n = eh.e_shnum ? eh.e_shnum : 1;
    if (!elf_rawfile(e, &fsize) || elf_getshdrnum(e, &shnum) ||
        (eh.e_shoff && (eh.e_shentsize != want_sh || eh.e_shoff > fsize || hdr_n > (fsize - eh.e_shoff) / want_sh))) {
        snprintf(err, errlen, "%s: the section headers lie outside the file or are malformed (corrupt ELF?)", path);
        goto out;
    }
    size_t cap = 0, want_ent = eh.e_ident[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Sym) : sizeof(Elf64_Sym);
    size_t idx = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)); idx++) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            snprintf(err, errlen, "%s: section header %zu is unreadable (corrupt ELF?)", path, idx + 1);
            goto out;
        }
        if (sh.sh_type != SHT_SYMTAB) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (sh.sh_entsize != want_ent || sh.sh_link == 0 || sh.sh_link >= shnum || !data ||
            data->d_size < sh.sh_size) {
            snprintf(err, errlen, "%s: the symbol table (section %zu) is malformed (corrupt ELF?)", path, idx + 1);
            goto out;
        }
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value) continue;
            const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
            if (!name || !*name) continue;
            if (t->n == cap) {
                cap = cap ? 2 * cap : 256;
                elf_sym_t *ns = realloc(t->s, cap * sizeof *ns);
                if (!ns) { snprintf(err, errlen, "%s: out of memory reading its symbols", path); goto out; }
                t->s = ns;
            }
            t->s[t->n].addr = sym.st_value;
            t->s[t->n].size = sym.st_size;
            if (!(t->s[t->n].name = strdup(name))) { snprintf(err, errlen, "%s: out of memory reading its symbols", path); goto out; }
            t->n++;
        }
    }
    if (t->n) qsort(t->s, t->n, sizeof *t->s, by_addr);
    rc = 0;
out:
    if (e) elf_end(e);
    close(fd);
    if (rc) elf_syms_free(t);
    return rc;
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

/* s is name followed by GCC clone suffixes only: (.isra|.constprop|.lto_priv).N, repeated */
static bool is_clone_of(const char *s, const char *name) {
    size_t n = strlen(name);
    if (strncmp(s, name, n) || s[n] != '.') return false;
    s += n;
    static const char *const kinds[] = {".isra.", ".constprop.", ".lto_priv."};
    while (*s) {
        size_t k = 0, m = 0;
        for (; k < sizeof kinds / sizeof kinds[0]; k++)
            if (!strncmp(s, kinds[k], m = strlen(kinds[k]))) break;
        if (k == sizeof kinds / sizeof kinds[0] || !isdigit((unsigned char)s[m])) return false;
        s += m;
        while (isdigit((unsigned char)*s)) s++;
    }
    return true;
}

const elf_sym_t *elf_syms_by_name(const elf_syms_t *t, const char *name) {
    const elf_sym_t *clone = NULL;
    size_t clones = 0;
    for (size_t i = 0; i < t->n; i++) {
        const char *sn = t->s[i].name;
        if (!sn) continue;
        if (!strcmp(sn, name)) return &t->s[i];
        if (is_clone_of(sn, name) && (!clone || clone->addr != t->s[i].addr)) { clone = &t->s[i]; clones++; }
    }
    return clones == 1 ? clone : NULL;
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

const elf_sym_t *elf_syms_lookup_cached(const elf_syms_t *t, elf_syms_cache_t *c, uint64_t addr) {
    if (c->s && addr >= c->lo && addr < c->hi) return c->s;
    const elf_sym_t *s = elf_syms_lookup(t, addr);
    if (s) {                               /* the same answer up to its end or the next start */
        uint64_t end = s->addr + (s->size ? s->size : 1);
        if (s + 1 < t->s + t->n && s[1].addr < end) end = s[1].addr;
        c->lo = s->addr;
        c->hi = end;
        c->s = s;
    }
    return s;
}
