/* perf_fake.h - the host backend of the perf library's port (firmware/perf/perf_port.h, the
 * `#else` branch) for unit tests: every register and CSR access goes to the real C models.
 *
 *  * MMIO: a trace encoder (rtl_model/trace/te.h) at PF_TE_BASE (or n_te of them, one per
 *    hart, 0x1000 apart) and, optionally, a funnel at PF_FUNNEL_BASE with the encoders
 *    attached to it (as sim/soc.c wires them). Every access
 *    is one core cycle: the HPM model ticks once after it, with an event vector of cycle +
 *    instruction retired + load (read) or store (write) + MMIO, and the encoder and funnel
 *    tick once (or every trace_divider-th cycle).
 *    SBA sink words go into the host memory perf_port_bus_addr() mapped (the library's pool)
 *    and into a shadow copy the tests compare against.
 *  * CSRs: an HPM model (rtl_model/hpm/hpm.h) for perf_csr_read/write and the counter read
 *    keys of perf_port_counter_read (key n: user CSR 0xC00+n, 32 bits; key 32+n: the 64-bit
 *    pair). CSR accesses take no cycle.
 *  * Timer: mtime, timebase, mtimecmp and timer start are recorded, nothing fires by itself
 *    (a test calls perf_timer_tick()).
 *  * Host files: kept in memory with simctrl's rules (a name that is empty, ".", "..", has a
 *    '/' or 256 characters or more is rejected with 1).
 *
 * What the library must never do is fatal (message on stderr, exit 1): an access outside the
 * mapped blocks or one the model rejects, a CSR that is not a counter CSR, a 32-bit read key
 * for a counter wider than 32 bits, an SBA word outside the mapped pool, an ITC poll that
 * never becomes ready. Every counter read (and every read of the master timestamp's low
 * word) is logged with the value the model had, so tests compare decoded values with it.
 *
 * The library's state is static: one test case per process (see test_perflib.c). */
#ifndef TS_PERF_FAKE_H
#define TS_PERF_FAKE_H
#include <stdbool.h>
#include <stdint.h>
#include "funnel.h"
#include "hpm.h"
#include "te.h"

#define PF_TE_BASE 0x10000000u
#define PF_FUNNEL_BASE 0x10018000u
#define PF_BUS_BASE 0x80000000u /* bus address of the first host pointer that is mapped */
#define PF_KEY_TS 1u            /* log key of a master timestamp read (PERF_KEY_TS) */
#define PF_MAX_TE 8u            /* encoders (harts) at most */

typedef struct pf_cfg {
    te_cfg_t te; /* the encoder (te.has_funnel: it can sink into the funnel) */
    hpm_cfg_t hpm;
    bool funnel;          /* a funnel at PF_FUNNEL_BASE with the encoder attached */
    unsigned funnel_sram; /* funnel SRAM bytes */
    unsigned funnel_ts_width;
    unsigned hart;          /* perf_port_hartid() */
    uint64_t mtime;         /* perf_port_mtime() (tests move it with pf_set_mtime) */
    uint64_t timebase;      /* perf_port_timebase() */
    int timer_start_rc;     /* perf_port_timer_start() returns this */
    unsigned trace_divider; /* the encoder and funnel tick every n-th core cycle (default 1):
                             * a slower trace clock lets the ITC FIFO fill up */
    unsigned n_te;          /* encoders (default 1): encoder k at PF_TE_BASE + 0x1000 k with
                             * hartId/srcID k (te.hart when n_te is 1), all attached to the
                             * funnel if there is one; hart k has its own HPM model (a hart
                             * >= n_te uses hart 0's) */
} pf_cfg_t;

typedef struct pf_read {
    unsigned key;   /* perf_port_counter_read's key, or PF_KEY_TS */
    uint64_t value; /* what the library got */
} pf_read_t;

typedef struct pf_timer {
    unsigned starts; /* perf_port_timer_start calls */
    unsigned start_hart;
    uint64_t first_deadline;
    unsigned cmp_writes; /* perf_port_set_mtimecmp calls */
    unsigned cmp_hart;
    uint64_t mtimecmp; /* the last value set */
} pf_timer_t;

void pf_default_cfg(pf_cfg_t *c);
/* (re)builds every model from c and clears logs and files; fatal if c is invalid */
void pf_init(const pf_cfg_t *c);
void pf_free(void);

te_t *pf_te(void);            /* encoder 0 */
te_t *pf_te_of(unsigned k);   /* encoder k (NULL if there is none) */
hpm_t *pf_hpm_of(unsigned k); /* hart k's HPM model (NULL if k >= n_te) */
/* perf_port_lock calls so far, and whether the lock is held now (the fake is fatal on a
 * lock before perfInit, a nested lock and an unlock without a lock) */
unsigned pf_locks(void);
/* register writes (ITC stores included) to encoder k and to the funnel so far */
unsigned pf_te_writes(unsigned k);
unsigned pf_funnel_writes(void);
int pf_lock_held(void);
funnel_t *pf_funnel(void); /* NULL without a funnel */
hpm_t *pf_hpm(void);       /* the current hart's */
void pf_set_hart(unsigned hart);
void pf_set_mtime(uint64_t t);
const pf_timer_t *pf_timer(void);

uint64_t pf_cycles(void);     /* MMIO accesses (= cycles) so far */
unsigned pf_csr_writes(void); /* CSR writes other than mcounteren */
/* the counter read log, oldest first */
unsigned pf_reads(const pf_read_t **log);

/* a host file written through perf_port_host_write (NULL if none); its length in *len */
const uint8_t *pf_file(const char *name, uint32_t *len);
unsigned pf_file_count(void);
unsigned pf_host_writes(void); /* perf_port_host_write calls, accepted or not */

/* the sink the library set up: the funnel's when the encoder sinks into it */
const sink_t *pf_sink(void);
/* bytes that entered the sink (words written and bytes in the partial word) */
uint64_t pf_sink_bytes(void);
/* the valid bytes of that sink, oldest first (SRAM: the model's image; SBA: the shadow copy
 * of what the sink wrote on the bus); malloc'd, length in *len */
uint8_t *pf_trace_image(uint32_t *len);
/* the shadow copy of bus memory [bus, bus + len) (NULL outside the mapped pool) */
const uint8_t *pf_sba_shadow(uint32_t bus, uint32_t len);
#endif
