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

/* RV64: the register whose high word is the HPM model's CSR hi_of(addr), or 0 for a 32-bit
 * one: the counters (their `h` halves, +0x80) and mhpmevent3..31 (mhpmevent3h..31h, +0x400:
 * Sscofpmf's OF, xINH bits are mhpmeventN's 63:56 on RV64) */
static unsigned hi_of(unsigned addr) {
    if (is_counter(addr)) return addr + 0x80u;
    if (addr >= 0x323u && addr <= 0x33Fu) return addr + 0x400u;
    return 0;
}

unsigned long long ts_dpi_csr_read64(unsigned int hart, unsigned int addr, unsigned int pc) {
    struct dpi_hart *h = hart_of(hart);
    uint32_t lo = 0, hi = 0;
    unsigned ha = hi_of(addr);
    hpm_csr_read(h->hpm, addr, &lo);
    if (ha) hpm_csr_read(h->hpm, ha, &hi);
    /* counters.csv: the low word (its values are 32-bit; the 64-bit trace path is to come) */
    if (h->hook && is_counter(addr)) h->hook(h->ctx, hart, pc, addr, lo);
    return (unsigned long long)hi << 32 | lo;
}

void ts_dpi_csr_write64(unsigned int hart, unsigned int addr, unsigned long long value) {
    unsigned ha = hi_of(addr);
    /* the high word first: a write of mhpmeventN sets its OF/xINH bits (mhpmeventNh) before
     * the low word, whose hook logs the register as it is after both */
    if (ha) hpm_csr_write(hart_of(hart)->hpm, ha, (uint32_t)(value >> 32));
    ts_dpi_csr_write(hart, addr, (uint32_t)value);
}

void ts_dpi_set_priv(unsigned int hart, unsigned int priv) {
    hpm_set_priv(hart_of(hart)->hpm, priv);
}
