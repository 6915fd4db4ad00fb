/* ts_elf.c - see ts_elf.h. */
#include "ts_elf.h"
#include "ts_file.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static bool inside(size_t fsize, uint64_t off, uint64_t len) { return off <= fsize && len <= fsize - off; }

enum ts_elf_status ts_elf_open(ts_elf_t *x, const char *path, char *err, size_t errlen) {
    memset(x, 0, sizeof *x);
    x->fd = ts_open_input(path, err, errlen);
    if (x->fd < 0) return TS_ELF_CANNOT_OPEN;
    enum ts_elf_status st = TS_ELF_INVALID;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(err, errlen, "libelf initialisation failed");
        goto bad;
    }
    x->e = elf_begin(x->fd, ELF_C_READ, NULL);
    if (!x->e || elf_kind(x->e) != ELF_K_ELF || !(x->raw = elf_rawfile(x->e, &x->size)) || !gelf_getehdr(x->e, &x->eh)) {
        snprintf(err, errlen, "%s is not an ELF file (or is truncated)", path);
        goto bad;
    }
    GElf_Ehdr *eh = &x->eh;
    if (eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_RISCV) {
        snprintf(err, errlen, "%s is not a little-endian RISC-V ELF (machine %d)", path, eh->e_machine);
        st = TS_ELF_WRONG_ARCH;
        goto bad;
    }
    if (eh->e_ident[EI_CLASS] != ELFCLASS32 && eh->e_ident[EI_CLASS] != ELFCLASS64) {
        snprintf(err, errlen, "%s is neither a 32- nor a 64-bit ELF (class %d)", path, eh->e_ident[EI_CLASS]);
        goto bad;
    }
    x->rv64 = eh->e_ident[EI_CLASS] == ELFCLASS64;
    size_t want_eh = x->rv64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    size_t want_ph = x->rv64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    size_t want_sh = x->rv64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
    size_t want_sym = x->rv64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
    if (eh->e_ehsize != want_eh || (eh->e_phnum && eh->e_phentsize != want_ph)) {
        snprintf(err, errlen, "%s: malformed ELF header (header size %u, program header size %u; %zu and %zu expected)",
                 path, eh->e_ehsize, eh->e_phentsize, want_eh, want_ph);
        goto bad;
    }
    size_t phnum = 0;
    if (elf_getphdrnum(x->e, &phnum) || (phnum && (eh->e_phoff > x->size || phnum > (x->size - eh->e_phoff) / want_ph))) {
        snprintf(err, errlen, "%s: the program headers lie outside the file (truncated file?)", path);
        goto bad;
    }
    /* libelf reports no sections at all when the header table lies outside the file: check the
     * header's own numbers (e_shnum 0 with e_shoff set: the count is in section 0) */
    size_t hdr_n = eh->e_shnum ? eh->e_shnum : 1;
    if (elf_getshdrnum(x->e, &x->shnum) ||
        (eh->e_shoff && (eh->e_shentsize != want_sh || eh->e_shoff > x->size || hdr_n > (x->size - eh->e_shoff) / want_sh))) {
        snprintf(err, errlen, "%s: the section headers lie outside the file or are malformed (corrupt ELF?)", path);
        goto bad;
    }
    for (size_t i = 1; i < x->shnum; i++) {
        GElf_Shdr sh;
        Elf_Scn *scn = elf_getscn(x->e, i);
        if (!scn || !gelf_getshdr(scn, &sh)) {
            snprintf(err, errlen, "%s: section header %zu is unreadable (corrupt ELF?)", path, i);
            goto bad;
        }
        if (sh.sh_type != SHT_NOBITS && sh.sh_size && !inside(x->size, sh.sh_offset, sh.sh_size)) {
            snprintf(err, errlen, "%s: section %zu lies outside the file (corrupt or truncated ELF)", path, i);
            goto bad;
        }
        if (sh.sh_type == SHT_STRTAB && (!sh.sh_size || x->raw[sh.sh_offset + sh.sh_size - 1] != '\0')) {
            snprintf(err, errlen, "%s: string table (section %zu) is %s (corrupt ELF)", path, i,
                     sh.sh_size ? "not terminated" : "empty");
            goto bad;
        }
        if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
            GElf_Shdr ls;
            Elf_Scn *lscn = sh.sh_link && sh.sh_link < x->shnum ? elf_getscn(x->e, sh.sh_link) : NULL;
            if (sh.sh_entsize != want_sym || !lscn || !gelf_getshdr(lscn, &ls) || ls.sh_type != SHT_STRTAB) {
                snprintf(err, errlen, "%s: the symbol table (section %zu) is malformed (corrupt ELF)", path, i);
                goto bad;
            }
            /* every name inside its string table (checked above to lie inside the file): a
             * corrupt name is an error for every reader, the loader of `run` included */
            size_t n = sh.sh_size / want_sym;
            for (size_t k = 0; k < n; k++) {
                const unsigned char *q = (const unsigned char *)x->raw + sh.sh_offset + k * want_sym;
                uint32_t st_name = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
                if (st_name >= ls.sh_size) {
                    snprintf(err, errlen, "%s: the name of symbol %zu lies outside its string table (corrupt ELF)", path, k);
                    goto bad;
                }
            }
        }
    }
    return TS_ELF_OK;
bad:
    ts_elf_close(x);
    return st;
}

void ts_elf_close(ts_elf_t *x) {
    if (x->e) elf_end(x->e);
    if (x->fd >= 0) close(x->fd);
    memset(x, 0, sizeof *x);
    x->fd = -1;
}

const char *ts_elf_str(const ts_elf_t *x, size_t sec, size_t off) {
    GElf_Shdr sh;
    Elf_Scn *scn = sec && sec < x->shnum ? elf_getscn(x->e, sec) : NULL;
    if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB || off >= sh.sh_size) return NULL;
    return x->raw + sh.sh_offset + off; /* the table ends in a NUL (ts_elf_open) */
}
