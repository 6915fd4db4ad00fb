/* ts_run_json.h - a run folder's trace.json read with the strict JSON reader
 * (runfolder/ts_json.h): every value is checked for its type and range as it is
 * asked for, so a damaged or hostile file is an error naming the file, line and key, never a
 * silently substituted default ("srcbits": 4294967297 is not 1, "harts": -1 is not
 * 4294967295, "wrapped":true is seen without a space). */
#ifndef TS_RUN_JSON_H
#define TS_RUN_JSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ts_json.h"

typedef struct ts_run_json {
    sj_value_t *root; /* the top-level object, NULL when the file was not there */
    char path[4200];
} ts_run_json_t;

/* reads and parses the file: 1 read, 0 no such file (j->root NULL), -1 unreadable, not a
 * regular file, not JSON or not an object ("PATH:LINE: what" in err) */
int ts_run_json_open(ts_run_json_t *j, const char *path, char *err, size_t errlen);
void ts_run_json_close(ts_run_json_t *j);
/* a member: 1 present and valid (*out set), 0 absent (or no file), -1 of the wrong type or out
 * of [min, max] ("PATH:LINE: \"key\" must be ..." in err) */
int ts_run_json_uint(const ts_run_json_t *j, const char *key, uint64_t min, uint64_t max, uint64_t *out, char *err,
                     size_t errlen);
/* a signed integer of [min, max] (a leading '-', then digits) */
int ts_run_json_int(const ts_run_json_t *j, const char *key, int64_t min, int64_t max, int64_t *out, char *err,
                    size_t errlen);
int ts_run_json_bool(const ts_run_json_t *j, const char *key, bool *out, char *err, size_t errlen);
int ts_run_json_string(const ts_run_json_t *j, const char *key, const char **out, char *err, size_t errlen);

/* trace.json of a run (what `tracesim run` writes beside trace.rtd), every key typed and
 * range-checked. Keys that are absent keep their zero/false value (and has_* is false); a key
 * of the wrong type or out of range, or a "format" other than tracesim-trace-1, is an error. */
typedef struct ts_trace_json {
    bool found; /* the file exists (and was valid) */
    bool has_srcbits, has_tsbits, has_harts, has_bytes;
    unsigned srcbits;    /* 0..8 */
    unsigned tsbits;     /* 1..64 */
    unsigned harts;      /* 1..8 */
    unsigned sink_width; /* 0 (absent) or 4..32 */
    bool through_funnel, wrapped, stopped_on_wrap;
    uint64_t start, wp, stopped_at_cycle, bytes, messages, itc_lost, itc_stall_cycles, queued_at_exit, bytes_written;
    uint64_t other_sink_bytes; /* behind a funnel: what encoders wrote into their own sinks */
    char sink[16];             /* "sram", "sba", ... or "" */
    bool has_ts_cycle_offset;  /* timestamp = cycle + ts_cycle_offset (run folder rows) */
    int64_t ts_cycle_offset;
} ts_trace_json_t;

/* reads path (a trace.json): 0 (t->found false when there is no such file), or -1 with
 * "PATH:LINE: what" in err */
int ts_trace_json_read(const char *path, ts_trace_json_t *t, char *err, size_t errlen);
/* the same for the trace.json in the folder of a trace file */
int ts_trace_json_beside(const char *trace_path, ts_trace_json_t *t, char *err, size_t errlen);
#endif
