/* dpi.c - implementation of the DPI-C imports of rtl_model/core/ts_core.sv. */
#include "dpi.h"
#include <stdio.h>
#include <stdlib.h>

#define DPI_MAX_HARTS 8
static hpm_t *dpi_harts[DPI_MAX_HARTS];

void dpi_register_hart(unsigned hart, hpm_t *hpm) {
    if (hart < DPI_MAX_HARTS) dpi_harts[hart] = hpm;
}

static hpm_t *hart_hpm(unsigned hart) {
    if (hart >= DPI_MAX_HARTS || !dpi_harts[hart]) {
        fprintf(stderr, "tracesim: internal error: no HPM model for hart %u\n", hart);
        abort();
    }
    return dpi_harts[hart];
}

unsigned int ts_dpi_csr_read(unsigned int hart, unsigned int addr) {
    uint32_t v = 0;
    hpm_csr_read(hart_hpm(hart), addr, &v);
    return v;
}

void ts_dpi_csr_write(unsigned int hart, unsigned int addr, unsigned int value) {
    hpm_csr_write(hart_hpm(hart), addr, value);
}
