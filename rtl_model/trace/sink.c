/* sink.c - trace sink; see sink.h. */
#include "sink.h"
#include <stdlib.h>
#include <string.h>

int sink_init(sink_t *s, unsigned width, unsigned sram_size) {
    memset(s, 0, sizeof *s);
    if ((width != 4 && width != 8 && width != 16 && width != 32) || sram_size < width ||
        (sram_size & (sram_size - 1)) || sram_size > (64u << 20))
        return -1;
    s->width = width;
    s->sram_size = sram_size;
    s->sram = malloc(sram_size);
    if (!s->sram) return -1;
    sink_reset(s);
    return 0;
}

void sink_free(sink_t *s) {
    free(s->sram);
    s->sram = NULL;
}

void sink_reset(sink_t *s) {
    memset(s->sram, 0xFF, s->sram_size); /* idle bytes, never 0x00 */
    s->kind = SINK_SRAM;
    s->stop_on_wrap = false;
    s->base = s->limit = s->wp = s->rp = 0;
    s->fill = 0;
    s->stopped = false;
    s->words = s->discarded = 0;
    s->sba_valid = false;
}

uint32_t sink_start(const sink_t *s) { return s->kind == SINK_SRAM ? 0 : s->base; }
uint32_t sink_last(const sink_t *s) { return s->kind == SINK_SRAM ? s->sram_size - s->width : s->limit; }

/* a sink word of w bytes (4, 8, 16 or 32): copied in fixed sizes, no library call */
static inline void copy_word(uint8_t *dst, const uint8_t *src, unsigned w) {
    switch (w) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, 32); break;
    }
}

static void commit_word(sink_t *s) {
    uint32_t addr = s->wp & ~1u;
    if (s->kind == SINK_SRAM) {
        copy_word(s->sram + (addr & (s->sram_size - 1) & ~(s->width - 1)), s->word, s->width);
    } else {
        s->sba_valid = true;
        s->sba_addr = addr;
        copy_word(s->sba_data, s->word, s->width);
    }
    s->words++;
    s->fill = 0;
    if (addr == sink_last(s) || (s->kind == SINK_SBA && addr > s->limit)) {
        if (s->stop_on_wrap) {
            s->stopped = true;
            s->wp = addr + s->width;
        } else
            s->wp = sink_start(s) | 1u;
    } else {
        s->wp = (addr + s->width) | (s->wp & 1u);
    }
}

bool sink_push(sink_t *s, uint8_t byte) {
    if (s->stopped) {
        s->discarded++;
        return false;
    }
    s->word[s->fill++] = byte;
    if (s->fill == s->width) commit_word(s);
    return true;
}

unsigned sink_push_bytes(sink_t *s, const uint8_t *p, unsigned n) {
    unsigned done = 0;
    while (done < n) {
        if (s->stopped) {
            s->discarded += n - done;
            return done;
        }
        unsigned room = s->width - s->fill, k = n - done < room ? n - done : room;
        for (unsigned i = 0; i < k; i++) s->word[s->fill + i] = p[done + i]; /* a few bytes */
        s->fill += k;
        done += k;
        if (s->fill == s->width) {
            commit_word(s);
            if (s->stopped) return done;
        }
    }
    return done;
}

void sink_flush(sink_t *s) {
    if (!s->fill || s->stopped) return;
    while (s->fill < s->width) s->word[s->fill++] = 0xFF;
    commit_word(s);
}

void sink_write_wp(sink_t *s, uint32_t v) {
    uint32_t a = v & ~(s->width - 1);
    if (s->kind == SINK_SRAM) a &= s->sram_size - 1;
    s->wp = a | (v & 1u);
    s->stopped = false;
}

void sink_write_rp(sink_t *s, uint32_t v) { s->rp = v & (s->sram_size - 1) & ~3u; }
void sink_write_base(sink_t *s, uint32_t v) { s->base = v & ~(s->width - 1); }
void sink_write_limit(sink_t *s, uint32_t v) { s->limit = v & ~(s->width - 1); }

enum { R_BASE = 0x10,
       R_BASE_HIGH = 0x14,
       R_LIMIT = 0x18,
       R_WP = 0x1C,
       R_RP = 0x20,
       R_DATA = 0x24 };

bool sink_reg_read(sink_t *s, uint32_t off, uint32_t *val) {
    switch (off) {
    case R_BASE: *val = s->base; return true;
    case R_BASE_HIGH: *val = 0; return true; /* 32-bit system: WARL 0 */
    case R_LIMIT: *val = s->limit; return true;
    case R_WP: *val = s->wp; return true;
    case R_RP: *val = s->rp; return true;
    case R_DATA: *val = sink_read_data(s); return true;
    default: return false;
    }
}

bool sink_reg_write(sink_t *s, uint32_t off, uint32_t val) {
    switch (off) {
    case R_BASE: sink_write_base(s, val); return true;
    case R_BASE_HIGH: return true;
    case R_LIMIT: sink_write_limit(s, val); return true;
    case R_WP: sink_write_wp(s, val); return true;
    case R_RP: sink_write_rp(s, val); return true;
    case R_DATA: return true; /* read-only */
    default: return false;
    }
}

uint32_t sink_read_data(sink_t *s) {
    const uint8_t *m = s->sram + s->rp;
    uint32_t v = (uint32_t)m[0] | (uint32_t)m[1] << 8 | (uint32_t)m[2] << 16 | (uint32_t)m[3] << 24;
    s->rp = (s->rp + 4) & (s->sram_size - 1);
    return v;
}

uint32_t sink_sram_image(const sink_t *s, uint8_t *out, uint32_t max) {
    uint32_t wp = s->wp & ~1u, n = 0;
    if (wp > s->sram_size) wp = s->sram_size;
    if (s->wp & 1u)
        for (uint32_t a = wp; a < s->sram_size && n < max; a++) out[n++] = s->sram[a];
    for (uint32_t a = 0; a < wp && n < max; a++) out[n++] = s->sram[a];
    return n;
}
