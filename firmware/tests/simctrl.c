/* simctrl.c - simulation control block: host file I/O (create, append, rejected names and
 * buffers, bad command), MARK, the cycle and instret counters. The files and marks.csv are
 * checked by the test script after the run (tests/CMakeLists.txt). */
#include <stdint.h>
#include <string.h>
#include "bsp.h"
#include "check.h"

static const char text1[] = "first line\n";
static const char text2[] = "second line\n";

int main(void) {
    CHECK_EQ(ts_host_write("out.txt", text1, strlen(text1), 0), 0);
    CHECK_EQ(ts_host_write("out.txt", text2, strlen(text2), 1), 0);
    CHECK_EQ(ts_host_write("../escape.txt", text1, 4, 0), 1);     /* no paths */
    CHECK_EQ(ts_host_write("", text1, 4, 0), 1);
    CHECK_EQ(ts_host_write("x.txt", (void *)0x40000000, 4, 0), 2); /* buffer outside RAM */
    TS_SIMCTRL(FILE_CMD) = 7;
    CHECK_EQ(TS_SIMCTRL(FILE_STATUS), 4);
    ts_mark(0x1234);
    uint64_t c0 = ts_sim_cycles(), i0 = ts_sim_instret();
    for (volatile int i = 0; i < 10; i++) { }
    uint64_t c1 = ts_sim_cycles(), i1 = ts_sim_instret();
    CHECK_EQ(c1 > c0 + 10, 1);
    CHECK_EQ(i1 > i0 + 10, 1);
    CHECK_EQ(i1 - i0 <= c1 - c0, 1);      /* IPC <= 1 */
    ts_mark(0x5678);
    return 42;                            /* the exit status reaches the host */
}
