#!/usr/bin/env bash
# prog_trace_cost.sh BUILD_DIR - program trace figures (not a test: it prints them; the
# numbers go to docs/performance.md, Program trace):
#  * trace bandwidth: bits of program-trace messages (TCODE 3, 4, 9, 11, 12, 27, 28, 29, 33)
#    per traced instruction, and all trace bits (ITC/perf records included) per traced
#    instruction, for fib and timer_isr with `run --trace-insn btm|htm|htm-ret` (fib's 64 KiB
#    buffer fills with htm: the figures are then those of the part traced);
#  * per FIFO depth (--itc-depth): branch messages, lost ones and ITC stall cycles; with
#    --trace-stall the cycles the hart was held;
#  * host cost: callgrind instructions per simulated cycle of the same run with and without
#    --trace-insn btm (needs valgrind).
set -eu
b=${1:?usage: prog_trace_cost.sh BUILD_DIR}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for mode in btm htm htm-ret; do
for fw in fib timer_isr; do
  elf=$b/firmware/examples/$fw.elf
  "$b/tracesim" run -q --trace-insn $mode --trace-sram 4M -o "$tmp/$fw" "$elf" > /dev/null || true
  "$b/tracesim" decode "$tmp/$fw" > "$tmp/$fw.msgs" 2>/dev/null
  "$b/tracesim" decode -f elements --elf "$elf" "$tmp/$fw" 2>/dev/null |
    awk '/flow INSTR_RANGE/ { for (i = 1; i <= NF; i++) if ($i ~ /^n=/) n += substr($i, 3) } END { print n + 0 }' > "$tmp/$fw.n"
  python3 - "$tmp/$fw.msgs" "$(cat "$tmp/$fw.n")" "$fw" "$mode" <<'PY'
import json, sys
prog = alls = 0
for line in open(sys.argv[1]):
    m = json.loads(line)
    n = len(m["bytes"].split(":"))
    alls += n
    if m.get("tcode") in (3, 4, 9, 11, 12, 27, 28, 29, 33):
        prog += n
ins = int(sys.argv[2])
print("%-10s %-7s: %d traced instructions, program trace %d bytes = %.3f bits/instruction; all messages %d bytes = %.3f bits/instruction"
      % (sys.argv[3], sys.argv[4], ins, prog, 8.0 * prog / ins, alls, 8.0 * alls / ins))
PY
done
done
# FIFO depth: branch messages lost and ITC stall cycles (stats.txt), with perf records (fib,
# perf_overflow_0_1: stalling stores; itc_overflow: stores that do not poll) and without (the
# fib build with perf off)
echo "FIFO depth | firmware | cycles | branch messages | lost | ITC stall cycles"
for d in 1 2 4 8 16; do
  for fw in examples/fib examples/ovh_fib_off_sram_1 tests/perf_overflow_0_1 tests/itc_overflow; do
    "$b/tracesim" run -q --trace-insn btm --itc-depth $d --trace-sram 4M -o "$tmp/d" "$b/firmware/$fw.elf" > /dev/null 2>&1 || true
    awk -v d=$d -v fw="${fw#*/}" '{ v[$1] = $2 } END { printf "%d | %s | %s | %s | %s | %s\n", d, fw, v["cycles"],
        v["prog_messages"], v["prog_lost_messages"], v["itc_stall_cycles"] }' "$tmp/d/stats.txt"
  done
done
# the same with run --trace-stall: cycles the hart was held (te_stall_cycles, % of the run)
# and messages lost, BTM and event mode (docs/performance.md)
echo "mode | FIFO depth | firmware | cycles | held cycles | % | lost"
for mode in btm event; do
  for d in 1 2 4 8 16; do
    for fw in examples/fib examples/ovh_fib_off_sram_1; do
      "$b/tracesim" run -q --trace-insn $mode --trace-stall --itc-depth $d --trace-sram 4M -o "$tmp/d" "$b/firmware/$fw.elf" > /dev/null 2>&1 || true
      awk -v m=$mode -v d=$d -v fw="${fw#*/}" '{ v[$1] = $2 } END { printf "%s | %d | %s | %s | %s | %.2f | %s\n", m, d, fw,
          v["cycles"], v["te_stall_cycles"], 100 * v["te_stall_cycles"] / v["cycles"], v["prog_lost_messages"] }' "$tmp/d/stats.txt"
    done
  done
done
if command -v valgrind > /dev/null; then
  for mode in off btm; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$mode" "$b/tracesim" run -q --trace-insn $mode \
      -o "$tmp/cg-$mode" "$b/firmware/examples/fib.elf" > /dev/null 2> "$tmp/cg.$mode.err" || true
    ir=$(grep -m1 -o 'Collected : [0-9]*' "$tmp/cg.$mode.err" | awk '{print $3}')
    cyc=$(awk '$1 == "cycles" {print $2}' "$tmp/cg-$mode/stats.txt")
    echo "fib, --trace-insn $mode: $ir host instructions, $cyc cycles: $(awk -v i="$ir" -v c="$cyc" 'BEGIN {printf "%.1f", i / c}') per cycle"
  done
fi
