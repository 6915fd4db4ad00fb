/* ts_exit_status.h - the exit statuses of every command and of the simulator, from
 * exit_status.def (the one definition; docs/reference/exit-status.md is generated from it):
 * TS_EXIT_OK, TS_EXIT_USAGE, TS_EXIT_HOST ...; ts_exit_name(status) is the NAME of a status
 * of the table, or NULL. */
#ifndef TS_EXIT_STATUS_H
#define TS_EXIT_STATUS_H
enum {
#define TS_EXIT(name, status, cmds, meaning) TS_EXIT_##name = status,
#include "exit_status.def"
};
static inline const char *ts_exit_name(int status) {
    switch (status) {
#define TS_EXIT(name, status, cmds, meaning) \
    case status:                             \
        return #name;
#include "exit_status.def"
    default: return 0;
    }
}
#endif
