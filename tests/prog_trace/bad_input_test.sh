#!/usr/bin/env bash
# bad_input_test.sh BUILD_DIR - program trace's inputs, each bad one a single line on stderr
# and a non-zero exit, never a crash or a silent pass:
#  * run --trace-insn with a mode the model lacks (etm): usage error (120) naming the option;
#  * check with a damaged prog_flow.csv: a bad header or a malformed row names the file and
#    line (exit 121); rows cut off at the end (the core "retired less"): FAILED (exit 1).
set -u
b=$1; run=$b/test-runs/btm_bad
rm -rf "$run" "$run".*
fail() { echo "FAIL (btm bad input): $*"; exit 1; }
elf=$b/firmware/examples/fib.elf
"$b/tracesim" run -q --trace-insn etm -o "$run.x" "$elf" > /dev/null 2> "$run.err"; rc=$?
[ $rc = 120 ] || fail "--trace-insn etm exited $rc"
[ "$(wc -l < "$run.err")" = 1 ] && grep -q -- "--trace-insn" "$run.err" || fail "not one line naming the option: $(cat "$run.err")"
"$b/tracesim" run -q --trace-insn btm -o "$run" "$elf" > /dev/null || fail "the run exited $?"
cp "$run/prog_flow.csv" "$run.good"
one() {   # label, expected exit, stderr pattern
  "$b/tracesim" check "$run" > /dev/null 2> "$run.err"; local rc=$?
  [ $rc = "$2" ] || fail "$1: check exited $rc, not $2 ($(cat "$run.err"))"
  [ "$(wc -l < "$run.err")" = 1 ] || fail "$1: not one line: $(cat "$run.err")"
  grep -Eq "$3" "$run.err" || fail "$1: $(cat "$run.err")"
  cp "$run.good" "$run/prog_flow.csv"
}
sed -i '1s/.*/cycle,hart,what/' "$run/prog_flow.csv"
one header 121 'prog_flow.csv:1: not the header of prog_flow.csv'
sed -i '5s/.*/12,0,branch,0xzz,1,2/' "$run/prog_flow.csv"
one row 121 'prog_flow.csv:5: malformed row'
sed -i '5s/^\([0-9]*,[0-9]*\),[a-z]*,/\1,leap,/' "$run/prog_flow.csv"
one kind 121 'prog_flow.csv:5: malformed row'
sed -i '5s/^\([0-9]*\),0,/\1,99,/' "$run/prog_flow.csv"
one hart 121 'prog_flow.csv:5: malformed row'
head -n 100 "$run.good" > "$run/prog_flow.csv"
one cut 1 'check FAILED: program flow, hart 0: after [0-9]+ instructions the trace goes on from 0x[0-9a-f]{8} to 0x[0-9a-f]{8}, but the core retired nothing more while tracing'
echo "ok (btm bad input)"
