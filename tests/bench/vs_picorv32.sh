#!/usr/bin/env bash
# vs_picorv32.sh BUILD_DIR [RUNS] - tracesim side by side with a Verilated PicoRV32 (issue 26's
# comparison; not a test: it prints figures). Needs PICORV32=/path/to/picorv32.v (YosysHQ's
# source, fetched by you: nothing of it is in this project), verilator, riscv64-unknown-elf-gcc.
# The PicoRV32 (ENABLE_MUL, ENABLE_DIV, COMPRESSED_ISA, ENABLE_COUNTERS) is Verilated with the
# flags tracesim's core gets (-O3 --x-assign fast --x-initial fast, -O2 for the generated
# code, LTO) behind tests/bench/vs_picorv32/tb.cpp, and runs firmware/bench/bench_int_kernel.h
# (40 rounds: about 56 M of its cycles) built with the firmware's flags; tracesim runs
# bench_int.elf (the same kernel, 160 rounds: about 57 M cycles, waves off, every feature on).
# The PicoRV32's checksum is checked against the same kernel built for the host.
# Prints, alternating the two simulators RUNS times (default 5): median simulated cycles/s
# and retired instructions/s of each and their ratios; with valgrind: host instructions per
# simulated cycle and per retired instruction of each (callgrind, independent of the load).
# Then FST waves, the first 2 M cycles, medians of 3: tracesim with the views' signals and
# with every signal (--waves-all); the PicoRV32 (Verilator's FST writer, built with
# --trace-fst, one dump per cycle, every signal: Verilator 5.006 ignores trace()'s depth)
# plain and with the writer flushed every 512 cycles (its faster set-up): cycles/s and bytes
# per simulated cycle and per retired instruction.
set -eu
build=${1:?usage: PICORV32=/path/picorv32.v vs_picorv32.sh BUILD_DIR [RUNS]}
runs=${2:-5}
pico=${PICORV32:?set PICORV32 to the path of picorv32.v}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/vs_picorv32
kern=$here/../../firmware/bench
[ -r "$pico" ] || { echo "vs_picorv32.sh: cannot read $pico" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fw() {   # rounds out.bin: the kernel for the PicoRV32
  riscv64-unknown-elf-gcc -march=rv32imc -mabi=ilp32 -O2 -ffreestanding -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments \
    -I"$kern" -DROUNDS="$1" -T "$src/link.ld" "$src/crt.S" "$src/main.c" -o "$tmp/k.elf"
  riscv64-unknown-elf-objcopy -O binary "$tmp/k.elf" "$2"
}
fw 40 "$tmp/k40.bin"
fw 2 "$tmp/k2.bin"
cc -O2 -I"$kern" -DROUNDS=40 "$src/main.c" -o "$tmp/host40"
echo "building the Verilated PicoRV32 ..." >&2
verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint -Wno-style \
  -GENABLE_MUL=1 -GENABLE_DIV=1 -GCOMPRESSED_ISA=1 -GENABLE_COUNTERS=1 \
  -CFLAGS "-O2 -flto" -LDFLAGS "-O2 -flto" -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O2 OPT_GLOBAL=-O2" \
  --top-module picorv32 -Mdir "$tmp/obj" "$pico" "$src/tb.cpp" > "$tmp/build.log" 2>&1 ||
  { tail -20 "$tmp/build.log" >&2; echo "vs_picorv32.sh: the PicoRV32 build failed" >&2; exit 1; }
vp=$tmp/obj/Vpicorv32
want=$("$tmp/host40" | awk '{print $2}')
got=$("$vp" "$tmp/k40.bin" | awk '{print $2}')
[ "$want" = "$got" ] || { echo "vs_picorv32.sh: PicoRV32 checksum $got, the host's $want" >&2; exit 1; }
echo "tracesim vs Verilated PicoRV32 ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg))"
grep -qs '^TRACESIM_PGO:STRING=USE' "$build/CMakeCache.txt" && echo "(tracesim: profile-guided build)"
stat() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
: > "$tmp/ts"; : > "$tmp/pv"
for i in $(seq "$runs"); do
  "$build/tracesim" run -q --out "$tmp/r" "$build/firmware/bench/bench_int.elf" > /dev/null
  awk -v c="$(stat cycles "$tmp/r/stats.txt")" -v n="$(stat instret "$tmp/r/stats.txt")" \
      -v s="$(stat sim_seconds "$tmp/r/stats.txt")" 'BEGIN {print c/s/1e6, n/s/1e6, c, n}' >> "$tmp/ts"
  "$vp" "$tmp/k40.bin" | awk '{print $4/$8/1e6, $6/$8/1e6, $4, $6}' >> "$tmp/pv"
done
med() { sort -n -k"$2" "$1" | awk -v k="$2" '{v[NR] = $k} END {print v[int((NR + 1) / 2)]}'; }
tc=$(med "$tmp/ts" 1); ti=$(med "$tmp/ts" 2); pc=$(med "$tmp/pv" 1); pi=$(med "$tmp/pv" 2)
awk -v tc="$tc" -v ti="$ti" -v pc="$pc" -v pi="$pi" -v r="$runs" \
    -v tl="$(head -1 "$tmp/ts")" -v pl="$(head -1 "$tmp/pv")" 'BEGIN {
  split(tl, t, " "); split(pl, p, " ")
  printf "tracesim bench_int:   %d cycles, %d instructions (CPI %.2f)\n", t[3], t[4], t[3] / t[4]
  printf "PicoRV32 same kernel: %d cycles, %d instructions (CPI %.2f)\n", p[3], p[4], p[3] / p[4]
  printf "median of %d, alternating: tracesim %.2f M cycles/s %.2f M instr/s | PicoRV32 %.2f M cycles/s %.2f M instr/s\n", r, tc, ti, pc, pi
  printf "ratio: %.2fx cycles/s, %.2fx instructions/s\n", tc / pc, ti / pi }'
if command -v valgrind > /dev/null 2>&1; then
  ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null | sed -n 's/.*Collected : //p'; }
  tir=$(ir "$build/tracesim" run -q --out "$tmp/c" --max-cycles 2000000 "$build/firmware/bench/bench_int.elf")
  pir=$(ir "$vp" "$tmp/k2.bin")
  read -r pcy pin < <("$vp" "$tmp/k2.bin" | awk '{print $4, $6}')
  awk -v ti="$tir" -v tc="$(stat cycles "$tmp/c/stats.txt")" -v tn="$(stat instret "$tmp/c/stats.txt")" \
      -v pi="$pir" -v pc="$pcy" -v pn="$pin" 'BEGIN {
    printf "host instructions (callgrind) per cycle: tracesim %.0f (first 2 M cycles), PicoRV32 %.0f (%d cycles): %.2fx\n", ti / tc, pi / pc, pc, (pi / pc) / (ti / tc)
    printf "per retired instruction: tracesim %.0f, PicoRV32 %.0f: %.2fx\n", ti / tn, pi / pn, (pi / pn) / (ti / tn) }'
fi

# ---- FST waves, first 2 M cycles
echo "building the Verilated PicoRV32 with --trace-fst ..." >&2
verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast --trace-fst -Wno-fatal -Wno-lint -Wno-style \
  -GENABLE_MUL=1 -GENABLE_DIV=1 -GCOMPRESSED_ISA=1 -GENABLE_COUNTERS=1 \
  -CFLAGS "-O2 -flto -DTB_FST" -LDFLAGS "-O2 -flto" -MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O2 OPT_GLOBAL=-O2" \
  --top-module picorv32 -Mdir "$tmp/objf" "$pico" "$src/tb.cpp" > "$tmp/buildf.log" 2>&1 ||
  { tail -20 "$tmp/buildf.log" >&2; echo "vs_picorv32.sh: the PicoRV32 FST build failed" >&2; exit 1; }
max=2000000
# the instructions of the PicoRV32's first 2 M cycles, from its CPI over the whole kernel
pcpi=$(head -1 "$tmp/pv" | awk '{print $3 / $4}')
fst_line() {   # label, "cycles/s list", bytes, instructions
  echo "$2" | tr ' ' '\n' | grep . | sort -n | awk -v l="$1" -v b="$3" -v n="$4" -v c="$max" '
    { v[NR] = $1 } END { printf "%-44s median %5.2f M cycles/s  %6.2f B/cycle %6.2f B/instruction\n", l, v[int((NR + 1) / 2)], b / c, b / n }'
}
for all in "" --waves-all; do
  list=""
  for i in 1 2 3; do
    rm -f "$tmp/w.fst"
    "$build/tracesim" run -q --out "$tmp/r" --max-cycles "$max" --waves "$tmp/w.fst" $all "$build/firmware/bench/bench_int.elf" > /dev/null 2>&1 || true
    list="$list $(awk -v c="$(stat cycles "$tmp/r/stats.txt")" -v s="$(stat sim_seconds "$tmp/r/stats.txt")" 'BEGIN {print c / s / 1e6}')"
  done
  label="the views' signals"; [ -n "$all" ] && label="every signal (--waves-all)"
  fst_line "tracesim FST, $label" "$list" "$(wc -c < "$tmp/w.fst")" "$(stat instret "$tmp/r/stats.txt")"
done
for flush in 0 512; do
  list=""
  for i in 1 2 3; do
    rm -f "$tmp/p.fst"
    list="$list $("$tmp/objf/Vpicorv32" "$tmp/k40.bin" "$tmp/p.fst" 99 "$flush" "$max" | awk '{print $4 / $8 / 1e6}')"
  done
  fst_line "PicoRV32 FST, every signal, $([ "$flush" = 0 ] && echo plain || echo "flush every $flush")" \
    "$list" "$(wc -c < "$tmp/p.fst")" "$(awk -v m="$max" -v c="$pcpi" 'BEGIN {printf "%d", m / c}')"
done
