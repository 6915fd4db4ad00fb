/* isa_ldst.S - loads and stores of every size, sign/zero extension, offsets, store-to-load
 * order and load-use. */
#include "isa_macros.h"
TEST_BEGIN
    la x10, buf
    li x1, 0x8badf00d
    sw x1, 0(x10)
    lw x3, 0(x10)
    CHECK(1, x3, 0x8badf00d)
    lb x3, 0(x10)
    CHECK(2, x3, 0x0000000d)
    lb x3, 1(x10)
    CHECK(3, x3, 0xfffffff0)
    lbu x3, 1(x10)
    CHECK(4, x3, 0x000000f0)
    lb x3, 3(x10)
    CHECK(5, x3, 0xffffff8b)
    lbu x3, 3(x10)
    CHECK(6, x3, 0x0000008b)
    lh x3, 0(x10)
    CHECK(7, x3, 0xfffff00d)
    lhu x3, 0(x10)
    CHECK(8, x3, 0x0000f00d)
    lh x3, 2(x10)
    CHECK(9, x3, 0xffff8bad)
    lhu x3, 2(x10)
    CHECK(10, x3, 0x00008bad)
    /* byte and halfword stores leave the other bytes alone (little-endian) */
    li x1, 0x11
    sb x1, 1(x10)
    lw x3, 0(x10)
    CHECK(11, x3, 0x8bad110d)
    li x1, 0x2233
    sh x1, 2(x10)
    lw x3, 0(x10)
    CHECK(12, x3, 0x2233110d)
    li x1, 0xffffff7f       /* only the low byte is stored */
    sb x1, 0(x10)
    lw x3, 0(x10)
    CHECK(13, x3, 0x2233117f)
    /* negative offsets */
    addi x11, x10, 8
    li x1, 0x55aa55aa
    sw x1, -4(x11)
    lw x3, 4(x10)
    CHECK(14, x3, 0x55aa55aa)
    lbu x3, -1(x11)
    CHECK(15, x3, 0x55)
    /* load-use: the loaded value feeds the next instruction */
    lw x1, 4(x10)
    addi x3, x1, 1
    CHECK(16, x3, 0x55aa55ab)
    /* load feeding a store's data and address */
    la x12, ptr
    lw x13, 0(x12)          /* x13 = &buf[8] */
    lw x1, 0(x10)
    sw x1, 0(x13)
    lw x3, 8(x10)
    CHECK(17, x3, 0x2233117f)
    /* a chain of dependent loads */
    la x1, chain0
    lw x1, 0(x1)
    lw x1, 0(x1)
    lw x3, 0(x1)
    CHECK(18, x3, 0x600d600d)
    /* store then load of the same word back to back */
    li x1, 0x01020304
    sw x1, 12(x10)
    lw x3, 12(x10)
    CHECK(19, x3, 0x01020304)
    /* an operand forwarded from WB must survive a stall of EX: the first load waits in MEM
     * (cache miss or wait states) while the second, in EX, needs x11 from the addi */
    la x10, far_a
    addi x11, x10, 8
    lw x12, 0(x10)
    lw x13, 0(x11)
    CHECK(21, x13, 0xc0ffee00)
    addi x11, x10, 4
    lw x12, 0(x10)
    bne x11, x10, 22f       /* a branch in EX during the stall compares fresh operands */
    j isa_fail_jump
22: sw x11, 12(x10)         /* and a store's data */
    lw x3, 12(x10)
    sub x3, x3, x10
    CHECK(23, x3, 4)
    /* load into x0 has no effect */
    lw x0, 12(x10)
    CHECK(20, x0, 0)
    TEST_PASS

    .section .data
    .balign 4
buf:    .word 0, 0, 0, 0
ptr:    .word buf + 8
chain0: .word chain1
chain1: .word chain2
chain2: .word 0x600d600d
    .balign 64
far_a:  .word 1, 2, 0xc0ffee00, 0
