/* simctrl.h - simulation-control block: ends the run, marks regions, reads the simulator's
 * cycle and instret counts, switches waveform dumping and writes host files for firmware.
 *
 * Registers (offsets and access from rtl_model/regs/soc_map.def), all 32-bit; any other
 * size, offset or direction is a bus error:
 *   EXIT (W)         the host's exit() is called with the value as a signed 32-bit int (ends
 *                    the run; the host maps it to an exit status, sim/exit_codes.h)
 *   MARK (W)         writes "value,cycle,instret,hart" to the marks stream given at init
 *                    (instret: the writing hart's)
 *   CYCLE_LO/HI (R)  the host's cycle count at the time of the access
 *   INSTRET_LO/HI (R) the accessing hart's retired-instruction count
 *   HARTS (R)        the number of harts (simctrl_host_t harts)
 *   WAVES (W)        the host's waves() is called with bit 0
 *   FILE_NAME/ADDR/LEN (RW), FILE_CMD (W), FILE_STATUS (R): host file I/O; FILE_CMD 1
 *                    creates or truncates, 2 appends, the file FILE_NAME (a NUL-terminated
 *                    base name, 1 to 255 bytes without '/' or control characters, not "." or
 *                    "..", read from guest RAM) in RUN/host/ (made at the first FILE_CMD), and
 *                    writes FILE_LEN bytes of guest RAM from FILE_ADDR. A name this run has not
 *                    written yet is a new file (an old one of that name is unlinked first,
 *                    never followed or written). FILE_STATUS: 0 ok, 1 bad name, 2 bad buffer,
 *                    3 host I/O error (no run folder, RUN/host a symlink, a folder of that
 *                    name, ...), 4 bad command, 5 the run's host I/O budget is used up (the
 *                    write is refused whole; the first refusal is a guest error).
 * The model owns no clock and no memory: counts, guest RAM and the actions of EXIT and WAVES
 * come from the host interface given at init (the simulator's run controller, or a virtual
 * platform). */
#ifndef TS_SIMCTRL_H
#define TS_SIMCTRL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct simctrl_host {
    void *ctx;                                     /* first argument of every callback */
    uint64_t (*cycle)(void *ctx);                  /* the simulator's cycle count */
    uint64_t (*instret)(void *ctx, unsigned hart); /* retired instructions of that hart */
    /* guest RAM [addr, addr + len) as host memory, or NULL if it is not all RAM */
    uint8_t *(*ram)(void *ctx, uint32_t addr, uint32_t len);
    void (*exit)(void *ctx, int code);               /* EXIT written: end after this cycle */
    void (*waves)(void *ctx, bool on);               /* WAVES written */
    unsigned harts;                                  /* HARTS reads this (1 if 0) */
    void (*guest_error)(void *ctx, const char *msg); /* optional: a firmware mistake, one line */
    /* optional, told after the model did it: a MARK of `hart` (its marks row written), and a
     * FILE_CMD (cmd as written; name NULL if FILE_NAME was no valid name; status as FILE_STATUS
     * reads it afterwards) */
    void (*mark)(void *ctx, unsigned hart, uint32_t value);
    void (*host_io)(void *ctx, unsigned hart, uint32_t cmd, const char *name, uint32_t len, uint32_t status);
} simctrl_host_t;

#define SIMCTRL_HOST_BUDGET_DEFAULT (64ull << 20) /* bytes of host files per run: 64 MiB */

typedef struct simctrl {
    simctrl_host_t host;
    const char *run_dir; /* where FILE_CMD writes; NULL: FILE_CMD answers 3 */
    FILE *marks;         /* marks.csv stream; NULL: marks are dropped */
    uint32_t file_name, file_addr, file_len, file_status;
    int host_dir; /* RUN/host (a directory descriptor) when host_dir_open */
    bool host_dir_open, budget_reported;
    uint64_t host_budget, host_written; /* bytes the firmware may write, has written */
    char **own;                         /* names this run created in RUN/host */
    size_t n_own, cap_own;
} simctrl_t;

/* Every host callback but guest_error must be set. Writes the marks header line if marks is not NULL. The
 * model keeps run_dir and marks (it does not copy, open or close them). */
void simctrl_init(simctrl_t *m, const simctrl_host_t *host, const char *run_dir, FILE *marks);
void simctrl_reset(simctrl_t *m);
/* the run's budget of host file bytes (default SIMCTRL_HOST_BUDGET_DEFAULT; 0: no writes) */
void simctrl_set_host_budget(simctrl_t *m, uint64_t bytes);
/* closes RUN/host and forgets the names (simctrl_init again to reuse) */
void simctrl_free(simctrl_t *m);
/* An access by the core of `hart`; false: bus error */
bool simctrl_read(simctrl_t *m, unsigned hart, uint32_t off, unsigned size, uint32_t *val);
bool simctrl_write(simctrl_t *m, unsigned hart, uint32_t off, unsigned size, uint32_t val);
#endif
