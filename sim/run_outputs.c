/* run_outputs.c - the trace outputs of a run folder; see run_outputs.h. */
#include "run_outputs.h"
#include "run_trace.h"
#include "ts_file.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int run_write_trace(soc_t *s, char *err, size_t errlen) {
    const sink_t *k = soc_sink(s);
    uint64_t messages = 0, lost = 0, stall = 0, accepted = 0, other = 0;
    unsigned queued = (unsigned)k->fill;
    for (unsigned i = 0; i < s->n; i++) {
        const te_t *t = &s->h[i].te;
        messages += t->messages;
        lost += t->lost;
        stall += t->stall_cycles;
        accepted += t->itc_accepted;
        queued += (unsigned)(t->fifo_count + t->outq_count);
        /* behind a funnel, an encoder whose teSink names its own sink writes there, not into
         * the funnel's sink that trace.rtd holds: say so, or those messages vanish unseen */
        if (s->funnel_on && t->sink.words) {
            other += t->sink.words * t->sink.width;
            if (s->cfg.out_dir)
                fprintf(stderr, "tracesim: warning: hart %u's encoder wrote %llu bytes into its own %s sink (teSink), "
                                "not through the funnel; trace.rtd holds only the funnel's sink\n",
                        i, (unsigned long long)(t->sink.words * t->sink.width), t->sink.kind == SINK_SRAM ? "SRAM" : "SBA");
        }
    }
    if (!s->cfg.out_dir || (!messages && !k->words)) return 0;
    if (k->kind == SINK_SBA && k->limit < k->base) {
        fprintf(stderr, "tracesim: warning: SBA trace buffer limit 0x%08x is below its base 0x%08x; no trace.rtd\n",
                k->limit, k->base);
        return 0;
    }
    uint32_t size = k->kind == SINK_SRAM ? k->sram_size : (k->limit + k->width - k->base);
    uint8_t *img = malloc(size ? size : 1);
    if (!img) {
        snprintf(err, errlen, "out of memory for the trace image");
        return -1;
    }
    uint32_t n = 0, wp = k->wp & ~1u;
    bool wrapped = k->wp & 1u;
    const uint8_t *m = k->kind == SINK_SBA ? bus_ram(&s->bus, k->base, size) : NULL;
    if (k->kind == SINK_SRAM) {
        n = sink_sram_image(k, img, size);
    } else if (m && wp >= k->base && wp <= k->base + size) {
        if (wrapped) {
            memcpy(img, m + (wp - k->base), k->base + size - wp);
            n = k->base + size - wp;
        }
        memcpy(img + n, m, wp - k->base);
        n += wp - k->base;
    } else {
        fprintf(stderr, "tracesim: warning: SBA trace buffer [0x%08x, +%u) is not in RAM; no trace.rtd\n", k->base, size);
        free(img);
        return 0;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/trace.rtd", s->cfg.out_dir);
    FILE *f = ts_fopen_output(path, "wb", err, errlen); /* renamed into place at its close (ts_file.h) */
    if (!f) {
        free(img);
        return -1;
    }
    errno = 0;
    size_t wn = fwrite(img, 1, n, f);
    int we = errno;
    if (ts_fclose_output(f, path, err, errlen) || wn != n) { /* write errors included */
        if (wn != n) snprintf(err, errlen, "cannot write %s: %s", path, we ? strerror(we) : "short write");
        free(img);
        return -1;
    }
    free(img);
    if (queued && !k->stopped)
        fprintf(stderr, "tracesim: warning: %u trace messages/bytes were still queued in the encoder at exit "
                        "(the firmware did not flush: clear teEnable and wait for teEmpty)\n",
                queued);
    const te_t *t0 = &s->h[0].te;
    bool src = t0->cfg.src_bits && !(t0->control & (1u << 15));
    snprintf(path, sizeof path, "%s/trace.json", s->cfg.out_dir);
    f = ts_fopen_output(path, "w", err, errlen);
    if (!f) return -1;
    fprintf(f, "{\n  \"format\": \"tracesim-trace-1\",\n  \"sink\": \"%s\",\n  \"through_funnel\": %s,\n"
               "  \"srcbits\": %u,\n  \"tsbits\": %u,\n  \"sink_width\": %u,\n  \"start\": %u,\n"
               "  \"wp\": %u,\n  \"wrapped\": %s,\n  \"stopped_on_wrap\": %s,\n  \"stopped_at_cycle\": %llu,\n  \"bytes\": %u,\n"
               "  \"messages\": %llu,\n  \"itc_lost\": %llu,\n  \"itc_stall_cycles\": %llu,\n"
               "  \"queued_at_exit\": %u,\n  \"bytes_written\": %llu,\n  \"harts\": %u,\n  \"other_sink_bytes\": %llu",
            k->kind == SINK_SRAM ? "sram" : "sba", s->funnel_on ? "true" : "false",
            src ? t0->cfg.src_bits : 0, t0->cfg.ts_width, k->width, sink_start(k), k->wp,
            wrapped ? "true" : "false", k->stopped ? "true" : "false", (unsigned long long)s->sink_stop_cycle, n,
            (unsigned long long)messages, (unsigned long long)lost,
            (unsigned long long)stall, queued, (unsigned long long)(k->words * k->width), s->n, (unsigned long long)other);
    /* timestamp = cycle + ts_cycle_offset for every traced ITC store and software event (the
     * cycle of its itc.csv / stm.csv row); absent when none was timed or the relation varied */
    if (s->ts_rel_seen && !s->ts_rel_varies) fprintf(f, ",\n  \"ts_cycle_offset\": %lld", (long long)s->ts_rel);
    fputs("\n}\n", f);
    if (ts_fclose_output(f, path, err, errlen)) return -1; /* write errors included */
    /* perf_config.txt: the perf header out of band, for decoding a trace that lost it */
    if (s->h[0].gt.itc && accepted) {
        char perr[512];
        gt_log_itc_flush(&s->h[0].gt);
        if (ferror(s->h[0].gt.itc)) return 0; /* itc.csv not written: the run fails at its close */
        perf_header_t h[PERF_MAX_CORES];
        unsigned ch = 6;
        int nh = perf_live_headers(&s->perf_live, h, PERF_MAX_CORES, &ch, perr, sizeof perr);
        if (nh < 0 || ts_write_perf_config_headers(s->cfg.out_dir, h, (unsigned)nh, ch, perr, sizeof perr) < 0)
            fprintf(stderr, "tracesim: warning: no perf_config.txt: %s\n", perr);
    }
    return 0;
}
