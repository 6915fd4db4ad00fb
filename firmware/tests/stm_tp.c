/* stm_tp.c - THREAD_SWITCH tracking of tp and the CSR's corner cases
 * (docs/firmware/software-trace.md); tests/stm/tp_test.sh runs it with and without --stm-thread-switch and lists what
 * stm.csv must hold. Between the marks 1 and 2 tp is written by mv, li (lui + addi), addi, a
 * load and c.mv, then restored (picolibc's TLS pointer: nothing here calls into the C library
 * while tp is changed). Then, with a0 = 0x0badcafe unless said otherwise:
 *   csrrw tp, 0x7c0, t0 (t0 = 0x0123, a0 = 0x11111111)  one event (0x0123, 0x11111111), tp = 0
 *   csrw 0x7c0, zero; csrc 0x7c0, t0 (t0 = 5); csrr    nothing
 *   csrs 0x7c0, t0 (t0 = 6)                            (0x0006, 0x0badcafe)
 *   csrsi 0x7c0, 7                                     (0x0007, 0x0badcafe)
 *   csrw 0x7c0, t0 (t0 = 0xabcd0042)                   (0x0042, 0x0badcafe)
 *   csrw 0x7c0, t0 (t0 = 0xffff0000)                   nothing (id 0)
 *   csrrwi t1, 0x7c0, 9                                (0x0009, 0x0badcafe), t1 = 0
 *   a0 = 0x22222222; csrwi 0x7c0, 31                   (0x001f, 0x22222222) */
#include <stdint.h>
#include "bsp.h"
#include "check.h"
#include "ts_stm.h"

static volatile uint32_t tp_word = 0x00005000u;

int main(void) {
    uint32_t r_tp, r_rd, r_read, r_t1;
    ts_stm_start(0, 0);
    ts_mark(1);
    __asm__ volatile(
        "mv   t2, tp\n\t"
        "li   t0, 0x1000\n\t"
        "mv   tp, t0\n\t"                   /* 0x00001000 */
        "li   tp, 0x12345678\n\t"           /* lui + addi: 0x12345000, 0x12345678 */
        "addi tp, tp, 8\n\t"                /* 0x12345680 */
        "lw   tp, 0(%0)\n\t"                /* 0x00005000 */
        "c.mv tp, t2\n\t"                   /* the TLS pointer again */
        : : "r"(&tp_word) : "t0", "t2", "memory");
    ts_mark(2);
    __asm__ volatile(
        "mv   t2, tp\n\t"
        "li   a0, 0x11111111\n\t"
        "li   t0, 0x0123\n\t"
        "csrrw tp, 0x7c0, t0\n\t"
        "mv   %0, tp\n\t"
        "mv   tp, t2\n\t"
        : "=r"(r_tp) : : "t0", "t2", "a0", "memory");
    ts_mark(3);
    __asm__ volatile(
        "li   a0, 0x0badcafe\n\t"
        "csrw 0x7c0, zero\n\t"
        "li   t0, 5\n\t"
        "csrc 0x7c0, t0\n\t"
        "csrr %1, 0x7c0\n\t"
        "li   t0, 6\n\t"
        "csrs 0x7c0, t0\n\t"
        "csrsi 0x7c0, 7\n\t"
        "li   t0, 0xabcd0042\n\t"
        "csrrw %0, 0x7c0, t0\n\t"
        "li   t0, 0xffff0000\n\t"
        "csrw 0x7c0, t0\n\t"
        "csrrwi %2, 0x7c0, 9\n\t"
        "li   a0, 0x22222222\n\t"
        "csrwi 0x7c0, 31\n\t"
        : "=&r"(r_rd), "=&r"(r_read), "=&r"(r_t1) : : "t0", "a0", "memory");
    ts_mark(4);
    ts_trace_flush(0);
    CHECK_EQ(r_tp, 0);                       /* the CSR reads 0 */
    CHECK_EQ(r_rd, 0);
    CHECK_EQ(r_read, 0);
    CHECK_EQ(r_t1, 0);
    return 0;
}
