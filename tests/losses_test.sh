#!/usr/bin/env bash
# losses_test.sh BUILD_DIR CASE - every loss stated, with its size, wherever a user looks
# (docs/lost-data.md). The sizes are counted here,
# independently, from the run's ground truth (itc.csv's status column, trace.json, stats.txt):
#   stop_sram  firmware/examples/manual.elf with a 1 KiB SRAM sink (the perf library sets
#              stop-on-wrap): itc.csv has the stores after the stop (after_stop, every one at
#              or after trace.json's stop cycle, every traced one before it); the run summary,
#              check (which passes), report, decode and the waves' markers.txt state "trace
#              stopped on wrap at cycle C (P % of the run): S later ITC stores, about R perf
#              records, are not in the trace" with C, P, S and R (the 8-bit record-type
#              stores on the perf channel after the stop) as counted here; check counts the
#              stores against all the firmware made
#   stop_sba   the same with the 512-byte SBA buffer (manual_sba512.elf)
#   fifo       perf_overflow (Delta) with --itc-depth 1 and teStallEnable 0: the dropped_fifo
#              rows equal trace.json's itc_lost, and the run summary, check (passes), report
#              and decode state how many of how many stores were dropped
#   wrap       perf_wrap_buffer with a 1 KiB SRAM sink, no stop-on-wrap: the run summary
#              and check state the overwritten bytes (bytes_written - bytes of trace.json) and
#              stores; report says it covers the newest part of the run only
#   cut        a complete run of manual.elf whose trace.rtd is cut right after a record's last
#              counter low word (before the next record's type byte): decode, CSV, timeline
#              and report mark that record truncated, give no value for that counter (its
#              high part may be what was cut) and report uses only the complete records;
#              check fails naming the bytes missing (trace.json bytes - the file's size), also
#              on an empty trace.rtd
set -u
b=$1; case_=$2
t=$b/tracesim; fw=$b/firmware; run=$b/test-runs/losses_$case_
rm -rf "$run" "$run".*
fail() { echo "FAIL (losses $case_): $*"; exit 1; }
json() { sed -n "s/.*\"$1\": \([a-z0-9]*\).*/\1/p" "$run/trace.json"; }
rows() { awk -F, -v s="$1" 'NR > 1 && $7 == s' "$run/itc.csv" | wc -l; }
has() { grep -qF -- "$2" "$1" || fail "$3: no '$2' in $(cat "$1")"; }

stop_case() {   # ELF [run options]
  local elf=$1; shift
  "$t" run -o "$run" --waves "$run.fst" "$@" "$elf" > /dev/null 2> "$run.err" || fail "run exited $?: $(tail -1 "$run.err")"
  [ "$(json stopped_on_wrap)" = true ] || fail "the buffer did not stop on wrap"
  head -1 "$run/itc.csv" | grep -qx 'cycle,hart,stimulus,offset,size,value,status' || fail "itc.csv has no status column"
  local c traced later recs cycles p total
  c=$(json stopped_at_cycle); traced=$(rows traced); later=$(rows after_stop)
  cycles=$(sed -n 's/^cycles //p' "$run/stats.txt")
  total=$(($(wc -l < "$run/itc.csv") - 1))
  [ "$later" -gt 0 ] || fail "no store after the stop in itc.csv"
  [ $((traced + later)) = "$total" ] || fail "rows other than traced/after_stop in a run that lost nothing else"
  awk -F, -v c="$c" 'NR > 1 && (($7 == "after_stop") != ($1 >= c)) { print; exit 1 }' "$run/itc.csv" > "$run.bad" ||
    fail "a row on the wrong side of the stop at cycle $c: $(cat "$run.bad")"
  recs=$(awk -F, 'NR > 1 && $7 == "after_stop" && $3 == 6 && $5 == 1' "$run/itc.csv" | wc -l)
  p=$(awk -v c="$c" -v n="$cycles" 'BEGIN { printf "%.1f", 100 * c / n }')
  local want="trace stopped on wrap at cycle $c ($p % of the run): $later later ITC stores, about $recs perf records, are not in the trace"
  has "$run.err" "tracesim: note: $want" "run summary"
  "$t" check "$run" > "$run.check" 2>&1 || fail "check failed: $(cat "$run.check")"
  has "$run.check" "check: $want" "check"
  grep -Eq "^check: [0-9]+ of $total ITC stores the firmware made are in the trace; the rest: ([0-9]+ accepted by the encoder but cut by the stop on wrap, )?$later after the stop$" \
    "$run.check" || fail "check does not count against all $total stores: $(cat "$run.check")"
  "$t" report "$run/trace.rtd" > "$run.report" 2> /dev/null || fail "report failed"
  has "$run.report" "the profile covers the run up to the stop on wrap at cycle $c (the first $p % of its $cycles cycles)" "report"
  has "$run.report" "$want" "report"
  "$t" decode -f csv "$run/trace.rtd" > /dev/null 2> "$run.decode" || fail "decode failed"
  has "$run.decode" "tracesim: note: $want" "decode"
  "$t" waves "$run" --no-gui > /dev/null 2>&1 || fail "waves --no-gui failed"
  has "$run/markers.txt" "# loss: $want" "markers.txt"
}

case $case_ in
stop_sram) stop_case "$fw/examples/manual.elf" --trace-sram 1K ;;
stop_sba) stop_case "$fw/examples/manual_sba512.elf" ;;
fifo)
  "$t" run -o "$run" --itc-depth 1 "$fw/tests/perf_overflow_1_0.elf" > /dev/null 2> "$run.err" || fail "run exited $?"
  drop=$(rows dropped_fifo); traced=$(rows traced); total=$(($(wc -l < "$run/itc.csv") - 1))
  [ "$drop" -gt 0 ] || fail "no store dropped"
  [ "$drop" = "$(json itc_lost)" ] || fail "$drop dropped_fifo rows, trace.json itc_lost $(json itc_lost)"
  [ $((traced + drop)) = "$total" ] || fail "rows other than traced/dropped_fifo"
  want="$drop of $total ITC stores were dropped on a full ITC FIFO (teStallEnable 0)"
  has "$run.err" "tracesim: note: $want" "run summary"
  "$t" check "$run" > "$run.check" 2>&1 || fail "check failed: $(cat "$run.check")"
  has "$run.check" "check: $traced of $total ITC stores the firmware made are in the trace; the rest: $drop dropped on a full ITC FIFO" "check"
  "$t" report "$run/trace.rtd" > "$run.report" 2> /dev/null || fail "report failed"
  has "$run.report" "$want" "report"
  "$t" decode -f csv "$run/trace.rtd" > /dev/null 2> "$run.decode" || fail "decode failed"
  has "$run.decode" "tracesim: note: $want" "decode" ;;
wrap)
  "$t" run -o "$run" --trace-sram 1K "$fw/tests/perf_wrap_buffer_1.elf" > /dev/null 2> "$run.err" || fail "run exited $?"
  [ "$(json wrapped)" = true ] && [ "$(json stopped_on_wrap)" = false ] || fail "the buffer did not wrap"
  over=$(($(json bytes_written) - $(json bytes))); total=$(($(wc -l < "$run/itc.csv") - 1))
  [ "$over" -gt 0 ] && [ "$(rows traced)" = "$total" ] || fail "nothing overwritten, or stores not traced"
  has "$run.err" "tracesim: note: the trace buffer wrapped: the oldest $over bytes of the trace were overwritten" "run summary"
  "$t" check "$run" > "$run.check" 2>&1 || fail "check failed: $(cat "$run.check")"
  line=$(grep "ITC stores the firmware made are in the trace" "$run.check") || fail "check does not count the stores made"
  in=$(echo "$line" | sed -n "s/^check: \([0-9]*\) of $total ITC stores the firmware made are in the trace; the rest: \([0-9]*\) overwritten when the buffer wrapped$/\1 \2/p")
  [ -n "$in" ] && [ $(( ${in% *} + ${in#* } )) = "$total" ] || fail "check: $line"
  "$t" report --perf-config "$run/perf_config.txt" "$run/trace.rtd" > "$run.report" 2> /dev/null || fail "report failed"
  has "$run.report" "the profile covers the newest part of the run only (the buffer wrapped)" "report" ;;
cut)
  "$t" run -q -o "$run" "$fw/examples/manual.elf" > /dev/null 2>&1 || fail "run exited $?"
  "$t" decode "$run/trace.rtd" > "$run.msgs" || fail "decode failed"
  # the 10th perf record-type byte (IDTAG 27: channel 6, 8-bit) that follows a 32-bit store
  # (IDTAG 24) - the previous record's last counter low word: cut the trace in front of it
  cut_at=$(awk '{ tag = $0; sub(/.*"idtag": /, "", tag); sub(/[,}].*/, "", tag); off = $0; sub(/.*"offset": /, "", off); sub(/,.*/, "", off)
                 if (tag == 27 && prev == 24 && ++n == 10) { print off; exit } if (/"idtag"/) prev = tag }' "$run.msgs")
  [ -n "$cut_at" ] || fail "no place to cut"
  # records before the cut: the 8-bit stores before it but the header's count type
  recs=$(($(awk -v c="$cut_at" '{ off = $0; sub(/.*"offset": /, "", off); sub(/,.*/, "", off) } off + 0 < c + 0 && /"idtag": 27[,}]/' "$run.msgs" | wc -l) - 1))
  head -c "$cut_at" "$run/trace.rtd" > "$run/t" && mv "$run/t" "$run/trace.rtd"
  "$t" decode -f csv "$run/trace.rtd" > "$run.csv" 2> "$run.err" || fail "decode -f csv failed"
  has "$run.err" "the file was cut" "decode"
  [ $(($(wc -l < "$run.csv") - 1)) = "$recs" ] || fail "$(($(wc -l < "$run.csv") - 1)) records in the CSV, $recs type bytes before the cut"
  [ "$(grep -c '(truncated)' "$run.csv")" = 1 ] && tail -1 "$run.csv" | grep -q '(truncated)' || fail "the last record is not the one truncated"
  tail -1 "$run.csv" | grep -q ',$' || fail "the cut value is given: $(tail -1 "$run.csv")"
  "$t" decode -f timeline "$run/trace.rtd" > "$run.json" 2> /dev/null || fail "timeline failed"
  has "$run.json" "record cut off (truncated)" "timeline"
  "$t" report "$run/trace.rtd" > "$run.report" 2> /dev/null || fail "report failed"
  has "$run.report" "1 record(s) cut off (truncated): not used" "report"
  has "$run.report" "it was cut" "report"
  # check fails: the file is not what the sink wrote, and says how much of it is missing
  # (trace.json's bytes minus the bytes kept, counted here)
  sink=$(json bytes)
  "$t" check "$run" > "$run.check" 2>&1 && fail "check passed a cut trace: $(cat "$run.check")"
  [ "$(wc -l < "$run.check")" = 1 ] || fail "check: not one line: $(cat "$run.check")"
  has "$run.check" "tracesim: check FAILED: $run/trace.rtd has $cut_at of the $sink bytes the sink wrote (trace.json \"bytes\"): $((sink - cut_at)) bytes are missing" "check"
  # and so does an empty trace (nothing of a whole run in it: no count of what it compared)
  : > "$run/trace.rtd"
  "$t" check "$run" > "$run.check" 2>&1 && fail "check passed an empty trace: $(cat "$run.check")"
  has "$run.check" "tracesim: check FAILED: $run/trace.rtd has 0 of the $sink bytes the sink wrote" "check" ;;
*) fail "unknown case" ;;
esac
echo "ok (losses $case_)"
