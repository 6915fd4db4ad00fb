/* prog_gt.c - prog_flow.csv rows; see prog_gt.h. The instruction classes are decoded here from
 * the RV32IC encodings, independently of the encoder's (rtl_model/trace/te_prog.c). */
#include "prog_gt.h"

static char *put_u64(char *p, uint64_t v) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}
static char *put_hex32(char *p, uint32_t v) {
    *p++ = '0';
    *p++ = 'x';
    for (int sh = 28; sh >= 0; sh -= 4) *p++ = "0123456789abcdef"[(v >> sh) & 15];
    return p;
}

/* formatted by hand, not printf: a row every few instructions while program trace runs */
static void row(FILE *f, uint64_t cycle, unsigned hart, const char *kind, uint32_t last, uint32_t next, uint64_t n) {
    char line[96], *p = line;
    p = put_u64(p, cycle);
    *p++ = ',';
    p = put_u64(p, hart);
    *p++ = ',';
    while (*kind) *p++ = *kind++;
    *p++ = ',';
    p = put_hex32(p, last);
    *p++ = ',';
    p = put_hex32(p, next);
    *p++ = ',';
    p = put_u64(p, n);
    *p++ = '\n';
    fwrite_unlocked(line, 1, (size_t)(p - line), f);
}

static const char *kind_of(uint32_t insn, bool rv64) {
    if ((insn & 3u) == 3u) {
        switch (insn & 0x7Fu) {
        case 0x63: return "branch";
        case 0x6F: return "jump";
        case 0x67: return "indirect";
        case 0x73: return "xret"; /* the only SYSTEM instructions that change the flow */
        default: return "other";
        }
    }
    unsigned q = insn & 3u, f3 = (insn >> 13) & 7u;
    if (q == 1 && (f3 == 6 || f3 == 7)) return "branch";
    if (q == 1 && ((f3 == 1 && !rv64) || f3 == 5)) return "jump"; /* c.jal (RV32) / c.j */
    if (q == 2 && f3 == 4 && ((insn >> 2) & 0x1Fu) == 0 && ((insn >> 7) & 0x1Fu)) return "indirect";
    return "other";
}

static void retire(prog_gt_t *g, FILE *f, unsigned hart, uint64_t cycle, enum prog_gt_phase phase, uint32_t pc,
                   uint32_t insn, uint32_t npc, bool trap) {
    if (phase == PROG_GT_START) {
        row(f, cycle, hart, "start", pc, npc, 0);
        g->last = 0;
        g->n = 0;
        return;
    }
    if (phase == PROG_GT_STOP) {
        row(f, cycle, hart, "stop", g->last, pc, g->n);
        g->n = 0;
        return;
    }
    uint32_t size = (insn & 3u) == 3u ? 4 : 2;
    bool sys_trap = insn == 0x00000073u || insn == 0x00100073u || insn == 0x9002u; /* ecall, ebreak */
    if (trap) {
        if (sys_trap) {
            g->n++;
            g->last = pc;
        }
        row(f, cycle, hart, "trap", g->last, npc, g->n);
        g->n = 0;
        return;
    }
    g->n++;
    g->last = pc;
    if (npc == pc + size) return;
    row(f, cycle, hart, kind_of(insn, g->rv64), pc, npc, g->n);
    g->n = 0;
}

void prog_gt_retire(prog_gt_t *g, FILE *f, unsigned hart, uint64_t cycle, enum prog_gt_phase phase, uint32_t pc,
                    uint32_t insn, uint32_t npc, bool trap, unsigned priv, bool ctx) {
    retire(g, f, hart, cycle, phase, pc, insn, npc, trap);
    if (phase == PROG_GT_START) {
        g->priv = priv;
        if (ctx) row(f, cycle, hart, "priv", priv, priv, 0);
    } else if (phase == PROG_GT_RUN && priv != g->priv) {
        if (ctx) row(f, cycle, hart, "priv", g->priv, priv, 0);
        g->priv = priv;
    }
}
