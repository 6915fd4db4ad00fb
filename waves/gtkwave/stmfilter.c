/* stmfilter.c - GTKWave translate process filter for software trace event ids; see
 * stmfilter.h. Groups and names come from stm.def (the X-macros), never numbers of its own. */
#include "stmfilter.h"
#include "symfilter.h"
#include "ts_exit_status.h" /* TS_EXIT_*: rtl_model/regs/exit_status.def */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    uint32_t first, last;
} stm_group_t;
typedef struct {
    const char *name;
    uint32_t id;
} stm_event_t;

static const stm_group_t groups[] = {
#define TS_STM_GROUP(name, first, last, desc) {#name, first, last},
#include "stm.def"
};
static const stm_event_t events[] = {
#define TS_STM_EVENT(name, id, desc) {#name, id},
#include "stm.def"
};

void ts_stmfilter_line(const char *in, char *out, size_t outlen) {
    char v[128];
    uint64_t id;
    bool ok = ts_filter_value(in, v, sizeof v, 4, 0xFFFF, &id);
    const stm_group_t *g = NULL;
    for (size_t i = 0; ok && i < sizeof groups / sizeof groups[0]; i++)
        if (id >= groups[i].first && id <= groups[i].last) g = &groups[i];
    if (!g) {
        snprintf(out, outlen, "%s", v);
        return;
    }
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (events[i].id == id) {
            snprintf(out, outlen, "%s %s", g->name, events[i].name);
            return;
        }
    if (g->first == g->last) snprintf(out, outlen, "%s", g->name);
    else
        snprintf(out, outlen, "%s 0x%04x", g->name, (unsigned)id);
}

static void stm_line(void *ctx, const char *in, char *out, size_t outlen) {
    (void)ctx;
    ts_stmfilter_line(in, out, outlen);
}

int ts_stmfilter_run(void) {
    return ts_filter_loop(stm_line, NULL) ? TS_EXIT_HOST : 0; /* the one line: main's check of stdout */
}
