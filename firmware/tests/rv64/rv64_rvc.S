/* rv64_rvc.S - RV64C: C.LD, C.SD, C.LDSP, C.SDSP, C.ADDIW, C.ADDW, C.SUBW, 6-bit shift
 * amounts of C.SLLI/C.SRLI/C.SRAI, and the RV32C/RV64C forms shared by both (C.LI, C.ADDI,
 * C.MV, C.ADD) on 64-bit values. Expected values by hand. (C.JAL does not exist on RV64; its
 * encoding is C.ADDIW, whose reserved rd = x0 form rv64_priv.S checks traps.) */
#include "rv64_macros.inc"
    .data
    .balign 8
cbuf: .dword 0x1122334455667788, 0x99aabbccddeeff00
    .text
TEST_BEGIN
    .option push
    .option rvc
    la x8, cbuf
    c.ld x9, 0(x8)
    CHECK(1, x9, 0x1122334455667788)
    c.ld x9, 8(x8)
    CHECK(2, x9, 0x99aabbccddeeff00)
    li x10, 0x0123456789abcdef
    c.sd x10, 8(x8)
    ld x3, 8(x8)
    CHECK(3, x3, 0x0123456789abcdef)
    addi sp, sp, -512
    li x11, 0xfedcba9876543210
    c.sdsp x11, 504(sp)
    c.ldsp x12, 504(sp)
    CHECK(4, x12, 0xfedcba9876543210)
    c.sdsp x11, 0(sp)
    ld x3, 0(sp)
    CHECK(5, x3, 0xfedcba9876543210)
    addi sp, sp, 512
    /* C.ADDIW: the W addition, sign-extended; with 0 it is sext.w */
    li x8, 0x000000007fffffff
    c.addiw x8, 1
    CHECK(10, x8, 0xffffffff80000000)
    li x8, 0x7fffffff00000000
    c.addiw x8, -1
    CHECK(11, x8, 0xffffffffffffffff)
    li x8, 0x12345678ffffffff
    c.addiw x8, 0
    CHECK(12, x8, 0xffffffffffffffff)
    /* C.ADDW, C.SUBW */
    li x8, 0x000000007fffffff
    li x9, 1
    c.addw x8, x9
    CHECK(13, x8, 0xffffffff80000000)
    li x8, 0x1000000000000000
    li x9, 1
    c.subw x8, x9
    CHECK(14, x8, 0xffffffffffffffff)
    li x8, 0xffffffff80000000
    li x9, 1
    c.subw x8, x9
    CHECK(15, x8, 0x000000007fffffff)
    /* shift amounts 32..63 */
    li x8, 1
    c.slli x8, 40
    CHECK(20, x8, 0x0000010000000000)
    li x8, 0x8000000000000000
    c.srli x8, 33
    CHECK(21, x8, 0x0000000040000000)
    li x8, 0x8000000000000000
    c.srai x8, 63
    CHECK(22, x8, 0xffffffffffffffff)
    li x9, 0x8000000000000000
    c.srai x9, 32
    CHECK(23, x9, 0xffffffff80000000)
    /* shared forms on 64-bit values */
    c.li x10, -1
    CHECK(30, x10, 0xffffffffffffffff)
    li x10, 0x00000000ffffffff
    c.addi x10, 1
    CHECK(31, x10, 0x0000000100000000)
    li x11, 0x0000000100000000
    c.add x10, x11
    CHECK(32, x10, 0x0000000200000000)
    c.mv x12, x10
    CHECK(33, x12, 0x0000000200000000)
    .option pop
TEST_PASS
