/* elf_load.c - ELF loading through libelf. Every offset and size from the file is checked
 * against the file's real size before use, so malformed files give an error, never a crash. */
#include "elf_load.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

enum elf_load_status elf_load(soc_t *s, const char *path, uint32_t *entry, char *err, size_t errlen) {
    enum elf_load_status st = ELF_INVALID;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return ELF_CANNOT_OPEN;
    }
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s is not a regular file", path);
        close(fd);
        return ELF_CANNOT_OPEN;
    }
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(err, errlen, "libelf initialisation failed");
        close(fd);
        return ELF_INVALID;
    }
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    size_t fsize = 0;
    char *raw = e ? elf_rawfile(e, &fsize) : NULL;
    GElf_Ehdr eh;
    if (!e || elf_kind(e) != ELF_K_ELF || !raw || !gelf_getehdr(e, &eh)) {
        snprintf(err, errlen, "%s is not an ELF file (or is truncated)", path);
        goto out;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        eh.e_machine != EM_RISCV) {
        snprintf(err, errlen, "%s is not a 32-bit little-endian RISC-V ELF (class %d, machine %d)",
                 path, eh.e_ident[EI_CLASS], eh.e_machine);
        st = ELF_WRONG_ARCH;
        goto out;
    }
    if (eh.e_type != ET_EXEC) {
        snprintf(err, errlen, "%s is not an executable (ELF type %d)", path, eh.e_type);
        st = ELF_WRONG_ARCH;
        goto out;
    }
    size_t phnum;
    if (elf_getphdrnum(e, &phnum) || phnum == 0) {
        snprintf(err, errlen, "%s has no program headers", path);
        goto out;
    }
    unsigned loaded = 0;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph)) {
            snprintf(err, errlen, "%s: program header %zu is unreadable (truncated file?)", path, i);
            goto out;
        }
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        if (ph.p_filesz > ph.p_memsz || ph.p_offset > fsize || ph.p_filesz > fsize - ph.p_offset) {
            snprintf(err, errlen, "%s: segment %zu lies outside the file (truncated file?)", path, i);
            goto out;
        }
        if (ph.p_paddr > UINT32_MAX || ph.p_memsz > UINT32_MAX ||
            !soc_load(s, (uint32_t)ph.p_paddr, raw + ph.p_offset, (uint32_t)ph.p_filesz,
                      (uint32_t)(ph.p_memsz - ph.p_filesz))) {
            snprintf(err, errlen, "%s: segment %zu [0x%08llx, 0x%08llx) is outside RAM [0x%08x, 0x%08x)",
                     path, i, (unsigned long long)ph.p_paddr,
                     (unsigned long long)(ph.p_paddr + ph.p_memsz), s->bus.ram_base,
                     s->bus.ram_base + s->bus.ram_size);
            st = ELF_OUTSIDE_RAM;
            goto out;
        }
        loaded++;
    }
    if (!loaded) {
        snprintf(err, errlen, "%s has no loadable segment", path);
        goto out;
    }
    *entry = (uint32_t)eh.e_entry;
    st = ELF_OK;
out:
    if (e) elf_end(e);
    close(fd);
    return st;
}
