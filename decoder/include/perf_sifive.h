/* perf_sifive.h - writes perf records in the text format of SiFive's decoder (dqr), so that
 * Freedom Studio / Trace Compass users can read them: an aggregate E.perf and, in perf/,
 * E.address, E.callret and E.perfchannelN (trace-hw-facts.md 6.3 has every line format).
 * Source positions (" ffl:file:function:line") come from the ELF's symbols and DWARF.
 * Counter values as dqr prints them (trace-hw-facts.md 6.2 item 7): Raw as read, Delta the
 * delta as received (not a running value, although the format's documentation promises
 * absolute values; `tracesim decode -f csv` has both), DeltaXOR the XOR-accumulated value.
 * Counter line times: by default the time of the record (its type byte); with
 * perf_sifive_set_line_time(p, true) dqr's rule, the time of the message that completed the
 * value (perf_record_t.vtics).
 * On purpose unlike dqr: the last counter of the last record is written, and a line whose
 * address has no source position is written without one instead of being dropped. A record
 * cut off before its address(es) writes nothing (dqr writes its lines only once they came). */
#ifndef TS_PERF_SIFIVE_H
#define TS_PERF_SIFIVE_H
#include <stdbool.h>
#include <stdio.h>
#include "elf_syms.h"
#include "perf_decode.h"

typedef struct perf_sifive perf_sifive_t;

/* dir: output folder; name: E (file name stem); elf: path written as ELFPATH (may be NULL);
 * returns NULL with a reason in err */
perf_sifive_t *perf_sifive_open(const char *dir, const char *name, const char *elf, char *err, size_t errlen);
void perf_sifive_header(void *ctx, const perf_header_t *h);
void perf_sifive_record(void *ctx, const perf_record_t *r);
/* counter lines stamped with the time that completed each value (true) or the record's (false,
 * the default) */
void perf_sifive_set_line_time(perf_sifive_t *p, bool value_time);
/* closes every file; returns 0, or -1 if a file could not be created or a write or close
 * failed, with "cannot write PATH: reason" in err (err may be NULL) */
int perf_sifive_close(perf_sifive_t *p, char *err, size_t errlen);
#endif
