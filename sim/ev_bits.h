/* ev_bits.h - EVB_<ID>: the bit of each event in the core's per-cycle event vector (ev_o),
 * which the SoC ORs with its bus-side events, expanded from rtl_model/regs/hpm_events.def.
 * The vector is 64 bits wide on the C side (events 32..63 exist only in the SoC); the
 * enumerators are unsigned long long, a GCC/Clang extension to C11 enums. */
#ifndef TS_EV_BITS_H
#define TS_EV_BITS_H
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) EVB_##id = 1ull << (idx),
enum ts_ev_bit {
#include "hpm_events.def"
};
#undef TS_EVENT
#endif
