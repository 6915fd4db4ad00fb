/* dpi.h - DPI-C functions the core imports (counter CSRs -> C HPM model).
 * The hart table is the run controller's one global: it maps the hart id the core passes to
 * that hart's HPM instance. */
#ifndef TS_DPI_H
#define TS_DPI_H
#include "hpm.h"
void dpi_register_hart(unsigned hart, hpm_t *hpm);
/* the imports, as Verilator declares them in Vts_soc_top__Dpi.h */
unsigned int ts_dpi_csr_read(unsigned int hart, unsigned int addr);
void ts_dpi_csr_write(unsigned int hart, unsigned int addr, unsigned int value);
#endif
