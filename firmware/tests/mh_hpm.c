/* mh_hpm.c - every hart's HPM counts its own events only: hart h counts loads in
 * mhpmcounter3 over exactly 100 (h + 1) loads, while the other harts run their own loads at
 * the same time, and gets exactly that number; inhibited right after, the counter keeps it
 * while the other harts go on. minstret and mcycle are per hart too (hart 0's minstret stays
 * below the total the simulator reports). Needs 2 or more harts (one hart: the same check). */
#include "check.h"
#include "mh_common.h"

static ts_barrier_t bar;
static unsigned nh;
static volatile uint32_t table[16];

static int count_loads(void *arg) {
    (void)arg;
    unsigned me = ts_hart_id();
    uint32_t n = 100u * (me + 1u), got;
    TS_CSR_WRITE(0x323, 0x200);                          /* mhpmevent3 = loads */
    TS_CSR_CLEAR(0x320, 1u << 3);                        /* counting */
    ts_barrier(&bar, nh);
    __asm__ volatile("csrw 0xB03, zero\n\t"              /* mhpmcounter3 = 0 */
                     "mv t1, %1\n"
                     "1:\tlw t2, 0(%2)\n\t"
                     "addi t1, t1, -1\n\t"
                     "bnez t1, 1b\n\t"
                     "csrr %0, 0xB03"
                     : "=r"(got) : "r"(n), "r"(table) : "t1", "t2", "memory");
    TS_CSR_SET(0x320, 1u << 3);                          /* stop it */
    ts_barrier(&bar, nh);                                /* the others have loaded too */
    uint32_t later = TS_CSR_READ(0xB03);
    if (got != n || later != n) {
        printf("FAIL hart %u: mhpmcounter3 %lu, then %lu, expected %lu loads\n", me, (unsigned long)got,
               (unsigned long)later, (unsigned long)n);
        return 1;
    }
    return 0;
}

int main(void) {
    nh = ts_num_harts();
    for (unsigned h = 1; h < nh; h++) CHECK_EQ(ts_hart_start(h, count_loads, 0), TS_HART_OK);
    int bad = count_loads(0);
    for (unsigned h = 1; h < nh; h++) {
        int r;
        CHECK_EQ(ts_hart_join(h, &r), TS_HART_OK);
        if (r) bad = r;
    }
    CHECK_EQ(bad, 0);
    printf("mh_hpm: %u harts, hart h counted exactly 100 (h + 1) loads\n", nh);
    return 0;
}
