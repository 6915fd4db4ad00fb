/* rv64_alu.S - RV64I integer computational instructions: the 64-bit forms (64-bit results,
 * 6-bit shift amounts, LUI/AUIPC sign extension, 64-bit compares and branches) and the W
 * forms (ADDIW, SLLIW, SRLIW, SRAIW, ADDW, SUBW, SLLW, SRLW, SRAW: the low 32 bits,
 * sign-extended; the upper halves of the operands ignored). Expected values by hand from
 * the unprivileged spec. */
#include "rv64_macros.inc"
TEST_BEGIN
    /* ADD / SUB: 64-bit wrap-around, carries across bit 32 */
    TEST_RR(1,  add, 0x8000000000000000, 0x7fffffffffffffff, 1)
    TEST_RR(2,  add, 0x0000000100000000, 0x00000000ffffffff, 1)
    TEST_RR(3,  add, 0, 0xffffffffffffffff, 1)
    TEST_RR(4,  sub, 0xffffffffffffffff, 0, 1)
    TEST_RR(5,  sub, 0x00000000ffffffff, 0x0000000100000000, 1)
    TEST_RI(6,  addi, 0xffffffffffffffff, 0, -1)
    TEST_RI(7,  addi, 0x0000000080000000, 0x000000007fffffff, 1)
    /* W forms: sign extension of bit 31, upper operand halves ignored */
    TEST_RR(10, addw, 0xffffffff80000000, 0x000000007fffffff, 1)
    TEST_RR(11, addw, 2, 0x1234567800000001, 0xffffffff00000001)
    TEST_RR(12, subw, 0xffffffffffffffff, 0, 1)
    TEST_RR(13, subw, 0x000000007fffffff, 0xffffffff80000000, 1)
    TEST_RI(14, addiw, 0xffffffff80000000, 0x000000007fffffff, 1)
    TEST_RI(15, addiw, 0xffffffffffffffff, 0x00000000ffffffff, 0)   /* sext.w */
    TEST_RI(16, addiw, 0x000000007fffffff, 0x123456787fffffff, 0)
    TEST_RI(17, addiw, 0xfffffffffffff800, 0, -2048)
    /* 64-bit shifts: amounts 0..63 (the low 6 bits of rs2) */
    TEST_RR(20, sll, 0x8000000000000000, 1, 63)
    TEST_RR(21, sll, 0x0000000100000000, 1, 32)
    TEST_RR(22, sll, 1, 1, 64)                         /* 64 & 63 = 0 */
    TEST_RR(23, sll, 2, 1, 0xffffffffffffffc1)         /* shamt 1 */
    TEST_RR(24, srl, 1, 0x8000000000000000, 63)
    TEST_RR(25, srl, 0x0000000080000000, 0x8000000000000000, 32)
    TEST_RR(26, sra, 0xffffffffffffffff, 0x8000000000000000, 63)
    TEST_RR(27, sra, 0xffffffff80000000, 0x8000000000000000, 32)
    TEST_RR(28, sra, 0x000000007fffffff, 0x7fffffffffffffff, 32)
    TEST_RI(29, slli, 0x8000000000000000, 1, 63)
    TEST_RI(30, slli, 0x0000001000000000, 1, 36)
    TEST_RI(31, srli, 0x0000000000000001, 0x8000000000000000, 63)
    TEST_RI(32, srli, 0x00000000ffffffff, 0xffffffffffffffff, 32)
    TEST_RI(33, srai, 0xffffffff80000000, 0x8000000000000000, 32)
    TEST_RI(34, srai, 0x0000000012345678, 0x1234567800000000, 32)
    /* W shifts: 5-bit amounts on the low word, the result sign-extended */
    TEST_RR(40, sllw, 0xffffffff80000000, 1, 31)
    TEST_RR(41, sllw, 1, 1, 32)                        /* 32 & 31 = 0 */
    TEST_RR(42, sllw, 0, 0x0000000100000000, 0)        /* low word 0 */
    TEST_RR(43, srlw, 1, 0xffffffff80000000, 31)
    TEST_RR(44, srlw, 0xffffffff80000000, 0x0000000080000000, 0)
    TEST_RR(45, srlw, 0x0000000040000000, 0x0000000080000000, 1)
    TEST_RR(46, srlw, 0x0000000007ffffff, 0xffffffffffffffff, 5)
    TEST_RR(47, sraw, 0xfffffffff8000000, 0x0000000080000000, 4)
    TEST_RR(48, sraw, 0x0000000007ffffff, 0x800000007fffffff, 4)
    TEST_RI(49, slliw, 0xffffffff80000000, 1, 31)
    TEST_RI(50, slliw, 0x0000000012345678, 0xabcdef0012345678, 0)
    TEST_RI(51, srliw, 0x000000000fffffff, 0xffffffffffffffff, 4)
    TEST_RI(52, srliw, 0xffffffff80000000, 0x0000000080000000, 0)
    TEST_RI(53, sraiw, 0xfffffffff8000000, 0x0000000080000000, 4)
    TEST_RI(54, sraiw, 0xffffffffffffffff, 0x0000000080000000, 31)
    /* results forwarded at once (EX/MEM) */
    TEST_RR_FWD(55, addw, 0xffffffff80000000, 0x000000007fffffff, 1)
    TEST_RR_FWD(56, sll, 0x0000000100000000, 1, 32)
    /* compares on 64 bits */
    TEST_RR(60, slt,  1, 0x8000000000000000, 0)
    TEST_RR(61, sltu, 0, 0x8000000000000000, 0)
    TEST_RR(62, sltu, 1, 0x00000000ffffffff, 0x0000000100000000)
    TEST_RR(63, slt,  0, 0x0000000100000000, 0x00000000ffffffff)
    TEST_RI(64, sltiu, 1, 0xfffffffffffffffe, -1)
    TEST_RI(65, slti, 1, 0xffffffff00000000, 0)
    /* logic on 64 bits */
    TEST_RR(66, xor, 0xf00ff00ff00ff00f, 0xff00ff00ff00ff00, 0x0f0f0f0f0f0f0f0f)
    TEST_RI(67, xori, 0xedcba98700000000, 0x12345678ffffffff, -1)
    TEST_RI(68, andi, 0x0000000000000700, 0xffffffffff00ff00, 0x70f)
    TEST_RI(69, ori, 0xffffffffffffffff, 0, -1)
    /* LUI / AUIPC: the 32-bit value sign-extended */
    lui x3, 0x80000
    CHECK(70, x3, 0xffffffff80000000)
    lui x3, 0x7ffff
    CHECK(71, x3, 0x000000007ffff000)
1:  auipc x3, 0
    la x4, 1b
    sub x3, x3, x4
    CHECK(72, x3, 0)
2:  auipc x3, 0xfffff          /* pc - 4096 */
    la x4, 2b
    sub x3, x4, x3
    CHECK(73, x3, 0x1000)
    /* branches compare 64 bits */
    li x28, 80
    li x1, 0x0000000100000000
    beqz x1, rv64_fail_jump       /* the low word is 0, the value is not */
    li x2, 0x8000000000000000
    bge x2, x0, rv64_fail_jump    /* negative */
    bltu x2, x1, rv64_fail_jump   /* unsigned: larger */
    li x1, 0x1234567800000000
    li x2, 0x1234567900000000
    beq x1, x2, rv64_fail_jump
    bgeu x1, x2, rv64_fail_jump
    /* JAL / JALR: link values and targets on 64 bits */
    jal x3, 3f
3:  la x4, 3b
    sub x3, x3, x4
    CHECK(81, x3, 0)
    la x1, 4f
5:  jalr x3, 0(x1)
    j rv64_fail_jump
4:  la x4, 5b
    addi x4, x4, 4
    sub x3, x3, x4
    CHECK(82, x3, 0)
TEST_PASS
