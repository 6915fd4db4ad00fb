/* flow_calls.h - function frames from the program flow (prog_flow.h): the consumer of its
 * elements and retired instructions that keeps a call stack per source (hart) and reports
 * frame entries and exits, each instruction's function and the timed points, for the flow
 * profile (analysis/report/flow_profile.h) and the timeline's call slices (tl_flow.h).
 *
 * The rules (no instrumentation, the flow only):
 *  - a function is the ELF symbol holding the pc (one extra function, FC_NO_FUNC's index
 *    fc_nfunc() - 1, for code outside every symbol);
 *  - the frames are decoder/include/callstack.h's model;
 *  - a call (JAL/JALR with rd = x1/x5, pf_insn_t PF_CR_CALL) opens a frame for the function
 *    of the next instruction; a return (PF_CR_RETURN) closes the top frame; a co-routine swap
 *    (PF_CR_SWAP) closes one and opens one;
 *  - a return that lands in a function below the top of the stack (longjmp's final return
 *    into setjmp's caller) closes the frames above that function's topmost frame at the
 *    return (counted in fc_t.repairs);
 *  - a THREAD_SWITCH (an Ownership message of format 2: the software trace port's, run
 *    --stm-thread-switch) parks the running thread's stack and resumes the new thread's
 *    (callstack.h, one stack per thread): the parked frames get the exit hook at the switch
 *    and the resumed ones the enter hook (caller -2, not a call), so that no frame counts
 *    the instructions of another thread; the first switch of a source names the thread
 *    running before it (counted in fc_t.switches);
 *  - an ecall (pf_insn_t PF_CR_EXCEPTION) traps and does not retire: it is not counted;
 *  - an exception or interrupt (an EXCEPTION element; the handler's first instruction has
 *    PF_CR_INTERRUPT) opens a trap frame for the handler; an xRET closes frames up to and
 *    including the newest trap frame;
 *  - the first instruction after a start or a loss of sync opens a root frame (not a call);
 *    a return or xRET with nothing left to close closes the root, and the next instruction
 *    opens a new root (main returning to _start makes _start the root);
 *  - a loss of sync (NO_SYNC), code outside the image and the end of the trace close every
 *    open frame at the last instruction walked.
 * Instructions are counted per source from 1; a frame entered by the call at instruction k
 * and left by the return at instruction x spans the instructions k+1 .. x (x - k of them).
 * A timed point is a program-trace message with a timestamp (a TIMESTAMP element; ITC
 * messages are not: the instructions up to their store are reported later): its time is that
 * of the last instruction its walk reached (the message's event, trace-hw-facts.md 4.5; in
 * HTM a walk that stops at a branch whose outcome comes later makes this an approximation). */
#ifndef TS_FLOW_CALLS_H
#define TS_FLOW_CALLS_H
#include "elf_syms.h"
#include "prog_flow.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FC_MAX_DEPTH (1u << 20) /* deeper stacks: the flow is treated as lost */

typedef struct fc_hooks {
    void *ctx;
    /* a frame of func opens after instruction k (the call; root: the instruction before the
     * frame's first); caller: the function of the call / trapped instruction (root: none, -1) */
    void (*enter)(void *ctx, unsigned src, size_t func, long caller, bool trap, uint64_t k);
    /* the frame of func closes at instruction k (its return, or the last one walked) */
    void (*exit)(void *ctx, unsigned src, size_t func, uint64_t k);
    /* instruction k ran in (the code of) func */
    void (*insn)(void *ctx, unsigned src, size_t func, uint64_t k);
    /* instruction k retired at time (trace timestamp ticks) */
    void (*timed)(void *ctx, unsigned src, uint64_t k, uint64_t time);
    /* the flow broke (every open frame was closed just before) */
    void (*lost)(void *ctx, unsigned src);
} fc_hooks_t;

struct fc_src;
typedef struct fc {
    const elf_syms_t *syms;
    fc_hooks_t h;
    pf_t pf;
    struct fc_src *s[NXD_MAX_SRC];
    bool oom;
    bool prog_msg;     /* the message being walked is a program-trace one */
    uint64_t lost;     /* flow breaks (losses of sync, code outside the image, too deep) */
    uint64_t repairs;  /* returns that landed below the top of the stack (longjmp) */
    uint64_t switches; /* THREAD_SWITCH events that changed the running thread */
    uint64_t insn_pc;  /* the pc of the instruction the insn hook reports (during the call) */
} fc_t;

/* img: the program; syms: its functions (both outlive fc) */
void fc_init(fc_t *f, const pf_image_t *img, const elf_syms_t *syms, const fc_hooks_t *h);
/* an nxd_cb: pass the fc_t */
int fc_msg(void *f, const nxd_msg_t *m);
/* end of the trace: every frame closes */
void fc_eot(fc_t *f, uint64_t offset);
void fc_free(fc_t *f);
size_t fc_nfunc(const fc_t *f);
/* the call stack of src (callstack.h: its threads; th[cur] runs), NULL before its first
 * instruction */
struct cs;
const struct cs *fc_stack(const fc_t *f, unsigned src);
/* the function's name and start address (the no-symbol function: "(no symbol)", 0) */
const char *fc_func_name(const fc_t *f, size_t func);
uint64_t fc_func_addr(const fc_t *f, size_t func);
#endif
