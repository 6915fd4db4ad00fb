/* timeline.c - perf records as CSV (`tracesim decode --format csv`) and as a Chrome/Perfetto
 * trace-event timeline (--format timeline); see timeline.h. */
#include "timeline.h"
#include "run_trace.h"
#include "fmt_fast.h"
#include "ts_run_json.h"
#include "ts_text.h"
#include <inttypes.h>
#include <string.h>

void ts_note_first(uint64_t *first_rec, const perf_record_t *r) {
    if (first_rec && r->offset < *first_rec) *first_rec = r->offset;
}

/* ---- perf records as CSV --------------------------------------------------------------- */
static bool same_columns(const perf_header_t *a, const perf_header_t *b) {
    if (a->n != b->n) return false;
    for (unsigned i = 0; i < a->n && i < PERF_MAX_COUNTERS; i++) {
        char x[64], y[64];
        perf_counter_name(&a->def[i], x, sizeof x);
        perf_counter_name(&b->def[i], y, sizeof y);
        if (a->def[i].index != b->def[i].index || strcmp(x, y)) return false;
    }
    return true;
}

/* the column line for hart `core`'s counters, unless the last one has the same columns (one
 * line for a trace whose harts all count the same; harts with different counters switch) */
static void csv_columns(ts_csv_t *c, unsigned core) {
    const perf_header_t *h = &c->h[core];
    if (c->have_header && same_columns(&c->cur, h)) return;
    c->have_header = true;
    c->cur = *h;
    fputs(c->cycles ? "cycle,hart,record,address,call_site,function" : "timestamp,hart,record,address,call_site,function", c->out);
    for (unsigned i = 0; i < h->n; i++) {
        char name[64];
        perf_counter_name(&h->def[i], name, sizeof name);
        fprintf(c->out, ",%s,%s_delta", name, name);
    }
    fputc('\n', c->out);
}

void ts_csv_header(void *vctx, const perf_header_t *h) {
    ts_csv_t *c = vctx;
    unsigned core = h->core % PERF_MAX_CORES;
    c->ncols[core] = h->n;
    c->h[core] = *h;
    c->have_h[core] = true;
    /* the first header, or new counters of the hart whose columns are current: now; another
     * hart's header: when its first record comes */
    if (!c->have_header || c->cur.core == core) csv_columns(c, core);
}

/* parts of a truncated record that never arrived are empty fields, never guessed values; so
 * are values and addresses that a gap made unknown (perf_decode.h); a gap is a row of its own
 * (record "gap", every other field empty) before the first record after it */
void ts_csv_record(void *vctx, const perf_record_t *r) {
    ts_csv_t *c = vctx;
    ts_note_first(c->first_rec, r);
    unsigned core = r->core % PERF_MAX_CORES;
    unsigned nc = c->ncols[core];
    /* the current columns are always those of the hart cur came from (ts_csv_header updates
     * them at once for that hart): only another hart's record can switch them */
    if (c->have_h[core] && !(c->have_header && c->cur.core % PERF_MAX_CORES == core)) csv_columns(c, core);
    /* the row is formatted by hand (fmt_fast.h) into a line buffer: the bytes of fprintf's
     * "%" PRIu64 / "0x%08" PRIx64; the function name (any length) is written on its own */
    char line[4096], *p = line;
    if (r->gap_before) {
        *p++ = ',';
        p = fmt_u64(p, r->core);
        p = fmt_str(p, ",gap,,,");
        for (unsigned i = 0; i < nc && i < PERF_MAX_COUNTERS; i++) {
            *p++ = ',';
            *p++ = ',';
        }
        *p++ = '\n';
    }
    if (r->value_unknown || r->delta_unknown || r->addr_unknown) c->unknown++;
    if (r->tics_valid && c->cycles) p = fmt_i64(p, (int64_t)r->tics - c->offset);
    else if (r->tics_valid)
        p = fmt_u64(p, r->tics);
    const char *fn = NULL;
    if (c->syms && r->has_addr) { /* the last function's range first */
        const elf_sym_t *sym = elf_syms_lookup_cached(c->syms, &c->fn_cache, r->addr);
        fn = sym ? sym->name : NULL;
    }
    *p++ = ',';
    p = fmt_u64(p, r->core);
    *p++ = ',';
    p = fmt_str(p, perf_record_name(r->type));
    if (r->truncated) p = fmt_str(p, "(truncated)");
    *p++ = ',';
    if (r->has_addr) {
        *p++ = '0';
        *p++ = 'x';
        p = fmt_hex(p, r->addr, 8);
    }
    *p++ = ',';
    if (r->has_call_site) {
        *p++ = '0';
        *p++ = 'x';
        p = fmt_hex(p, r->call_site, 8);
    }
    *p++ = ',';
    if (fn) {
        fwrite(line, 1, (size_t)(p - line), c->out);
        ts_csv_field(c->out, fn); /* quoted per RFC 4180 when it must be */
        p = line;
    }
    for (unsigned i = 0; i < r->n && i < PERF_MAX_COUNTERS; i++) {
        *p++ = ',';
        if (!(r->value_unknown >> i & 1)) p = fmt_u64(p, r->value[i]);
        *p++ = ',';
        if (!(r->delta_unknown >> i & 1)) p = fmt_u64(p, r->delta[i]);
    }
    for (unsigned i = r->n; i < nc && i < PERF_MAX_COUNTERS; i++) {
        *p++ = ',';
        *p++ = ',';
    }
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), c->out);
    if (r->truncated) c->truncated++;
}

void ts_csv_error(void *vctx, unsigned core, uint64_t off, const char *what) {
    ts_perf_diag(&((ts_csv_t *)vctx)->errors, &((ts_csv_t *)vctx)->gaps, core, off, what);
}

/* ---- perf records as a Chrome/Perfetto trace-event timeline ----------------------------- */
void ts_tl_error(void *vctx, unsigned core, uint64_t off, const char *what) {
    ts_perf_diag(&((ts_tl_t *)vctx)->errors, &((ts_tl_t *)vctx)->gaps, core, off, what);
}

static void tl_sep(ts_tl_t *c) {
    fputs(c->first ? "\n" : ",\n", c->out);
    c->first = false;
}

void ts_tl_header(void *vctx, const perf_header_t *h) {
    ts_tl_t *c = vctx;
    unsigned core = h->core % PERF_MAX_CORES;
    c->h[core] = *h;
    c->have_last[core] = h->tics_valid; /* the first deltas count from the header on */
    c->last[core] = h->tics;
}

/* s as a JSON string (names from the ELF may hold any byte) */
static void put_json_str(FILE *o, const char *s) {
    fputc('"', o);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '"' || *p == '\\') fprintf(o, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(o, "\\u%04x", *p);
        else
            fputc(*p, o);
    fputc('"', o);
}

int ts_tl_time_setup(ts_tl_time_t *tt, const char *trace_path, int want, double us_per_tick, char *err, size_t errlen) {
    ts_trace_json_t tj;
    memset(tt, 0, sizeof *tt);
    tt->us_per_tick = us_per_tick;
    if (ts_trace_json_beside(trace_path, &tj, err, errlen)) return -1;
    if (want == 0) return 0;
    if (tj.found && tj.has_ts_cycle_offset) {
        tt->cycles = true;
        tt->offset = tj.ts_cycle_offset;
        return 0;
    }
    if (want == 1) {
        snprintf(err, errlen, "--time cycles: %s", tj.found ? "trace.json beside the trace gives no ts_cycle_offset (no timed "
                                                              "ITC store or software event, or the timestamp was prescaled, stopped or written)" :
                                                              "no trace.json beside the trace (not a tracesim run folder): only trace ticks are known");
        return -1;
    }
    if (tj.found)
        fprintf(stderr, "tracesim: note: times in trace ticks: trace.json gives no ts_cycle_offset (no timed ITC store or "
                        "software event, or the timestamp was prescaled, stopped or written)\n");
    return 0;
}

void ts_tl_begin(FILE *o, const ts_tl_time_t *tt) {
    if (tt->cycles)
        fprintf(o, "{\"otherData\": {\"clock\": \"simulator cycles: ts = cycle (1 us in the viewer = 1 cycle), "
                   "timestamp = cycle + %" PRId64 "\"}, \"traceEvents\": [",
                tt->offset);
    else
        fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"clock\": \"trace timestamp ticks (--tick-hz)\"}, \"traceEvents\": [", o);
}

/* the start of an event: {"name": NAME, "ph": PH, "ts": TS, "pid": 0, "tid": HART (NAME NULL:
 * none; printf-style name when fmt) */
static void ev_start(ts_tl_t *c, const char *name, const char *ph, uint64_t tics, unsigned hart) {
    tl_sep(c);
    fputc('{', c->out);
    if (name) {
        fputs("\"name\": ", c->out);
        put_json_str(c->out, name);
        fputs(", ", c->out);
    }
    fprintf(c->out, "\"ph\": \"%s\", \"ts\": ", ph);
    ts_tl_put_ts(c->out, &c->time, tics);
    fprintf(c->out, ", \"pid\": 0, \"tid\": %u", hart);
}

/* the record's arguments: record type, address, function, call site, every counter's value
 * and delta (what the record carries; unknown parts left out) */
static void rec_args(ts_tl_t *c, const perf_record_t *r, const char *fn) {
    FILE *o = c->out;
    fprintf(o, ", \"args\": {\"record\": \"%s\"", perf_record_name(r->type));
    if (r->has_addr && !r->addr_unknown) fprintf(o, ", \"address\": \"0x%08" PRIx64 "\"", r->addr);
    if (fn) {
        fputs(", \"function\": ", o);
        put_json_str(o, fn);
    }
    if (r->has_call_site) fprintf(o, ", \"call_site\": \"0x%08" PRIx64 "\"", r->call_site);
    const perf_header_t *h = &c->h[r->core % PERF_MAX_CORES];
    for (unsigned i = 0; i < r->n && i < h->n && i < PERF_MAX_COUNTERS; i++) {
        char cn[64];
        perf_counter_name(&h->def[i], cn, sizeof cn);
        if (!(r->value_unknown >> i & 1)) {
            fputs(", ", o);
            put_json_str(o, cn);
            fprintf(o, ": %" PRIu64, r->value[i]);
        }
        if (!(r->delta_unknown >> i & 1)) {
            char dn[80];
            snprintf(dn, sizeof dn, "%s_delta", cn);
            fputs(", ", o);
            put_json_str(o, dn);
            fprintf(o, ": %" PRIu64, r->delta[i]);
        }
    }
    fputs("}}", o);
}

/* a frame the call stack closes (callstack.h): its "E" at close_ts, but for an exit record's
 * own frame (CS_RETURN), whose "E" the record writes with its args */
static void tl_frame_closed(void *ctx, uint64_t thread, const cs_frame_t *f, void *user, cs_why_t why) {
    ts_tl_t *c = ctx;
    (void)thread;
    (void)f;
    (void)user;
    if (why == CS_RETURN) return;
    ev_start(c, NULL, "E", c->close_ts, c->close_core);
    fputc('}', c->out);
    c->ends++;
}

void ts_tl_stacks(ts_tl_t *c, rs_site_fn site, void *site_ctx) {
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) cs_init(&c->cs[h], 0, tl_frame_closed, c);
    c->site = site;
    c->site_ctx = site_ctx;
}

void ts_tl_end(ts_tl_t *c) {
    for (unsigned h = 0; h < PERF_MAX_CORES; h++) {
        c->close_core = h;
        c->close_ts = c->last[h];
        cs_clear_all(&c->cs[h]);
        cs_free(&c->cs[h]);
    }
}

/* a gap (perf_decode.h) ends the hart's open slices and is an instant event; records whose
 * addresses a gap made unknown are left out. A counter's delta is the change since the hart's
 * previous record (or its header): the sample is stamped at that start of the interval it
 * measures (Perfetto draws a counter value from its ts to the next sample), and left out
 * when the start or the delta is unknown. */
void ts_tl_record(void *vctx, const perf_record_t *r) {
    ts_tl_t *c = vctx;
    ts_note_first(c->first_rec, r);
    unsigned core = r->core % PERF_MAX_CORES;
    if (!r->tics_valid) {
        c->untimed++;
        c->have_last[core] = false;
        return;
    }
    uint64_t ts = r->tics;
    cs_t *cs = &c->cs[core];
    if (!c->named[core]) { /* one track (thread) per hart */
        c->named[core] = true;
        tl_sep(c);
        fprintf(c->out, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": %u, \"args\": {\"name\": \"hart %u\"}}",
                r->core, r->core);
    }
    bool have_start = c->have_last[core] && !r->gap_before;
    uint64_t start = c->last[core];
    c->have_last[core] = true;
    c->last[core] = ts;
    if (r->gap_before) {
        c->close_core = r->core;
        c->close_ts = ts;
        cs_clear_all(cs);
        ev_start(c, "gap: perf data lost", "i", ts, r->core);
        fputs(", \"s\": \"t\"}", c->out);
    }
    if (r->truncated) { /* cut off: only what arrived follows */
        char name[96];
        snprintf(name, sizeof name, "record cut off (truncated): %u of %u values", r->n, c->h[core].n);
        ev_start(c, name, "i", ts, r->core);
        fputs(", \"s\": \"t\"}", c->out);
    }
    if (r->addr_unknown) {
        c->unknown++;
        return;
    } /* DeltaXOR after a gap */
    if (!r->has_addr) {
        c->unnamed++;
        return;
    } /* cut off before its address */
    const char *sym = c->syms ? elf_syms_find(c->syms, r->addr) : NULL;
    char name[320], addr[16];
    snprintf(addr, sizeof addr, "0x%08" PRIx64, r->addr);
    const char *fn = sym ? sym : addr;
    bool call = !r->truncated && (r->type == PERF_FUNC_ENTER || r->type == PERF_FUNC_EXIT);
    if (call) {                          /* frames left by another route end at the record before (have_start: its time) */
        uint32_t id = (uint32_t)r->addr; /* a function's number: its entry's low 32 bits */
        rs_pre_t pre;
        c->close_core = r->core;
        c->close_ts = have_start ? start : ts;
        rs_before(cs, c->site, c->site_ctx, r, r->type == PERF_FUNC_EXIT ? id : CS_NO_FUNC, &pre);
        c->close_ts = ts;
        if (r->type == PERF_FUNC_ENTER && rs_push(cs, r, id, &pre)) {
            ev_start(c, fn, "B", ts, r->core);
            c->begins++;
        } else if (r->type == PERF_FUNC_EXIT && !cs_exit(cs, id)) {
            ev_start(c, fn, "E", ts, r->core);
            c->ends++;
        } else
            call = false;
    }
    if (!call) {
        snprintf(name, sizeof name, "%s %s", r->type == PERF_FUNC_EXIT ? "exit (no enter)" : perf_record_name(r->type), fn);
        ev_start(c, name, "i", ts, r->core);
        fputs(", \"s\": \"t\"", c->out);
    }
    rec_args(c, r, sym);
    if (!have_start) return;
    const perf_header_t *h = &c->h[core];
    for (unsigned i = 0; i < r->n && i < h->n; i++) {
        if (r->delta_unknown >> i & 1) continue;
        char cn[64], tn[96];
        perf_counter_name(&h->def[i], cn, sizeof cn);
        snprintf(tn, sizeof tn, "hart%u %s", r->core, cn);
        tl_sep(c);
        fputs("{\"name\": ", c->out);
        put_json_str(c->out, tn);
        fputs(", \"ph\": \"C\", \"ts\": ", c->out);
        ts_tl_put_ts(c->out, &c->time, start);
        fprintf(c->out, ", \"pid\": 0, \"args\": {\"delta\": %" PRIu64 "}}", r->delta[i]);
    }
}
