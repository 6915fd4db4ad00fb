/* pftrace.c - perf records, software trace events, program-flow calls and traps as a Perfetto
 * protobuf trace (see pftrace.h): a protobuf writer of
 * its own (varints and length-delimited fields into a growing buffer; a nested message gets a
 * one-byte length slot, widened when it turns out longer) and the tracks and events. */
#include "pftrace.h"
#include "traps_csv.h"
#include "flow_calls.h"
#include "irq_stats.h"
#include "run_trace.h"
#include "ts_file.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the field numbers (Perfetto's protos/perfetto/trace/..., public) ------------------- */
enum {
    F_TRACE_PACKET = 1,          /* Trace.packet */
    F_PKT_TIMESTAMP = 8,         /* TracePacket.timestamp (ns) */
    F_PKT_SEQ_ID = 10,           /* TracePacket.trusted_packet_sequence_id */
    F_PKT_TRACK_EVENT = 11,      /* TracePacket.track_event */
    F_PKT_INTERNED = 12,         /* TracePacket.interned_data */
    F_PKT_SEQ_FLAGS = 13,        /* TracePacket.sequence_flags */
    F_PKT_TRACK_DESC = 60,       /* TracePacket.track_descriptor */
    SEQ_INCREMENTAL_CLEARED = 1, /* SequenceFlags */
    SEQ_NEEDS_INCREMENTAL = 2,
    F_TD_UUID = 1, /* TrackDescriptor */
    F_TD_NAME = 2,
    F_TD_PROCESS = 3,
    F_TD_THREAD = 4,
    F_TD_PARENT = 5,
    F_TD_COUNTER = 8,
    F_PD_PID = 1, /* ProcessDescriptor */
    F_PD_NAME = 6,
    F_THD_PID = 1, /* ThreadDescriptor */
    F_THD_TID = 2,
    F_THD_NAME = 5,
    F_CD_UNIT = 3, /* CounterDescriptor */
    UNIT_COUNT = 2,
    F_TE_ANNOT = 4, /* TrackEvent */
    F_TE_TYPE = 9,
    F_TE_NAME_IID = 10,
    F_TE_TRACK = 11,
    F_TE_EXTRA_VALUES = 12,
    F_TE_EXTRA_TRACKS = 31,
    F_TE_COUNTER = 30,
    TYPE_SLICE_BEGIN = 1,
    TYPE_SLICE_END = 2,
    TYPE_INSTANT = 3,
    TYPE_COUNTER = 4,
    F_DA_NAME_IID = 1, /* DebugAnnotation */
    F_DA_UINT = 3,
    F_DA_STRING = 6,
    F_DA_STRING_IID = 17,
    F_ID_EVENT_NAMES = 2, /* InternedData */
    F_ID_ANNOT_NAMES = 3,
    F_ID_ANNOT_STRINGS = 29,
    F_IID = 1, /* EventName, DebugAnnotationName, InternedString: iid; name/str = 2 */
    F_INAME = 2,
};

/* ---- the protobuf writer ---------------------------------------------------------------- */
typedef struct pb {
    uint8_t *b;
    size_t n, cap;
    bool oom;
} pb_t;

static bool pb_room(pb_t *p, size_t more) {
    if (p->n + more <= p->cap) return true;
    size_t cap = p->cap ? p->cap : 256;
    while (cap < p->n + more) cap *= 2;
    uint8_t *b = realloc(p->b, cap);
    if (!b) {
        p->oom = true;
        return false;
    }
    p->b = b;
    p->cap = cap;
    return true;
}
static void pb_varint(pb_t *p, uint64_t v) {
    if (!pb_room(p, 10)) return;
    while (v >= 0x80) {
        p->b[p->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p->b[p->n++] = (uint8_t)v;
}
static void pb_tag(pb_t *p, unsigned field, unsigned wire) { pb_varint(p, (uint64_t)field << 3 | wire); }
static void pb_uint(pb_t *p, unsigned field, uint64_t v) {
    pb_tag(p, field, 0);
    pb_varint(p, v);
}
static void pb_bytes(pb_t *p, unsigned field, const void *s, size_t len) {
    pb_tag(p, field, 2);
    pb_varint(p, len);
    if (!pb_room(p, len)) return;
    memcpy(p->b + p->n, s, len);
    p->n += len;
}
static void pb_str(pb_t *p, unsigned field, const char *s) { pb_bytes(p, field, s, strlen(s)); }
/* a nested message: its tag and a one-byte length slot; returns where its content starts */
static size_t pb_open(pb_t *p, unsigned field) {
    pb_tag(p, field, 2);
    if (pb_room(p, 1)) p->b[p->n++] = 0;
    return p->n;
}
/* ends the nested message begun at mark: its length into the slot (content moved up when
 * the length needs more than one byte) */
static void pb_close(pb_t *p, size_t mark) {
    if (p->oom) return;
    size_t len = p->n - mark, w = 1;
    for (size_t v = len; v >= 0x80; v >>= 7) w++;
    if (w > 1) {
        if (!pb_room(p, w - 1)) return;
        memmove(p->b + mark + w - 1, p->b + mark, len);
        p->n += w - 1;
    }
    uint8_t *q = p->b + mark - 1;
    size_t v = len;
    for (; v >= 0x80; v >>= 7) *q++ = (uint8_t)(v | 0x80);
    *q = (uint8_t)v;
}

/* ---- interning: a 64-bit key to an iid (open addressing) --------------------------------- */
typedef struct itab {
    uint64_t *key;
    uint32_t *iid; /* 0: empty slot */
    size_t cap, n;
    uint32_t next;
} itab_t;

static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}
/* the iid of key, *fresh when it was just given (the caller emits its string); 0: no memory */
static uint32_t itab_get(itab_t *t, uint64_t key, bool *fresh) {
    *fresh = false;
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        uint64_t *k = calloc(cap, sizeof *k);
        uint32_t *v = calloc(cap, sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return 0;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->iid[i]) {
                size_t j = mix(t->key[i]) & (cap - 1);
                while (v[j]) j = (j + 1) & (cap - 1);
                k[j] = t->key[i];
                v[j] = t->iid[i];
            }
        free(t->key);
        free(t->iid);
        t->key = k;
        t->iid = v;
        t->cap = cap;
    }
    size_t j = mix(key) & (t->cap - 1);
    while (t->iid[j]) {
        if (t->key[j] == key) return t->iid[j];
        j = (j + 1) & (t->cap - 1);
    }
    t->key[j] = key;
    t->iid[j] = ++t->next;
    t->n++;
    *fresh = true;
    return t->iid[j];
}
static void itab_free(itab_t *t) {
    free(t->key);
    free(t->iid);
}

/* ---- the writer's state ------------------------------------------------------------------ */
#define PF_SWITCH_QUEUE 16 /* beyond it only the last switch is kept */
#define PF_MAX_ANNOT 80    /* debug annotation names (fixed ones and 4 per counter name) */
#define PF_NAME_MAX 256    /* a THREAD_NAME's characters kept (longer: cut, marked "...") */
enum { AN_FUNCTION = 1,
       AN_CALL_SITE,
       AN_RECORD,
       AN_ADDRESS,
       AN_ID,
       AN_GROUP,
       AN_VALUE,
       AN_TP,
       AN_NAME,
       AN_TRAP,
       AN_CAUSE,
       AN_PC,
       AN_HANDLER,
       AN_DEPTH,
       AN_LATENCY,
       AN_RESUMED,
       AN_ROOT,
       AN_FIXED = AN_ROOT };

typedef struct pf_thread {
    unsigned hart;
    uint64_t tp;
    bool initial; /* the thread before the hart's first switch */
    uint64_t uuid;
} pf_thread_t;

typedef struct pf_hart {
    cs_t cs;        /* the call stack of its records, a thread per pf_thread_t index (rec_stack.h) */
    bool described; /* its process track was written */
    int cur;        /* its running thread (index into threads), -1: none yet */
    bool have_h;
    perf_header_t h;
    unsigned gen; /* counter track generation (a header with other counters: new tracks) */
    bool counter_described[PERF_MAX_COUNTERS];
    uint32_t an[PERF_MAX_COUNTERS][4]; /* annotation iids: value, delta, exit value, exit delta */
    bool have_last;
    uint64_t last; /* the previous record's (or the header's) time, ns */
    /* the hart's last event, written when the next record comes: the deltas of that record
     * measure the interval that starts at it, and go into it as extra counter values (a
     * packet per sample would be two thirds of the file) */
    pb_t pend;
    bool pend_valid;
    uint64_t pend_ns;
    /* the software trace port: the running thread's slice on the hart's "threads" track */
    bool sw_described, sw_open, sw_have_last;
    uint64_t sw_last;            /* the latest time of a software event of the hart, ns */
    char tname[PF_NAME_MAX + 1]; /* a THREAD_NAME being assembled */
    size_t tname_len;
    bool tname_cut;
    bool flow_described, trap_described; /* its "calls" and "traps" tracks were written */
} pf_hart_t;

struct ts_pf {
    FILE *out;
    const elf_syms_t *syms;
    elf_syms_cache_t fn_cache; /* the last function found */
    ts_pf_line_fn line;
    void *line_ctx;
    ts_tl_time_t tt;
    pb_t pkt, ev, in, tmp; /* the packet, its TrackEvent, its InternedData, scratch */
    itab_t names, strs;
    char *annot[PF_MAX_ANNOT + 1]; /* annotation names by iid */
    unsigned nannot;
    bool annot_fresh[PF_MAX_ANNOT + 1]; /* not yet written in InternedData */
    pf_hart_t hart[PERF_MAX_CORES];
    pf_thread_t *threads;
    size_t nthreads, capthreads;
    bool first_packet;
    const perf_dec_t *pd;
    unsigned nswitch[PERF_MAX_CORES]; /* switches waiting for the record being assembled */
    uint64_t switch_tp[PERF_MAX_CORES][PF_SWITCH_QUEUE];
    rs_site_fn site; /* the enter records' call sites (ts_pf_sites) */
    void *site_ctx;
    uint64_t close_ns; /* the time a frame the call stack closes ends at */
    ts_pf_stats_t st;
};

static bool pf_oom(ts_pf_t *p) {
    if (p->pkt.oom || p->ev.oom || p->in.oom || p->tmp.oom) p->st.oom = true;
    return p->st.oom;
}

/* writes the packet: [timestamp] the sequence, [interned data], then body's field */
static void pf_emit(ts_pf_t *p, bool timed, uint64_t ns, unsigned field, const pb_t *body) {
    pb_t *k = &p->pkt;
    k->n = 0;
    size_t m = pb_open(k, F_TRACE_PACKET);
    if (timed) pb_uint(k, F_PKT_TIMESTAMP, ns);
    pb_uint(k, F_PKT_SEQ_ID, 1);
    pb_uint(k, F_PKT_SEQ_FLAGS, p->first_packet ? SEQ_INCREMENTAL_CLEARED : SEQ_NEEDS_INCREMENTAL);
    p->first_packet = false;
    if (p->in.n) pb_bytes(k, F_PKT_INTERNED, p->in.b, p->in.n);
    p->in.n = 0;
    pb_bytes(k, field, body->b, body->n);
    pb_close(k, m);
    if (pf_oom(p)) return;
    fwrite(k->b, 1, k->n, p->out);
    p->st.packets++;
}

/* the iid of an annotation name (its string into the next packet's interned data when new);
 * 0 when the table is full (the annotation is then left out) */
static uint32_t annot_iid(ts_pf_t *p, const char *name) {
    for (unsigned i = 1; i <= p->nannot; i++)
        if (!strcmp(p->annot[i], name)) return i;
    if (p->nannot == PF_MAX_ANNOT) return 0;
    char *s = strdup(name);
    if (!s) {
        p->st.oom = true;
        return 0;
    }
    p->annot[++p->nannot] = s;
    p->annot_fresh[p->nannot] = true;
    return p->nannot;
}
/* the fresh annotation names into the packet's interned data */
static void annot_flush(ts_pf_t *p) {
    for (unsigned i = 1; i <= p->nannot; i++)
        if (p->annot_fresh[i]) {
            p->annot_fresh[i] = false;
            size_t m = pb_open(&p->in, F_ID_ANNOT_NAMES);
            pb_uint(&p->in, F_IID, i);
            pb_str(&p->in, F_INAME, p->annot[i]);
            pb_close(&p->in, m);
        }
}

static void pf_event_start(ts_pf_t *p, uint64_t track, unsigned type, uint32_t name);

/* a frame the call stack closes (callstack.h): its END at close_ns on its thread's track, but
 * for an exit record's own frame (CS_RETURN), whose END the record writes with its args */
static void pf_frame_closed(void *ctx, uint64_t thread, const cs_frame_t *f, void *user, cs_why_t why) {
    ts_pf_t *p = ctx;
    (void)f;
    (void)user;
    if (why == CS_RETURN || thread >= p->nthreads) return;
    pf_event_start(p, p->threads[thread].uuid, TYPE_SLICE_END, 0);
    pf_emit(p, true, p->close_ns, F_PKT_TRACK_EVENT, &p->ev);
}

void ts_pf_sites(ts_pf_t *p, rs_site_fn site, void *site_ctx) {
    p->site = site;
    p->site_ctx = site_ctx;
}

ts_pf_t *ts_pf_open(FILE *out, const elf_syms_t *syms, ts_pf_line_fn line, void *line_ctx, const ts_tl_time_t *tt) {
    ts_pf_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->out = out;
    p->syms = syms;
    p->line = line;
    p->line_ctx = line_ctx;
    p->tt = *tt;
    p->first_packet = true;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        p->hart[k].cur = -1;
        cs_init(&p->hart[k].cs, 0, pf_frame_closed, p);
    }
    static const char *const fixed[] = {"function", "call_site", "record", "address", "id", "group", "value", "tp",
                                        "name", "trap", "cause", "pc", "handler", "depth", "latency", "resumed", "root"};
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++) annot_iid(p, fixed[i]);
    if (p->st.oom) {
        ts_pf_close(p);
        return NULL;
    }
    return p;
}

static void pf_flush(ts_pf_t *p, unsigned h, const perf_record_t *r);
static void pf_sw_end(ts_pf_t *p, unsigned h, uint64_t ns);

void ts_pf_records_end(ts_pf_t *p) {
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        pf_flush(p, k, NULL);
        p->close_ns = p->hart[k].last;
        cs_clear_all(&p->hart[k].cs);
    }
}

void ts_pf_close(ts_pf_t *p) {
    if (!p) return;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        pf_flush(p, k, NULL);
        pf_sw_end(p, k, p->hart[k].sw_last); /* the running thread: to the hart's last software event */
    }
    free(p->pkt.b);
    free(p->ev.b);
    free(p->in.b);
    free(p->tmp.b);
    itab_free(&p->names);
    itab_free(&p->strs);
    for (unsigned i = 1; i <= p->nannot; i++) free(p->annot[i]);
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) {
        free(p->hart[k].pend.b);
        cs_free(&p->hart[k].cs);
    }
    free(p->threads);
    free(p);
}

void ts_pf_stats(const ts_pf_t *p, ts_pf_stats_t *s) { *s = p->st; }

/* the time of tics in ns: false when before the simulator's cycle 0 */
static bool pf_ns(const ts_pf_t *p, uint64_t tics, uint64_t *ns) {
    if (p->tt.cycles) {
        int64_t c = (int64_t)tics - p->tt.offset;
        if (c < 0) return false;
        *ns = (uint64_t)c;
        return true;
    }
    double v = (double)tics * p->tt.us_per_tick * 1000.0;
    if (!(v >= 0) || v >= 1.8e19) return false;
    *ns = (uint64_t)(v + 0.5);
    return true;
}

/* ---- tracks ------------------------------------------------------------------------------ */
#define HART_UUID(h) (0x100u + (h))
#define THREAD_UUID(i) (0x10000u + (uint64_t)(i))
#define SW_UUID(h) (0x200u + (h))   /* "hart N threads": the software trace's running thread */
#define FLOW_UUID(h) (0x300u + (h)) /* "hart N calls": the program flow's frames */
#define TRAP_UUID(h) (0x400u + (h)) /* "hart N traps": traps.csv's traps */
#define COUNTER_UUID(h, gen, i) (0x1000000u + ((uint64_t)(gen) << 12) + PERF_MAX_COUNTERS * (uint64_t)(h) + (i))

static void pf_hart_track(ts_pf_t *p, unsigned h) {
    if (p->hart[h].described) return;
    p->hart[h].described = true;
    char name[32];
    snprintf(name, sizeof name, "hart %u", h);
    pb_t *b = &p->ev;
    b->n = 0;
    pb_uint(b, F_TD_UUID, HART_UUID(h));
    size_t m = pb_open(b, F_TD_PROCESS);
    pb_uint(b, F_PD_PID, h + 1);
    pb_str(b, F_PD_NAME, name);
    pb_close(b, m);
    pf_emit(p, false, 0, F_PKT_TRACK_DESC, b);
}

/* the thread (hart, tp) (initial: the hart's thread before any switch), its track described
 * when new; -1 when out of memory */
static int pf_thread_slot(ts_pf_t *p, unsigned h, bool initial, uint64_t tp) {
    for (size_t i = 0; i < p->nthreads; i++) {
        pf_thread_t *t = &p->threads[i];
        if (t->hart == h && t->initial == initial && (initial || t->tp == tp)) return (int)i;
    }
    if (p->nthreads == p->capthreads) {
        size_t cap = p->capthreads ? 2 * p->capthreads : 16;
        pf_thread_t *n = realloc(p->threads, cap * sizeof *n);
        if (!n) {
            p->st.oom = true;
            return -1;
        }
        p->threads = n;
        p->capthreads = cap;
    }
    size_t i = p->nthreads++;
    p->threads[i] = (pf_thread_t){.hart = h, .tp = tp, .initial = initial, .uuid = THREAD_UUID(i)};
    p->st.threads++;
    pf_hart_track(p, h);
    char name[48];
    if (initial) snprintf(name, sizeof name, "hart %u", h);
    else
        snprintf(name, sizeof name, "tp 0x%08" PRIx64, tp);
    pb_t *b = &p->ev;
    b->n = 0;
    pb_uint(b, F_TD_UUID, p->threads[i].uuid);
    size_t m = pb_open(b, F_TD_THREAD);
    pb_uint(b, F_THD_PID, h + 1);
    pb_uint(b, F_THD_TID, 1000 + i);
    pb_str(b, F_THD_NAME, name);
    pb_close(b, m);
    pf_emit(p, false, 0, F_PKT_TRACK_DESC, b);
    return (int)i;
}

/* the hart's running thread (the initial one until the first switch) */
static pf_thread_t *pf_cur(ts_pf_t *p, unsigned h) {
    if (p->hart[h].cur < 0) p->hart[h].cur = pf_thread_slot(p, h, true, 0);
    return p->hart[h].cur < 0 ? NULL : &p->threads[p->hart[h].cur];
}

void ts_pf_thread(ts_pf_t *p, unsigned hart, uint64_t tp) {
    unsigned h = hart % PERF_MAX_CORES;
    int i = pf_thread_slot(p, h, false, tp);
    if (i >= 0) p->hart[h].cur = i;
}

void ts_pf_decoder(ts_pf_t *p, const perf_dec_t *pd) { p->pd = pd; }

/* key spaces of the interned strings: (address << 3) | kind. Event names: K_FUNC, the
 * K_INSTANT_*, K_SPECIAL; annotation strings: K_FUNC, K_SITE (a return address), K_SITE | 4
 * (a pc), K_RECORD (a record type's name; the type in place of the address); K_OTHER: the
 * names of the software trace, the program flow and the traps, (X << 3 | sub) in place of the
 * address: sub 1 "thread name", 2 a tp, 3 an event id, 4 a function of the flow, 5 a cause,
 * 6 a trap event's cause */
enum { K_FUNC,
       K_SITE,
       K_INSTANT_MANUAL,
       K_INSTANT_ISR,
       K_INSTANT_EXIT,
       K_SPECIAL,
       K_RECORD,
       K_OTHER };

/* forward: the event machinery below */
static uint32_t pf_name(ts_pf_t *p, uint64_t key, const char *s);
static void an_uint(pb_t *b, uint32_t name, uint64_t v);
static void an_str(pb_t *b, uint32_t name, const char *s);
static void pf_event_start(ts_pf_t *p, uint64_t track, unsigned type, uint32_t name);

/* a named track (no thread, no counter) under hart h's process: "hart N threads", "hart N
 * calls", "hart N traps" */
static void pf_named_track(ts_pf_t *p, unsigned h, uint64_t uuid, const char *what) {
    pf_hart_track(p, h);
    char name[64];
    snprintf(name, sizeof name, "hart %u %s", h, what);
    pb_t *b = &p->ev;
    b->n = 0;
    pb_uint(b, F_TD_UUID, uuid);
    pb_uint(b, F_TD_PARENT, HART_UUID(h));
    pb_str(b, F_TD_NAME, name);
    pf_emit(p, false, 0, F_PKT_TRACK_DESC, b);
}

/* the track of the thread running on hart h as the elements go: its last THREAD_SWITCH, also
 * one still waiting for the record being assembled */
static pf_thread_t *pf_running(ts_pf_t *p, unsigned h) {
    if (!p->nswitch[h]) return pf_cur(p, h);
    int i = pf_thread_slot(p, h, false, p->switch_tp[h][p->nswitch[h] - 1]);
    return i < 0 ? NULL : &p->threads[i];
}

/* the running thread's slice on the hart's "threads" track ends at ns */
static void pf_sw_end(ts_pf_t *p, unsigned h, uint64_t ns) {
    pf_hart_t *H = &p->hart[h];
    if (!H->sw_open) return;
    H->sw_open = false;
    pf_event_start(p, SW_UUID(h), TYPE_SLICE_END, 0);
    pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
}

/* a software trace port event (stm_decode.h's semantics): THREAD_SWITCH a slice "tp 0x..."
 * on the hart's "threads" track until the next switch; THREAD_NAME 4 characters of the
 * running thread's name (a completed name: an instant "thread name" with the name as an
 * argument); any other event an instant "GROUP 0xID" on the running thread's track with id,
 * group and value as arguments */
static void pf_stm(ts_pf_t *p, const ts_elem_t *e) {
    unsigned h = e->src % PERF_MAX_CORES;
    pf_hart_t *H = &p->hart[h];
    const ts_stm_ev_t *v = &e->u.stm;
    bool sw = v->event && !strcmp(v->event, "THREAD_SWITCH"), tn = v->event && !strcmp(v->event, "THREAD_NAME");
    uint64_t ns = 0;
    bool timed = e->has_time && pf_ns(p, e->time, &ns);
    if (timed) {
        if (!H->sw_have_last || ns > H->sw_last) H->sw_last = ns;
        H->sw_have_last = true;
    }
    if (tn) {
        bool done = false;
        for (unsigned k = 0; k < 4 && !done; k++) {
            char c = (char)(v->value >> (8 * k) & 0xff);
            if (!c) done = true;
            else if (H->tname_len < PF_NAME_MAX)
                H->tname[H->tname_len++] = c;
            else
                H->tname_cut = true;
        }
        if (!done) return;
        H->tname[H->tname_len] = 0;
        char name[PF_NAME_MAX + 4];
        snprintf(name, sizeof name, "%s%s", H->tname, H->tname_cut ? "..." : "");
        H->tname_len = 0;
        H->tname_cut = false;
        if (!timed) {
            p->st.sw_untimed++;
            return;
        }
        pf_thread_t *t = pf_running(p, h);
        if (!t) return;
        uint32_t nm = pf_name(p, (uint64_t)1 << 3 | K_OTHER, "thread name");
        annot_flush(p);
        pf_event_start(p, t->uuid, TYPE_INSTANT, nm);
        an_str(&p->ev, AN_NAME, name);
        pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
        p->st.sw_events++;
        return;
    }
    if (!timed) {
        p->st.sw_untimed++;
        return;
    }
    if (sw) {
        if (!H->sw_described) {
            H->sw_described = true;
            pf_named_track(p, h, SW_UUID(h), "threads");
        }
        pf_sw_end(p, h, ns);
        char name[40];
        snprintf(name, sizeof name, "tp 0x%08" PRIx64, v->value);
        uint32_t nm = pf_name(p, (v->value << 3 | 2) << 3 | K_OTHER, name);
        annot_flush(p);
        pf_event_start(p, SW_UUID(h), TYPE_SLICE_BEGIN, nm);
        an_uint(&p->ev, AN_TP, v->value);
        pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
        H->sw_open = true;
        p->st.sw_slices++;
        return;
    }
    pf_thread_t *t = pf_running(p, h);
    if (!t) return;
    char name[40], id[16];
    snprintf(id, sizeof id, "0x%04x", v->id);
    snprintf(name, sizeof name, "%s %s", v->group ? v->group : "?", id);
    uint32_t nm = pf_name(p, ((uint64_t)v->id << 3 | 3) << 3 | K_OTHER, name);
    annot_flush(p);
    pf_event_start(p, t->uuid, TYPE_INSTANT, nm);
    an_str(&p->ev, AN_ID, id);
    an_str(&p->ev, AN_GROUP, v->group ? v->group : "?");
    an_uint(&p->ev, AN_VALUE, v->value);
    pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
    p->st.sw_events++;
}

/* an ICT event of a trap (an event-mode program trace: CKSRC 11 interrupt, 10 exception,
 * CKDF 1: CKDATA1 the cause; as irqs_trace_elem): an instant "trap: CAUSE" on the running
 * thread's track, arguments cause and pc (the trapped instruction's address, when the
 * message has it) */
static void pf_ict_trap(ts_pf_t *p, const ts_elem_t *e) {
    unsigned h = e->src % PERF_MAX_CORES;
    uint64_t ns;
    if (!e->has_time || !pf_ns(p, e->time, &ns)) {
        p->st.trap_untimed++;
        return;
    }
    uint32_t cause = (uint32_t)(e->u.ict.data1 & 0x7FFFFFFFu) | (e->u.ict.cksrc == 11 ? 0x80000000u : 0);
    pf_thread_t *t = pf_running(p, h);
    if (!t) return;
    char cb[40], name[64], num[24];
    snprintf(name, sizeof name, "trap: %s", irqs_cause_name(cause, cb, sizeof cb));
    uint32_t nm = pf_name(p, ((uint64_t)cause << 3 | 6) << 3 | K_OTHER, name);
    annot_flush(p);
    pf_event_start(p, t->uuid, TYPE_INSTANT, nm);
    snprintf(num, sizeof num, "0x%08" PRIx32, cause);
    an_str(&p->ev, AN_CAUSE, num);
    if (e->u.ict.has_addr) {
        snprintf(num, sizeof num, "0x%08" PRIx64, e->u.ict.addr);
        an_str(&p->ev, AN_PC, num);
    }
    pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
    p->st.trap_events++;
}

int ts_pf_elem(void *ctx, const ts_elem_t *e) {
    ts_pf_t *p = ctx;
    if (p->st.oom) return 0;
    if (e->type == TS_ELEM_ICT_EVENT && (e->u.ict.cksrc == 10 || e->u.ict.cksrc == 11) && e->u.ict.ckdf == 1) {
        pf_ict_trap(p, e);
        return 0;
    }
    if (e->type != TS_ELEM_STM) return 0;
    pf_stm(p, e);
    if (!e->u.stm.event || strcmp(e->u.stm.event, "THREAD_SWITCH")) return 0;
    unsigned h = e->src % PERF_MAX_CORES;
    if (p->pd && p->pd->core[h].in_record) {
        if (p->nswitch[h] == PF_SWITCH_QUEUE) p->nswitch[h]--; /* the last replaces the one before */
        p->switch_tp[h][p->nswitch[h]++] = e->u.stm.value;
    } else
        ts_pf_thread(p, h, e->u.stm.value);
    return 0;
}

/* the switches that came while the hart's record r was being assembled: after it */
static void pf_switches_after(ts_pf_t *p, unsigned h) {
    for (unsigned i = 0; i < p->nswitch[h]; i++) ts_pf_thread(p, h, p->switch_tp[h][i]);
    p->nswitch[h] = 0;
}

static bool same_names(const perf_header_t *a, const perf_header_t *b) {
    if (a->n != b->n) return false;
    for (unsigned i = 0; i < a->n && i < PERF_MAX_COUNTERS; i++) {
        char x[64], y[64];
        perf_counter_name(&a->def[i], x, sizeof x);
        perf_counter_name(&b->def[i], y, sizeof y);
        if (strcmp(x, y)) return false;
    }
    return true;
}

void ts_pf_header(void *ctx, const perf_header_t *hd) {
    ts_pf_t *p = ctx;
    unsigned h = hd->core % PERF_MAX_CORES;
    pf_hart_t *H = &p->hart[h];
    if (H->have_h && !same_names(&H->h, hd)) { /* other counters: other tracks */
        H->gen++;
        memset(H->counter_described, 0, sizeof H->counter_described);
    }
    H->h = *hd;
    H->have_h = true;
    uint64_t ns;
    H->have_last = hd->tics_valid && pf_ns(p, hd->tics, &ns); /* the first deltas count from the header on */
    H->last = H->have_last ? ns : 0;
    pf_hart_track(p, h);
    for (unsigned i = 0; i < hd->n && i < PERF_MAX_COUNTERS; i++) {
        char cn[64], an[96];
        perf_counter_name(&hd->def[i], cn, sizeof cn);
        static const char *const pre[4] = {"", "", "exit.", "exit."}, *const post[4] = {"", "_delta", "", "_delta"};
        for (unsigned k = 0; k < 4; k++) {
            snprintf(an, sizeof an, "%s%s%s", pre[k], cn, post[k]);
            H->an[i][k] = annot_iid(p, an);
        }
    }
}

/* the counter track of hart h's counter i, described when new */
static uint64_t pf_counter_track(ts_pf_t *p, unsigned h, unsigned i) {
    pf_hart_t *H = &p->hart[h];
    uint64_t uuid = COUNTER_UUID(h, H->gen, i);
    if (H->counter_described[i]) return uuid;
    H->counter_described[i] = true;
    char cn[64], name[96];
    perf_counter_name(&H->h.def[i], cn, sizeof cn);
    snprintf(name, sizeof name, "%u: %s delta", h, cn);
    pb_t *b = &p->ev;
    b->n = 0;
    pb_uint(b, F_TD_UUID, uuid);
    pb_uint(b, F_TD_PARENT, HART_UUID(h));
    pb_str(b, F_TD_NAME, name);
    size_t m = pb_open(b, F_TD_COUNTER);
    pb_uint(b, F_CD_UNIT, UNIT_COUNT);
    pb_close(b, m);
    pf_emit(p, false, 0, F_PKT_TRACK_DESC, b);
    return uuid;
}

/* an event name's iid: key identifies the string (fresh: it is written into the packet's
 * interned data) */
static uint32_t pf_name(ts_pf_t *p, uint64_t key, const char *s) {
    bool fresh;
    uint32_t iid = itab_get(&p->names, key, &fresh);
    if (!iid) {
        p->st.oom = true;
        return 0;
    }
    if (fresh) {
        size_t m = pb_open(&p->in, F_ID_EVENT_NAMES);
        pb_uint(&p->in, F_IID, iid);
        pb_str(&p->in, F_INAME, s);
        pb_close(&p->in, m);
    }
    return iid;
}
/* an annotation string value's iid (as pf_name) */
static uint32_t pf_strv(ts_pf_t *p, uint64_t key, const char *s) {
    bool fresh;
    uint32_t iid = itab_get(&p->strs, key, &fresh);
    if (!iid) {
        p->st.oom = true;
        return 0;
    }
    if (fresh) {
        size_t m = pb_open(&p->in, F_ID_ANNOT_STRINGS);
        pb_uint(&p->in, F_IID, iid);
        pb_str(&p->in, F_INAME, s);
        pb_close(&p->in, m);
    }
    return iid;
}

static void an_uint(pb_t *b, uint32_t name, uint64_t v) {
    if (!name) return;
    size_t m = pb_open(b, F_TE_ANNOT);
    pb_uint(b, F_DA_NAME_IID, name);
    pb_uint(b, F_DA_UINT, v);
    pb_close(b, m);
}
static void an_str_iid(pb_t *b, uint32_t name, uint32_t iid) {
    if (!name || !iid) return;
    size_t m = pb_open(b, F_TE_ANNOT);
    pb_uint(b, F_DA_NAME_IID, name);
    pb_uint(b, F_DA_STRING_IID, iid);
    pb_close(b, m);
}
static void an_str(pb_t *b, uint32_t name, const char *s) {
    size_t m = pb_open(b, F_TE_ANNOT);
    pb_uint(b, F_DA_NAME_IID, name);
    pb_str(b, F_DA_STRING, s);
    pb_close(b, m);
}


/* the site string "file:line (0xADDR)" of a call site (the call instruction ends at addr) or
 * of an interrupted pc (exact: the instruction at addr) */
static uint32_t pf_site(ts_pf_t *p, uint64_t addr, bool ret_addr) {
    char s[600];
    bool fresh;
    uint64_t key = addr << 3 | K_SITE | (ret_addr ? 0 : 4);
    /* look it up first: the line table only for a new one */
    uint32_t iid = itab_get(&p->strs, key, &fresh);
    if (!iid) {
        p->st.oom = true;
        return 0;
    }
    if (!fresh) return iid;
    unsigned line = 0;
    const char *file = p->line && (!ret_addr || addr >= 2) ? p->line(p->line_ctx, ret_addr ? addr - 2 : addr, &line) : NULL;
    if (file) {
        const char *base = strrchr(file, '/');
        snprintf(s, sizeof s, "%s:%u (0x%08" PRIx64 ")", base ? base + 1 : file, line, addr);
    } else
        snprintf(s, sizeof s, "0x%08" PRIx64, addr);
    size_t m = pb_open(&p->in, F_ID_ANNOT_STRINGS);
    pb_uint(&p->in, F_IID, iid);
    pb_str(&p->in, F_INAME, s);
    pb_close(&p->in, m);
    return iid;
}

/* the TrackEvent's counter annotations: value and delta (exit: the exit.* names) */
static void pf_counter_args(ts_pf_t *p, const perf_record_t *r, bool exit) {
    pf_hart_t *H = &p->hart[r->core % PERF_MAX_CORES];
    for (unsigned i = 0; i < r->n && i < H->h.n && i < PERF_MAX_COUNTERS; i++) {
        if (!(r->value_unknown >> i & 1)) an_uint(&p->ev, H->an[i][exit ? 2 : 0], r->value[i]);
        if (!(r->delta_unknown >> i & 1)) an_uint(&p->ev, H->an[i][exit ? 3 : 1], r->delta[i]);
    }
}

/* a simple event on track: type, name iid (0: none) */
static void pf_event_start(ts_pf_t *p, uint64_t track, unsigned type, uint32_t name) {
    pb_t *b = &p->ev;
    b->n = 0;
    pb_uint(b, F_TE_TYPE, type);
    pb_uint(b, F_TE_TRACK, track);
    if (name) pb_uint(b, F_TE_NAME_IID, name);
}

static void pf_special(ts_pf_t *p, uint64_t track, uint64_t ns, unsigned which, const char *text) {
    uint32_t nm = pf_name(p, (uint64_t)which << 3 | K_SPECIAL, text);
    annot_flush(p);
    pf_event_start(p, track, TYPE_INSTANT, nm);
    pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
    p->st.instants++;
}

/* the event as the hart's pending one (p->ev becomes the old pending buffer) */
static void pf_pend(ts_pf_t *p, unsigned h, uint64_t ns) {
    pf_hart_t *H = &p->hart[h];
    pb_t t = H->pend;
    H->pend = p->ev;
    p->ev = t;
    p->ev.n = 0;
    H->pend_valid = true;
    H->pend_ns = ns;
}

/* writes the hart's pending event, with r's known deltas as its extra counter values (r
 * NULL: none) */
static void pf_flush(ts_pf_t *p, unsigned h, const perf_record_t *r) {
    pf_hart_t *H = &p->hart[h];
    if (!H->pend_valid) return;
    H->pend_valid = false;
    if (r) {
        unsigned n = 0;
        for (unsigned i = 0; i < r->n && i < H->h.n && i < PERF_MAX_COUNTERS; i++)
            if (!(r->delta_unknown >> i & 1)) {
                uint64_t track = pf_counter_track(p, h, i); /* (its descriptor first: p->ev is free) */
                pb_uint(&H->pend, F_TE_EXTRA_TRACKS, track);
                n++;
            }
        for (unsigned i = 0; i < r->n && i < H->h.n && i < PERF_MAX_COUNTERS; i++)
            if (!(r->delta_unknown >> i & 1)) pb_uint(&H->pend, F_TE_EXTRA_VALUES, r->delta[i]);
        p->st.counter_samples += n;
    }
    pf_emit(p, true, H->pend_ns, F_PKT_TRACK_EVENT, &H->pend);
}

static void pf_record(ts_pf_t *p, const perf_record_t *r) {
    if (p->st.oom) return;
    unsigned h = r->core % PERF_MAX_CORES;
    pf_hart_t *H = &p->hart[h];
    uint64_t ns;
    if (!r->tics_valid || !pf_ns(p, r->tics, &ns)) {
        p->st.untimed++;
        H->have_last = false;
        return;
    }
    pf_thread_t *t = pf_cur(p, h);
    if (!t) return;
    bool have_start = H->have_last && !r->gap_before;
    uint64_t start = H->last;
    H->have_last = true;
    H->last = ns;
    bool named = r->has_addr && !r->addr_unknown; /* counter samples with the records that are events */
    bool attach = have_start && named && H->pend_valid && H->pend_ns == start;
    pf_flush(p, h, attach ? r : NULL);
    if (attach) have_start = false; /* the samples went with the previous event */
    if (cs_switch(&H->cs, (uint64_t)H->cur)) {
        p->st.oom = true;
        return;
    }
    if (r->gap_before) { /* the hart's stacks are lost: every open slice of its threads ends */
        p->close_ns = ns;
        cs_clear_all(&H->cs);
        pf_special(p, t->uuid, ns, 1, "gap: perf data lost");
    }
    if (r->truncated) pf_special(p, t->uuid, ns, 2, "record cut off (truncated)");
    if (r->addr_unknown) {
        p->st.unknown++;
        return;
    }
    if (!r->has_addr) {
        p->st.unnamed++;
        return;
    }
    /* the counter samples: each delta at the start of the interval it measures */
    if (have_start)
        for (unsigned i = 0; i < r->n && i < H->h.n && i < PERF_MAX_COUNTERS; i++) {
            if (r->delta_unknown >> i & 1) continue;
            uint64_t track = pf_counter_track(p, h, i);
            pf_event_start(p, track, TYPE_COUNTER, 0);
            pb_uint(&p->ev, F_TE_COUNTER, r->delta[i]); /* int64: a delta is below 2^63 (48-bit counters) */
            pf_emit(p, true, start, F_PKT_TRACK_EVENT, &p->ev);
            p->st.counter_samples++;
        }
    const elf_sym_t *sym = p->syms ? elf_syms_lookup_cached(p->syms, &p->fn_cache, r->addr) : NULL;
    uint64_t fkey = sym ? sym->addr : r->addr;
    char addr[24];
    snprintf(addr, sizeof addr, "0x%08" PRIx64, r->addr);
    const char *fn = sym ? sym->name : addr;
    bool enter = r->type == PERF_FUNC_ENTER, exit = r->type == PERF_FUNC_EXIT;
    if (r->truncated) enter = exit = false; /* not an event of the call stack (as in report) */
    uint32_t id = (uint32_t)r->addr;        /* a function's number: its entry's low 32 bits */
    rs_pre_t pre = {.top = CS_NO_FUNC};
    if (enter || exit) { /* frames left by another route end at the record before */
        p->close_ns = have_start || attach ? start : ns;
        rs_before(&H->cs, p->site, p->site_ctx, r, exit ? id : CS_NO_FUNC, &pre);
    }
    if (enter && !rs_push(&H->cs, r, id, &pre)) enter = false; /* too deep: an instant */
    if (exit && !cs_exit(&H->cs, id)) {
        pf_event_start(p, t->uuid, TYPE_SLICE_END, 0);
        annot_flush(p);
        pf_counter_args(p, r, true);
        pf_pend(p, h, ns);
        return;
    }
    uint32_t nm, fv = pf_strv(p, fkey << 3 | K_FUNC, fn);
    if (enter) nm = pf_name(p, fkey << 3 | K_FUNC, fn);
    else {
        char name[320];
        snprintf(name, sizeof name, "%s %s", exit ? "exit (no enter)" : perf_record_name(r->type), fn);
        nm = pf_name(p, fkey << 3 | (exit ? K_INSTANT_EXIT : r->type == PERF_ISR ? K_INSTANT_ISR :
                                                                                   K_INSTANT_MANUAL),
                     name);
    }
    uint32_t site = 0;
    if ((enter || exit) && r->has_call_site) site = pf_site(p, r->call_site, true);
    else if (!enter && !exit)
        site = pf_site(p, r->addr, r->type != PERF_ISR); /* manual: the return address of its call */
    annot_flush(p);
    pf_event_start(p, t->uuid, enter ? TYPE_SLICE_BEGIN : TYPE_INSTANT, nm);
    an_str_iid(&p->ev, AN_FUNCTION, fv);
    an_str_iid(&p->ev, AN_CALL_SITE, site);
    if (!enter) an_str_iid(&p->ev, AN_RECORD, pf_strv(p, (uint64_t)r->type << 3 | K_RECORD, perf_record_name(r->type)));
    if (!enter && !sym) an_str(&p->ev, AN_ADDRESS, addr);
    pf_counter_args(p, r, false);
    pf_pend(p, h, ns);
    if (enter) {
        p->st.slices++;
    } else
        p->st.instants++;
}

void ts_pf_record(void *ctx, const perf_record_t *r) {
    ts_pf_t *p = ctx;
    pf_record(p, r);
    pf_switches_after(p, r->core % PERF_MAX_CORES);
}

void ts_pf_error(void *ctx, unsigned core, uint64_t offset, const char *what) {
    ts_pf_t *p = ctx;
    ts_perf_diag(&p->st.errors, &p->st.gaps, core, offset, what);
}

/* ---- the program flow: a slice per frame (flow_calls.h) on the hart's "calls" track ----- */
typedef struct pff_ev {
    size_t func;
    uint64_t k;
    bool begin, trap, resumed, root;
} pff_ev_t;
typedef struct pff_src {
    pff_ev_t *ev; /* waiting for the next timed point */
    size_t n, cap;
    bool have_a;
    uint64_t k_a, t_a;
} pff_src_t;

struct ts_pf_flow {
    ts_pf_t *p;
    pf_image_t img;
    elf_syms_t syms;
    fc_t fc;
    pff_src_t *s[NXD_MAX_SRC];
    bool oom;
};

static pff_src_t *pff_src(ts_pf_flow_t *f, unsigned src) {
    if (!f->s[src] && !(f->s[src] = calloc(1, sizeof *f->s[src]))) f->oom = true;
    return f->s[src];
}

/* the waiting events at time base + (k - k0) * r (trace ticks) */
static void pff_flush(ts_pf_flow_t *f, unsigned src, pff_src_t *s, double base, uint64_t k0, double r) {
    ts_pf_t *p = f->p;
    unsigned h = src % PERF_MAX_CORES;
    pf_hart_t *H = &p->hart[h];
    if (s->n && !H->flow_described) {
        H->flow_described = true;
        pf_named_track(p, h, FLOW_UUID(h), "calls");
    }
    for (size_t i = 0; i < s->n; i++) {
        const pff_ev_t *e = &s->ev[i];
        double tics = base + (double)(e->k - k0) * r;
        uint64_t ns = 0;
        if (!pf_ns(p, (uint64_t)(tics + 0.5), &ns)) ns = 0; /* before cycle 0: at 0, so that begin and end pair */
        if (!e->begin) {
            pf_event_start(p, FLOW_UUID(h), TYPE_SLICE_END, 0);
            pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
            continue;
        }
        const char *fn = fc_func_name(&f->fc, e->func);
        uint32_t nm = pf_name(p, ((uint64_t)e->func << 3 | 4) << 3 | K_OTHER, fn);
        annot_flush(p);
        pf_event_start(p, FLOW_UUID(h), TYPE_SLICE_BEGIN, nm);
        an_str(&p->ev, AN_FUNCTION, fn);
        if (e->trap) an_uint(&p->ev, AN_TRAP, 1);
        if (e->resumed) an_uint(&p->ev, AN_RESUMED, 1);
        if (e->root) an_uint(&p->ev, AN_ROOT, 1);
        pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
        if (!e->resumed && !e->root) p->st.flow_slices++;
    }
    s->n = 0;
}

static void pff_add(ts_pf_flow_t *f, unsigned src, size_t func, uint64_t k, bool begin, bool trap, bool resumed, bool root) {
    pff_src_t *s = pff_src(f, src);
    if (!s) return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        pff_ev_t *ev = realloc(s->ev, cap * sizeof *ev);
        if (!ev) {
            f->oom = true;
            return;
        }
        s->ev = ev;
        s->cap = cap;
    }
    s->ev[s->n++] = (pff_ev_t){func, k, begin, trap, resumed, root};
}

static void pff_enter(void *v, unsigned src, size_t func, long caller, bool trap, uint64_t k) {
    /* -2: a parked thread's frame resumes (flow_calls.h); -1 without a trap: a root frame (the
     * code running when the flow began or resumed after a break: no call seen). Neither is a
     * call (flow_profile.c counts the others) */
    pff_add(v, src, func, k, true, trap, caller == -2, caller == -1 && !trap);
}
static void pff_exit(void *v, unsigned src, size_t func, uint64_t k) { pff_add(v, src, func, k, false, false, false, false); }

static void pff_timed(void *v, unsigned src, uint64_t k, uint64_t tm) {
    ts_pf_flow_t *f = v;
    pff_src_t *s = pff_src(f, src);
    if (!s) return;
    if (!s->have_a || k <= s->k_a || tm < s->t_a) pff_flush(f, src, s, (double)(s->have_a ? s->t_a : tm), k, 0);
    else
        pff_flush(f, src, s, (double)s->t_a, s->k_a, (double)(tm - s->t_a) / (double)(k - s->k_a));
    s->have_a = true;
    s->k_a = k;
    s->t_a = tm;
}

/* a break: the waiting events at the last timed point, or none without one */
static void pff_lost(void *v, unsigned src) {
    ts_pf_flow_t *f = v;
    pff_src_t *s = pff_src(f, src);
    if (!s) return;
    if (s->have_a) pff_flush(f, src, s, (double)s->t_a, 0, 0);
    s->n = 0;
    s->have_a = false;
}

ts_pf_flow_t *ts_pf_flow_open(ts_pf_t *p, const char *elf, char *err, size_t errlen) {
    ts_pf_flow_t *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    f->p = p;
    if (pf_image_load(&f->img, elf, err, errlen)) {
        free(f);
        return NULL;
    }
    if (elf_syms_load(&f->syms, elf, err, errlen)) {
        pf_image_free(&f->img);
        free(f);
        return NULL;
    }
    fc_hooks_t h = {f, pff_enter, pff_exit, NULL, pff_timed, pff_lost};
    fc_init(&f->fc, &f->img, &f->syms, &h);
    return f;
}

int ts_pf_flow_msg(void *f, const nxd_msg_t *m) { return fc_msg(&((ts_pf_flow_t *)f)->fc, m); }

int64_t ts_pf_flow_close(ts_pf_flow_t *f, uint64_t end_offset) {
    fc_eot(&f->fc, end_offset);
    for (unsigned i = 0; i < NXD_MAX_SRC; i++)
        if (f->s[i]) pff_lost(f, i);
    if (f->oom || f->fc.oom) f->p->st.oom = true;
    int64_t rc = f->oom || f->fc.oom ? -1 : (int64_t)f->p->st.flow_slices;
    for (unsigned i = 0; i < NXD_MAX_SRC; i++) {
        if (f->s[i]) free(f->s[i]->ev);
        free(f->s[i]);
    }
    fc_free(&f->fc);
    pf_image_free(&f->img);
    elf_syms_free(&f->syms);
    free(f);
    return rc;
}

/* ---- traps.csv: a slice per trap (entry to its return) on the hart's "traps" track ------- */
typedef struct pft_ev {
    uint64_t t;
    unsigned hart;
    bool ret; /* at one cycle a return comes before an entry */
    uint32_t cause;
    uint64_t pc, handler, depth, pending, first;
    bool has_pending, has_first;
} pft_ev_t;

static int pft_cmp(const void *a, const void *b) {
    const pft_ev_t *x = a, *y = b;
    if (x->hart != y->hart) return x->hart < y->hart ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return (int)y->ret - (int)x->ret;
}

int ts_pf_traps(ts_pf_t *p, const char *path, char *err, size_t errlen) {
    if (access(path, F_OK) && errno == ENOENT) return 1; /* no traps.csv (a capture, an older run folder) */
    FILE *f = ts_fopen_input(path, err, errlen);         /* a regular file only (ts_file.h): no FIFO, no folder */
    if (!f) return -1;
    pft_ev_t *ev = NULL;
    size_t n = 0, cap = 0;
    int rc = -1, got;
    ts_traps_csv_t t;
    ts_trap_row_t r;
    if (ts_traps_csv_open(&t, f, path, PERF_MAX_CORES, err, errlen)) goto out;
    while ((got = ts_traps_csv_next(&t, &r, err, errlen)) > 0) {
        if (n + 2 > cap) {
            size_t c2 = cap ? 2 * cap : 1024;
            pft_ev_t *v = realloc(ev, c2 * sizeof *v);
            if (!v) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            ev = v;
            cap = c2;
        }
        ev[n++] = (pft_ev_t){.t = r.cycle, .hart = r.hart, .cause = r.cause, .pc = r.pc, .handler = r.handler, .depth = r.depth, .pending = r.pending, .first = r.first, .has_pending = r.has_pending, .has_first = r.has_first};
        if (r.has_ret) ev[n++] = (pft_ev_t){.t = r.ret, .hart = r.hart, .ret = true};
    }
    if (got < 0) goto out;
    if (n) qsort(ev, n, sizeof *ev, pft_cmp); /* (ev is NULL without a row) */
    uint64_t open[PERF_MAX_CORES] = {0};
    for (size_t i = 0; i < n && !p->st.oom; i++) {
        const pft_ev_t *e = &ev[i];
        unsigned h = e->hart;
        pf_hart_t *H = &p->hart[h];
        if (!H->trap_described) {
            H->trap_described = true;
            pf_named_track(p, h, TRAP_UUID(h), "traps");
        }
        if (e->ret) {
            if (!open[h]) { /* a return without its entry (cannot be in a valid traps.csv) */
                snprintf(err, errlen, "%s: a return at cycle %" PRIu64 " with no trap open on hart %u", path, e->t, h);
                goto out;
            }
            open[h]--;
            pf_event_start(p, TRAP_UUID(h), TYPE_SLICE_END, 0);
            pf_emit(p, true, e->t, F_PKT_TRACK_EVENT, &p->ev);
            continue;
        }
        char cb[40], num[24];
        const char *cn = irqs_cause_name(e->cause, cb, sizeof cb);
        uint32_t nm = pf_name(p, ((uint64_t)e->cause << 3 | 5) << 3 | K_OTHER, cn);
        annot_flush(p);
        pf_event_start(p, TRAP_UUID(h), TYPE_SLICE_BEGIN, nm);
        snprintf(num, sizeof num, "0x%08" PRIx32, e->cause);
        an_str(&p->ev, AN_CAUSE, num);
        snprintf(num, sizeof num, "0x%08" PRIx64, e->pc);
        an_str(&p->ev, AN_PC, num);
        const elf_sym_t *sym = p->syms ? elf_syms_lookup_cached(p->syms, &p->fn_cache, e->handler) : NULL;
        char hs[320];
        if (sym) snprintf(hs, sizeof hs, "%s (0x%08" PRIx64 ")", sym->name, e->handler);
        else
            snprintf(hs, sizeof hs, "0x%08" PRIx64, e->handler);
        an_str(&p->ev, AN_HANDLER, hs);
        an_uint(&p->ev, AN_DEPTH, e->depth);
        if (e->has_pending && e->has_first && e->first >= e->pending) an_uint(&p->ev, AN_LATENCY, e->first - e->pending);
        pf_emit(p, true, e->t, F_PKT_TRACK_EVENT, &p->ev);
        open[h]++;
        p->st.trap_slices++;
    }
    rc = p->st.oom ? -1 : 0;
    if (rc) snprintf(err, errlen, "out of memory");
out:
    fclose(f);
    free(ev);
    return rc;
}
