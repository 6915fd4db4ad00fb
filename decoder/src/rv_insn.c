/* rv_insn.c - RISC-V instruction length and control-flow class (rv_insn.h). */
#include "rv_insn.h"

static int32_t sext(uint32_t v, unsigned bits) {
    uint32_t m = 1u << (bits - 1);
    return (int32_t)((v ^ m) - m);
}

static bool decode16(uint32_t r, bool rv64, rv_insn_t *o) {
    unsigned op = r & 3, f3 = (r >> 13) & 7;
    if (op == 1 && (f3 == 5 || (f3 == 1 && !rv64))) { /* C.J, C.JAL */
        uint32_t imm = ((r >> 12) & 1) << 11 | ((r >> 11) & 1) << 4 | ((r >> 9) & 3) << 8 |
                       ((r >> 8) & 1) << 10 | ((r >> 7) & 1) << 6 | ((r >> 6) & 1) << 7 |
                       ((r >> 3) & 7) << 1 | ((r >> 2) & 1) << 5;
        o->kind = RV_JAL;
        o->rd = f3 == 1 ? 1 : 0;
        o->imm = sext(imm, 12);
    } else if (op == 1 && (f3 == 6 || f3 == 7)) { /* C.BEQZ, C.BNEZ */
        uint32_t imm = ((r >> 12) & 1) << 8 | ((r >> 10) & 3) << 3 | ((r >> 5) & 3) << 6 |
                       ((r >> 3) & 3) << 1 | ((r >> 2) & 1) << 5;
        o->kind = RV_BRANCH;
        o->rs1 = (uint8_t)(8 + ((r >> 7) & 7));
        o->imm = sext(imm, 9);
    } else if (op == 2 && f3 == 4) {
        unsigned rs1 = (r >> 7) & 31, rs2 = (r >> 2) & 31, b12 = (r >> 12) & 1;
        if (rs2 == 0 && rs1 != 0) { /* C.JR, C.JALR */
            o->kind = RV_JALR;
            o->rs1 = (uint8_t)rs1;
            o->rd = b12 ? 1 : 0;
        } else if (b12 && rs1 == 0 && rs2 == 0)
            o->kind = RV_ECALL; /* C.EBREAK */
    }
    return true;
}

bool rv_decode(uint32_t raw, bool rv64, rv_insn_t *o) {
    unsigned len = rv_insn_len(raw & 0xffff);
    o->size = (uint8_t)len;
    o->kind = RV_OTHER;
    o->rd = o->rs1 = 0;
    o->imm = 0;
    if (!len) return false;
    if (len == 2) return decode16(raw & 0xffff, rv64, o);
    if (len != 4) return true;
    unsigned opc = raw & 0x7f, rd = (raw >> 7) & 31, f3 = (raw >> 12) & 7, rs1 = (raw >> 15) & 31;
    switch (opc) {
    case 0x6f: { /* JAL */
        uint32_t imm = ((raw >> 31) & 1) << 20 | ((raw >> 21) & 0x3ff) << 1 | ((raw >> 20) & 1) << 11 |
                       ((raw >> 12) & 0xff) << 12;
        o->kind = RV_JAL;
        o->rd = (uint8_t)rd;
        o->imm = sext(imm, 21);
        break;
    }
    case 0x67: /* JALR */
        if (f3 == 0) {
            o->kind = RV_JALR;
            o->rd = (uint8_t)rd;
            o->rs1 = (uint8_t)rs1;
        }
        break;
    case 0x63: /* BEQ BNE BLT BGE BLTU BGEU */
        if (f3 != 2 && f3 != 3) {
            uint32_t imm = ((raw >> 31) & 1) << 12 | ((raw >> 25) & 0x3f) << 5 | ((raw >> 8) & 0xf) << 1 |
                           ((raw >> 7) & 1) << 11;
            o->kind = RV_BRANCH;
            o->rs1 = (uint8_t)rs1;
            o->imm = sext(imm, 13);
        }
        break;
    case 0x73:
        if (raw == 0x00000073 || raw == 0x00100073) o->kind = RV_ECALL;
        else if (raw == 0x30200073 || raw == 0x10200073 || raw == 0x00200073)
            o->kind = RV_XRET;
        break;
    default: break;
    }
    return true;
}
