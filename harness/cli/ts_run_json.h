/* ts_run_json.h - a run folder's trace.json read with the strict JSON reader
 * (harness/sweep/sweep_json.h): every value is checked for its type and range as it is
 * asked for, so a damaged or hostile file is an error naming the file, line and key, never a
 * silently substituted default ("srcbits": 4294967297 is not 1, "harts": -1 is not
 * 4294967295, "wrapped":true is seen without a space). */
#ifndef TS_RUN_JSON_H
#define TS_RUN_JSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sweep_json.h"

typedef struct ts_run_json {
    sj_value_t *root;        /* the top-level object, NULL when the file was not there */
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
int ts_run_json_bool(const ts_run_json_t *j, const char *key, bool *out, char *err, size_t errlen);
int ts_run_json_string(const ts_run_json_t *j, const char *key, const char **out, char *err, size_t errlen);
#endif
