/* rv64_muldiv.S - RV64M: MUL and the 128-bit high products MULH/MULHSU/MULHU, DIV/DIVU/REM/REMU
 * on 64 bits (division by zero, the signed overflow -2^63 / -1), and the W forms MULW, DIVW,
 * DIVUW, REMW, REMUW (the low words, the result sign-extended, upper operand halves ignored;
 * DIVUW/REMUW results sign-extended from bit 31 too). Expected values from the M extension's
 * rules, computed by hand (and with a short spec model in Python, not the simulator). */
#include "rv64_macros.inc"
TEST_BEGIN
    TEST_RR(1, mul, 0x0000000000000000, 0x0000000100000000, 0x0000000100000000)
    TEST_RR(2, mul, 0x0000000000000001, 0xffffffffffffffff, 0xffffffffffffffff)
    TEST_RR(3, mulh, 0x4000000000000000, 0x8000000000000000, 0x8000000000000000)
    TEST_RR(4, mulh, 0x0000000000000000, 0xffffffffffffffff, 0xffffffffffffffff)
    TEST_RR(5, mulh, 0x0000000000000000, 0x7fffffffffffffff, 0x0000000000000002)
    TEST_RR(6, mulhu, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff)
    TEST_RR(7, mulhu, 0x0000000000000001, 0x8000000000000000, 0x0000000000000002)
    TEST_RR(8, mulhsu, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff)
    TEST_RR(9, mulhsu, 0x0000000000000001, 0x0000000000000002, 0x8000000000000000)
    TEST_RR(10, mulw, 0xfffffffffffffffe, 0x000000007fffffff, 0x0000000000000002)
    TEST_RR(11, mulw, 0x000000000000000f, 0x0000000100000003, 0x0000000100000005)
    TEST_RR(12, mulw, 0x0000000000000000, 0x0000000000010000, 0x0000000000010000)
    TEST_RR(13, div, 0x8000000000000000, 0x8000000000000000, 0xffffffffffffffff)
    TEST_RR(14, div, 0xffffffffffffffff, 0x000000000000007b, 0x0000000000000000)
    TEST_RR(15, div, 0xc000000000000000, 0x8000000000000000, 0x0000000000000002)
    TEST_RR(16, div, 0xfffffffffffffffd, 0xfffffffffffffff9, 0x0000000000000002)
    TEST_RR(17, divu, 0x4000000000000000, 0x8000000000000000, 0x0000000000000002)
    TEST_RR(18, divu, 0xffffffffffffffff, 0x0000000000000005, 0x0000000000000000)
    TEST_RR(19, rem, 0xffffffffffffffff, 0xfffffffffffffff9, 0x0000000000000002)
    TEST_RR(20, rem, 0x0000000000000000, 0x8000000000000000, 0xffffffffffffffff)
    TEST_RR(21, rem, 0xfffffffffffffffb, 0xfffffffffffffffb, 0x0000000000000000)
    TEST_RR(22, remu, 0x0000000000000005, 0xffffffffffffffff, 0x000000000000000a)
    TEST_RR(23, remu, 0x0000000123456789, 0x0000000123456789, 0x0000000000000000)
    TEST_RR(24, divw, 0xffffffff80000000, 0x0000000080000000, 0xffffffffffffffff)
    TEST_RR(25, divw, 0x0000000000000002, 0x0000000100000006, 0x0000000100000003)
    TEST_RR(26, divw, 0xffffffffffffffff, 0x0000000000000007, 0x0000000000000000)
    TEST_RR(27, divw, 0xfffffffffffffffd, 0xfffffffffffffff9, 0x0000000000000002)
    TEST_RR(28, divuw, 0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000001)
    TEST_RR(29, divuw, 0x0000000040000000, 0x0000000080000000, 0x0000000000000002)
    TEST_RR(30, divuw, 0xffffffffffffffff, 0x0000000000000005, 0x0000000000000000)
    TEST_RR(31, remw, 0xffffffffffffffff, 0xfffffffffffffff9, 0x0000000000000002)
    TEST_RR(32, remw, 0x0000000000000000, 0x0000000080000000, 0xffffffffffffffff)
    TEST_RR(33, remw, 0xffffffff80000000, 0x0000000180000000, 0x0000000000000000)
    TEST_RR(34, remuw, 0x0000000000000005, 0x00000000ffffffff, 0x000000000000000a)
    TEST_RR(35, remuw, 0xffffffff80000000, 0x0000000080000000, 0x0000000000000000)
    TEST_RR(36, remuw, 0x0000000000000003, 0x0000000100000007, 0x0000000100000004)
    /* a divide whose result is used at once, and back-to-back divides */
    TEST_RR_FWD(40, divw, 0xfffffffffffffffd, 0xfffffffffffffff9, 0x0000000000000002)
    li x1, 1000000000000
    li x2, 1000
    div x3, x1, x2
    divu x4, x3, x2
    CHECK(41, x4, 1000000)
TEST_PASS
