/* stmfilter_cli.c - the `tracesim stmfilter` command: its options, help and usage messages;
 * the filter itself is waves/gtkwave's ts_stmfilter_run (stmfilter.h). */
#include "stmfilter_cli.h"
#include "stmfilter.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <stdio.h>

/* `tracesim stmfilter`'s options: the parser, --help and docs/commands/waves.md (ts_opts.h) */
static const ts_opt_t stmfilter_opts[] = {
    {1, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t stmfilter_exits[] = {
    {"0", "stdin ended"},
    {"120", "usage: an unknown option, an argument"},
    {"126", "stdout cannot be written"},
    {NULL, NULL}};
const ts_cmd_t ts_stmfilter_cmd = {
    "stmfilter", "tracesim stmfilter",
    "A GTKWave translate process filter: reads software trace event ids (stm_id_o, hex) on\n"
    "stdin, one per line, and prints each as its group and name from rtl_model/regs/stm.def\n"
    "(USER 0x0012, COM THREAD_NAME, SYS THREAD_SWITCH, RSVD 0x8123, SYS 0xc001); the\n"
    "waves views install it on stm_id_o (waves/make_view.sh).\n",
    stmfilter_opts, 0, "  one line on stdout per line of stdin, flushed\n", stmfilter_exits, NULL};

int ts_stmfilter_main(int argc, char **argv) {
    int c;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_stmfilter_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        if (c == TS_OPTS_ERROR) {
            fprintf(stderr, "tracesim: %s\n", op.err);
            return TS_EXIT_USAGE;
        }
        if (c == TS_OPTS_POSITIONAL) {
            fprintf(stderr, "tracesim: stmfilter takes no arguments (see tracesim stmfilter --help)\n");
            return TS_EXIT_USAGE;
        }
        ts_cmd_help(stdout, &ts_stmfilter_cmd);
        return 0;
    }
    return ts_stmfilter_run();
}
