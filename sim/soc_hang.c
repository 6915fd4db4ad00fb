/* soc_hang.c - the SoC's hang detection probe (soc.h's soc_hang_*; the detector's state and
 * what a hang is: hang.h). Cold code: runs only during a probe. */
#include "soc.h"
#include "hang.h"
#include "ts_text.h"
#include "ev_bits.h"
#include "elf_syms.h"
#include <inttypes.h>
#include <string.h>

/* bits of mie/mip: MSI 3, MTI 7, LCOFI 13 */
#define IRQ_MTI (1u << 7)
#define IRQ_LCOFI (1u << 13)

/* jal, jalr, branches; c.jal (RV32 only: C.ADDIW on RV64), c.j, c.beqz, c.bnez, c.jr, c.jalr */
static bool is_jump(uint32_t insn, bool rv64) {
    if ((insn & 3) == 3) {
        uint32_t op = insn & 0x7F;
        return op == 0x6F || op == 0x67 || op == 0x63;
    }
    unsigned q = insn & 3, f3 = (insn >> 13) & 7;
    if (q == 1) return (f3 == 1 && !rv64) || f3 == 5 || f3 == 6 || f3 == 7;
    if (q == 2) return f3 == 4 && ((insn >> 2) & 0x1F) == 0 && ((insn >> 7) & 0x1F) != 0;
    return false;
}

/* a programmable counter that counts in the current mode with its OF bit clear: it may
 * overflow and raise the local counter overflow interrupt */
static bool lcof_possible(const hpm_t *m) {
    uint32_t c = m->active & ~m->ofl & ~m->inh[m->priv & 3] & ~7u;
    for (; c; c &= c - 1)
        if (m->sel[__builtin_ctz(c)]) return true;
    return false;
}

/* Can an interrupt end what hart i does? wfi: one pending in mie wakes it (whatever the
 * global enables); a jump loop: one must be taken (the core's rule, rtl_model/core/ts_core.sv:
 * delegated ones in U-mode, or in S-mode with SIE; the others below M-mode, or in M-mode with
 * MIE). Only the timer and the counter overflow can become pending without a store or a
 * CSR write. */
static bool can_be_woken(const soc_t *s, unsigned i, bool wfi) {
    const soc_hart_t *h = &s->h[i];
    const vcore_ports_t *p = h->p;
    uint32_t mie = *p->mie & 0x3FFF, deleg = *p->mideleg & 0x3FFF;
    unsigned priv = *p->priv & 3;
    bool gmie = *p->mstatus_mie & 1, gsie = *p->mstatus_sie & 1;
    uint32_t may = 0;
    if (s->clint.mtimecmp[i] != ~0ull) may |= IRQ_MTI;
    if (lcof_possible(&h->hpm)) may |= IRQ_LCOFI;
    may &= mie;
    if (wfi) return may != 0;
    bool m_level = (may & ~deleg) && (priv != 3 || gmie);
    bool s_level = (may & deleg) && (priv == 0 || (priv == 1 && gsie));
    return m_level || s_level;
}

static void probe_stop(soc_t *s) { s->hang.probing = false; }

void soc_hang_begin(soc_t *s) {
    if (s->stop != SOC_RUNNING) return;
    s->hang.probing = true;
    s->hang.probe_end = s->cycle + s->hang.window;
    memset(s->hang.h, 0, sizeof s->hang.h);
    soc_hang_observe(s);
}

void soc_hang_observe(soc_t *s) {
    if (s->stop != SOC_RUNNING) {
        probe_stop(s);
        return;
    }
    bool all_stuck = true;
    for (unsigned i = 0; i < s->n; i++) {
        hang_hart_t *g = &s->hang.h[i];
        const vcore_ports_t *p = s->h[i].p;
        if (*p->rvfi_trap) {
            g->kind = HANG_LIVE;
        } else if (*p->rvfi_valid) {
            uint32_t pc = *p->rvfi_pc;
            if (g->kind == HANG_UNSEEN && is_jump(*p->rvfi_insn, s->xlen == 64)) {
                *g = (hang_hart_t){.kind = HANG_JUMP, .count = 1, .pc = pc, .since = s->cycle - 1};
                if (can_be_woken(s, i, false)) g->kind = HANG_LIVE;
            } else if (g->kind == HANG_JUMP && pc == g->pc) {
                if (g->count < 3) g->count++;
            } else {
                g->kind = HANG_LIVE;
            }
        } else if (*p->ev & EVB_WFI) {
            if (g->kind == HANG_UNSEEN) {
                *g = (hang_hart_t){.kind = HANG_WFI, .pc = *p->rvfi_pc, .since = s->cycle - 1};
                if (can_be_woken(s, i, true)) g->kind = HANG_LIVE;
            } else if (g->kind != HANG_WFI) {
                g->kind = HANG_LIVE;
            }
        }
        if (g->kind == HANG_LIVE) {
            probe_stop(s);
            return;
        }
        if (!(g->kind == HANG_WFI || (g->kind == HANG_JUMP && g->count >= 3))) all_stuck = false;
    }
    if (all_stuck) {
        /* the state the decision rests on, once more for every hart at the same cycle */
        for (unsigned i = 0; i < s->n; i++)
            if (can_be_woken(s, i, s->hang.h[i].kind == HANG_WFI)) {
                probe_stop(s);
                return;
            }
        s->stop = SOC_HANG;
        probe_stop(s);
    } else if (s->cycle >= s->hang.probe_end) {
        soc_hang_begin(s); /* undecided (harts stalled, or a slow loop): watch on afresh */
    }
}

void soc_hang_report(const soc_t *s, const elf_syms_t *syms, FILE *f) {
    for (unsigned i = 0; i < s->n; i++) {
        const hang_hart_t *g = &s->hang.h[i];
        char where[300] = "";
        const elf_sym_t *sym = syms ? elf_syms_lookup(syms, g->pc) : NULL;
        char nb[200];
        if (sym) snprintf(where, sizeof where, " <%s+0x%" PRIx64 ">", ts_text_esc(sym->name, nb, sizeof nb), g->pc - sym->addr);
        fprintf(f, "tracesim: hart %u hangs at 0x%08" PRIx32 "%s: %s since cycle %" PRIu64 "\n", i, g->pc, where,
                g->kind == HANG_WFI ? "waits in wfi with no interrupt that can wake it" : "jump to itself",
                g->since);
    }
}
