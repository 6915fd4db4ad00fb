/* soc_targets.h - the SoC's device models as bus targets (sim/bus.h, bus_target_ops_t): each
 * model is the context of its callbacks, which call its read/write. None has a bus tick: the
 * SoC ticks the CLINT itself in step 6 (it drives the interrupt lines from it; through a
 * pointer that tick cost 20 host instructions per cycle, 1.8 %), the trace subsystem in
 * step 4.
 * sim/soc.c registers them at their places of the memory map; a platform may replace a
 * target's read/write afterwards (the SystemC platform, sim/systemc/ts_sc_platform.cpp). */
#ifndef TS_SOC_TARGETS_H
#define TS_SOC_TARGETS_H
#include "bus.h"
#include "clint.h"
#include "funnel.h"
#include "simctrl.h"
#include "te.h"
#include "uart.h"

bus_target_ops_t soc_target_clint(clint_t *c);
bus_target_ops_t soc_target_uart(uart_t *u);
bus_target_ops_t soc_target_simctrl(simctrl_t *m); /* hart: the accessing core's */
bus_target_ops_t soc_target_te(te_t *t);           /* te_read / te_write's answers as they are */
bus_target_ops_t soc_target_funnel(funnel_t *f);
#endif
