/* bench_int_kernel.h - the integer workload of bench_int.c (sieve, CRC, matrix product,
 * checksum with division), with no I/O and no BSP: bench_int.c runs it on tracesim, and
 * tests/bench/vs_picorv32/ runs the same code on a Verilated PicoRV32 for the side-by-side
 * speed comparison (issue 26). bench_round() is one round; its result feeds the checksum. */
#ifndef BENCH_INT_KERNEL_H
#define BENCH_INT_KERNEL_H
#include <stdint.h>

static uint8_t sieve[8192];
static int32_t ma[16][16], mb[16][16], mc[16][16];

static uint32_t run_sieve(void) {
    uint32_t count = 0;
    for (unsigned i = 0; i < sizeof sieve; i++) sieve[i] = 1;
    for (unsigned i = 2; i < sizeof sieve; i++) {
        if (!sieve[i]) continue;
        count++;
        for (unsigned j = i + i; j < sizeof sieve; j += i) sieve[j] = 0;
    }
    return count;
}

static uint32_t crc32(const uint8_t *p, unsigned n) {
    uint32_t crc = ~0u;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
    }
    return ~crc;
}

static uint32_t matmul(uint32_t seed) {
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            seed = seed * 1103515245u + 12345u;
            ma[i][j] = (int32_t)(seed >> 16) - 16384;
            mb[j][i] = (int32_t)(seed & 0x7fff) - 16384;
        }
    uint32_t sum = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int32_t acc = 0;
            for (int k = 0; k < 16; k++) acc += ma[i][k] * mb[k][j];
            mc[i][j] = acc;
            sum += (uint32_t)acc;
        }
    return sum;
}

static uint32_t divmix(uint32_t x) {
    uint32_t s = 0;
    for (uint32_t i = 1; i < 200; i++) {
        s += x / i + x % (i + 7);
        x = x * 7 + (uint32_t)((int32_t)x / (int32_t)(i | 1));
    }
    return s;
}

static uint32_t bench_round(uint32_t check, unsigned r) {
    check += run_sieve();
    check ^= crc32(sieve, sizeof sieve / 4);
    check += matmul(check + r);
    check += divmix(check);
    return check;
}
#endif
