#!/usr/bin/env bash
# perf_gap_test.sh BUILD_DIR CASE - perf data that was lost, on the simulated SoC:
#   overflow_{raw,delta,xor}  firmware/tests/perf_overflow.c with --itc-depth 1 (or 2 with a
#       _depth2 suffix): stores are lost; the trace has Error messages, the decode reports the
#       gap, cuts the broken record, never prints a value that depends on lost data, and
#       `tracesim check` passes (records on both sides of the gap equal the ground truth)
#   stall_{raw,delta,xor}     the same with teStallEnable: nothing lost, check passes, and the
#       stall cycles are in the ITC-stall event: events.csv, trace.json and the records'
#       ITC-stall counter (its change over the run) agree
#   wrap_{raw,delta,xor}      firmware/tests/perf_wrap_buffer.c with --trace-sram 1K and no
#       stop-on-wrap: trace.json says wrapped; check passes on the records in the trace; the
#       decode with --perf-config RUN_DIR/perf_config.txt finds every record whose type byte is
#       in the trace (Delta: 56, worked out by hand in perf_wrap_buffer.c), without it a note
#       says how to give the header; report works the same way
#   broken_lost_count         check must fail when trace.json's count of lost stores is wrong
#   broken_config             check must fail when perf_config.txt has the wrong count type
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
b=$1; case=$2
t=$b/tracesim; ts=$b/tracesim_san; fw=$b/firmware/tests; runs=$b/test-runs/perf_gap_$case
rm -rf "$runs"
fail() { echo "FAIL ($case): $*"; exit 1; }
run() {   # run ELF [options]: the firmware must exit 0
  local elf=$1; shift
  "$t" run -q -o "$runs" "$@" "$elf" > "$runs.out" 2> "$runs.err" || fail "$elf exited $? ($(tail -1 "$runs.err"))"
}
json() { sed -n "s/.*\"$1\": \([a-z0-9]*\).*/\1/p" "$runs/trace.json"; }
check() {   # tracesim check must pass
  "$ts" check "$@" "$runs" > "$runs.check" 2>&1 || fail "check: $(cat "$runs.check")"
  grep -Eq "^check: compared [0-9]+ perf records in the trace: each equals the ground truth" "$runs.check" || fail "no perf records checked: $(cat "$runs.check")"
}
ct() { case $1 in *raw*) echo 0;; *delta*) echo 1;; *xor*) echo 2;; esac; }
# column k (1-based) of every record row of a CSV (not the header, not gap rows)
col() { awk -F, -v k="$2" 'NR > 1 && $3 != "gap" { print $k }' "$1"; }

case $case in
overflow_*)
  depth=1; case $case in *_depth2) depth=2;; esac
  run "$fw/perf_overflow_$(ct "$case")_0.elf" --itc-depth $depth
  lost=$(json itc_lost); [ "$lost" -gt 0 ] || fail "no ITC store was lost"
  check
  grep -Eq "[1-9][0-9]* gap\(s\) \(Error messages\) reported, [1-9][0-9]* record\(s\) cut by a gap" "$runs.check" ||
    fail "gaps not reported: $(cat "$runs.check")"
  "$ts" decode "$runs/trace.rtd" | grep -q '"name": "ERROR"' || fail "no Error message decoded"
  "$ts" decode -f csv "$runs/trace.rtd" > "$runs.csv" 2> "$runs.csv.err" || fail "decode failed"
  grep -q "perf data error" "$runs.csv.err" && fail "decoder errors: $(head -1 "$runs.csv.err")"
  grep -q "note (hart 0, trace offset [0-9]*): gap in the perf data: ITC FIFO overflow" "$runs.csv.err" ||
    fail "no gap note: $(head -3 "$runs.csv.err")"
  grep -q '^,0,gap,' "$runs.csv" || fail "no gap row in the CSV"
  grep -q ',manual(truncated),' "$runs.csv" || fail "no record cut by the gap"
  # after the first gap row: Raw values stay, Delta running values and DeltaXOR everything go
  awk -F, -v c="$(ct "$case")" '
    $3 == "gap" { g = 1; next }
    g && NR > 1 && $3 == "manual" {
      if (c == 0 && ($7 == "" || $9 == "" || $11 == "")) { print "Raw value missing: " $0; exit 1 }
      if (c > 0 && ($7 != "" || $9 != "" || $11 != "")) { print "value after a gap: " $0; exit 1 }
      if (c == 1 && ($8 == "" || $10 == "" || $12 == "")) { print "Delta delta missing: " $0; exit 1 }
      if (c == 2 && ($4 != "" || $8 != "" || $10 != "" || $12 != "")) { print "DeltaXOR address or delta after a gap: " $0; exit 1 }
    }' "$runs.csv" || fail "wrong columns after the gap"
  # the other writers and the report take it too
  "$ts" decode -f perf -o "$runs/perf" "$runs/trace.rtd" 2> /dev/null || fail "decode -f perf failed"
  grep -q '^# GAP: \[0\]' "$runs/perf/trace.perf" || fail "no GAP line in trace.perf"
  "$ts" decode -f timeline "$runs/trace.rtd" 2> /dev/null | grep -q '"gap: perf data lost"' || fail "no gap in the timeline"
  "$ts" report "$runs/trace.rtd" > "$runs.report" 2> /dev/null || fail "report failed"
  grep -q "gap(s): perf data lost before a record" "$runs.report" || fail "the report does not note the gap" ;;
stall_*)
  run "$fw/perf_overflow_$(ct "$case")_1.elf" --itc-depth 1
  [ "$(json itc_lost)" = 0 ] || fail "$(json itc_lost) ITC stores lost with teStallEnable"
  check
  grep -q "gap" "$runs.check" && fail "a gap without a loss: $(cat "$runs.check")"
  stall=$(json itc_stall_cycles)
  ev=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "itc_stall") c = i } NR == 2 { print $c }' "$runs/events.csv")
  [ "$stall" -gt 0 ] || fail "no stall cycles in trace.json"
  [ "$ev" = "$stall" ] || fail "events.csv itc_stall $ev, trace.json itc_stall_cycles $stall"
  "$ts" decode -f csv "$runs/trace.rtd" > "$runs.csv" 2> /dev/null
  head -1 "$runs.csv" | grep -q ',raw_0x403,raw_0x403_delta$' || fail "no ITC-stall counter column: $(head -1 "$runs.csv")"
  grep -q gap "$runs.csv" && fail "a gap row without a loss"
  # every stall is in the burst between the records: the counter's change over the run
  d=$(col "$runs.csv" 11 | awk 'NR == 1 { f = $1 } { l = $1 } END { print l - f }')
  [ "$d" = "$stall" ] || fail "the records' ITC-stall counter changed by $d, the simulator counted $stall" ;;
wrap_*)
  c=$(ct "$case")
  run "$fw/perf_wrap_buffer_$c.elf" --trace-sram 1K
  grep -q "perf_wrap_buffer: 200 records into a 1024-byte buffer: wrapped" "$runs/uart.txt" || fail "firmware: $(cat "$runs/uart.txt")"
  [ "$(json wrapped)" = true ] || fail "trace.json does not say wrapped"
  [ "$(json stopped_on_wrap)" = false ] || fail "stopped on wrap"
  [ -s "$runs/perf_config.txt" ] || fail "no perf_config.txt in the run folder"
  check
  n=$(sed -n 's/.*the trace holds the newest \([0-9]*\) (decoded with the perf header from .*perf_config.txt.*/\1/p' "$runs.check")
  [ -n "$n" ] || fail "the wrap is not reported: $(cat "$runs.check")"
  # every record whose type byte (an 8-bit store, size 1 in itc.csv) is among the stores in
  # the trace: the last M rows of itc.csv, M = the Data Acquisition messages decoded
  m=$("$ts" decode "$runs/trace.rtd" 2> /dev/null | grep -c '"tcode": 7')
  want=$(tail -n "$m" "$runs/itc.csv" | awk -F, '$5 == 1' | wc -l)
  [ "$n" = "$want" ] || fail "check found $n records in the trace, the stores in it start $want"
  [ "$c" != 1 ] || [ "$n" = 56 ] || fail "$n records in the trace, 56 by hand (perf_wrap_buffer.c)"
  # without the header: no records, and how to give it
  "$ts" decode -f csv "$runs/trace.rtd" > "$runs.nocfg" 2> "$runs.nocfg.err" || fail "decode without config failed"
  grep -q "the buffer wrapped and the header was overwritten; give it out of band with --perf-config" "$runs.nocfg.err" ||
    fail "no hint: $(cat "$runs.nocfg.err")"
  grep -q "note: the sink buffer wrapped (trace.json): the oldest [0-9]* bytes of the trace were overwritten" "$runs.nocfg.err" ||
    fail "the loss is not stated: $(cat "$runs.nocfg.err")"
  [ ! -s "$runs.nocfg" ] || fail "records without a header"
  # with it: one gap row and the records; nothing that depends on the overwritten data
  "$ts" decode -f csv --perf-config "$runs/perf_config.txt" "$runs/trace.rtd" > "$runs.csv" 2> "$runs.csv.err" ||
    fail "decode with config failed"
  grep -q "perf data error" "$runs.csv.err" && fail "decoder errors: $(head -1 "$runs.csv.err")"
  grep -q "decoded with the out-of-band header of $runs/perf_config.txt from the first record start (offset [0-9]*)" "$runs.csv.err" ||
    fail "the resync point is not stated: $(cat "$runs.csv.err")"
  [ "$(sed -n 2p "$runs.csv")" = ",0,gap,,,,,,,,," ] || [ "$(sed -n 2p "$runs.csv")" = ",0,gap,,,,,,," ] || fail "no gap row first: $(sed -n 2p "$runs.csv")"
  rows=$(col "$runs.csv" 3 | grep -c '^manual$')
  [ "$rows" = "$n" ] || fail "decode found $rows records, check $n"
  awk -F, -v c="$c" 'NR > 2 {
      first = NR == 3
      if (c == 0 && ($7 == "" || $9 == "" || (first != ($8 == "")) || (first != ($10 == "")))) { print "Raw: " $0; exit 1 }
      if (c == 1 && ($7 != "" || $9 != "" || $8 == "" || $10 == "" || $4 == "")) { print "Delta: " $0; exit 1 }
      if (c == 2 && ($4 != "" || $7 != "" || $8 != "" || $9 != "" || $10 != "")) { print "DeltaXOR: " $0; exit 1 }
    }' "$runs.csv" || fail "wrong columns"
  # the same records through the other writers and the report
  "$ts" decode -f timeline --perf-config "$runs/perf_config.txt" "$runs/trace.rtd" > /dev/null 2>&1 || fail "timeline failed"
  "$ts" decode -f perf -o "$runs/perf" --perf-config "$runs/perf_config.txt" "$runs/trace.rtd" 2> /dev/null || fail "perf files failed"
  "$ts" report --perf-config "$runs/perf_config.txt" "$runs/trace.rtd" > "$runs.report" 2> /dev/null || fail "report failed"
  grep -q "^the buffer wrapped: the oldest [0-9]* bytes of the trace were overwritten" "$runs.report" || fail "report: no wrap line"
  if [ "$c" = 2 ]; then    # DeltaXOR: no address is known, no record can be used
    grep -q "^  $n record(s): 0 enter, 0 exit, 0 manual" "$runs.report" || fail "report: not $n records"
    grep -q "^  $n record(s) after a gap with unknown addresses (DeltaXOR): not used" "$runs.report" || fail "report: unknown addresses not noted"
  else
    grep -q "^  $n record(s): 0 enter, 0 exit, $n manual" "$runs.report" || fail "report: not $n records"
  fi
  "$ts" report "$runs/trace.rtd" > /dev/null 2> "$runs.report.err"; rc=$?
  [ $rc = "$TS_EXIT_NO_FILE" ] || fail "report without the header exited $rc"
  grep -q -- "--perf-config" "$runs.report.err" || fail "report: no hint" ;;
broken_lost_count)
  run "$fw/perf_overflow_1_0.elf" --itc-depth 1
  sed -i 's/"itc_lost": [0-9]*/"itc_lost": 0/' "$runs/trace.json"
  "$t" check "$runs" > "$runs.check" 2>&1 && fail "check passed with a wrong count of lost stores"
  grep -q "check FAILED: the trace has [0-9]* Error messages, but the encoder lost no ITC store" "$runs.check" ||
    fail "unclear message: $(cat "$runs.check")" ;;
broken_config)
  run "$fw/perf_wrap_buffer_1.elf" --trace-sram 1K
  sed -i 's/^count_type=Delta/count_type=Raw/' "$runs/perf_config.txt"
  "$t" check "$runs" > "$runs.check" 2>&1 && fail "check passed with the wrong perf header"
  grep -q "check FAILED: record [0-9]*" "$runs.check" || fail "unclear message: $(cat "$runs.check")" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case): $(grep -h '^check:' "$runs.check" 2> /dev/null | tail -1)"
