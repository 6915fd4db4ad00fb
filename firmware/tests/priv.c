/* priv.c - M, S and U modes: every transition (mret/sret to each mode, traps to M and, with
 * medeleg/mideleg, to S), the mstatus stack (MPP, MPIE, SPP, SPIE, MPRV), the supervisor CSR
 * views (sstatus, sie, sip), ecall causes per mode, the privilege checks on CSRs and on
 * mret/sret/wfi/sfence.vma (with TSR, TW, TVM), and the mcounteren/scounteren gates of every
 * user counter. Expected values come from the RISC-V privileged spec. */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "priv_support.h"

/* ---- trap recording ------------------------------------------------------------------ */
static volatile uint32_t m_traps, m_cause, m_epc, m_tval, m_status;
static volatile uint32_t s_traps, s_cause, s_epc, s_tval, s_status;

static uint32_t m_record(uint32_t cause, uint32_t epc, uint32_t tval) {
    m_traps++; m_cause = cause; m_epc = epc; m_tval = tval; m_status = TS_CSR_READ(mstatus);
    return epc + insn_len(epc);
}
static uint32_t s_record(uint32_t cause, uint32_t epc, uint32_t tval) {
    s_traps++; s_cause = cause; s_epc = epc; s_tval = tval; s_status = TS_CSR_READ(sstatus);
    return epc + insn_len(epc);
}
static void clear_rec(void) { m_traps = s_traps = 0; m_cause = s_cause = 0xdead; }

/* ---- functions run in a lower mode ----------------------------------------------------- */
static uint32_t f_ecall(uint32_t a) { __asm__ volatile("ecall" ::: "memory"); return a + 1; }
static uint32_t f_nop(uint32_t a) { return a ^ 0x5a5a; }

#define RD_FN(name, csr) \
    static uint32_t name(uint32_t a) { uint32_t v; (void)a; __asm__ volatile("csrr %0, " #csr : "=r"(v)); return v; }
RD_FN(rd_cycle, 0xc00) RD_FN(rd_time, 0xc01) RD_FN(rd_instret, 0xc02) RD_FN(rd_hpm3, 0xc03)
RD_FN(rd_hpm17, 0xc11) RD_FN(rd_hpm31, 0xc1f) RD_FN(rd_cycleh, 0xc80) RD_FN(rd_timeh, 0xc81)
RD_FN(rd_instreth, 0xc82) RD_FN(rd_hpm3h, 0xc83) RD_FN(rd_hpm31h, 0xc9f)
RD_FN(rd_mstatus, mstatus) RD_FN(rd_mscratch, mscratch) RD_FN(rd_sstatus, sstatus)
RD_FN(rd_sscratch, sscratch) RD_FN(rd_satp, satp) RD_FN(rd_scountovf, 0xda0)
RD_FN(rd_mhpmcounter3, mhpmcounter3) RD_FN(rd_mcounteren, mcounteren) RD_FN(rd_misa, misa)

static const struct { priv_fn_t fn; uint32_t csr; unsigned idx; } counters[] = {
    {rd_cycle, 0xc00, 0}, {rd_time, 0xc01, 1}, {rd_instret, 0xc02, 2}, {rd_hpm3, 0xc03, 3},
    {rd_hpm17, 0xc11, 17}, {rd_hpm31, 0xc1f, 31}, {rd_cycleh, 0xc80, 0}, {rd_timeh, 0xc81, 1},
    {rd_instreth, 0xc82, 2}, {rd_hpm3h, 0xc83, 3}, {rd_hpm31h, 0xc9f, 31},
};

static uint32_t f_mret(uint32_t a) { __asm__ volatile("la t0, 1f\n csrw mepc, t0\n mret\n1:" ::: "t0"); return a; }
static uint32_t f_sret(uint32_t a) { __asm__ volatile("la t0, 1f\n csrw sepc, t0\n sret\n1:" ::: "t0"); return a; }
static uint32_t f_mret_only(uint32_t a) { __asm__ volatile("mret"); return a; }
static uint32_t f_sret_only(uint32_t a) { __asm__ volatile("sret"); return a; }
static uint32_t f_wfi(uint32_t a) { __asm__ volatile("wfi"); return a; }
static uint32_t f_sfence(uint32_t a) { __asm__ volatile("sfence.vma zero, zero"); return a; }
static uint32_t f_write_sscratch(uint32_t a) { __asm__ volatile("csrw sscratch, %0" :: "r"(a)); return 0; }
static uint32_t f_write_satp(uint32_t a) { __asm__ volatile("csrw satp, %0" :: "r"(a)); return 0; }
static uint32_t f_illegal(uint32_t a) { __asm__ volatile(".word 0xffffffff"); return a; }

/* sret from S-mode into U-mode code, which ecalls (the value of SPP decides the mode) */
static uint32_t f_sret_to(uint32_t spp) {
    __asm__ volatile("la t0, 1f\n csrw sepc, t0\n"
                     "li t1, 0x100\n csrc sstatus, t1\n beqz %0, 2f\n csrs sstatus, t1\n"
                     "2: sret\n1: ecall" :: "r"(spp) : "t0", "t1", "memory");
    return 0;
}

/* a caught illegal-instruction trap from a lower mode, with the instruction bits it names */
static void expect_illegal_m(uint32_t mode, priv_fn_t fn, uint32_t insn_mask, uint32_t insn) {
    clear_rec();
    priv_call(mode, fn, 0);
    CHECK_EQ(m_traps, 1);
    CHECK_EQ(m_cause, 2);
    CHECK_EQ(m_tval & insn_mask, insn);
    CHECK_EQ((m_status >> 11) & 3, mode);          /* MPP = the mode it came from */
}
static void expect_ok(uint32_t mode, priv_fn_t fn) {
    clear_rec();
    priv_call(mode, fn, 0);
    CHECK_EQ(m_traps, 0);
    CHECK_EQ(s_traps, 0);
}
#define CSRR_MASK 0xfff0707fu
#define CSRR(csr) (((uint32_t)(csr) << 20) | 0x2073u)

static volatile uint32_t s_irq_hits, m_irq_hits, irq_mode_status;
static uint32_t s_on_ssi(uint32_t cause, uint32_t epc, uint32_t tval) {
    s_irq_hits++; s_cause = cause; s_status = TS_CSR_READ(sstatus);
    TS_CSR_CLEAR(sip, 2);
    return epc;
}
static uint32_t m_on_ssi(uint32_t cause, uint32_t epc, uint32_t tval) {
    m_irq_hits++; m_cause = cause; m_status = TS_CSR_READ(mstatus);
    TS_CSR_CLEAR(mip, 2);
    return epc;
}
static uint32_t f_spin(uint32_t n) { for (volatile uint32_t i = 0; i < n; i++) { } return n; }
static uint32_t f_sie_on_spin(uint32_t n) { TS_CSR_SET(sstatus, 2); f_spin(n); TS_CSR_CLEAR(sstatus, 2); return n; }

int main(void) {
    priv_init();
    for (uint32_t c = 0; c < 16; c++) {
        ts_set_trap_handler(c, m_record);
        s_set_trap_handler(c, s_record);
    }
    unsigned checks = 0;

    /* 1. misa has S and U; reset state: M-mode, nothing delegated */
    CHECK_EQ(TS_CSR_READ(misa), 0x40141105u); /* RV32, A C I M S U */
    CHECK_EQ(TS_CSR_READ(medeleg), 0);
    CHECK_EQ(TS_CSR_READ(mideleg), 0);
    /* WARL masks: medeleg cannot delegate ecall from M (11), mideleg only S-level interrupts
     * and LCOFI, mie/mip */
    TS_CSR_WRITE(medeleg, 0xffffffffu);
    CHECK_EQ(TS_CSR_READ(medeleg), 0xb3ffu);
    TS_CSR_WRITE(mideleg, 0xffffffffu);
    CHECK_EQ(TS_CSR_READ(mideleg), 0x2222u);
    TS_CSR_WRITE(medeleg, 0);
    TS_CSR_WRITE(mideleg, 0);
    checks++;

    /* 2. ecall causes per mode: 8 from U, 9 from S, 11 from M; mret to each mode sets MPP
     * to U and MPIE to 1; the trap stores the old mode in MPP */
    for (uint32_t mode = 0; mode < 4; mode++) {
        if (mode == 2) continue;
        clear_rec();
        CHECK_EQ(priv_call(mode, f_ecall, 41), 42);
        CHECK_EQ(m_traps, 1);
        CHECK_EQ(m_cause, 8 + mode);
        CHECK_EQ((m_status >> 11) & 3, mode);
        CHECK_EQ(m_tval, 0);
    }
    /* after the last mret (back from the handler into M-mode code): MPP = U, MPIE = 1 */
    priv_call(PRIV_S, f_nop, 0);
    CHECK_EQ(TS_CSR_READ(mstatus) & 0x1880u, 0x0080u);
    checks++;

    /* 3. MPRV: cleared by an mret to a mode below M, kept by an mret to M */
    TS_CSR_SET(mstatus, 1u << 17);
    priv_call(PRIV_M, f_nop, 0);
    CHECK_EQ((TS_CSR_READ(mstatus) >> 17) & 1, 1);
    priv_call(PRIV_U, f_nop, 0);
    CHECK_EQ((TS_CSR_READ(mstatus) >> 17) & 1, 0);
    checks++;

    /* 4. privilege of CSRs: M CSRs from S and U, S CSRs from U trap; S CSRs work in S */
    expect_illegal_m(PRIV_S, rd_mstatus, CSRR_MASK, CSRR(0x300));
    expect_illegal_m(PRIV_U, rd_mscratch, CSRR_MASK, CSRR(0x340));
    expect_illegal_m(PRIV_S, rd_mhpmcounter3, CSRR_MASK, CSRR(0xb03));
    expect_illegal_m(PRIV_S, rd_mcounteren, CSRR_MASK, CSRR(0x306));
    expect_illegal_m(PRIV_U, rd_misa, CSRR_MASK, CSRR(0x301));
    expect_illegal_m(PRIV_U, rd_sstatus, CSRR_MASK, CSRR(0x100));
    expect_illegal_m(PRIV_U, rd_sscratch, CSRR_MASK, CSRR(0x140));
    expect_illegal_m(PRIV_U, rd_scountovf, CSRR_MASK, CSRR(0xda0));
    clear_rec();
    priv_call(PRIV_S, f_write_sscratch, 0x1234);
    CHECK_EQ(m_traps, 0);
    CHECK_EQ(priv_call(PRIV_S, rd_sscratch, 0), 0x1234);
    CHECK_EQ(TS_CSR_READ(sscratch), 0x1234);
    /* satp: Bare only (reads 0, writes ignored); from S-mode with TVM it traps */
    priv_call(PRIV_S, f_write_satp, 0x80001234u);
    CHECK_EQ(m_traps, 0);
    CHECK_EQ(priv_call(PRIV_S, rd_satp, 0), 0);
    TS_CSR_SET(mstatus, 1u << 20);
    expect_illegal_m(PRIV_S, rd_satp, CSRR_MASK, CSRR(0x180));
    expect_illegal_m(PRIV_S, f_sfence, 0xffffffffu, 0x12000073u);
    TS_CSR_CLEAR(mstatus, 1u << 20);
    expect_ok(PRIV_S, rd_satp);
    expect_ok(PRIV_S, f_sfence);
    expect_illegal_m(PRIV_U, f_sfence, 0xffffffffu, 0x12000073u);
    checks++;

    /* 5. mret/sret/wfi privilege: mret only in M, sret not in U (nor in S with TSR), wfi not
     * in U (nor in S with TW) */
    expect_illegal_m(PRIV_S, f_mret_only, 0xffffffffu, 0x30200073u);
    expect_illegal_m(PRIV_U, f_mret_only, 0xffffffffu, 0x30200073u);
    expect_illegal_m(PRIV_U, f_sret_only, 0xffffffffu, 0x10200073u);
    expect_illegal_m(PRIV_U, f_wfi, 0xffffffffu, 0x10500073u);
    TS_CSR_SET(mstatus, 1u << 22);                 /* TSR */
    expect_illegal_m(PRIV_S, f_sret_only, 0xffffffffu, 0x10200073u);
    TS_CSR_CLEAR(mstatus, 1u << 22);
    expect_ok(PRIV_S, f_sret);                     /* sret in S-mode is legal */
    TS_CSR_SET(mstatus, 1u << 21);                 /* TW */
    expect_illegal_m(PRIV_S, f_wfi, 0xffffffffu, 0x10500073u);
    TS_CSR_CLEAR(mstatus, 1u << 21);
    /* WFI in S-mode without TW: with an S interrupt pending but masked (delegated, SIE = 0)
     * it does not wait and takes no trap */
    TS_CSR_WRITE(mideleg, 2);
    TS_CSR_SET(mie, 2);
    TS_CSR_SET(mip, 2);
    expect_ok(PRIV_S, f_wfi);
    TS_CSR_CLEAR(mip, 2);
    TS_CSR_CLEAR(mie, 2);
    TS_CSR_WRITE(mideleg, 0);
    /* mret in M-mode (priv_call to M) is legal */
    expect_ok(PRIV_M, f_mret);
    checks++;

    /* 6. sret: SPP selects the mode (an ecall then says which), SIE <- SPIE, SPIE <- 1,
     * SPP <- U; MPRV cleared */
    clear_rec();
    TS_CSR_SET(mstatus, (1u << 17) | (1u << 5));   /* MPRV, SPIE */
    TS_CSR_CLEAR(mstatus, 2);                      /* SIE */
    priv_call(PRIV_M, f_sret_to, 0);               /* sret from M-mode to U */
    CHECK_EQ(m_cause, 8);                          /* the ecall after sret came from U */
    CHECK_EQ(m_status & 0x122u, 0x022u);           /* SIE = old SPIE = 1, SPIE = 1, SPP = U */
    CHECK_EQ((m_status >> 17) & 1, 0);
    TS_CSR_CLEAR(mstatus, 2);
    clear_rec();
    priv_call(PRIV_S, f_sret_to, 1);
    CHECK_EQ(m_cause, 9);                          /* ... came from S */
    checks++;

    /* 7. sstatus is a view of mstatus: SIE, SPIE, SPP, MXR (SUM read-only 0) */
    TS_CSR_WRITE(mie, 0);
    TS_CSR_WRITE(mstatus, 0x007a1988u);   /* TSR, TW, TVM, MXR, MPRV, MPP = M, SPP, MPIE, MIE */
    CHECK_EQ(TS_CSR_READ(mstatus), 0x007a1988u);
    TS_CSR_WRITE(mstatus, 0x00041800u);   /* SUM: read-only 0 (no translation) */
    CHECK_EQ(TS_CSR_READ(mstatus), 0x00001800u);
    TS_CSR_WRITE(mstatus, 0x00001800u);
    TS_CSR_WRITE(sstatus, 0xffffffffu);
    CHECK_EQ(TS_CSR_READ(sstatus), 0x00080122u);
    CHECK_EQ(TS_CSR_READ(mstatus), 0x00081922u);
    TS_CSR_WRITE(sstatus, 0);
    CHECK_EQ(TS_CSR_READ(mstatus), 0x00001800u);
    checks++;

    /* 8. sie/sip are mie/mip masked by mideleg; sip.SSIP writable, STIP/SEIP not */
    TS_CSR_WRITE(mie, 0x2aaa);
    CHECK_EQ(TS_CSR_READ(sie), 0);
    TS_CSR_WRITE(mideleg, 0x2222);
    CHECK_EQ(TS_CSR_READ(sie), 0x2222);
    TS_CSR_WRITE(sie, 0);
    CHECK_EQ(TS_CSR_READ(mie), 0x0888);
    TS_CSR_WRITE(mie, 0);
    TS_CSR_WRITE(sip, 0x2222);
    CHECK_EQ(TS_CSR_READ(mip) & 0x2222, 0x2002);
    TS_CSR_WRITE(mip, 0x0220);                     /* M writes STIP and SEIP */
    CHECK_EQ(TS_CSR_READ(sip), 0x0220);
    TS_CSR_WRITE(mip, 0);
    TS_CSR_WRITE(mideleg, 0);
    CHECK_EQ(TS_CSR_READ(sip), 0);
    checks++;

    /* 9. exception delegation: an illegal instruction from U or S goes to stvec when
     * delegated (scause, sepc, stval, SPP, SPIE <- SIE, SIE <- 0), to M when not; an
     * exception in M-mode never goes to S */
    TS_CSR_WRITE(medeleg, 1u << 2);
    for (uint32_t mode = 0; mode < 2; mode++) {
        clear_rec();
        TS_CSR_SET(mstatus, 2);                    /* SIE = 1 */
        priv_call(mode, f_illegal, 0);
        CHECK_EQ(m_traps, 0);
        CHECK_EQ(s_traps, 1);
        CHECK_EQ(s_cause, 2);
        CHECK_EQ(s_tval, 0xffffffffu);
        CHECK_EQ(s_status & 0x122u, 0x020u | (mode << 8));  /* SPP = mode, SPIE = 1, SIE = 0 */
    }
    clear_rec();
    __asm__ volatile(".word 0xffffffff");
    CHECK_EQ(m_traps, 1);
    CHECK_EQ(s_traps, 0);
    /* ecall from U delegated: to S with scause 8, back to U by sret */
    TS_CSR_WRITE(medeleg, 1u << 8);
    clear_rec();
    CHECK_EQ(priv_call(PRIV_U, f_ecall, 7), 8);
    CHECK_EQ(s_traps, 1);
    CHECK_EQ(s_cause, 8);
    CHECK_EQ(m_traps, 0);
    clear_rec();
    priv_call(PRIV_S, f_ecall, 0);                 /* ecall from S is not delegated */
    CHECK_EQ(m_cause, 9);
    CHECK_EQ(s_traps, 0);
    TS_CSR_WRITE(medeleg, 0);
    TS_CSR_CLEAR(mstatus, 2);
    checks++;

    /* 10. interrupts: SSI not delegated goes to M and is taken in S and U whatever MIE says;
     * delegated it goes to S: taken in U always, in S only with SIE, never in M */
    s_set_trap_handler(0x80000001u, s_on_ssi);
    ts_set_trap_handler(0x80000001u, m_on_ssi);
    TS_CSR_WRITE(mie, 2);
    TS_CSR_CLEAR(mstatus, 8);                      /* MIE = 0 */
    m_irq_hits = s_irq_hits = 0;
    TS_CSR_SET(mip, 2);                            /* pending in M-mode, MIE = 0: waits */
    f_spin(4);
    CHECK_EQ(m_irq_hits, 0);
    priv_call(PRIV_S, f_spin, 4);
    CHECK_EQ(m_irq_hits, 1);
    CHECK_EQ(m_cause, 0x80000001u);
    CHECK_EQ((m_status >> 11) & 3, PRIV_S);
    CHECK_EQ(s_irq_hits, 0);
    TS_CSR_WRITE(mideleg, 2);
    m_irq_hits = s_irq_hits = 0;
    TS_CSR_SET(mstatus, 8);                        /* MIE = 1: still not taken in M */
    TS_CSR_SET(mip, 2);
    f_spin(4);
    CHECK_EQ(m_irq_hits + s_irq_hits, 0);
    TS_CSR_CLEAR(mstatus, 8);
    priv_call(PRIV_S, f_spin, 8);                  /* S-mode, SIE = 0: not taken */
    CHECK_EQ(s_irq_hits, 0);
    priv_call(PRIV_S, f_sie_on_spin, 8);           /* SIE = 1: taken */
    CHECK_EQ(s_irq_hits, 1);
    CHECK_EQ(s_cause, 0x80000001u);
    CHECK_EQ(s_status & 0x122u, 0x120u);           /* from S, SPIE = 1, SIE = 0 */
    TS_CSR_SET(mip, 2);
    priv_call(PRIV_U, f_spin, 8);                  /* U-mode: taken with SIE = 0 */
    CHECK_EQ(s_irq_hits, 2);
    CHECK_EQ(s_status & 0x122u, 0x000u);
    CHECK_EQ(m_irq_hits, 0);
    TS_CSR_WRITE(mie, 0);
    TS_CSR_WRITE(mideleg, 0);
    checks++;

    /* 11. counter gates: from S-mode the mcounteren bit, from U-mode also the scounteren bit;
     * otherwise an illegal instruction naming the CSR */
    unsigned nc = sizeof counters / sizeof counters[0];
    for (unsigned i = 0; i < nc; i++) {
        uint32_t bit = 1u << counters[i].idx;
        TS_CSR_WRITE(mcounteren, ~bit);
        TS_CSR_WRITE(scounteren, 0xffffffffu);
        expect_illegal_m(PRIV_S, counters[i].fn, CSRR_MASK, CSRR(counters[i].csr));
        expect_illegal_m(PRIV_U, counters[i].fn, CSRR_MASK, CSRR(counters[i].csr));
        TS_CSR_WRITE(mcounteren, bit);
        TS_CSR_WRITE(scounteren, ~bit);
        expect_ok(PRIV_S, counters[i].fn);
        expect_illegal_m(PRIV_U, counters[i].fn, CSRR_MASK, CSRR(counters[i].csr));
        TS_CSR_WRITE(scounteren, bit);
        expect_ok(PRIV_U, counters[i].fn);
        expect_ok(PRIV_M, counters[i].fn);
        TS_CSR_WRITE(mcounteren, 0);
        TS_CSR_WRITE(scounteren, 0);
        expect_ok(PRIV_M, counters[i].fn);         /* M-mode is never gated */
    }
    /* the values read in a lower mode are the counters' */
    TS_CSR_WRITE(mcounteren, 0xffffffffu);
    TS_CSR_WRITE(scounteren, 0xffffffffu);
    TS_CSR_WRITE(mhpmcounter17, 0x12345);
    CHECK_EQ(priv_call(PRIV_U, rd_hpm17, 0), 0x12345);   /* mhpmevent17 = 0: does not count */
    TS_CSR_WRITE(mcounteren, 0);
    TS_CSR_WRITE(scounteren, 0);
    checks++;

    printf("priv: all %u groups of checks passed\n", checks);
    return 0;
}
