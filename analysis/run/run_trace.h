/* run_trace.h - what a run folder says about its trace, for the host commands that read
 * traces (`tracesim decode`, `report`, `check`, ...): the decoder settings and the sink state
 * from trace.json, where a wrapped image starts, the perf headers out of band
 * (perf_config.txt, itc.csv), the rows of itc.csv and stm.csv; and two small file helpers
 * (reading a whole file, mkdir -p). (It was cli_util.h.) */
#ifndef TS_RUN_TRACE_H
#define TS_RUN_TRACE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perf_decode.h"

/* the whole file, NUL-terminated (*len excludes the NUL); NULL with a one-line reason in err
 * if it cannot be opened, is not a regular file, or memory runs out */
char *ts_read_file(const char *path, size_t *len, char *err, size_t errlen);
/* fills *srcbits / *tssize (when they are < 0, i.e. not given on the command line) from
 * trace.json in the trace's folder ("srcbits" 0..8, "tsbits" 1..64); then applies the
 * defaults 0 and 40 for what is still unknown */
void ts_trace_defaults(const char *trace_path, int *srcbits, int *tssize);
/* ts_trace_defaults, then the harts (SRC values) of the trace: *harts = trace.json's "harts",
 * else 2^srcbits with SRC fields, else 1 (*harts_known: trace.json said it). Returns -1 with
 * a one-line reason in err (a usage error) when trace.json is damaged (a key of the wrong type
 * or out of range: "PATH:LINE: what"), when --srcbits was given (*srcbits >= 0 on entry)
 * and differs from trace.json's, when trace.json's harts do not fit in srcbits bits, or when
 * hart >= 0 (--hart) is not one of the trace's harts; else 0. Several harts without SRC
 * fields (srcbits 0: their messages cannot be told apart) give a warning on stderr. */
int ts_trace_harts(const char *trace_path, int *srcbits, int *tssize, int hart, unsigned *harts,
                   bool *harts_known, char *err, size_t errlen);
/* a perf_dec_cb_t error on stderr: warnings (text "warning: ...") always, errors up to 10
 * (counted in *errors), gaps (text "gap: ...") as notes up to 10 (counted in *gaps; NULL:
 * all are printed) */
void ts_perf_diag(uint64_t *errors, uint64_t *gaps, unsigned core, uint64_t offset, const char *what);

/* what trace.json beside a trace says about its sink (found: the file was read) */
typedef struct ts_trace_info {
    bool found, wrapped, stopped;
    uint64_t bytes;   /* bytes in the image */
    uint64_t written; /* bytes the sink wrote in all ("bytes_written"; 0 if absent) */
} ts_trace_info_t;
void ts_trace_info(const char *trace_path, ts_trace_info_t *ti);
/* where decoding a wrapped sink image starts: after its first byte with MSEO 11 (the end of
 * the message the wrap cut, or of the first whole one), so that no message is decoded from
 * the middle of one; len if there is none */
size_t ts_wrap_start(const uint8_t *buf, size_t len);
/* reads an out-of-band perf header file (perf_config_parse); *channel is set when the file
 * names one. Returns the number of headers, or -1 with a one-line reason in err. */
int ts_read_perf_config(const char *path, perf_header_t *h, unsigned max, unsigned *channel, char *err, size_t errlen);
/* the last perf header each hart stored in an itc.csv (the ITC stores the encoder accepted),
 * on want_channel (-1: the first channel that carries a complete one, returned in *channel):
 * the number of headers (0: none), or -1 with a reason in err */
int ts_perf_headers_from_itc(const char *itc_path, int want_channel, perf_header_t *h, unsigned max,
                             unsigned *channel, char *err, size_t errlen);
/* RUN_DIR/itc.csv -> RUN_DIR/perf_config.txt: the last perf header each hart stored on the
 * first ITC channel that carries a complete one (tracesim run calls it at the end of a run).
 * 1 written, 0 no perf header in the stores, -1 with a reason in err. */
int ts_write_perf_config(const char *run_dir, char *err, size_t errlen);
/* RUN_DIR/perf_config.txt from headers h[0..n-1] on ITC channel ch (tracesim run: collected
 * while the run went, sim/perf_live.h): 1 written, 0 n is 0 (no file), -1 with a reason in err */
int ts_write_perf_config_headers(const char *run_dir, const perf_header_t *h, unsigned n, unsigned ch, char *err,
                                 size_t errlen);
/* the note for a wrapped trace: what was overwritten and where decoding starts */
void ts_wrap_note(const char *trace_path, const ts_trace_info_t *ti, size_t start);
/* mkdir -p: creates path and its missing parents; 0, or -1 with errno (ENOTDIR if path
 * exists and is no folder, ENAMETOOLONG) */
int ts_mkdir_p(const char *path);

/* One data row of a run folder's itc.csv (`cycle,hart,stimulus,offset,size,0xvalue,status`,
 * the format sim/ground_truth_log.c writes; a row without the status column, from an older
 * run, is `traced`); parsed by hand, not with sscanf, whose per-call work dominates on files
 * of millions of rows. true if the line is such a row. status: what became of the store -
 * traced (the encoder accepted it), dropped_fifo (lost on a full ITC FIFO), after_stop (made
 * after the sink stopped on wrap), encoder_off (the encoder was not tracing that channel). */
enum ts_itc_status { TS_ITC_TRACED,
                     TS_ITC_DROPPED_FIFO,
                     TS_ITC_AFTER_STOP,
                     TS_ITC_ENCODER_OFF };
typedef struct ts_itc_row {
    uint64_t cycle;
    unsigned hart, stim, off, size;
    uint32_t value;
    enum ts_itc_status status;
} ts_itc_row_t;
bool ts_itc_row(const char *line, ts_itc_row_t *r);

/* One data row of a run folder's stm.csv (`cycle,hart,0xid,0xvalue,status`, status traced,
 * lost or off; docs/firmware/software-trace.md). true if the line is such a row. */
enum ts_stm_status { TS_STM_TRACED,
                     TS_STM_LOST,
                     TS_STM_OFF };
typedef struct ts_stm_row {
    uint64_t cycle;
    unsigned hart, id;
    uint32_t value;
    enum ts_stm_status status;
} ts_stm_row_t;
bool ts_stm_row(const char *line, ts_stm_row_t *r);
#endif
