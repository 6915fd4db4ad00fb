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
/* A whole input file, read-only, for the commands that read big traces (`tracesim decode`).
 * A regular file of TS_MAP_MIN bytes or more is mapped (MAP_POPULATE: the page cache's own
 * pages, no copy and no page fault per 4 KiB; 8 MB in 0.5 ms instead of 6), a smaller one read
 * into memory. Another process cutting a mapped file while it is read would make the lost
 * pages raise SIGBUS: while an input is mapped, a handler ends the process with
 * "tracesim: P was cut while it was being read" and exit 121 (the inputs' code), after
 * removing the output file named by ts_input_remove_on_cut, so nothing half-written stays
 * (a read error of the storage under the file raises SIGBUS too and is reported the same
 * way). Any other SIGBUS goes to the handler that was there before. One input is mapped at a
 * time (a second one is read). */
#define TS_MAP_MIN (1u << 20)
typedef struct ts_input {
    const unsigned char *p;   /* the bytes (NUL-terminated when read, not when mapped) */
    size_t len;
    void *map;                /* the mapping (NULL: p was read into memory) */
    size_t maplen;
} ts_input_t;
/* 0, or -1 with a one-line reason in err (as ts_open_input, or out of memory) */
int ts_input_open(ts_input_t *in, const char *path, char *err, size_t errlen);
void ts_input_close(ts_input_t *in);
/* the output file a cut input leaves behind removed (path copied; NULL: none) */
void ts_input_remove_on_cut(const char *path);

/* fclose with the stream's write errors: 0, or -1 with "cannot write P: reason" in err
 * (the stream is closed either way) */
int ts_fclose_output(FILE *f, const char *path, char *err, size_t errlen);
/* flushes stdout and checks it for write errors (call before exiting a command that wrote
 * its results there): 0, or -1 after printing "tracesim: cannot write the output (stdout): reason" */
int ts_check_stdout(void);
#endif
