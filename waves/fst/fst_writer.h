/* fst_writer.h - a writer of GTKWave's FST waveform format that takes binary values.
 *
 * Each variable keeps the change records of the current block already packed (a varint time
 * delta and the value's bits, most significant first, as the format stores them), so emitting
 * a change is a few stores and flushing a block is one LZ4 call per changed variable. See
 * waves/fst/README.md for the layout written and what readers accept.
 *
 * Use: fstw_open, the hierarchy (fstw_scope / fstw_upscope / fstw_var, enum tables), then
 * fstw_time for each time point followed by that time's value changes, fstw_flush to end a
 * block at the next time point, fstw_close. Handles are 1-based in creation order. Not thread
 * safe; one writer per file. */
#ifndef TS_FST_WRITER_H
#define TS_FST_WRITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fstw fstw_t;

/* the values of the format's scope, variable and direction codes (as GTKWave's fstapi.h) */
enum { FSTW_ST_VCD_MODULE = 0,
       FSTW_ST_MAX = 21 }; /* other scope types become modules */
enum { FSTW_VT_VCD_WIRE = 16,
       FSTW_VT_SV_LOGIC = 23,
       FSTW_VT_VCD_REAL = 3,
       FSTW_VT_VCD_REAL_PARAMETER = 4,
       FSTW_VT_VCD_REALTIME = 20,
       FSTW_VT_GEN_STRING = 21,
       FSTW_VT_SV_SHORTREAL = 29 };

/* creates PATH (truncating it); NULL with a message in err on failure */
fstw_t *fstw_open(const char *path, char *err, size_t errlen);
/* timescale as a power of ten of seconds (-9: 1 ns, the default) */
void fstw_set_timescale(fstw_t *w, int exponent);
/* "1ns", "10ps", "100us", "1s"...; returns -1 (timescale unchanged) if not understood */
int fstw_set_timescale_str(fstw_t *w, const char *s);
/* the header's version text (at most 127 bytes are kept) */
void fstw_set_version(fstw_t *w, const char *text);

void fstw_scope(fstw_t *w, int scope_type, const char *name, const char *component);
void fstw_upscope(fstw_t *w);
/* a variable of `bits` bits (reals: any, stored as 8 bytes); alias != 0 declares another name
 * for that handle. Returns its handle (1-based), 0 on error. */
uint32_t fstw_var(fstw_t *w, int var_type, int direction, uint32_t bits, const char *name,
                  uint32_t alias);
/* an enum table (names and binary value strings, padded to min_bits); returns its handle */
uint32_t fstw_enum_table(fstw_t *w, const char *name, uint32_t count, unsigned min_bits,
                         const char *const *names, const char *const *values);
/* the next variable uses enum table `table` */
void fstw_enum_ref(fstw_t *w, uint32_t table);

/* a new time point (strictly increasing; an equal or smaller time is ignored) */
void fstw_time(fstw_t *w, uint64_t t);
/* value changes at the current time point; before the first time point they set the initial
 * values. Bits above the variable's width are ignored. */
void fstw_bit(fstw_t *w, uint32_t h, unsigned v);
void fstw_u32(fstw_t *w, uint32_t h, uint32_t v);          /* width <= 32 */
void fstw_u64(fstw_t *w, uint32_t h, uint64_t v);          /* width <= 64 */
void fstw_words(fstw_t *w, uint32_t h, const uint32_t *v); /* any width, word 0 = bits 31..0 */
void fstw_double(fstw_t *w, uint32_t h, double v);

/* ends the current block at the next time point (no-op when it holds a single time point) */
void fstw_flush(fstw_t *w);
/* writes the last block, the geometry, the hierarchy and the header's totals and closes the
 * file; returns 0, or -1 after a write error (message in err). Frees w either way. */
int fstw_close(fstw_t *w, char *err, size_t errlen);
/* nonzero once a write has failed (the writer then stops writing) */
int fstw_failed(const fstw_t *w);

#ifdef __cplusplus
}
#endif
#endif
