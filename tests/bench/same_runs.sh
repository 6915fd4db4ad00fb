#!/usr/bin/env bash
# same_runs.sh BUILD_A BUILD_B - do two builds of the simulator (say the default one and the
# profile-guided one of tests/bench/pgo_build.sh) run the same cycles and write the same bytes?
# Runs a set of firmware with each build (BUILD_A's firmware for both, the same output paths)
# and compares the run folders file by file: every file equal, but stats.txt's wall-clock
# lines (sim_*) and the FST header's date (the FST files are compared as VCD from fst2vcd
# without $date). Prints one line per run; exit 1 if any differs.
set -eu
a=${1:?usage: same_runs.sh BUILD_A BUILD_B}
b=${2:?usage: same_runs.sh BUILD_A BUILD_B}
fw=$a/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
n=0
one() {   # simulator args (WFST: the FST file)...
  n=$((n + 1))
  local s d
  for s in a b; do
    d=$tmp/$s.$n
    rm -rf "$tmp/run" "$tmp/w.fst"
    local sim=$a/tracesim; [ $s = b ] && sim=$b/tracesim
    local args=()
    for x in "$@"; do [ "$x" = WFST ] && args+=("$tmp/w.fst") || args+=("$x"); done
    local rc=0
    "$sim" run -q "${args[@]}" -o "$tmp/run" > "$tmp/out" 2>&1 || rc=$?
    mv "$tmp/run" "$d"
    { cat "$tmp/out"; echo "exit $rc"; } > "$d/stdout"
    # shellcheck disable=SC2016  # a literal $date / $end in the VCD
    if [ -f "$tmp/w.fst" ]; then fst2vcd "$tmp/w.fst" | sed '/^\$date/,/\$end/d' > "$d/w.vcd"; fi
    grep -v '^sim_' "$d/stats.txt" > "$d/stats.nowall"; rm "$d/stats.txt"
  done
  if diff -r "$tmp/a.$n" "$tmp/b.$n" > "$tmp/diff"; then
    echo "same ($(find "$tmp/a.$n" -type f | wc -l) files): $*"
  else
    echo "DIFFERENT: $*"; head -20 "$tmp/diff"; bad=1
  fi
}
command -v fst2vcd > /dev/null || { echo "same_runs.sh: needs fst2vcd (Debian package gtkwave)" >&2; exit 1; }
one --max-cycles 3000000 "$fw/bench/bench_int.elf"
one --max-cycles 2000000 "$fw/bench/bench_itc.elf"
one "$fw/examples/fib_raw_sram_8.elf"
one --trace-insn btm "$fw/examples/fib.elf"
one --trace-insn htm-ret "$fw/examples/timer_isr.elf"
one --trace-insn event --harts 2 "$fw/examples/fib_mh_sram.elf"
one --max-cycles 300000 --waves WFST "$fw/bench/bench_int.elf"
one --max-cycles 100000 --waves-all --waves WFST "$fw/bench/bench_int.elf"
one --harts 2 --max-cycles 50000 --waves WFST "$fw/tests/itc_harts.elf"
exit $bad
