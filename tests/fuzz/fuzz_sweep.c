/* fuzz_sweep.c - libFuzzer target over the sweep spec reader: JSON (sweep_json.c), the spec's
 * checks (sweep_spec.c) and, for specs that pass, the plan (points, names, options) with
 * {build} pointing at a folder that holds fw.elf, so that specs naming "{build}/fw.elf" plan
 * all the way. A crash, hang, leak, out-of-bounds access or a run time that grows faster
 * than the input (the -timeout) is a failure (tests/fuzz/fuzz.cmake: fuzz.sweep). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sweep_spec.h"

static char build[64];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    snprintf(build, sizeof build, "/tmp/fuzz_sweep.XXXXXX");
    if (!mkdtemp(build)) abort();
    char fw[128];
    snprintf(fw, sizeof fw, "%s/fw.elf", build);
    FILE *f = fopen(fw, "w");
    if (!f) abort();
    fclose(f);
    return 0;
}

int LLVMFuzzerTestOneInput(const char *data, size_t size);
int LLVMFuzzerTestOneInput(const char *data, size_t size) {
    sw_spec_t s;
    char err[512];
    if (sw_spec_parse(&s, data, size, "fuzz.json", err, sizeof err)) {
        sw_spec_free(&s);
        return 0;
    }
    sw_plan_t p;
    if (sw_plan(&s, NULL, build, &p, err, sizeof err) == 0) {
        for (size_t i = 0; i < p.n && i < 64; i++)
            for (int b = 0; b < (int)s.n_baselines; b++) sw_plan_baseline(&s, &p, &p.points[i], b);
        sw_plan_free(&p);
    }
    sw_spec_free(&s);
    return 0;
}
