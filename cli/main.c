/* main.c - the tracesim executable: every command through the dispatcher (ts_cli.h). */
#include "ts_cli.h"
int main(int argc, char **argv) { return ts_cli_main(argc, argv); }
