/* s_trap.h - S-mode trap handling for supervisor code (the SBI payloads and the privilege
 * tests): s_trap_entry (for stvec, direct mode) saves the caller-saved registers on the
 * interrupted stack and calls the handler set with s_set_trap_handler() for the cause, which
 * returns the sepc to resume at; then sret. An unhandled trap prints a line and exits with
 * status 96. */
#ifndef TS_S_TRAP_H
#define TS_S_TRAP_H
#include <stdint.h>
#include "ts_csr.h"
/* the arguments are the CSRs as read, XLEN wide (ts_reg_t: uint32_t's type on RV32);
 * scause's interrupt flag is bit XLEN-1 (TS_CAUSE_IRQ) */
typedef ts_reg_t (*s_trap_handler_t)(ts_reg_t scause, ts_reg_t sepc, ts_reg_t stval);
/* cause 0..15 for exceptions, 0x80000000 | n for interrupt n (RV32 and RV64 alike) */
void s_set_trap_handler(uint32_t cause, s_trap_handler_t h);
void s_trap_entry(void);
#endif
