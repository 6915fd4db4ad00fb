/* oc.h - the optimised-code program of `tracesim check` (docs/commands/check.md): two
 * translation units built at -O1/-O2/-O3/-Os, with and
 * without -flto, with -finstrument-functions, so that GCC inlines instrumented functions
 * (hooks called from the inlined copy with the inlined function's address), makes sibling
 * calls (a void function ending in `j __cyg_profile_func_exit`, an uninstrumented function
 * ending in `j` to an instrumented one), recursion, calls through pointers, static
 * functions, and an instrumented timer interrupt handler whose hooks nest in the main
 * line's. */
#ifndef OC_H
#define OC_H
#include <stdint.h>

/* oc_lib.c */
uint32_t oc_leaf(uint32_t x);                 /* tiny: inlined across units with -flto */
uint32_t oc_sum(uint32_t n);                  /* calls an inlined static instrumented function */
uint32_t oc_rec(uint32_t n);                  /* recursion */
void oc_note(uint32_t x);                     /* void: its exit hook may be a sibling call */
uint32_t oc_trampoline(uint32_t x);           /* not instrumented: a sibling call into oc_sum */
extern uint32_t (*const oc_ops[3])(uint32_t); /* calls through pointers */
extern volatile uint32_t oc_sink;
#endif
