/* isa_rvc.S - every RV32C instruction form, written with explicit c.* mnemonics so the
 * assembler cannot choose the 32-bit encoding. Compressed registers are x8-x15. */
#include "isa_macros.h"
    .option rvc
TEST_BEGIN
    /* C.LI, C.ADDI (negative), C.NOP */
    c.li s0, -7
    CHECK(1, s0, 0xfffffff9)
    c.li s0, 31
    c.addi s0, -32
    CHECK(2, s0, 0xffffffff)
    c.nop
    /* C.LUI (sign-extended 6-bit immediate into bits 17:12) */
    c.lui s1, 0xfffe1          /* nzimm = -31 -> 0xfffe1000 */
    CHECK(3, s1, 0xfffe1000)
    c.lui s1, 1
    CHECK(4, s1, 0x00001000)
    /* C.ADDI16SP / C.ADDI4SPN (use a private stack pointer value) */
    mv x30, sp
    li sp, 0x80001000
    c.addi16sp sp, -64
    CHECK(5, sp, 0x80000fc0)
    c.addi16sp sp, 496
    CHECK(6, sp, 0x800011b0)
    c.addi4spn a0, sp, 1020
    CHECK(7, a0, 0x800015ac)
    c.addi4spn a1, sp, 4
    CHECK(8, a1, 0x800011b4)
    mv sp, x30
    /* C.MV, C.ADD, C.SUB, C.XOR, C.OR, C.AND, C.ANDI */
    li a2, 0x0ff0
    c.mv a3, a2
    CHECK(9, a3, 0x0ff0)
    li a4, 0x0f0f
    c.add a3, a4
    CHECK(10, a3, 0x1eff)
    c.sub a3, a4
    CHECK(11, a3, 0x0ff0)
    c.xor a3, a4
    CHECK(12, a3, 0x00ff)
    c.or a3, a4
    CHECK(13, a3, 0x0fff)
    c.and a3, a2
    CHECK(14, a3, 0x0ff0)
    c.andi a3, -16
    CHECK(15, a3, 0x0ff0)
    c.andi a3, 0x1f
    CHECK(16, a3, 0x0010)
    /* shifts: C.SLLI, C.SRLI, C.SRAI (shamt up to 31) */
    li a5, 0x80000001
    c.srli a5, 31
    CHECK(17, a5, 1)
    c.slli a5, 31
    CHECK(18, a5, 0x80000000)
    c.srai a5, 4
    CHECK(19, a5, 0xf8000000)
    li x5, 3
    c.slli x5, 4              /* C.SLLI works on any register */
    CHECK(20, x5, 0x30)
    /* C.LW / C.SW with the largest offset, C.LWSP / C.SWSP */
    la s0, cbuf
    li s1, 0x13572468
    c.sw s1, 124(s0)
    c.lw a0, 124(s0)
    CHECK(21, a0, 0x13572468)
    mv x30, sp
    la sp, cbuf
    li x6, 0x2468ace0
    c.swsp x6, 252(sp)
    c.lwsp x7, 252(sp)
    mv sp, x30
    CHECK(22, x7, 0x2468ace0)
    lw x7, 252(s0)
    CHECK(23, x7, 0x2468ace0)
    /* C.J, C.JAL (link = pc + 2), C.JR, C.JALR */
    li x28, 24
    c.j 1f
    j isa_fail_jump
1:
2:  c.jal 3f
    j isa_fail_jump
3:  la x6, 2b
    addi x6, x6, 2
    bne ra, x6, isa_fail_jump
    li x28, 25
    la x5, 4f
    c.jr x5
    j isa_fail_jump
4:  la x5, 6f
5:  c.jalr x5
    j isa_fail_jump
6:  la x6, 5b
    addi x6, x6, 2
    bne ra, x6, isa_fail_jump
    /* C.BEQZ / C.BNEZ, both outcomes */
    li x28, 26
    li s0, 0
    c.beqz s0, 7f
    j isa_fail_jump
7:  c.bnez s0, isa_fail_jump_near
    li s0, 5
    c.bnez s0, 8f
    j isa_fail_jump
8:  c.beqz s0, isa_fail_jump_near
    /* a backward compressed loop */
    li s1, 0
    li s0, 6
9:  c.addi s1, 1
    c.addi s0, -1
    c.bnez s0, 9b
    CHECK(27, s1, 6)
    /* 32-bit instruction at a 2-byte aligned address */
    c.nop
    li x3, 0x1234
    addi x3, x3, 1
    CHECK(28, x3, 0x1235)
    /* C.EBREAK is tested in the trap test */
    TEST_PASS
isa_fail_jump_near:
    j isa_fail_jump

    .section .data
    .balign 4
cbuf: .space 256
