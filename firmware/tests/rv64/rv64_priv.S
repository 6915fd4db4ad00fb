/* rv64_priv.S - the RV64 core's privileged side (run with --hpm-width 64): misa (MXL 2,
 * A C I M S U), mstatus.SXL/UXL and sstatus.UXL read-only 2, the counters' and mhpmevents'
 * `h` halves and mstatush illegal, mcycle/minstret/mhpmcounter3 as 64-bit registers,
 * Sscofpmf on 64 bits (OF and MINH in mhpmevent3's bits 63 and 62, a counter overflowing
 * from 2^64 - 16 raises LCOFI with mcause bit 63, scountovf), misaligned loads, stores and
 * atomics, access faults above the 32-bit physical address space (a load, a store, an AMO,
 * an LR, the sign-extended 0xffffffff80000000 a medlow `lui` would make, and a fetch), 64-bit
 * mtval/mepc/mscratch, ecall from M, S and U, RV32-only encodings illegal (C.JAL's, which is
 * C.ADDIW with rd x0 on RV64, and SLLIW with shamt bit 5), CSR privilege in S and U. Causes
 * and values by hand from the privileged spec.
 *
 * The trap handler keeps mcause, mtval, mepc in s2, s3, s4 and counts traps in s6; it resumes
 * at s5 when s5 is set (then clears it), else after the trapping instruction (2 or 4 bytes);
 * an interrupt returns to mepc (LCOFI: mip.LCOFIP cleared). An ecall with s7 set returns in
 * M-mode (the way back from S and U). */
#include "rv64_macros.inc"
    .data
    .balign 8
d:  .dword 0x0123456789abcdef, 0

    .text
    .balign 4
trap:
    csrr s2, mcause
    csrr s3, mtval
    csrr s4, mepc
    addi s6, s6, 1
    bltz s2, 3f                      /* an interrupt */
    beqz s7, 4f
    li s8, 8
    bltu s2, s8, 4f
    li s8, 11
    bgtu s2, s8, 4f
    li s8, 0x1800                    /* an ecall with s7: back to M-mode */
    csrs mstatus, s8
    li s7, 0
4:  bnez s5, 1f
    lhu s8, 0(s4)
    andi s8, s8, 3
    li s9, 3
    addi s10, s4, 2
    bne s8, s9, 2f
    addi s10, s4, 4
2:  csrw mepc, s10
    mret
1:  csrw mepc, s5
    li s5, 0
    mret
3:  li s8, 1 << 13
    csrc mip, s8
    mret

/* the instruction at label 9 must trap once with cause c and tval t */
#define EXPECT_TRAP(n, c, t) CHECK(n, s6, 1); CHECK(n + 1, s2, c); CHECK(n + 2, s3, t); li s6, 0
#define ENC_CSRR_X3(csr) ((csr << 20) | 0x21f3)
/* the same with the tval in a register */
#define EXPECT_TRAP_R(n, c, r) CHECK(n, s6, 1); CHECK(n + 1, s2, c); li x28, n + 2; mv x29, s3; \
    mv x30, r; bne x29, x30, rv64_fail_jump; li s6, 0

TEST_BEGIN
    la t0, trap
    csrw mtvec, t0
    li s5, 0
    li s6, 0
    li s7, 0
    /* misa, mstatus, sstatus */
    csrr x3, misa
    CHECK(1, x3, 0x8000000000141105)
    csrr x3, mstatus
    srli x3, x3, 32
    CHECK(2, x3, 0xa)                 /* SXL 2, UXL 2; SD 0 */
    li t0, 0xf00000000
    csrc mstatus, t0
    csrr x3, mstatus
    srli x3, x3, 32
    CHECK(3, x3, 0xa)                 /* read-only */
    csrr x3, sstatus
    srli x3, x3, 32
    CHECK(4, x3, 2)                   /* UXL only */
    /* the h halves and mstatush: illegal instructions on RV64 */
#define H_ILLEGAL(n, csr) csrr x3, csr; EXPECT_TRAP(n, 2, ENC_CSRR_X3(csr))
    H_ILLEGAL(10, 0xb80)              /* mcycleh */
    H_ILLEGAL(13, 0xb82)              /* minstreth */
    H_ILLEGAL(16, 0xb83)              /* mhpmcounter3h */
    H_ILLEGAL(19, 0xb9f)              /* mhpmcounter31h */
    H_ILLEGAL(22, 0xc80)              /* cycleh */
    H_ILLEGAL(25, 0xc81)              /* timeh */
    H_ILLEGAL(28, 0xc82)              /* instreth */
    H_ILLEGAL(31, 0xc83)              /* hpmcounter3h */
    H_ILLEGAL(34, 0x723)              /* mhpmevent3h */
    H_ILLEGAL(37, 0x73f)              /* mhpmevent31h */
    H_ILLEGAL(40, 0x310)              /* mstatush */
    csrr x3, mcycle                   /* the 64-bit ones are there */
    csrr x3, 0xc00
    csrr x3, 0x323
    CHECK(43, s6, 0)
    /* 64-bit counters */
    li t0, 0x1234567800000000
    csrw mcycle, t0
    csrr x3, mcycle
    srli x3, x3, 32
    CHECK(50, x3, 0x12345678)
    csrr x3, cycle
    srli x3, x3, 32
    CHECK(51, x3, 0x12345678)
    li t0, 0x0abcdef000000000
    csrw minstret, t0
    csrr x3, minstret
    srli x3, x3, 32
    CHECK(52, x3, 0x0abcdef0)
    csrw mhpmevent3, x0               /* counts nothing */
    li t0, 0xabcdef0100000005
    csrw mhpmcounter3, t0
    csrr x3, mhpmcounter3
    CHECK(53, x3, 0xabcdef0100000005)
    /* Sscofpmf: OF (63), MINH (62) are mhpmevent3's upper bits */
    li t0, (1 << 63) | 0x2000
    csrw mhpmevent3, t0
    csrr x3, mhpmevent3
    CHECK(60, x3, 0x8000000000002000)
    csrr x3, 0xda0                    /* scountovf: OF of counter 3 */
    andi x3, x3, 8
    CHECK(61, x3, 8)
    li t0, (1 << 62) | 0x2000         /* MINH: counting inhibited in M-mode */
    csrw mhpmevent3, t0
    csrw mcountinhibit, x0
    csrw mhpmcounter3, x0
    addi x7, x7, 1
    addi x7, x7, 1
    addi x7, x7, 1
    csrr x3, mhpmcounter3
    CHECK(62, x3, 0)
    csrr x3, 0xda0
    andi x3, x3, 8
    CHECK(63, x3, 0)                  /* OF written 0 */
    /* overflow from 2^64 - 16 counting integer arithmetic in M-mode: OF, LCOFI */
    li t0, 0x2000                     /* class 0, int_arith */
    csrw mhpmevent3, t0
    li t0, -16
    csrw mhpmcounter3, t0
    li t0, 1 << 13
    csrs mie, t0
    csrsi mstatus, 8
    .rept 40
    addi x7, x7, 1
    .endr
    csrci mstatus, 8
    CHECK(64, s6, 1)                  /* one interrupt */
    CHECK(65, s2, 0x800000000000000d) /* LCOFI, bit 63 */
    li s6, 0
    csrr x3, mhpmevent3
    srli x3, x3, 63
    CHECK(66, x3, 1)                  /* OF */
    csrr x3, mhpmcounter3
    sltiu x3, x3, 256                 /* wrapped to a small count */
    CHECK(67, x3, 1)
    li t0, 1 << 13
    csrc mie, t0
    csrw mhpmevent3, x0
    /* misaligned */
    /* misaligned: loads and LR (cause 4), stores and AMOs (6); tval the address */
    la a1, d
    addi a1, a1, 4
    ld x3, 0(a1)
    EXPECT_TRAP_R(70, 4, a1)
    sd x0, 0(a1)
    EXPECT_TRAP_R(73, 6, a1)
    lr.d x3, (a1)
    EXPECT_TRAP_R(76, 4, a1)
    amoadd.d x3, x0, (a1)
    EXPECT_TRAP_R(79, 6, a1)
    addi a1, a1, -2
    lw x3, 0(a1)
    EXPECT_TRAP_R(82, 4, a1)
    lwu x3, 0(a1)
    EXPECT_TRAP_R(85, 4, a1)
    /* above the 32-bit physical address space: access faults (5 load/LR, 7 store/AMO) */
    li a1, 0x180000000
    ld x3, 0(a1)
    EXPECT_TRAP_R(90, 5, a1)
    sd x0, 0(a1)
    EXPECT_TRAP_R(93, 7, a1)
    amoswap.d x3, x0, (a1)
    EXPECT_TRAP_R(96, 7, a1)
    lr.d x3, (a1)
    EXPECT_TRAP_R(99, 5, a1)
    li a1, 0xffffffff80000000         /* RAM's address as a medlow lui makes it: not RAM */
    lw x3, 0(a1)
    EXPECT_TRAP_R(102, 5, a1)
    li a1, 0x100000000                /* the low word is 0: no aliasing onto address 0 */
    sb x0, 0(a1)
    EXPECT_TRAP_R(105, 7, a1)
    /* a fetch there: instruction access fault, mepc and mtval the 64-bit pc */
    la s5, 1f
    li a1, 0x180000000
    jr a1
1:  EXPECT_TRAP_R(108, 1, a1)
    li x28, 111
    bne s4, a1, rv64_fail_jump
    /* 64-bit CSR values */
    li t0, 0x123456789abcdef0
    csrw mscratch, t0
    csrr x3, mscratch
    CHECK(112, x3, 0x123456789abcdef0)
    li t0, 0xfedcba9876543211
    csrw mepc, t0
    csrr x3, mepc
    CHECK(113, x3, 0xfedcba9876543210)  /* bit 0 is 0 */
    /* ecall from M */
    la a2, 2f
2:  ecall
    EXPECT_TRAP(114, 11, 0)
    li x28, 117
    bne s4, a2, rv64_fail_jump
    /* RV32-only encodings: C.JAL's is C.ADDIW x0 (reserved), SLLIW with shamt bit 5 */
    .option push
    .option norvc
    .half 0x2001
    .half 0x0001                      /* c.nop: keeps the next instruction 4-byte aligned */
    .option pop
    EXPECT_TRAP(120, 2, 0x2001)
    .word 0x0200919b
    EXPECT_TRAP(123, 2, 0x0200919b)
    /* S-mode: ecall 9, a machine CSR illegal, sstatus legal; counters need mcounteren */
    li t0, 0x1800
    csrc mstatus, t0
    li t0, 0x0800                     /* MPP = S */
    csrs mstatus, t0
    csrw mcounteren, x0
    la t0, s_code
    csrw mepc, t0
    mret
s_code:
    csrr x3, sstatus
    csrr x3, mstatus
    EXPECT_TRAP(130, 2, ENC_CSRR_X3(0x300))
    csrr x3, cycle
    EXPECT_TRAP(133, 2, ENC_CSRR_X3(0xc00))
    ecall
    EXPECT_TRAP(136, 9, 0)
    li s7, 1
    ecall                             /* back to M */
    li s6, 0
    csrr x3, mstatus                  /* M-mode again */
    CHECK(140, s6, 0)
    /* U-mode: ecall 8, sstatus illegal */
    li t0, 0x1800
    csrc mstatus, t0                  /* MPP = U */
    la t0, u_code
    csrw mepc, t0
    mret
u_code:
    csrr x3, sstatus
    EXPECT_TRAP(141, 2, ENC_CSRR_X3(0x100))
    ecall
    EXPECT_TRAP(144, 8, 0)
    li s7, 1
    ecall
    li s6, 0
    csrr x3, misa
    CHECK(147, s6, 0)
TEST_PASS
