/* ev_bits.h - EVB_<ID>: the bit of each event in the core's per-cycle event vector (ev_o),
 * which the SoC ORs with its bus-side events, expanded from rtl_model/regs/hpm_events.def. */
#ifndef TS_EV_BITS_H
#define TS_EV_BITS_H
#define TS_EVENT(id, sv, idx, cls, bit, csv, desc) EVB_##id = 1u << (idx),
enum ts_ev_bit {
#include "hpm_events.def"
};
#undef TS_EVENT
#endif
