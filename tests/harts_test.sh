#!/usr/bin/env bash
# harts_test.sh BUILD CASE - the SoC side of tracesim run --harts N, on firmware/hello.c
# (every hart runs it: start-up, printf, a timed loop; all harts contend for the RAM).
#   outputs      stats.txt, hpm.csv and events.csv per hart agree with each other and with
#                the simulator's own counts (instret per hart sums to the total; each hart's
#                mcycle counts every cycle; minstret equals that hart's retire count; the
#                UART carries every hart's bytes: N times the single-hart output's length);
#                harts lose cycles to bus arbitration (event bus_arb) only when N > 1
#   determinism  two runs of 4 harts give the same bytes in every output file
#   waves        one FST holds every hart's scope (soc, hart1); every signal of the "harts"
#                view and of a per-hart view exists in the file; a view of a hart the file
#                does not have fails with one clear line
#   own_sink     single-hart perf firmware (fib.elf) run with --harts 2 sets hart 0's teSink
#                to its own sink, not the funnel: the run warns with the byte count the
#                firmware itself reports (uart.txt "N of M trace bytes used"), trace.json's
#                other_sink_bytes holds it, and check's failure names it
set -eu
build=${1:?usage: harts_test.sh BUILD CASE}
case_=${2:?case}
sim=$build/tracesim
# the same work on every hart at once: with the BSP's boot protocol (README "Several harts
# (firmware)") the other harts park until main starts them, so hello.elf would run on hart 0 only
fw=$build/firmware/tests/mh_same.elf
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
stat() { awk -v k="$1" '$1 == k {print $2}' "$2/stats.txt"; }
col() {   # col FILE NAME ROW: value of column NAME in data row ROW (1 = first) of a CSV
  awk -F, -v name="$2" -v row="$3" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == name) c = i}
                                     NR == row + 1 {print $c}' "$1"
}

case $case_ in
own_sink)
  d=$tmp/own
  "$sim" run -q --harts 2 --out "$d" "$build/firmware/examples/fib.elf" > /dev/null 2> "$tmp/err" || fail "run failed"
  used=$(sed -n 's/.* \([0-9][0-9]*\) of [0-9]* trace bytes used.*/\1/p' "$d/uart.txt")
  [ -n "$used" ] || fail "uart.txt has no 'trace bytes used' line"
  grep -q "^tracesim: warning: hart 0's encoder wrote $used bytes into its own .* sink (teSink), not through the funnel" "$tmp/err" ||
    fail "no warning naming $used bytes: $(cat "$tmp/err")"
  grep -q "\"other_sink_bytes\": $used\$" "$d/trace.json" || fail "trace.json other_sink_bytes is not $used"
  if "$sim" check "$d" > /dev/null 2> "$tmp/cerr"; then fail "check passed on a trace that lacks every store"; fi
  grep -q "the encoders wrote $used bytes into their own sinks" "$tmp/cerr" || fail "check does not name the bytes: $(cat "$tmp/cerr")"
  echo "own_sink: $used bytes named by run, trace.json and check"
  ;;
outputs)
  "$sim" run -q --out "$tmp/h1" "$fw" >/dev/null || fail "1 hart: run failed"
  len1=$(wc -c < "$tmp/h1/uart.txt")
  [ "$(col "$tmp/h1/events.csv" bus_arb 1)" = 0 ] || fail "1 hart: bus_arb counted"
  for n in 2 4; do
    d=$tmp/h$n
    "$sim" run -q --harts $n --out "$d" "$fw" >/dev/null || fail "$n harts: run failed"
    [ "$(stat harts "$d")" = $n ] || fail "$n harts: stats.txt says $(stat harts "$d") harts"
    cycles=$(stat cycles "$d")
    sum=0
    for ((h = 0; h < n; h++)); do
      ih=$(stat instret_hart$h "$d")
      [ -n "$ih" ] && [ "$ih" -gt 0 ] || fail "$n harts: no instret_hart$h"
      sum=$((sum + ih))
      grep -q "^$h,mcycle,0xb00,0x0,cycle,64,$cycles$" "$d/hpm.csv" || fail "$n harts: hart $h mcycle is not $cycles"
      grep -q "^$h,minstret,0xb02,0x0,instret,64,$ih$" "$d/hpm.csv" || fail "$n harts: hart $h minstret is not $ih"
      [ "$(col "$d/events.csv" hart $((h + 1)))" = $h ] || fail "$n harts: events.csv row $((h + 1)) is not hart $h"
      [ "$(col "$d/events.csv" cycle $((h + 1)))" = "$cycles" ] || fail "$n harts: hart $h event 'cycle' is not $cycles"
      [ "$(col "$d/events.csv" instret $((h + 1)))" = "$ih" ] || fail "$n harts: hart $h event 'instret' is not $ih"
      [ "$(col "$d/events.csv" bus_arb $((h + 1)))" -gt 0 ] || fail "$n harts: hart $h never lost arbitration"
    done
    [ "$sum" = "$(stat instret "$d")" ] || fail "$n harts: instret_hart* sum to $sum, stats.txt says $(stat instret "$d")"
    [ "$(wc -c < "$d/uart.txt")" = $((n * len1)) ] || fail "$n harts: UART has $(wc -c < "$d/uart.txt") bytes, expected $n x $len1"
    head -1 "$d/hpm.csv" | grep -q '^hart,counter,' || fail "$n harts: hpm.csv has no hart column"
  done
  ;;
determinism)
  for r in a b; do "$sim" run -q --harts 4 --out "$tmp/$r" "$fw" >/dev/null || fail "run $r failed"; done
  for f in uart.txt hpm.csv events.csv itc.csv counters.csv flow.csv marks.csv; do
    cmp "$tmp/a/$f" "$tmp/b/$f" || fail "$f differs between two identical runs"
  done
  diff <(grep -v '^sim_' "$tmp/a/stats.txt" | grep -v '^elf ') <(grep -v '^sim_' "$tmp/b/stats.txt" | grep -v '^elf ') ||
    fail "stats.txt differs between two identical runs"
  ;;
waves)
  command -v fst2vcd >/dev/null || fail "needs fst2vcd (Debian package gtkwave)"
  "$sim" run -q --harts 2 --max-cycles 3000 --waves "$tmp/w.fst" --out "$tmp/r" "$fw" >/dev/null 2>&1 || true
  [ -s "$tmp/w.fst" ] || fail "no waves written"
  # the signals in the file: "scope.scope...name" from the VCD header
  fst2vcd "$tmp/w.fst" | sed '/\$enddefinitions/q' | awk '
    $1 == "$scope" {s[++d] = $3} $1 == "$upscope" {d--}
    $1 == "$var" {p = s[1]; for (i = 2; i <= d; i++) p = p "." s[i]; print p "." $5}' | sort -u > "$tmp/have"
  grep -q '^hart1\.ts_soc_top\.probe_bus_arb_i$' "$tmp/have" || fail "no hart1 scope in the waves"
  for v in "harts 0" "trace 1" "pipeline 1"; do
    set -- $v
    "$src/waves/make_view.sh" "$tmp/w.fst" "$1" "$2" > "$tmp/view.gtkw" || fail "make_view.sh $v failed"
    grep -E '^(soc|hart[0-9])\.' "$tmp/view.gtkw" | sed 's/\[[0-9:]*\]$//' | sort -u > "$tmp/want"
    [ -s "$tmp/want" ] || fail "view $v names no signals"
    missing=$(comm -23 "$tmp/want" "$tmp/have")
    [ -z "$missing" ] || fail "view $v names signals the waves do not have: $missing"
  done
  grep -q '^hart1\.' "$tmp/view.gtkw" && ! grep -q '^soc\.ts_soc_top\.u_core' "$tmp/view.gtkw" ||
    fail "the pipeline view of hart 1 does not show hart 1"
  "$src/waves/make_view.sh" "$tmp/w.fst" trace 2 > /dev/null 2> "$tmp/err" && fail "a view of hart 2 of 2 harts did not fail"
  [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "has 2 hart(s); no hart 2" "$tmp/err" || fail "unclear error: $(cat "$tmp/err")"
  ;;
*) fail "unknown case $case_" ;;
esac
echo "ok: harts $case_"
