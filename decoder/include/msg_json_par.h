/* msg_json_par.h - `tracesim decode -f messages` on several threads, the same bytes as one.
 *
 * The trace is cut into parts of about MJP_PART bytes, each ending right after a byte with
 * MSEO 11: the one-thread decoder finishes a message (or skips a byte) exactly there, so a
 * part decodes alone to the messages the whole trace has in it. What crosses a cut is the
 * decoder's state (the sources' times: a timestamp is mostly the XOR of the one before, so
 * one bit anywhere before a cut can change every time after it; the counters) and the
 * line count "n". So a thread takes the next part and parses it whole (nxd_parse: the
 * fields, framing and counters need nothing from before), waits for the state at its start,
 * gives the messages their times (nxd_time: a few instructions each) and publishes the state
 * after it, then formats the lines into its own 1 MiB block; the parts' parses and
 * formatting overlap, only the time passes run in order. Each part's blocks go to the stream
 * when every part before it is written (in order: the output is the one-thread output,
 * whatever the timing); the thread that finds the next part formatted writes it. */
#ifndef TS_MSG_JSON_PAR_H
#define TS_MSG_JSON_PAR_H
#include "msg_json.h"
#include "nexus_decode.h"
#include <stddef.h>
#include <stdint.h>

#define MJP_PART (32u << 10) /* trace bytes per part (~0.8 MB of lines: one block) */

/* mj_decode(c, d, buf, len) with `threads` threads (1: mj_decode itself) and parts of about
 * `part` bytes (0: MJP_PART): the same lines to c->out, in one fwrite per block, and the same
 * c->n, c->truncated, c->bad and d afterwards. c: from mj_init, nothing formatted yet.
 * Returns 0, or -1 when no thread could be started or memory ran out before anything was
 * written (then nothing was: call mj_decode). */
int mjp_decode(mj_t *c, nxd_t *d, const uint8_t *buf, size_t len, unsigned threads, size_t part);
/* the threads for `decode -f messages` of a trace of len bytes to out: TRACESIM_THREADS (1
 * to 64; unset: 8), at most the CPUs this process may run on, and 1 when out is not a
 * regular file (a pipe or terminal is read at its own pace) or the trace is under
 * MJP_MIN_BYTES. A bad TRACESIM_THREADS: a note on stderr, then 1. */
#define MJP_MIN_BYTES (1u << 20)
unsigned mjp_threads(FILE *out, size_t len);
#endif
