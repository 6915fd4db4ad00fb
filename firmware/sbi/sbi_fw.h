/* sbi_fw.h - M-mode internals of the SBI firmware shared with its tests. */
#ifndef TS_SBI_FW_H
#define TS_SBI_FW_H
#include <stdint.h>
typedef struct sbi_stats {
    uint32_t calls;
} sbi_stats_t;
extern sbi_stats_t sbi_stats;
/* counts firmware event `code` on every started firmware counter mapped to it */
void sbi_fw_event(unsigned code);
#endif
