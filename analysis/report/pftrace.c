/* pftrace.c - perf records as a Perfetto protobuf trace (see pftrace.h): a protobuf writer of
 * its own (varints and length-delimited fields into a growing buffer; a nested message gets a
 * one-byte length slot, widened when it turns out longer) and the tracks and events. */
#include "pftrace.h"
#include "run_trace.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
#define PF_MAX_ANNOT 64    /* debug annotation names (fixed ones and 4 per counter name) */
enum { AN_FUNCTION = 1,
       AN_CALL_SITE,
       AN_RECORD,
       AN_ADDRESS,
       AN_FIXED = AN_ADDRESS };

typedef struct pf_thread {
    unsigned hart;
    uint64_t tp;
    bool initial; /* the thread before the hart's first switch */
    uint64_t uuid;
    uint64_t open; /* slices begun and not ended */
} pf_thread_t;

typedef struct pf_hart {
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

ts_pf_t *ts_pf_open(FILE *out, const elf_syms_t *syms, ts_pf_line_fn line, void *line_ctx, const ts_tl_time_t *tt) {
    ts_pf_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->out = out;
    p->syms = syms;
    p->line = line;
    p->line_ctx = line_ctx;
    p->tt = *tt;
    p->first_packet = true;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) p->hart[k].cur = -1;
    static const char *fixed[] = {"function", "call_site", "record", "address"};
    for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++) annot_iid(p, fixed[i]);
    if (p->st.oom) {
        ts_pf_close(p);
        return NULL;
    }
    return p;
}

static void pf_flush(ts_pf_t *p, unsigned h, const perf_record_t *r);

void ts_pf_close(ts_pf_t *p) {
    if (!p) return;
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) pf_flush(p, k, NULL);
    free(p->pkt.b);
    free(p->ev.b);
    free(p->in.b);
    free(p->tmp.b);
    itab_free(&p->names);
    itab_free(&p->strs);
    for (unsigned i = 1; i <= p->nannot; i++) free(p->annot[i]);
    for (unsigned k = 0; k < PERF_MAX_CORES; k++) free(p->hart[k].pend.b);
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
#define COUNTER_UUID(h, gen, i) (0x1000000u + ((uint64_t)(gen) << 12) + (uint64_t)(h)*PERF_MAX_COUNTERS + (i))

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

int ts_pf_elem(void *ctx, const ts_elem_t *e) {
    ts_pf_t *p = ctx;
    if (e->type != TS_ELEM_STM || !e->u.stm.event || strcmp(e->u.stm.event, "THREAD_SWITCH")) return 0;
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
        static const char *pre[4] = {"", "", "exit.", "exit."}, *post[4] = {"", "_delta", "", "_delta"};
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

/* key spaces of the interned strings: (address << 3) | kind. Event names: K_FUNC, the
 * K_INSTANT_*, K_SPECIAL; annotation strings: K_FUNC, K_SITE (a return address), K_SITE | 4
 * (a pc), K_RECORD (a record type's name; the type in place of the address) */
enum { K_FUNC,
       K_SITE,
       K_INSTANT_MANUAL,
       K_INSTANT_ISR,
       K_INSTANT_EXIT,
       K_SPECIAL,
       K_RECORD };

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
    if (r->gap_before) {            /* the hart's stacks are lost: every open slice of its threads ends */
        for (size_t i = 0; i < p->nthreads; i++) {
            pf_thread_t *o = &p->threads[i];
            if (o->hart != h) continue;
            for (; o->open; o->open--) {
                pf_event_start(p, o->uuid, TYPE_SLICE_END, 0);
                pf_emit(p, true, ns, F_PKT_TRACK_EVENT, &p->ev);
            }
        }
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
    if (exit && t->open) {
        t->open--;
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
        t->open++;
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
