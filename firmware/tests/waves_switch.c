/* waves_switch.c - switches waveform dumping on and off through simctrl WAVES around a
 * region, marking the cycles where it did (marks.csv): value 1 = switched on, 2 = off. */
#include "bsp.h"

static volatile unsigned sink;

int main(void) {
    for (int i = 0; i < 50; i++) sink += (unsigned)i;
    ts_mark(1);
    TS_SIMCTRL(WAVES) = 1;
    for (int i = 0; i < 20; i++) sink += (unsigned)i;
    TS_SIMCTRL(WAVES) = 0;
    ts_mark(2);
    for (int i = 0; i < 50; i++) sink += (unsigned)i;
    return 0;
}
