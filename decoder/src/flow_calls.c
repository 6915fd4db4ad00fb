/* flow_calls.c - function frames from the program flow (flow_calls.h). */
#include "flow_calls.h"
#include "callstack.h"
#include <stdlib.h>
#include <string.h>

typedef struct fc_src {
    fc_t *f;
    unsigned src;
    uint64_t k;          /* instructions so far */
    cs_t cs;             /* the call stack (decoder/include/callstack.h) */
    bool ret;            /* the last instruction was a return: check where it landed */
    bool named;          /* a THREAD_SWITCH came: the stack's thread is known */
    bool switch_pending; /* a THREAD_SWITCH to switch_id waits for the write to tp */
    uint64_t switch_id;
    bool need_root;       /* the next instruction opens a root frame */
    bool call;            /* the last instruction was a call: the next one opens a frame */
    bool xret;            /* the last instruction was an xRET: the next one is no tail call */
    long caller;          /* ... made in this function */
    size_t last_func;     /* the function of the last instruction */
    const elf_sym_t *sym; /* the symbol hit last */
} fc_src_t;

const struct cs *fc_stack(const fc_t *f, unsigned src) { return src < NXD_MAX_SRC && f->s[src] ? &f->s[src]->cs : NULL; }

size_t fc_nfunc(const fc_t *f) { return (f->syms ? f->syms->n : 0) + 1; }

const char *fc_func_name(const fc_t *f, size_t func) {
    return f->syms && func < f->syms->n ? f->syms->s[func].name : "(no symbol)";
}

uint64_t fc_func_addr(const fc_t *f, size_t func) { return f->syms && func < f->syms->n ? f->syms->s[func].addr : 0; }

static size_t func_of(fc_t *f, fc_src_t *s, uint64_t pc) {
    const elf_sym_t *y = s->sym;
    if (!y || pc < y->addr || pc >= y->addr + (y->size ? y->size : 1)) y = s->sym = f->syms ? elf_syms_lookup(f->syms, pc) : NULL;
    return y ? (size_t)(y - f->syms->s) : fc_nfunc(f) - 1;
}

/* a frame closes (every route: callstack.h) at the last instruction walked */
static void frame_closed(void *ctx, uint64_t thread, const cs_frame_t *fr, void *user, cs_why_t why) {
    fc_src_t *s = ctx;
    (void)thread;
    (void)user;
    (void)why;
    if (s->f->h.exit) s->f->h.exit(s->f->h.ctx, s->src, fr->func, s->k);
}

static fc_src_t *get_src(fc_t *f, unsigned src) {
    src %= NXD_MAX_SRC;
    if (!f->s[src]) {
        f->s[src] = calloc(1, sizeof *f->s[src]);
        if (!f->s[src]) {
            f->oom = true;
            return NULL;
        }
        f->s[src]->need_root = true;
        f->s[src]->f = f;
        f->s[src]->src = src;
        cs_init(&f->s[src]->cs, 0, frame_closed, f->s[src]);
    }
    return f->s[src];
}

static size_t depth(const fc_src_t *s) { return cs_depth(&s->cs); }
static const cs_frame_t *top(const fc_src_t *s) { return cs_top(&s->cs); }

/* closes every frame; lost: the flow broke (else the trace ended) */
static void close_all(fc_t *f, unsigned src, fc_src_t *s, bool lost) {
    cs_clear(&s->cs);
    s->need_root = true;
    s->call = false;
    s->ret = false;
    s->xret = false;
    if (lost && f->h.lost) f->h.lost(f->h.ctx, src);
}

static bool push(fc_t *f, unsigned src, fc_src_t *s, size_t func, long caller, bool trap, uint64_t k) {
    if (depth(s) >= FC_MAX_DEPTH || !cs_push(&s->cs, (uint32_t)func, 0, 0, trap)) {
        /* runaway recursion or no memory: start over */
        if (depth(s) < FC_MAX_DEPTH) f->oom = true;
        f->lost++;
        close_all(f, src, s, true);
        return false;
    }
    if (f->h.enter) f->h.enter(f->h.ctx, src, func, caller, trap, k);
    return true;
}

/* the pending THREAD_SWITCH: the stack of the thread switched out is parked (its frames
 * stop: the exit hook now, without closing them) and the other's resumes (the enter hook
 * now, not a call) */
static void thread_switch(fc_t *f, unsigned src, fc_src_t *s) {
    uint64_t id = s->switch_id;
    s->switch_pending = false;
    if (!s->named) { /* the first switch names the running thread */
        s->named = true;
        if (!cs_name(&s->cs, id)) return;
    }
    if (cs_thread_id(&s->cs) == id) return;
    f->switches++;
    for (size_t i = depth(s); i > 0; i--)
        if (f->h.exit) f->h.exit(f->h.ctx, src, cs_at(&s->cs, i - 1)->func, s->k);
    if (cs_switch(&s->cs, id)) {
        f->oom = true;
        return;
    }
    for (size_t i = 0; i < depth(s); i++)
        if (f->h.enter) f->h.enter(f->h.ctx, src, cs_at(&s->cs, i)->func, -2, false, s->k);
    s->need_root = !depth(s);
    s->ret = false;
}

/* the instruction writes x4 (tp) */
static bool writes_tp(uint32_t raw, unsigned size) {
    if (size == 4) {
        unsigned op = raw & 0x7f, rd = raw >> 7 & 31;
        if (rd != 4) return false;
        return op == 0x37 || op == 0x17 || op == 0x6f || op == 0x67 || op == 0x03 || op == 0x13 || op == 0x33 ||
               (op == 0x73 && (raw >> 12 & 7)) || op == 0x2f;
    }
    unsigned op = raw & 3, f3 = raw >> 13 & 7, rd = raw >> 7 & 31, rs2 = raw >> 2 & 31;
    if (rd != 4) return false;
    if (op == 1) return f3 == 0 || f3 == 2 || f3 == 3;          /* c.addi, c.li, c.lui */
    if (op == 2) return f3 == 0 || f3 == 2 || (f3 == 4 && rs2); /* c.slli, c.lwsp, c.mv/c.add */
    return false;
}

/* the flow got to pc (function fn), k0 instructions walked: the instruction there retires
 * next, or a trap preempts it (an ecall, or an interrupt after the instruction before it).
 * Either way what the instruction before did takes effect here: a return lands, a call opens
 * its callee's frame, a jump to another function's first instruction is a tail call. */
static void arrive(fc_t *f, unsigned src, fc_src_t *s, size_t fn, uint64_t pc, uint64_t k0) {
    if (s->ret) { /* a return landed here: in a function below the top of
                                           the stack, the frames above it were left (longjmp) */
        s->ret = false;
        const cs_frame_t *t = top(s);
        if (t && t->func != fn) {
            uint64_t k = s->k;
            s->k = k0; /* they close at the return */
            f->repairs += cs_unwind_to(&s->cs, (uint32_t)fn) ? 1 : 0;
            s->k = k;
        }
    }
    if (s->call) {
        s->call = false;
        push(f, src, s, fn, s->caller, false, k0);
    } else if (s->need_root) {
        s->need_root = false;
        push(f, src, s, fn, -1, false, k0);
    } else if (fn != s->last_func && !s->xret && depth(s) && s->sym && pc == s->sym->addr) {
        /* a jump (or a fall) to another function's first instruction: a tail call, which
         * replaces the frame (a trap frame stays one, its xRET still closes it). Not after an
         * xRET: it returns to the instruction its trap preempted (a callee's first one when
         * the trap came right after the call: its frame is open below the trap's). */
        bool trap = top(s)->trap;
        cs_pop(&s->cs, CS_TAIL);
        push(f, src, s, fn, (long)s->last_func, trap, k0);
    }
    s->need_root = false;
    s->last_func = fn;
}

static void on_insn(void *vf, const pf_insn_t *i) {
    fc_t *f = vf;
    fc_src_t *s = get_src(f, i->src);
    if (!s) return;
    unsigned src = i->src % NXD_MAX_SRC;
    size_t fn = func_of(f, s, i->pc);
    uint64_t k0 = s->k;            /* the instruction before this one */
    if (i->cr & PF_CR_EXCEPTION) { /* an ecall: it traps, it does not retire (not counted) */
        arrive(f, src, s, fn, i->pc, k0);
        return;
    }
    if (i->cr & PF_CR_INTERRUPT) { /* the handler's first instruction */
        /* where the trap came from: done at its EXCEPTION element, when the trace told where
         * the flow had got to; when not, a pending call's callee is not known */
        s->call = false;
        s->ret = false;
        push(f, src, s, fn, s->need_root ? -1 : (long)s->last_func, true, k0);
    } else
        arrive(f, src, s, fn, i->pc, k0);
    s->need_root = false;
    s->xret = false;
    s->k++;
    s->last_func = fn;
    f->insn_pc = i->pc;
    if (f->h.insn) f->h.insn(f->h.ctx, src, fn, s->k);
    if (i->cr & (PF_CR_RETURN | PF_CR_SWAP)) {
        if (depth(s) && !top(s)->trap) cs_pop(&s->cs, CS_RETURN);
        if (!depth(s)) s->need_root = !(i->cr & PF_CR_SWAP);
        s->ret = (i->cr & PF_CR_RETURN) && !(i->cr & PF_CR_SWAP);
    }
    if (i->cr & PF_CR_XRET) {
        if (!cs_trap_return(&s->cs)) cs_clear(&s->cs);
        if (!depth(s)) s->need_root = true;
        s->xret = true;
    }
    if (i->cr & (PF_CR_CALL | PF_CR_SWAP)) {
        s->call = true;
        s->caller = (long)fn;
    }
    if (s->switch_pending && writes_tp(i->raw, i->size)) thread_switch(f, src, s);
}

static int on_elem(void *vf, const pf_elem_t *e) {
    fc_t *f = vf;
    fc_src_t *s;
    switch (e->type) {
    case PF_ELEM_NO_SYNC:
    case PF_ELEM_ADDR_NACC:
        if (!(s = get_src(f, e->src))) return 0;
        if (depth(s) || !s->need_root) {
            if (!(e->type == PF_ELEM_NO_SYNC && e->u.nosync.reason == PF_NOSYNC_STOPPED)) f->lost++;
            close_all(f, e->src % NXD_MAX_SRC, s, true);
        }
        break;
    case PF_ELEM_EXCEPTION:
        /* the trap preempts the instruction the flow got to: what the one before it did
         * takes effect there (arrive). An interrupt right after a call: the call retired and
         * the handler returns to the callee's first instruction, so the callee's frame opens
         * now, with none of its instructions run, and the trap frame above it */
        if ((s = get_src(f, e->src)) && e->u.exc.from_ok)
            arrive(f, e->src % NXD_MAX_SRC, s, func_of(f, s, e->u.exc.from), e->u.exc.from, s->k);
        break;
    case PF_ELEM_PE_CONTEXT:
        /* a THREAD_SWITCH (Ownership, format 2: PROCESS = tp << 5 | ...), sent when the write
         * to tp retired: the instructions walked so far came before it, and it takes effect
         * after the next instruction walked that writes tp */
        if ((e->u.ctx.process & 3) != 2 || !(s = get_src(f, e->src))) break;
        if (s->switch_pending) thread_switch(f, e->src % NXD_MAX_SRC, s); /* two in a row */
        s->switch_pending = true;
        s->switch_id = e->u.ctx.context | 1ull << 63; /* 0: the thread before the first switch */
        break;
    case PF_ELEM_TIMESTAMP:
        /* program-trace messages only: an ITC store's message comes before the branch
         * message that reports the instructions up to it */
        if (e->has_time && f->h.timed && f->prog_msg && (s = get_src(f, e->src))) f->h.timed(f->h.ctx, e->src % NXD_MAX_SRC, s->k, e->time);
        break;
    default: break;
    }
    return 0;
}

void fc_init(fc_t *f, const pf_image_t *img, const elf_syms_t *syms, const fc_hooks_t *h) {
    memset(f, 0, sizeof *f);
    f->syms = syms;
    f->h = *h;
    pf_init(&f->pf, img, on_elem, f);
    pf_set_insn_cb(&f->pf, on_insn, f);
}

int fc_msg(void *vf, const nxd_msg_t *m) {
    fc_t *f = vf;
    unsigned t = m->tcode;
    f->prog_msg = nx_tcode_prog(t);
    return pf_from_msg(&f->pf, m);
}

void fc_eot(fc_t *f, uint64_t offset) {
    pf_eot(&f->pf, offset);
    for (unsigned i = 0; i < NXD_MAX_SRC; i++)
        if (f->s[i]) close_all(f, i, f->s[i], false);
    if (f->pf.oom) f->oom = true;
}

void fc_free(fc_t *f) {
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) {
        if (f->s[i]) cs_free(&f->s[i]->cs);
        free(f->s[i]);
        f->s[i] = NULL;
    }
    pf_free(&f->pf);
}
