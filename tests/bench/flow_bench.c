/* flow_bench.c - program-flow reconstruction speed (tests/bench/flow_speed.sh): decodes
 * TRACE with the code of ELF REPS times in the library, bytes -> messages -> instruction
 * ranges (elements counted, nothing printed), then with the per-instruction listing of
 * `tracesim decode --format instr` written to /dev/null; prints retired instructions per
 * second (best of 3 passes). */
#include "flow_listing.h"
#include "nexus_decode.h"
#include "prog_flow.h"
#include "run_trace.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int count(void *c, const pf_elem_t *e) {
    (void)e;
    ++*(uint64_t *)c;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: flow_bench ELF TRACE REPS\n");
        return 2;
    }
    char err[512];
    size_t len;
    uint8_t *data = (uint8_t *)ts_read_file(argv[2], &len, err, sizeof err);
    pf_image_t img;
    if (!data || pf_image_load(&img, argv[1], err, sizeof err)) {
        fprintf(stderr, "flow_bench: %s\n", err);
        return 1;
    }
    int reps = atoi(argv[3]);
    if (reps < 1) reps = 1;
    double best_e = 0, best_l = 0;
    uint64_t n_e = 0, n_l = 0, elems = 0;
    for (int pass = 0; pass < 3; pass++) {
        static pf_t p;
        pf_init(&p, &img, count, &elems);
        double t0 = now();
        for (int r = 0; r < reps; r++) {
            nxd_t d;
            nxd_cfg_t cfg = {0, 40};
            nxd_init(&d, &cfg);
            nxd_decode(&d, data, len, pf_from_msg, &p);
        }
        double dt = now() - t0;
        n_e = p.instructions;
        if (!pass || (double)n_e / dt > best_e) best_e = (double)n_e / dt;
        pf_free(&p);
        /* the listing */
        FILE *o = fopen("/dev/null", "w");
        ts_flow_t *f = malloc(sizeof *f);
        if (!o || !f || ts_flow_open(f, o, argv[1], true, false, err, sizeof err)) {
            fprintf(stderr, "flow_bench: %s\n", err);
            return 1;
        }
        t0 = now();
        for (int r = 0; r < reps; r++) {
            nxd_t d;
            nxd_cfg_t cfg = {0, 40};
            nxd_init(&d, &cfg);
            nxd_decode(&d, data, len, ts_flow_msg, f);
        }
        n_l = f->pf.instructions;
        ts_flow_close(f, len);
        fclose(o);
        dt = now() - t0;
        if (!pass || (double)n_l / dt > best_l) best_l = (double)n_l / dt;
        free(f);
    }
    printf("trace: %zu bytes x %d, %llu instructions per pass, %llu elements per pass\n", len, reps,
           (unsigned long long)n_e, (unsigned long long)(elems / 3));
    printf("library, to elements:      %.1f M instructions/s\n", best_e / 1e6);
    printf("library, --format instr:   %.1f M instructions/s (listing to /dev/null)\n", best_l / 1e6);
    pf_image_free(&img);
    free(data);
    return 0;
}
