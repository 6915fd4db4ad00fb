#!/usr/bin/env bash
# sc_replay_test.sh BUILD NAME FW.elf [tracesim run options] -- [replay options]: records the
# trace subsystem's bus traffic of a `tracesim run` (--record-trace-bus) and replays it into
# the loosely-timed modules (ts_replay_test) with a global quantum of 1 and of 1000 cycles;
# each replay must give the run's trace.rtd byte for byte (ts_replay_test.cpp says what else
# it checks).
set -u
build=$1; name=$2; elf=$3; shift 3
run=(); while [ $# -gt 0 ] && [ "$1" != "--" ]; do run+=("$1"); shift; done
[ $# -gt 0 ] && shift
runs=$build/test-runs/sc_replay/$name
rm -rf "$runs"; mkdir -p "$runs"
"$build/tracesim" run -q -o "$runs" --record-trace-bus "$runs/trace_bus.log" "${run[@]}" "$elf" || { echo "the run failed"; exit 1; }
[ -s "$runs/trace.rtd" ] || { echo "the run left no trace.rtd"; exit 1; }
for q in 1 1000; do
  "$build/sim/systemc/ts_replay_test" "$runs/trace_bus.log" "$runs/trace.rtd" $q "$@" || exit 1
done
