#!/usr/bin/env bash
# cut_run_test.sh BUILD_DIR CASE - a run that ends while the trace subsystem still holds
# messages (cut by --max-cycles in the middle of the firmware's ITC stores): what the encoders,
# the funnel and the sink's partial word hold drains into the trace at the end, as after the
# harts halt, so `tracesim check` finds every store itc.csv calls traced (the independent
# ground truth). Before, the newest stores were missing, and a wrapped buffer was aligned one
# or more stores off (check failed on correct records).
#   wrapped    bench_itc, an ITC store every ~11 cycles, 16 KiB SRAM wraps; cut at 3 points
#   sba        fib with its SBA buffer, cut at 2 points (the last store must be in the trace)
#   prog       fib with --trace-insn btm, cut: stores, records and the program flow
#   funnel     fib_mh_sram on 2 harts through the funnel, cut
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -eu
b=${1:?usage: cut_run_test.sh BUILD_DIR CASE}; case_=${2:?case}
sim=$b/tracesim; fw=$b/firmware
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case_): $*" >&2; exit 1; }
one() {   # cycles, elf, extra options...
  local n=$1 elf=$2; shift 2
  rm -rf "$tmp/r"
  local rc=0; "$sim" run -q --out "$tmp/r" --max-cycles "$n" "$@" "$elf" >/dev/null 2>&1 || rc=$?
  [ "$rc" = "$TS_EXIT_CYCLE_LIMIT" ] || fail "$n cycles: exit status $rc, expected 124 (the cycle limit)"
  "$sim" check "$tmp/r" > "$tmp/check.txt" 2>&1 || { cat "$tmp/check.txt" >&2; fail "check failed after a cut at $n cycles"; }
  if grep -q "missing" "$tmp/check.txt"; then cat "$tmp/check.txt" >&2; fail "stores missing after a cut at $n cycles"; fi
}
case $case_ in
  wrapped)
    for n in 100000 300000 1000000; do
      one $n "$fw/bench/bench_itc.elf"
      grep -q '"wrapped": true' "$tmp/r/trace.json" || fail "the buffer did not wrap at $n cycles"
      grep -q "overwritten when the buffer wrapped" "$tmp/check.txt" || fail "no wrap stated at $n cycles"
    done ;;
  sba)
    for n in 50000 60000; do
      one $n "$fw/examples/fib.elf"
      last=$(tail -1 "$tmp/r/itc.csv" | cut -d, -f6)
      "$sim" decode --format messages "$tmp/r" 2>/dev/null | tail -1 | grep -q "\"data\": $((last))," ||
        fail "the last store ($last) is not the trace's last message at $n cycles"
    done ;;
  prog)
    one 50000 "$fw/examples/fib.elf" --trace-insn btm
    grep -q "program flow: hart 0: .* equal what the core retired" "$tmp/check.txt" || fail "no program flow checked" ;;
  funnel)
    one 30000 "$fw/examples/fib_mh_sram.elf" --harts 2 --funnel
    [ "$(grep -c '^check: hart [01]: .* OK$' "$tmp/check.txt")" = 2 ] || { cat "$tmp/check.txt" >&2; fail "not both harts OK"; } ;;
  *) fail "unknown case" ;;
esac
echo "PASS: $case_"
