#!/usr/bin/env bash
# check_speed.sh BUILD_DIR [N...] - `tracesim check` and `tracesim report` against the run's
# size (not a test: it prints figures). For each N (default 100000 300000 1000000) and each
# kind (manual: perfWriteCntrs from two call sites; func: enter/exit records of a tiny
# instrumented function) runs firmware/bench/check_scale.c with N perf records (Delta, one
# counter) into a 64 MiB trace SRAM, then times check and report (wall seconds, peak RSS).
set -eu
build=${1:?usage: check_speed.sh BUILD_DIR [N...]}
shift
sizes=${*:-100000 300000 1000000}
sim=$build/tracesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timed() {   # label, command...: prints "label S s, R MiB"
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then /usr/bin/time -f %M -o "$tmp/rss" "$@" > "$tmp/out" 2>&1; else "$@" > "$tmp/out" 2>&1; echo 0 > "$tmp/rss"; fi ||
    { echo "$label failed: $(tail -2 "$tmp/out")" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v l="$label" -v a="$t0" -v b="$t1" -v r="$(cat "$tmp/rss")" 'BEGIN {printf "%s %.2f s, %.0f MiB", l, b - a, r / 1024}'
}
printf '%-8s %9s %14s  %-26s %-26s\n' kind records "trace bytes" check report
for n in $sizes; do
  for kind in manual func; do
    elf=$build/firmware/bench/check_scale_${kind}_$n.elf
    [ -f "$elf" ] || { echo "no $elf (build the firmware)" >&2; exit 1; }
    rm -rf "$tmp/r"
    "$sim" run -q --trace-sram 64M -o "$tmp/r" "$elf" > /dev/null
    grep -q "check_scale: $n records" "$tmp/r/uart.txt" || { echo "the run did not write $n records: $(cat "$tmp/r/uart.txt")" >&2; exit 1; }
    c=$(timed check "$sim" check "$tmp/r")
    grep -q "^check: compared $n perf records in the trace: each equals the ground truth" "$tmp/out" || { echo "check did not check $n records: $(tail -2 "$tmp/out")" >&2; exit 1; }
    r=$(timed report "$sim" report --elf "$elf" "$tmp/r/trace.rtd")
    printf '%-8s %9s %14s  %-26s %-26s\n' "$kind" "$n" "$(stat -c %s "$tmp/r/trace.rtd")" "$c" "$r"
  done
done
