#!/usr/bin/env bash
# event_check_test.sh BUILD_DIR CASE - event / PC-sample mode (teInstruction 1,
# docs/program-trace.md): `run --trace-insn event`, then `tracesim check` (every call,
# exception and interrupt message against flow.csv, PC samples against prog_flow.csv,
# analysis/check/event_check.c) and counts worked out here from the ground truth alone:
#   fib       calls: as many `call from=` elements in `decode --format elements` as flow.csv
#             has calls inside the trace window; PC samples: floor(instructions traced / 256)
#             (the sum of prog_flow.csv's n); two runs give the same trace.rtd;
#   timer_isr interrupts: as many `interrupt cause=7` elements as flow.csv has traps with
#             mcause 0x80000007 inside the window; the check passes;
#   harts     fib_mh_sram.elf on 2 harts: each hart's events check (a line per hart);
#   overflow  perf_overflow_0_0.elf with a 1-entry FIFO: events are lost, the check passes
#             and states the gaps;
#   mutation  fib's trace with the address of one call event changed: the check fails and
#             names that event;
#   instr     `decode --format instr` on fib's event trace: refused with one line naming the
#             trace and pointing to --format elements, exit 120 (usage), nothing on stdout and
#             no instr.txt left with -o (an event trace names calls, traps and samples only);
#   bad_input fib's run with a damaged prog_flow.csv (header, then a row): one line naming
#             the file (and line), exit 121 (cannot check), no crash.
set -u
b=$1; case_=$2
run=$b/test-runs/event_$case_
rm -rf "$run" "$run.b" "$run.dir"
fail() { echo "FAIL (event $case_): $*"; exit 1; }
elf=$b/firmware/examples/fib.elf
extra=()
case $case_ in
  timer_isr) elf=$b/firmware/examples/timer_isr.elf; extra=(--trace-sram 4M) ;;
  overflow) elf=$b/firmware/tests/perf_overflow_0_0.elf; extra=(--itc-depth 1 --trace-sram 4M) ;;
  harts) elf=$b/firmware/examples/fib_mh_sram.elf; extra=(--harts 2 --trace-sram 4M) ;;
esac
"$b/tracesim" run -q --trace-insn event "${extra[@]}" -o "$run" "$elf" > /dev/null || fail "the run exited $?"
# the trace window from prog_flow.csv (one start, one stop in these programs)
read -r s e < <(awk -F, '$2==0 && $3=="start"{s=$1} $2==0 && $3=="stop"{e=$1} END{print s, e}' "$run/prog_flow.csv")
[ -n "$s" ] && [ -n "$e" ] || fail "prog_flow.csv has no start and stop row"
elems() { "$b/tracesim" decode --format elements "$run" 2> /dev/null; }

if [ "$case_" = bad_input ]; then
  g=$run/prog_flow.csv
  cp "$g" "$run.gt"
  sed -i '1s/.*/cycle,hart,what/' "$g"
  "$b/tracesim" check "$run" > /dev/null 2> "$run.err"; rc=$?
  [ $rc = 121 ] && [ "$(wc -l < "$run.err")" = 1 ] && grep -q "prog_flow.csv:1: not the header of prog_flow.csv" "$run.err" ||
    fail "bad header: exit $rc, $(cat "$run.err")"
  awk -F, 'NR==3 {print "12x,0,branch,0x1"; next} {print}' "$run.gt" > "$g"
  "$b/tracesim" check "$run" > /dev/null 2> "$run.err"; rc=$?
  [ $rc = 121 ] && [ "$(wc -l < "$run.err")" = 1 ] && grep -q "prog_flow.csv:3: malformed row" "$run.err" ||
    fail "bad row: exit $rc, $(cat "$run.err")"
  echo "ok (event bad_input): $(cat "$run.err")"
  exit 0
fi

if [ "$case_" = instr ]; then
  "$b/tracesim" decode --format instr --elf "$elf" "$run" > "$run.out" 2> "$run.err"; rc=$?
  [ $rc = 120 ] || fail "--format instr on an event trace exited $rc"
  [ "$(wc -l < "$run.err")" = 1 ] && grep -q "^tracesim: --format instr: .*trace.rtd is an event / PC-sample trace (teInstruction 1).*--format elements$" "$run.err" ||
    fail "not one clear line: $(cat "$run.err")"
  [ -s "$run.out" ] && fail "a listing was printed: $(head -2 "$run.out")"
  "$b/tracesim" decode --format instr --elf "$elf" -o "$run.dir" "$run" 2> /dev/null; rc=$?
  [ $rc = 120 ] || fail "-o: exited $rc"
  [ -e "$run.dir/instr.txt" ] && fail "-o left an instr.txt"
  echo "ok (event instr): $(cat "$run.err")"
  exit 0
fi

if [ "$case_" = mutation ]; then
  # the first call event (TCODE 34: 0x88, CKSRC 9 + CKDF 1: 0x64) after the first 64 bytes:
  # flip MDO bit 2 of its first address byte (the address moves by 8 bytes, framing unchanged)
  off=$(python3 - "$run/trace.rtd" <<'PY'
import sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
for i in range(64, len(d) - 3):
    if d[i] == 0x88 and d[i + 1] == 0x64 and (d[i - 1] & 3) == 3:
        d[i + 2] ^= 0x10
        open(p, "wb").write(d)
        print(i)
        break
PY
)
  [ -n "$off" ] || fail "no call event to mutate"
  out=$("$b/tracesim" check --elf "$elf" "$run" 2>&1) && fail "check passed on a corrupted call address"
  echo "$out" | grep -q "check FAILED: events, hart 0: event [0-9]* of the trace (offset $off) is a call at 0x" ||
    fail "the failure does not name the call at offset $off: $out"
  echo "ok (event mutation): $(echo "$out" | grep FAILED)"
  exit 0
fi

out=$("$b/tracesim" check --elf "$elf" "$run" 2>&1) || fail "check failed: $out"
line=$(echo "$out" | grep '^check: events: hart 0: ') || fail "no events line in: $out"
case $case_ in
  fib)
    want=$(awk -F, -v s="$s" -v e="$e" '$3=="call" && $1>s && $1<e' "$run/flow.csv" | wc -l)
    got=$(elems | grep -c ' call from=')
    [ "$want" -gt 100 ] && [ "$got" = "$want" ] || fail "$got call events in the trace, flow.csv has $want"
    echo "$line" | grep -q " $want calls, 0 exceptions and 0 interrupts equal" || fail "check line: $line"
    insns=$(awk -F, 'NR>1{n+=$6} END{print n}' "$run/prog_flow.csv")
    samples=$((insns / 256))
    got=$(elems | grep -c ' pc_sample$')
    [ "$got" = "$samples" ] || fail "$got PC samples, $insns instructions traced give $samples"
    echo "$line" | grep -q "; $samples PC samples inside" || fail "check line: $line"
    "$b/tracesim" run -q --trace-insn event -o "$run.b" "$elf" > /dev/null || fail "second run exited $?"
    cmp -s "$run/trace.rtd" "$run.b/trace.rtd" || fail "two identical runs give different traces"
    ;;
  timer_isr)
    want=$(awk -F, -v s="$s" -v e="$e" '$3=="trap" && $6=="0x80000007" && $1>s && $1<e' "$run/flow.csv" | wc -l)
    got=$(elems | grep -c ' interrupt cause=7$')
    [ "$want" -gt 10 ] && [ "$got" = "$want" ] || fail "$got interrupt events in the trace, flow.csv has $want"
    echo "$line" | grep -q " 0 exceptions and $want interrupts equal" || fail "check line: $line"
    ;;
  harts)
    echo "$out" | grep -q '^check: events: hart 1: [1-9][0-9]* calls' || fail "no events checked on hart 1: $out"
    ;;
  overflow)
    grep -q '^prog_lost_messages [1-9]' "$run/stats.txt" || fail "no event was lost: $(grep prog_ "$run/stats.txt")"
    echo "$line" | grep -q "gap(s) (Error messages)" || fail "the gaps are not stated: $line"
    ;;
esac
echo "$line" | grep -q "timestamps = retire cycle [-+][0-9]*" || fail "no timestamp check: $line"
echo "ok (event $case_): $line"
