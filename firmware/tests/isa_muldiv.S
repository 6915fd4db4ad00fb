/* isa_muldiv.S - M extension: products (all four halves), division and remainder with the
 * spec's special cases (division by zero, signed overflow). */
#include "isa_macros.h"
TEST_BEGIN
    TEST_RR(1,  mul,    0x00000000, 0x00000000, 0x12345678)
    TEST_RR(2,  mul,    0x00001200, 0x00007e00, 0xb6db6db7)
    TEST_RR(3,  mul,    0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR(4,  mul,    0x80000000, 0x80000000, 0xffffffff)
    TEST_RR(5,  mulh,   0x00000000, 0xffffffff, 0xffffffff)   /* (-1)*(-1) = 1 */
    TEST_RR(6,  mulh,   0xffffffff, 0xffffffff, 0x00000001)   /* -1 */
    TEST_RR(7,  mulh,   0x40000000, 0x80000000, 0x80000000)   /* 2^62 */
    TEST_RR(8,  mulhu,  0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR(9,  mulhu,  0x40000000, 0x80000000, 0x80000000)
    TEST_RR(10, mulhu,  0x00000000, 0x00010000, 0x0000ffff)
    TEST_RR(11, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff)   /* -1 * (2^32-1) */
    TEST_RR(12, mulhsu, 0xc0000000, 0x80000000, 0x80000000)   /* -2^31 * 2^31 = -2^62 */
    TEST_RR(13, mulhsu, 0x00000000, 0x00000001, 0xffffffff)
    TEST_RR(14, mulh,   0x00000000, 0x00000002, 0x40000000)
    /* division */
    TEST_RR(20, div,  3,          20, 6)
    TEST_RR(21, div,  0xfffffffd, -20, 6)       /* rounds toward zero */
    TEST_RR(22, div,  0xfffffffd, 20, -6)
    TEST_RR(23, div,  3,          -20, -6)
    TEST_RR(24, divu, 0x2aaaaaa7, -20, 6)
    TEST_RR(25, rem,  2,          20, 6)
    TEST_RR(26, rem,  0xfffffffe, -20, 6)       /* sign of the dividend */
    TEST_RR(27, rem,  2,          20, -6)
    TEST_RR(28, rem,  0xfffffffe, -20, -6)
    TEST_RR(29, remu, 2,          -20, 6)       /* 4294967276 mod 6 = 2 */
    TEST_RR(30, divu, 0,          5, 0xffffffff)
    TEST_RR(31, divu, 1,          0xffffffff, 0xffffffff)
    TEST_RR(32, div,  0x80000000, 0x80000000, 1)
    TEST_RR(33, divu, 0x0ccccccc, 0x7fffffff, 10)
    TEST_RR(34, remu, 7,          0x7fffffff, 10)
    /* division by zero: quotient all ones, remainder = dividend */
    TEST_RR(40, div,  0xffffffff, 12345, 0)
    TEST_RR(41, divu, 0xffffffff, 12345, 0)
    TEST_RR(42, rem,  12345,      12345, 0)
    TEST_RR(43, remu, 0x80000000, 0x80000000, 0)
    TEST_RR(44, rem,  0xffffffff, -1, 0)
    TEST_RR(45, div,  0xffffffff, 0, 0)
    /* signed overflow: -2^31 / -1 = -2^31, remainder 0 */
    TEST_RR(50, div,  0x80000000, 0x80000000, 0xffffffff)
    TEST_RR(51, rem,  0,          0x80000000, 0xffffffff)
    /* results used at once (forwarding after the multi-cycle divide) */
    TEST_RR_FWD(60, div, 7, 49, 7)
    TEST_RR_FWD(61, mul, 42, 6, 7)
    TEST_RR_SRC1_EQ_DEST(62, remu, 1, 10, 3)
    /* back-to-back divides, the second depending on the first */
    li x1, 1000
    li x2, 10
    divu x3, x1, x2
    divu x3, x3, x2
    CHECK(63, x3, 10)
    TEST_PASS
