/* decode_int.h - the parts of `tracesim decode` (decode.h), private to analysis/decode/:
 * decode_run.c (what the options say together, the inputs, the output file, the format
 * dispatch), decode_msgs.c (the --hart filter, the
 * not-a-trace test, --format messages), decode_perf.c (perf, csv, timeline, perfetto) and
 * decode_text.c (elements, instr, stm, itcprint). Each format gets the trace as a
 * decode_job_t and returns the command's exit status so far. */
#ifndef TS_DECODE_INT_H
#define TS_DECODE_INT_H
#include "run_trace.h"
#include "nexus_decode.h"
#include "perf_decode.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct decode_job {
    const char *path;     /* the trace file */
    const char *elf;      /* the ELF (--elf or the run's), or NULL */
    const char *cfg_path; /* --perf-config, or NULL */
    const char *out_dir;  /* -o DIR, or NULL */
    const uint8_t *data;  /* the trace's bytes: data[start..len) are decoded */
    size_t len, start;
    nxd_cfg_t cfg;
    int srcbits, tssize;
    int hart;         /* --hart, or -1 */
    int channel;      /* --itc-channel */
    int perf_channel; /* --perf-channel, else --perf-config's, else 6 */
    int time_cycles;  /* --time: 1 cycles, 0 ticks, -1 not given */
    double tick_hz;
    bool value_time;           /* --perf-line-time value */
    const perf_header_t *cfgh; /* the out-of-band perf headers (ncfg of them) */
    int ncfg;
    perf_header_t cfgh_buf[PERF_MAX_CORES]; /* where they are read into */
    ts_trace_info_t ti;                     /* trace.json beside the trace */
    uint64_t first_rec;                     /* the first perf record's offset (ts_note_first) */
    FILE *out;                              /* stdout or the file of -o (not used by perf) */
    bool abort_out;                         /* set by a format: the output is incomplete and is not kept */
} decode_job_t;

/* decode_msgs.c */
/* nxd_decode through the --hart filter when one is set (hart < 0: none; nxd_decode_src) */
void decode_msgs(nxd_t *d, const uint8_t *buf, size_t len, int hart, nxd_cb cb, void *ctx);
/* more than half of the messages of the first 64 KiB corrupt (n: messages, corrupt ones) */
bool not_a_trace(const nxd_cfg_t *cfg, const uint8_t *buf, size_t len, uint64_t n[2]);
int decode_messages(decode_job_t *j);
/* decode_perf.c */
int decode_perf_files(decode_job_t *j);            /* --format perf: SiFive's files */
int decode_perf_stream(decode_job_t *j, bool csv); /* --format csv, timeline */
int decode_perfetto(decode_job_t *j);              /* --format perfetto (pftrace.h) */
/* decode_text.c */
int decode_stm(decode_job_t *j);
int decode_elements(decode_job_t *j, bool instr); /* --format elements, instr */
int decode_itcprint(decode_job_t *j);
#endif
