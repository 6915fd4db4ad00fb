/* prof_truth.c - ground truth for profiles, from the simulator's retire log and the ELF
 * (a test helper, independent of the profilers it checks: its own instruction decoding and
 * its own call stack, kept by the stack pointer the retire log reports).
 *
 *   prof_truth ELF RETIRE_LOG [--hart N] [--after CYCLE] [--before CYCLE]
 *              [--keep F1,F2,...] [--drop G1,G2,...] [--threads FILE]
 *
 * For every function (the ELF's function symbols; "(no symbol)" for other code) prints one
 * CSV line: function,address,calls,self_insn,self_cycles,attr_insn,attr_cycles,total_insn,total_cycles
 *  - self_insn, self_cycles: the instructions retired with a pc inside the function, and
 *    their cycles (an instruction's cycles: its retire cycle minus the previous one's);
 *  - calls: link jumps (JAL/JALR/C.JAL/C.JALR writing ra or t0) to its first instruction,
 *    traps whose handler starts there, and an xRET there on a thread with no frame (a new
 *    thread's entry function, started from a made-up trap frame: it opens a frame);
 *  - attr_insn, attr_cycles (with --keep): as a profile from enter/exit records sees them:
 *    a kept function's code counts for it between the return of its enter hook
 *    (__cyg_profile_func_enter) and the call of its exit hook, before and after that (its
 *    prologue and epilogue) for the kept function below it; code of a function not in
 *    --keep (uninstrumented) counts for the nearest kept function below it on the call stack; code under a call of a --drop function (the perf hooks,
 *    whose cycles --compensate removes; what they tail-call included) counts for nobody; code with no kept function on the stack for
 *    nobody either, and so does a trap handler's code taken inside a hook (the trap frame
 *    above a --drop frame) that would count for a function below the hook (its entry up to
 *    the enter hook of the first kept function it calls, its exit after the last one's exit
 *    hook). Without --keep they equal self;
 *  - total_insn: the instructions retired while the function has a frame on the stack (or
 *    is the code running), each counted once however many frames it has (recursion);
 *  - total_cycles: their cycles, but not those of code under a --drop function (the hooks).
 * Threads: every write to tp (x4) that changes it switches to the call stack of the thread
 * with that tp (the first write names the thread running before it); a function's totals
 * count only the instructions of the thread running (a parked stack does not count).
 * --threads FILE writes per thread and function: thread,function,calls,attr_cycles,total_cycles
 * (thread: the tp, 0x... ; "-" before the first write).
 * Only instructions retired after --after and before --before count (the traced window).
 *
 * The call stack: a link jump opens a frame (the callee, the sp at the call); a plain jump
 * to another function's first instruction (a tail call) gives the top frame to the callee
 * (counted as a call); a trap opens a trap frame (on top of the callee's frame when it
 * preempts a call's target: the call retired, the handler returns to the callee); a return (JALR x0 via ra/t0, C.JR ra) closes the top frame, an MRET/SRET the
 * frames up to the newest trap frame. Where a return or a jump lands, the frames control
 * has left without their return close: those whose sp at the call lies below the current sp, and, from
 * the top, a frame whose sp at the call equals the current sp while the pc is outside its
 * function (longjmp restores the sp of setjmp's caller). sp comes from the log's x2 writes. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elf_syms.h"

typedef struct fn {
    uint64_t calls, self_insn, self_cyc, attr_insn, attr_cyc, total_insn, total_cyc, stamp;
    bool keep, drop;
} fn_t;
typedef struct tfn {
    uint64_t calls, attr_cyc, total_cyc, stamp;
} tfn_t;
/* drop: opened by a call to a --drop function; hook: a call of the enter (1) or exit (2)
 * hook; live: between the return of its enter hook and the call of its exit hook (the part of
 * a function its records see) */
typedef struct frame {
    size_t f;
    uint64_t sp;
    bool trap, drop, live;
    unsigned char hook;
} frame_t;

static elf_syms_t syms;
static fn_t *fns; /* syms.n + 1: the last is "(no symbol)" */
static frame_t *st;
static size_t n, cap;
/* threads (tp values): the running one's stack is st/n/cap, the others parked here */
#define MAX_THR 64
static struct thr {
    uint64_t tp;
    bool named;
    frame_t *st;
    size_t n, cap;
    tfn_t *fn;
} thr[MAX_THR];
static size_t nthr = 1, cur_thr;

static void switch_to(uint64_t tp) {
    if (!thr[cur_thr].named) {
        thr[cur_thr].named = true;
        thr[cur_thr].tp = tp;
        return;
    }
    if (thr[cur_thr].tp == tp) return;
    size_t t = 0;
    while (t < nthr && !(thr[t].named && thr[t].tp == tp)) t++;
    if (t == nthr) {
        if (nthr == MAX_THR) {
            fprintf(stderr, "prof_truth: more than %d threads\n", MAX_THR);
            exit(2);
        }
        thr[nthr++] = (struct thr){.tp = tp, .named = true};
    }
    thr[cur_thr].st = st;
    thr[cur_thr].n = n;
    thr[cur_thr].cap = cap;
    st = thr[t].st;
    n = thr[t].n;
    cap = thr[t].cap;
    cur_thr = t;
}

static tfn_t *tfn(size_t f) {
    if (!thr[cur_thr].fn && !(thr[cur_thr].fn = calloc(syms.n + 1, sizeof(tfn_t)))) {
        fprintf(stderr, "prof_truth: out of memory\n");
        exit(2);
    }
    return &thr[cur_thr].fn[f];
}

static size_t func_of(uint64_t pc) {
    const elf_sym_t *s = elf_syms_lookup(&syms, pc);
    return s ? (size_t)(s - syms.s) : syms.n;
}

static bool in_func(size_t f, uint64_t pc) { return func_of(pc) == f; }

static void push(size_t f, uint64_t sp, bool trap) {
    if (n == cap) {
        cap = cap ? 2 * cap : 256;
        st = realloc(st, cap * sizeof *st);
        if (!st) {
            fprintf(stderr, "prof_truth: out of memory\n");
            exit(2);
        }
    }
    unsigned char hook = f < syms.n && !strcmp(syms.s[f].name, "__cyg_profile_func_enter") ? 1 : f < syms.n && !strcmp(syms.s[f].name, "__cyg_profile_func_exit") ? 2 :
                                                                                                                                                                    0;
    if (hook == 2 && n) st[n - 1].live = false; /* its exit hook is called: the rest is the caller's */
    st[n++] = (frame_t){f, sp, trap, fns[f].drop, false, hook};
}

static void mark(const char *list, bool keep) {
    char *dup = strdup(list), *save = NULL;
    for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const elf_sym_t *s = elf_syms_by_name(&syms, t);
        if (!s) {
            fprintf(stderr, "prof_truth: no function '%s'\n", t);
            exit(2);
        }
        if (keep) fns[s - syms.s].keep = true;
        else
            fns[s - syms.s].drop = true;
    }
    free(dup);
}

/* the function the instruction's cost counts for under --keep/--drop, or SIZE_MAX */
static size_t attr_of(size_t f, bool any_keep) {
    if (!any_keep) return f;
    /* the instruction's own function, then the frames from the top */
    /* under a hook's call: nobody's, unless a trap came in since (a handler interrupting a
     * hook is not the hook's cost: its code counts as if the hook were not there) */
    if (fns[f].drop) return SIZE_MAX;
    for (size_t i = n; i > 0 && !st[i - 1].trap; i--)
        if (st[i - 1].drop) return SIZE_MAX;
    if (fns[f].keep && !(n && st[n - 1].f == f)) return f; /* code of f without a frame of its own */
    for (size_t i = n; i > 0; i--)
        if (fns[st[i - 1].f].keep && st[i - 1].live) {
            /* a trap taken inside a hook above that frame: the handler's code (up to its
             * first instrumented function's enter hook, after the last one's exit hook) is
             * neither the hook's cost nor the interrupted function's: nobody's */
            bool drop = false;
            for (size_t j = i; j < n; j++) {
                if (st[j].drop) drop = true;
                else if (st[j].trap && drop)
                    return SIZE_MAX;
            }
            return st[i - 1].f;
        }
    return SIZE_MAX;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: prof_truth ELF RETIRE_LOG [--hart N] [--after C] [--before C] [--keep L] [--drop L]\n");
        return 2;
    }
    char err[256];
    if (elf_syms_load(&syms, argv[1], err, sizeof err)) {
        fprintf(stderr, "prof_truth: %s\n", err);
        return 2;
    }
    fns = calloc(syms.n + 1, sizeof *fns);
    FILE *in = fopen(argv[2], "r");
    if (!fns || !in) {
        fprintf(stderr, "prof_truth: cannot read %s\n", argv[2]);
        return 2;
    }
    int hart = -1;
    uint64_t after = 0, before = UINT64_MAX;
    bool any_keep = false;
    const char *threads_out = NULL;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--hart")) hart = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--after"))
            after = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--before"))
            before = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--keep")) {
            mark(argv[i + 1], true);
            any_keep = true;
        } else if (!strcmp(argv[i], "--drop"))
            mark(argv[i + 1], false);
        else if (!strcmp(argv[i], "--threads"))
            threads_out = argv[i + 1];
        else {
            fprintf(stderr, "prof_truth: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    char line[512];
    uint64_t prev_cyc = 0, sp = 0;
    bool have_prev = false, pending_call = false, pending_trap = false, pending_jump = false, pending_ret = false, pending_xret = false;
    while (fgets(line, sizeof line, in)) {
        char *p = line;
        if (p[0] == 'h') { /* several harts: "hN " first */
            int h = atoi(p + 1);
            p = strchr(p, ' ');
            if (!p) continue;
            p++;
            if (hart >= 0 && h != hart) continue;
        } else if (hart > 0) {
            continue;
        }
        char *e;
        uint64_t cyc = strtoull(p, &e, 10);
        uint64_t pc = strtoull(e, &e, 16);
        while (*e == ' ') e++;
        bool trap = !strncmp(e, "trap", 4);
        size_t f = func_of(pc);
        /* pc: where control got to, the instruction that retires or the one a trap preempts
         * (mepc). A call, jump or return the trap comes right after landed there all the
         * same (the call retired, the handler returns to its callee's first instruction): it
         * takes effect here, the callee's frame under the trap frame. */
        /* the frame this instruction opens (the call or trap before it) */
        if (pending_trap) push(f, sp, true);
        else if (pending_call)
            push(f, sp, false);
        if ((pending_trap || pending_call) && pc == (f < syms.n ? syms.s[f].addr : pc) && cyc > after && cyc < before) {
            fns[f].calls++;
            tfn(f)->calls++;
        }
        /* a plain jump to another function's first instruction: a tail call, the callee
         * takes the caller's frame */
        if (pending_jump && n && f < syms.n && pc == syms.s[f].addr && st[n - 1].f != f && !st[n - 1].trap) {
            st[n - 1].f = f;
            st[n - 1].drop |= fns[f].drop;
            if (cyc > after && cyc < before) {
                fns[f].calls++;
                tfn(f)->calls++;
            }
        }
        /* an xRET to a function's first instruction on a thread with no frame: a new thread
         * starts there (its entry function, from a made-up trap frame) */
        if (pending_xret && !trap && !n && f < syms.n && pc == syms.s[f].addr) {
            push(f, sp, false);
            if (cyc > after && cyc < before) {
                fns[f].calls++;
                tfn(f)->calls++;
            }
        }
        bool landed = pending_ret || pending_jump;
        pending_call = pending_trap = pending_jump = pending_ret = pending_xret = false;
        /* frames left without their return (longjmp), where a return or jump lands */
        while (landed && n && !st[n - 1].trap && st[n - 1].sp && (st[n - 1].sp < sp || (st[n - 1].sp == sp && !in_func(st[n - 1].f, pc))))
            n--;
        if (trap) {
            pending_trap = true;
            continue;
        } /* its handler's first instruction opens the trap frame */
        uint32_t insn = (uint32_t)strtoul(e, &e, 16);
        char *x2 = strstr(e, " x2=");
        if (cyc > after && cyc < before) {
            fns[f].self_insn++;
            uint64_t c = have_prev ? cyc - prev_cyc : 0;
            fns[f].self_cyc += c;
            size_t a = attr_of(f, any_keep);
            if (a != SIZE_MAX) {
                fns[a].attr_insn++;
                fns[a].attr_cyc += c;
                tfn(a)->attr_cyc += c;
            }
            bool dropped = fns[f].drop;
            for (size_t i = 0; i < n && !dropped; i++) dropped = st[i].drop;
            uint64_t tc = dropped ? 0 : c;
            static uint64_t stamp;
            stamp++;
            fns[f].total_insn++;
            fns[f].total_cyc += tc;
            fns[f].stamp = stamp;
            tfn(f)->total_cyc += tc;
            tfn(f)->stamp = stamp;
            for (size_t i = 0; i < n; i++) {
                if (fns[st[i].f].stamp != stamp) {
                    fns[st[i].f].stamp = stamp;
                    fns[st[i].f].total_insn++;
                    fns[st[i].f].total_cyc += tc;
                }
                tfn_t *t = tfn(st[i].f);
                if (t->stamp != stamp) {
                    t->stamp = stamp;
                    t->total_cyc += tc;
                }
            }
        }
        prev_cyc = cyc;
        have_prev = true;
        /* what the instruction does to the stack */
        bool call = false, ret = false, xret = false, jump = false;
        if ((insn & 3) == 3) {
            unsigned op = insn & 0x7f, rd = insn >> 7 & 31, rs1 = insn >> 15 & 31;
            if (op == 0x6f) {
                call = rd == 1 || rd == 5;
                jump = rd == 0;
            } else if (op == 0x67) {
                call = rd == 1 || rd == 5;
                ret = rd == 0 && (rs1 == 1 || rs1 == 5);
                jump = rd == 0 && !ret;
            } else if (insn == 0x30200073 || insn == 0x10200073)
                xret = true;
        } else {
            unsigned op = insn & 3, f3 = insn >> 13 & 7, rs1 = insn >> 7 & 31, rs2 = insn >> 2 & 31;
            if (op == 1 && f3 == 1) call = true; /* c.jal (RV32) */
            else if (op == 1 && f3 == 5)
                jump = true; /* c.j */
            else if (op == 2 && f3 == 4 && rs2 == 0 && rs1) {
                if (insn >> 12 & 1) call = true; /* c.jalr */
                else {
                    ret = rs1 == 1 || rs1 == 5;
                    jump = !ret;
                } /* c.jr */
            }
        }
        if (x2) sp = strtoull(x2 + 4, NULL, 16);
        char *x4 = strstr(e, " x4=");
        if (x4) switch_to(strtoull(x4 + 4, NULL, 16));
        if (ret && n && !st[n - 1].trap) {
            if (st[n - 1].hook == 1 && n > 1) st[n - 2].live = true; /* its enter hook returned */
            n--;
        }
        if (xret) {
            while (n && !st[n - 1].trap) n--;
            if (n) n--;
        }
        pending_call = call;
        pending_jump = jump;
        pending_ret = ret;
        pending_xret = xret;
    }
    fclose(in);
    puts("function,address,calls,self_insn,self_cycles,attr_insn,attr_cycles,total_insn,total_cycles");
    for (size_t i = 0; i <= syms.n; i++) {
        const fn_t *x = &fns[i];
        if (!x->self_insn && !x->calls && !x->attr_insn && !x->total_insn) continue;
        printf("%s,0x%08" PRIx64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
               i < syms.n ? syms.s[i].name : "(no symbol)", i < syms.n ? syms.s[i].addr : 0, x->calls, x->self_insn,
               x->self_cyc, x->attr_insn, x->attr_cyc, x->total_insn, x->total_cyc);
    }
    if (threads_out) {
        FILE *o = fopen(threads_out, "w");
        if (!o) {
            fprintf(stderr, "prof_truth: cannot write %s\n", threads_out);
            return 2;
        }
        fputs("thread,function,calls,attr_cycles,total_cycles\n", o);
        for (size_t t = 0; t < nthr; t++)
            for (size_t i = 0; thr[t].fn && i <= syms.n; i++) {
                const tfn_t *x = &thr[t].fn[i];
                if (!x->calls && !x->attr_cyc && !x->total_cyc) continue;
                if (thr[t].named) fprintf(o, "0x%08" PRIx64 ",", thr[t].tp);
                else
                    fputs("-,", o);
                fprintf(o, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", i < syms.n ? syms.s[i].name : "(no symbol)", x->calls,
                        x->attr_cyc, x->total_cyc);
            }
        if (fclose(o)) return 2;
    }
    for (size_t t = 0; t < nthr; t++) {
        if (t != cur_thr) free(thr[t].st);
        free(thr[t].fn);
    }
    free(st);
    free(fns);
    elf_syms_free(&syms);
    return 0;
}
