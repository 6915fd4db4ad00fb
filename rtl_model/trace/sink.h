/* sink.h - trace sink shared by the encoder and the funnel: SRAM (dedicated buffer read out
 * through RP/Data) or SBA (system memory, written through the SoC bus).
 *
 * Bytes are packed into sink words of `width` bytes (the sink data width, 4..32), first byte
 * in the lowest address. A full word is written at WP, then WP advances by the width; after
 * the last word (limit) it returns to the start with the wrap flag (WP bit 0) set, or, with
 * stop-on-wrap, the sink stops: WP stays at the end (limit + width) with the wrap flag clear
 * and every later byte is discarded. A flush pads the last partial word with 0xFF.
 * SBA words leave through the sba_* port, one per cycle at most; the SoC writes them. */
#ifndef TS_SINK_H
#define TS_SINK_H
#include <stdbool.h>
#include <stdint.h>

enum sink_kind { SINK_SRAM,
                 SINK_SBA };

typedef struct sink {
    unsigned width;     /* bytes per sink word: 4, 8, 16 or 32 */
    unsigned sram_size; /* bytes of SRAM (power of two, >= width) */
    uint8_t *sram;
    enum sink_kind kind;
    bool stop_on_wrap;
    uint32_t base, limit; /* SBA buffer: first and last word address */
    uint32_t wp, rp;      /* wp bit 0 = wrap flag */
    uint8_t word[32];
    unsigned fill;             /* bytes in word[] */
    bool stopped;              /* stop-on-wrap happened */
    uint64_t words, discarded; /* words written, bytes discarded after a stop */
    /* SBA output port (valid for the cycle it was produced in) */
    bool sba_valid;
    uint32_t sba_addr;
    uint8_t sba_data[32];
} sink_t;

int sink_init(sink_t *s, unsigned width, unsigned sram_size);
void sink_free(sink_t *s);
void sink_reset(sink_t *s);
/* one byte into the sink; false if it was discarded (stopped) */
bool sink_push(sink_t *s, uint8_t byte);
/* up to n bytes (at most one sink word is completed); returns how many were taken, fewer
 * than n only when the sink stopped on wrap */
unsigned sink_push_bytes(sink_t *s, const uint8_t *p, unsigned n);
/* pads a partial word with 0xFF and writes it */
void sink_flush(sink_t *s);
/* first and last word address of the buffer */
uint32_t sink_start(const sink_t *s);
uint32_t sink_last(const sink_t *s);
/* register writes with the WARL trimming of the implemented alignment and range */
void sink_write_wp(sink_t *s, uint32_t v);
void sink_write_rp(sink_t *s, uint32_t v);
void sink_write_base(sink_t *s, uint32_t v);
void sink_write_limit(sink_t *s, uint32_t v);
/* the sink registers at the same offsets in the encoder and the funnel (0x10..0x24):
 * true if off is one of them */
bool sink_reg_read(sink_t *s, uint32_t off, uint32_t *val);
bool sink_reg_write(sink_t *s, uint32_t off, uint32_t val);
/* teSinkData read: the SRAM word at RP, RP advances by 4 and wraps */
uint32_t sink_read_data(sink_t *s);
/* copies the SRAM buffer content oldest byte first: [WP, end) + [start, WP) after a wrap,
 * [start, WP) otherwise; returns the number of bytes */
uint32_t sink_sram_image(const sink_t *s, uint8_t *out, uint32_t max);
#endif
