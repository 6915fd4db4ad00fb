/* rv64_bench.c - bench_int's workload (firmware/bench/bench_int_kernel.h, the same source)
 * built for the RV64 core, for the simulator speed comparison of docs/performance.md (host
 * instructions per simulated cycle, first 1 M cycles). Exits with the checksum's low 7 bits
 * so that the work cannot be optimised away. */
#include <stdint.h>
#include "rv64_test.h"
#include "../../bench/bench_int_kernel.h"

#ifndef ROUNDS
#define ROUNDS 160
#endif

int main(void) {
    uint32_t check = 0;
    for (unsigned r = 0; r < ROUNDS; r++) check = bench_round(check, r);
    return (int)(check & 0x7f);
}
