/* flow_paths.c - the call paths of the program flow (out_paths.h): a pass of flow_calls.h over
 * the trace with a node stack per hart that follows its frames; every instruction counts for
 * the node on top (the thread's root when no frame is open). */
#include "out_paths.h"
#include "callstack.h"
#include "flow_calls.h"
#include "flow_walk.h"
#include "stack_tree.h"
#include "src_lines.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { COL_INSN,
       COL_N };

typedef struct fpsrc {
    uint32_t *stk; /* the nodes of the open frames, bottom first */
    size_t n, cap;
    uint64_t insns;
} fpsrc_t;

typedef struct fpaths {
    flow_walk_t w; /* the ELF, the frames (w.fc) */
    st_t t;
    fpsrc_t s[NXD_MAX_SRC];
    int hart;
    bool oom, at;    /* at: costs by pc, call sites (callgrind) */
    src_lines_t *sl; /* the ELF's lines while writing callgrind */
} fpaths_t;

static uint32_t thread_root(fpaths_t *p, unsigned src) {
    const cs_t *cs = fc_stack(&p->w.fc, src);
    return st_thread_root(&p->t, src, cs ? cs->cur : 0);
}

static void h_enter(void *v, unsigned src, size_t func, long caller, bool trap, uint64_t k) {
    (void)k;
    fpaths_t *p = v;
    if (p->hart >= 0 && src != (unsigned)p->hart) return;
    fpsrc_t *s = &p->s[src % NXD_MAX_SRC];
    uint32_t parent = s->n ? s->stk[s->n - 1] : thread_root(p, src);
    /* the call site: the instruction before the callee's first (the call, or the one a trap
     * came after) is the fc's last reported one; none for a root or a thread resuming */
    uint64_t site = (caller >= 0 || trap) && p->at ? p->w.fc.insn_pc : 0;
    if (site && caller >= 0 && s->n && p->t.node[s->stk[s->n - 1]].func != (uint32_t)caller)
        site = 0; /* a tail call's jump: made in the frame it replaced, not in the caller */
    uint32_t node = parent == ST_NONE ? ST_NONE : st_child(&p->t, parent, (uint32_t)func, site);
    if (s->n == s->cap) {
        size_t c = s->cap ? 2 * s->cap : 64;
        uint32_t *n = realloc(s->stk, c * sizeof *n);
        if (!n) {
            p->oom = true;
            return;
        }
        s->stk = n;
        s->cap = c;
    }
    s->stk[s->n++] = node;
    if (node != ST_NONE && (caller >= 0 || trap)) p->t.node[node].calls++; /* a thread resuming is no call */
}

static void h_exit(void *v, unsigned src, size_t func, uint64_t k) {
    (void)func;
    (void)k;
    fpaths_t *p = v;
    if (p->hart >= 0 && src != (unsigned)p->hart) return;
    fpsrc_t *s = &p->s[src % NXD_MAX_SRC];
    if (s->n) s->n--; /* frames close top first (flow_calls.h) */
}

static void h_insn(void *v, unsigned src, size_t func, uint64_t k) {
    (void)func;
    (void)k;
    fpaths_t *p = v;
    if (p->hart >= 0 && src != (unsigned)p->hart) return;
    fpsrc_t *s = &p->s[src % NXD_MAX_SRC];
    /* the instruction's function (the flow profile's self) is the leaf: the top frame's, or
     * one below it without a call (code reached by a jump, or with no frame open) */
    uint32_t node = s->n ? s->stk[s->n - 1] : thread_root(p, src);
    if (node != ST_NONE && (!s->n || p->t.node[node].func != (uint32_t)func)) node = st_child(&p->t, node, (uint32_t)func, 0);
    st_add(&p->t, node, COL_INSN, 1);
    if (p->at) st_add_at(&p->t, node, p->w.fc.insn_pc, COL_INSN, 1);
    s->insns++;
}

static void h_lost(void *v, unsigned src) {
    fpaths_t *p = v;
    p->s[src % NXD_MAX_SRC].n = 0; /* every frame closed before (their exit hooks came) */
}

static const char *nm_func(void *v, uint32_t f) { return fc_func_name(&((fpaths_t *)v)->w.fc, f); }
static uint64_t nm_addr(void *v, uint32_t f) { return fc_func_addr(&((fpaths_t *)v)->w.fc, f); }
static const char *nm_line(void *v, uint64_t addr, unsigned *line) { return src_lines_at(((fpaths_t *)v)->sl, addr, line); }
static const char *nm_line_site(void *v, uint64_t site, unsigned *line) { return nm_line(v, site, line); }
static bool nm_thread(void *v, unsigned hart, uint64_t thread, char *buf, size_t len) {
    const cs_t *cs = fc_stack(&((fpaths_t *)v)->w.fc, hart);
    if (!cs || cs->nth < 2 || thread >= cs->nth) return false; /* one thread: no thread frame */
    snprintf(buf, len, "thread 0x%08" PRIx64, cs->th[thread].id);
    return true;
}

int fpath_report(const char *path, const nxd_cfg_t *cfg, bool wrapped, const char *elf, int hart, const char *counter,
                 bool callgrind, FILE *out, char *err, size_t errlen) {
    if (counter && strcmp(counter, "instructions")) {
        snprintf(err, errlen, "no counter '%s' in a profile from the program flow (it has: instructions)", counter);
        return -3;
    }
    fpaths_t *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    p->hart = hart;
    p->at = callgrind;
    st_init(&p->t, COL_N);
    fc_hooks_t h = {p, h_enter, h_exit, h_insn, NULL, h_lost};
    if (flow_walk(&p->w, elf, path, cfg, wrapped, &h, err, errlen)) {
        rc = -1;
        goto done;
    }
    if (p->oom || p->w.fc.oom || p->t.oom) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        goto done;
    }
    bool any = false;
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) any |= p->s[i].insns != 0;
    if (!any) {
        rc = 1;
        goto done;
    }
    if (callgrind) {
        src_lines_t *sl = src_lines_open(elf);
        /* names and lines: the names' ctx is p, the lines' the ELF's line table */
        st_names_t nm = {p, nm_func, nm_addr, NULL, sl ? nm_line : NULL, sl ? nm_line_site : NULL};
        p->sl = sl;
        static const unsigned cols[1] = {COL_INSN};
        static const char *const ev[1] = {"instructions"};
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "tracesim report --from flow %s (program %s)", path, elf);
        if (st_write_callgrind(&p->t, cols, ev, NULL, 1, &nm, cmd, out) || ferror(out)) rc = -2;
        src_lines_close(sl);
        p->sl = NULL;
    } else {
        st_names_t nm = {p, nm_func, nm_addr, nm_thread, NULL, NULL};
        if (st_write_folded(&p->t, COL_INSN, &nm, out) || ferror(out)) rc = -2;
    }
done:
    flow_walk_free(&p->w);
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) free(p->s[i].stk);
    st_free(&p->t);
    free(p);
    return rc;
}
