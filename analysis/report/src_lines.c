/* src_lines.c - see src_lines.h. Compile units are looked up with dwarf_haspc, as in
 * decoder/perf_sifive.c (GCC 12's RISC-V DWARF 5 address ranges defeat dwarf_addrdie). */
#include "src_lines.h"
#include "ts_file.h"
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct src_lines {
    int fd;
    Dwarf *dw;
    Dwarf_Die *cus;
    size_t ncu;
};

src_lines_t *src_lines_open(const char *elf) {
    src_lines_t *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    char e[300];
    s->fd = ts_open_input(elf, e, sizeof e); /* a regular file only, never blocks */
    if (s->fd < 0 || !(s->dw = dwarf_begin(s->fd, DWARF_C_READ))) {
        src_lines_close(s);
        return NULL;
    }
    Dwarf_Off off = 0, next;
    size_t hsize, cap = 0;
    while (dwarf_nextcu(s->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        if (s->ncu == cap) {
            cap = cap ? 2 * cap : 64;
            Dwarf_Die *nc = realloc(s->cus, cap * sizeof *nc);
            if (!nc) break;
            s->cus = nc;
        }
        if (dwarf_offdie(s->dw, off + hsize, &s->cus[s->ncu])) s->ncu++;
        off = next;
    }
    return s;
}

const char *src_lines_at(void *ctx, uint64_t addr, unsigned *line) {
    src_lines_t *s = ctx;
    for (size_t i = 0; s && i < s->ncu; i++) {
        if (dwarf_haspc(&s->cus[i], (Dwarf_Addr)addr) != 1) continue;
        Dwarf_Line *l = dwarf_getsrc_die(&s->cus[i], (Dwarf_Addr)addr);
        int ln = 0;
        const char *file = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
        if (!file || dwarf_lineno(l, &ln) || ln <= 0) return NULL;
        *line = (unsigned)ln;
        return file;
    }
    return NULL;
}

void src_lines_close(src_lines_t *s) {
    if (!s) return;
    if (s->dw) dwarf_end(s->dw);
    if (s->fd >= 0) close(s->fd);
    free(s->cus);
    free(s);
}
