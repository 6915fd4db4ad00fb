/* isa_csr.S - Zicsr: every CSR instruction form on mscratch, read-only machine registers,
 * and the counter CSRs reached through the HPM model. */
#include "isa_macros.h"
TEST_BEGIN
    li x1, 0x12345678
    csrrw x3, mscratch, x1
    csrr x3, mscratch
    CHECK(1, x3, 0x12345678)
    li x1, 0x0000ff00
    csrrs x3, mscratch, x1          /* returns the old value */
    CHECK(2, x3, 0x12345678)
    csrr x3, mscratch
    CHECK(3, x3, 0x1234ff78)
    li x1, 0x00000ff0
    csrrc x3, mscratch, x1
    CHECK(4, x3, 0x1234ff78)
    csrr x3, mscratch
    CHECK(5, x3, 0x1234f008)
    csrrwi x3, mscratch, 0x15
    CHECK(6, x3, 0x1234f008)
    csrrsi x3, mscratch, 0x0a
    CHECK(7, x3, 0x15)
    csrrci x3, mscratch, 0x01
    CHECK(8, x3, 0x1f)
    csrr x3, mscratch
    CHECK(9, x3, 0x1e)
    /* CSR result used by the next instruction (interlock) */
    csrr x3, mscratch
    addi x3, x3, 2
    CHECK(10, x3, 0x20)
    /* misa: MXL 1 (RV32), extensions A (bit 0), C (2), I (8), M (12), S (18), U (20) */
    csrr x3, misa
    CHECK(11, x3, 0x40141105)
    csrr x3, mhartid
    CHECK(12, x3, 0)
    csrr x3, mvendorid
    CHECK(13, x3, 0)
    /* mtvec: mode bits 1:0 WARL (0 direct, 1 vectored); mepc bit 0 always 0 */
    csrr x20, mtvec
    li x1, 0x80000101
    csrw mtvec, x1
    csrr x3, mtvec
    CHECK(14, x3, 0x80000101)
    csrw mtvec, x20
    li x1, 0x80000003
    csrw mepc, x1
    csrr x3, mepc
    CHECK(15, x3, 0x80000002)
    /* mstatus: MPP WARL (U, S, M; 2 keeps the old value), MIE/MPIE writable */
    csrw mstatus, x0
    csrr x3, mstatus
    CHECK(16, x3, 0x00000000)
    csrsi mstatus, 8
    csrr x3, mstatus
    CHECK(17, x3, 0x00000008)
    csrci mstatus, 8
    li x1, 0x00001000               /* MPP = 2 (reserved): ignored */
    csrs mstatus, x1
    csrr x3, mstatus
    CHECK(24, x3, 0x00000000)
    li x1, 0x00001800
    csrw mstatus, x1
    /* mie: MSIE, MTIE, MEIE and SSIE, STIE, SEIE, LCOFIE writable */
    li x1, 0xffffffff
    csrw mie, x1
    csrr x3, mie
    CHECK(18, x3, 0x00002aaa)
    csrw mie, x0
    /* counters: mcycle and minstret written, read back, advance */
    csrw mcountinhibit, x0
    li x1, 1000
    csrw minstret, x1
    csrr x3, minstret               /* instructions between write and read: 0 */
    CHECK(19, x3, 1000)
    csrw minstret, x1
    nop
    nop
    csrr x3, minstret               /* 2 nops retired after the write */
    CHECK(20, x3, 1002)
    csrw minstreth, x0
    csrr x3, minstreth
    CHECK(21, x3, 0)
    li x1, 5
    csrw mcountinhibit, 4           /* stop minstret */
    csrw minstret, x1
    nop
    nop
    csrr x3, minstret
    CHECK(22, x3, 5)
    csrw mcountinhibit, x0
    /* user aliases read the same counters */
    csrr x4, minstret
    csrr x3, instret
    sub x3, x3, x4
    CHECK(23, x3, 1)
    TEST_PASS
