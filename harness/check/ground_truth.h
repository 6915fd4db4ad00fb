/* ground_truth.h - the `tracesim check` command. */
#ifndef TS_GROUND_TRUTH_H
#define TS_GROUND_TRUTH_H
int ts_check_main(int argc, char **argv);
#endif
