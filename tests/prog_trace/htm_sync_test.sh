#!/usr/bin/env bash
# htm_sync_test.sh BUILD_DIR MODE - HTM (MODE htm or htm-ret) on a loop of conditional branches
# only (bench_itc.elf: an ITC store and its ready poll, no indirect jump): the periodic sync
# (teSyncMaxBTM; the perf library's ts_trace_itc_start writes 0: every 2^5 = 32 messages) must
# still come, as INDIRECT BRANCH HISTORY WS (29) at a conditional branch, or a buffer that
# wrapped holds no sync and decodes to nothing (docs/program-trace.md "What the encoder emits").
#   1. 300 K cycles into a 4 MiB sink (no wrap): `tracesim check` equals the flow with the
#      core's (prog_flow.csv); sync-type messages come at least every 32 + 3 program messages
#      (32, plus at most a RESOURCE FULL RCODE 0 before the next branch and a repeat count's
#      two messages flushed at it);
#   2. the same run into the default 16 KiB sink (it wraps about 18 times): the decoded flow is
#      not empty, and every stretch, anchored in the retire log at the cycle its sync's time
#      says (time - cycle: trace.json's ts_cycle_offset, the simulator's), equals what the core
#      retired, instruction by instruction (flow_vs_retire.py --tics-offset).
set -u
b=$1; mode=$2
here=$(cd "$(dirname "$0")" && pwd)
run=$b/test-runs/htm_sync_$mode
rm -rf "$run".*
fail() { echo "FAIL (htm_sync $mode): $*"; exit 1; }
elf=$b/firmware/bench/bench_itc.elf

"$b/tracesim" run -q --trace-insn "$mode" -n 300K --trace-sram 4M -o "$run.big" "$elf" > /dev/null 2>&1
[ $? = 124 ] || fail "the 300 K-cycle run did not stop at its cycle limit"
"$b/tracesim" check "$run.big" > "$run.big.check" 2>&1 || fail "tracesim check: $(cat "$run.big.check")"
grep -Eq '^check: program flow: hart 0: [1-9][0-9]* instructions in 1 synchronised stretch\(es\) equal' "$run.big.check" ||
  fail "no program flow verdict: $(cat "$run.big.check")"
"$b/tracesim" decode "$run.big" > "$run.big.msgs" 2> /dev/null || fail "decode exited $?"
python3 - "$run.big.msgs" <<'PY' || fail "the periodic sync did not come"
import json, sys
syncs, since, worst = 0, 0, 0
for line in open(sys.argv[1]):
    t = json.loads(line).get("tcode")
    if t in (9, 11, 12, 29):
        syncs += 1
        since = 0
    elif t in (3, 4, 27, 28, 33):
        since += 1
        worst = max(worst, since)
print("%d sync-type messages, at most %d program messages between two" % (syncs, worst))
sys.exit(0 if syncs > 1 and worst <= 35 else 1)
PY

"$b/tracesim" run -q --trace-insn "$mode" -n 300K --retire-log "$run.ret" -o "$run.wrap" "$elf" > /dev/null 2>&1
[ $? = 124 ] || fail "the wrapped run did not stop at its cycle limit"
grep -q '"wrapped": true' "$run.wrap/trace.json" || fail "the 16 KiB sink did not wrap"
"$b/tracesim" check "$run.wrap" > "$run.wrap.check" 2>&1 || fail "tracesim check: $(cat "$run.wrap.check")"
off=$(sed -nE 's/.*"ts_cycle_offset": (-?[0-9]+).*/\1/p' "$run.wrap/trace.json")
[ -n "$off" ] || fail "no ts_cycle_offset in trace.json"
d() { "$b/tracesim" decode --elf "$elf" "$@" "$run.wrap" 2> /dev/null; }
d > "$run.wrap.msgs" || fail "decode exited $?"
d -f elements > "$run.wrap.el" || fail "decode (elements) exited $?"
d -f instr > "$run.wrap.instr" || fail "decode (instr) exited $?"
n=$(wc -l < "$run.wrap.instr")
[ "$n" -gt 1000 ] || fail "the wrapped trace decodes to $n instructions"
out=$(python3 "$here/flow_vs_retire.py" --tics-offset="$off" "$run.ret" "$run.wrap.msgs" "$run.wrap.el" "$run.wrap.instr") ||
  fail "$out"
echo "$out" | tail -2
echo "ok (htm_sync $mode): $n instructions decoded from the wrapped buffer"
