/* isa_branch.S - conditional branches (both directions, both outcomes), JAL, JALR. */
#include "isa_macros.h"
TEST_BEGIN
    TEST_BR_TAKEN(1, beq, 5, 5)
    TEST_BR_NOT_TAKEN(2, beq, 5, 6)
    TEST_BR_TAKEN(3, bne, 5, 6)
    TEST_BR_NOT_TAKEN(4, bne, 7, 7)
    TEST_BR_TAKEN(5, blt, -1, 1)
    TEST_BR_NOT_TAKEN(6, blt, 1, -1)
    TEST_BR_NOT_TAKEN(7, blt, 3, 3)
    TEST_BR_TAKEN(8, bge, 1, -1)
    TEST_BR_TAKEN(9, bge, 3, 3)
    TEST_BR_NOT_TAKEN(10, bge, -1, 1)
    TEST_BR_TAKEN(11, bltu, 1, -1)
    TEST_BR_NOT_TAKEN(12, bltu, -1, 1)
    TEST_BR_TAKEN(13, bgeu, -1, 1)
    TEST_BR_TAKEN(14, bgeu, 0, 0)
    TEST_BR_NOT_TAKEN(15, bgeu, 1, -1)
    /* backward branches (predicted taken): a loop of 10 iterations */
    li x28, 16
    li x3, 0
    li x1, 10
2:  addi x3, x3, 1
    addi x1, x1, -1
    bnez x1, 2b
    CHECK(16, x3, 10)
    /* backward branch not taken (mispredicted) exits the loop at once */
    li x3, 0
3:  addi x3, x3, 1
    beqz x0, 4f
    j 3b
4:  CHECK(17, x3, 1)
    li x1, 1
5:  addi x1, x1, -1
    bltz x1, 6f
    bnez x1, 5b
6:  CHECK(18, x1, 0)
    /* branch on a value produced by the previous instruction (forwarding into compare) */
    li x28, 19
    li x1, 4
    addi x1, x1, 1
    li x2, 5
    bne x1, x2, isa_fail_jump
    /* JAL: link = pc + 4, target */
    li x28, 20
7:  jal x5, 8f
    j isa_fail_jump
8:  la x6, 7b
    addi x6, x6, 4
    bne x5, x6, isa_fail_jump
    /* JALR: link, target = (rs1 + imm) & ~1 */
    li x28, 21
    la x1, 9f
    addi x1, x1, 1          /* odd: bit 0 must be cleared */
10: jalr x5, 0(x1)
    j isa_fail_jump
9:  la x6, 10b
    addi x6, x6, 4
    bne x5, x6, isa_fail_jump
    la x1, 11f
    addi x1, x1, 4
    jalr x0, -4(x1)         /* negative offset */
    j isa_fail_jump
11:
    /* JALR with rd == rs1 uses the old rs1 */
    li x28, 22
    la x5, 13f
15: jalr x5, 0(x5)
    j isa_fail_jump
13: la x6, 15b
    addi x6, x6, 4
    bne x5, x6, isa_fail_jump
    /* JALR target produced by a load (load-use into jump) */
    li x28, 23
    la x1, jump_slot
    lw x2, 0(x1)
    jr x2
    j isa_fail_jump
14:
    TEST_PASS

    .section .data
    .balign 4
jump_slot: .word 14b
