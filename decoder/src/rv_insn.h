/* rv_insn.h - our own RISC-V instruction-length and control-flow classification for
 * program-flow reconstruction (prog_flow.h): RV32IMC / RV64GC, no disassembler.
 *
 * Facts used (RISC-V unprivileged ISA, base encodings): the length of an instruction
 * follows from its low bits (xx != 11: 16 bits; bbb != 111: 32 bits; 011111: 48; 0111111:
 * 64; longer encodings are reported as unsupported); JAL / JALR / BRANCH / SYSTEM opcodes and
 * the compressed C.J, C.JAL (RV32 only; C.ADDIW on RV64), C.JR, C.JALR, C.BEQZ, C.BNEZ,
 * C.EBREAK. A call is a jump whose rd is a link register (x1 or x5); a return is a JALR /
 * C.JR whose rs1 is a link register and whose rd is not (RISC-V return-address stack hints,
 * the same rule SiFive's decoder applies). */
#ifndef TS_RV_INSN_H
#define TS_RV_INSN_H
#include <stdbool.h>
#include <stdint.h>

enum rv_kind {
    RV_OTHER,  /* falls through to pc + size */
    RV_BRANCH, /* conditional branch (BEQ..BGEU, C.BEQZ, C.BNEZ), target pc + imm */
    RV_JAL,    /* JAL / C.J / C.JAL: direct jump, target pc + imm */
    RV_JALR,   /* JALR / C.JR / C.JALR: indirect jump */
    RV_ECALL,  /* ECALL / EBREAK / C.EBREAK: a trap */
    RV_XRET,   /* MRET / SRET / URET */
};

typedef struct rv_insn {
    uint8_t size;    /* bytes: 2, 4, 6 or 8 */
    uint8_t kind;    /* enum rv_kind */
    uint8_t rd, rs1; /* for RV_JAL / RV_JALR (link register rules) */
    int32_t imm;     /* branch / jump offset in bytes (RV_BRANCH, RV_JAL) */
} rv_insn_t;

/* length in bytes of the instruction whose first 16-bit parcel is lo (0: longer than 64
 * bits, unsupported) */
static inline unsigned rv_insn_len(uint32_t lo) {
    if ((lo & 3) != 3) return 2;
    if ((lo & 0x1c) != 0x1c) return 4;
    if ((lo & 0x3f) == 0x1f) return 6;
    if ((lo & 0x7f) == 0x3f) return 8;
    return 0;
}

/* classifies raw (the instruction's first 32 bits, little-endian; for a compressed one only
 * the low 16 count); rv64 selects RV64 meanings (C.ADDIW instead of C.JAL). Returns false
 * for an unsupported length. */
bool rv_decode(uint32_t raw, bool rv64, rv_insn_t *out);

static inline bool rv_is_link(unsigned r) { return r == 1 || r == 5; }
#endif
