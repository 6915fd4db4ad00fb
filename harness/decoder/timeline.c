/* timeline.c - perf records as CSV (`tracesim decode --format csv`) and as a Chrome/Perfetto
 * trace-event timeline (--format timeline); see timeline.h. */
#include "timeline.h"
#include "cli_util.h"
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
    fputs("timestamp,hart,record,address,call_site,function", c->out);
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
    unsigned nc = c->ncols[r->core % PERF_MAX_CORES];
    if (c->have_h[r->core % PERF_MAX_CORES]) csv_columns(c, r->core % PERF_MAX_CORES);
    if (r->gap_before) {
        fprintf(c->out, ",%u,gap,,,", r->core);
        for (unsigned i = 0; i < nc; i++) fputs(",,", c->out);
        fputc('\n', c->out);
    }
    if (r->value_unknown || r->delta_unknown || r->addr_unknown) c->unknown++;
    if (r->tics_valid) fprintf(c->out, "%" PRIu64, r->tics);
    const char *fn = c->syms && r->has_addr ? elf_syms_find(c->syms, r->addr) : NULL;
    fprintf(c->out, ",%u,%s%s,", r->core, perf_record_name(r->type), r->truncated ? "(truncated)" : "");
    if (r->has_addr) fprintf(c->out, "0x%08" PRIx64, r->addr);
    fputc(',', c->out);
    if (r->has_call_site) fprintf(c->out, "0x%08" PRIx64, r->call_site);
    fprintf(c->out, ",%s", fn ? fn : "");
    for (unsigned i = 0; i < r->n; i++) {
        fputc(',', c->out);
        if (!(r->value_unknown >> i & 1)) fprintf(c->out, "%" PRIu64, r->value[i]);
        fputc(',', c->out);
        if (!(r->delta_unknown >> i & 1)) fprintf(c->out, "%" PRIu64, r->delta[i]);
    }
    for (unsigned i = r->n; i < nc; i++) fputs(",,", c->out);
    fputc('\n', c->out);
    if (r->truncated) c->truncated++;
}

void ts_csv_error(void *vctx, unsigned core, uint64_t off, const char *what) {
    ts_perf_diag(&((ts_csv_t *)vctx)->errors, &((ts_csv_t *)vctx)->gaps, core, off, what);
}

/* ---- perf records as a Chrome/Perfetto trace-event timeline ----------------------------- */
static void tl_sep(ts_tl_t *c) { fputs(c->first ? "\n" : ",\n", c->out); c->first = false; }

void ts_tl_header(void *vctx, const perf_header_t *h) {
    ts_tl_t *c = vctx;
    c->h[h->core % PERF_MAX_CORES] = *h;
}

/* a gap (perf_decode.h) ends the hart's open slices and is an instant event; records whose
 * addresses a gap made unknown are left out, and so are counter samples without a delta */
void ts_tl_record(void *vctx, const perf_record_t *r) {
    ts_tl_t *c = vctx;
    ts_note_first(c->first_rec, r);
    if (!r->tics_valid) { c->untimed++; return; }
    double ts = (double)r->tics * c->us_per_tick;
    unsigned *open = &c->open[r->core % PERF_MAX_CORES];
    if (!c->named[r->core % PERF_MAX_CORES]) {          /* one track (thread) per hart */
        c->named[r->core % PERF_MAX_CORES] = true;
        tl_sep(c);
        fprintf(c->out, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": %u, \"args\": {\"name\": \"hart %u\"}}",
                r->core, r->core);
    }
    if (r->gap_before) {
        for (; *open; (*open)--) {
            tl_sep(c);
            fprintf(c->out, "{\"ph\": \"E\", \"ts\": %.3f, \"pid\": 0, \"tid\": %u}", ts, r->core);
        }
        tl_sep(c);
        fprintf(c->out, "{\"name\": \"gap: perf data lost\", \"ph\": \"i\", \"s\": \"t\", \"ts\": %.3f, \"pid\": 0, \"tid\": %u}",
                ts, r->core);
    }
    if (r->truncated) {                                 /* cut off: only what arrived follows */
        tl_sep(c);
        fprintf(c->out, "{\"name\": \"record cut off (truncated): %u of %u values\", \"ph\": \"i\", \"s\": \"t\", \"ts\": %.3f, "
                        "\"pid\": 0, \"tid\": %u}", r->n, c->h[r->core % PERF_MAX_CORES].n, ts, r->core);
    }
    if (r->addr_unknown) { c->unknown++; return; }     /* DeltaXOR after a gap */
    if (!r->has_addr) { c->unnamed++; return; }         /* cut off before its address */
    const char *fn = c->syms ? elf_syms_find(c->syms, r->addr) : NULL;
    char name[64];
    if (!fn) { snprintf(name, sizeof name, "0x%08" PRIx64, r->addr); fn = name; }
    tl_sep(c);
    if (r->type == PERF_FUNC_ENTER || r->type == PERF_FUNC_EXIT) {
        fprintf(c->out, "{\"name\": \"%s\", \"ph\": \"%s\", \"ts\": %.3f, \"pid\": 0, \"tid\": %u}",
                fn, r->type == PERF_FUNC_ENTER ? "B" : "E", ts, r->core);
        if (r->type == PERF_FUNC_ENTER) (*open)++;
        else if (*open) (*open)--;
    } else
        fprintf(c->out, "{\"name\": \"%s %s\", \"ph\": \"i\", \"s\": \"t\", \"ts\": %.3f, \"pid\": 0, \"tid\": %u}",
                perf_record_name(r->type), fn, ts, r->core);
    const perf_header_t *h = &c->h[r->core % PERF_MAX_CORES];
    for (unsigned i = 0; i < r->n && i < h->n; i++) {
        if (r->delta_unknown >> i & 1) continue;
        char cn[64];
        perf_counter_name(&h->def[i], cn, sizeof cn);
        tl_sep(c);
        fprintf(c->out, "{\"name\": \"hart%u %s\", \"ph\": \"C\", \"ts\": %.3f, \"pid\": 0, "
                        "\"args\": {\"delta\": %" PRIu64 "}}", r->core, cn, ts, r->delta[i]);
    }
}

