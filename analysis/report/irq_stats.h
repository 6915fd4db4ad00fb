/* irq_stats.h - interrupts and threads in numbers (`tracesim report -f irq`): per trap cause
 * and per thread, the visits, the time spent, the nesting and the interrupt latency.
 *
 * The statistics are made from a sequence of events of each hart in time order, whatever
 * their source: a trap entered (its cause: mcause, bit 31 for an interrupt), a return from
 * the newest open trap (mret/sret), a thread switch (THREAD_SWITCH: the new thread's tp),
 * and for latency an interrupt's pending, taken and first-instruction cycles. One irqs_t per
 * source: `report -f irq` keeps one for the trace (ICT exception/interrupt events of an
 * event-mode program trace, THREAD_SWITCH events of the software trace port; irqs_load_trace)
 * and one for the run folder's ground truth (traps.csv, stm.csv; irqs_load_truth), and prints
 * both: the trace has no event for an xRET (so no handler time and no nesting) and cannot know
 * when an interrupt became pending.
 *
 * Rules (per hart):
 *  - a trap entry opens a visit of its cause at depth = the traps open (0: not nested; a
 *    visit at depth > 0 "nested"); a return closes the newest open visit: its time is
 *    return - entry (inclusive of traps nested in it). A return with nothing open is counted
 *    (unmatched) and ignored; visits open at the end have no time (counted, open).
 *  - a switch to thread id: the running thread (if it was named by a switch) ends a stretch
 *    of time - switched-in; id starts one and counts a visit (a switch to the thread already
 *    running changes nothing). The stretch before a hart's first switch has no known thread
 *    and is not counted; a stretch still running at the end has no time (counted).
 *  - a switch away from a thread is a preemption when an interrupt's handler made it: the
 *    newest open trap is an interrupt; or, for a source without returns (returns never fed:
 *    the trace), the newest trap entered on that hart since the thread was switched in is
 *    an interrupt.
 *  - latency: pending -> the handler's first instruction (first - pending), and pending ->
 *    taken, per cause (irqs_latency).
 * Times are in the caller's unit (cycles). No global state. */
#ifndef TS_IRQ_STATS_H
#define TS_IRQ_STATS_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct irq_span { /* n values: their min, max and sum (mean = sum / n) */
    uint64_t n, min, max, sum;
} irq_span_t;

typedef struct irq_cause {
    unsigned hart;
    uint32_t cause;     /* mcause: bit 31 interrupt, low bits the code */
    uint64_t visits;    /* trap entries */
    uint64_t nested;    /* of them entered while another trap of the hart was open */
    unsigned max_depth; /* the deepest: traps open when one was entered (0: never nested) */
    uint64_t open;      /* visits never returned from (the source ended first) */
    irq_span_t time;    /* entry -> its return */
    irq_span_t latency; /* pending -> the handler's first instruction (irqs_latency) */
    irq_span_t to_take; /* pending -> taken */
} irq_cause_t;

typedef struct irq_thread {
    unsigned hart;
    uint64_t id;          /* the thread's tp */
    uint64_t visits;      /* switches to it */
    uint64_t preemptions; /* switches away from it that an interrupt's handler made */
    uint64_t running;     /* 1: still switched in at the end (that stretch has no time) */
    irq_span_t time;      /* switched in -> switched away */
} irq_thread_t;

typedef struct irq_stats {
    size_t ncause, nthread;
    irq_cause_t *cause;   /* in order of first appearance (the writers sort: by hart, then
                           * interrupts before exceptions, then code) */
    irq_thread_t *thread; /* in order of first switch */
    bool traps;           /* trap entries were fed */
    bool returns;         /* returns were fed: time and nesting are known */
    bool switches;        /* thread switches were fed */
    bool latency;         /* latencies were fed */
    uint64_t unmatched;   /* returns with no open trap */
} irq_stats_t;

typedef struct irqs irqs_t;

irqs_t *irqs_new(void); /* NULL: out of memory */
void irqs_free(irqs_t *s);
/* the events of a hart, in time order; 0, or -1 out of memory */
int irqs_enter(irqs_t *s, unsigned hart, uint32_t cause, uint64_t t);
int irqs_return(irqs_t *s, unsigned hart, uint64_t t);
int irqs_switch(irqs_t *s, unsigned hart, uint64_t id, uint64_t t);
int irqs_latency(irqs_t *s, unsigned hart, uint32_t cause, uint64_t pending, uint64_t taken, uint64_t first);
/* the tables (valid until the next call on s); the visits and stretches still open are
 * counted as open / running */
const irq_stats_t *irqs_result(irqs_t *s);

/* a cause's name: "timer interrupt" (M or S), "ecall from M-mode", ...; "interrupt N" /
 * "exception N" for the others */
const char *irqs_cause_name(uint32_t cause, char *buf, size_t len);

/* the sources of `report -f irq`. hart: -1 every hart, else that one only.
 * The run folder's ground truth: dir/traps.csv (every trap: entry, return, depth, latency)
 * and dir/stm.csv (THREAD_SWITCH events the core emitted, whatever became of them in the
 * trace). 0; 1 when dir has no traps.csv (an older run folder: nothing fed); -1 with one line
 * in err (unreadable or malformed file, out of memory). */
int irqs_load_truth(irqs_t *s, const char *dir, int hart, char *err, size_t errlen);

/* the trace's part: an element of the decoded trace (elements.h; feed them in trace order):
 * an ICT event of an exception or interrupt (CKSRC 10/11 with CKDF 1: CKDATA1 the cause) is a
 * trap entry, a THREAD_SWITCH of the software trace port a switch; the others are ignored.
 * An element without a time gets its source's last time. hart: -1 every hart, else that
 * source only. 0, or -1 out of memory. */
struct ts_elem;
int irqs_trace_elem(irqs_t *s, const struct ts_elem *e, int hart);

/* the report: text (both tables of each source) or CSV (one table with a `source` column:
 * trace or truth; `table` cause or thread). trace or truth may be NULL (not available);
 * trace_note: what the trace had (printed with the trace's tables), may be NULL. 0, or -1 if
 * writing failed. */
int irqs_write_text(const irq_stats_t *trace, const irq_stats_t *truth, const char *trace_note, FILE *out);
int irqs_write_csv(const irq_stats_t *trace, const irq_stats_t *truth, FILE *out);
#endif
