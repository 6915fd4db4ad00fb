/* markers.h - named points in time of a run, for jumping around its waves: every simctrl
 * MARK (marks.csv), every perf record decoded from the ITC stores the encoders accepted
 * (itc.csv: record type and function, numbered per function, e.g. "fib enter #3"), every ITC
 * store and software trace event lost to a full FIFO ("hart 0 software trace event USER
 * 0x0012 lost", named by stmfilter.h) and the cycle the sink stopped on wrap
 * (trace_events.csv). Only the markers inside the dumped stretches of the waves
 * (waves_windows.csv of the run folder, when it has one) are kept.
 * `tracesim waves RUNDIR` writes them as a GTKWave log file (markers.txt: one line per
 * marker, its cycle first, clickable in GTKWave's log viewer) and a Tcl script
 * (markers.tcl: the first 26 as named markers A..Z, the trace stop and losses first, then
 * the zoom on the region of interest and the primary marker on it).
 * Times are cycles: the waves have one time unit per cycle. */
#ifndef TS_MARKERS_H
#define TS_MARKERS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ts_opts.h"

typedef struct ts_marker {
    uint64_t cycle;
    int prio; /* 0 trace stop, 1 ITC loss, 2 MARK, 3 perf record */
    char name[96];
} ts_marker_t;

typedef struct ts_waves_win {
    uint64_t from, to;
} ts_waves_win_t; /* cycles [from, to) */

typedef struct ts_markers {
    ts_marker_t *m;
    size_t n, cap;
    ts_waves_win_t *win; /* the dumped stretches (waves_windows.csv), in time order */
    size_t nwin;
    bool have_windows; /* the run folder has waves_windows.csv */
    size_t outside;    /* markers left out: not in a dumped stretch */
} ts_markers_t;

/* Reads the run folder (elf: NULL, or the ELF for function names); markers in cycle order,
 * only those inside the dumped stretches when waves_windows.csv says which they are.
 * 0, or -1 with a one-line reason in err. */
int ts_markers_read(ts_markers_t *ms, const char *run_dir, const char *elf, char *err, size_t errlen);
void ts_markers_free(ts_markers_t *ms);
/* s as one Tcl word, for any bytes (names come from the ELF and the run folder): letters,
 * in braces ({fib enter #3}) when it has no brace, backslash or control character; else with
 * letters, digits, bytes >= 0x80 and _.,:/+=- as they are, a control character as a
 * three-digit octal escape (\012) and every other character backslash-escaped (\{ \[ \$ \ ).
 * Tcl reads it back as exactly s; no substitution or command can come out of it. */
void ts_tcl_word(FILE *f, const char *s);
/* s for a line of markers.txt: control characters (a newline in a symbol name) as \xNN */
void ts_log_text(FILE *f, const char *s);
/* The region `tracesim waves` opens on: the cycle `at` when has_at, else the first trace
 * stop or loss marker, else the first perf record's, else the first marker, else the start
 * of the first dumped stretch (else cycle 0); shown as cycles [*from, *to): TS_WAVES_ZOOM
 * cycles from TS_WAVES_BEFORE before it, within its stretch (all of a shorter stretch), a
 * zoom at which names and values are readable. 0, or -1 with err when `at` was not dumped. */
#define TS_WAVES_ZOOM 8
#define TS_WAVES_BEFORE 2
typedef struct ts_waves_focus {
    uint64_t cycle, from, to;
} ts_waves_focus_t;
int ts_waves_focus(const ts_markers_t *ms, bool has_at, uint64_t at, ts_waves_focus_t *f, char *err, size_t errlen);
/* markers.txt and markers.tcl in dir, with the zoom on f (NULL: none) at the end of
 * markers.tcl; 0, -1 with err when writing failed, -2 with err when the run's losses cannot be
 * read (a damaged trace.json or itc.csv: nothing is written, the "# loss:" lines are never
 * silently left out); every name in markers.tcl is one word made by ts_tcl_word */
int ts_markers_write(const ts_markers_t *ms, const ts_waves_focus_t *f, const char *dir, char *err, size_t errlen);
/* `tracesim waves` (its options: cli/waves_cli.c): the run folder's waves, ELF and markers
 * checked, markers.txt, markers.tcl and view.gtkw written into it, then GTKWave run on them
 * (gui; the caller checked that there is a display) or its command printed; the exit status
 * (docs/commands/waves.md), with one line on stderr for any failure */
typedef struct ts_waves_cfg {
    const char *run;  /* RUN_DIR */
    const char *view; /* VIEW (pipeline, bus, trace, hpm, harts) */
    const char *hart; /* HART, as given */
    const char *elf;  /* --elf, or NULL: the run's */
    bool gui;         /* false: --no-gui */
    bool has_at;      /* --at CYCLE given */
    uint64_t at;
} ts_waves_cfg_t;
int ts_waves_run(const ts_waves_cfg_t *cfg);
#endif
