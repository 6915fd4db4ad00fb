/* ts_stm.h - the software trace port (Open SoC Debug STM) for firmware: README "Software trace
 * port". Numbers from rtl_model/regs/stm.def. An event is one CSR write; a0 carries the value. */
#ifndef TS_STM_H
#define TS_STM_H
#include <stdint.h>

#define TS_STM_CONST(name, value, desc) enum { TS_STM_##name = value };
#include "stm.def"
#define TS_STM_EVENT(name, id, desc) enum { TS_STM_ID_##name = id };
#include "stm.def"

#define TS_STM_STR_(x) #x
#define TS_STM_STR(x) TS_STM_STR_(x)
#define TS_STM_CSR_NUM 0x7c0   /* = TS_STM_CSR (an assembler operand needs a literal) */
_Static_assert(TS_STM_CSR_NUM == TS_STM_CSR, "stm.def and ts_stm.h disagree on the CSR");

/* emit (id, value): the move into a0 and the CSR write. id 0 emits nothing. M-mode only. */
static inline __attribute__((always_inline, no_instrument_function)) void ts_stm_event(uint16_t id, uint32_t value) {
    register uint32_t a0 __asm__("a0") = value;
    __asm__ volatile("csrw " TS_STM_STR(TS_STM_CSR_NUM) ", %1" : : "r"(a0), "r"((uint32_t)id) : "memory");
}
#endif
