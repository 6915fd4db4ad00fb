/* run_losses.h - what a run's trace lacks of what the firmware wrote, from the run folder's
 * ground truth (docs/lost-data.md): itc.csv's status
 * column (every ITC store the firmware made: traced, dropped_fifo, after_stop, encoder_off),
 * trace.json (stop-on-wrap and its cycle, wrapped-over bytes) and stats.txt (the run's
 * cycles). One text for every command that shows a run: `tracesim run` (its summary on
 * stderr), `check`, `report`, `decode` and `waves` (markers.log). */
#ifndef TS_RUN_LOSSES_H
#define TS_RUN_LOSSES_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ts_losses {
    bool have_itc;            /* itc.csv was read */
    bool has_status;          /* its rows carry the status column (runs before it had none) */
    uint64_t stores;          /* rows: every ITC store the firmware made */
    uint64_t by_status[4];    /* per enum ts_itc_status (run_trace.h) */
    bool stopped;             /* the sink stopped on wrap (trace.json) */
    uint64_t stop_cycle;      /* its cycle (trace.json stopped_at_cycle) */
    uint64_t cycles;          /* the run's cycles (stats.txt; 0: unknown) */
    bool wrapped;             /* the buffer wrapped (trace.json) */
    uint64_t overwritten;     /* bytes the wrap overwrote (bytes_written - bytes) */
    uint64_t perf_records;    /* perf records in the stores the encoder accepted or the firmware
                                 made after the stop (perf channel; decoded from itc.csv) */
    uint64_t perf_after_stop; /* of those, records that start after the stop */
} ts_losses_t;

/* reads RUN_DIR's itc.csv, trace.json and stats.txt (each may be absent); channel: the perf
 * ITC channel (< 0: perf_config.txt's, else 6). 0, or -1 with a reason in err (a bad row) */
int ts_losses_read(const char *run_dir, int channel, ts_losses_t *l, char *err, size_t errlen);
/* the same for the run folder holding trace file trace_path (its directory) */
int ts_losses_read_for_trace(const char *trace_path, int channel, ts_losses_t *l, char *err, size_t errlen);
/* one line per loss, each "<prefix><text>\n"; returns the lines written (0: nothing lost) */
int ts_losses_print(FILE *f, const char *prefix, const ts_losses_t *l);
/* the stop-on-wrap sentence alone (no prefix, no newline) into buf; false if it did not stop */
bool ts_losses_stop_text(const ts_losses_t *l, char *buf, size_t len);
#endif
