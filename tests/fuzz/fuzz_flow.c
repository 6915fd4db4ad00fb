/* fuzz_flow.c - libFuzzer target over program-flow reconstruction (prog_flow.h): the input is
 * a trace (bytes -> Nexus messages -> program flow) walked over a real program
 * (FUZZ_FLOW_ELF, a path without quotes, loaded once: the build's fib.elf) and over the input's own bytes as RV32 / RV64 code at address
 * 0; decoded with SRC widths 0 and (size mod 9). Every element and instruction callback reads
 * what it is given. Over that program the frames of flow_calls.h run too (hooks that
 * abort when a frame closes that never opened or an instruction count goes back). Built by tests/fuzz/fuzz.cmake (fuzz.flow); a crash, hang, leak or
 * out-of-bounds access is a failure. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "nexus_decode.h"
#include "prog_flow.h"
#include "flow_calls.h"
#include <stdlib.h>

#define STR2(x) #x
#define STR(x) STR2(x)

static volatile uint64_t sink;
static int on_elem(void *c, const pf_elem_t *e) {
    (void)c;
    sink += e->type + e->src + e->offset + e->time + e->u.range.start + e->u.range.end + e->u.range.n;
    sink += (uint64_t)pf_elem_name(e->type)[0] + (uint64_t)pf_itype_name(e->u.range.last_type)[0];
    return 0;
}
static void on_insn(void *c, const pf_insn_t *i) {
    (void)c;
    sink += i->pc + i->raw + i->size + i->br + i->cr;
}

/* frames open per source, and the last instruction count seen */
static uint64_t fc_open[NXD_MAX_SRC], fc_k[NXD_MAX_SRC];
static void fc_enter(void *c, unsigned src, size_t func, long caller, bool trap, uint64_t k) {
    (void)c, (void)caller, (void)trap;
    if (k < fc_k[src]) abort();
    fc_open[src]++;
    sink += func;
}
static void fc_exit(void *c, unsigned src, size_t func, uint64_t k) {
    (void)c;
    if (!fc_open[src]-- || k < fc_k[src]) abort();
    sink += func;
}
static void fc_insn(void *c, unsigned src, size_t func, uint64_t k) {
    (void)c;
    if (k != fc_k[src] + 1) abort();
    fc_k[src] = k;
    sink += func;
}
static void fc_timed(void *c, unsigned src, uint64_t k, uint64_t t) {
    (void)c;
    if (k != fc_k[src]) abort();
    sink += t;
}
static void fc_lost(void *c, unsigned src) {
    (void)c;
    if (fc_open[src]) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static pf_image_t elf;
    static elf_syms_t syms;
    static int loaded;
    if (!loaded) {
        char err[256];
        loaded = 1;
        /* no program to walk is an error, not a fuzz run over an empty image */
        if (pf_image_load(&elf, STR(FUZZ_FLOW_ELF), err, sizeof err) ||
            elf_syms_load(&syms, STR(FUZZ_FLOW_ELF), err, sizeof err)) {
            fprintf(stderr, "fuzz_flow: %s\n", err);
            abort();
        }
    }
    { /* the frames over that program */
        static fc_t f;
        fc_hooks_t h = {NULL, fc_enter, fc_exit, fc_insn, fc_timed, fc_lost};
        memset(fc_open, 0, sizeof fc_open);
        memset(fc_k, 0, sizeof fc_k);
        fc_init(&f, &elf, &syms, &h);
        f.pf.max_count = 4096;
        nxd_cfg_t cfg = {(unsigned)(size % 9), 40};
        nxd_t d;
        nxd_init(&d, &cfg);
        nxd_decode(&d, data, size, fc_msg, &f);
        fc_eot(&f, size);
        for (unsigned i = 0; i < NXD_MAX_SRC; i++)
            if (fc_open[i]) abort();
        fc_free(&f);
    }
    pf_image_t own = {0};
    own.rv64 = size & 1;
    if (pf_image_add(&own, 0, data, size)) return 0;
    const pf_image_t *imgs[2] = {&elf, &own};
    for (int k = 0; k < 2; k++) {
        nxd_cfg_t cfg = {k ? (unsigned)(size % 9) : 0, 40};
        nxd_t d;
        nxd_init(&d, &cfg);
        static pf_t p;
        pf_init(&p, imgs[k], on_elem, NULL);
        pf_set_insn_cb(&p, on_insn, NULL);
        p.max_count = 4096; /* the E31's I-CNT limit: keeps each run short */
        nxd_decode(&d, data, size, pf_from_msg, &p);
        pf_eot(&p, size);
        pf_free(&p);
    }
    pf_image_free(&own);
    return 0;
}
