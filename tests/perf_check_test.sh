#!/usr/bin/env bash
# perf_check_test.sh BUILD_DIR NAME ELF [run options...] - runs a perf library firmware and
# requires `tracesim check` to find every ITC store and every perf record equal to the
# simulator's ground truth. NAME may start with:
#   corrupt_counter_  change one counter read in counters.csv: check must fail, naming it
#   corrupt_flow_     change the call site (a1) of hook entries in hooks.csv: check must fail, naming it
#   stop_             the buffer must have filled (stop-on-wrap) and the cut be reported
set -u
b=$1; name=$2; elf=$3; shift 3
t=$b/tracesim; run=$b/test-runs/perf_check_$name
rm -rf "$run"
fail() { echo "FAIL ($name): $*"; exit 1; }
"$t" run -q -o "$run" "$@" "$elf" > /dev/null 2> "$run.err" || fail "firmware exited $?: $(tail -1 "$run.err")"
case $name in
corrupt_counter_*)
  # the 20th read of a counter's low half gets another value
  awk -F, 'NR > 1 && ($4 == "cycle" || $4 == "instret") && ++n == 20 { $5 = "0x00000001" } { print }' OFS=, \
    "$run/counters.csv" > "$run/c" && mv "$run/c" "$run/counters.csv"
  "$t" check "$run" > "$run.out" 2>&1 && fail "check passed a corrupted counter read"
  grep -q "check FAILED: record [0-9]*.*stored 0x[0-9a-f]*, but the firmware read 0x1 " "$run.out" || fail "unclear message: $(cat "$run.out")" ;;
corrupt_flow_*)
  # hook entries 40 to 79 (the first ones into recorded functions) got another call site
  # (a1) from the core than the one the records hold
  awk -F, 'NR > 1 && ++n >= 40 && n < 80 { $7 = "0x80000002" } { print }' OFS=, \
    "$run/hooks.csv" > "$run/f" && mv "$run/f" "$run/hooks.csv"
  "$t" check "$run" > "$run.out" 2>&1 && fail "check passed a corrupted hook entry"
  grep -q "check FAILED: record [0-9]*.*but __cyg_profile_func_[a-z]* was entered with a0 = 0x[0-9a-f]*, a1 = 0x80000002" "$run.out" ||
    fail "unclear message: $(cat "$run.out")" ;;
*)
  "$t" check "$run" > "$run.out" 2>&1 || fail "$(cat "$run.out")"
  grep -Eq "^check: compared [0-9]+ perf records in the trace: each equals the ground truth" "$run.out" || fail "no perf records checked: $(cat "$run.out")"
  case $name in stop_*)
    grep -q '"stopped_on_wrap": true' "$run/trace.json" || fail "the buffer did not fill"
    # every number a count of one thing (issue 35): the records the firmware made (its own
    # count, uart.txt), those made after the stop (each record starts with a 1-byte store of
    # its type, so: itc.csv's 1-byte after_stop stores), the one the stop cut, and the rest
    # compared; they add up to what the firmware made
    made=$(sed -n 's/.*; \([0-9]*\) records, .*buffer full.*/\1/p' "$run/uart.txt")
    after=$(awk -F, 'NR > 1 && $5 == 1 && $7 == "after_stop"' "$run/itc.csv" | wc -l)
    [ -n "$made" ] && [ "$after" -gt 0 ] || fail "no record count in uart.txt or no record after the stop"
    grep -q "^check: compared $((made - after - 1)) perf records in the trace: each equals the ground truth (.*); $after made after the stop are not in it (checked against the ground truth only); 1 cut (stop-on-wrap): its part in the trace equals it$" "$run.out" ||
      fail "not compared $((made - after - 1)), $after after the stop, 1 cut: $(cat "$run.out")"
    grep -q "^check: [0-9]* stores, $((made - after)) perf records, OK$" "$run.out" || fail "no verdict line: $(cat "$run.out")"
    # the encoder stopped in the cycle the model says: every store it accepted came before,
    # while the firmware went on reading counters for its later records
    stop=$(sed -n 's/.*"stopped_at_cycle": \([0-9]*\).*/\1/p' "$run/trace.json")
    [ -n "$stop" ] && [ "$stop" -gt 0 ] || fail "no stop cycle in trace.json"
    last=$(awk -F, '$7 == "traced" { c = $1 } END { print c }' "$run/itc.csv")
    [ "$last" -lt "$stop" ] || fail "a store was accepted at cycle $last, after the stop at $stop"
    after=$(awk -F, -v s="$stop" 'NR > 1 && $1 > s' "$run/counters.csv" | wc -l)
    [ "$after" -gt 0 ] || fail "the firmware did not go on after the stop" ;;
  esac ;;
esac
echo "ok ($name): $(grep -h '^check:' "$run.out" | tail -1)"
