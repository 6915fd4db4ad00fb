/* pftrace_bench.c - the Perfetto writers' cost (not a test: tests/bench/pftrace_size.sh prints
 * the figures for docs/performance.md). `pftrace_bench FORMAT N OUT` writes N synthetic perf
 * records as FORMAT (perfetto: pftrace.h; timeline: timeline.h's JSON) into OUT and prints
 * "FORMAT N BYTES SECONDS MAXRSS_KIB". The records: one hart, two counters (cycles,
 * instret), a call tree of depth 1..8 over 64 functions (enter/exit pairs, every 16th record
 * a manual one), 40 to 200 cycles apart: the shape of an -finstrument-functions run, without
 * the decode (tests/bench/decode_speed.sh measures that). */
#include "pftrace.h"
#include "timeline.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: pftrace_bench perfetto|timeline N OUT\n");
        return 2;
    }
    bool pf = !strcmp(argv[1], "perfetto");
    uint64_t n = strtoull(argv[2], NULL, 0);
    FILE *out = fopen(argv[3], "wb");
    if (!out) return 1;
    static char buf[1 << 20];
    setvbuf(out, buf, _IOFBF, sizeof buf);
    /* 64 functions of a synthetic ELF: 0x80001000 + 0x100 * i, named f0..f63 */
    static elf_sym_t sym[64];
    static char names[64][8];
    for (unsigned i = 0; i < 64; i++) {
        snprintf(names[i], sizeof names[i], "f%u", i);
        sym[i] = (elf_sym_t){.addr = 0x80001000u + 0x100u * i, .size = 0x100, .name = names[i]};
    }
    elf_syms_t syms = {.s = sym, .n = 64};
    ts_tl_time_t tt = {.cycles = true, .offset = 0, .us_per_tick = 0.01};
    perf_header_t h = {.core = 0, .n = 2, .tics_valid = true, .tics = 0};
    h.def[0].index = 0;
    h.def[1].index = 2;
    h.def[0].code = 1; /* cycles */
    h.def[1].code = 2; /* instructions */
    ts_pf_t *p = NULL;
    static ts_tl_t tl;
    double t0 = now();
    if (pf) {
        p = ts_pf_open(out, &syms, NULL, NULL, &tt);
        if (!p) return 1;
        ts_pf_header(p, &h);
    } else {
        tl = (ts_tl_t){.out = out, .syms = &syms, .time = tt, .first = true};
        ts_tl_begin(out, &tt);
        ts_tl_header(&tl, &h);
    }
    uint64_t seed = 12345, tics = 0, cyc = 0, ins = 0;
    unsigned stack[16], depth = 0;
    for (uint64_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned rnd = (unsigned)(seed >> 33);
        uint64_t d = 40 + rnd % 161;
        tics += d;
        cyc += d;
        ins += d / 2;
        perf_record_t r = {.core = 0, .has_addr = true, .tics_valid = true, .tics = tics, .n = 2};
        r.index[0] = 0;
        r.index[1] = 2;
        r.value[0] = cyc;
        r.value[1] = ins;
        r.delta[0] = d;
        r.delta[1] = d / 2;
        if (i % 16 == 15) {
            r.type = PERF_MANUAL;
            r.addr = sym[depth ? stack[depth - 1] : 0].addr + 0x40;
        } else if (depth == 0 || (depth < 8 && rnd % 2)) {
            unsigned f = rnd / 2 % 64;
            r.type = PERF_FUNC_ENTER;
            r.addr = sym[f].addr;
            r.has_call_site = true;
            r.call_site = (depth ? sym[stack[depth - 1]].addr : 0x80000100u) + 0x20 + 4 * (rnd / 128 % 8);
            stack[depth++] = f;
        } else {
            unsigned f = stack[--depth];
            r.type = PERF_FUNC_EXIT;
            r.addr = sym[f].addr;
            r.has_call_site = true;
            r.call_site = (depth ? sym[stack[depth - 1]].addr : 0x80000100u) + 0x20;
        }
        if (pf) ts_pf_record(p, &r);
        else
            ts_tl_record(&tl, &r);
    }
    if (pf) ts_pf_close(p);
    else
        fputs("\n]}\n", out);
    if (fflush(out) || ferror(out)) return 1;
    long bytes = ftell(out);
    fclose(out);
    double secs = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%s %" PRIu64 " %ld %.3f %ld\n", argv[1], n, bytes, secs, ru.ru_maxrss);
    return 0;
}
