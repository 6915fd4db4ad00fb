/* host_io.c - hostile use of the simctrl host file I/O (tests/host_io_test.sh checks the run
 * folder): the simulator's own file names and a name planted as a symlink land in RUN/host/
 * as new files (status 0); paths, an empty and an over-long name are refused (status 1); a
 * runaway appender is stopped by the run's byte budget (status 5) and MARKs how many 4 KiB
 * chunks got through. */
#include <stdint.h>
#include <string.h>
#include "bsp.h"
#include "check.h"

static const char junk[] = "firmware was here\n";
static char chunk[4096];
static char long_name[301];

int main(void) {
    static const char *const names[] = {"flow.csv", "itc.csv", "counters.csv", "stats.txt", "marks.csv",
                                        "guest_errors.log", "link"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK_EQ(ts_host_write(names[i], junk, sizeof junk - 1, 0), 0);
    CHECK_EQ(ts_host_write("../flow.csv", junk, sizeof junk - 1, 0), 1);
    CHECK_EQ(ts_host_write("..", junk, sizeof junk - 1, 0), 1);
    CHECK_EQ(ts_host_write("/tmp/x", junk, sizeof junk - 1, 0), 1);
    CHECK_EQ(ts_host_write("", junk, sizeof junk - 1, 0), 1);
    memset(long_name, 'n', sizeof long_name - 1);
    CHECK_EQ(ts_host_write(long_name, junk, sizeof junk - 1, 0), 1);
    long_name[255] = 0;                                     /* 255 bytes: the longest name */
    CHECK_EQ(ts_host_write(long_name, junk, sizeof junk - 1, 0), 0);
    unsigned n = 0;
    int st;
    memset(chunk, 'x', sizeof chunk);
    while ((st = ts_host_write("runaway.bin", chunk, sizeof chunk, 1)) == 0) n++;
    CHECK_EQ(st, 5);
    CHECK_EQ(ts_host_write("after.txt", junk, 1, 0), 5);    /* the budget stays used up */
    ts_mark(n);
    return 0;
}
