#!/usr/bin/env bash
# pgo_build.sh BUILD_DIR [CMAKE_ARGS...] - profile-guided build of the simulator (GCC).
# 1. configures BUILD_DIR with -DTRACESIM_PGO=GENERATE (cmake/pgo.cmake) and builds tracesim,
#    tracesim-sc (when SystemC is found) and the firmware with instrumented host code;
# 2. runs the training set, which writes .gcda profiles next to the objects:
#      bench_int (3 M cycles, waves off), bench_itc (ITC stores, 2 M cycles), fib with the
#      perf library (fib_raw_sram_8) and with program trace (--trace-insn btm), FST waves of
#      bench_int (the views' signals, 400 k cycles; every signal, 200 k cycles), tracesim-sc on
#      bench_int (1 M cycles);
# 3. configures BUILD_DIR again with -DTRACESIM_PGO=USE and rebuilds the same targets with the
#    profiles. Other targets built later in BUILD_DIR get -fprofile-use too (untrained code is
#    optimised as without a profile: -fprofile-partial-training).
# The result runs the same cycles and writes the same bytes as the default build; only speed
# differs (docs/performance.md#profile-guided-build). Use a build folder of its own, e.g.
#   tests/bench/pgo_build.sh build-pgo
# (ccache is not used for these objects: cmake/pgo.cmake says why). About twice the time of
# building tracesim once, plus about a minute of training.
set -eu
build=${1:?usage: pgo_build.sh BUILD_DIR [CMAKE_ARGS...]}
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
jobs=${PGO_JOBS:-2}
targets() { # the simulators that exist in this configuration, and the firmware
  echo tracesim firmware
  if grep -q '^SYSTEMC_FOUND:INTERNAL=1' "$build/CMakeCache.txt" 2>/dev/null; then echo tracesim-sc; fi
}

echo "pgo_build: 1/3 instrumented build in $build" >&2
cmake -S "$src" -B "$build" -DTRACESIM_PGO=GENERATE "$@" > /dev/null
# shellcheck disable=SC2046
cmake --build "$build" -j"$jobs" --target $(targets) > "$build/pgo_generate.log" 2>&1 ||
  { tail -20 "$build/pgo_generate.log" >&2; echo "pgo_build: the instrumented build failed ($build/pgo_generate.log)" >&2; exit 1; }
find "$build" -name '*.gcda' -delete        # profiles of an earlier training

echo "pgo_build: 2/3 training" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fw=$build/firmware
train() {   # simulator args...: one training run; a failing run stops the build
  local rc=0
  "$@" > "$tmp/log" 2>&1 || rc=$?
  # 124: the cycle limit (--max-cycles) ended the run, as intended for the long benchmarks
  if [ "$rc" != 0 ] && [ "$rc" != 124 ]; then
    echo "pgo_build: training run failed (exit $rc): $*" >&2; cat "$tmp/log" >&2; exit 1
  fi
}
sim=$build/tracesim
train "$sim" run -q --max-cycles 3000000 -o "$tmp/r" "$fw/bench/bench_int.elf"
train "$sim" run -q --max-cycles 2000000 -o "$tmp/r" "$fw/bench/bench_itc.elf"
train "$sim" run -q -o "$tmp/r" "$fw/examples/fib_raw_sram_8.elf"
train "$sim" run -q --trace-insn btm -o "$tmp/r" "$fw/examples/fib.elf"
train "$sim" run -q --max-cycles 400000 --waves "$tmp/w.fst" -o "$tmp/r" "$fw/bench/bench_int.elf"
train "$sim" run -q --max-cycles 200000 --waves "$tmp/w.fst" --waves-all -o "$tmp/r" "$fw/bench/bench_int.elf"
if [ -x "$build/tracesim-sc" ]; then
  train "$build/tracesim-sc" -q --max-cycles 1000000 -o "$tmp/r" "$fw/bench/bench_int.elf"
fi
n=$(find "$build" -name '*.gcda' | wc -l)
if [ "$n" = 0 ]; then echo "pgo_build: the training wrote no profile (.gcda)" >&2; exit 1; fi

echo "pgo_build: 3/3 optimised build with $n profiles" >&2
cmake -S "$src" -B "$build" -DTRACESIM_PGO=USE "$@" > /dev/null
# shellcheck disable=SC2046
cmake --build "$build" -j"$jobs" --target $(targets) > "$build/pgo_use.log" 2>&1 ||
  { tail -20 "$build/pgo_use.log" >&2; echo "pgo_build: the optimised build failed ($build/pgo_use.log)" >&2; exit 1; }
# a profile GCC cannot match to its function is ignored with a warning: that is no PGO at all
if grep -q 'coverage-mismatch' "$build/pgo_use.log"; then
  echo "pgo_build: GCC ignored profiles that do not match the sources ($build/pgo_use.log)" >&2; exit 1
fi
echo "pgo_build: done: $build/tracesim" >&2
