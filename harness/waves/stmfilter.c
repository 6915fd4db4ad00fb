/* stmfilter.c - GTKWave translate process filter for software trace event ids; see
 * stmfilter.h. Groups and names come from stm.def (the X-macros), never numbers of its own. */
#include "stmfilter.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct { const char *name; uint32_t first, last; } stm_group_t;
typedef struct { const char *name; uint32_t id; } stm_event_t;

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
    size_t n = 0;
    while (*in && isspace((unsigned char)*in)) in++;
    while (in[n] && !isspace((unsigned char)in[n]) && n < sizeof v - 1) { v[n] = in[n]; n++; }
    v[n] = 0;
    const char *d = v;
    int base = 16;
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) d += 2;
    else if (n > 4 && strspn(d, "01") == n) base = 2;
    uint32_t id = 0;
    bool ok = *d != 0;
    for (const char *c = d; *c && ok; c++) {
        int x = isdigit((unsigned char)*c) ? *c - '0'
              : isxdigit((unsigned char)*c) ? tolower((unsigned char)*c) - 'a' + 10 : -1;
        if (x < 0 || x >= base || id > 0xFFFFu / (uint32_t)base) ok = false;
        else id = id * (uint32_t)base + (uint32_t)x;
        if (id > 0xFFFFu) ok = false;
    }
    const stm_group_t *g = NULL;
    for (size_t i = 0; ok && i < sizeof groups / sizeof groups[0]; i++)
        if (id >= groups[i].first && id <= groups[i].last) g = &groups[i];
    if (!g) { snprintf(out, outlen, "%s", v); return; }
    for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
        if (events[i].id == id) { snprintf(out, outlen, "%s %s", g->name, events[i].name); return; }
    if (g->first == g->last) snprintf(out, outlen, "%s", g->name);
    else snprintf(out, outlen, "%s 0x%04x", g->name, (unsigned)id);
}

int ts_stmfilter_main(int argc, char **argv) {
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        puts("usage: tracesim stmfilter\n"
             "A GTKWave translate process filter: reads software trace event ids (stm_id_o, hex) on\n"
             "stdin, one per line, and prints each as its group and name from rtl_model/regs/stm.def\n"
             "(USER 0x0012, COM THREAD_NAME, SYS THREAD_SWITCH, RSVD 0x8123, SYS 0xc001); the\n"
             "waves views install it on stm_id_o (waves/make_view.sh).");
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "tracesim: stmfilter takes no arguments (see tracesim stmfilter --help)\n");
        return 120;
    }
    char line[4096], out[4096];
    while (fgets(line, sizeof line, stdin)) {
        ts_stmfilter_line(line, out, sizeof out);
        fputs(out, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    return 0;
}
