/* priv_support.h - running code in S- and U-mode from the BSP's M-mode tests.
 *
 * priv_call(mode, fn, arg) runs fn(arg) in `mode` (0 U, 1 S, 3 M) and returns its result in
 * M-mode: it saves the callee-saved registers, mrets into fn with ra pointing at a stub that
 * raises a machine software interrupt (CLINT msip) and spins; the interrupt is enabled in
 * every lower mode and cannot be delegated, so the return works whatever medeleg/mideleg and
 * the S-mode code did. priv_init() installs that handler (and the S-mode trap vector).
 * S-mode traps: firmware/sbi/s_trap.h. */
#ifndef TS_PRIV_SUPPORT_H
#define TS_PRIV_SUPPORT_H
#include <stdint.h>

enum { PRIV_U = 0, PRIV_S = 1, PRIV_M = 3 };

typedef uint32_t (*priv_fn_t)(uint32_t arg);
uint32_t priv_call(uint32_t mode, priv_fn_t fn, uint32_t arg);
void priv_init(void);

#include "s_trap.h"

/* length of the instruction at pc (2 or 4) */
static inline uint32_t insn_len(uint32_t pc) {
    return ((*(volatile uint16_t *)(uintptr_t)pc) & 3) == 3 ? 4 : 2;
}
#endif
