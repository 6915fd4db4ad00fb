#!/usr/bin/env bash
# trap_loop_test.sh BUILD_DIR - firmware whose trap handler address is unmapped faults on
# every cycle or so: the run must end at the cycle limit (status 124) with one line on
# stderr beyond the first guest errors, guest_errors.log must stop at 10000 lines plus a
# summary, and stats.txt must count every guest error.
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
"$build/tracesim" run -q --max-cycles 200000 --out "$tmp/r" "$build/firmware/tests/trap_loop.elf" 2> "$tmp/err" || rc=$?
[ "$rc" = "$TS_EXIT_CYCLE_LIMIT" ] || { echo "FAIL: exit status $rc, expected 124"; exit 1; }
grep -q 'cycle limit of 200000 reached' "$tmp/err" || { echo "FAIL: no cycle-limit line"; exit 1; }
[ "$(grep -c 'guest error at cycle' "$tmp/err")" = 20 ] || { echo "FAIL: stderr should show the first 20 guest errors"; exit 1; }
grep -q 'further guest errors go to guest_errors.log only' "$tmp/err" || { echo "FAIL: no note that stderr stops"; exit 1; }
[ "$(wc -l < "$tmp/r/guest_errors.log")" = 10001 ] || { echo "FAIL: guest_errors.log has $(wc -l < "$tmp/r/guest_errors.log") lines"; exit 1; }
grep -q 'more guest errors not logged' "$tmp/r/guest_errors.log" || { echo "FAIL: no summary line"; exit 1; }
n=$(awk '$1 == "guest_errors" {print $2}' "$tmp/r/stats.txt")
[ "$n" -gt 10000 ] || { echo "FAIL: stats.txt counts $n guest errors"; exit 1; }
echo "ok: $n guest errors, 10000 logged"
