/* call_sites.c - the call sites of enter records (call_sites.h). */
#include "call_sites.h"
#include "rv_insn.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rs_sites_open(rs_sites_t *s, const elf_syms_t *syms, const char *elf, char *err, size_t errlen) {
    memset(s, 0, sizeof *s);
    s->syms = syms;
    if (!syms || !syms->n) return 0;
    if (!(s->instr = calloc(syms->n, 1))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const elf_sym_t *h = elf_syms_by_name(syms, "__cyg_profile_func_enter");
    s->hook = h ? h->addr : 0;
    if (elf && s->hook) {
        if (pf_image_load(&s->img, elf, err, errlen)) {
            rs_sites_close(s);
            return -1;
        }
        s->have_img = true;
    }
    return 0;
}

void rs_sites_close(rs_sites_t *s) {
    if (s->have_img) pf_image_free(&s->img);
    free(s->instr);
    memset(s, 0, sizeof *s);
}

/* the 32 bits at pc (little-endian; bytes outside the image are 0); *got: how many exist */
static uint32_t word_at(const rs_sites_t *s, uint64_t pc, unsigned *got) {
    uint32_t w = 0;
    *got = 0;
    for (unsigned k = 0; k < 4; k++) {
        const pf_seg_t *g = NULL;
        for (size_t i = 0; i < s->img.n && !g; i++)
            if (pc + k >= s->img.seg[i].base && pc + k - s->img.seg[i].base < s->img.seg[i].size) g = &s->img.seg[i];
        if (!g) break;
        w |= (uint32_t)g->data[pc + k - g->base] << 8 * k;
        (*got)++;
    }
    return w;
}

/* the code of sym calls the enter hook: a JAL with a link register to it (the linker relaxes
 * every call in reach to one), or an AUIPC rd + JALR link, rd pair whose target it is */
static bool calls_hook(const rs_sites_t *s, const elf_sym_t *sym) {
    for (uint64_t pc = sym->addr, end = sym->addr + sym->size; pc < end;) {
        unsigned got;
        uint32_t raw = word_at(s, pc, &got);
        unsigned len = got >= 2 ? rv_insn_len(raw & 0xffff) : 0;
        rv_insn_t in;
        if (!len || len > got || !rv_decode(raw, s->img.rv64, &in)) return false;
        if (in.kind == RV_JAL && rv_is_link(in.rd) && pc + (uint64_t)(int64_t)in.imm == s->hook) return true;
        if (len == 4 && (raw & 0x7f) == 0x17 && pc + 8 <= end) { /* AUIPC */
            unsigned got2;
            uint32_t j = word_at(s, pc + 4, &got2);
            if (got2 == 4 && (j & 0x7f) == 0x67 && (j >> 12 & 7) == 0 && rv_is_link(j >> 7 & 31) && (j >> 15 & 31) == (raw >> 7 & 31) &&
                pc + (uint64_t)(int64_t)(int32_t)(raw & 0xfffff000u) + (uint64_t)(int64_t)((int32_t)j >> 20) == s->hook)
                return true;
        }
        pc += len;
    }
    return false;
}

uint64_t rs_site(void *ctx, uint64_t ret, bool *instrumented) {
    rs_sites_t *s = ctx;
    *instrumented = false;
    if (!s || !s->syms || !ret) return 0;
    const elf_sym_t *sym = elf_syms_lookup_cached(s->syms, &s->cache, ret - 1);
    if (!sym) return 0;
    size_t i = (size_t)(sym - s->syms->s);
    if (s->have_img && i < s->syms->n) {
        if (!s->instr[i]) s->instr[i] = calls_hook(s, sym) ? 1 : 2;
        *instrumented = s->instr[i] == 1;
    }
    return sym->addr;
}
