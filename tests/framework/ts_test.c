/* ts_test.c - runner for ts_test.h. */
#include "ts_test.h"

struct ts_test_case *ts_test_list;
const char *ts_test_current = "";

int ts_test_main(int argc, char **argv) {
    if (argc > 2) {
        fprintf(stderr, "usage: %s [case]\n", argv[0]);
        return 2;
    }
    int ran = 0;
    for (struct ts_test_case *c = ts_test_list; c; c = c->next) {
        if (argc == 2 && strcmp(argv[1], c->name)) continue;
        ts_test_current = c->name;
        c->fn();
        printf("ok %s\n", c->name);
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "%s: no test case named '%s'\n", argv[0], argc == 2 ? argv[1] : "");
        return 2;
    }
    return 0;
}
