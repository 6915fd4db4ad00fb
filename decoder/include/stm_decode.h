/* stm_decode.h - software trace port events (docs/firmware/software-trace.md) from generic trace
 * elements (elements.h, TS_ELEM_STM): the text of `tracesim decode --format stm` and the
 * thread slices and instant events of the Chrome/Perfetto timeline (--format timeline).
 *
 * Both are ts_elem_cb consumers. THREAD_NAME events are assembled per hart, 4 bytes an event
 * little-endian, up to the first NUL byte; an Error message (messages lost) or a corrupt
 * message drops the part of a name assembled so far. */
#ifndef TS_STM_DECODE_H
#define TS_STM_DECODE_H
#include "elements.h"
#include "tl_time.h"
#include <stdio.h>

#define STM_NAME_MAX 4096 /* longer names are cut (marked "...") */

typedef struct stm_name {
    char s[STM_NAME_MAX + 1];
    size_t len;
    bool cut;
} stm_name_t;

/* ---- --format stm: one line per event ----------------------------------------------------
 *   TIME HART GROUP ID NAME VALUE        1234 0 USER 0x0012 - 0x00000005
 *   TIME HART name "STRING"              a THREAD_NAME completed (after its last raw event)
 *   TIME HART ERROR messages lost ...    an Error message (FIFO overrun)
 *   TIME HART CORRUPT offset N: WHY      a corrupt message (or a bad software-event IDTAG)
 * TIME is "-" when the message's time is unknown. */
typedef struct stm_text {
    FILE *out;
    stm_name_t *name[NXD_MAX_SRC]; /* allocated on a hart's first THREAD_NAME */
    uint64_t events, names, lost, corrupt;
    bool oom;
} stm_text_t;

void stm_text_init(stm_text_t *t, FILE *out);
int stm_text_elem(void *vt, const ts_elem_t *e);
void stm_text_free(stm_text_t *t);

/* ---- timeline: per hart a process (pid 1 + hart, "hart N software trace"), on it a track per
 * distinct THREAD_SWITCH value (tid 1, 2, ...; tid 0 is the hart before any switch); a thread
 * slice ("X") from each switch to the next switch on that hart (or the hart's last time in
 * the trace), named by the THREAD_NAME completed while it ran, else "tp 0x..."; every other
 * event but THREAD_NAME an instant event ("i") on the running thread's track with id and value
 * in args; an Error message an instant "messages lost" on the hart's track. Each track gets
 * one thread_name, written at the end: the last name its thread got, else "tp 0x..." (tid 0:
 * "hart N"). */
typedef struct stm_tl_tp {
    uint64_t tp;
    unsigned tid;
    stm_name_t *name;
} stm_tl_tp_t;
typedef struct stm_tl_hart {
    bool seen, running;
    unsigned tid;             /* track of the running thread (0: none yet) */
    uint64_t tp, start, last; /* running thread, its switch-in, latest time */
    stm_name_t name, slice;   /* name being assembled; the running thread's */
    stm_tl_tp_t *tps;
    size_t ntps, cap;
} stm_tl_hart_t;

typedef struct stm_tl {
    FILE *out;
    bool *first; /* shared with the perf timeline: no comma before the first */
    ts_tl_time_t time;
    stm_tl_hart_t *h[NXD_MAX_SRC];
    uint64_t events, untimed;
    bool oom;
} stm_tl_t;

void stm_tl_init(stm_tl_t *t, FILE *out, bool *first, const ts_tl_time_t *time);
int stm_tl_elem(void *vt, const ts_elem_t *e);
/* closes the open slices (at each hart's latest time), names the tracks and frees */
void stm_tl_finish(stm_tl_t *t);
#endif
