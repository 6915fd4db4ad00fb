/* run_input.h - the RUN_DIR-or-TRACE argument of a command that reads a trace (`tracesim
 * decode`, `tracesim report`): the run folder it names checked (a run that did not finish, the
 * strict reader's checks), the trace file readable, and the ELF to name addresses after
 * (run_folder.h: --elf, else the ELF that ran). One function, so that both commands find
 * their inputs the same way and in the same order. */
#ifndef TS_RUN_INPUT_H
#define TS_RUN_INPUT_H
#include "run_folder.h"
#include <stdbool.h>

typedef struct ts_run_input {
    ts_run_arg_t ra;      /* the argument: the trace file, the run folder (or "") */
    const char *elf;      /* --elf, else the ELF that ran (found), else NULL */
    char elf_found[4400]; /* the ELF found through the run folder */
    char no_elf[4600];    /* an ELF was looked for and none found: the reason (else "") */
} ts_run_input_t;

/* Resolves arg (a run folder or a trace file) in this order: ts_run_arg; a run that did not
 * finish (its line on stderr; TS_RUN_INCOMPLETE refused); the run folder's files (the strict
 * reader, ts_file.h); the trace file can be opened as a regular file; then, when an ELF is
 * wanted from a run folder (want_elf and arg is a folder) or elf_opt (--elf) is given, the
 * ELF (ts_run_elf). 0 with ri filled (the reason in ri->no_elf when no ELF was found: the
 * caller warns or refuses), or TS_EXIT_NO_FILE with the one line already on stderr. */
int ts_run_input(ts_run_input_t *ri, const char *arg, const char *elf_opt, bool want_elf);
/* Only its first steps: ts_run_arg, the unfinished run, the strict reader's checks (for a
 * command that can do without the trace: report -f irq reads the run folder's ground truth) */
int ts_run_input_folder(ts_run_input_t *ri, const char *arg);
#endif
