/* dpi.c - implementation of the DPI-C imports of rtl_model/core/ts_core.sv. */
#include "dpi.h"
#include <stdio.h>
#include <stdlib.h>

#define DPI_MAX_HARTS 8
static struct dpi_hart {
    hpm_t *hpm;
    dpi_csr_read_hook_t *hook;
    dpi_csr_write_hook_t *whook;
    void *ctx;
} dpi_harts[DPI_MAX_HARTS];

void dpi_register_hart(unsigned hart, hpm_t *hpm, dpi_csr_read_hook_t *hook, dpi_csr_write_hook_t *whook, void *ctx) {
    if (hart < DPI_MAX_HARTS) dpi_harts[hart] = (struct dpi_hart){hpm, hpm ? hook : NULL, hpm ? whook : NULL, ctx};
}

static struct dpi_hart *hart_of(unsigned hart) {
    if (hart >= DPI_MAX_HARTS || !dpi_harts[hart].hpm) {
        fprintf(stderr, "tracesim: internal error: no HPM model for hart %u\n", hart);
        abort();
    }
    return &dpi_harts[hart];
}

/* counters: 0xB00-0xB1F, 0xB80-0xB9F, 0xC00-0xC1F, 0xC80-0xC9F (bits 6:5 clear); the other
 * CSRs the core sends here are mcounteren (0x306) and mcountinhibit/mhpmevent (0x320-0x33F) */
static inline int is_counter(unsigned addr) {
    return (addr & 0xF60u) == 0xB00u || (addr & 0xF60u) == 0xC00u;
}

unsigned int ts_dpi_csr_read(unsigned int hart, unsigned int addr, unsigned int pc) {
    struct dpi_hart *h = hart_of(hart);
    uint32_t v = 0;
    hpm_csr_read(h->hpm, addr, &v);
    if (h->hook && is_counter(addr)) h->hook(h->ctx, hart, pc, addr, v);
    return v;
}

void ts_dpi_csr_write(unsigned int hart, unsigned int addr, unsigned int value) {
    struct dpi_hart *h = hart_of(hart);
    hpm_csr_write(h->hpm, addr, value);
    if (h->whook && addr >= 0x320u && addr <= 0x33Fu) { /* mcountinhibit, mhpmevent3..31 */
        uint32_t v = 0;
        hpm_csr_read(h->hpm, addr, &v);
        h->whook(h->ctx, hart, addr, v);
    }
}

void ts_dpi_set_priv(unsigned int hart, unsigned int priv) {
    hpm_set_priv(hart_of(hart)->hpm, priv);
}
