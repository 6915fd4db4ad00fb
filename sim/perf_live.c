/* perf_live.c - the perf headers of a run's ITC stores; see perf_live.h. */
#include "perf_live.h"
#include <stdio.h>
#include <stdlib.h>

struct perf_live_ch {
    perf_dec_t dec;
    perf_header_t h[PERF_MAX_CORES]; /* the last header of each hart */
    bool have[PERF_MAX_CORES];
};

static void on_header(void *ctx, const perf_header_t *h) {
    struct perf_live_ch *c = ctx;
    c->h[h->core % PERF_MAX_CORES] = *h;
    c->have[h->core % PERF_MAX_CORES] = true;
}

void perf_live_store(perf_live_t *p, unsigned hart, unsigned stim, unsigned off, unsigned size, uint32_t value) {
    unsigned ch = stim & 15;
    struct perf_live_ch *c = p->ch[ch];
    if (!c) {
        if (size != TS_PW_BYTES_HEADER_MARKER || value != TS_PW_MARKER || p->oom) return;
        if (!(c = calloc(1, sizeof *c))) {
            p->oom = true;
            return;
        }
        perf_dec_cb_t cb = {c, on_header, NULL, NULL};
        perf_dec_init(&c->dec, ch, &cb);
        p->ch[ch] = c;
    }
    perf_dec_feed_store(&c->dec, hart, ch, off & 3, value, 0);
}

int perf_live_headers(const perf_live_t *p, perf_header_t *h, unsigned max, unsigned *channel, char *err, size_t errlen) {
    if (p->oom) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (unsigned ch = 0; ch < 16; ch++) {
        const struct perf_live_ch *c = p->ch[ch];
        unsigned n = 0;
        for (unsigned k = 0; c && k < PERF_MAX_CORES && n < max; k++)
            if (c->have[k]) h[n++] = c->h[k];
        if (n) {
            if (channel) *channel = ch;
            return (int)n;
        }
    }
    return 0;
}

void perf_live_free(perf_live_t *p) {
    for (unsigned ch = 0; ch < 16; ch++) {
        free(p->ch[ch]);
        p->ch[ch] = NULL;
    }
}
