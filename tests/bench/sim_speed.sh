#!/usr/bin/env bash
# sim_speed.sh BUILD_DIR [RUNS] - simulator speed benchmark (not a test: it prints figures).
# Runs firmware/bench/bench_int.c (about 57 M cycles of loads, stores, branches, mul/div)
# with waves off, then the first 2 M cycles of it with FST waves on, RUNS times each
# (default 3), and prints the best and median simulated cycles/s and instructions/s (with
# waves: cycles/s of wall time and per CPU second, bytes of FST per cycle and per instruction).
# Then the cost of the trace model: bench_int (trace idle) and bench_itc (an ITC store every
# ~11 cycles, 16.5 M cycles) with the model attached and with --no-trace. Then several harts:
# every hart runs bench_int (they contend for the RAM), the first 5 M cycles, N = 1, 2, 4:
# simulated cycles/s and hart-cycles/s (cycles x N per second).
# With valgrind installed, host instructions (callgrind, independent of the machine and its
# load) per simulated cycle and per retired instruction: waves off (first 1 M cycles, 1/2/4
# harts), tracesim-sc, FST with the views' signals and with every signal (first 200 k cycles),
# and the trace model's cost. The first line names the CPU, the date and the load average.
set -eu
build=${1:?usage: sim_speed.sh BUILD_DIR [RUNS]}
runs=${2:-3}
sim=$build/tracesim
elf=$build/firmware/bench/bench_int.elf
itc=$build/firmware/bench/bench_itc.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

stat() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
measure() {   # label, extra args... (the ELF is $elf; $runner: the simulator command)
  local label=$1; shift
  local list=""
  for i in $(seq "$runs"); do
    $runner -q --out "$tmp/r" "$@" "$elf" >/dev/null 2>&1 || true
    local c s n
    c=$(stat cycles "$tmp/r/stats.txt"); n=$(stat instret "$tmp/r/stats.txt"); s=$(stat sim_seconds "$tmp/r/stats.txt")
    list="$list $(awk -v c="$c" -v n="$n" -v s="$s" 'BEGIN {printf "%.3f:%.3f", c/s/1e6, n/s/1e6}')"
    [ "$i" = 1 ] && echo "  $label: $c cycles, $n instructions per run" >&2
  done
  echo "$list" | tr ' ' '\n' | grep . | sort -t: -k1 -n | awk -F: -v label="$label" '
    { c[NR] = $1; n[NR] = $2 }
    END { m = int((NR + 1) / 2);
          printf "%-24s best %6.2f M cycles/s %6.2f M instr/s | median %6.2f M cycles/s %6.2f M instr/s (%d runs)\n",
                 label, c[NR], n[NR], c[m], n[m], NR }'
}
echo "tracesim simulator speed ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg))"
if grep -qs '^TRACESIM_PGO:STRING=USE' "$build/CMakeCache.txt"; then echo "(profile-guided build: tests/bench/pgo_build.sh)"; fi
runner="$sim run"
measure "waves off" --max-cycles 0
if [ -x "$build/tracesim-sc" ]; then   # the SystemC/TLM-2.0 platform, same ELF
  runner=$build/tracesim-sc
  measure "tracesim-sc, waves off" --max-cycles 0
  runner="$sim run"
fi
# FST waves: also the CPU time (user + sys, every thread) and the file's bytes per simulated
# cycle and per retired instruction (docs/performance-waves.md)
measure_fst() {   # label, extra args...
  local label=$1; shift
  local list="" c n s cpu sz
  for i in $(seq "$runs"); do
    rm -f "$tmp/w.fst"
    cpu=$( { TIMEFORMAT='%U %S'; time $runner -q --out "$tmp/r" "$@" --waves "$tmp/w.fst" "$elf" >/dev/null 2>&1 || true; } 2>&1 | awk '{print $1 + $2}')
    c=$(stat cycles "$tmp/r/stats.txt"); n=$(stat instret "$tmp/r/stats.txt"); s=$(stat sim_seconds "$tmp/r/stats.txt")
    sz=$(wc -c < "$tmp/w.fst")
    list="$list $(awk -v c="$c" -v s="$s" -v cpu="$cpu" 'BEGIN {printf "%.3f:%.3f", c/s/1e6, c/cpu/1e6}')"
    [ "$i" = 1 ] && echo "  $label: $c cycles, $n instructions, $sz bytes of FST per run" >&2
  done
  local wall cpus
  wall=$(echo "$list" | tr ' ' '\n' | grep . | cut -d: -f1 | sort -n | awk '{v[NR] = $1} END {print v[NR], v[int((NR + 1) / 2)]}')
  cpus=$(echo "$list" | tr ' ' '\n' | grep . | cut -d: -f2 | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
  awk -v label="$label" -v wall="$wall" -v cpus="$cpus" -v c="$c" -v n="$n" -v sz="$sz" -v runs="$runs" 'BEGIN {
    split(wall, w, " ");
    printf "%-24s best %6.2f median %6.2f M cycles/s (wall), median %6.2f M cycles per CPU second | %5.2f B/cycle %5.2f B/instr (%d runs)\n",
           label, w[1], w[2], cpus, sz / c, sz / n, runs }'
}
measure_fst "FST, views' signals (2M)" --max-cycles 2000000
measure_fst "FST, every signal (2M)" --max-cycles 2000000 --waves-all

best() {      # ELF, extra args...: best simulated cycles/s over the runs
  local e=$1; shift
  for i in $(seq "$runs"); do
    "$sim" run -q --out "$tmp/r" "$@" "$e" >/dev/null 2>&1 || true
    stat sim_hz "$tmp/r/stats.txt"
  done | sort -n | tail -1
}
cost() {      # label, ELF
  local on off
  on=$(best "$2"); off=$(best "$2" --no-trace)
  awk -v l="$1" -v on="$on" -v off="$off" 'BEGIN {
    printf "%-24s %6.2f M cycles/s with the trace model, %6.2f M without: cost %.1f%%\n",
           l, on / 1e6, off / 1e6, (off / on - 1) * 100 }'
}
cost "trace model idle" "$elf"
cost "trace model, ITC load" "$itc"
for n in 1 2 4; do
  hz=$(best "$elf" --harts $n --max-cycles 5000000)
  awk -v n=$n -v hz="$hz" 'BEGIN {
    printf "%d hart(s), bench_int 5 M cycles: best %6.2f M cycles/s, %6.2f M hart-cycles/s\n", n, hz / 1e6, hz * n / 1e6 }'
done
# Host instructions (valgrind callgrind) are repeatable where wall time on a shared machine is
# not: the cost of the trace model as extra host instructions over the first 1 M cycles.
if command -v valgrind >/dev/null 2>&1; then
  instr() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$sim" run -q --max-cycles 1000000 \
      --out "$tmp/r" "$@" 2>&1 | awk '/Collected/ {print $NF}'
  }
  for n in 1 2 4; do
    i=$(instr --harts $n "$elf")
    r=$(stat instret "$tmp/r/stats.txt")
    awk -v n=$n -v i="$i" -v r="$r" 'BEGIN {
      printf "%d hart(s): %5.0f host instructions per cycle, %5.0f per hart-cycle, %5.0f per retired instruction (callgrind)\n",
             n, i / 1e6, i / 1e6 / n, i / r }'
  done
  if [ -x "$build/tracesim-sc" ]; then
    i=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$build/tracesim-sc" -q --max-cycles 1000000 \
      --out "$tmp/r" "$elf" 2>&1 | awk '/Collected/ {print $NF}')
    r=$(stat instret "$tmp/r/stats.txt")
    awk -v i="$i" -v r="$r" 'BEGIN { printf "tracesim-sc: %5.0f host instructions per cycle, %5.0f per retired instruction (callgrind)\n", i / 1e6, i / r }'
  fi
  # FST waves, the first 200 k cycles (the fixed start-up and the FST set-up are in the totals)
  fst_instr() {   # label, extra args...
    local l=$1 i c r; shift
    i=$(instr --max-cycles 200000 --waves "$tmp/cg.fst" "$@" "$elf")
    c=$(stat cycles "$tmp/r/stats.txt"); r=$(stat instret "$tmp/r/stats.txt")
    awk -v l="FST, $l" -v i="$i" -v c="$c" -v r="$r" 'BEGIN {
      printf "%-24s %5.0f host instructions per cycle, %5.0f per retired instruction (callgrind, 200 k cycles)\n", l, i / c, i / r }'
  }
  fst_instr "views' signals"
  fst_instr "every signal" --waves-all
  for e in "$elf:trace model idle" "$itc:trace model, ITC load"; do
    on=$(instr "${e%%:*}"); off=$(instr --no-trace "${e%%:*}")
    awk -v l="${e#*:}" -v on="$on" -v off="$off" 'BEGIN {
      printf "%-24s %5.0f host instructions per cycle with the model, %5.0f without: cost %.1f%% (callgrind)\n",
             l, on / 1e6, off / 1e6, (on / off - 1) * 100 }'
  done
fi
