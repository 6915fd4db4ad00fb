/* ts_asm.h - for assembly sources built for RV32 and RV64 alike: a register's store, load
 * and size in bytes (XLEN / 8). */
#ifndef TS_ASM_H
#define TS_ASM_H
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define SZREG 8
#else
#define REG_S sw
#define REG_L lw
#define SZREG 4
#endif
#endif
