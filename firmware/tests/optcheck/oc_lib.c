/* oc_lib.c - the second translation unit of the optimised-code program (oc.h). */
#include "oc.h"

volatile uint32_t oc_sink;

uint32_t oc_leaf(uint32_t x) { return x * 3u + 1u; }

/* static and small: inlined into oc_sum at every level (always_inline: -O1 and -Os would
 * call it); GCC still calls the hooks from the inlined copy, with oc_square's address */
static inline __attribute__((always_inline)) uint32_t oc_square(uint32_t x) { return x * x + (x >> 1); }

uint32_t oc_sum(uint32_t n) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++) s += oc_square(i + n);
    return s;
}

uint32_t oc_rec(uint32_t n) {
    if (n < 2) return n;
    return oc_rec(n - 1) + oc_rec(n - 2) + 1u;
}

/* nothing after the exit hook: GCC ends the function with a sibling call to it */
void oc_note(uint32_t x) { oc_sink = x; }

/* not instrumented: its call to oc_sum becomes a sibling call (a `j` into an instrumented
 * function, whose hooks then see the caller's return address) */
__attribute__((no_instrument_function)) uint32_t oc_trampoline(uint32_t x) { return oc_sum(x & 7u); }

static uint32_t oc_twice(uint32_t x) { return oc_leaf(oc_leaf(x)); }
static uint32_t oc_mix(uint32_t x) {
    oc_note(x);
    return x ^ 0x5au;
}

uint32_t (*const oc_ops[3])(uint32_t) = {oc_leaf, oc_twice, oc_mix};
