#!/usr/bin/env bash
# btm_check_test.sh BUILD_DIR CASE - program trace in BTM (docs/program-trace.md) checked
# instruction by instruction twice: by `tracesim check` (against the run's prog_flow.csv,
# analysis/check/prog_check.c) and by flow_vs_retire.py (against the full --retire-log, an
# independent ground truth):
#   fib       fib.elf, `run --trace-insn btm`: one synchronised stretch, every instruction
#             and every branch message's timestamp = retire cycle + one constant; the ITC
#             stores and perf records in the same trace still check;
#   timer_isr timer_isr.elf: interrupts (B-TYPE 1 messages) and mret, the same checks;
#   overflow  perf_overflow_0_0.elf with a 1-entry FIFO: branch messages are lost, the
#             check states the gaps and every stretch after a resync (SYNC 7) still matches;
#   harts     fib_mh_sram.elf on 2 harts through the funnel: each hart's flow checks;
#   mutation  fib.elf's trace with one DIRECT BRANCH's I-CNT raised by one: both checks fail
#             and name the first wrong instruction;
#   htm_harts, htmret_harts, htmret_timer_isr: the same as harts / timer_isr with
#             --trace-insn htm (teInstruction 6) or htm-ret (7, returns inferred);
#             htmret_timer_isr also: timer_isr's loops are sent as repeat counts (RESOURCE FULL
#             RCODE 9, teInstruction 7's repeat-branch optimisation), and the check states the
#             RESOURCE FULL timestamps that are later than their last branch;
#   systemc   fib.elf with --trace-insn htm-ret twice, and on the SystemC platform: the same
#             trace.rtd and prog_flow.csv byte for byte (determinism, platform equivalence).
set -u
b=$1; case_=$2
here=$(cd "$(dirname "$0")" && pwd)
run=$b/test-runs/btm_$case_
rm -rf "$run" "$run.ret"
fail() { echo "FAIL (btm $case_): $*"; exit 1; }
elf=$b/firmware/examples/fib.elf
mode=btm
case $case_ in
  htm_*) mode=htm; case_=${case_#htm_} ;;
  htmret_*) mode=htm-ret; case_=${case_#htmret_} ;;
esac
extra=()
if [ "$case_" = systemc ]; then
  [ -x "$b/tracesim-sc" ] || { echo "btm systemc: no SystemC build, skipped"; exit 77; }
  for v in a b sc; do
    o=(); [ $v = sc ] && o=(--systemc)
    rm -rf "$run.$v"
    "$b/tracesim" run -q "${o[@]}" --trace-insn htm-ret -o "$run.$v" "$elf" > /dev/null || fail "run $v exited $?"
  done
  for f in trace.rtd prog_flow.csv; do
    cmp -s "$run.a/$f" "$run.b/$f" || fail "$f differs between two identical runs"
    cmp -s "$run.a/$f" "$run.sc/$f" || fail "$f differs on the SystemC platform"
  done
  echo "ok (btm systemc): $(wc -c < "$run.a/trace.rtd") trace bytes, $(wc -l < "$run.a/prog_flow.csv") rows, equal"
  exit 0
fi
case $case_ in
  timer_isr) elf=$b/firmware/examples/timer_isr.elf; extra=(--trace-sram 4M) ;;
  overflow) elf=$b/firmware/tests/perf_overflow_0_0.elf; extra=(--itc-depth 1 --trace-sram 4M) ;;
  harts) elf=$b/firmware/examples/fib_mh_sram.elf; extra=(--harts 2 --trace-sram 4M) ;;
esac
"$b/tracesim" run -q --trace-insn $mode "${extra[@]}" --retire-log "$run.ret" -o "$run" "$elf" > /dev/null ||
  fail "the run exited $?"
decode() { "$b/tracesim" decode --elf "$elf" "$@" "$run" 2> "$run.decode.err"; }
if [ "$case_" = mutation ]; then
  # the first DIRECT BRANCH whose I-CNT is one byte (MDO < 63, MSEO 01 or 11): I-CNT + 1
  python3 - "$run/trace.rtd" <<'PY' || fail "no DIRECT BRANCH to mutate"
import sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
i = 0
while i + 1 < len(d):
    if d[i] == 0x0C and (d[i + 1] & 3) in (1, 3) and (d[i + 1] >> 2) < 60 and i > 0 and (d[i - 1] & 3) == 3:
        d[i + 1] += 4
        open(p, "wb").write(d)
        sys.exit(0)
    i += 1
sys.exit(1)
PY
fi
decode > "$run.msgs" || fail "decode (messages) exited $?"
decode -f elements > "$run.el" || fail "decode (elements) exited $?"
decode -f instr > "$run.instr" || fail "decode (instr) exited $?"
"$b/tracesim" check "$run" > "$run.check" 2> "$run.check.err"; crc=$?
cat "$run.check.err"; grep 'program flow' "$run.check"
if [ "$case_" = harts ]; then
  for h in 0 1; do   # each hart's flow against its own retire-log lines
    grep "^\[$h\]" "$run.instr" | sed 's/^\[[0-9]*\] //' > "$run.instr$h"
    awk -v h=$h '$0 ~ "^\\[" h "\\]" || $2 == "[" h "]" || $0 !~ /\[/' "$run.el" > "$run.el$h"
    out=$(python3 "$here/flow_vs_retire.py" "$run.ret" "$run.msgs" "$run.el$h" "$run.instr$h" $h) ||
      fail "hart $h: $out"
  done
  [ $crc = 0 ] || fail "tracesim check exited $crc"
  for h in 0 1; do
    grep -Eq "^check: program flow: hart $h: [1-9][0-9]* instructions in 1 synchronised stretch\(es\) equal" "$run.check" ||
      fail "no program flow verdict for hart $h"
  done
  echo "ok (btm $case_)"
  exit 0
fi
out=$(python3 "$here/flow_vs_retire.py" "$run.ret" "$run.msgs" "$run.el" "$run.instr"); rc=$?
echo "$out" | tail -3
case $case_ in
  mutation)
    [ $rc = 1 ] || fail "the check passed a corrupted I-CNT"
    echo "$out" | grep -Eq 'FAIL: stretch 0, instruction [0-9]+: the trace says 0x[0-9a-f]{8}, the core retired 0x[0-9a-f]{8}|I-CNT ends inside' ||
      fail "the failure does not name the instruction: $out"
    [ $crc = 1 ] || fail "tracesim check exited $crc on a corrupted I-CNT"
    grep -Eq 'check FAILED: program flow, hart 0: instruction [0-9]+ of the trace: it says the flow went from 0x[0-9a-f]{8} to 0x[0-9a-f]{8}' "$run.check.err" ||
      fail "tracesim check does not name the instruction: $(cat "$run.check.err")" ;;
  overflow)
    [ $rc = 0 ] || fail "the flow does not match the retired instructions: $out"
    [ $crc = 0 ] || fail "tracesim check exited $crc"
    grep -Eq '^check: program flow: hart 0: [0-9]+ instructions in ([2-9]|[1-9][0-9]+) synchronised stretch\(es\) equal .*[1-9][0-9]* gap\(s\): messages lost' "$run.check" ||
      fail "no gap and resync stated" ;;
  *)
    [ $rc = 0 ] || fail "the flow does not match the retired instructions"
    echo "$out" | grep -q '^OK: 1 stretch(es)' || fail "expected one synchronised stretch"
    [ $mode != btm ] || echo "$out" | grep -Eq ', [1-9][0-9]* timestamps' || fail "no timestamps checked"
    grep -q 'NO_SYNC (messages lost)' "$run.el" && fail "a loss of sync in a run without overflow"
    [ $crc = 0 ] || fail "tracesim check exited $crc"
    grep -Eq '^check: program flow: hart 0: [1-9][0-9]* instructions in 1 synchronised stretch\(es\) equal what the core retired .*[1-9][0-9]* message timestamps = retire cycle' "$run.check" ||
      fail "no program flow verdict"
    grep -q 'perf records in the trace: each equals the ground truth' "$run.check" || fail "the perf records were not checked"
    if [ $mode = htm-ret ] && [ "$case_" = timer_isr ]; then
      n9=$(grep -c '"count": [1-9][0-9]*, "rcode": 9' "$run.msgs")
      [ "$n9" -gt 0 ] || fail "no taken count (RESOURCE FULL RCODE 9) in a loop-heavy run with teInstruction 7"
      grep -Eq '[1-9][0-9]* RESOURCE FULL timestamps later \(sent when a run of equal branch outcomes ended\)' "$run.check" ||
        fail "the check does not state the repeat counts' later timestamps"
      echo "$n9 taken counts"
    fi ;;
esac
echo "ok (btm $case_)"
