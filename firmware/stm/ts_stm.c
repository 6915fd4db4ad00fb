/* ts_stm.c - the software trace port's library part (ts_stm.h). */
#include "ts_stm.h"

void ts_stm_thread_name(const char *s) {
    for (;;) {
        uint32_t w = 0;
        unsigned k;
        for (k = 0; k < 4 && s[k]; k++) w |= (uint32_t)(uint8_t)s[k] << (8 * k);
        ts_stm_event(TS_STM_ID_THREAD_NAME, w);
        if (k < 4) return; /* this word held the NUL */
        s += 4;
    }
}
