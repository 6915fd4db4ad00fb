/* help.h - the commands' list (tracesim --help) and `tracesim help`: every command's --help
 * or, with --markdown, its option and exit status tables for its docs page. */
#ifndef TS_CLI_HELP_H
#define TS_CLI_HELP_H
#include <stdio.h>
/* the commands, one line each */
void ts_cli_usage(FILE *f);
/* argv[0] is "help"; the exit status (0, 120 usage) */
int ts_help_main(int argc, char **argv);
#endif
