#!/bin/sh
# outside_sort_test.sh BUILD_DIR - firmware/tests/flow_sort.c, a program-trace-only program
# written apart from the examples (the BSP starts the trace, no perf library), run with
# --trace-insn btm and --retire-log: `check` passes on the flow; `report --from flow -f csv`
# gives less 40 calls and isort 1 (hand counts) and every function's self instructions equal
# prof_truth's (the retire log); the text report names the time unit as it is: ticks, with
# the reason trace.json has no ts_cycle_offset (no timed ITC store) and "ticks" in the column
# headings (before: "no trace.json relating them to cycles" beside a trace.json, and columns
# headed "cyc"); with callgrind_annotate (valgrind), -f callgrind gives the same self
# instructions and the pseudo function [hart 0] no self cost (main's frame is open when the
# trace begins).
set -u
b=$1
ts=$b/tracesim
elf=$b/firmware/tests/flow_sort.elf
run=$b/test-runs/outside_sort
fail() { echo "FAIL (outside_sort): $*"; exit 1; }
rm -rf "$run" "$run".*
"$ts" run -q --trace-insn btm --trace-sram 1M --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
grep -q "^sorted=1 cmp=40$" "$run/uart.txt" || fail "uart.txt: $(cat "$run/uart.txt")"
"$ts" check "$run" > "$run.check" || fail "check exited $?: $(cat "$run.check")"
grep -q "program flow: hart 0: .* equal what the core retired" "$run.check" || fail "no program flow checked: $(cat "$run.check")"
"$ts" report --from flow -f csv "$run" > "$run.csv" 2> /dev/null || fail "report -f csv exited $?"
"$ts" report --from flow "$run" > "$run.txt" 2> /dev/null || fail "report exited $?"
lo=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "start" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
hi=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "stop" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
[ -n "$lo" ] && [ -n "$hi" ] || fail "no start/stop rows in prog_flow.csv"
"$b/tests/prof_truth" "$elf" "$run.retire" --after "$lo" --before "$hi" > "$run.truth" || fail "prof_truth exited $?"
out=$(awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
  FILENAME ~ /truth$/ { if ($(c[FILENAME, "self_insn"]) > 0) T[$1] = $(c[FILENAME, "self_insn"]); next }
  { S[$(c[FILENAME, "function"])] = $(c[FILENAME, "self_insn"]); C[$(c[FILENAME, "function"])] = $(c[FILENAME, "calls"]) }
  END { if (C["less"] != 40 || C["isort"] != 1) printf "calls: less %s, isort %s, expected 40 and 1; ", C["less"], C["isort"]
        for (f in T) if (S[f] + 0 != T[f] + 0) printf "%s: self_insn %s, truth %s; ", f, S[f], T[f] }' "$run.truth" "$run.csv")
[ -z "$out" ] || fail "$out"
grep -q "timestamp ticks (trace.json gives no ts_cycle_offset" "$run.txt" || fail "the unit is not explained: $(sed -n 3p "$run.txt")"
grep -q "self ticks  total ticks  function$" "$run.txt" || fail "the columns are not headed in ticks: $(grep function "$run.txt" | head -1)"
if command -v callgrind_annotate > /dev/null; then
  "$ts" report --from flow -f callgrind "$run" > "$run.cg" 2> /dev/null || fail "report -f callgrind exited $?"
  (cd / && callgrind_annotate --threshold=100 --auto=no "$run.cg") > "$run.ann" || fail "callgrind_annotate failed"
  for f in isort less; do
    n=$(awk -v f="$f" '$NF ~ (":" f "$") { gsub(/,/, "", $1); print $1 }' "$run.ann")
    [ "$n" = "$(awk -F, -v f="$f" '$1 == f { print $4 }' "$run.truth")" ] || fail "callgrind_annotate: $f self $n"
  done
  hs=$(grep -F ':[hart 0]' "$run.ann" | awk '$1 != "." && $1 != "0"')
  [ -z "$hs" ] || fail "callgrind_annotate: [hart 0] has a self cost: $hs"
fi
echo "ok (outside_sort)"
