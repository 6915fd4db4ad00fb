/* run_input.c - a trace-reading command's RUN_DIR-or-TRACE argument (run_input.h). */
#include "run_input.h"
#include "ts_file.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int ts_run_input_folder(ts_run_input_t *ri, const char *arg) {
    char err[4600];
    ri->elf = NULL;
    ri->elf_found[0] = ri->no_elf[0] = 0;
    ts_run_arg(arg, &ri->ra);
    if (ri->ra.run_dir[0] && ts_run_say_unfinished(ri->ra.run_dir) == TS_RUN_INCOMPLETE) return TS_EXIT_NO_FILE;
    if (ri->ra.run_dir[0] && ts_run_folder_check(ri->ra.run_dir, err, sizeof err)) { /* the strict reader (ts_file.h) */
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    return 0;
}

int ts_run_input(ts_run_input_t *ri, const char *arg, const char *elf_opt, bool want_elf) {
    char err[4600];
    int st = ts_run_input_folder(ri, arg);
    if (st) return st;
    ri->elf = elf_opt;
    int fd = ts_open_input(ri->ra.trace, err, sizeof err); /* a regular file, before the ELF is looked at */
    if (fd < 0) {
        fprintf(stderr, "tracesim: %s\n", err);
        return TS_EXIT_NO_FILE;
    }
    close(fd);
    if ((ri->ra.is_dir && want_elf) || elf_opt) { /* the run's ELF, or a check of --elf against it */
        int er = ts_run_elf(ri->ra.run_dir, elf_opt, ri->elf_found, sizeof ri->elf_found, ri->no_elf, sizeof ri->no_elf);
        if (er < 0) {
            fprintf(stderr, "tracesim: %s\n", ri->no_elf);
            return TS_EXIT_NO_FILE;
        }
        if (er) {
            ri->elf = ri->elf_found;
            ri->no_elf[0] = 0;
        }
    }
    return 0;
}
