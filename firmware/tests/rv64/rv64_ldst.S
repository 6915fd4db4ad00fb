/* rv64_ldst.S - RV64I loads and stores: LD/SD, LWU against LW (zero- against sign-extension),
 * LB/LBU/LH/LHU/LW inside a doubleword, narrow stores into a doubleword, negative offsets,
 * a load result used at once (load-use interlock), and a store followed by a load of the
 * same doubleword. Expected values by hand (little-endian byte order). */
#include "rv64_macros.inc"
    .data
    .balign 8
buf:  .dword 0x0123456789abcdef
buf2: .dword 0
buf3: .dword 0xfedcba9876543210
    .text
TEST_BEGIN
    la x5, buf
    ld x3, 0(x5)
    CHECK(1, x3, 0x0123456789abcdef)
    lw x3, 0(x5)
    CHECK(2, x3, 0xffffffff89abcdef)       /* bit 31 set: sign-extended */
    lwu x3, 0(x5)
    CHECK(3, x3, 0x0000000089abcdef)       /* zero-extended */
    lw x3, 4(x5)
    CHECK(4, x3, 0x0000000001234567)
    lwu x3, 4(x5)
    CHECK(5, x3, 0x0000000001234567)
    lh x3, 0(x5)
    CHECK(6, x3, 0xffffffffffffcdef)
    lhu x3, 0(x5)
    CHECK(7, x3, 0x000000000000cdef)
    lh x3, 6(x5)
    CHECK(8, x3, 0x0000000000000123)
    lb x3, 0(x5)
    CHECK(9, x3, 0xffffffffffffffef)
    lbu x3, 0(x5)
    CHECK(10, x3, 0x00000000000000ef)
    lb x3, 7(x5)
    CHECK(11, x3, 0x0000000000000001)
    /* SD then LD; narrow stores into a doubleword */
    la x6, buf2
    li x1, 0xffffffffffffffff
    sd x1, 0(x6)
    sw x0, 0(x6)
    ld x3, 0(x6)
    CHECK(20, x3, 0xffffffff00000000)
    sh x0, 4(x6)
    ld x3, 0(x6)
    CHECK(21, x3, 0xffff000000000000)
    li x1, 0x5a
    sb x1, 7(x6)
    ld x3, 0(x6)
    CHECK(22, x3, 0x5aff000000000000)
    li x1, 0x8877665544332211
    sw x1, 0(x6)                           /* the low word only */
    ld x3, 0(x6)
    CHECK(23, x3, 0x5aff000044332211)
    sd x1, 0(x6)
    ld x3, 0(x6)
    CHECK(24, x3, 0x8877665544332211)
    /* negative offsets, load-use */
    la x7, buf3
    ld x3, -8(x7)
    CHECK(25, x3, 0x8877665544332211)
    ld x4, 0(x7)
    addi x3, x4, 1                         /* uses the load's result in the next cycle */
    CHECK(26, x3, 0xfedcba9876543211)
    lwu x4, 4(x7)
    srli x3, x4, 31
    CHECK(27, x3, 1)
    lw x4, 4(x7)
    srli x3, x4, 31
    CHECK(28, x3, 0x1ffffffff)
    /* a store and the next load of the same doubleword (no forwarding hazard) */
    li x1, 0x0f0f0f0f0f0f0f0f
    sd x1, 0(x7)
    ld x3, 0(x7)
    CHECK(29, x3, 0x0f0f0f0f0f0f0f0f)
TEST_PASS
