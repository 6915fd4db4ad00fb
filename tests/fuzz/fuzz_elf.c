/* fuzz_elf.c - libFuzzer target over the ELF readers that see user files: the loader's
 * segment reader (sim/elf_read.c, what `tracesim run` loads) and the symbol reader
 * (decoder/src/elf_syms.c, what --elf and the waves' PC filter read). The input is the
 * ELF file itself, handed over as a memory file (/proc/self/fd/N). Segments are checked to
 * lie inside the file and to fit in 32 bits; symbol look-ups run over the whole table. A
 * crash, hang, leak or out-of-bounds access is a failure (tests/fuzz/fuzz.cmake: fuzz.elf). */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "elf_read.h"
#include "elf_syms.h"

static bool seg(void *ctx, size_t index, uint32_t paddr, const void *data, uint32_t filesz, uint32_t memsz, char *err,
                size_t errlen) {
    volatile uint8_t sum = 0;
    const uint8_t *b = data;
    for (uint32_t i = 0; i < filesz; i += 64) sum ^= b[i]; /* touch the bytes: inside the file */
    if (filesz) sum ^= b[filesz - 1];
    if ((uint64_t)paddr + memsz > (uint64_t)UINT32_MAX + 1) abort(); /* promised by elf_read */
    (void)ctx;
    (void)index;
    (void)err;
    (void)errlen;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int fd = memfd_create("fuzz.elf", 0);
    if (fd < 0) return 0;
    if (size && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    char path[64], err[512];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    uint32_t entry;
    elf_read(path, seg, NULL, &entry, NULL, err, sizeof err);
    elf_syms_t t;
    if (elf_syms_load(&t, path, err, sizeof err) == 0) {
        volatile size_t found = 0;
        for (size_t i = 0; i < t.n; i++) found += elf_syms_find(&t, t.s[i].addr + t.s[i].size / 2) != NULL;
        elf_syms_free(&t);
    }
    close(fd);
    return 0;
}
