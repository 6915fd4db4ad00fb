#!/usr/bin/env bash
# run_expect.sh - runs a command and checks what a user would see.
#   run_expect.sh [--exit N] [--stdout RE] [--stderr RE] [--one-line] [--no-stderr] -- cmd args...
# --exit N      the exit status must be N (default 0)
# --stdout RE   stdout must match the extended regular expression RE (grep -E, per line)
# --stderr RE   stderr must match RE
# --one-line    stderr must be exactly one line (a clear one-line error)
# --no-stderr   stderr must be empty
# Sanitizer reports ("ERROR: AddressSanitizer", "runtime error:") always fail the test.
set -u
want_exit=0; out_re=""; err_re=""; one_line=0; no_err=0
while [ $# -gt 0 ]; do
  case "$1" in
    --exit) want_exit=$2; shift 2 ;;
    --stdout) out_re=$2; shift 2 ;;
    --stderr) err_re=$2; shift 2 ;;
    --one-line) one_line=1; shift ;;
    --no-stderr) no_err=1; shift ;;
    --) shift; break ;;
    *) echo "run_expect.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err" </dev/null
rc=$?
fail=0
show() { echo "--- stdout:"; head -c 4000 "$out"; echo "--- stderr:"; head -c 4000 "$err"; }
if [ "$rc" -ne "$want_exit" ]; then echo "FAIL: exit status $rc, expected $want_exit"; fail=1; fi
if [ -n "$out_re" ] && ! grep -Eq -- "$out_re" "$out"; then echo "FAIL: stdout does not match /$out_re/"; fail=1; fi
if [ -n "$err_re" ] && ! grep -Eq -- "$err_re" "$err"; then echo "FAIL: stderr does not match /$err_re/"; fail=1; fi
if [ "$one_line" = 1 ] && [ "$(wc -l <"$err")" -ne 1 ]; then echo "FAIL: stderr has $(wc -l <"$err") lines, expected one"; fail=1; fi
if [ "$no_err" = 1 ] && [ -s "$err" ]; then echo "FAIL: unexpected stderr output"; fail=1; fi
if grep -Eq "ERROR: (Address|Leak)Sanitizer|runtime error:" "$err"; then echo "FAIL: sanitizer report"; fail=1; fi
if [ $fail = 1 ]; then echo "command: $*"; show; exit 1; fi
echo "ok: $*"
