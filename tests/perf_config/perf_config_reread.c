/* perf_config_reread.c - RUN_DIR/itc.csv -> RUN_DIR/perf_config.txt by reading itc.csv back
 * (ts_write_perf_config, what tracesim run did before it collected the headers while the run
 * went): the reference of tests/perf_config/perf_config_live_test.sh. Exit 0 written, 2 no
 * perf header in the stores (no file), 1 an error (one line on stderr). */
#include <stdio.h>
#include "run_trace.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: perf_config_reread RUN_DIR\n");
        return 1;
    }
    char err[600];
    int rc = ts_write_perf_config(argv[1], err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "perf_config_reread: %s\n", err);
        return 1;
    }
    return rc ? 0 : 2;
}
