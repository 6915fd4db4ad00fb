/* fuzz_perfstore.c - libFuzzer target over the perf decoder's store path
 * (perf_dec_feed_store: what check, waves and the loss counts feed from itc.csv), with
 * timestamps kept to the encoder's 40 bits, every stimulus channel, the trace-off and
 * ended-early cuts, and the profile over the records. Input: byte 0 the channel, then
 * 8-byte stores: hart (4 bits) | op (2 bits) | offset (2 bits), stimulus, 2 bytes of time
 * step, 4 bytes of value; op 3 is a trace-off of that hart instead of a store. A crash, hang,
 * leak or out-of-bounds access is a failure (tests/fuzz/fuzz.cmake: fuzz.perfstore). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf_decode.h"
#include "profile.h"

typedef struct fctx {
    prof_t *prof[PERF_MAX_CORES];
    uint64_t n;
} fctx_t;

static void on_h(void *vc, const perf_header_t *h) {
    fctx_t *c = vc;
    if (h->core >= PERF_MAX_CORES) abort(); /* the decoder's promise */
    if (!c->prof[h->core]) {
        prof_opts_t po;
        memset(&po, 0, sizeof po);
        c->prof[h->core] = prof_new(&po);
    }
    if (c->prof[h->core]) prof_header(c->prof[h->core], h);
}
static void on_r(void *vc, const perf_record_t *r) {
    fctx_t *c = vc;
    c->n++;
    if (r->core < PERF_MAX_CORES && c->prof[r->core]) prof_record(c->prof[r->core], r);
}
static void on_e(void *vc, unsigned core, uint64_t off, const char *what) {
    (void)vc;
    (void)core;
    (void)off;
    (void)what;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    static perf_dec_t d;
    fctx_t c;
    memset(&c, 0, sizeof c);
    perf_dec_cb_t cb = {&c, on_h, on_r, on_e};
    perf_dec_init(&d, data[0] & 31, &cb);
    uint64_t t = 0;
    for (size_t i = 1; i + 8 <= size; i += 8) {
        const uint8_t *p = data + i;
        unsigned hart = p[0] >> 4, op = (p[0] >> 2) & 3, off = p[0] & 3;
        t = (t + (uint64_t)(p[2] | p[3] << 8)) & ((1ull << 40) - 1); /* 40-bit timestamps */
        uint32_t v = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        if (op == 3) perf_dec_trace_off(&d, hart % PERF_MAX_CORES);
        else
            perf_dec_feed_store(&d, hart, p[1] & 31, off, v, t);
    }
    if (size & 1) perf_dec_ended_early(&d);
    perf_dec_finish(&d);
    FILE *devnull = fopen("/dev/null", "w");
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        if (!c.prof[k]) continue;
        prof_finish(c.prof[k]);
        if (devnull) prof_write_text(c.prof[k], devnull);
        prof_free(c.prof[k]);
    }
    if (devnull) fclose(devnull);
    return 0;
}
