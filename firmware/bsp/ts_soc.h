/* ts_soc.h - tracesim SoC addresses and register offsets for firmware, expanded from the
 * single table rtl_model/regs/soc_map.def that the simulator uses too. */
#ifndef TS_SOC_H_FW
#define TS_SOC_H_FW
#include <stdint.h>

#define TS_REGION(name, base, size, desc) enum { TS_##name##_BASE = base, \
                                                 TS_##name##_SIZE = size };
#include "soc_map.def"
#define TS_REG(block, name, off, acc, desc) enum { TS_##block##_##name = off };
#include "soc_map.def"

#define TS_MMIO32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#define TS_SIMCTRL(reg) TS_MMIO32(TS_SIMCTRL_BASE + TS_SIMCTRL_##reg)
#define TS_UART(reg) TS_MMIO32(TS_UART_BASE + TS_UART_##reg)
#define TS_CLINT(reg) TS_MMIO32(TS_CLINT_BASE + TS_CLINT_##reg)

#endif
