#!/usr/bin/env bash
# flow_speed.sh BUILD_DIR [CAPTURES] - program-flow reconstruction speed (not a test: it prints
# figures). On the real E31 capture (748 bytes of HTM trace, 34 342 instructions) with its ELF:
# the library to elements and to the --format instr listing (tests/bench/flow_bench.c, the
# trace decoded 300 times a pass, best of 3), then the `tracesim decode --format instr` command
# itself, 20 runs, start-up and ELF loading included.
set -eu
b=${1:?usage: flow_speed.sh BUILD_DIR [CAPTURES]}
caps=${2:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/captures}
elf=$caps/e31_hello_debug.elf
rtd=$caps/e31_hello_debug.rtd
"$b/tests/bench/flow_bench" "$elf" "$rtd" 300
t0=$(date +%s.%N)
for _ in $(seq 20); do "$b/tracesim" decode -f instr --elf "$elf" "$rtd" >/dev/null; done
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "tracesim decode -f instr:  %.1f M instructions/s (20 x 34342 instructions in %.3f s, start-up included)\n", 20 * 34342 / (b - a) / 1e6, b - a }'
