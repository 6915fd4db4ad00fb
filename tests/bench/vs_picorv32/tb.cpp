// tb.cpp - testbench of the Verilated PicoRV32 for vs_picorv32.sh (the side-by-side speed
// comparison of issue 26; not part of tracesim). 1 MiB of RAM at 0 answered in the same
// cycle (native memory interface), stop on a store to 0x10000000, the checksum and the
// instruction count stored to 0x10000004 / 0x10000008. Prints one line:
//   checksum 0x... cycles N instret N seconds S
// Built with --trace-fst (TB_FST): `Vpicorv32 IMAGE FILE.fst DEPTH FLUSH MAXCYCLES` dumps the
// signals down to DEPTH (99: every signal) once per cycle, after the rising edge, calls the
// writer's flush() every FLUSH cycles (0: never) and stops after MAXCYCLES cycles.
#include "Vpicorv32.h"
#include "verilated.h"
#ifdef TB_FST
#include "verilated_fst_c.h"
#endif
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <ctime>

static uint32_t ram[1u << 18];

int main(int argc, char **argv) {
#ifdef TB_FST
    if (argc != 6) {
        std::fprintf(stderr, "usage: %s IMAGE.bin FILE.fst DEPTH FLUSH MAXCYCLES\n", argv[0]);
        return 2;
    }
    unsigned long flush = std::strtoul(argv[4], nullptr, 0), maxc = std::strtoul(argv[5], nullptr, 0);
#else
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s IMAGE.bin\n", argv[0]);
        return 2;
    }
#endif
    std::FILE *f = std::fopen(argv[1], "rb");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    size_t got = std::fread(ram, 1, sizeof ram, f);
    std::fclose(f);
    if (got == 0) {
        std::fprintf(stderr, "%s: empty image\n", argv[1]);
        return 2;
    }
    Vpicorv32 *top = new Vpicorv32;
#ifdef TB_FST
    Verilated::traceEverOn(true);
    VerilatedFstC *fst = new VerilatedFstC;
    top->trace(fst, std::atoi(argv[3]));
    fst->open(argv[2]);
#endif
    top->resetn = 0;
    for (int i = 0; i < 8; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->resetn = 1;
    uint64_t cycles = 0;
    uint32_t check = 0, instret = 0;
    bool done = false;
    timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!done) {
        top->clk = 0;
        top->eval();
        top->mem_ready = 0;
        if (top->mem_valid) {
            uint32_t a = top->mem_addr;
            if (a < sizeof ram) {
                uint32_t &w = ram[a >> 2];
                if (top->mem_wstrb) {
                    for (int b = 0; b < 4; b++)
                        if (top->mem_wstrb & (1u << b))
                            w = (w & ~(0xffu << 8 * b)) | (top->mem_wdata & (0xffu << 8 * b));
                } else {
                    top->mem_rdata = w;
                }
            } else if (a == 0x10000004) {
                check = top->mem_wdata;
            } else if (a == 0x10000008) {
                instret = top->mem_wdata;
            } else if (a == 0x10000000) {
                done = true;
            }
            top->mem_ready = 1;
        }
        top->clk = 1;
        top->eval();
        cycles++;
#ifdef TB_FST
        fst->dump(cycles);
        if (flush && cycles % flush == 0) fst->flush();
        if (cycles == maxc) break;
#endif
        if (top->trap) {
            std::fprintf(stderr, "trap at cycle %llu\n", (unsigned long long)cycles);
            return 1;
        }
    }
#ifdef TB_FST
    fst->close(); // the last block written: part of the time
#endif
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = double(t1.tv_sec - t0.tv_sec) + double(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    std::printf("checksum 0x%08x cycles %llu instret %u seconds %.6f\n", check,
                (unsigned long long)cycles, instret, s);
    delete top;
    return 0;
}
