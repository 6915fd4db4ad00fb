/* fuzz_check.c - libFuzzer target over `tracesim check` on a run folder whose ground truth
 * was forged: a real run folder (FUZZ_CHECK_RUN, made by the fuzz.check test's fixture) is
 * copied to a scratch folder once; each input replaces one of its files (the first byte picks
 * counters.csv, flow.csv, hooks.csv, hpm_writes.csv, stm.csv, itc.csv, trace.json or
 * stats.txt) with the rest of the input, runs the whole check (stdout to /dev/null), and puts
 * the file back. A crash, hang, leak or out-of-bounds access is a failure
 * (tests/fuzz/fuzz.cmake: fuzz.check). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ground_truth.h"

#define STR2(x) #x
#define STR(x) STR2(x)
static char dir[64];
static const char *const files[] = {"counters.csv", "flow.csv", "hooks.csv", "hpm_writes.csv", "stm.csv", "itc.csv",
                                    "trace.json", "stats.txt"};
#define NFILES (sizeof files / sizeof files[0])
static char *orig[NFILES];
static size_t orig_len[NFILES];

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}
static void put(const char *name, const void *data, size_t len) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (len) fwrite(data, 1, len, f);
    fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/fuzz_check.XXXXXX");
    if (!mkdtemp(dir)) abort();
    static const char *const all[] = {"counters.csv", "flow.csv", "hooks.csv", "hpm_writes.csv", "stm.csv", "itc.csv",
                                      "trace.json", "stats.txt", "trace.rtd", "perf_config.txt", "marks.csv"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", STR(FUZZ_CHECK_RUN), all[i]);
        char *b = slurp(path, &len);
        if (!b) continue;
        put(all[i], b, len);
        for (size_t k = 0; k < NFILES; k++)
            if (!strcmp(files[k], all[i])) {
                orig[k] = b;
                orig_len[k] = len;
                b = NULL;
            }
        free(b);
    }
    if (!orig[0]) {
        fprintf(stderr, "fuzz_check: no run folder at %s\n", STR(FUZZ_CHECK_RUN));
        abort();
    }
    if (!freopen("/dev/null", "w", stdout)) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    size_t k = data[0] % NFILES;
    put(files[k], data + 1, size - 1);
    ts_check_cfg_t cfg = {dir, NULL, NULL, 6}; /* `tracesim check DIR` without its option parsing */
    ts_check_run(&cfg);
    fflush(stdout);
    put(files[k], orig[k], orig_len[k]);
    return 0;
}
