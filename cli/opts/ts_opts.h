/* ts_opts.h - a command's options described once: the table drives the parser, the `--help`
 * text and the option table of the command's docs page, so the three cannot drift.
 *
 * Parsing rules (the same for every command):
 *   --name            a flag, or an option whose value is the next argument
 *   --name=value      an option with its value
 *   -x value, -xvalue the short form, where the table gives one
 *   --                everything after it is a positional argument
 * Names match exactly: no abbreviations (getopt_long's prefix matching took `--hart` for
 * `--harts`). Positional arguments may stand between options. An option given twice: the
 * last value counts (a command collects every value of a repeatable one, sweep's --only).
 * Numbers are unsigned decimal
 * or 0x-hexadecimal, checked against the option's range with overflow and sign checks, and
 * may carry a K, M or G suffix (x 1024, 1024^2, 1024^3) where the table allows it. Every
 * error is one line naming the option, the value and, for numbers, the allowed range; an
 * unknown long option names the closest one ("did you mean --hart?").
 *
 * A command is described once by a ts_cmd_t: its synopsis, what it does, its option table,
 * what it writes and its exit statuses. ts_cmd_help prints its --help from it and
 * ts_cmd_markdown the generated block of its docs page (docs/commands/CMD.md), so the
 * parser, the help and the docs come from the same table. */
#ifndef TS_OPTS_H
#define TS_OPTS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ts_opt_kind {
    TS_OPT_FLAG,   /* no value */
    TS_OPT_STRING, /* any value (a path, a name, a list the command parses) */
    TS_OPT_UINT,   /* an unsigned integer in [min, max] */
    TS_OPT_REAL,   /* a finite real number in [rmin, rmax] */
};

#define TS_OPT_SUFFIX 1u /* TS_OPT_UINT: K, M, G suffixes allowed */
#define TS_OPT_REFUSE 2u /* not an option of the command, but a name users may try (a renamed
                            * option, one of another command): the parser refuses it with the
                            * help text as the message; never in --help or the docs */
#define TS_OPT_NOT_SC 4u /* an option of `tracesim run` that tracesim-sc does not have
                            * (a ts_cmd_t's `without` mask leaves such options out) */
#define TS_OPT_PATH 8u   /* its value names a file or folder the command writes: a sweep
                            * spec may not give it (sweep/: a point writes only into its
                            * own folder); every such option of `tracesim run` carries it */

typedef struct ts_opt {
    int id;           /* what ts_opts_next returns for it (> 0) */
    char short_name;  /* 'o' for -o, or 0 */
    const char *name; /* long name without the dashes */
    enum ts_opt_kind kind;
    const char *metavar; /* the value's name in the help ("N", "FILE"); NULL for flags */
    uint64_t min, max;   /* TS_OPT_UINT */
    double rmin, rmax;   /* TS_OPT_REAL */
    unsigned flags;
    const char *help; /* the help text; '\n' starts a new line */
} ts_opt_t;

enum { TS_OPTS_END = 0,
       TS_OPTS_POSITIONAL = -1,
       TS_OPTS_ERROR = -2 };

typedef struct ts_opts {
    const char *cmd;       /* "run": errors say "see tracesim run --help" */
    const ts_opt_t *table; /* the options, ended by an entry with id 0 */
    int argc;
    char **argv;
    int i;                /* next argument to look at (starts at 1: argv[0] is the command) */
    bool only_positional; /* after "--" */
    /* the result of the last ts_opts_next */
    const ts_opt_t *opt; /* the option, or NULL for a positional argument */
    const char *arg;     /* the value as written, or the positional argument */
    uint64_t u;          /* TS_OPT_UINT */
    double r;            /* TS_OPT_REAL */
    char err[512];       /* TS_OPTS_ERROR: the one-line message, without "tracesim: " */
    unsigned without;    /* options with any of these flags are not the command's */
} ts_opts_t;

/* one exit status of a command: "0", "120", "0-119"; the meaning ('\n' starts a new line) */
typedef struct ts_exit {
    const char *status;
    const char *meaning;
} ts_exit_t;

/* a command, described once */
typedef struct ts_cmd {
    const char *name;       /* "run", "decode", "tracesim-sc": `tracesim help NAME` */
    const char *synopsis;   /* the usage line(s) without "usage: ", '\n' between them */
    const char *about;      /* what it does, a paragraph (lines end in '\n'), or NULL */
    const ts_opt_t *table;  /* its options, ended by an entry with id 0 */
    unsigned without;       /* table entries with any of these flags are not its options */
    const char *outputs;    /* what it writes (lines end in '\n'), or NULL */
    const ts_exit_t *exits; /* its exit statuses, ended by {NULL, NULL} */
    const char *notes;      /* more text after the exit statuses, or NULL */
} ts_cmd_t;

/* starts parsing argv[1..argc-1] (argv[0] is the command's name) */
void ts_opts_init(ts_opts_t *o, const char *cmd, const ts_opt_t *table, int argc, char **argv);
/* the same for a described command: its table, without its `without` options */
void ts_cmd_opts_init(ts_opts_t *o, const ts_cmd_t *cmd, int argc, char **argv);
/* the next option's id, TS_OPTS_POSITIONAL (o->arg), TS_OPTS_END, or TS_OPTS_ERROR (o->err) */
int ts_opts_next(ts_opts_t *o);

/* parses a number as TS_OPT_UINT does: 0, or -1 (not a number, a sign, trailing text,
 * overflow, or outside [min, max]) */
int ts_parse_uint(const char *s, uint64_t min, uint64_t max, unsigned flags, uint64_t *out);
/* "0 to 64", "4096 to 1073741824; suffixes K, M, G": the range as the messages say it */
void ts_opt_range(const ts_opt_t *opt, char *buf, size_t len);

/* for commands still parsing their own arguments: val as a number of [min, max] (ts_parse_uint,
 * no suffixes) or a finite real of [rmin, rmax]; 0, or -1 after printing "tracesim: invalid
 * value 'VAL' for OPT (MIN to MAX)" */
int ts_opt_uint(const char *opt, const char *val, uint64_t min, uint64_t max, uint64_t *out);
int ts_opt_real(const char *opt, const char *val, double rmin, double rmax, double *out);

/* the options part of --help: one entry per option, "  -o, --out DIR" then the help text
 * from column 25 (or on the next line when the left part is longer) */
void ts_opts_help(FILE *f, const ts_opt_t *table);
/* the docs page's table: | option | meaning | rows in Markdown */
void ts_opts_markdown(FILE *f, const ts_opt_t *table);
/* the same, leaving out the entries with any of the flags in `without` (and TS_OPT_REFUSE ones) */
void ts_opts_help_without(FILE *f, const ts_opt_t *table, unsigned without);
void ts_opts_markdown_without(FILE *f, const ts_opt_t *table, unsigned without);

/* a command's --help: "usage: SYNOPSIS", what it does, "options:", "outputs:", "exit status:" */
void ts_cmd_help(FILE *f, const ts_cmd_t *cmd);
/* its docs page's generated block: the option table, then the exit status table */
void ts_cmd_markdown(FILE *f, const ts_cmd_t *cmd);

/* the closest of the table's long names to the unknown name (n bytes): one it starts, or one
 * at most 2 edits away (the smallest distance; the first on a tie); NULL if none */
const char *ts_opts_closest(const ts_opt_t *table, unsigned without, const char *name, size_t n);
#endif
