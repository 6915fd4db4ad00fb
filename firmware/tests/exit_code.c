/* exit_code.c - exits with CODE (a compile definition): the exit-status rule of tracesim run
 * (sim/exit_codes.h; tests/exit_status_test.sh builds one per boundary). exit(), not a return
 * from main, so that the whole int reaches simctrl EXIT. */
#include <stdlib.h>
int main(void) { exit(CODE); }
