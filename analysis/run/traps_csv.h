/* traps_csv.h - the one reader of a run folder's traps.csv (the simulator's trap ground
 * truth, sim/ground_truth_log.c): a row per trap, checked strictly; `report -f irq` and
 * `decode -f perfetto` read it through this. */
#ifndef TS_TRAPS_CSV_H
#define TS_TRAPS_CSV_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* cycle,hart,cause,pc,handler,pending,first,ret,depth (pending, first, ret empty: unknown) */
typedef struct {
    uint64_t cycle, pc, handler, pending, first, ret, depth;
    unsigned hart;
    uint32_t cause;
    bool has_pending, has_first, has_ret;
} ts_trap_row_t;

typedef struct {
    FILE *f;
    const char *path;
    unsigned harts; /* a row's hart must be below this */
    unsigned long long ln;
    char line[512];
} ts_traps_csv_t;

/* reads the header line of f (path: for messages); 0, or -1 with err */
int ts_traps_csv_open(ts_traps_csv_t *t, FILE *f, const char *path, unsigned harts, char *err, size_t errlen);
/* the next row: 1, 0 at the end, -1 with err (a malformed or too long row, a read error) */
int ts_traps_csv_next(ts_traps_csv_t *t, ts_trap_row_t *r, char *err, size_t errlen);
#endif
