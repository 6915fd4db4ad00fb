/* fuzz_flow.c - libFuzzer target over program-flow reconstruction (prog_flow.h): the input is
 * a trace (bytes -> Nexus messages -> program flow) walked over the real E31 program
 * (FUZZ_FLOW_ELF, a path without quotes, loaded once) and over the input's own bytes as RV32 / RV64 code at address
 * 0; decoded with SRC widths 0 and (size mod 9). Every element and instruction callback reads
 * what it is given. Built by tests/fuzz/fuzz.cmake (fuzz.flow); a crash, hang, leak or
 * out-of-bounds access is a failure. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "nexus_decode.h"
#include "prog_flow.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static volatile uint64_t sink;
static int on_elem(void *c, const pf_elem_t *e) {
    (void)c;
    sink += e->type + e->src + e->offset + e->time + e->u.range.start + e->u.range.end + e->u.range.n;
    sink += (uint64_t)pf_elem_name(e->type)[0] + (uint64_t)pf_itype_name(e->u.range.last_type)[0];
    return 0;
}
static void on_insn(void *c, const pf_insn_t *i) { (void)c; sink += i->pc + i->raw + i->size + i->br + i->cr; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static pf_image_t elf;
    static int loaded;
    if (!loaded) {
        char err[256];
        loaded = 1;
        if (pf_image_load(&elf, STR(FUZZ_FLOW_ELF), err, sizeof err)) fprintf(stderr, "fuzz_flow: %s\n", err);
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
        p.max_count = 4096;                 /* the E31's I-CNT limit: keeps each run short */
        nxd_decode(&d, data, size, pf_from_msg, &p);
        pf_eot(&p, size);
        pf_free(&p);
    }
    pf_image_free(&own);
    return 0;
}
