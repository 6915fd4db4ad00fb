/* out_paths.h - the call paths of `tracesim report` (stack_tree.h) and the outputs made from
 * them: `-f folded` (folded stacks for flame graphs) and `-f callgrind` (KCacheGrind,
 * callgrind_annotate).
 *
 * From perf records (rp_*): the profile (profile.h) hands every counted interval with its call
 * stack (prof_opts_t.path_interval) and every frame opened (path_enter); one tree per hart.
 * From the program flow (fpath_report): its own pass of flow_calls.h over the trace, every
 * instruction on the stack it ran under.
 *
 * Folded stacks (docs/commands/report.md): one line per call path, "hart N;[thread;]f;g;h
 * COUNT": the first frame names the hart, a thread frame follows when the hart switched
 * threads (THREAD_SWITCH), then the functions from the outermost. A stack's count is the
 * chosen counter's self cost of its innermost function on that path; "[outside]" ends the
 * paths of what was counted with no function on the stack, "[not attributed]" those of the
 * intervals the profile could not attribute (a longjmp, an exit of a function below the top,
 * a thread switch). So the counts add up to the profile's trace total of that counter, each
 * function's leaf counts to its self, and the counts of the lines a function appears in
 * (once or more) to its total. */
#ifndef TS_OUT_PATHS_H
#define TS_OUT_PATHS_H
#include "nexus_decode.h"
#include "profile.h"
#include <stdbool.h>
#include <stdio.h>

typedef struct rpaths rpaths_t;

/* NULL when out of memory; rp_attach sets o's path callbacks to it */
rpaths_t *rp_new(void);
void rp_free(rpaths_t *r);
void rp_attach(rpaths_t *r, prof_opts_t *o);
/* the calling-context tree of a hart (stack_tree.h; -f html): columns the counter indexes and
 * RP_HOOK_COL, the hook cycles inside the cycles */
struct st;
#define RP_HOOK_COL PERF_MAX_COUNTERS
const struct st *rp_tree(const rpaths_t *r, unsigned hart);
/* the folded stacks of counter (a counter's name; NULL: cycles, else the first counter) of
 * every hart's profile (profs[k] NULL: none); compensate: the hooks' cycles taken out of the
 * cycles counts (report --compensate). 0; -1 with one line in err (unknown counter: the list
 * of those there are); -2 no memory or writing failed */
int rp_write_folded(rpaths_t *r, prof_t *const profs[PERF_MAX_CORES], const char *counter, bool compensate, FILE *out,
                    char *err, size_t errlen);

/* the callgrind profile (stack_tree.h: st_write_callgrind) of the one hart's profile in profs:
 * events every counter (named with letters, digits and '_': load|store is load_store), lines
 * from sl (src_lines.h, may be NULL): a function's self costs at its first line, its calls at
 * the line of their call site (a record's return address - 2). 0; -1 with one line in err
 * (profiles of several harts: --hart); -2 no memory or writing failed */
int rp_write_callgrind(rpaths_t *r, prof_t *const profs[PERF_MAX_CORES], bool compensate, void *sl, const char *cmd,
                       FILE *out, char *err, size_t errlen);

/* the folded stacks (callgrind false; counter: NULL or "instructions") or the callgrind
 * profile (events: instructions; every instruction at its pc's source line, every call at
 * its call instruction's) of the program flow: as fp_report (flow_profile.h) for its
 * arguments and return values, and -3 with one line in err for a counter it does not have */
int fpath_report(const char *path, const nxd_cfg_t *cfg, bool wrapped, const char *elf, int hart, const char *counter,
                 bool callgrind, FILE *out, char *err, size_t errlen);
#endif
