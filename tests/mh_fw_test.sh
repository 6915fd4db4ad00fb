#!/bin/sh
# mh_fw_test.sh BUILD CASE N - the several-harts firmware (docs/firmware/bsp.md) run with
# tracesim run --harts N, checked by exit status, UART text and the run folder's ground
# truth (itc.csv, trace.json, the decoded trace). CASE:
#   api              firmware/tests/mh_api.c: every check passes, lines of all harts whole
#   itc_same         one ITC store per hart per round, all of a round in one cycle, none lost
#   itc_full_S       hart 1's FIFO full (S 0: stores lost, 1: hart 1 stalled); every other
#                    hart's 100 stores in itc.csv
#   hpm              per-hart HPM counts (self-checking)
#   amo              firmware/tests/mh_amo.c: AMO counters, an LR/SC spin lock, reservations
#                    lost to another hart's store (self-checking)
#   stop_wrap_K      the funnel's sink (K sram: --trace-sram 1K; sba: 1 KiB in RAM) fills
#                    and stops while every hart writes: trace.json, 1024 bytes, every hart's
#                    messages in the trace
#   fib_mh_K, manual_mh_K   the examples (K sram/sba): exit 0, and per hart the records the
#                    firmware reported are in the decoded trace (one header per hart); N = 1:
#                    exit status 2 with a one-line message
set -u
b=$1; case=$2; n=$3
t=$b/tracesim; run=$b/test-runs/mh_${case}_$n
rm -rf "$run"
fail() { echo "FAIL (mh $case, $n harts): $*"; exit 1; }
elf=$b/firmware/tests/mh_$case.elf
case $case in fib_mh_*|manual_mh_*) elf=$b/firmware/examples/$case.elf ;; esac
opts=
case $case in stop_wrap_*) opts="--trace-sram 1K" ;; esac
rc=0
"$t" run -q --harts "$n" --max-cycles 20000000 $opts -o "$run" "$elf" > /dev/null 2> "$run.err" || rc=$?
uart=$run/uart.txt
rows() { awk -F, -v h="$1" 'NR > 1 && $2 == h && $7 == "traced"' "$run/itc.csv" | wc -l; }   # accepted
made() { awk -F, -v h="$1" -v s="$2" 'NR > 1 && $2 == h && $7 == s' "$run/itc.csv" | wc -l; }
lost() { sed -n 's/.*"itc_lost": \([0-9]*\).*/\1/p' "$run/trace.json"; }
case $case in
api)
  [ $rc = 0 ] || fail "exit status $rc: $(tail -2 "$uart")"
  if [ "$n" = 1 ]; then
    grep -q '^mh_api: one hart: argument checks and lock passed$' "$uart" || fail "$(cat "$uart")"
  else
    grep -q "^mh_api: all checks passed on $n harts$" "$uart" || fail "$(tail -2 "$uart")"
    # every line is whole: a line of a hart's work, or one of hart 0's mh_api lines
    bad=$(grep -Ev '^(hart [0-7] line [0-2]: the quick brown fox jumps over the lazy dog|mh_api: .*)$' "$uart" | head -1)
    [ -z "$bad" ] || fail "a broken line in uart.txt: '$bad'"
    [ "$(grep -c '^hart [0-7] line' "$uart")" = $((3 * n)) ] || fail "not 3 lines per hart"
  fi ;;
itc_same)
  [ $rc = 0 ] || fail "exit status $rc: $(tail -2 "$uart")"
  [ "$(lost)" = 0 ] || fail "itc_lost $(lost)"
  [ "$(($(wc -l < "$run/itc.csv") - 1))" = $((16 * n)) ] || fail "$(($(wc -l < "$run/itc.csv") - 1)) rows in itc.csv, expected $((16 * n))"
  # value = hart << 16 | round: per round, n rows (one per hart) in one cycle
  awk -F, -v n="$n" 'NR > 1 { k = substr($6, 7, 4); c[k] = c[k] == "" ? $1 : c[k]; if (c[k] != $1) { print "round " k ": cycles " c[k] " and " $1; bad = 1 } m[k]++ }
    END { for (k in m) if (m[k] != n) { print "round " k ": " m[k] " rows"; bad = 1 } exit bad }' "$run/itc.csv" || fail "stores of a round not in one cycle"
  for h in $(seq 0 $((n - 1))); do [ "$(rows $h)" = 16 ] || fail "hart $h: $(rows $h) stores in itc.csv"; done ;;
itc_full_*)
  s=${case#itc_full_}
  [ $rc = 0 ] || fail "exit status $rc: $(tail -2 "$uart")"
  for h in $(seq 0 $((n - 1))); do
    [ $h = 1 ] && continue
    [ "$(rows $h)" = 100 ] || fail "hart $h: $(rows $h) of 100 polled stores accepted"
  done
  if [ "$s" = 1 ]; then
    [ "$(rows 1)" = 300 ] && [ "$(lost)" = 0 ] || fail "hart 1 stalled: $(rows 1) of 300 stores, itc_lost $(lost)"
    grep -Eq '"itc_stall_cycles": [1-9]' "$run/trace.json" || fail "no stall cycles"
  else
    [ "$(lost)" -gt 0 ] && [ "$(rows 1)" -lt 300 ] && [ $(($(rows 1) + $(lost))) = 300 ] ||
      fail "hart 1: $(rows 1) accepted + $(lost) lost, expected 300 with some lost"
    [ "$(made 1 dropped_fifo)" = "$(lost)" ] || fail "hart 1: $(made 1 dropped_fifo) dropped_fifo rows in itc.csv, itc_lost $(lost)"
  fi ;;
hpm)
  [ $rc = 0 ] || fail "exit status $rc: $(tail -2 "$uart")" ;;
amo)
  [ $rc = 0 ] || fail "exit status $rc: $(tail -4 "$uart")"
  grep -q "^mh_amo: all checks passed on $n harts$" "$uart" || fail "$(tail -4 "$uart")"
  ! grep -q 'access fault' "$run.err" || fail "a guest error: $(grep 'access fault' "$run.err" | head -1)" ;;
stop_wrap_*)
  [ $rc = 0 ] || fail "exit status $rc: $(tail -2 "$uart")"
  grep -q '"stopped_on_wrap": true' "$run/trace.json" || fail "the funnel's sink did not stop on wrap"
  [ "$(wc -c < "$run/trace.rtd")" = 1024 ] || fail "trace.rtd has $(wc -c < "$run/trace.rtd") bytes, expected the full 1024"
  # after the stop the funnel discards, so no encoder backs up: all 2000 stores of each hart
  # accepted, those after the stop (cycle of trace.json) marked so in itc.csv
  stop=$(sed -n 's/.*"stopped_at_cycle": \([0-9]*\).*/\1/p' "$run/trace.json")
  for h in $(seq 0 $((n - 1))); do
    [ $(($(rows $h) + $(made $h after_stop))) = 2000 ] || fail "hart $h: $(rows $h) + $(made $h after_stop) of 2000 stores accepted"
    [ "$(made $h after_stop)" -gt 0 ] || fail "hart $h: no store after the stop"
  done
  awk -F, -v s="$stop" 'NR > 1 && (($7 == "after_stop") != ($1 >= s)) { print; exit 1 }' "$run/itc.csv" > "$run.bad" ||
    fail "a row on the wrong side of the stop at cycle $stop: $(cat "$run.bad")"
  [ "$(lost)" = 0 ] || fail "itc_lost $(lost)"
  # the trace holds messages of every hart (SRC = hart), whole up to the cut at the end
  "$t" decode "$run/trace.rtd" > "$run/msgs.jsonl" 2> /dev/null || fail "decode failed"
  for h in $(seq 0 $((n - 1))); do grep -q "\"src\": $h," "$run/msgs.jsonl" || fail "no message of hart $h in the trace"; done
  grep -q '"error"' "$run/msgs.jsonl" && fail "a corrupt message in the trace" ;;
fib_mh_*|manual_mh_*)
  if [ "$n" = 1 ]; then
    [ $rc = 2 ] || fail "one hart: exit status $rc, expected 2"
    grep -q 'runs on 2 .*this SoC has 1$' "$uart" || fail "no message: $(cat "$uart")"
    echo "ok (mh $case, 1 hart: exit status 2 with a message)"; exit 0
  fi
  [ $rc = 0 ] || fail "exit status $rc: $(tail -3 "$uart")"
  "$t" decode -f csv "$run/trace.rtd" > "$run/perf.csv" 2> "$run/decode.err" || fail "decode: $(cat "$run/decode.err")"
  for h in $(seq 0 $((n - 1))); do
    want=$(sed -n "s/^hart $h: .* \([0-9]*\) records$/\1/p" "$uart")
    got=$(awk -F, -v h="$h" '$2 == h && $3 != "record" && $3 != "gap"' "$run/perf.csv" | wc -l)
    [ -n "$want" ] && [ "$want" = "$got" ] || fail "hart $h: $got records in the trace, the firmware wrote '$want'"
  done
  grep -q 'truncated\|gap' "$run/perf.csv" && fail "a cut record or gap in the trace"
  [ "$(grep -c '^timestamp,hart' "$run/perf.csv")" = 1 ] || true ;;
*) fail "unknown case" ;;
esac
echo "ok (mh $case, $n harts)"
