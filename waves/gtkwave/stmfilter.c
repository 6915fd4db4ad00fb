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

/* `tracesim stmfilter`'s options: the parser, --help and docs/commands/waves.md (ts_opts.h) */
static const ts_opt_t stmfilter_opts[] = {
    {1, 'h', "help", TS_OPT_FLAG, NULL, 0, 0, 0, 0, 0, "this text"},
    {0, 0, NULL, 0, NULL, 0, 0, 0, 0, 0, NULL}};
static const ts_exit_t stmfilter_exits[] = {
    {"0", "stdin ended"},
    {"120", "usage: an unknown option, an argument"},
    {"126", "stdout cannot be written"},
    {NULL, NULL}};
const ts_cmd_t ts_stmfilter_cmd = {
    "stmfilter", "tracesim stmfilter",
    "A GTKWave translate process filter: reads software trace event ids (stm_id_o, hex) on\n"
    "stdin, one per line, and prints each as its group and name from rtl_model/regs/stm.def\n"
    "(USER 0x0012, COM THREAD_NAME, SYS THREAD_SWITCH, RSVD 0x8123, SYS 0xc001); the\n"
    "waves views install it on stm_id_o (waves/make_view.sh).\n",
    stmfilter_opts, 0, "  one line on stdout per line of stdin, flushed\n", stmfilter_exits, NULL};

int ts_stmfilter_main(int argc, char **argv) {
    int c;
    ts_opts_t op;
    ts_cmd_opts_init(&op, &ts_stmfilter_cmd, argc, argv);
    while ((c = ts_opts_next(&op)) != TS_OPTS_END) {
        if (c == TS_OPTS_ERROR) {
            fprintf(stderr, "tracesim: %s\n", op.err);
            return TS_EXIT_USAGE;
        }
        if (c == TS_OPTS_POSITIONAL) {
            fprintf(stderr, "tracesim: stmfilter takes no arguments (see tracesim stmfilter --help)\n");
            return TS_EXIT_USAGE;
        }
        ts_cmd_help(stdout, &ts_stmfilter_cmd);
        return 0;
    }
    return ts_filter_loop(stm_line, NULL) ? TS_EXIT_HOST : 0; /* the one line: main's check of stdout */
}
