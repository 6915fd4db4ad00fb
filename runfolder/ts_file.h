/* ts_file.h - the run-folder I/O module (runfolder/, docs/internals.md "Untrusted input"):
 * opening input files that may be hostile, and writing every output so that it can neither
 * be redirected nor left half-written, and a failed write is never silent.
 *
 * Outputs (every file a command writes: run-folder files, -o paths, generated scripts and
 * views) are written to a temporary file created beside the final name with
 * O_CREAT|O_EXCL|O_NOFOLLOW (".NAME.XXXXXX.tmp" in the same folder) and renamed over the name
 * when they are complete (ts_fclose_output / ts_close_output). A symlink planted under the
 * name is replaced, never followed; a FIFO under the name is replaced, never opened; a folder
 * under the name is refused with one line. The mode is set with fchmod on the temporary
 * file's descriptor (never chmod through a name). A write error (a full disk, /dev/full)
 * removes the temporary file: the name keeps what it had. Temporary files of outputs not
 * closed when the process exits (an error path that returns without closing) are removed at
 * exit. "-" is never an output name here: the commands keep stdout for it.
 *
 * Inputs (ELFs, traces, run-folder files, specs) are opened without blocking and must be
 * regular files: a FIFO, a device or a folder given as an input is refused at once instead
 * of blocking the command for ever. Outputs are closed with their write errors checked
 * (a full disk, /dev/full): the caller prints the one-line reason and exits non-zero. */
#ifndef TS_FILE_H
#define TS_FILE_H
#include <stddef.h>
#include <stdio.h>

/* The strict reader. A run-folder file (its file name is one of run_files.def's, wherever it
 * lies) is opened without following a link ("P is a link: ..."), and refused when it is larger
 * than its kind's cap ("P is N bytes: more than ..."); any input must be a regular file. */
enum { RF_TEXT,
       RF_CSV,
       RF_JSON,
       RF_BIN,
       RF_DIR };
typedef struct ts_run_file {
    const char *name;
    int kind;
    unsigned long long cap; /* bytes */
    const char *cap_text;
    int empty_ok;
    const char *readers; /* the commands that read it ("-", "GTKWave": none of ours) */
    const char *writer;  /* the command that writes it */
    const char *header;  /* a CSV's header line (run_files.def says how it is matched); NULL: none */
} ts_run_file_t;
extern const ts_run_file_t ts_run_files[]; /* run_files.def, NULL-terminated */
/* the entry of path's file name, or NULL when it is not a run-folder file */
const ts_run_file_t *ts_run_file(const char *path);
/* Every run-folder file a tracesim command reads (readers not "-" or "GTKWave": the outputs
 * of `waves` are replaced, not read) that is in run_dir (by lstat) as the strict reader would take it: a
 * regular file, no link, within its cap, a CSV with its header line (run_files.def; an empty
 * one only when the table allows it). 0, or -1 with the reason for the first that is not
 * (as ts_open_input says it, or "P:1: not the header of ...") in err. Commands call it on the run folder they are given
 * before reading anything, so an optional file is refused as surely as a required one. */
int ts_run_folder_check(const char *run_dir, char *err, size_t errlen);
/* The run folder named by `tracesim run -o DIR` when DIR exists: its files are replaced only
 * when DIR is a previous run folder, recognised by the first line of a file run writes (a
 * CSV's header from run_files.def, stats.txt's "elf " line, trace.json's "format": "tracesim-trace-1"), or holds none
 * of run's files (as regular files with content), or force is set. 0: may write; -1 with "DIR
 * holds NAME and is not a previous run folder of tracesim run (use --force ...)" in err. */
int ts_run_folder_may_replace(const char *dir, int force, char *err, size_t errlen);
/* a read-only descriptor of a regular file; -1 with "cannot open P: reason" or "P is not a
 * regular file" in err */
int ts_open_input(const char *path, char *err, size_t errlen);
/* the same as a stdio stream ("rb") */
FILE *ts_fopen_input(const char *path, char *err, size_t errlen);
/* A whole input file, read-only, for the commands that read big traces (`tracesim decode`).
 * A regular file of TS_MAP_MIN bytes or more is mapped (MAP_POPULATE: the page cache's own
 * pages, no copy and no page fault per 4 KiB, far cheaper than reading), a smaller one read
 * into memory. Another process cutting a mapped file while it is read would make the lost
 * pages raise SIGBUS: while an input is mapped, a handler ends the process with
 * "tracesim: P was cut while it was being read" and exit 121 (the inputs' code), after
 * removing the output file named by ts_input_remove_on_cut, so nothing half-written stays
 * (a read error of the storage under the file raises SIGBUS too and is reported the same
 * way). Any other SIGBUS goes to the handler that was there before. One input is mapped at a
 * time (a second one is read). */
/* the exit status of a process whose mapped input was cut: 121, the inputs' status
 * (TS_EXIT_NO_FILE of rtl_model/regs/exit_status.def). The run-folder module includes no
 * other module, so it names the number here; cli/tracesim.c asserts at compile time that
 * the two agree. */
#define TS_FILE_EXIT_CUT 121
#define TS_MAP_MIN (1u << 20)
typedef struct ts_input {
    const unsigned char *p; /* the bytes (NUL-terminated when read, not when mapped) */
    size_t len;
    void *map; /* the mapping (NULL: p was read into memory) */
    size_t maplen;
} ts_input_t;
/* 0, or -1 with a one-line reason in err (as ts_open_input, or out of memory) */
int ts_input_open(ts_input_t *in, const char *path, char *err, size_t errlen);
void ts_input_close(ts_input_t *in);
/* the output file a cut input leaves behind removed (path copied; NULL: none) */
void ts_input_remove_on_cut(const char *path);

/* An output stream for path (mode "w", "wb", or "wx": a script, 0777 less the umask; else
 * 0666 less the umask): a temporary file beside path that ts_fclose_output renames over
 * path. NULL with "cannot create P: reason" in err. A 'u' in mode marks a path the user
 * named as an explicit output (--retire-log, --waves, --record-trace-bus): when it is a path
 * under /dev/ or /proc/self/fd/ that is (or links to) a character device (/dev/null,
 * /dev/stdout) it is written in place; any other link is replaced, never followed. Tests: TRACESIM_TEST_FULL=NAME makes the output whose file
 * name is NAME write to /dev/full (a full disk without a link under the name). */
FILE *ts_fopen_output(const char *path, const char *mode, char *err, size_t errlen);
/* the same as a descriptor; mode as open()'s (0666: a file, 0777: a script), less the umask,
 * | TS_OUTPUT_USER for a path the user named (as 'u' above) */
#define TS_OUTPUT_USER 0x10000u
int ts_open_output(const char *path, unsigned mode, char *err, size_t errlen);
/* the temporary file's name of an output opened above (NULL: f is not one) */
const char *ts_output_tmp_name(FILE *f);
/* fclose with the stream's write errors: 0, or -1 with "cannot write P: reason" in err
 * (the stream is closed either way). A stream from ts_fopen_output is renamed over its name
 * on success and removed on failure. */
int ts_fclose_output(FILE *f, const char *path, char *err, size_t errlen);
/* the same for a descriptor from ts_open_output (fsync-free; close errors checked) */
int ts_close_output(int fd, const char *path, char *err, size_t errlen);
/* an output given up: its temporary file removed, the name untouched */
void ts_output_abort(FILE *f);
void ts_output_abort_fd(int fd);
/* A log another process writes while it runs (a child's stdout/stderr, read while it grows,
 * so it cannot be renamed into place at the end): whatever is under the name (a planted link,
 * a FIFO, an older log) is removed first, then the name is created with
 * O_CREAT|O_EXCL|O_NOFOLLOW, so nothing outside the folder is written. The descriptor (for
 * posix_spawn's dup2; the caller closes it), or -1 with "cannot create P: reason" in err. */
int ts_open_log(const char *path, char *err, size_t errlen);
/* every output still open given up (their temporary files removed); also run at exit */
void ts_outputs_abort_all(void);

/* Overwrite policy of explicit output paths (-o FILE, --retire-log, --waves, ...): an
 * existing file under the name is replaced only when it is not a regular file with content
 * (absent, empty, a link, a FIFO: the writer replaces the name itself), when force is set,
 * or when `is_ours` (may be NULL) recognises its content as a previous output of the same
 * command (is_ours gets the first bytes, up to 4096). 0: may write; -1 with "P exists and is
 * not a previous output of tracesim CMD (use --force to replace it)" in err. */
int ts_output_may_replace(const char *path, const char *cmd, int force,
                          int (*is_ours)(const unsigned char *head, size_t n), char *err, size_t errlen);
/* the recognisers of `tracesim run`'s explicit outputs, by their first bytes: the waves (an
 * FST header block: type 0, section length 329 big-endian; or a VCD: '$' after blanks), the
 * retire log (lines "[hN ]CYCLE PC8 INSN8|trap ..."), the trace bus log ("# tracesim-trace-bus-1") */
int ts_is_waves_output(const unsigned char *head, size_t n);
int ts_is_retire_log(const unsigned char *head, size_t n);
int ts_is_trace_bus_log(const unsigned char *head, size_t n);
/* flushes stdout and checks it for write errors (call before exiting a command that wrote
 * its results there): 0, or -1 after printing "tracesim: cannot write the output (stdout): reason" */
int ts_check_stdout(void);
/* a lock file (flock): opened read-write, made if absent (mode 0666 less the umask), never
 * truncated, never through a link (O_NOFOLLOW), and only a regular file (else -1, errno
 * EINVAL); cloexec: not inherited by a child. The descriptor, or -1 with errno. */
int ts_open_lock_file(const char *path, int cloexec);
/* the temporary files a writer killed before its close left for NAME in DIR (".NAME.*.tmp",
 * regular files only): ts_stale_tmp_count counts them, ts_stale_tmp_remove removes them
 * (0, or -1 with errno) */
int ts_stale_tmp_count(const char *dir, const char *name);
int ts_stale_tmp_remove(const char *dir, const char *name);
#endif
