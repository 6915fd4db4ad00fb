/* isa_amo.S - the A extension on one hart: every AMO's result in rd (the old value) and in
 * memory, MIN/MAX signed and unsigned on sign-crossing operands, rd = x0, rd aliasing rs1 and
 * rs2, the aq/rl forms, an AMO's result used at once (load-use interlock), LR/SC: success,
 * SC without a reservation, SC after an LR of another address, SC with rd = x0. Expected
 * values by hand from the unprivileged spec (chapter "A" Standard Extension): an AMO loads
 * the word at rs1 into rd, applies the operation to it and rs2 and stores the result; SC
 * writes 0 to rd on success and 1 (nonzero) on failure, and every SC clears the reservation.
 * Reservations lost to another hart's store: mh_amo.c. Faults: amo_traps.c.
 * Registers as isa_macros.h says, and x10 (the word under test), x11 (a second word). */
#include "isa_macros.h"

/* mem[x10] = init; INST x3, x2 = v2, (x10); rd and the word after it checked */
#define TEST_AMO(n, inst, init, v2, rd_exp, mem_exp) \
    li x1, init; sw x1, 0(x10); li x2, v2; inst x3, x2, (x10); \
    CHECK(n, x3, rd_exp); lw x4, 0(x10); CHECK(n + 1, x4, mem_exp)

TEST_BEGIN
    la x10, word
    la x11, word2
    /* 1-10: SWAP, ADD (with carry out of bit 31 and signed overflow), XOR, AND, OR */
    TEST_AMO(1, amoswap.w, 0x11111111, 0x22222222, 0x11111111, 0x22222222)
    TEST_AMO(3, amoadd.w, 0x7fffffff, 0x00000001, 0x7fffffff, 0x80000000)
    TEST_AMO(5, amoadd.w, 0xfffffffe, 0x00000003, 0xfffffffe, 0x00000001)
    TEST_AMO(7, amoxor.w, 0xff00ff00, 0x0ff00ff0, 0xff00ff00, 0xf0f0f0f0)
    TEST_AMO(9, amoand.w, 0xff00ff00, 0x0ff00ff0, 0xff00ff00, 0x0f000f00)
    TEST_AMO(11, amoor.w, 0xff00ff00, 0x0ff00ff0, 0xff00ff00, 0xfff0fff0)
    /* 13-28: MIN/MAX signed: -5 < 3; unsigned: 0xfffffffb > 3 */
    TEST_AMO(13, amomin.w, 0xfffffffb, 0x00000003, 0xfffffffb, 0xfffffffb)
    TEST_AMO(15, amomin.w, 0x00000003, 0xfffffffb, 0x00000003, 0xfffffffb)
    TEST_AMO(17, amomax.w, 0xfffffffb, 0x00000003, 0xfffffffb, 0x00000003)
    TEST_AMO(19, amomax.w, 0x00000003, 0xfffffffb, 0x00000003, 0x00000003)
    TEST_AMO(21, amominu.w, 0xfffffffb, 0x00000003, 0xfffffffb, 0x00000003)
    TEST_AMO(23, amominu.w, 0x00000003, 0xfffffffb, 0x00000003, 0x00000003)
    TEST_AMO(25, amomaxu.w, 0xfffffffb, 0x00000003, 0xfffffffb, 0xfffffffb)
    TEST_AMO(27, amomaxu.w, 0x00000003, 0xfffffffb, 0x00000003, 0xfffffffb)
    /* 29-32: MIN/MAX of INT_MIN and INT_MAX, and equal operands */
    TEST_AMO(29, amomin.w, 0x80000000, 0x7fffffff, 0x80000000, 0x80000000)
    TEST_AMO(31, amomaxu.w, 0x80000000, 0x7fffffff, 0x80000000, 0x80000000)
    TEST_AMO(33, amomax.w, 0x12345678, 0x12345678, 0x12345678, 0x12345678)
    /* 35-36: the aq, rl and aqrl forms do the same */
    TEST_AMO(35, amoadd.w.aq, 0x00000010, 0x00000020, 0x00000010, 0x00000030)
    TEST_AMO(37, amoor.w.rl, 0x00000010, 0x00000001, 0x00000010, 0x00000011)
    TEST_AMO(39, amoswap.w.aqrl, 0x00000010, 0x00000005, 0x00000010, 0x00000005)

    /* 41-42: rd = x0: memory still written, x0 still 0 */
    li x1, 100; sw x1, 0(x10); li x2, 23
    amoadd.w x0, x2, (x10)
    CHECK(41, x0, 0)
    lw x4, 0(x10); CHECK(42, x4, 123)
    /* 43-45: rd = rs1: the address is the old rs1, rd gets the old word */
    mv x5, x10
    li x1, 7; sw x1, 0(x10); li x2, 5
    amoadd.w x5, x2, (x5)
    CHECK(43, x5, 7)
    lw x4, 0(x10); CHECK(44, x4, 12)
    /* 45-46: rd = rs2: memory gets the old rs2, rd the old word */
    li x1, 0x0badcafe; sw x1, 0(x10); li x2, 0x600df00d
    amoswap.w x2, x2, (x10)
    CHECK(45, x2, 0x0badcafe)
    lw x4, 0(x10); CHECK(46, x4, 0x600df00d)
    /* 47-48: the AMO's rd used by the next instruction (load-use interlock) and as the next
     * AMO's address */
    li x1, 40; sw x1, 0(x10); li x2, 2
    amoadd.w x3, x2, (x10)
    addi x4, x3, 1
    CHECK(47, x4, 41)
    sw x11, 0(x10)           /* word = &word2 */
    li x1, 0x55; sw x1, 0(x11)
    amoor.w x6, x0, (x10)    /* x6 = &word2, word unchanged */
    amoswap.w x3, x2, (x6)   /* address straight from the previous AMO */
    CHECK(48, x3, 0x55)
    lw x4, 0(x11); CHECK(49, x4, 2)

    /* 50-54: LR then SC of the same word: LR reads, SC stores and writes 0 to rd */
    li x1, 0x1234; sw x1, 0(x10)
    lr.w x3, (x10)
    CHECK(50, x3, 0x1234)
    addi x2, x3, 1
    sc.w x4, x2, (x10)
    CHECK(51, x4, 0)
    lw x4, 0(x10); CHECK(52, x4, 0x1235)
    /* 53-54: a second SC without a new LR fails (the first SC cleared the reservation): rd 1,
     * memory unchanged */
    li x2, 0x9999
    sc.w x4, x2, (x10)
    CHECK(53, x4, 1)
    lw x4, 0(x10); CHECK(54, x4, 0x1235)
    /* 55-58: LR of word, SC of word2 (another address) fails and clears the reservation, so
     * an SC of word after it fails too */
    li x1, 0x77; sw x1, 0(x11)
    lr.w x3, (x10)
    sc.w x4, x2, (x11)
    CHECK(55, x4, 1)
    lw x4, 0(x11); CHECK(56, x4, 0x77)
    sc.w x4, x2, (x10)
    CHECK(57, x4, 1)
    lw x4, 0(x10); CHECK(58, x4, 0x1235)
    /* 59-61: SC with rd = x0 stores; the aq/rl forms; the SC's result used at once */
    lr.w.aq x3, (x10)
    sc.w.rl x0, x2, (x10)
    CHECK(59, x0, 0)
    lw x4, 0(x10); CHECK(60, x4, 0x9999)
    lr.w.aqrl x3, (x10)
    sc.w.aqrl x4, x3, (x10)
    addi x4, x4, 10
    CHECK(61, x4, 10)
    /* 62-63: the hart's own store between its LR and SC does not clear the reservation (this
     * core: only other harts' stores do; docs/internals.md "Atomics"), and an AMO of the same
     * hart does not either */
    lr.w x3, (x10)
    li x1, 0x4321; sw x1, 0(x10)
    amoadd.w x0, x1, (x11)
    li x2, 0x5678
    sc.w x4, x2, (x10)
    CHECK(62, x4, 0)
    lw x4, 0(x10); CHECK(63, x4, 0x5678)
    /* 64-65: LR on rd = rs1 */
    mv x5, x10
    lr.w x5, (x5)
    CHECK(64, x5, 0x5678)
    sc.w x4, x2, (x10)
    CHECK(65, x4, 0)
    TEST_PASS

    .data
    .balign 4
word:  .word 0
word2: .word 0
