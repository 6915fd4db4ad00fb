/* run_folder.h - a run folder as the unit the host commands work on (`tracesim check`,
 * `report`, `decode`, `waves`, `overhead`): the trace in it, the ELF that ran and the waves it
 * names, found through what `tracesim run` recorded in its stats.txt.
 *
 * stats.txt records each path twice: `elf PATH` / `waves PATH` (absolute, as the run saw it)
 * and `elf_rel PATH` / `waves_rel PATH` (relative to the run folder), plus `elf_fnv1a64
 * 0x...` (the 64-bit FNV-1a hash of the ELF file's bytes). Older run folders have only
 * `elf` / `waves` as given on the command line (relative to the directory the run was started
 * in, or absolute); they are read as before.
 *
 * The ELF of a run (ts_run_elf), first match wins:
 *   1. --elf FILE (an override: warns if its hash is not the recorded one);
 *   2. elf_rel, from the run folder (a run folder moved together with its ELF);
 *   3. elf as recorded (a run folder moved away, the ELF in its place);
 *   4. RUN/NAME and RUN/../NAME, NAME the ELF's file name (a run folder copied together with
 *      its ELF, into it or beside it).
 * Among 2-4 a file whose hash equals the recorded one is taken first; if none does (or
 * nothing was recorded) the first that exists, with a warning if a hash was recorded. */
#ifndef TS_RUN_FOLDER_H
#define TS_RUN_FOLDER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the 64-bit FNV-1a hash of a file's bytes; 0, or -1 with errno */
int ts_file_fnv1a64(const char *path, uint64_t *hash);
/* true if path is a folder */
bool ts_is_dir(const char *path);
/* the value of the first "key value" line of RUN/stats.txt; false if absent (or no file) */
bool ts_run_stat(const char *run_dir, const char *key, char *out, size_t len);
/* rel: the path of `to` (absolute) relative to folder `from` (absolute); 0, or -1 if it does
 * not fit */
int ts_rel_path(const char *from, const char *to, char *rel, size_t len);

/* A command's RUN_DIR-or-TRACE argument: a folder is a run folder (trace = RUN/trace.rtd);
 * a file is a trace as before, and its folder is its run folder if it holds stats.txt (else
 * run_dir is ""). */
typedef struct ts_run_arg {
    bool is_dir;        /* the argument was a folder */
    char trace[4200];   /* the trace file */
    char run_dir[4096]; /* the run folder, or "" */
} ts_run_arg_t;
void ts_run_arg(const char *arg, ts_run_arg_t *ra);

/* The ELF of the run in run_dir (order above; override: --elf or NULL). 1 found (path in
 * out), 0 none found (a one-line reason in err), -1 override given but not a readable
 * regular file (err). Warns on stderr (one line) when the file taken is not the ELF that
 * ran but is an ELF whose symbols load (else the caller's reader gives the one line). */
int ts_run_elf(const char *run_dir, const char *override, char *out, size_t len, char *err, size_t errlen);
/* A path stats.txt records under key (e.g. "waves"): key_rel from the run folder, else key as
 * recorded (absolute, or for old run folders relative to the working directory, else to the
 * run folder). 1 an existing file (out), 0 recorded but not found (out: the recorded path),
 * -1 not recorded. */
int ts_run_path(const char *run_dir, const char *key, char *out, size_t len);

/* ---- a run that did not finish (docs/reference/run-folder.md "A run that did not finish") --
 * `tracesim run` writes stats.txt after every other output, and TS_STATS_END as its last
 * line. A run stopped by SIGINT/SIGTERM stops between cycles, writes every output up to that
 * cycle and says `exit_reason interrupted` (with interrupted_by and interrupted_cycle); a run
 * killed outright (kill -9, a crash, a power cut) leaves no stats.txt, or one without the
 * marker. */
#define TS_STATS_END "end ok"
enum ts_run_finish {
    TS_RUN_FINISHED = 0,    /* stats.txt ends with the marker, exit_reason not interrupted;
                               * also a folder that is no run folder (no stats.txt, no uart.txt) */
    TS_RUN_INTERRUPTED = 1, /* SIGINT/SIGTERM: the files are complete up to interrupted_cycle */
    TS_RUN_INCOMPLETE = 2,  /* killed: no stats.txt or no end marker; the files are partial */
};
/* Whether the run in run_dir finished; for the other two, msg is the one line every command
 * that reads a run folder prints (ts_run_say_unfinished): "RUN: the run did not finish
 * (...): ...". */
enum ts_run_finish ts_run_unfinished(const char *run_dir, char *msg, size_t len);
/* ts_run_unfinished, its line printed on stderr ("tracesim: " first) for the other two. The
 * commands (check, report, decode, waves, overhead) refuse TS_RUN_INCOMPLETE (status 121)
 * and go on with TS_RUN_INTERRUPTED (its files end at the cycle it names). */
enum ts_run_finish ts_run_say_unfinished(const char *run_dir);
/* the same line with the words after "(...): " given by the caller (NULL: the usual ones):
 * `tracesim run` into such a folder says that its files are replaced, sweep that the point
 * failed */
enum ts_run_finish ts_run_say_unfinished_then(const char *run_dir, const char *then);

/* The names `tracesim run` writes into its run folder (NULL-ended), and those the other
 * commands write there for a run (waves' markers and view); a run into a folder that holds
 * an earlier run removes these first (ts_run_clear_previous). */
extern const char *const ts_run_outputs[];
extern const char *const ts_run_derived_outputs[];
/* Before a run into an existing folder that holds an earlier run (a regular stats.txt or
 * uart.txt; else nothing is removed): removes (never follows a link) the files of
 * ts_run_outputs and ts_run_derived_outputs, and the waves file the earlier run's stats.txt
 * names if it lies inside the folder (a relative name without ".."), stats.txt first. Any other
 * file (a user's) is left alone. 0, or -1 with a one-line reason in err. */
int ts_run_clear_previous(const char *run_dir, char *err, size_t errlen);
#endif
