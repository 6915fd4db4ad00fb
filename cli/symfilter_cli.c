/* symfilter_cli.c - the `tracesim symfilter` command: its options, help and usage messages;
 * the filter itself is waves/gtkwave's ts_symfilter_run (symfilter.h). */
#include "symfilter_cli.h"
#include "symfilter.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <stdio.h>

/* `tracesim symfilter`'s options: the parser, --help and docs/commands/waves.md (ts_opts.h) */
static const ts_opt_t symfilter_opts[] = {
    {1, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t symfilter_exits[] = {
    {"0", "stdin ended"},
    {"120", "usage: an unknown option, not exactly one ELF"},
    {"122", "the ELF cannot be opened or read as an ELF"},
    {"126", "stdout cannot be written"},
    {NULL, NULL}};
const ts_cmd_t ts_symfilter_cmd = {
    "symfilter", "tracesim symfilter FW.elf",
    "A GTKWave translate process filter: reads PC values (hex) on stdin, one per line,\n"
    "and prints function+offset from FW.elf's symbols for each (tracesim waves installs it\n"
    "on the PC signals when the run folder names its ELF).\n",
    symfilter_opts, 0, "  one line on stdout per line of stdin, flushed\n", symfilter_exits, NULL};

int ts_symfilter_main(int argc, char **argv) {
    const char *elf = NULL;
    int c, n = 0;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_symfilter_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        if (c == TS_OPTS_ERROR) {
            fprintf(stderr, "tracesim: %s\n", op.err);
            return TS_EXIT_USAGE;
        }
        if (c == TS_OPTS_POSITIONAL) {
            elf = op.arg;
            n++;
        } else {
            ts_cmd_help(stdout, &ts_symfilter_cmd);
            return 0;
        }
    }
    if (n != 1) {
        fprintf(stderr, "tracesim: symfilter needs exactly one ELF file (see tracesim symfilter --help)\n");
        return TS_EXIT_USAGE;
    }
    ts_symfilter_cfg_t cfg = {elf};
    return ts_symfilter_run(&cfg);
}
