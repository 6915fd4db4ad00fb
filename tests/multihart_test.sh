#!/usr/bin/env bash
# multihart_test.sh BUILD_DIR N [wrap|overflow] - several harts through the funnel, end to end: runs
# firmware/tests/itc_harts.c (every hart stores through its own encoder and writes perf
# records) on N harts and requires
#   * trace.json: N harts, the SRC width N needs;
#   * tracesim check: every hart's ITC stores and perf records equal that hart's ground
#     truth, a verdict line per hart, the funnel line, one time base;
#   * decode: messages of every source, --hart keeps one, the CSV has every hart's records;
#   * report: a section per hart (manual records of each), --hart N and its CSV;
#   * bad uses give one line and status 120 (--hart N, --srcbits that disagrees);
#   * check fails, naming the hart, when one hart's counter read or ITC store is changed.
# Variants:
#   wrap      itc_harts_wrap.elf into a 1 KiB SRAM without stop-on-wrap: the buffer wraps;
#             check passes per hart on the newest stores and records of each hart
#   overflow  itc_harts_overflow.elf with a 2-entry ITC FIFO: hart 1's encoder loses stores;
#             check passes, the gaps are hart 1's only, hart 0's records stay whole
#   EXAMPLE   a perf library example on several harts (fib_mh_sram, manual_mh_sba, ...):
#             check passes with a verdict per hart and as many records per hart as the
#             firmware reports; the report has every hart's section with its functions
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
b=$1; n=$2; variant=${3:-}
elf=$b/firmware/tests/itc_harts${variant:+_$variant}.elf
case $variant in fib_mh_*|manual_mh_*) elf=$b/firmware/examples/$variant.elf ;; esac
t=$b/tracesim; ts=$b/tracesim_san; x=$(dirname "$0")/run_expect.sh
run=$b/test-runs/multihart_$n${variant:+_$variant}
rounds=12
rm -rf "$run" "$run.bad"
fail() { echo "FAIL (harts $n $variant): $*"; exit 1; }
opts=""
case $variant in wrap) opts="--trace-sram 1K" ;; overflow) opts="--itc-depth 2" ;; esac
"$t" run -q --harts "$n" --max-cycles 20000000 $opts -o "$run" "$elf" > "$run.out" 2> "$run.err" || fail "firmware exited $?: $(tail -3 "$run.err") $(tail -3 "$run.out")"
want_src=$(( n <= 2 ? 1 : n <= 4 ? 2 : 3 ))
grep -q "\"harts\": $n" "$run/trace.json" || fail "trace.json has no \"harts\": $n"
grep -q "\"srcbits\": $want_src" "$run/trace.json" || fail "trace.json has not srcbits $want_src"

case $variant in
fib_mh_*|manual_mh_*)
  "$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(cat "$run.check")"
  for h in $(seq 0 $((n - 1))); do
    want=$(sed -n "s/^hart $h: .* \([0-9]*\) records.*$/\1/p" "$run/uart.txt")
    [ -n "$want" ] && [ "$want" -gt 0 ] || fail "hart $h reported no records: $(cat "$run/uart.txt")"
    grep -Eq "^check: hart $h: [0-9]+ of [0-9]+ ITC stores found in the trace, in order, with their values; [0-9]+ timestamps equal the store cycle \+ -?[0-9]+$" "$run.check" ||
      fail "no ITC line for hart $h: $(cat "$run.check")"
    grep -Eq "^check: hart $h: compared $want perf records in the trace: each equals the ground truth \([0-9]+ counter values as read, addresses from the control flow, timestamps = first store cycle \+ -?[0-9]+\)$" "$run.check" ||
      fail "hart $h: not $want perf records checked: $(cat "$run.check")"
    grep -Eq "^check: hart $h: [0-9]+ stores, $want perf records, OK$" "$run.check" || fail "no verdict for hart $h: $(cat "$run.check")"
  done
  offs=$(grep -Eo '(store cycle|first store cycle) \+ -?[0-9]+' "$run.check" | awk '{print $NF}' | sort -u | wc -l)
  [ "$offs" = 1 ] || fail "more than one timestamp offset: $(cat "$run.check")"
  "$ts" report --elf "$elf" "$run/trace.rtd" > "$run.report" 2> "$run.rerr" || fail "report failed: $(cat "$run.rerr")"
  grep -q "^$n harts with perf records: $(seq -s ' ' 0 $((n - 1)))$" "$run.report" || fail "report: no hart list: $(head -3 "$run.report")"
  for h in $(seq 0 $((n - 1))); do
    sec=$(awk -v h="$h" '/^==== hart / { on = ($3 == h) } on' "$run.report")
    case $variant in
    fib_mh_*) echo "$sec" | grep -Eq "^ +[0-9.]+ +[1-9][0-9]* .* fib$" || fail "report: hart $h has no fib line: $sec" ;;
    *) echo "$sec" | grep -Eq "^  0x[0-9a-f]{8} +[1-9][0-9]* " || fail "report: hart $h has no manual call site: $sec" ;;
    esac
  done
  # a changed counter read of the last hart (its middle read of cycle, used by a record) is
  # found and named
  last=$((n - 1)); cp -r "$run" "$run.bad"
  reads=$(awk -F, -v h="$last" 'NR > 1 && $2 == h && $4 == "cycle"' "$run/counters.csv" | wc -l)
  awk -F, -v h="$last" -v m=$(((reads + 1) / 2)) 'NR > 1 && $2 == h && $4 == "cycle" && ++k == m { $5 = "0x00000001" } { print }' OFS=, \
    "$run/counters.csv" > "$run.bad/counters.csv"
  "$t" check "$run.bad" > "$run.bad.out" 2>&1 && fail "check passed a changed counter read of hart $last"
  grep -q "^tracesim: check FAILED: hart $last: record [0-9]* (" "$run.bad.out" || fail "unclear message: $(cat "$run.bad.out")"
  rm -rf "$run.bad"
  echo "ok (harts $n, $variant): check passes for every hart ($(grep -c 'OK$' "$run.check") verdicts), report per hart"; exit 0 ;;
wrap)
  grep -q '"wrapped": true' "$run/trace.json" || fail "the buffer did not wrap"
  "$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(cat "$run.check")"
  for h in $(seq 0 $((n - 1))); do
    stores=$(awk -F, -v h="$h" 'NR > 1 && $2 == h' "$run/itc.csv" | wc -l)
    grep -Eq "^check: hart $h: ([0-9]+) of $stores ITC stores found in the trace, in order, with their values; the buffer wrapped: the oldest [0-9]+ stores were overwritten" "$run.check" ||
      fail "no wrapped ITC line for hart $h: $(cat "$run.check")"
    # the whole records of the trace, those it holds (the first one after the wrap cut), and
    # the older ones overwritten: together the rounds the hart made
    l=$(grep -E "^check: hart $h: compared [0-9]+ perf records in the trace: each equals the ground truth .* the buffer wrapped: the trace holds the newest [1-9][0-9]* \(decoded with the perf header from .*perf_config.txt" "$run.check") ||
      fail "no wrapped perf line for hart $h: $(cat "$run.check")"
    held=$(echo "$l" | sed -n 's/.*the trace holds the newest \([0-9]*\) .*the \([0-9]*\) older ones were overwritten.*/\1 \2/p')
    [ -n "$held" ] && [ $((${held% *} + ${held#* })) = "$rounds" ] || fail "hart $h: newest + overwritten is not $rounds: $l"
    grep -Eq "^check: hart $h: [0-9]+ stores, ${held% *} perf records, OK$" "$run.check" || fail "no verdict for hart $h"
  done
  "$ts" report --elf "$elf" "$run/trace.rtd" > "$run.report" 2> /dev/null && fail "report without the header should fail"
  "$ts" report --elf "$elf" --perf-config "$run/perf_config.txt" "$run/trace.rtd" > "$run.report" 2> /dev/null || fail "report --perf-config failed"
  [ "$(grep -c '^==== hart ' "$run.report")" = "$n" ] || fail "report: not a section per hart"
  echo "ok (harts $n, wrapped): every hart checked on its newest stores and records"; exit 0 ;;
overflow)
  grep -q '"itc_lost": [1-9]' "$run/trace.json" || fail "no store was lost"
  "$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(cat "$run.check")"
  grep -Eq "^check: hart 1: [0-9]+ of [0-9]+ ITC stores .*; [1-9][0-9]* Error message\(s\): this hart's encoder lost stores" "$run.check" ||
    fail "hart 1's Error messages are not reported: $(cat "$run.check")"
  [ "$(grep -c "Error message(s): this hart's encoder lost stores" "$run.check")" = 1 ] || fail "Error messages of other harts: $(cat "$run.check")"
  # hart 1's records: the whole ones compared, and those cut by a gap, together its rounds
  l=$(grep -E "^check: hart 1: compared [0-9]+ perf records in the trace: each equals the ground truth .*; [1-9][0-9]* gap\(s\) \(Error messages\) reported, [0-9]+ record\(s\) cut by a gap" "$run.check") &&
    [ $(($(echo "$l" | sed 's/^check: hart 1: compared \([0-9]*\) .*/\1/') + $(echo "$l" | sed 's/.* \([0-9]*\) record(s) cut by a gap.*/\1/'))) = "$rounds" ] ||
    fail "hart 1's gaps are not reported: $(cat "$run.check")"
  for h in $(seq 0 $((n - 1))); do
    [ "$h" = 1 ] && continue
    grep -Eq "^check: hart $h: compared $rounds perf records in the trace: each equals the ground truth \(([0-9]+) counter values as read, [^;]*\)$" "$run.check" ||
      fail "hart $h was disturbed by hart 1's gap: $(cat "$run.check")"
    grep -q "^check: hart $h: compared $rounds perf records in the trace: each equals the ground truth ($((2 * rounds)) counter values" "$run.check" ||
      fail "hart $h lost values: $(cat "$run.check")"
  done
  "$ts" decode "$run/trace.rtd" | grep '"name": "ERROR"' | grep -v '"src": 1,' && fail "an Error message of another source than 1"
  "$ts" decode -f csv "$run/trace.rtd" > "$run.csv" 2> /dev/null || fail "decode -f csv failed"
  grep -q '^,1,gap,' "$run.csv" || fail "CSV: no gap row of hart 1"
  grep -Eq '^,[02-9],gap,' "$run.csv" && fail "CSV: a gap row of another hart"
  [ "$(grep -c '^[0-9]*,0,manual,0x[0-9a-f]*,,,[0-9]' "$run.csv")" = $rounds ] || fail "CSV: hart 0's records are not all whole"
  echo "ok (harts $n, overflow on hart 1): the gaps are hart 1's, the other harts' records whole"; exit 0 ;;
esac

# check: every hart
"$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(cat "$run.check")"
for h in $(seq 0 $((n - 1))); do
  stores=$(awk -F, -v h="$h" 'NR > 1 && $2 == h' "$run/itc.csv" | wc -l)
  [ "$stores" -gt 0 ] || fail "hart $h stored nothing"
  grep -Eq "^check: hart $h: $stores of $stores ITC stores found in the trace, in order, with their values; $stores timestamps equal the store cycle \+ -?[0-9]+$" "$run.check" ||
    fail "no ITC line for hart $h ($stores stores): $(cat "$run.check")"
  grep -Eq "^check: hart $h: compared $rounds perf records in the trace: each equals the ground truth \([0-9]+ counter values as read" "$run.check" ||
    fail "no perf line for hart $h: $(cat "$run.check")"
  grep -q "^check: hart $h: $stores stores, $rounds perf records, OK$" "$run.check" || fail "no verdict for hart $h: $(cat "$run.check")"
done
grep -Eq "^check: funnel: [0-9]+ ITC messages of $n harts, each a whole message .* one time base" "$run.check" ||
  fail "no funnel line: $(cat "$run.check")"
# the ITC and perf lines agree on the one time base
offs=$(grep -Eo '(store cycle|first store cycle) \+ -?[0-9]+' "$run.check" | awk '{print $NF}' | sort -u | wc -l)
[ "$offs" = 1 ] || fail "more than one timestamp offset: $(cat "$run.check")"
# several harts stored in the same cycle (the funnel then orders their messages)
same=$(awk -F, 'NR > 1 { c[$1]++ } END { k = 0; for (i in c) if (c[i] > 1) k++; print k }' "$run/itc.csv")
[ "$same" -gt 0 ] || fail "no two harts stored in the same cycle (the test wants the funnel to order such stores)"

# decode: every source, --hart keeps one, the CSV has every hart's records
"$ts" decode "$run/trace.rtd" > "$run.msgs" 2> "$run.derr" || fail "decode failed: $(cat "$run.derr")"
for h in $(seq 0 $((n - 1))); do
  grep -q "\"src\": $h," "$run.msgs" || fail "decode shows no message of source $h"
done
"$ts" decode --hart $((n - 1)) "$run/trace.rtd" > "$run.msgs1" 2> "$run.derr" || fail "decode --hart failed"
[ "$(grep -c '"src": ' "$run.msgs1")" = "$(grep -c "\"src\": $((n - 1))," "$run.msgs1")" ] || fail "decode --hart $((n - 1)) shows other sources"
[ "$(grep -c "\"src\": $((n - 1))," "$run.msgs1")" = "$(grep -c "\"src\": $((n - 1))," "$run.msgs")" ] || fail "decode --hart lost messages"
"$ts" decode -f csv --elf "$elf" "$run/trace.rtd" > "$run.csv" 2> "$run.derr" || fail "decode -f csv failed"
for h in $(seq 0 $((n - 1))); do
  [ "$(grep -c "^[0-9]*,$h,manual,0x[0-9a-f]*,,hart_main," "$run.csv")" = $rounds ] || fail "CSV: hart $h has not $rounds records in hart_main"
done
[ "$(grep -cE '^(timestamp|cycle),' "$run.csv")" = 1 ] || fail "CSV: the harts count the same counters, one column line expected"
"$ts" decode -f timeline "$run/trace.rtd" > "$run.json" 2> /dev/null || fail "decode -f timeline failed"
for h in $(seq 0 $((n - 1))); do
  grep -q "\"tid\": $h, \"args\": {\"name\": \"hart $h\"}" "$run.json" || fail "timeline: no track named hart $h"
done

# report: a section per hart, each with its manual records
"$ts" report --elf "$elf" "$run/trace.rtd" > "$run.report" 2> "$run.rerr" || fail "report failed: $(cat "$run.rerr")"
grep -q "^$n harts with perf records: $(seq -s ' ' 0 $((n - 1)))$" "$run.report" || fail "report: no hart list: $(head -5 "$run.report")"
for h in $(seq 0 $((n - 1))); do
  sec=$(awk -v h="$h" '/^==== hart / { on = ($3 == h) } on' "$run.report")
  [ -n "$sec" ] || fail "report: no section for hart $h"
  echo "$sec" | grep -Eq "^  0x[0-9a-f]{8} +$rounds +.* hart_main$" || fail "report: hart $h's manual records missing: $sec"
done
"$ts" report -f csv --hart $((n - 1)) "$run/trace.rtd" > "$run.rcsv" 2> /dev/null || fail "report --hart failed"
head -1 "$run.rcsv" | grep -q '^hart,function,' || fail "report CSV has no hart column"

# bad uses: one line, status 120
"$x" --exit "$TS_EXIT_USAGE" --one-line --stderr "^tracesim: --hart 9: the trace has $n harts \(0..$((n - 1)), trace.json\)$" -- "$ts" decode --hart 9 "$run/trace.rtd" > /dev/null || fail "decode --hart 9"
"$x" --exit "$TS_EXIT_USAGE" --one-line --stderr "^tracesim: --hart 9: the trace has $n harts" -- "$ts" report --hart 9 "$run/trace.rtd" > /dev/null || fail "report --hart 9"
"$x" --exit "$TS_EXIT_USAGE" --one-line --stderr "^tracesim: --srcbits $((want_src + 1)) does not match the trace: trace.json says srcbits $want_src \($n harts\)$" -- \
  "$ts" decode --srcbits $((want_src + 1)) "$run/trace.rtd" > /dev/null || fail "srcbits mismatch"

# check fails, naming the hart, when its ground truth disagrees
last=$((n - 1))
cp -r "$run" "$run.bad"
awk -F, -v h="$last" 'NR > 1 && $2 == h && $4 == "cycle" && ++k == 5 { $5 = "0x00000001" } { print }' OFS=, \
  "$run/counters.csv" > "$run.bad/counters.csv"
"$t" check "$run.bad" > "$run.bad.out" 2>&1 && fail "check passed a changed counter read of hart $last"
grep -q "^tracesim: check FAILED: hart $last: record [0-9]* (manual at 0x[0-9a-f]* <hart_main>.*cycles stored 0x[0-9a-f]*, but the firmware read 0x1 " "$run.bad.out" ||
  fail "unclear message for a changed counter read: $(cat "$run.bad.out")"
cp "$run/counters.csv" "$run.bad/counters.csv"
awk -F, -v h="$last" 'NR > 1 && $2 == h && $3 == 5 && ++k == 3 { $6 = "0x000000ee" } { print }' OFS=, \
  "$run/itc.csv" > "$run.bad/itc.csv"
"$t" check "$run.bad" > "$run.bad.out" 2>&1 && fail "check passed a changed ITC store of hart $last"
grep -q "^tracesim: check FAILED: hart $last: store [0-9]* (cycle [0-9]*, stimulus 5+[23], value 0xee) decoded as" "$run.bad.out" ||
  fail "unclear message for a changed store: $(cat "$run.bad.out")"
rm -rf "$run.bad"
echo "ok (harts $n): every hart checked ($(grep -c 'OK$' "$run.check") verdicts OK), $same cycle(s) with stores of several harts; report and decode per hart"
