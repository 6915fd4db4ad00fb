/* main.c - bench_int's workload (firmware/bench/bench_int_kernel.h) for a bare PicoRV32:
 * the checksum and the retired-instruction count (rdinstret) are stored to the testbench's
 * report addresses. Built for the host, it prints the checksum (the reference the PicoRV32
 * run is checked against). */
#include <stdint.h>
#include "bench_int_kernel.h"

#ifndef ROUNDS
#define ROUNDS 40
#endif

#ifdef __riscv
static uint32_t instret(void) {
    uint32_t n;
    __asm__ volatile("rdinstret %0"
                     : "=r"(n));
    return n;
}
#else
#include <stdio.h>
#endif

int main(void) {
    uint32_t check = 0;
#ifdef __riscv
    uint32_t n0 = instret();
#endif
    for (unsigned r = 0; r < ROUNDS; r++) check = bench_round(check, r);
#ifdef __riscv
    uint32_t n1 = instret();
    *(volatile uint32_t *)0x10000004 = check;
    *(volatile uint32_t *)0x10000008 = n1 - n0;
#else
    printf("checksum 0x%08x\n", (unsigned)check);
#endif
    return 0;
}
