/* bench_int.c - integer workload for the simulator speed benchmark: a mix of loads, stores,
 * branches, multiplies and divides (sieve, CRC, matrix product, checksum with division).
 * The argument is baked in: ROUNDS rounds give about 60 M cycles. Prints a checksum so that
 * the work cannot be optimised away. */
#include <stdint.h>
#include <stdio.h>
#include "bsp.h"
#include "bench_int_kernel.h"

#ifndef ROUNDS
#define ROUNDS 160
#endif

int main(void) {
    uint32_t check = 0;
    uint64_t c0 = ts_sim_cycles();
    for (unsigned r = 0; r < ROUNDS; r++) {
        check = bench_round(check, r);
    }
    uint64_t c1 = ts_sim_cycles();
    printf("bench_int: %u rounds, checksum 0x%08lx, %lu cycles\n", ROUNDS, (unsigned long)check,
           (unsigned long)(c1 - c0));
    return 0;
}
