#!/usr/bin/env bash
# exit_status_test.sh BUILD_DIR [SIM] - the exit-status rule of tracesim run (sim/exit_codes.h,
# docs/commands/run.md "Exit status"): firmware exit codes 0..118 are the status; any other
# (119..255, 256 and above, negative) gives status 119, one stderr line naming the code, and
# the code in stats.txt's fw_exit_code; the simulator's verdicts (120..127) stay its own.
# Every boundary: firmware exit(0), 118, 119, 120, 124, 127, 255, 256, -1 (firmware/tests/
# exit_code.c). SIM: tracesim (default), tracesim-sc, or --systemc (tracesim run --systemc).
set -u
build=$1; simname=${2:-tracesim}
sim=$build/$simname; cmd=run
[ "$simname" = tracesim-sc ] && cmd=""
if [ "$simname" = --systemc ]; then sim=$build/tracesim; cmd="run --systemc"; fi
fw=$build/firmware/tests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- stderr:"; cat "$tmp/err"; exit 1; }
stat() { awk -v k="$1" '$1 == k {print $2}' "$tmp/r/stats.txt"; }
for code in 0 118 119 120 124 127 255 256 -1; do
  name=${code/-/m}
  rc=0
  "$sim" $cmd -q -o "$tmp/r" "$fw/exit_$name.elf" > /dev/null 2> "$tmp/err" || rc=$?
  if [ "$code" -ge 0 ] && [ "$code" -le 118 ]; then want=$code; else want=119; fi
  [ "$rc" = "$want" ] || fail "firmware exit($code): status $rc, expected $want"
  [ "$(stat exit_reason)" = exit ] || fail "exit($code): exit_reason $(stat exit_reason)"
  [ "$(stat exit_code)" = "$want" ] || fail "exit($code): stats.txt exit_code $(stat exit_code), expected $want"
  [ "$(stat fw_exit_code)" = "$code" ] || fail "exit($code): stats.txt fw_exit_code $(stat fw_exit_code), expected $code"
  if [ "$want" = 119 ]; then
    [ "$(wc -l < "$tmp/err")" = 1 ] || fail "exit($code): not one stderr line"
    grep -q "^tracesim: the firmware exited with code $code, outside 0\.\.118: exit status 119 " "$tmp/err" ||
      fail "exit($code): no line naming the code"
  else
    [ ! -s "$tmp/err" ] || fail "exit($code): stderr not empty with -q"
  fi
  echo "ok: firmware exit($code) -> status $rc"
done
# the simulator's own verdicts are unchanged: the cycle limit is 124 with no fw_exit_code
rc=0
"$sim" $cmd -q -o "$tmp/r" -n 10 "$fw/exit_0.elf" > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" = 124 ] || fail "cycle limit: status $rc"
[ "$(stat exit_reason)" = cycle_limit ] && [ -z "$(stat fw_exit_code)" ] || fail "cycle limit: stats.txt"
echo "ok: cycle limit -> 124"
