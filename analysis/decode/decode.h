/* decode.h - `tracesim decode` as one call: a captured trace (a run folder's trace.rtd, or a
 * trace file) decoded into one of its formats (docs/commands/decode.md). The command's front
 * end (cli/decode_cli.c) parses the options into a ts_decode_cfg_t; ts_decode_run checks what
 * the options say together, finds the inputs (run_input.h), opens the trace (the decoder's
 * settings from trace.json, the out-of-band perf header, a wrapped buffer's start), makes the
 * output file and runs the format's decode (decode_int.h: decode_msgs.c, decode_perf.c,
 * decode_text.c), each through the decoder library's stages (ts_decoder.h). */
#ifndef TS_DECODE_H
#define TS_DECODE_H
#include <stdbool.h>

typedef struct ts_decode_cfg {
    const char *input;    /* the run folder or trace file; NULL: not exactly one was given */
    const char *format;   /* messages, elements, instr, itcprint, perf, csv, timeline, perfetto, stm */
    const char *out_dir;  /* -o DIR, or NULL */
    const char *elf;      /* --elf, or NULL (the run's) */
    const char *cfg_path; /* --perf-config, or NULL */
    int srcbits, tssize;  /* --srcbits, --tssize; -1: trace.json's */
    int hart;             /* --hart, or -1 */
    int channel;          /* --itc-channel */
    int perf_channel;     /* --perf-channel; -1: --perf-config's, else 6 */
    int time_cycles;      /* --time: 1 cycles, 0 ticks, -1 not given */
    double tick_hz;       /* --tick-hz */
    bool value_time;      /* --perf-line-time value */
} ts_decode_cfg_t;

/* decodes cfg's trace: the output on stdout or in cfg->out_dir, every error and note as one
 * line on stderr; the command's exit status (0, TS_EXIT_USAGE, TS_EXIT_NO_FILE, TS_EXIT_HOST) */
int ts_decode_run(const ts_decode_cfg_t *cfg);
#endif
