/* cli_util.h - small helpers shared by the host commands that read traces (`tracesim decode`,
 * `tracesim report`): reading a whole file, and the decoder settings from trace.json. */
#ifndef TS_CLI_UTIL_H
#define TS_CLI_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the whole file, NUL-terminated (*len excludes the NUL); NULL with a one-line reason in err
 * if it cannot be opened, is not a regular file, or memory runs out */
char *ts_read_file(const char *path, size_t *len, char *err, size_t errlen);
/* "key": number from a small JSON text; false if absent */
bool ts_json_uint(const char *text, const char *key, unsigned *out);
/* fills *srcbits / *tssize (when they are < 0, i.e. not given on the command line) from
 * trace.json in the trace's folder ("srcbits" 0..8, "tsbits" 1..64); then applies the
 * defaults 0 and 40 for what is still unknown */
void ts_trace_defaults(const char *trace_path, int *srcbits, int *tssize);
/* a perf_dec_cb_t error on stderr: warnings (text "warning: ...") always, errors up to 10
 * (counted in *errors) */
void ts_perf_diag(uint64_t *errors, unsigned core, uint64_t offset, const char *what);
#endif
