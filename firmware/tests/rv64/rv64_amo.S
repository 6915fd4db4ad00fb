/* rv64_amo.S - the A extension on RV64, one hart: AMO*.D on 64-bit values (carries across
 * bit 32, signed and unsigned MIN/MAX on 64 bits), AMO*.W on RV64 (the old word
 * sign-extended into rd, the other word of the doubleword untouched), LR.D/SC.D (success,
 * no reservation, another address, LR.W then SC.D: the bus's reservation is the LR's address
 * and size, docs/internals.md "Atomics"), and an SC's result used at once. Expected values by
 * hand from the A extension. */
#include "rv64_macros.inc"
    .data
    .balign 8
m:  .dword 0
m2: .dword 0
    .text
#define SETM(v) la x5, m; li x6, v; sd x6, 0(x5)
#define AMO_D(n, inst, old, src, new) \
    SETM(old); li x2, src; inst x3, x2, (x5); CHECK(n, x3, old); ld x4, 0(x5); CHECK(n + 1, x4, new)
TEST_BEGIN
    AMO_D(1,  amoswap.d, 0x0123456789abcdef, 0xfedcba9876543210, 0xfedcba9876543210)
    AMO_D(3,  amoadd.d,  0x00000000ffffffff, 1, 0x0000000100000000)
    AMO_D(5,  amoadd.d,  0xffffffffffffffff, 2, 1)
    AMO_D(7,  amoxor.d,  0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xf0f0f0f0f0f0f0f0)
    AMO_D(9,  amoand.d,  0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0x0f000f000f000f00)
    AMO_D(11, amoor.d,   0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xfff0fff0fff0fff0)
    AMO_D(13, amomin.d,  0xffffffffffffffff, 1, 0xffffffffffffffff)
    AMO_D(15, amomin.d,  0x0000000100000000, 0x00000000ffffffff, 0x00000000ffffffff)
    AMO_D(17, amomax.d,  0x8000000000000000, 0x7fffffffffffffff, 0x7fffffffffffffff)
    AMO_D(19, amominu.d, 0xffffffffffffffff, 1, 1)
    AMO_D(21, amomaxu.d, 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000)
    AMO_D(23, amomaxu.d, 0x00000000ffffffff, 0x0000000100000000, 0x0000000100000000)
    /* .W on RV64: the old word sign-extended; the high word of the doubleword untouched */
    SETM(0x1111111180000000)
    li x2, 1
    amoadd.w x3, x2, (x5)
    CHECK(30, x3, 0xffffffff80000000)
    ld x4, 0(x5)
    CHECK(31, x4, 0x1111111180000001)
    li x2, 0x7fffffff00000001      /* only the low word is the operand */
    amomin.w x3, x2, (x5)
    CHECK(32, x3, 0xffffffff80000001)
    ld x4, 0(x5)
    CHECK(33, x4, 0x1111111180000001)
    li x2, 0x00000000ffffffff      /* -1 as a word: signed min keeps 0x80000001 */
    amominu.w x3, x2, (x5)
    ld x4, 0(x5)
    CHECK(34, x4, 0x1111111180000001)
    addi x7, x5, 4
    amoswap.w x3, x2, (x7)
    CHECK(35, x3, 0x0000000011111111)
    ld x4, 0(x5)
    CHECK(36, x4, 0xffffffff80000001)
    /* LR.D / SC.D */
    SETM(0x0123456789abcdef)
    lr.d x3, (x5)
    CHECK(40, x3, 0x0123456789abcdef)
    li x2, 0xfedcba9876543210
    sc.d x4, x2, (x5)
    CHECK(41, x4, 0)                  /* stored */
    ld x3, 0(x5)
    CHECK(42, x3, 0xfedcba9876543210)
    sc.d x4, x0, (x5)                 /* no reservation: fails, memory unchanged */
    CHECK(43, x4, 1)
    ld x3, 0(x5)
    CHECK(44, x3, 0xfedcba9876543210)
    lr.d x3, (x5)
    la x7, m2
    sc.d x4, x0, (x7)                 /* another address: fails */
    CHECK(45, x4, 1)
    sc.d x4, x0, (x5)                 /* the failed SC cleared the reservation */
    CHECK(46, x4, 1)
    lr.w x3, (x5)                     /* LR.W: the low word, sign-extended */
    CHECK(47, x3, 0x0000000076543210)
    sc.d x4, x0, (x5)                 /* another size: fails */
    CHECK(48, x4, 1)
    addi x7, x5, 4
    lr.w x3, (x7)
    CHECK(49, x3, 0xfffffffffedcba98)
    sc.w x4, x0, (x7)
    CHECK(50, x4, 0)
    ld x3, 0(x5)
    CHECK(51, x3, 0x0000000076543210)
    /* an own store between LR and SC leaves the reservation (docs/internals.md) */
    lr.d x3, (x5)
    li x2, 5
    sd x2, 0(x5)
    li x2, 7
    sc.d x4, x2, (x5)
    addi x4, x4, 100                  /* the SC's result used at once */
    CHECK(52, x4, 100)
    ld x3, 0(x5)
    CHECK(53, x3, 7)
TEST_PASS
