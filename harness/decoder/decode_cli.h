/* decode_cli.h - the `tracesim decode` command. */
#ifndef TS_DECODE_CLI_H
#define TS_DECODE_CLI_H
int ts_decode_main(int argc, char **argv);
#endif
