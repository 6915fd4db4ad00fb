#!/usr/bin/env bash
# host_io_test.sh BUILD_DIR - firmware host file I/O is a sandbox (docs/reference/memory-map.md "Host file I/O").
# firmware/tests/host_io.c writes the simulator's own file names and a name planted in
# RUN/host as a symlink to a file outside, tries paths and bad names, then appends 4 KiB
# chunks until the budget (--host-io-limit 64K) stops it. Checks:
#   * RUN/flow.csv, itc.csv, counters.csv, stats.txt, marks.csv, guest_errors.log hold none of
#     the firmware's text; its writes are in RUN/host/ under those names
#   * the symlink was not followed: its target is unchanged, RUN/host/link is a new file
#   * "../flow.csv", "..", "/tmp/x", "" and a 300-byte name are refused (the firmware checks
#     status 1); no file but the simulator's own appears outside RUN/host; 255 bytes is fine
#   * the budget: 64 KiB - the 144 bytes written before = 15 whole chunks (MARK 15, 61440
#     bytes in runaway.bin), then status 5; exactly one guest error about it on stderr and
#     in guest_errors.log, stats.txt guest_errors 1
#   * perfWriteTrace's file lands in RUN/host too (perf_lib_test.sh onoff checks its bytes)
#   * --host-io-limit with a bad value: one line, exit 120
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
build=$(cd "$1" && pwd)
ts=$build/tracesim
elf=$build/firmware/tests/host_io.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
r=$tmp/r
mkdir -p "$tmp/log"
mkdir -p "$r/host"
printf 'keep\n' > "$tmp/victim.txt"
ln -s "$tmp/victim.txt" "$r/host/link"
start=$(date +%s%N)
"$ts" run -q --host-io-limit 64K --out "$r" "$elf" > "$tmp/log/out" 2> "$tmp/log/err"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" = 0 ] || fail "exit status $rc: $(cat "$tmp/log/out" "$tmp/log/err")"
for f in flow.csv itc.csv counters.csv stats.txt marks.csv guest_errors.log; do
  [ -f "$r/$f" ] || fail "no $f"
  grep -q 'firmware was here' "$r/$f" && fail "the firmware wrote into the simulator's $f"
  [ "$(cat "$r/host/$f")" = 'firmware was here' ] || fail "RUN/host/$f is not the firmware's"
done
grep -q '^cycles [0-9]' "$r/stats.txt" || fail "stats.txt is not the simulator's"
[ "$(cat "$tmp/victim.txt")" = keep ] || fail "the firmware wrote through the planted symlink"
[ -f "$r/host/link" ] && [ ! -L "$r/host/link" ] || fail "RUN/host/link is not a new regular file"
# the firmware itself checks status 1 for "../flow.csv", "..", "/tmp/x", "" and 300 bytes;
# nothing but the run's own files may be in the run folder and beside it
[ "$(cd "$tmp" && find . -path ./r/host -prune -o -path ./log -prune -o -type f -newer victim.txt -print | grep -vcE '^\./r/[a-z_]+\.(csv|txt|json|log|rtd)$')" = 0 ] ||
  fail "a file outside RUN/host: $(cd "$tmp" && find . -path ./r/host -prune -o -path ./log -prune -o -type f -newer victim.txt -print)"
[ -f "$r/host/$(printf 'n%.0s' {1..255})" ] || fail "a 255-byte name was refused"
# the budget
n=$(awk -F, 'NR == 2 {print $1}' "$r/marks.csv")
[ "$n" = 15 ] || fail "$n chunks got through, expected 15 ((65536 - 144) / 4096)"
[ "$(stat -c %s "$r/host/runaway.bin")" = 61440 ] || fail "runaway.bin has $(stat -c %s "$r/host/runaway.bin") bytes"
[ ! -e "$r/host/after.txt" ] || fail "a write after the budget was used up made a file"
[ "$(grep -c 'guest error' "$tmp/log/err")" = 1 ] || fail "stderr: $(cat "$tmp/log/err")"
grep -q "host I/O budget of 65536 bytes is used up (tracesim run --host-io-limit)" "$tmp/log/err" || fail "unclear: $(cat "$tmp/log/err")"
[ "$(wc -l < "$r/guest_errors.log")" = 1 ] && grep -q 'budget of 65536 bytes' "$r/guest_errors.log" ||
  fail "guest_errors.log: $(cat "$r/guest_errors.log")"
grep -qx 'guest_errors 1' "$r/stats.txt" || fail "stats.txt: $(grep guest_errors "$r/stats.txt")"
# bad values of the option
for v in lots -1 ''; do
  "$ts" run -q --host-io-limit "$v" --out "$tmp/b" "$elf" > /dev/null 2> "$tmp/log/err"; rc=$?
  [ "$rc" = "$TS_EXIT_USAGE" ] && [ "$(wc -l < "$tmp/log/err")" = 1 ] && grep -q "for --host-io-limit" "$tmp/log/err" ||
    fail "--host-io-limit '$v': exit $rc, $(cat "$tmp/log/err")"
done
echo "ok: host I/O sandbox; the budget stopped the writer after $n chunks (run: $ms ms)"
