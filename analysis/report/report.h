/* report.h - `tracesim report` as one call: a gprof-like profile of a trace's perf records
 * (or of its program flow) in one of the report's formats (docs/commands/report.md). The
 * command's front end (cli/report_cli.c) parses the options into a ts_report_cfg_t;
 * ts_report_run checks what the options say together, finds the inputs (run_input.h), decodes
 * the trace through the decoder library's pipeline (ts_decoder.h) into one profile per hart
 * and writes it (report_int.h: report_perf.c, report_flow.c, report_out.c, report_irq.c). */
#ifndef TS_REPORT_H
#define TS_REPORT_H
#include <stdbool.h>

typedef struct ts_report_cfg {
    const char *input;    /* the run folder or trace file; NULL: not exactly one was given */
    const char *format;   /* text, csv, folded, callgrind, html, irq, irq-csv */
    const char *out_dir;  /* -o DIR, or NULL */
    const char *elf;      /* --elf, or NULL (the run's) */
    const char *cfg_path; /* --perf-config, or NULL */
    const char *fields;   /* --fields, or NULL */
    const char *from;     /* --from perf|flow, or NULL */
    const char *counter;  /* --counter, or NULL */
    const char *baseline; /* --baseline, or NULL */
    int srcbits, tssize;  /* --srcbits, --tssize; -1: trace.json's */
    int perf_channel;     /* --perf-channel; -1: --perf-config's, else 6 */
    int hart;             /* --hart, or -1 */
    bool compensate;      /* --compensate */
} ts_report_cfg_t;

/* the report of cfg's trace: on stdout or in cfg->out_dir, every error and note as one line
 * on stderr; the command's exit status (0, TS_EXIT_USAGE, TS_EXIT_NO_FILE, TS_EXIT_HOST) */
int ts_report_run(const ts_report_cfg_t *cfg);

/* -f irq / irq-csv (report_irq.c): the interrupts and threads of the trace at path (srcbits,
 * tssize: the options, -1 when not given; a run folder without a trace: its ground truth
 * only) and of run_dir's ground truth (""/NULL: none) to stdout or out_file (made in out_dir,
 * which may be NULL); the exit status */
int ts_report_irq(const char *path, const char *run_dir, int srcbits, int tssize, int hart, bool csv, const char *out_dir,
                  const char *out_file);
#endif
