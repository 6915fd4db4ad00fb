# tests/lib/exit_status.sh - sourced by the shell tests in tests/ (". "$(dirname "$0")/lib/exit_status.sh"):
# sets TS_EXIT_NAME=STATUS for every TS_EXIT(NAME, STATUS, ...) line of
# rtl_model/regs/exit_status.def, the one definition of the exit statuses, so that a test
# says `--exit "$TS_EXIT_USAGE"` and never a bare 120. The .def is found from the sourcing
# script's folder (tests/), or at $TS_EXIT_DEF. Fails the sourcing script (exit 2, one line)
# when the file is missing or names no status.
ts_exit_def=${TS_EXIT_DEF:-$(dirname "$0")/../rtl_model/regs/exit_status.def}
if [ ! -r "$ts_exit_def" ]; then
    echo "exit_status.sh: cannot read $ts_exit_def" >&2
    exit 2
fi
ts_exit_vars=$(sed -n 's/^TS_EXIT(\([A-Z_][A-Z0-9_]*\), *\([0-9][0-9]*\),.*/TS_EXIT_\1=\2/p' "$ts_exit_def")
if [ -z "$ts_exit_vars" ]; then
    echo "exit_status.sh: $ts_exit_def names no exit status" >&2
    exit 2
fi
eval "$ts_exit_vars"
unset ts_exit_def ts_exit_vars
