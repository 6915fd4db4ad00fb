/* decode_bench.c - decoder throughput: MB/s of Nexus bytes to messages, and to perf records.
 *   decode_bench TRACE.rtd [ROUNDS [messages|perf|json]]   (tests/bench/decode_speed.sh makes
 * the trace; naming one path runs only that one, so that callgrind counts its host
 * instructions alone: `valgrind --tool=callgrind decode_bench T 1 messages`; json: the
 * messages and their JSON lines (msg_json.h, `decode -f messages`) written to /dev/null,
 * only with its name) */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "msg_json.h"
#include "nexus_decode.h"
#include "perf_decode.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int count(void *ctx, const nxd_msg_t *m) {
    (*(uint64_t *)ctx) += m->len;
    return 0;
}
static void on_r(void *ctx, const perf_record_t *r) { (*(uint64_t *)ctx) += r->n; }
static int feed(void *ctx, const nxd_msg_t *m) {
    perf_dec_feed(ctx, m);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: decode_bench TRACE.rtd [ROUNDS [messages|perf|json]]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    const char *only = argc > 3 ? argv[3] : "";
    bool run_j = !strcmp(only, "json");
    bool run_m = strcmp(only, "perf") != 0 && !run_j, run_p = strcmp(only, "messages") != 0 && !run_j;
    if (*only && run_m && run_p) {
        fprintf(stderr, "decode_bench: '%s' is not messages, perf or json\n", only);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "read failed\n");
        return 1;
    }
    fclose(f);
    nxd_cfg_t cfg = {0, 40};
    double best_m = 1e9, best_p = 1e9, best_j = 1e9;
    static mj_t jc;
    FILE *devnull = run_j ? fopen("/dev/null", "w") : NULL;
    if (run_j && !devnull) {
        perror("/dev/null");
        return 1;
    }
    if (devnull) setvbuf(devnull, NULL, _IONBF, 0); /* as decode -f messages: the blocks go out uncopied */
    uint64_t msgs = 0, recs = 0, vals = 0;
    for (int r = 0; r < rounds; r++) {
        nxd_t d;
        double t0, t1;
        if (run_m) {
            nxd_init(&d, &cfg);
            uint64_t bytes = 0;
            t0 = now();
            nxd_decode(&d, b, (size_t)n, count, &bytes);
            t1 = now();
            if (t1 - t0 < best_m) best_m = t1 - t0;
            msgs = d.messages;
        }
        if (run_j) {
            nxd_init(&d, &cfg);
            mj_init(&jc, devnull, false);
            t0 = now();
            mj_decode(&jc, &d, b, (size_t)n);
            mj_flush(&jc);
            t1 = now();
            if (t1 - t0 < best_j) best_j = t1 - t0;
            msgs = d.messages;
        }
        if (!run_p) continue;
        nxd_init(&d, &cfg);
        perf_dec_t pd;
        uint64_t v = 0;
        perf_dec_cb_t cb = {&v, NULL, on_r, NULL};
        perf_dec_init(&pd, 6, &cb);
        t0 = now();
        nxd_decode(&d, b, (size_t)n, feed, &pd);
        perf_dec_finish(&pd);
        t1 = now();
        if (t1 - t0 < best_p) best_p = t1 - t0;
        recs = pd.records;
        vals = v;
    }
    printf("decode_bench: %.1f MB trace, %llu messages, %llu perf records (%llu values)\n",
           (double)n / 1e6, (unsigned long long)msgs, (unsigned long long)recs, (unsigned long long)vals);
    if (run_m) printf("bytes -> messages:     %7.1f MB/s (best of %d)\n", (double)n / 1e6 / best_m, rounds);
    if (run_j) printf("bytes -> JSON lines:   %7.1f MB/s (best of %d)\n", (double)n / 1e6 / best_j, rounds);
    if (run_p) printf("bytes -> perf records: %7.1f MB/s (best of %d)\n", (double)n / 1e6 / best_p, rounds);
    if (devnull) fclose(devnull);
    free(b);
    return 0;
}
