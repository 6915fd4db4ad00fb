/* stm_decode.c - software trace port events as text and timeline; see stm_decode.h. */
#include "stm_decode.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- THREAD_NAME assembly --------------------------------------------------------------- */
static bool is_thread_name(const ts_stm_ev_t *ev) { return ev->event && !strcmp(ev->event, "THREAD_NAME"); }
static bool is_thread_switch(const ts_stm_ev_t *ev) { return ev->event && !strcmp(ev->event, "THREAD_SWITCH"); }

/* adds the 4 bytes of one event (first character in bits 7:0); true when the name ended */
static bool name_add(stm_name_t *n, uint64_t value) {
    for (unsigned k = 0; k < 4; k++) {
        char ch = (char)(value >> (8 * k) & 0xFF);
        if (!ch) return true;
        if (n->len < STM_NAME_MAX) n->s[n->len++] = ch;
        else
            n->cut = true;
    }
    return false;
}
static void name_clear(stm_name_t *n) {
    n->len = 0;
    n->cut = false;
}

/* the name as a quoted string: JSON escapes, so that it is valid in both outputs */
static void put_quoted(FILE *o, const stm_name_t *n) {
    fputc('"', o);
    for (size_t i = 0; i < n->len; i++) {
        unsigned char ch = (unsigned char)n->s[i];
        if (ch == '"' || ch == '\\') fprintf(o, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(o, "\\u%04x", ch);
        else
            fputc(ch, o);
    }
    if (n->cut) fputs("...", o);
    fputc('"', o);
}

/* ---- --format stm ---------------------------------------------------------------------- */
void stm_text_init(stm_text_t *t, FILE *out) {
    memset(t, 0, sizeof *t);
    t->out = out;
}

static void put_time(FILE *o, const ts_elem_t *e) {
    if (e->has_time) fprintf(o, "%" PRIu64, e->time);
    else
        fputc('-', o);
}

static void text_drop_names(stm_text_t *t, const ts_elem_t *e, bool all) {
    for (unsigned h = 0; h < NXD_MAX_SRC; h++)
        if (t->name[h] && (all || h == e->src)) name_clear(t->name[h]);
}

int stm_text_elem(void *vt, const ts_elem_t *e) {
    stm_text_t *t = vt;
    FILE *o = t->out;
    if (e->type == TS_ELEM_OVERFLOW) {
        t->lost++;
        put_time(o, e);
        fprintf(o, " %u ERROR messages lost (Error message at offset %" PRIu64 ": the FIFO overran, software events "
                   "or ITC stores were dropped here)\n",
                e->src, e->offset);
        text_drop_names(t, e, !e->msg || !e->msg->has_src);
        return 0;
    }
    if (e->type == TS_ELEM_CORRUPT) {
        t->corrupt++;
        put_time(o, e);
        fprintf(o, " %u CORRUPT offset %" PRIu64 ": %s\n", e->src, e->offset, e->u.err.what ? e->u.err.what : "?");
        text_drop_names(t, e, !e->msg || e->msg->status != NXD_OK);
        return 0;
    }
    if (e->type != TS_ELEM_STM) return 0;
    const ts_stm_ev_t *ev = &e->u.stm;
    t->events++;
    put_time(o, e);
    fprintf(o, " %u %s 0x%04x %s 0x%08" PRIx64 "\n", e->src, ev->group, ev->id, ev->event ? ev->event : "-", ev->value);
    if (!is_thread_name(ev)) return 0;
    stm_name_t **n = &t->name[e->src % NXD_MAX_SRC];
    if (!*n && !(*n = calloc(1, sizeof **n))) {
        t->oom = true;
        return 1;
    }
    if (!name_add(*n, ev->value)) return 0;
    t->names++;
    put_time(o, e);
    fprintf(o, " %u name ", e->src);
    put_quoted(o, *n);
    fputc('\n', o);
    name_clear(*n);
    return 0;
}

void stm_text_free(stm_text_t *t) {
    for (unsigned h = 0; h < NXD_MAX_SRC; h++) free(t->name[h]);
    memset(t->name, 0, sizeof t->name);
}

/* ---- timeline -------------------------------------------------------------------------- */
void stm_tl_init(stm_tl_t *t, FILE *out, bool *first, const ts_tl_time_t *time) {
    memset(t, 0, sizeof *t);
    t->out = out;
    t->first = first;
    t->time = *time;
}

static void tl_sep(stm_tl_t *t) {
    fputs(*t->first ? "\n" : ",\n", t->out);
    *t->first = false;
}

static void tl_thread_meta(stm_tl_t *t, unsigned hart, unsigned tid, const stm_name_t *name, uint64_t tp) {
    tl_sep(t);
    fprintf(t->out, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, \"args\": {\"name\": ",
            1 + hart, tid);
    if (name && name->len) put_quoted(t->out, name);
    else if (tid)
        fprintf(t->out, "\"tp 0x%08" PRIx64 "\"", tp);
    else
        fprintf(t->out, "\"hart %u\"", hart);
    fputs("}}", t->out);
}

/* the hart's state, with its process name on first use (track names: stm_tl_finish) */
static stm_tl_hart_t *tl_hart(stm_tl_t *t, unsigned hart) {
    stm_tl_hart_t **h = &t->h[hart % NXD_MAX_SRC];
    if (*h) return *h;
    if (!(*h = calloc(1, sizeof **h))) {
        t->oom = true;
        return NULL;
    }
    tl_sep(t);
    fprintf(t->out, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, \"args\": {\"name\": \"hart %u software trace\"}}",
            1 + hart, hart);
    return *h;
}

static void tl_close_slice(stm_tl_t *t, unsigned hart, stm_tl_hart_t *h, uint64_t end) {
    if (!h->running) return;
    tl_sep(t);
    fputs("{\"name\": ", t->out);
    if (h->slice.len) put_quoted(t->out, &h->slice);
    else
        fprintf(t->out, "\"tp 0x%08" PRIx64 "\"", h->tp);
    fputs(", \"ph\": \"X\", \"ts\": ", t->out);
    ts_tl_put_ts(t->out, &t->time, h->start);
    fputs(", \"dur\": ", t->out);
    ts_tl_put_dur(t->out, &t->time, end - h->start);
    fprintf(t->out, ", \"pid\": %u, \"tid\": %u, \"args\": {\"tp\": \"0x%08" PRIx64 "\", \"hart\": %u}}", 1 + hart, h->tid, h->tp, hart);
    h->running = false;
}

/* the track of thread tp (a new one gets the next tid and its name) */
static int tl_tid(stm_tl_t *t, unsigned hart, stm_tl_hart_t *h, uint64_t tp) {
    for (size_t i = 0; i < h->ntps; i++)
        if (h->tps[i].tp == tp) return (int)h->tps[i].tid;
    if (h->ntps == h->cap) {
        size_t nc = h->cap ? 2 * h->cap : 16;
        stm_tl_tp_t *n = realloc(h->tps, nc * sizeof *n);
        if (!n) {
            t->oom = true;
            return -1;
        }
        h->tps = n;
        h->cap = nc;
    }
    unsigned tid = (unsigned)h->ntps + 1;
    h->tps[h->ntps++] = (stm_tl_tp_t){tp, tid, NULL};
    return (int)tid;
}

static int tl_switch(stm_tl_t *t, unsigned hart, stm_tl_hart_t *h, uint64_t ts, uint64_t tp) {
    tl_close_slice(t, hart, h, ts);
    int tid = tl_tid(t, hart, h, tp);
    if (tid < 0) return 1;
    h->tid = (unsigned)tid;
    h->tp = tp;
    h->start = ts;
    h->running = true;
    name_clear(&h->slice);
    name_clear(&h->name);
    return 0;
}

static void tl_instant(stm_tl_t *t, unsigned hart, const stm_tl_hart_t *h, uint64_t ts, const ts_stm_ev_t *ev) {
    tl_sep(t);
    fprintf(t->out, "{\"name\": \"%s 0x%04x\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ", ev->group, ev->id);
    ts_tl_put_ts(t->out, &t->time, ts);
    fprintf(t->out, ", \"pid\": %u, \"tid\": %u, \"args\": {\"group\": \"%s\", \"id\": \"0x%04x\", \"value\": \"0x%08" PRIx64 "\"",
            1 + hart, h->running ? h->tid : 0, ev->group, ev->id, ev->value);
    if (ev->event) fprintf(t->out, ", \"event\": \"%s\"", ev->event);
    if (h->running) fprintf(t->out, ", \"tp\": \"0x%08" PRIx64 "\"", h->tp);
    fputs("}}", t->out);
}

int stm_tl_elem(void *vt, const ts_elem_t *e) {
    stm_tl_t *t = vt;
    if (e->type != TS_ELEM_STM && e->type != TS_ELEM_OVERFLOW) {
        if (e->has_time && t->h[e->src % NXD_MAX_SRC] && e->time > t->h[e->src % NXD_MAX_SRC]->last)
            t->h[e->src % NXD_MAX_SRC]->last = e->time;
        return 0;
    }
    unsigned hart = e->src % NXD_MAX_SRC;
    if (e->type == TS_ELEM_STM) t->events++;
    if (!e->has_time) {
        if (e->type == TS_ELEM_STM) t->untimed++;
        if (t->h[hart]) name_clear(&t->h[hart]->name);
        return 0;
    }
    stm_tl_hart_t *h = tl_hart(t, hart);
    if (!h) return 1;
    if (e->time > h->last) h->last = e->time;
    if (e->type == TS_ELEM_OVERFLOW) {
        name_clear(&h->name);
        tl_sep(t);
        fputs("{\"name\": \"messages lost\", \"ph\": \"i\", \"s\": \"p\", \"ts\": ", t->out);
        ts_tl_put_ts(t->out, &t->time, e->time);
        fprintf(t->out, ", \"pid\": %u, \"tid\": 0, \"args\": {\"offset\": %" PRIu64 "}}", 1 + hart, e->offset);
        return 0;
    }
    const ts_stm_ev_t *ev = &e->u.stm;
    if (is_thread_switch(ev)) return tl_switch(t, hart, h, e->time, ev->value);
    if (!is_thread_name(ev)) {
        tl_instant(t, hart, h, e->time, ev);
        return 0;
    }
    if (!name_add(&h->name, ev->value)) return 0;
    if (h->running) { /* the running thread's name: slice and track */
        h->slice = h->name;
        for (size_t i = 0; i < h->ntps; i++) {
            if (h->tps[i].tid != h->tid) continue;
            if (!h->tps[i].name && !(h->tps[i].name = malloc(sizeof *h->tps[i].name))) {
                t->oom = true;
                return 1;
            }
            *h->tps[i].name = h->slice;
        }
    }
    name_clear(&h->name);
    return 0;
}

void stm_tl_finish(stm_tl_t *t) {
    for (unsigned k = 0; k < NXD_MAX_SRC; k++) {
        stm_tl_hart_t *h = t->h[k];
        if (!h) continue;
        tl_close_slice(t, k, h, h->last);
        tl_thread_meta(t, k, 0, NULL, 0); /* one thread_name per track */
        for (size_t i = 0; i < h->ntps; i++) {
            tl_thread_meta(t, k, h->tps[i].tid, h->tps[i].name, h->tps[i].tp);
            free(h->tps[i].name);
        }
        free(h->tps);
        free(h);
        t->h[k] = NULL;
    }
}
