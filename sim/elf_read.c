/* elf_read.c - see elf_read.h. The file is opened and checked by the shared reader (ts_elf.h:
 * RISC-V, sections and string tables inside the file); beyond that: the header and program-header
 * entry sizes must be the ELF32 (ELF64) ones (libelf accepts e_phentsize 0 and reads its own
 * size), e_flags must name a soft-float ABI, every segment must lie inside the file and fit in
 * 32 bits, and the entry point must be inside a loadable segment. */
#include "elf_read.h"
#include "ts_elf.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* e_flags (the RISC-V psABI): RVC, the float ABI (2 bits), RVE */
#define TS_EF_RISCV_FLOAT_ABI 0x6u
#define TS_EF_RISCV_RVE 0x8u

enum elf_load_status elf_read(const char *path, elf_seg_fn seg, void *ctx, uint32_t *entry, unsigned *xlen, char *err,
                              size_t errlen) {
    enum elf_load_status st = ELF_INVALID;
    ts_elf_t x;
    switch (ts_elf_open(&x, path, err, errlen)) { /* the shared checks (elf/ts_elf.h) */
    case TS_ELF_OK: break;
    case TS_ELF_CANNOT_OPEN: return ELF_CANNOT_OPEN;
    case TS_ELF_WRONG_ARCH: return ELF_WRONG_ARCH;
    default: return ELF_INVALID;
    }
    Elf *e = x.e;
    size_t fsize = x.size;
    const char *raw = x.raw;
    GElf_Ehdr eh = x.eh;
    bool is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 && !is64) {
        snprintf(err, errlen, "%s is not a 32- or 64-bit little-endian RISC-V ELF (class %d, machine %d)", path,
                 eh.e_ident[EI_CLASS], eh.e_machine);
        st = ELF_WRONG_ARCH;
        goto out;
    }
    if (eh.e_flags & TS_EF_RISCV_FLOAT_ABI) {
        static const char *const abi[] = {"soft", "single", "double", "quad"};
        snprintf(err, errlen,
                 "%s is built for the %s-float ABI (e_flags 0x%x); the %s core has no F or D extension: build with "
                 "-mabi=%s",
                 path, abi[(eh.e_flags & TS_EF_RISCV_FLOAT_ABI) >> 1], (unsigned)eh.e_flags, is64 ? "RV64" : "RV32",
                 is64 ? "lp64" : "ilp32");
        st = ELF_WRONG_ARCH;
        goto out;
    }
    if (is64 && (eh.e_flags & TS_EF_RISCV_RVE)) {
        snprintf(err, errlen, "%s is an RV64E executable (e_flags 0x%x): the RV64 core is RV64I, build with -mabi=lp64",
                 path, (unsigned)eh.e_flags);
        st = ELF_WRONG_ARCH;
        goto out;
    }
    if (eh.e_type != ET_EXEC) {
        snprintf(err, errlen, "%s is not an executable (ELF type %d)", path, eh.e_type);
        st = ELF_WRONG_ARCH;
        goto out;
    }
    size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    size_t phsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    if (eh.e_ehsize != ehsize || eh.e_phentsize != phsize) {
        snprintf(err, errlen, "%s: malformed ELF header (header size %u, program header size %u; %zu and %zu expected)",
                 path, eh.e_ehsize, eh.e_phentsize, ehsize, phsize);
        goto out;
    }
    size_t phnum;
    if (elf_getphdrnum(e, &phnum) || phnum == 0) {
        snprintf(err, errlen, "%s has no program headers", path);
        goto out;
    }
    if (eh.e_phoff > fsize || phnum > (fsize - eh.e_phoff) / phsize) {
        snprintf(err, errlen, "%s: the program headers lie outside the file (truncated file?)", path);
        goto out;
    }
    unsigned loaded = 0;
    bool entry_ok = false;
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
        if (ph.p_paddr > UINT32_MAX || ph.p_memsz > UINT32_MAX || ph.p_paddr + ph.p_memsz > (uint64_t)UINT32_MAX + 1) {
            snprintf(err, errlen, "%s: segment %zu [0x%llx, +0x%llx) does not fit in 32-bit addresses", path, i,
                     (unsigned long long)ph.p_paddr, (unsigned long long)ph.p_memsz);
            st = ELF_OUTSIDE_RAM;
            goto out;
        }
        if (!seg(ctx, i, (uint32_t)ph.p_paddr, raw + ph.p_offset, (uint32_t)ph.p_filesz, (uint32_t)ph.p_memsz, err,
                 errlen)) {
            st = ELF_OUTSIDE_RAM;
            goto out;
        }
        /* the entry point is a virtual address: inside this segment's [vaddr, vaddr + memsz) */
        if (eh.e_entry >= ph.p_vaddr && eh.e_entry - ph.p_vaddr < ph.p_memsz) entry_ok = true;
        loaded++;
    }
    if (!loaded) {
        snprintf(err, errlen, "%s has no loadable segment", path);
        goto out;
    }
    if (!entry_ok) {
        snprintf(err, errlen, "%s: the entry point 0x%llx is not inside a loadable segment", path,
                 (unsigned long long)eh.e_entry);
        goto out;
    }
    *entry = (uint32_t)eh.e_entry;
    if (xlen) *xlen = is64 ? 64 : 32;
    st = ELF_OK;
out:
    ts_elf_close(&x);
    return st;
}
