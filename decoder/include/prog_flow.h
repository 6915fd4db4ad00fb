/* prog_flow.h - program-flow reconstruction: the decoder stage after Nexus messages
 * (nexus_decode.h) that follows the program image from sync addresses through I-CNT and
 * HIST and reports what ran as OpenCSD-style generic elements (instruction ranges,
 * exceptions, context, timestamps, loss of sync, unreadable code, trace on, end of trace),
 * and optionally every retired instruction.
 *
 * Facts: ../shared/spec/trace-hw-facts.md section 4 (message fields 4.4, timestamps 4.5,
 * F-ADDR / U-ADDR XOR, I-CNT in 16-bit units including the reporting instruction, HIST with
 * its stop bit, most recent branch in the LSB, BTM vs HTM 4.6, sync rules and the BTM->HTM
 * switch 4.9; B-TYPE 2/3 as N-Trace's exception/interrupt, 4.4). Where the facts file is
 * silent, the behaviour of SiFive's decoder (dqr 0.18, the public source the facts file cites;
 * behaviour only, no code taken), which the real capture e31_hello_debug.instr.txt.gz
 * records instruction by instruction, decides; the N-Trace specification was not needed:
 *  - counts accumulate per source: a message adds its I-CNT to what is left (which may be
 *    negative after history-only messages), and sets HIST (RCODE 1 / TCODE 28/29/33) or a
 *    taken / not-taken repeat count (RESOURCE FULL RCODE 9 / 8); a conditional branch takes
 *    its outcome from HIST first, then the taken count, then the not-taken count; the walk
 *    of one message goes on while any of them (or I-CNT > 0) remains;
 *  - in HTM a conditional branch met with only I-CNT left waits for the next message (an
 *    I-CNT RESOURCE FULL may come before the history that holds its outcome);
 *  - in BTM a conditional branch is taken exactly when it uses up the I-CNT of a DIRECT
 *    BRANCH (WS) message; an indirect jump continues sequentially if I-CNT remains;
 *  - returns are inferred from a call stack (depth PF_STACK_DEPTH, pushes beyond it are
 *    dropped) built from the calls walked (rd = x1/x5), emptied by every sync-type message
 *    after its I-CNT is walked (as dqr and our encoder do), which also discards what the
 *    walk left of the counts (a negative I-CNT after history-only messages, a branch still
 *    waiting for its outcome): the flow restarts at the sync's address; a popped address is used in HTM
 *    (teInstruction 7 infers returns; in 6 every return has its own message, whose address
 *    then replaces the popped one);
 *  - after a message's counts are used, its address (F-ADDR, or U-ADDR XOR the source's
 *    last address) becomes the next pc; B-TYPE 1..3 on it is an exception / interrupt;
 *  - the trace type starts as BTM and becomes HTM on RESOURCE FULL, TCODE 28/29 or a CDF=1
 *    Correlation (dqr also switches on Ownership; here an Ownership message does not, since
 *    our encoder reports privilege changes in BTM too: rtl_model/trace/te_prog.c); counts that a sync message brings while not synchronised are
 *    dropped; Correlation ends the run until the next sync; an Error message, or a corrupt
 *    message, loses the sync of every source.
 * A source's elements are reported from its first program-trace message (TCODE 3, 4, 9, 11,
 * 12, 27, 28, 29, 33, or an ICT-WS with an address) on, and EO_TRACE only if there was one:
 * an instrumentation-only trace gives no flow elements at all.
 * Bad input never stops the stage: inconsistent counts or flow (an indirect jump with counts
 * left, an unknown next address) give NO_SYNC and decoding resumes at the next sync; code
 * outside the image gives ADDR_NACC and the same. */
#ifndef TS_PROG_FLOW_H
#define TS_PROG_FLOW_H
#include "nexus_decode.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PF_STACK_DEPTH 2048
/* default limit of the I-CNT (16-bit units) and of the taken / not-taken count one message may
 * bring: encoders report their counters when they fill (RESOURCE FULL; 4096 units on the E31),
 * so a larger value is corrupt input, and would make a walk over a loop endless */
#define PF_MAX_COUNT (1u << 20)

/* ---- the program image ------------------------------------------------------------------ */
typedef struct pf_seg {
    uint64_t base, size;
    uint8_t *data;
} pf_seg_t;
typedef struct pf_image {
    pf_seg_t *seg;
    size_t n;
    bool rv64;
    size_t last; /* index of the segment hit last */
} pf_image_t;

/* the executable sections (SHF_ALLOC + SHF_EXECINSTR, with contents) of a RISC-V ELF;
 * 0, or -1 with a one-line reason in err */
int pf_image_load(pf_image_t *img, const char *path, char *err, size_t errlen);
/* an image from memory (tests): one segment, the bytes are copied; 0 or -1 (no memory) */
int pf_image_add(pf_image_t *img, uint64_t base, const void *bytes, size_t len);
void pf_image_free(pf_image_t *img);

/* ---- elements ----------------------------------------------------------------------------- */
enum pf_elem_type {
    PF_ELEM_NO_SYNC,     /* not (or no longer) synchronised: u.nosync.reason */
    PF_ELEM_TRACE_ON,    /* flow starts at a sync: u.on.reason (SYNC code), u.on.addr */
    PF_ELEM_INSTR_RANGE, /* instructions [start, end) ran: u.range */
    PF_ELEM_EXCEPTION,   /* exception / interrupt (B-TYPE 1..3): u.exc */
    PF_ELEM_PE_CONTEXT,  /* Ownership, or ICT Context (CKSRC 13; CKDATA1 as PROCESS): u.ctx */
    PF_ELEM_TIMESTAMP,   /* a message carried a (reconstructed) time: the element's time */
    PF_ELEM_ADDR_NACC,   /* code at u.nacc.addr is not in the image */
    PF_ELEM_EO_TRACE,    /* end of the trace */
};

enum pf_nosync { PF_NOSYNC_START,
                 PF_NOSYNC_STOPPED,
                 PF_NOSYNC_LOST,
                 PF_NOSYNC_BAD_FLOW };

/* type of the last instruction of a range */
enum pf_itype {
    PF_I_OTHER,    /* no control flow (the range ended for another reason) */
    PF_I_BRANCH,   /* direct: conditional branch, JAL/C.J without link */
    PF_I_INDIRECT, /* indirect jump that is neither call nor return */
    PF_I_CALL,     /* JAL/JALR/C.JAL/C.JALR with rd = x1/x5 */
    PF_I_RETURN,   /* JALR/C.JR with rs1 = x1/x5, rd not a link */
    PF_I_TRAP,     /* ECALL / EBREAK */
    PF_I_XRET,     /* MRET / SRET / URET */
};

typedef struct pf_elem {
    enum pf_elem_type type;
    unsigned src;
    uint64_t offset; /* byte offset of the message that produced it */
    bool has_time;
    uint64_t time; /* that message's reconstructed time */
    union {
        struct {
            enum pf_nosync reason;
        } nosync;
        struct {
            unsigned reason, tcode;
            uint64_t addr;
        } on; /* reason: SYNC code (0 for ICT-WS) */
        struct {
            uint64_t start, end; /* end: the address after the last instruction */
            uint64_t n;          /* instructions */
            uint64_t last;       /* address of the last instruction */
            enum pf_itype last_type;
            bool cond;     /* the last one is a conditional branch */
            bool indirect; /* ... an indirect jump (call/return/other) */
            bool taken;    /* the last one changed the flow */
        } range;
        /* addr: the handler; from (from_ok): where the flow had got to, the instruction the
         * trap preempted (an interrupt after a call: the callee's first instruction);
         * unknown after an ecall, or a jump whose target the trap's message would have told */
        struct {
            unsigned b_type;
            uint64_t addr, from;
            bool from_ok;
        } exc;
        struct {
            uint64_t process;
            unsigned prv, v;
            uint64_t context;
        } ctx;
        struct {
            uint64_t addr;
        } nacc;
    } u;
} pf_elem_t;

/* one retired instruction (optional, for listings) */
enum { PF_BR_NONE,
       PF_BR_TAKEN,
       PF_BR_NOT_TAKEN };
enum { PF_CR_CALL = 1,
       PF_CR_RETURN = 2,
       PF_CR_SWAP = 4,
       PF_CR_INTERRUPT = 8,
       PF_CR_EXCEPTION = 16,
       PF_CR_XRET = 32 };
typedef struct pf_insn {
    unsigned src;
    uint64_t pc;
    uint32_t raw;  /* as stored: 16 bits for a compressed one */
    unsigned size; /* bytes */
    unsigned br;   /* PF_BR_* (conditional branches) */
    unsigned cr;   /* PF_CR_* bits */
    bool has_time;
    uint64_t time;
    bool deferred; /* walked under a RESOURCE FULL RCODE 1/8/9 (history or a repeat
                             * count): such a message may be sent after the instruction (when
                             * a run of equal outcomes ends), so its time is no earlier than
                             * the instruction's but not necessarily equal to it */
} pf_insn_t;

typedef int (*pf_elem_cb)(void *ctx, const pf_elem_t *e); /* non-zero: stop */
typedef void (*pf_insn_cb)(void *ctx, const pf_insn_t *i);

struct pf_src;
typedef struct pf {
    const pf_image_t *img;
    pf_elem_cb cb;
    void *ctx;
    pf_insn_cb icb; /* NULL: no per-instruction calls */
    void *ictx;
    struct pf_src *s[NXD_MAX_SRC];
    uint64_t max_count; /* PF_MAX_COUNT unless changed after pf_init */
    bool oom;
    bool prog;             /* some source carried program trace */
    uint64_t instructions; /* retired instructions reconstructed */
    uint64_t ranges, nacc, lost;
} pf_t;

/* img may be empty (then every sync leads to ADDR_NACC) */
void pf_init(pf_t *p, const pf_image_t *img, pf_elem_cb cb, void *ctx);
void pf_set_insn_cb(pf_t *p, pf_insn_cb icb, void *ictx);
/* an nxd_cb: pass the pf_t as the context of nxd_decode */
int pf_from_msg(void *pf, const nxd_msg_t *m);
/* end of the trace: closes open ranges, one EO_TRACE element */
int pf_eot(pf_t *p, uint64_t offset);
void pf_free(pf_t *p);
const char *pf_elem_name(enum pf_elem_type t);
const char *pf_itype_name(enum pf_itype t);
const char *pf_nosync_name(enum pf_nosync r);
#endif
