#!/usr/bin/env bash
# btm_check_test.sh BUILD_DIR CASE - program trace in BTM (docs/program-trace.md) checked
# instruction by instruction against the core's retire log (flow_vs_retire.py says how):
#   fib       fib.elf, `run --trace-insn btm`: one synchronised stretch, every instruction
#             and every branch message's timestamp = retire cycle + one constant; the perf
#             records in the same trace still pass `tracesim check`;
#   timer_isr timer_isr.elf: interrupts (B-TYPE 1 messages) and mret, the same checks;
#   mutation  fib.elf's trace with one DIRECT BRANCH's I-CNT raised by one: the check fails
#             and names the first wrong instruction.
set -u
b=$1; case_=$2
here=$(cd "$(dirname "$0")" && pwd)
run=$b/test-runs/btm_$case_
rm -rf "$run" "$run.ret"
fail() { echo "FAIL (btm $case_): $*"; exit 1; }
elf=$b/firmware/examples/fib.elf
extra=()
case $case_ in
  timer_isr) elf=$b/firmware/examples/timer_isr.elf; extra=(--trace-sram 4M) ;;
esac
"$b/tracesim" run -q --trace-insn btm "${extra[@]}" --retire-log "$run.ret" -o "$run" "$elf" > /dev/null ||
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
out=$(python3 "$here/flow_vs_retire.py" "$run.ret" "$run.msgs" "$run.el" "$run.instr"); rc=$?
echo "$out" | tail -3
case $case_ in
  mutation)
    [ $rc = 1 ] || fail "the check passed a corrupted I-CNT"
    echo "$out" | grep -Eq 'FAIL: stretch 0, instruction [0-9]+: the trace says 0x[0-9a-f]{8}, the core retired 0x[0-9a-f]{8}|I-CNT ends inside' ||
      fail "the failure does not name the instruction: $out" ;;
  *)
    [ $rc = 0 ] || fail "the flow does not match the retired instructions"
    echo "$out" | grep -q '^OK: 1 stretch(es)' || fail "expected one synchronised stretch"
    echo "$out" | grep -Eq ', [1-9][0-9]* timestamps' || fail "no timestamps checked"
    grep -q 'NO_SYNC (messages lost)' "$run.el" && fail "a loss of sync in a run without overflow"
    "$b/tracesim" check "$run" > "$run.check" 2>&1 || fail "tracesim check (perf records) failed: $(tail -3 "$run.check")" ;;
esac
echo "ok (btm $case_)"
