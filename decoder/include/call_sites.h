/* call_sites.h - the call sites of enter records for the call-site rule (rec_stack.h): the
 * function a call returning to an address was made in, and whether it is instrumented. */
#ifndef TS_CALL_SITES_H
#define TS_CALL_SITES_H
#include "elf_syms.h"
#include "rec_stack.h"
#include "prog_flow.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct rs_sites {
    const elf_syms_t *syms; /* NULL: nothing is known */
    pf_image_t img;
    bool have_img;
    uint64_t hook;        /* __cyg_profile_func_enter's address (0: none in the ELF) */
    unsigned char *instr; /* per symbol: 0 not looked at, 1 instrumented, 2 not */
    elf_syms_cache_t cache;
} rs_sites_t;

/* syms (may be NULL: an empty resolver) and the code of the ELF at elf (NULL: none); 0, or -1
 * with a one-line reason in err (the ELF's code unreadable, out of memory) */
int rs_sites_open(rs_sites_t *s, const elf_syms_t *syms, const char *elf, char *err, size_t errlen);
void rs_sites_close(rs_sites_t *s);
/* the entry address of the function a call returning to ret was made in (0: unknown), and
 * whether its code calls the enter hook */
uint64_t rs_site(void *sites, uint64_t ret, bool *instrumented); /* an rs_site_fn */

#endif
