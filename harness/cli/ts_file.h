/* ts_file.h - opening input files that may be hostile, and closing output files so that a
 * failed write is never silent.
 *
 * Inputs (ELFs, traces, run-folder files, specs) are opened without blocking and must be
 * regular files: a FIFO, a device or a folder given as an input is refused at once instead
 * of blocking the command for ever. Outputs are closed with their write errors checked
 * (a full disk, /dev/full): the caller prints the one-line reason and exits non-zero. */
#ifndef TS_FILE_H
#define TS_FILE_H
#include <stddef.h>
#include <stdio.h>

/* a read-only descriptor of a regular file; -1 with "cannot open P: reason" or "P is not a
 * regular file" in err */
int ts_open_input(const char *path, char *err, size_t errlen);
/* the same as a stdio stream ("rb") */
FILE *ts_fopen_input(const char *path, char *err, size_t errlen);
/* fclose with the stream's write errors: 0, or -1 with "cannot write P: reason" in err
 * (the stream is closed either way) */
int ts_fclose_output(FILE *f, const char *path, char *err, size_t errlen);
/* flushes stdout and checks it for write errors (call before exiting a command that wrote
 * its results there): 0, or -1 after printing "tracesim: cannot write the output: reason" */
int ts_check_stdout(void);
#endif
