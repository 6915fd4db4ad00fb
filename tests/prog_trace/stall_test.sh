#!/usr/bin/env bash
# stall_test.sh BUILD_DIR CASE - teStallEnable with program trace (docs/program-trace.md, "A
# full FIFO"): perf_overflow_0_0.elf (perf records and ITC stores that do not poll) with
# `--trace-insn MODE --itc-depth 1`, once as the firmware sets it (teStallEnable 0) and once
# with `run --trace-stall`:
#   btm, htmret  the stalled run: no Error message in the trace, stats.txt's
#                prog_lost_messages 0, te_stall_cycles > 0, `tracesim check` clean with the
#                program flow in one synchronised stretch; the same instructions retired as
#                the unstalled run, in exactly its cycles + te_stall_cycles (both runs'
#                stats.txt: the held cycles are pure delay); a second stalled run gives the
#                same trace.rtd and prog_flow.csv byte for byte;
#   event        --trace-insn event: the unstalled run loses event messages (prog_lost_messages
#                > 0), the stalled one none, and checks clean (its instructions differ: the
#                firmware reads teStallOrOverflow);
#   harts        fib_mh_sram.elf on 2 harts through the funnel, stalled: each hart held
#                (te_stall_cycles_hartN > 0, their sum te_stall_cycles), nothing lost, each
#                hart's flow checks in one stretch;
#   nostall      the unstalled run loses messages: Error messages in the trace, the check
#                states gaps (the test above can fail).
set -u
b=$1; case_=$2
run=$b/test-runs/stall_$case_
fail() { echo "FAIL (stall $case_): $*"; exit 1; }
elf=$b/firmware/tests/perf_overflow_0_0.elf
mode=btm; [ "$case_" = htmret ] && mode=htm-ret; [ "$case_" = event ] && mode=event
stat() { awk -v k="$2" '$1 == k { print $2 }' "$1/stats.txt"; }
errors() { "$b/tracesim" decode "$1" 2> /dev/null | grep -c '"tcode": 8[,}]'; }
go() {   # go DIR [--trace-stall]
  rm -rf "$1"
  "$b/tracesim" run -q --trace-insn $mode --itc-depth 1 --trace-sram 4M "${@:2}" -o "$1" "$elf" > /dev/null ||
    fail "run $1 exited $?"
}
if [ "$case_" = harts ]; then
  elf=$b/firmware/examples/fib_mh_sram.elf
  go "$run.on" --harts 2 --trace-stall
  h0=$(stat "$run.on" te_stall_cycles_hart0); h1=$(stat "$run.on" te_stall_cycles_hart1)
  [ "${h0:-0}" -gt 0 ] && [ "${h1:-0}" -gt 0 ] || fail "a hart was never held: $h0, $h1"
  [ "$(stat "$run.on" te_stall_cycles)" = $((h0 + h1)) ] || fail "te_stall_cycles is not the sum of the harts'"
  [ "$(stat "$run.on" prog_lost_messages)" = 0 ] || fail "messages lost with stall"
  [ "$(errors "$run.on")" = 0 ] || fail "Error messages with stall"
  "$b/tracesim" check "$run.on" > "$run.on.check" 2>&1 || fail "check exited $?: $(cat "$run.on.check")"
  for h in 0 1; do
    grep -Eq "^check: program flow: hart $h: [1-9][0-9]* instructions in 1 synchronised stretch\(es\) equal" "$run.on.check" ||
      fail "no clean flow for hart $h"
  done
  echo "ok (stall harts): held $h0 and $h1 cycles, nothing lost, both flows check"
  exit 0
fi
go "$run.off"
if [ "$case_" = nostall ]; then
  e=$(errors "$run.off")
  [ "$e" -gt 0 ] || fail "no Error message without stall"
  "$b/tracesim" check "$run.off" > "$run.off.check" 2>&1 || fail "check exited $?: $(cat "$run.off.check")"
  grep -Eq 'program flow: hart 0: .* [1-9][0-9]* gap\(s\): messages lost' "$run.off.check" || fail "no gap stated"
  [ "$(stat "$run.off" te_stall_cycles)" = 0 ] || fail "held without teStallEnable"
  echo "ok (stall nostall): $e Error messages"
  exit 0
fi
go "$run.on" --trace-stall
go "$run.on2" --trace-stall
e=$(errors "$run.on")
[ "$e" = 0 ] || fail "$e Error messages with stall"
[ "$(stat "$run.on" prog_lost_messages)" = 0 ] || fail "messages lost with stall"
held=$(stat "$run.on" te_stall_cycles)
[ "${held:-0}" -gt 0 ] || fail "no held cycles"
c0=$(stat "$run.off" cycles); c1=$(stat "$run.on" cycles)
"$b/tracesim" check "$run.on" > "$run.on.check" 2>&1 || fail "check exited $?: $(cat "$run.on.check")"
if [ $mode = event ]; then
  lost=$(stat "$run.off" prog_lost_messages)
  [ "${lost:-0}" -gt 0 ] || fail "no event message lost without stall"
  grep -Eq '^check: events: hart 0: [1-9][0-9]* calls' "$run.on.check" || fail "no event verdict: $(cat "$run.on.check")"
  echo "ok (stall event): $lost event messages lost without stall, none with $held held cycles, check clean"
  exit 0
fi
[ "$c1" = $((c0 + held)) ] || fail "cycles $c1 != unstalled $c0 + held $held"
[ "$(stat "$run.on" instret)" = "$(stat "$run.off" instret)" ] || fail "instret differs"
grep -Eq '^check: program flow: hart 0: [1-9][0-9]* instructions in 1 synchronised stretch\(es\) equal what the core retired' \
  "$run.on.check" || fail "no clean program flow verdict: $(cat "$run.on.check")"
grep -q 'gap' "$run.on.check" && fail "gaps with stall: $(grep gap "$run.on.check")"
for f in trace.rtd prog_flow.csv stats.txt; do
  if [ $f = stats.txt ]; then
    diff <(grep -v '^sim_' "$run.on/$f") <(grep -v '^sim_' "$run.on2/$f") > /dev/null || fail "$f differs between two runs"
  else
    cmp -s "$run.on/$f" "$run.on2/$f" || fail "$f differs between two runs"
  fi
done
echo "ok (stall $case_): $c0 cycles unstalled, $c1 = $c0 + $held held cycles, no message lost, check clean"
