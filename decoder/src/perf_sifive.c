/* perf_sifive.c - SiFive-format perf files; see perf_sifive.h. */
#include "perf_sifive.h"
#include "ts_text.h"
#include "fmt_fast.h"
#include "ts_file.h"
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the " ffl:..." text of an address, remembered: the DWARF lookup of a source line was most
 * of the perf format's time, and records name the same few addresses again and again */
#define FFL_CACHE 1024
#define FFL_TEXT 240
typedef struct ffl_entry {
    uint64_t addr;
    bool valid;
    unsigned short len;
    char text[FFL_TEXT];
} ffl_entry_t;

struct perf_sifive {
    char dir[4096], name[256], elf[4096];
    FILE *agg, *addr, *callret, *chan[PERF_MAX_COUNTERS];
    const char *count_type;
    elf_syms_t syms;
    bool have_syms;
    Dwarf *dw;
    int dw_fd;
    Dwarf_Die *cus; /* compile units (looked up by dwarf_haspc: the address-range
                                 table of GCC 12's RISC-V DWARF 5 does not satisfy dwarf_addrdie) */
    size_t ncu, last_cu;
    unsigned cur_core;
    perf_header_t h[PERF_MAX_CORES];
    bool value_time; /* every line carries the time of the message that completed it */
    int failed;
    char *obuf[3 + PERF_MAX_COUNTERS]; /* the files' output buffers (perf_sifive_close's order) */
    ffl_entry_t *ffl_cache;            /* FFL_CACHE entries, direct-mapped by address (NULL: none) */
};

void perf_sifive_set_line_time(perf_sifive_t *p, bool value_time) { p->value_time = value_time; }

static const char *type_name(enum perf_count_type t) {
    return t == PERF_RAW ? "RAW" : t == PERF_DELTA ? "Delta" :
                               t == PERF_DELTA_XOR ? "DeltaXOR" :
                                                     "unknown";
}

/* " ffl:file:function:line\n", or "\n" when the address has no source position */
static void ffl_lookup(perf_sifive_t *p, uint64_t addr, char *buf, size_t len) {
    const char *fn = p->have_syms ? elf_syms_find(&p->syms, addr) : NULL;
    Dwarf_Die *cu = NULL;
    for (size_t k = 0; fn && k < p->ncu && !cu; k++) {
        size_t i = (p->last_cu + k) % p->ncu;
        if (dwarf_haspc(&p->cus[i], (Dwarf_Addr)addr) == 1) {
            cu = &p->cus[i];
            p->last_cu = i;
        }
    }
    if (cu) {
        Dwarf_Line *line = dwarf_getsrc_die(cu, (Dwarf_Addr)addr);
        int ln = 0;
        const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
        char fb[300], nb[300]; /* names from the ELF: control characters as \xNN */
        if (file && !dwarf_lineno(line, &ln)) {
            snprintf(buf, len, " ffl:%s:%s:%d\n", ts_text_esc(file, fb, sizeof fb), ts_text_esc(fn, nb, sizeof nb), ln);
            return;
        }
    }
    snprintf(buf, len, "\n");
}

/* ffl_lookup through the cache: the text and its length (a text too long for an entry is
 * looked up every time, into buf) */
static const char *ffl(perf_sifive_t *p, uint64_t addr, char *buf, size_t len, size_t *tlen) {
    ffl_entry_t *e = p->ffl_cache ? &p->ffl_cache[(addr >> 1) % FFL_CACHE] : NULL;
    if (e && e->valid && e->addr == addr) {
        *tlen = e->len;
        return e->text;
    }
    ffl_lookup(p, addr, buf, len);
    *tlen = strlen(buf);
    if (e && *tlen < FFL_TEXT) {
        memcpy(e->text, buf, *tlen);
        e->len = (unsigned short)*tlen;
        e->addr = addr;
        e->valid = true;
    }
    return buf;
}

/* slot: the file's place in perf_sifive_close's order (its output buffer) */
static FILE *open_file(perf_sifive_t *p, unsigned slot, const char *sub, const char *suffix, bool with_type) {
    char path[4600];
    snprintf(path, sizeof path, "%s%s/%s.%s", p->dir, sub, p->name, suffix);
    char err[4800];
    FILE *f = ts_fopen_output(path, "w", err, sizeof err); /* renamed at perf_sifive_close */
    if (!f) {
        p->failed = 1;
        return NULL;
    }
    if ((p->obuf[slot] = malloc(1 << 18))) setvbuf(f, p->obuf[slot], _IOFBF, 1 << 18);
    fprintf(f, "# ELFPATH=%s\n", p->elf);
    if (with_type) fprintf(f, "# COUNT_TYPE: %s\n", p->count_type ? p->count_type : "unknown");
    return f;
}

perf_sifive_t *perf_sifive_open(const char *dir, const char *name, const char *elf, char *err, size_t errlen) {
    perf_sifive_t *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->elf, sizeof p->elf, "%s", elf ? elf : "");
    p->dw_fd = -1;
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/perf", dir);
    if ((mkdir(dir, 0777) && errno != EEXIST) || (mkdir(sub, 0777) && errno != EEXIST)) {
        snprintf(err, errlen, "cannot create %s: %s", sub, strerror(errno));
        free(p);
        return NULL;
    }
    if (elf) {
        if (elf_syms_load(&p->syms, elf, err, errlen)) {
            free(p);
            return NULL;
        }
        p->have_syms = true;
        char derr[512];
        p->dw_fd = ts_open_input(elf, derr, sizeof derr);               /* -1: no source lines, the symbols still name */
        if (p->dw_fd >= 0) p->dw = dwarf_begin(p->dw_fd, DWARF_C_READ); /* NULL: no DWARF */
        Dwarf_Off off = 0, next;
        size_t hsize, cap = 0;
        while (p->dw && dwarf_nextcu(p->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
            if (p->ncu == cap) {
                cap = cap ? 2 * cap : 64;
                Dwarf_Die *nc = realloc(p->cus, cap * sizeof *nc);
                if (!nc) break;
                p->cus = nc;
            }
            if (dwarf_offdie(p->dw, off + hsize, &p->cus[p->ncu])) p->ncu++;
            off = next;
        }
    }
    p->ffl_cache = calloc(FFL_CACHE, sizeof *p->ffl_cache); /* NULL: every address looked up */
    p->agg = open_file(p, 0, "", "perf", false);
    if (!p->agg) {
        snprintf(err, errlen, "cannot create %s/%s.perf: %s", dir, name, strerror(errno));
        perf_sifive_close(p, NULL, 0);
        return NULL;
    }
    return p;
}

void perf_sifive_header(void *ctx, const perf_header_t *h) {
    perf_sifive_t *p = ctx;
    int t = (int)(uint32_t)h->tics;
    p->count_type = type_name(h->count_type);
    p->h[h->core % PERF_MAX_CORES] = *h;
    fprintf(p->agg, "# COUNT_TYPE: %s\n", p->count_type);
    /* --perf-line-time value: SiFive's decoder stamps the mask line with the mask's store and
     * each definition with its counter_info store; else every line has the marker's time */
    bool vt = p->value_time;
    fprintf(p->agg, "[%u] %d [Perf Cntr Mask] [Mask=0x%08x]\n", h->core,
            vt && h->mask_tics_valid ? (int)(uint32_t)h->mask_tics : t, h->mask);
    for (unsigned i = 0; i < h->n; i++) {
        const perf_counter_def_t *d = &h->def[i];
        int td = vt && d->tics_valid ? (int)(uint32_t)d->tics : t;
        char line[256];
        snprintf(line, sizeof line,
                 "[%u] %d [Perf Cntr Def] [Counter=%u] [Type=%u] [Code=%u] [EventData=0x%08" PRIx64 "] [CntrCSR=0x%03x] [CntrBits=%u]\n",
                 h->core, td, d->index, d->type, d->type == TS_PW_EV_HW_RAW ? 0 : d->code, d->type == TS_PW_EV_HW_RAW ? d->event_data : 0,
                 d->info & 0xFFF, d->width);
        fputs(line, p->agg);
        if (d->index < PERF_MAX_COUNTERS) {
            if (!p->chan[d->index]) {
                char suffix[32];
                snprintf(suffix, sizeof suffix, "perfchannel%u", d->index);
                p->chan[d->index] = open_file(p, 3 + d->index, "/perf", suffix, true);
            }
            if (p->chan[d->index]) fputs(line, p->chan[d->index]);
        }
    }
}

void perf_sifive_record(void *ctx, const perf_record_t *r) {
    perf_sifive_t *p = ctx;
    int t = (int)(uint32_t)r->tics;
    /* --perf-line-time value: the address (enter/exit) line carries the time of the store that
     * completed it, as in SiFive's decoder */
    int ta = p->value_time && r->addr_tics_valid ? (int)(uint32_t)r->addr_tics : t;
    char fi[4400], line[4600];
    uint64_t pc = r->addr;
    bool two = r->type == PERF_FUNC_ENTER || r->type == PERF_FUNC_EXIT;
    /* perf data lost before this record (perf_decode.h): a comment line, like the count type
     * lines of a header (dqr has no line for it) */
    if (r->gap_before)
        fprintf(p->agg, "# GAP: [%u] perf data lost before the next record (messages lost or overwritten)\n", r->core);
    /* a record cut off (the end of the trace, a gap, a trace-off between a value's parts):
     * only the parts that arrived are written, never a guess for the rest */
    if (r->truncated)
        fprintf(p->agg, "# TRUNCATED: [%u] the next record was cut off: %u of %u counter values arrived\n", r->core, r->n,
                p->h[r->core % PERF_MAX_CORES].n);
    /* a record cut off before its address(es): SiFive's decoder writes the address or
     * enter/exit line only once they arrived, and no counter can follow; nothing to write.
     * The same for addresses that a gap made unknown (DeltaXOR): no line with a guess */
    if (!r->has_addr || (two && !r->has_call_site)) return;
    bool delta = p->h[r->core % PERF_MAX_CORES].count_type == PERF_DELTA;
    /* the lines are formatted by hand (fmt_fast.h): the bytes of the printf formats in the
     * comments; the ffl text (any length) is written after the line's start */
    char *q = line;
    const char *ft;
    size_t fl;
    if (two) {
        if (!p->callret) p->callret = open_file(p, 2, "/perf", "callret", true);
        ft = ffl(p, r->type == PERF_FUNC_ENTER ? r->addr : r->call_site, fi, sizeof fi, &fl);
        /* "[%u] %d [Func Enter at 0x%08x] [Called From 0x%08x]%s" or
         * "[%u] %d [Func Exit] [Func at 0x%08x] [Returning to 0x%08x]%s" */
        *q++ = '[';
        q = fmt_u64(q, r->core);
        *q++ = ']';
        *q++ = ' ';
        q = fmt_i64(q, ta);
        q = fmt_str(q, r->type == PERF_FUNC_ENTER ? " [Func Enter at 0x" : " [Func Exit] [Func at 0x");
        q = fmt_hex(q, r->addr, 8);
        q = fmt_str(q, r->type == PERF_FUNC_ENTER ? "] [Called From 0x" : "] [Returning to 0x");
        q = fmt_hex(q, r->call_site, 8);
        *q++ = ']';
        if (p->callret) {
            fwrite(line, 1, (size_t)(q - line), p->callret);
            fwrite(ft, 1, fl, p->callret);
        }
        if (r->type == PERF_FUNC_EXIT) pc = r->call_site;
    } else {
        if (!p->addr) p->addr = open_file(p, 1, "/perf", "address", true);
        ft = ffl(p, r->addr, fi, sizeof fi, &fl);
        /* "[%u] %d PC=0x%08x [Address]%s" */
        *q++ = '[';
        q = fmt_u64(q, r->core);
        *q++ = ']';
        *q++ = ' ';
        q = fmt_i64(q, ta);
        q = fmt_str(q, " PC=0x");
        q = fmt_hex(q, r->addr, 8);
        q = fmt_str(q, " [Address]");
        if (p->addr) {
            fwrite(line, 1, (size_t)(q - line), p->addr);
            fwrite(ft, 1, fl, p->addr);
        }
    }
    fwrite(line, 1, (size_t)(q - line), p->agg);
    fwrite(ft, 1, fl, p->agg);
    ft = ffl(p, pc, fi, sizeof fi, &fl);
    for (unsigned i = 0; i < r->n && i < PERF_MAX_COUNTERS; i++) {
        /* Delta: the delta as received (what SiFive's decoder prints); Raw: the reading;
         * DeltaXOR: the XOR-accumulated value */
        uint64_t v = delta ? r->raw[i] : r->value[i];
        if (!delta && (r->value_unknown >> i & 1)) continue; /* DeltaXOR after a gap */
        int tl = p->value_time ? (int)(uint32_t)r->vtics[i] : t;
        /* "[%u] %d PC=0x%08x [Perf Cntr] [Index=%u] [Value=%" PRId64 "] %s" */
        q = line;
        *q++ = '[';
        q = fmt_u64(q, r->core);
        *q++ = ']';
        *q++ = ' ';
        q = fmt_i64(q, tl);
        q = fmt_str(q, " PC=0x");
        q = fmt_hex(q, pc, 8);
        q = fmt_str(q, " [Perf Cntr] [Index=");
        q = fmt_u64(q, r->index[i]);
        q = fmt_str(q, "] [Value=");
        q = fmt_i64(q, (int64_t)v);
        *q++ = ']';
        *q++ = ' ';
        fwrite(line, 1, (size_t)(q - line), p->agg);
        fwrite(ft, 1, fl, p->agg);
        if (r->index[i] < PERF_MAX_COUNTERS && p->chan[r->index[i]]) {
            fwrite(line, 1, (size_t)(q - line), p->chan[r->index[i]]);
            fwrite(ft, 1, fl, p->chan[r->index[i]]);
        }
    }
}

int perf_sifive_close(perf_sifive_t *p, char *err, size_t errlen) {
    if (!p) return 0;
    int rc = p->failed ? -1 : 0;
    if (rc && err) snprintf(err, errlen, "cannot create a perf file in %s", p->dir);
    FILE *all[3 + PERF_MAX_COUNTERS] = {p->agg, p->addr, p->callret};
    for (unsigned i = 0; i < PERF_MAX_COUNTERS; i++) all[3 + i] = p->chan[i];
    char e[4800], path[4600], suffix[32];
    for (unsigned i = 0; i < 3 + PERF_MAX_COUNTERS; i++) {
        if (!all[i]) continue;
        if (i >= 3) snprintf(suffix, sizeof suffix, "perfchannel%u", i - 3);
        snprintf(path, sizeof path, "%s%s/%s.%s", p->dir, i ? "/perf" : "", p->name,
                 i == 0 ? "perf" : i == 1 ? "address" :
                               i == 2     ? "callret" :
                                            suffix);                /* as open_file names them */
        if (rc) ts_output_abort(all[i]);                        /* a file failed: none of them stays half made */
        else if (ts_fclose_output(all[i], path, e, sizeof e)) { /* write errors included */
            rc = -1;
            if (err) snprintf(err, errlen, "%s", e);
        }
    }
    for (unsigned i = 0; i < 3 + PERF_MAX_COUNTERS; i++) free(p->obuf[i]);
    free(p->ffl_cache);
    free(p->cus);
    if (p->dw) dwarf_end(p->dw);
    if (p->dw_fd >= 0) close(p->dw_fd);
    if (p->have_syms) elf_syms_free(&p->syms);
    free(p);
    return rc;
}
