/* vcore.h - C view of the Verilated SoC top (sim/ts_soc_top.sv).
 *
 * The only C++ in the simulator is vcore.cpp, which owns the Verilated model and hands the
 * C run loop direct pointers to its ports, so a cycle costs two evals and plain loads and
 * stores (no per-cycle function calls into C++ besides vcore_eval). */
#ifndef TS_VCORE_H
#define TS_VCORE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vcore vcore_t;

typedef struct vcore_ports {
    uint8_t *clk, *rst_n;
    uint32_t *hart_id;
    uint32_t *boot_addr;
    const uint32_t *instr_addr;
    uint8_t *instr_rdy, *instr_err;
    uint32_t *instr_rdata;
    const uint8_t *data_req, *data_we, *data_size;
    /* the MEM stage's control word (rtl_model/core/ts_core_pkg.sv ctrl_t, read in place): with
     * a data request, bits 29:24 are the A extension's op code (vcore_data_amo) */
    const uint64_t *mem_ctrl;
    const uint32_t *data_addr, *data_wdata, *data_pc;
    uint8_t *data_rdy, *data_err;
    uint32_t *data_rdata;
    /* the core's XLEN (32 or 64). Addresses and pcs are 32 bits on both (the SoC's physical
     * address space; the RV64 core faults on an address with any of bits 63:32 set). The
     * data ports and the register write value are XLEN wide: data_wdata/data_rdata/
     * rvfi_rd_wdata are their low words, the _hi pointers their high words (RV32: a word the
     * core never reads, and one that reads 0). rf: the register file's words, register i's low
     * word at rf[i << rf_shift] (vcore_x) */
    unsigned xlen, rf_shift;
    const uint32_t *data_wdata_hi, *rvfi_rd_wdata_hi;
    uint32_t *data_rdata_hi;
    uint8_t *irq_timer, *irq_software, *irq_lcof;
    const uint32_t *ev;
    const uint8_t *rvfi_valid, *rvfi_trap, *rvfi_rd;
    const uint32_t *rvfi_pc, *rvfi_insn, *rvfi_cause, *rvfi_rd_wdata;
    const uint32_t *rf; /* the register file x0..x31 (written at WB: after an edge
                                         * it holds the writes of every instruction older than
                                         * the one the retire port shows) */
    uint8_t *stm_tp_en; /* software trace port */
    const uint8_t *stm_enable;
    const uint16_t *stm_id;
    const uint32_t *stm_value;
    /* the core's interrupt enables, straight from its flops (read only by the hang detection,
     * sim/soc_hang.c): privilege mode (0 U, 1 S, 3 M), mstatus.MIE/SIE, mie, mideleg */
    const uint8_t *priv, *mstatus_mie, *mstatus_sie;
    const uint16_t *mie, *mideleg;
    /* the interrupts pending and enabled, mip & mie, as the core computes them from its
     * flops (read by traps.csv's pending cycle, sim/ground_truth_log.h) */
    const uint16_t *irq_pend;
    /* the pipeline's valid bits and pcs, read in place (only while program trace runs): after
     * an edge the pc that follows the instruction the retire port shows is the first valid of
     * MEM, EX, ID, else IF's fetch pc (sim/soc.c retire_npc; rtl_model/core/ts_core.sv) */
    const uint8_t *mem_valid, *ex_valid, *id_valid;
    const uint32_t *mem_pc, *ex_pc, *id_pc, *if_pc;
    /* probes (waves only) */
    uint64_t *probe_cycle, *probe_mcycle, *probe_minstret, *probe_hpm[8], *probe_sink_bytes;
    uint8_t *probe_itc_level, *probe_itc_full, *probe_itc_stall, *probe_te_enable,
        *probe_te_tracing, *probe_te_empty, *probe_te_overflow, *probe_te_tcode,
        *probe_te_msg_len, *probe_sink_nbytes, *probe_sba_write, *probe_sba_conflict,
        *probe_bus_arb, *probe_funnel_take, *probe_funnel_src, *probe_funnel_nbytes, *probe_dumping;
    uint32_t *probe_te_control, *probe_sink_wp;
    uint16_t *probe_te_icnt;
} vcore_ports_t;

/* The data request's A-extension op code: BUS_AMO_VALID (0x20) | funct5 for an LR, SC or AMO;
 * without 0x20 a plain load or store (the low bits then mean nothing; sim/bus.h). Meaningful
 * only while data_req is set: ctrl_t's csr_imm (set by the decoder for an atomic, never for a
 * load or store) and csr_addr[11:7] (its funct5). */
static inline unsigned vcore_data_amo(const vcore_ports_t *p) { return (unsigned)(*p->mem_ctrl >> 24) & 0x3Fu; }

/* register i's low word (RV64: the low 32 bits of the 64-bit register) */
static inline uint32_t vcore_x(const vcore_ports_t *p, unsigned i) { return p->rf[i << p->rf_shift]; }

/* A core model named `name` (its scope in the waveforms: "soc" for hart 0, "hart1", ...);
 * share: NULL, or a model whose Verilated context this one joins (models traced into one
 * waveform file must share a context). Free the sharing models before the one they share. */
vcore_t *vcore_new(vcore_t *share, const char *name);
/* the same for an RV32 (xlen 32) or RV64 (64) core: Vts_soc_top or Vts_soc_top64, both from
 * the same RTL (rtl_model/core/ts_core.sv's XLEN); every other function takes either */
vcore_t *vcore_new_xlen(vcore_t *share, const char *name, unsigned xlen);
void vcore_free(vcore_t *v);
const vcore_ports_t *vcore_ports(vcore_t *v);
void vcore_eval(vcore_t *v);
/* waveforms of the n models v[0..n-1] in one file (v[0] owns it): returns 0 on success; fst
 * selects FST (else VCD); all: every signal, else only those the GTKWave views show (the
 * list is generated from waves/ at build time). dump and close act on v[0]. */
int vcore_waves_open(vcore_t *const *v, unsigned n, const char *path, int fst, int all);
void vcore_waves_dump(vcore_t *v, uint64_t time);
/* returns 0, or -1 with "cannot write PATH: reason" in err (err may be NULL) */
int vcore_waves_close(vcore_t *v, char *err, size_t errlen);
int vcore_has_waves(void);
/* The debugger (sim/gdb/): the core's CSR flops that live in the RTL (not the HPM model's
 * counters), read in place with no side effect: mstatus, misa, medeleg, mideleg, mie, mip,
 * mtvec, mscratch, mepc, mcause, mtval, sstatus, stvec, sscratch, sepc, scause, stval,
 * scounteren, and 0xFFF for the privilege mode. 0, or -1 for another CSR. */
int vcore_csr_peek(vcore_t *v, unsigned csr, uint32_t *val);
/* writes x1..x31 of the register file in place (a debugger's register write) */
void vcore_rf_poke(vcore_t *v, unsigned reg, uint32_t val);

#ifdef __cplusplus
}
#endif
#endif
