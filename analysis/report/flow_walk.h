/* flow_walk.h - one pass of the program flow (flow_calls.h) over a trace, for the profiles
 * made from it (flow_profile.c: fp_report, flow_paths.c: fpath_report): the ELF's code image
 * and symbols (owned here, on the heap: a walk is reentrant), the frames, and the trace read
 * in pieces (trace_in.h). The profiles differ only in their hooks (fc_hooks_t: a frame opens,
 * closes, an instruction retires, a timed point, the flow breaks). */
#ifndef TS_FLOW_WALK_H
#define TS_FLOW_WALK_H
#include "elf_syms.h"
#include "flow_calls.h"
#include "nexus_decode.h"
#include "prog_flow.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct flow_walk {
    pf_image_t *img;  /* the ELF's code (NULL until loaded) */
    elf_syms_t *syms; /* its symbols (NULL until loaded) */
    fc_t fc;          /* the frames: after the walk its counts (lost, switches, repairs) and
                       * names (fc_func_name, fc_func_addr) hold until flow_walk_free */
    bool fc_live;     /* fc was initialised */
} flow_walk_t;

/* Loads elf, then walks the trace at path (decoded with cfg; wrapped: from the first message
 * end) through fc with the hooks h to its end (fc_eot: every frame closes). The hooks may use
 * w->fc while they run (fc_stack, fc_nfunc, insn_pc). 0, or -1 with a one-line reason in err
 * (the ELF or the trace unreadable, no memory). Free w with flow_walk_free either way. */
int flow_walk(flow_walk_t *w, const char *elf, const char *path, const nxd_cfg_t *cfg, bool wrapped, const fc_hooks_t *h,
              char *err, size_t errlen);
void flow_walk_free(flow_walk_t *w);
#endif
