/* ground_truth.h - the check of `tracesim check` (the command's front end: cli/check_cli.c):
 * a run folder's trace against the simulator's ground truth. */
#ifndef TS_GROUND_TRUTH_H
#define TS_GROUND_TRUTH_H
typedef struct ts_check_cfg {
    const char *dir;         /* the run folder, or its trace.rtd */
    const char *elf;         /* --elf, or NULL: the run's */
    const char *perf_config; /* --perf-config, or NULL */
    unsigned perf_channel;   /* --perf-channel (6) */
} ts_check_cfg_t;
/* checks the run: the verdict on stdout ("check: ..." lines), every error as one line on
 * stderr; returns the command's exit status (0, 1 FAILED, 121 missing or damaged input, 126) */
int ts_check_run(const ts_check_cfg_t *cfg);
#endif
