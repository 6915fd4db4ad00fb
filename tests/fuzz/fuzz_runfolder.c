/* fuzz_runfolder.c - libFuzzer target over every reader of a run folder that `check`,
 * `report`, `decode`, `waves` and the loss counts use on folders users send each other:
 * trace.json (typed JSON), stats.txt (the ELF and waves lookups), itc.csv (rows, perf headers
 * from the stores), perf_config.txt, marks.csv, trace_events.csv, stm.csv (the markers). The
 * first input byte picks the file, the rest is its content, written into a scratch run folder
 * whose other files are absent. A crash, hang, leak or out-of-bounds access is a failure
 * (tests/fuzz/fuzz.cmake: fuzz.runfolder). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run_trace.h"
#include "markers.h"
#include "perf_decode.h"
#include "run_folder.h"
#include "run_losses.h"
#include "ts_run_json.h"

static char dir[64];
static const char *const files[] = {"trace.json", "stats.txt", "itc.csv", "perf_config.txt", "marks.csv",
                                    "trace_events.csv", "stm.csv"};
#define NFILES (sizeof files / sizeof files[0])

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/fuzz_runfolder.XXXXXX");
    if (!mkdtemp(dir)) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    char path[256], err[1024], out[4400];
    for (size_t i = 0; i < NFILES; i++) { /* only the chosen file exists */
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/%s", dir, files[data[0] % NFILES]);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);

    ts_trace_json_t tj;
    snprintf(path, sizeof path, "%s/trace.json", dir);
    ts_trace_json_read(path, &tj, err, sizeof err);
    ts_run_stat(dir, "elf", out, sizeof out);
    ts_run_path(dir, "waves", out, sizeof out);
    ts_run_elf(dir, NULL, out, sizeof out, err, sizeof err);
    perf_header_t h[PERF_MAX_CORES];
    unsigned ch = 6;
    snprintf(path, sizeof path, "%s/perf_config.txt", dir);
    ts_read_perf_config(path, h, PERF_MAX_CORES, &ch, err, sizeof err);
    snprintf(path, sizeof path, "%s/itc.csv", dir);
    ts_perf_headers_from_itc(path, -1, h, PERF_MAX_CORES, &ch, err, sizeof err);
    ts_losses_t l;
    if (!ts_losses_read(dir, -1, &l, err, sizeof err)) {
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull) {
            ts_losses_print(devnull, "# ", &l);
            fclose(devnull);
        }
    }
    ts_markers_t ms;
    if (!ts_markers_read(&ms, dir, NULL, err, sizeof err)) ts_markers_free(&ms);
    return 0;
}
