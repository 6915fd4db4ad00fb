/* elf_syms.c - function symbols through the shared ELF reader (ts_elf.h), sorted, binary search. */
#include "elf_syms.h"
#include "ts_elf.h"
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
    ts_elf_t x; /* checked whole: sections and string tables inside the file */
    if (ts_elf_open(&x, path, err, errlen) != TS_ELF_OK) return -1;
    Elf *e = x.e;
    int rc = -1;
    size_t cap = 0, idx = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)); idx++) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            snprintf(err, errlen, "%s: section header %zu is unreadable (corrupt ELF?)", path, idx + 1);
            goto out;
        }
        if (sh.sh_type != SHT_SYMTAB) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || data->d_size < sh.sh_size) {
            snprintf(err, errlen, "%s: the symbol table (section %zu) is malformed (corrupt ELF?)", path, idx + 1);
            goto out;
        }
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym)) {
                snprintf(err, errlen, "%s: symbol %zu is unreadable (corrupt ELF)", path, i);
                goto out;
            }
            if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value) continue;
            /* a name outside its string table is a corrupt file, not a nameless function */
            const char *name = ts_elf_str(&x, sh.sh_link, sym.st_name);
            if (!name) {
                snprintf(err, errlen, "%s: the name of symbol %zu lies outside its string table (corrupt ELF)", path, i);
                goto out;
            }
            if (!*name) continue;
            if (t->n == cap) {
                cap = cap ? 2 * cap : 256;
                elf_sym_t *ns = realloc(t->s, cap * sizeof *ns);
                if (!ns) {
                    snprintf(err, errlen, "%s: out of memory reading its symbols", path);
                    goto out;
                }
                t->s = ns;
            }
            t->s[t->n].addr = sym.st_value;
            t->s[t->n].size = sym.st_size;
            if (!(t->s[t->n].name = strdup(name))) {
                snprintf(err, errlen, "%s: out of memory reading its symbols", path);
                goto out;
            }
            t->n++;
        }
    }
    if (t->n) qsort(t->s, t->n, sizeof *t->s, by_addr);
    rc = 0;
out:
    ts_elf_close(&x);
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
        if (is_clone_of(sn, name) && (!clone || clone->addr != t->s[i].addr)) {
            clone = &t->s[i];
            clones++;
        }
    }
    return clones == 1 ? clone : NULL;
}

const elf_sym_t *elf_syms_lookup(const elf_syms_t *t, uint64_t addr) {
    size_t lo = 0, hi = t->n;
    while (lo < hi) { /* last symbol with start <= addr */
        size_t mid = (lo + hi) / 2;
        if (t->s[mid].addr <= addr) lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo) return NULL;
    const elf_sym_t *s = &t->s[lo - 1];
    return (addr < s->addr + (s->size ? s->size : 1)) ? s : NULL;
}

const elf_sym_t *elf_syms_lookup_cached(const elf_syms_t *t, elf_syms_cache_t *c, uint64_t addr) {
    if (c->s && addr >= c->lo && addr < c->hi) return c->s;
    const elf_sym_t *s = elf_syms_lookup(t, addr);
    if (s) { /* the same answer up to its end or the next start */
        uint64_t end = s->addr + (s->size ? s->size : 1);
        if (s + 1 < t->s + t->n && s[1].addr < end) end = s[1].addr;
        c->lo = s->addr;
        c->hi = end;
        c->s = s;
    }
    return s;
}
