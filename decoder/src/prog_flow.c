/* prog_flow.c - program-flow reconstruction from Nexus messages and the program image
 * (prog_flow.h). */
#include "prog_flow.h"
#include "rv_insn.h"
#include "ts_elf.h"
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* ---- image ---------------------------------------------------------------------------- */
int pf_image_add(pf_image_t *img, uint64_t base, const void *bytes, size_t len) {
    pf_seg_t *ns = realloc(img->seg, (img->n + 1) * sizeof *ns);
    if (!ns) return -1;
    img->seg = ns;
    uint8_t *d = malloc(len ? len : 1);
    if (!d) return -1;
    if (len) memcpy(d, bytes, len);
    img->seg[img->n++] = (pf_seg_t){base, len, d};
    return 0;
}

void pf_image_free(pf_image_t *img) {
    for (size_t i = 0; i < img->n; i++) free(img->seg[i].data);
    free(img->seg);
    memset(img, 0, sizeof *img);
}

int pf_image_load(pf_image_t *img, const char *path, char *err, size_t errlen) {
    memset(img, 0, sizeof *img);
    ts_elf_t x; /* checked whole: sections and string tables inside the file */
    if (ts_elf_open(&x, path, err, errlen) != TS_ELF_OK) return -1;
    Elf *e = x.e;
    int rc = -1;
    size_t fsize = x.size;
    img->rv64 = x.rv64;
    size_t idx = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)); idx++) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) {
            snprintf(err, errlen, "%s: section header %zu is unreadable (corrupt ELF?)", path, idx + 1);
            goto out;
        }
        if (sh.sh_type != SHT_PROGBITS || (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR) ||
            !sh.sh_size)
            continue;
        if (sh.sh_offset > fsize || sh.sh_size > fsize - sh.sh_offset || sh.sh_addr + sh.sh_size < sh.sh_addr) {
            snprintf(err, errlen, "%s: code section %zu lies outside the file (corrupt ELF?)", path, idx + 1);
            goto out;
        }
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf || d->d_size < sh.sh_size) {
            snprintf(err, errlen, "%s: code section %zu is unreadable (corrupt ELF?)", path, idx + 1);
            goto out;
        }
        if (pf_image_add(img, sh.sh_addr, d->d_buf, sh.sh_size)) {
            snprintf(err, errlen, "%s: out of memory reading its code", path);
            goto out;
        }
    }
    if (!img->n) {
        snprintf(err, errlen, "%s has no executable sections", path);
        goto out;
    }
    rc = 0;
out:
    ts_elf_close(&x);
    if (rc) pf_image_free(img);
    return rc;
}

/* the bytes at addr with at least need bytes in the same segment, or NULL */
static const uint8_t *img_at(const pf_image_t *img, uint64_t addr, unsigned need, uint64_t *avail) {
    if (!img || !img->n) return NULL;
    size_t i = img->last < img->n ? img->last : 0;
    const pf_seg_t *s = &img->seg[i];
    if (addr - s->base >= s->size) {
        for (i = 0; i < img->n; i++) {
            s = &img->seg[i];
            if (addr - s->base < s->size) break;
        }
        if (i == img->n) return NULL;
        ((pf_image_t *)img)->last = i;
    }
    uint64_t off = addr - s->base;
    if (s->size - off < need) return NULL;
    *avail = s->size - off;
    return s->data + off;
}

/* ---- per-source state ---------------------------------------------------------------- */
enum { CT_NONE,
       CT_ICNT,
       CT_HIST,
       CT_TAKEN,
       CT_NOT_TAKEN };

typedef struct pf_src {
    bool seen, synced, htm, pc_valid, isr;
    bool prog; /* program trace seen: the source's elements are reported */
    uint64_t pc, faddr;
    int64_t icnt;
    uint64_t hist;
    int histbit; /* next HIST bit to use; -1: none */
    uint64_t taken, not_taken;
    /* the open instruction range */
    bool r_open;
    uint64_t r_start, r_end, r_n, r_off, r_last;
    bool r_has_time;
    uint64_t r_time;
    unsigned sp; /* entries on the call stack */
    uint64_t stack[PF_STACK_DEPTH];
} pf_src_t;

static int ctype(const pf_src_t *s) {
    if (s->histbit >= 0) return CT_HIST;
    if (s->taken) return CT_TAKEN;
    if (s->not_taken) return CT_NOT_TAKEN;
    return s->icnt > 0 ? CT_ICNT : CT_NONE;
}

static void reset_counts(pf_src_t *s) {
    s->icnt = 0;
    s->histbit = -1;
    s->taken = s->not_taken = 0;
}

void pf_init(pf_t *p, const pf_image_t *img, pf_elem_cb cb, void *ctx) {
    memset(p, 0, sizeof *p);
    p->img = img;
    p->cb = cb;
    p->ctx = ctx;
    p->max_count = PF_MAX_COUNT;
}

void pf_set_insn_cb(pf_t *p, pf_insn_cb icb, void *ictx) {
    p->icb = icb;
    p->ictx = ictx;
}

void pf_free(pf_t *p) {
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) {
        free(p->s[i]);
        p->s[i] = NULL;
    }
}

/* the message being processed (element offset and time) */
typedef struct cur {
    const nxd_msg_t *m;
    unsigned src;
} cur_t;

static int emit(pf_t *p, const cur_t *c, pf_elem_t *e) {
    e->src = c->src;
    e->offset = c->m ? c->m->offset : 0;
    e->has_time = c->m && c->m->tics_valid;
    e->time = e->has_time ? c->m->tics : 0;
    return p->cb ? p->cb(p->ctx, e) : 0;
}

/* closes the open range of s (ended by an instruction of type t, or PF_I_OTHER) */
static int flush(pf_t *p, pf_src_t *s, unsigned src, enum pf_itype t, bool cond, bool indirect, bool taken,
                 uint64_t last) {
    if (!s->r_open) return 0;
    s->r_open = false;
    pf_elem_t e = {.type = PF_ELEM_INSTR_RANGE};
    e.src = src;
    e.offset = s->r_off;
    e.has_time = s->r_has_time;
    e.time = s->r_time;
    e.u.range.start = s->r_start;
    e.u.range.end = s->r_end;
    e.u.range.n = s->r_n;
    e.u.range.last = last;
    e.u.range.last_type = t;
    e.u.range.cond = cond;
    e.u.range.indirect = indirect;
    e.u.range.taken = taken;
    p->ranges++;
    return p->cb ? p->cb(p->ctx, &e) : 0;
}

static int flush_other(pf_t *p, pf_src_t *s, unsigned src) { return flush(p, s, src, PF_I_OTHER, false, false, false, s->r_last); }

/* loses the sync of s: the open range closes, then a NO_SYNC (reason) or nothing (reason < 0) */
static int lose(pf_t *p, pf_src_t *s, const cur_t *c, int reason) {
    int rc = flush_other(p, s, c->src);
    s->synced = false;
    s->pc_valid = false;
    s->isr = false;
    reset_counts(s);
    if (reason >= 0 && !rc) {
        pf_elem_t e = {.type = PF_ELEM_NO_SYNC};
        e.u.nosync.reason = (enum pf_nosync)reason;
        if (reason != PF_NOSYNC_STOPPED) p->lost++;
        rc = emit(p, c, &e);
    }
    return rc;
}

static void push(pf_src_t *s, uint64_t a) {
    if (s->sp < PF_STACK_DEPTH) s->stack[s->sp++] = a;
}

/* pops into *a; false when the stack is empty */
static bool pop(pf_src_t *s, uint64_t *a) {
    if (!s->sp) return false;
    *a = s->stack[--s->sp];
    return true;
}

/* walks the instructions the counts of message m cover. Returns 0 (counts used up, or a
 * conditional branch waits for the next message), 1 (sync lost: reported), 2 (stop). */
static int walk(pf_t *p, pf_src_t *s, const cur_t *c) {
    const nxd_msg_t *m = c->m;
    int ct;
    while ((ct = ctype(s)) != CT_NONE) {
        /* history or a taken count still to use, and far more instructions walked than any
         * I-CNT pays for: a loop without conditional branches (corrupt trace or image) */
        if (!s->pc_valid || s->icnt < -(int64_t)p->max_count) return lose(p, s, c, PF_NOSYNC_BAD_FLOW) ? 2 : 1;
        uint64_t pc = s->pc, avail;
        const uint8_t *b = img_at(p->img, pc, 2, &avail);
        uint32_t raw = b ? (uint32_t)b[0] | (uint32_t)b[1] << 8 : 0;
        unsigned len = b ? rv_insn_len(raw) : 0;
        if (b && len > 2) {
            if (avail < len) b = NULL;
            else
                raw |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        }
        if (!b) {
            int rc = flush_other(p, s, c->src);
            pf_elem_t e = {.type = PF_ELEM_ADDR_NACC};
            e.u.nacc.addr = pc;
            p->nacc++;
            if (!rc) rc = emit(p, c, &e);
            if (!rc) rc = lose(p, s, c, -1);
            return rc ? 2 : 1;
        }
        rv_insn_t in;
        if (!rv_decode(raw, p->img->rv64, &in)) return lose(p, s, c, PF_NOSYNC_BAD_FLOW) ? 2 : 1;
        int64_t units = in.size / 2;
        uint64_t next = pc + in.size, popped;
        bool next_ok = true, unknown = false;
        unsigned br = PF_BR_NONE, cr = 0;
        switch (in.kind) {
        case RV_JAL:
            if (rv_is_link(in.rd)) {
                push(s, pc + in.size);
                cr |= PF_CR_CALL;
            }
            next = pc + (uint64_t)(int64_t)in.imm;
            break;
        case RV_JALR:
            next_ok = false;
            if (rv_is_link(in.rd)) {
                if (rv_is_link(in.rs1) && in.rd != in.rs1) { /* return and call (co-routine) */
                    next_ok = pop(s, &popped);
                    next = popped;
                    cr |= PF_CR_SWAP;
                } else
                    cr |= PF_CR_CALL;
                push(s, pc + in.size);
            } else if (rv_is_link(in.rs1)) {
                next_ok = pop(s, &popped);
                next = popped;
                cr |= PF_CR_RETURN;
            }
            /* BTM: a return that does not use up the I-CNT was inferred: this is HTM */
            if (!s->htm && (cr & (PF_CR_RETURN | PF_CR_SWAP)) && s->icnt > units) s->htm = true;
            if (!s->htm) {
                next_ok = s->icnt > units; /* jump to the next instruction */
                next = pc + in.size;
            }
            break;
        case RV_BRANCH: {
            uint64_t tgt = pc + (uint64_t)(int64_t)in.imm, nt = pc + in.size;
            if (!s->htm) {
                br = s->icnt <= units && (m->tcode == NX_DIRECT_BRANCH || m->tcode == NX_DIRECT_BRANCH_WS) ? PF_BR_TAKEN : PF_BR_NOT_TAKEN;
            } else if (ct == CT_HIST) {
                br = (s->hist >> s->histbit) & 1 ? PF_BR_TAKEN : PF_BR_NOT_TAKEN;
                s->histbit--;
            } else if (ct == CT_TAKEN) {
                s->taken--;
                br = PF_BR_TAKEN;
            } else if (ct == CT_NOT_TAKEN) {
                s->not_taken--;
                br = PF_BR_NOT_TAKEN;
            } else if (s->icnt == units && m->tcode == NX_INDIRECT_BRANCH_HIST_WS) {
                /* the branch reports the sync: its outcome is where the sync says the flow goes */
                uint64_t to = m->f[NXF_F_ADDR] << 1;
                br = tgt == nt || to == nt ? PF_BR_NOT_TAKEN : to == tgt ? PF_BR_TAKEN :
                                                                           PF_BR_NONE;
                if (br == PF_BR_NONE) next = to;
            } else
                unknown = true; /* its outcome comes later */
            if (br == PF_BR_TAKEN) next = tgt;
            break;
        }
        case RV_ECALL:
            next_ok = false;
            cr |= PF_CR_EXCEPTION;
            break;
        case RV_XRET:
            next_ok = false;
            cr |= PF_CR_XRET;
            break;
        default: break;
        }
        if (unknown) return 0;
        s->icnt -= units;
        if (!next_ok && ctype(s) != CT_NONE) return lose(p, s, c, PF_NOSYNC_BAD_FLOW) ? 2 : 1;
        if (s->isr) {
            cr |= PF_CR_INTERRUPT;
            s->isr = false;
        }
        p->instructions++;
        if (p->icb) {
            pf_insn_t ii = {c->src, pc, len == 2 ? raw & 0xffff : raw, in.size, br, cr, m->tics_valid, m->tics,
                            m->tcode == NX_RESOURCE_FULL && m->f[NXF_RCODE] != NX_RCODE_ICNT};
            p->icb(p->ictx, &ii);
        }
        /* the instruction range */
        if (s->r_open && pc != s->r_end && flush_other(p, s, c->src)) return 2;
        if (!s->r_open) {
            s->r_open = true;
            s->r_start = pc;
            s->r_n = 0;
            s->r_off = m->offset;
            s->r_has_time = m->tics_valid;
            s->r_time = m->tics;
        }
        s->r_n++;
        s->r_end = pc + in.size;
        s->r_last = pc;
        if (in.kind != RV_OTHER) {
            enum pf_itype t = in.kind == RV_ECALL ? PF_I_TRAP : in.kind == RV_XRET         ? PF_I_XRET :
                                                            cr & (PF_CR_CALL | PF_CR_SWAP) ? PF_I_CALL :
                                                            cr & PF_CR_RETURN              ? PF_I_RETURN :
                                                            in.kind == RV_JALR             ? PF_I_INDIRECT :
                                                                                             PF_I_BRANCH;
            bool taken = in.kind != RV_BRANCH || br == PF_BR_TAKEN;
            if (flush(p, s, c->src, t, in.kind == RV_BRANCH, in.kind == RV_JALR, taken, pc)) return 2;
        }
        s->pc = next;
        s->pc_valid = next_ok;
    }
    return 0;
}

/* adds the counts of m; false if they conflict with counts not yet used */
static bool set_counts(pf_src_t *s, const nxd_msg_t *m, uint64_t max) {
    uint64_t icnt = m->fmask & 1u << NXF_I_CNT ? m->f[NXF_I_CNT] : 0;
    uint64_t hist = m->fmask & 1u << NXF_HISTORY ? m->f[NXF_HISTORY] : 0;
    uint64_t tk = 0, ntk = 0;
    if (m->tcode == NX_RESOURCE_FULL && m->f[NXF_RCODE] == NX_RCODE_TAKEN) tk = m->f[NXF_COUNT];
    if (m->tcode == NX_RESOURCE_FULL && m->f[NXF_RCODE] == NX_RCODE_NOT_TAKEN) ntk = m->f[NXF_COUNT];
    if (icnt > max || tk > max || ntk > max) return false; /* corrupt (prog_flow.h) */
    s->icnt += (int64_t)icnt;
    bool busy = s->histbit >= 0 || s->taken || s->not_taken;
    if (hist) {
        if (busy) return false;
        int top = 63;
        while (!(hist >> top & 1)) top--;
        s->hist = hist;
        s->histbit = top - 1;
        busy = true;
    }
    if (tk || ntk) {
        if (busy) return false;
        s->taken = tk;
        s->not_taken = ntk;
    }
    return true;
}

static bool has_counts(unsigned t) {
    return nx_tcode_prog(t);
}

static bool is_sync(unsigned t) { return t == NX_SYNC || t == NX_DIRECT_BRANCH_WS || t == NX_INDIRECT_BRANCH_WS || t == NX_INDIRECT_BRANCH_HIST_WS; }

/* the address m reports, XORing a U-ADDR into the source's last one (updates it) */
static bool msg_addr(pf_src_t *s, const nxd_msg_t *m, uint64_t *a) {
    if (m->fmask & 1u << NXF_F_ADDR) s->faddr = m->f[NXF_F_ADDR] << 1;
    else if (m->fmask & 1u << NXF_U_ADDR)
        s->faddr ^= m->f[NXF_U_ADDR] << 1;
    else
        return false;
    *a = s->faddr;
    return true;
}

static pf_src_t *get_src(pf_t *p, unsigned src) {
    if (!p->s[src]) {
        p->s[src] = calloc(1, sizeof *p->s[src]);
        if (!p->s[src]) {
            p->oom = true;
            return NULL;
        }
        p->s[src]->histbit = -1;
    }
    return p->s[src];
}

/* every source loses its sync (corrupt message: its SRC cannot be trusted; Error message) */
static int lose_all(pf_t *p, const cur_t *c0, int reason) {
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) {
        pf_src_t *s = p->s[i];
        if (!s) continue;
        cur_t c = {c0->m, i};
        bool was = s->synced;
        if (lose(p, s, &c, was ? reason : -1)) return 1;
        s->faddr = 0;
    }
    return 0;
}

int pf_from_msg(void *vp, const nxd_msg_t *m) {
    pf_t *p = vp;
    if (m->status == NXD_TRUNCATED) return 0;
    cur_t c = {m, m->has_src ? m->src % NXD_MAX_SRC : 0};
    if (m->status == NXD_BAD) return lose_all(p, &c, PF_NOSYNC_LOST);
    if (m->tcode == NX_ERROR) {
        if (lose_all(p, &c, PF_NOSYNC_LOST)) return 1;
    }
    pf_src_t *s = get_src(p, c.src);
    if (!s) return 1;
    unsigned t = m->tcode;
    bool ictws_addr = t == NX_ICT_WS && (m->fmask & 1u << NXF_F_ADDR);
    if (has_counts(t) || ictws_addr) {
        s->prog = true;
        p->prog = true;
    }
    bool first = !s->seen && s->prog;
    if (s->prog) s->seen = true;
    if (t == NX_RESOURCE_FULL || t == NX_INDIRECT_BRANCH_HIST || t == NX_INDIRECT_BRANCH_HIST_WS || (t == NX_CORRELATION && m->f[NXF_CDF] == 1)) s->htm = true;
    int rc = 0;
    uint64_t a = 0;
    if (!s->synced) {
        bool has_a = msg_addr(s, m, &a);
        if (is_sync(t) || ictws_addr) {
            (void)has_a;
            s->synced = true;
            s->pc = a;
            s->pc_valid = true;
            s->sp = 0; /* a sync empties the call stack */
            reset_counts(s);
            pf_elem_t e = {.type = PF_ELEM_TRACE_ON};
            e.u.on.reason = m->fmask & 1u << NXF_SYNC ? (unsigned)m->f[NXF_SYNC] : 0;
            e.u.on.tcode = t;
            e.u.on.addr = a;
            rc = emit(p, &c, &e);
        } else if (first && t != NX_ERROR) {
            pf_elem_t e = {.type = PF_ELEM_NO_SYNC};
            e.u.nosync.reason = PF_NOSYNC_START;
            rc = emit(p, &c, &e);
        }
    } else if (has_counts(t)) {
        if (!set_counts(s, m, p->max_count)) {
            rc = lose(p, s, &c, PF_NOSYNC_BAD_FLOW);
            msg_addr(s, m, &a);
        } else {
            int w = walk(p, s, &c);
            bool has_a = msg_addr(s, m, &a);
            if (w == 2) return 1;
            if (w == 0) {
                uint64_t from = s->pc;
                bool from_ok = s->pc_valid;
                if (has_a) {
                    s->pc = a;
                    s->pc_valid = true;
                }
                /* a sync restarts the flow at its address: after its I-CNT's calls, the call
                 * stack empties (as the encoder and dqr), and so do the counts the walk left
                 * (a negative I-CNT after a history walk, a branch still waiting): kept, they
                 * would make a later I-CNT run out early (issue 35) */
                if (is_sync(t)) {
                    s->sp = 0;
                    reset_counts(s);
                }
                unsigned bt = m->fmask & 1u << NXF_B_TYPE ? (unsigned)m->f[NXF_B_TYPE] : 0;
                if (bt && (t == NX_INDIRECT_BRANCH || t == NX_INDIRECT_BRANCH_WS || t == NX_INDIRECT_BRANCH_HIST || t == NX_INDIRECT_BRANCH_HIST_WS)) {
                    rc = flush_other(p, s, c.src);
                    pf_elem_t e = {.type = PF_ELEM_EXCEPTION};
                    e.u.exc.b_type = bt;
                    e.u.exc.addr = a;
                    e.u.exc.from = from;
                    e.u.exc.from_ok = from_ok;
                    if (!rc) rc = emit(p, &c, &e);
                    s->isr = true;
                }
                if (t == NX_CORRELATION && !rc) rc = lose(p, s, &c, PF_NOSYNC_STOPPED);
            }
        }
    } else
        msg_addr(s, m, &a); /* ICT addresses */
    bool ict_ctx = (t == NX_ICT || t == NX_ICT_WS) && m->f[NXF_CKSRC] == NX_CKSRC_CONTEXT && (m->fmask & 1u << NXF_CKDATA1);
    if (!rc && (t == NX_OWNERSHIP || ict_ctx) && s->prog) {
        rc = flush_other(p, s, c.src);
        uint64_t pr = t == NX_OWNERSHIP ? m->f[NXF_PROCESS] : m->f[NXF_CKDATA1]; /* ICT Context: the same layout */
        pf_elem_t e = {.type = PF_ELEM_PE_CONTEXT};
        e.u.ctx.process = pr;
        e.u.ctx.prv = (unsigned)(pr >> 2 & 3);
        e.u.ctx.v = (unsigned)(pr >> 4 & 1);
        e.u.ctx.context = pr >> 5;
        if (!rc) rc = emit(p, &c, &e);
    }
    if (!rc && s->prog && m->has_ts && m->tics_valid) {
        rc = flush_other(p, s, c.src);
        pf_elem_t e = {.type = PF_ELEM_TIMESTAMP};
        if (!rc) rc = emit(p, &c, &e);
    }
    return rc ? 1 : 0;
}

int pf_eot(pf_t *p, uint64_t offset) {
    nxd_msg_t none = {0};
    none.offset = offset;
    for (unsigned i = 0; i < NXD_MAX_SRC; i++)
        if (p->s[i] && flush_other(p, p->s[i], i)) return 1;
    if (!p->prog) return 0;
    cur_t c = {&none, 0};
    pf_elem_t e = {.type = PF_ELEM_EO_TRACE};
    return emit(p, &c, &e);
}

const char *pf_elem_name(enum pf_elem_type t) {
    static const char *const n[] = {"NO_SYNC", "TRACE_ON", "INSTR_RANGE", "EXCEPTION", "PE_CONTEXT", "TIMESTAMP",
                                    "ADDR_NACC", "EO_TRACE"};
    return (unsigned)t < sizeof n / sizeof n[0] ? n[t] : "?";
}

const char *pf_itype_name(enum pf_itype t) {
    static const char *const n[] = {"other", "branch", "indirect", "call", "return", "trap", "xret"};
    return (unsigned)t < sizeof n / sizeof n[0] ? n[t] : "?";
}

const char *pf_nosync_name(enum pf_nosync r) {
    static const char *const n[] = {"start", "trace stopped", "messages lost", "inconsistent flow"};
    return (unsigned)r < sizeof n / sizeof n[0] ? n[r] : "?";
}
