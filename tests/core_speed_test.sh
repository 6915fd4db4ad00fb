#!/usr/bin/env bash
# core_speed_test.sh BUILD_DIR - the simulator's cost per simulated cycle does not creep back
# up: callgrind counts the host instructions of `tracesim run` over the first 200 000 cycles
# of bench_int (waves off, every other feature on, start-up included; a count, independent
# of the machine's load) and the test fails when they exceed the budget per cycle: the figure
# measured when the core was last made faster (docs/performance.md "Simulator speed": 1513.6
# per cycle over 2 M cycles) plus about 10 % for other compilers and start-up. Exit 77
# (skipped) without valgrind.
set -u
b=$1
budget=1700
command -v valgrind > /dev/null || { echo "skipped: no valgrind"; exit 77; }
out=$b/test-runs/core_speed
rm -rf "$out"; mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "$b/tracesim" run -q \
  --out "$out/r" --max-cycles 200000 "$b/firmware/bench/bench_int.elf" > /dev/null 2> "$out/stderr"
rc=$?
[ "$rc" = 124 ] || fail "tracesim exited $rc, expected 124 (cycle limit): $(tail -3 "$out/stderr")"
cycles=$(awk '$1 == "cycles" {print $2}' "$out/r/stats.txt")
[ "$cycles" = 200000 ] || fail "stats.txt says $cycles cycles, expected 200000"
ir=$(grep -o 'refs: *[0-9,]*' "$out/stderr" | tr -d , | awk '{print $2}')
[ -n "$ir" ] || fail "no instruction count from callgrind: $(tail -3 "$out/stderr")"
per=$(awk -v ir="$ir" -v c="$cycles" 'BEGIN {printf "%.1f", ir / c}')
awk -v p="$per" -v b="$budget" 'BEGIN {exit !(p <= b)}' ||
  fail "$per host instructions per simulated cycle, budget $budget (docs/performance.md)"
echo "ok: $per host instructions per simulated cycle (budget $budget)"
