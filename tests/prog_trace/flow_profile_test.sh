#!/usr/bin/env bash
# flow_profile_test.sh BUILD_DIR CASE - `tracesim report` from the program flow
# (analysis/report/flow_profile.c) against the core's retire log (profile_vs_retire.py: every
# function's self instructions from the log and the ELF's symbol ranges, fib's 465 calls
# counted as link jumps in the log, its total instructions and, within 1 %, its cycles; and
# the timeline's call slices of fib: 465, the outermost from its call to its return):
#   btm, htmret  fib.elf with --trace-insn btm / htm-ret (returns inferred), --from flow;
#   harts        fib_mh_sram.elf on 2 harts: each hart's profile and slices, fib(8) on hart 0
#                with 2 F(9) - 1 = 67 calls, fib(6) on hart 1 with 2 F(7) - 1 = 25;
#   e31          the real E31 capture (../shared/captures): every function's self instructions
#                equal those of SiFive's listing (e31_hello_debug.instr.txt.gz) by the ELF's
#                symbol ranges (by address: aliases such as write/_write are one function);
#   auto         no perf header on the channel asked for (--perf-channel 5): report takes the
#                flow by itself and prints the same profile as --from flow;
#   mutation     the comparison fails on a report with one self count off by one;
#   bad          --from frob (120), --from flow on a run without program trace (121), on a
#                trace file without --elf (120): one line on stderr each.
set -u
b=$1; case_=$2
here=$(cd "$(dirname "$0")" && pwd)
run=$b/test-runs/flowprof_$case_
fail() { echo "FAIL (flow profile $case_): $*"; exit 1; }
elf=$b/firmware/examples/fib.elf
ts=$b/tracesim
rm -rf "$run" "$run".*
mode=btm; [ "$case_" = htmret ] && mode=htm-ret
extra=()
[ "$case_" = harts ] && { elf=$b/firmware/examples/fib_mh_sram.elf; extra=(--harts 2 --trace-sram 4M); }
if [ "$case_" = e31 ]; then
  caps=$here/../../../shared/captures
  [ -f "$caps/e31_hello_debug.rtd" ] || { echo "flow profile e31: no captures folder, skipped"; exit 77; }
  "$ts" report --from flow --format csv --elf "$caps/e31_hello_debug.elf" "$caps/e31_hello_debug.rtd" > "$run.csv" ||
    fail "report exited $?"
  riscv64-unknown-elf-nm -S "$caps/e31_hello_debug.elf" > "$run.nm" || fail "nm failed"
  out=$(zcat "$caps/e31_hello_debug.instr.txt.gz" | python3 -c '
import bisect, csv, sys
syms = sorted((int(w[0], 16), int(w[1], 16), w[3]) for w in (l.split() for l in open(sys.argv[1]))
              if len(w) == 4 and w[2] in "tTwW" and not w[3].startswith("$") and int(w[1], 16) > 0)
addrs = [x[0] for x in syms]
want = {}
for line in sys.stdin:
    if line.startswith("#"): continue
    pc = int(line.split()[0], 16)
    i = bisect.bisect_right(addrs, pc) - 1
    n = syms[i][0] if i >= 0 and pc < syms[i][0] + syms[i][1] else 0   # aliases share the address
    want[n] = want.get(n, 0) + 1
got = {int(r["address"], 16): int(r["self_insn"]) for r in csv.DictReader(open(sys.argv[2]))}
bad = [n for n in set(want) | set(got) if want.get(n, 0) != got.get(n, 0)]
print(("FAIL: " + ", ".join("0x%x %d (listing %d)" % (n, got.get(n, 0), want.get(n, 0)) for n in bad[:5])) if bad else
      "%d instructions in %d functions equal the listing" % (sum(want.values()), len(want)))
' "$run.nm" "$run.csv")
  case $out in FAIL*) fail "$out" ;; esac
  echo "ok (flow profile e31): $out"
  exit 0
fi
if [ "$case_" = bad ]; then
  "$ts" run -q -o "$run" "$elf" > /dev/null || fail "run exited $?"
  one() {   # one EXPECTED_EXIT PATTERN ARGS...
    local want=$1 pat=$2; shift 2
    "$ts" report "$@" > "$run.out" 2> "$run.err"; local rc=$?
    [ $rc = "$want" ] || fail "report $*: exit $rc, expected $want"
    [ "$(wc -l < "$run.err")" = 1 ] && grep -q -e "$pat" "$run.err" || fail "report $*: stderr: $(cat "$run.err")"
  }
  one 120 "unknown --from 'frob'" --from frob "$run"
  one 121 "no program trace in" --from flow "$run"
  one 120 "--from flow needs the program" --from flow "$run/trace.rtd"
  echo "ok (flow profile bad): --from frob, no program trace, no ELF"
  exit 0
fi
"$ts" run -q --trace-insn $mode "${extra[@]}" --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
riscv64-unknown-elf-nm -S "$elf" > "$run.nm" || fail "nm failed"
"$ts" report --from flow --format csv "$run" > "$run.csv" || fail "report --from flow exited $?"
case $case_ in
  btm|htmret)
    "$ts" decode --format timeline -o "$run.tl" "$run" 2> /dev/null || fail "decode --format timeline exited $?"
    python3 "$here/profile_vs_retire.py" "$run.retire" "$run/prog_flow.csv" "$run.nm" "$run.csv" fib 465 \
      "$run.tl/timeline.json" || fail "profile differs"
    "$ts" report --from flow "$run" > "$run.txt" || fail "report text exited $?"
    grep -q '^  fib -> fib: 464$' "$run.txt" || fail "no edge fib -> fib: 464 in the call graph"
    grep -q '^  main -> fib: 1$' "$run.txt" || fail "no edge main -> fib: 1 in the call graph" ;;
  harts)
    "$ts" decode --format timeline -o "$run.tl" "$run" 2> /dev/null || fail "decode --format timeline exited $?"
    for h in 0:67 1:25; do
      PV_HART=${h%:*} python3 "$here/profile_vs_retire.py" "$run.retire" "$run/prog_flow.csv" "$run.nm" "$run.csv" fib \
        ${h#*:} "$run.tl/timeline.json" || fail "hart ${h%:*}: profile differs"
    done ;;
  auto)
    "$ts" report --perf-channel 5 --format csv "$run" > "$run.auto.csv" || fail "report without perf header exited $?"
    cmp -s "$run.csv" "$run.auto.csv" || fail "report without perf header is not the flow profile"
    "$ts" report --perf-channel 5 "$run" | head -1 | grep -q "from the program flow" || fail "text header does not say the flow"
    "$ts" report "$run" | grep -q "from the program flow" && fail "a trace with perf records gave the flow profile"
    echo "ok (flow profile auto): no perf header -> the flow profile" ;;
  mutation)
    awk -F, 'BEGIN{OFS=","} $2=="fib"{$5=$5+1} {print}' "$run.csv" > "$run.mut.csv"
    out=$(python3 "$here/profile_vs_retire.py" "$run.retire" "$run/prog_flow.csv" "$run.nm" "$run.mut.csv" fib 465) && fail "a wrong self count passed: $out"
    # the retire log's count (ground truth) is the unmutated report's total, the mutated
    # report one more, whatever instructions the local compiler made of fib.c
    n=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "self_insn") c = i; next} {s += $c} END {print s}' "$run.csv")
    echo "$out" | grep -q "^FAIL: report: $((n + 1)) instructions, the retire log $n in the traced cycles$" ||
      fail "unexpected: $out (expected report $((n + 1)), retire log $n)"
    echo "ok (flow profile mutation): $out" ;;
  *) fail "unknown case" ;;
esac
