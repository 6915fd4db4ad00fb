/* elements.h - stage between Nexus messages and consumers: generic trace elements through
 * one callback API (after Arm OpenCSD's generic trace elements).
 *
 * Per source (SRC) the stage tracks synchronisation and the reconstructed address: until a
 * sync-type message (or ICT-WS) arrives the source is "not synchronised" (one NO_SYNC element
 * is reported when the first message arrives); full addresses come from F-ADDR (<< 1) and
 * U-ADDR is XORed into the last one; ICT-WS and ICT addresses do the same. Every element carries the source, the byte offset of its
 * message and the reconstructed time when known. Corrupt and cut-off messages become CORRUPT
 * and TRUNCATED elements; the end of the trace is an EOT element. Software trace port events
 * (ts_stm_from_msg) become STM elements, never SWTRACE or OWNERSHIP ones; an IDTAG in the
 * port's range that is no event's is a CORRUPT element. */
#ifndef TS_ELEMENTS_H
#define TS_ELEMENTS_H
#include "nexus_decode.h"

enum ts_elem_type {
    TS_ELEM_NO_SYNC,       /* first message of a source before any sync */
    TS_ELEM_TRACE_ON,      /* ICT/ICT-WS control: trace on (code 0 at start, 2) */
    TS_ELEM_TRACE_OFF,     /* ICT control 3, or CORRELATION with EVCODE 4 */
    TS_ELEM_TIMESTAMP,     /* a message that only carries time (ICT-WS control 0) */
    TS_ELEM_SWTRACE,       /* ITC Data Acquisition: channel, byte lane, size, value */
    TS_ELEM_OWNERSHIP,     /* process/context */
    TS_ELEM_OVERFLOW,      /* ERROR message: messages were lost */
    TS_ELEM_RESOURCE_FULL, /* I-CNT / history / branch count full */
    TS_ELEM_SYNC,          /* program trace sync: reason, address */
    TS_ELEM_BRANCH,        /* direct or indirect branch (with history in HTM) */
    TS_ELEM_CORRELATION,   /* end of an instruction trace run */
    TS_ELEM_ICT_EVENT,     /* in-circuit trace event other than control */
    TS_ELEM_CORRUPT,       /* a message that could not be decoded */
    TS_ELEM_TRUNCATED,     /* a message cut off by the end of the trace */
    TS_ELEM_EOT,           /* end of trace */
    TS_ELEM_STM,           /* software trace port event (docs/firmware/software-trace.md) */
    TS_ELEM_PRIVILEGE,     /* program trace's privilege report: an Ownership message with
                             * FORMAT 0 and no context (PROCESS = V << 4 | PRV << 2) from a
                             * source with program trace (a sync, branch, RESOURCE FULL or
                             * Correlation seen); u.own.process. Not an ITC store. */
};

/* A software trace port event (rtl_model/regs/stm.def): a Data Acquisition message with
 * IDTAG = IDTAG_BASE + 4 * id (IDTAG_BASE 0x40001; id 0..0xffff, IDTAG & 3 = 1, DATA = value),
 * or an Ownership message whose PROCESS has format OWN_FORMAT (THREAD_SWITCH, value = PROCESS
 * >> OWN_SHIFT, i.e. bits 36:5; bits 4:2 V/PRV are not checked). */
typedef struct ts_stm_ev {
    unsigned id; /* 0..0xffff */
    uint64_t value;
    const char *group; /* stm.def group name of id (USER, COM, SYS, RSVD, NONE) */
    const char *event; /* THREAD_NAME, THREAD_SWITCH, or NULL */
} ts_stm_ev_t;

/* what a message is to the software trace port: 1 an event (*ev filled), 0 not one (ITC
 * data or ownership, other messages, corrupt ones), -1 a Data Acquisition message whose IDTAG
 * is in the port's range (>= 0x40000) but no event's (IDTAG & 3 != 1, or above
 * IDTAG_BASE + 4 * 0xffff), with the reason in *why */
int ts_stm_from_msg(const nxd_msg_t *m, ts_stm_ev_t *ev, const char **why);
/* stm.def names of an id: its group, and its event (NULL if it has none) */
const char *ts_stm_group_name(unsigned id);
const char *ts_stm_event_name(unsigned id);

typedef struct ts_elem {
    enum ts_elem_type type;
    unsigned src;
    uint64_t offset;
    bool has_time;
    uint64_t time;
    const nxd_msg_t *msg; /* the message it came from (NULL for EOT; valid during the callback only) */
    union {
        struct {
            unsigned channel, lane, size;
            uint32_t value;
        } sw;
        struct {
            uint64_t process;
        } own; /* 34 bits for a THREAD_SWITCH */
        ts_stm_ev_t stm;
        struct {
            unsigned reason;
            uint64_t i_cnt, addr;
            bool has_hist;
            uint64_t hist;
        } sync;
        struct {
            bool indirect;
            unsigned b_type;
            uint64_t i_cnt, addr;
            bool has_hist;
            uint64_t hist;
        } br;
        struct {
            unsigned rcode;
            uint64_t value;
        } rf;
        struct {
            unsigned evcode, cdf;
            uint64_t i_cnt, hist;
        } corr;
        /* ICT/ICT-WS (also TRACE_ON/OFF, TIMESTAMP): has_addr when CKDATA0 is an address;
         * addr is then absolute (ICT-WS: CKDATA0 << 1; ICT: XORed into the source's last
         * address like U-ADDR) */
        struct {
            unsigned cksrc, ckdf;
            uint64_t data0, data1;
            bool has_addr;
            uint64_t addr;
        } ict;
        struct {
            const char *what;
        } err;
    } u;
} ts_elem_t;

typedef int (*ts_elem_cb)(void *ctx, const ts_elem_t *e);

typedef struct ts_elem_stage {
    ts_elem_cb cb;
    void *ctx;
    bool synced[NXD_MAX_SRC], seen[NXD_MAX_SRC], prog[NXD_MAX_SRC];
    uint64_t addr[NXD_MAX_SRC];
} ts_elem_stage_t;

void ts_elem_init(ts_elem_stage_t *s, ts_elem_cb cb, void *ctx);
/* an nxd_cb: pass &stage as the context of nxd_decode */
int ts_elem_from_msg(void *stage, const nxd_msg_t *m);
/* end of the trace */
int ts_elem_eot(ts_elem_stage_t *s, uint64_t offset);
const char *ts_elem_name(enum ts_elem_type t);
#endif
