/* flow_listing.h - `tracesim decode --format instr` and the program-flow part of `--format
 * elements` (prog_flow.h): printing of retired instructions and flow elements. */
#ifndef TS_FLOW_LISTING_H
#define TS_FLOW_LISTING_H
#include "elf_syms.h"
#include "prog_flow.h"
#include <stdio.h>

typedef struct ts_flow {
    FILE *out;
    pf_image_t img;
    elf_syms_t syms;
    bool have_syms;
    bool tag;              /* messages carry SRC: lines start with "[src] " */
    const elf_sym_t *last; /* symbol of the last instruction printed */
    pf_t pf;
    char buf[1 << 16]; /* listing output buffer */
    size_t len;
} ts_flow_t;

/* loads elf (NULL: no image, every flow ends in ADDR_NACC); instr: one line per retired
 * instruction, else flow elements. 0, or -1 with a one-line reason in err. Heap-allocate it. */
int ts_flow_open(ts_flow_t *f, FILE *out, const char *elf, bool instr, bool tag, char *err, size_t errlen);
/* an nxd_cb (context: the ts_flow_t) */
int ts_flow_msg(void *f, const nxd_msg_t *m);
/* end of trace; frees everything; 0, or -1 if writing failed */
int ts_flow_close(ts_flow_t *f, uint64_t end_offset);
#endif
