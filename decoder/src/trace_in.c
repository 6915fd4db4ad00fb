/* trace_in.c - a trace file decoded in pieces; see trace_in.h. */
#include "trace_in.h"
#include "ts_file.h"
#include <string.h>

int ts_trace_in_open(ts_trace_in_t *t, const char *path, const nxd_cfg_t *cfg, bool wrapped) {
    memset(t, 0, sizeof *t);
    if (nxd_init(&t->nd, cfg)) return -1;
    char err[300];
    t->f = ts_fopen_input(path, err, sizeof err); /* a regular file only: a FIFO is refused at once */
    if (!t->f) return -1;
    if (wrapped) { /* ts_wrap_start: after the first byte with MSEO 11 */
        uint64_t at = 0;
        bool found = false;
        size_t n;
        while (!found && (n = fread(t->buf, 1, sizeof t->buf, t->f)) > 0) {
            for (size_t i = 0; i < n; i++)
                if ((t->buf[i] & 3) == 3) {
                    at += i + 1;
                    found = true;
                    break;
                }
            if (!found) at += n;
        }
        if (fseek(t->f, (long)at, SEEK_SET)) at = 0, t->done = true;
        t->start = at;
    }
    t->end = t->start;
    t->nd.offset = t->start;
    return 0;
}

int ts_trace_in_step(ts_trace_in_t *t, size_t piece, nxd_cb cb, void *ctx) {
    if (t->done) return 0;
    if (piece > sizeof t->buf || !piece) piece = sizeof t->buf;
    size_t n = t->f ? fread(t->buf, 1, piece, t->f) : 0;
    t->end += n;
    bool more = n == piece; /* a short read: the end of the file */
    int rc = nxd_decode_stream(&t->nd, t->buf, n, more, cb, ctx);
    if (rc || !more) t->done = true;
    if (rc) return rc;
    if (more) { /* at the end of the file exactly: the last (empty) piece now */
        int c = fgetc(t->f);
        if (c == EOF) {
            t->done = true;
            return nxd_decode_stream(&t->nd, NULL, 0, false, cb, ctx);
        }
        ungetc(c, t->f);
    }
    return 0;
}

int ts_trace_in_all(ts_trace_in_t *t, nxd_cb cb, void *ctx) {
    int rc = 0;
    while (!t->done && !rc) rc = ts_trace_in_step(t, sizeof t->buf, cb, ctx);
    return rc;
}

void ts_trace_in_close(ts_trace_in_t *t) {
    if (t->f) fclose(t->f);
    t->f = NULL;
}
