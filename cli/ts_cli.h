/* ts_cli.h - the tracesim command line: one dispatcher for every command (cli/tracesim.c).
 * `tracesim` (cli/main.c) is this function; `tracesim-sc` (sim/systemc/ts_sc_main.cpp) calls
 * it with argv[1] = "run". */
#ifndef TS_CLI_H
#define TS_CLI_H
#ifdef __cplusplus
extern "C" {
#endif
/* argv[1] names the command (run, decode, check, report, overhead, waves, symfilter,
 * stmfilter, sweep, help) or is --help / --version; returns the exit status */
int ts_cli_main(int argc, char **argv);
#ifdef __cplusplus
}
#endif
#endif
