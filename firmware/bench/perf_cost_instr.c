/* perf_cost_instr.c - the empty functions perf_cost.c calls; built twice into the same
 * program: once plain, once with -finstrument-functions (PERF_COST_INSTRUMENTED). */
#ifdef PERF_COST_INSTRUMENTED
__attribute__((noinline)) void perf_cost_instrumented(void) { __asm__ volatile("" ::
                                                                                   : "memory"); }
#else
__attribute__((noinline)) void perf_cost_empty(void) { __asm__ volatile("" ::
                                                                            : "memory"); }
#endif
