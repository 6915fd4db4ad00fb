/* ts_harts.c - several harts: the parking loop of harts 1..7, ts_hart_start/join, the ticket
 * lock, the barrier and line-locked stdout (API and rules in ts_harts.h,
 * docs/firmware/bsp.md).
 *
 * Start-up cost on a single-hart run: nothing here runs before main(), and the state lives
 * in the non-zeroed .preserve section, so hart 0's start-up copies and clears what it
 * always did. The first ts_hart_start() ("activation") initialises the state and switches
 * stdout's put function to line-locked output; that switch is also the "activated" flag
 * (stdout's FILE is initialised data: before hart 0 copied .data it reads as not
 * activated too). Until then only hart 0 runs C code. */
#include "ts_harts.h"
#include <stdio.h>
#include "ts_csr.h" /* not bsp.h, which includes ts_harts.h */
#include "ts_soc.h"

#define PRESERVE(name) __attribute__((section(".preserve.ts_harts_" name)))

enum { ST_IDLE = 0,
       ST_START = 0x53544152u,
       ST_RUNNING = 0x52554E21u,
       ST_DONE = 0x444F4E45u };

typedef struct {
    volatile uint32_t state; /* ST_*: IDLE free, START posted, RUNNING, DONE (result kept) */
    volatile ts_hart_fn_t fn;
    void *volatile arg;
    volatile int ret;
    volatile uint32_t tls_ready; /* the hart's thread-local block was initialised */
    uint32_t pad[3];
} ts_slot_t;

typedef struct {
    uint32_t len;
    char buf[TS_LINE_MAX];
} ts_line_t;

static ts_slot_t slots[TS_MAX_HARTS] PRESERVE("slots") __attribute__((aligned(32)));
static ts_line_t lines[TS_MAX_HARTS] PRESERVE("lines");
static ts_lock_t start_lock PRESERVE("start_lock");
static ts_lock_t print_lock PRESERVE("print_lock");
static volatile uint32_t print_owner PRESERVE("print_owner");

extern FILE ts_stdio; /* bsp.c */
static int ts_putc_lines(char c, FILE *f);
#define ACTIVE() (*(int (*volatile *)(char, FILE *)) & ts_stdio.put == ts_putc_lines)
extern char __stack[], __ts_hart_stack_size[]; /* tracesim.ld */
void _init_tls(void *tls);                     /* picolibc */
void _set_tls(void *tls);

#define FENCE() __asm__ volatile("fence rw, rw" :: \
                                     : "memory")
#define BARRIER() __asm__ volatile("" :: \
                                       : "memory")

/* about 20 cycles without a memory access (fetches have their own path): a spinning hart
 * leaves the RAM port to the others */
static inline TS_NOINSTR void pause(void) {
    uint32_t n = 9;
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b"
                     : "+r"(n));
}

static inline TS_NOINSTR volatile uint32_t *msip_of(unsigned hart) {
    return (volatile uint32_t *)(uintptr_t)(TS_CLINT_BASE + TS_CLINT_MSIP + 4u * hart);
}

unsigned ts_num_harts(void) {
    uint32_t n = TS_SIMCTRL(HARTS);
    return n == 0 ? 1u : n > TS_MAX_HARTS ? TS_MAX_HARTS :
                                            n;
}

/* ---- lock ------------------------------------------------------------------------------
 * A ticket lock: amoadd.w.aq takes the next ticket; the hart waits until `owner` shows it
 * (pausing between reads, so that waiting harts leave the RAM port to the holder), and the
 * holder passes the lock on by storing owner + 1 after a release fence. Tickets wrap modulo
 * 2^32, which the comparison for equality does not mind. */
void ts_lock(ts_lock_t *l) {
    uint32_t t;
    __asm__ volatile("amoadd.w.aq %0, %2, %1"
                     : "=r"(t), "+A"(l->next)
                     : "r"(1u)
                     : "memory");
    while (l->owner != t) pause();
    __asm__ volatile("fence r, rw" ::
                         : "memory"); /* acquire: the holder's stores before ours */
}

void ts_unlock(ts_lock_t *l) {
    __asm__ volatile("fence rw, w" ::
                         : "memory"); /* release */
    l->owner = l->owner + 1u;
}

int ts_barrier(ts_barrier_t *b, unsigned n) {
    if (n <= 1) return 1;
    uint32_t sense = b->sense;
    ts_lock(&b->lock);
    uint32_t c = b->count + 1;
    int last = c >= n;
    if (last) {
        b->count = 0;
        b->sense = !sense;
    } else {
        b->count = c;
    }
    ts_unlock(&b->lock);
    if (!last)
        while (b->sense == sense) pause();
    FENCE();
    return last;
}

/* ---- stdout, line by line ------------------------------------------------------------ */

static TS_NOINSTR void emit(ts_line_t *L, unsigned me) {
    int nested = print_owner == me; /* an interrupt handler of the printing hart */
    if (!nested) {
        ts_lock(&print_lock);
        print_owner = me;
    }
    for (uint32_t i = 0; i < L->len; i++) TS_UART(TXDATA) = (uint8_t)L->buf[i];
    L->len = 0;
    if (!nested) {
        print_owner = 0xFFu;
        ts_unlock(&print_lock);
    }
}

static int ts_putc_lines(char c, FILE *f) {
    (void)f;
    unsigned me = ts_hart_id();
    ts_line_t *L = &lines[me];
    L->buf[L->len++] = c;
    if (c == '\n' || L->len == TS_LINE_MAX) emit(L, me);
    return (unsigned char)c;
}

int ts_harts_started(void) { return ACTIVE(); }

void ts_flush_line(void) {
    if (!ACTIVE()) return;
    unsigned me = ts_hart_id();
    if (lines[me].len) emit(&lines[me], me);
}

/* ---- start, park, join --------------------------------------------------------------- */

static TS_NOINSTR void activate(void) {
    for (unsigned h = 0; h < TS_MAX_HARTS; h++) {
        slots[h].state = ST_IDLE;
        slots[h].tls_ready = 0;
        lines[h].len = 0;
    }
    start_lock.next = start_lock.owner = print_lock.next = print_lock.owner = 0;
    print_owner = 0xFFu;
    FENCE();
    ts_stdio.put = ts_putc_lines; /* from here on: activated */
    FENCE();
}

static inline TS_NOINSTR int bad_hart(unsigned hart) {
    return hart == 0 || hart >= TS_MAX_HARTS || hart >= ts_num_harts() || hart == ts_hart_id();
}

int ts_hart_start(unsigned hart, ts_hart_fn_t fn, void *arg) {
    if (!fn || bad_hart(hart)) return TS_HART_EINVAL;
    if (!ACTIVE()) activate();
    ts_slot_t *s = &slots[hart];
    ts_lock(&start_lock);
    if (s->state != ST_IDLE) {
        ts_unlock(&start_lock);
        return TS_HART_EBUSY;
    }
    s->fn = fn;
    s->arg = arg;
    FENCE();
    s->state = ST_START;
    ts_unlock(&start_lock);
    FENCE();
    *msip_of(hart) = 1;
    return TS_HART_OK;
}

int ts_hart_busy(unsigned hart) {
    if (hart >= TS_MAX_HARTS || !ACTIVE()) return 0;
    uint32_t st = slots[hart].state;
    return st == ST_START || st == ST_RUNNING;
}

int ts_hart_join(unsigned hart, int *ret) {
    if (bad_hart(hart)) return TS_HART_EINVAL;
    if (!ACTIVE()) return TS_HART_EIDLE;
    ts_slot_t *s = &slots[hart];
    uint32_t st;
    while ((st = s->state) != ST_DONE) {
        if (st == ST_IDLE) return TS_HART_EIDLE;
        pause();
        pause();
    }
    FENCE();
    if (ret) *ret = s->ret;
    s->state = ST_IDLE;
    return TS_HART_OK;
}

/* Harts 1..7 come here from crt0.S with their own stack, mtvec set, mie = MSIE and
 * mstatus.MIE = 0. msip is cleared before the state is looked at, so a start posted at any
 * moment is seen either now or after the next wake-up. */
void ts_hart_park(unsigned hart) __attribute__((noreturn)) TS_NOINSTR;
void ts_hart_park(unsigned hart) {
    ts_slot_t *s = &slots[hart];
    volatile uint32_t *msip = msip_of(hart);
    for (;;) {
        for (;;) {
            *msip = 0;
            FENCE();
            if (ACTIVE() && s->state == ST_START) break;
            __asm__ volatile("wfi" ::
                                 : "memory");
        }
        if (!s->tls_ready) { /* thread-local block at the bottom of the stack area */
            void *tls = __stack - (uintptr_t)__ts_hart_stack_size * (hart + 1u);
            _init_tls(tls);
            _set_tls(tls);
            s->tls_ready = 1;
        }
        ts_hart_fn_t fn = s->fn;
        void *arg = s->arg;
        s->state = ST_RUNNING;
        TS_CSR_WRITE(mie, 0);
        int r = fn(arg);
        TS_CSR_CLEAR(mstatus, 8u);
        TS_CSR_WRITE(mie, 8u); /* MSIE only again */
        s->ret = r;
        FENCE();
        s->state = ST_DONE;
    }
}
