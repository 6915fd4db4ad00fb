/* isa_alu.S - RV32I integer computational instructions (register and immediate forms). */
#include "isa_macros.h"
TEST_BEGIN
    /* ADD / SUB: wrap-around, signs */
    TEST_RR(1,  add, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(2,  add, 0x00000002, 0x00000001, 0x00000001)
    TEST_RR(3,  add, 0x80000000, 0x7fffffff, 0x00000001)
    TEST_RR(4,  add, 0x00000000, 0xffffffff, 0x00000001)
    TEST_RR(5,  add, 0x7fffffff, 0x80000000, 0xffffffff)
    TEST_RR(6,  sub, 0xffffffff, 0x00000000, 0x00000001)
    TEST_RR(7,  sub, 0x7fffffff, 0x80000000, 0x00000001)
    TEST_RR(8,  sub, 0x00000000, 0x12345678, 0x12345678)
    TEST_RI(9,  addi, 0x000007ff, 0x00000000, 0x7ff)
    TEST_RI(10, addi, 0xfffff800, 0x00000000, -2048)
    TEST_RI(11, addi, 0x80000000, 0x7fffffff, 1)
    TEST_RI(12, addi, 0xfffffffe, 0xffffffff, -1)
    /* SLT / SLTU: signed vs unsigned */
    TEST_RR(13, slt,  1, 0xffffffff, 0x00000001)
    TEST_RR(14, sltu, 0, 0xffffffff, 0x00000001)
    TEST_RR(15, slt,  0, 0x7fffffff, 0x80000000)
    TEST_RR(16, sltu, 1, 0x7fffffff, 0x80000000)
    TEST_RR(17, slt,  0, 5, 5)
    TEST_RI(18, slti,  1, 0x80000000, 0)
    TEST_RI(19, sltiu, 1, 0x00000000, -1)   /* immediate sign-extended, then unsigned */
    TEST_RI(20, sltiu, 0, 0xffffffff, -1)
    TEST_RI(21, slti,  0, 0x00000000, -1)
    /* logic */
    TEST_RR(22, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(23, or,  0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(24, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
    TEST_RI(25, xori, 0xff00f00f, 0x00ff0f00, -241)     /* -241 = 0xffffff0f */
    TEST_RI(26, ori,  0xff00ff0f, 0xff00ff00, 0x00f)
    TEST_RI(27, andi, 0x00000700, 0xff00ff00, 0x70f)
    /* shifts, including by 0 and 31, and shift amounts taken from the low 5 bits */
    TEST_RR(28, sll, 0x80000000, 0x00000001, 31)
    TEST_RR(29, sll, 0x00000001, 0x00000001, 32)        /* 32 & 31 = 0 */
    TEST_RR(30, sll, 0x42424242, 0x21212121, 0xffffffe1) /* shamt 1 */
    TEST_RR(31, srl, 0x00000001, 0x80000000, 31)
    TEST_RR(32, srl, 0x01ffffff, 0xffffffff, 7)
    TEST_RR(33, sra, 0xffffffff, 0x80000000, 31)
    TEST_RR(34, sra, 0xff000000, 0x80000000, 7)
    TEST_RR(35, sra, 0x00ffffff, 0x7fffffff, 7)
    TEST_RI(36, slli, 0x80000000, 0x00000001, 31)
    TEST_RI(37, srli, 0x00000001, 0x80000000, 31)
    TEST_RI(38, srai, 0xffffffff, 0x80000000, 31)
    TEST_RI(39, srai, 0x81818181, 0x81818181, 0)
    /* LUI / AUIPC */
    lui x3, 0xfffff
    CHECK(40, x3, 0xfffff000)
    lui x3, 0x80000
    srai x3, x3, 12
    CHECK(41, x3, 0xfff80000)
1:  auipc x3, 0
    la x4, 1b
    sub x3, x3, x4
    CHECK(42, x3, 0)
2:  auipc x3, 0x1
    la x4, 2b
    sub x3, x3, x4
    CHECK(43, x3, 0x1000)
    /* x0 stays zero */
    li x1, 123
    add x0, x1, x1
    CHECK(44, x0, 0)
    /* forwarding: MEM->EX and WB->EX, same register as source and destination */
    TEST_RR_FWD(45, add, 0x00000003, 1, 2)
    TEST_RR_SRC1_EQ_DEST(46, sub, 0x00000005, 12, 7)
    li x1, 1
    addi x1, x1, 1
    addi x1, x1, 1
    addi x1, x1, 1
    addi x1, x1, 1
    CHECK(47, x1, 5)
    li x1, 10
    li x2, 20
    nop
    add x3, x1, x2          /* x1 from WB/regfile, x2 from WB */
    CHECK(48, x3, 30)
    TEST_PASS
