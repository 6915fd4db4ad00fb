/* dpi.h - DPI-C functions the core imports (counter CSRs -> C HPM model).
 * The hart table is the run controller's one global: it maps the hart id the core passes to
 * that hart's HPM instance, and to the hook that logs counter reads (counters.csv). */
#ifndef TS_DPI_H
#define TS_DPI_H
#include <stdint.h>
#include "hpm.h"
/* Called for every read of a counter CSR (cycle, time, instret, hpmcounterN, mcycle,
 * minstret, mhpmcounterN and their high halves; not mhpmevent/mcountinhibit/mcounteren),
 * from inside the core's evaluation, at the clock edge that ends the reading instruction's
 * commit cycle; pc is the instruction's, value what it read. */
typedef void dpi_csr_read_hook_t(void *ctx, unsigned hart, uint32_t pc, uint32_t csr, uint32_t value);
/* Called for every write of mcountinhibit or mhpmevent3..31 (hpm_writes.csv), at the same
 * edge, with the value the register holds after it (the HPM model's, after its masking). */
typedef void dpi_csr_write_hook_t(void *ctx, unsigned hart, uint32_t csr, uint32_t value);
/* hooks may be NULL (no logging); hpm NULL unregisters the hart */
void dpi_register_hart(unsigned hart, hpm_t *hpm, dpi_csr_read_hook_t *hook, dpi_csr_write_hook_t *whook, void *ctx);
/* the imports, as Verilator declares them in Vts_soc_top__Dpi.h */
unsigned int ts_dpi_csr_read(unsigned int hart, unsigned int addr, unsigned int pc);
void ts_dpi_csr_write(unsigned int hart, unsigned int addr, unsigned int value);
/* RV64: a counter CSR (mcycle, minstret, mhpmcounterN, their user aliases) or mhpmeventN as
 * one 64-bit register, the HPM model's CSR and its high half together; any other CSR
 * zero-extended */
unsigned long long ts_dpi_csr_read64(unsigned int hart, unsigned int addr, unsigned int pc);
void ts_dpi_csr_write64(unsigned int hart, unsigned int addr, unsigned long long value);
/* the hart's privilege mode from the next cycle on (0 U, 1 S, 3 M) */
void ts_dpi_set_priv(unsigned int hart, unsigned int priv);
#endif
