#!/usr/bin/env bash
# same_runs.sh [--all] BUILD_A BUILD_B - do two builds of the simulator (say the default one
# and the profile-guided one of tests/bench/pgo_build.sh, or one built on Debian 12 and one on
# Debian 13, or a commit before and after a change) run the same cycles and write the same
# bytes? Runs firmware with each build (BUILD_A's firmware for both, the same output paths)
# and compares the run folders file by file: every file equal, but stats.txt's wall-clock
# lines (sim_*) and the FST header's date (the FST files are compared as VCD from fst2vcd
# without $date). Exit 1 if any differs.
#   default  a set of runs (waves, harts, trace modes): one line per run.
#   --all    every ELF under BUILD_A/firmware (the firmware, tests and benchmarks the build
#            makes), each `tracesim run -q --max-cycles 2000000 ELF` with both builds (no
#            waves): exit statuses, stdout/stderr and run folders compared; one line per
#            difference, then the counts: ELFs, run folders, files compared, identical.
# SAME_RUNS_WRAP_B="chroot /work/deb13" (a command prefix, split on blanks) runs BUILD_B's
# simulator through it, e.g. a Debian 13 build in a chroot that sees the same paths (then
# give TMPDIR a folder both see: the run folders are written there). Absolute paths are used.
set -eu
all=0
[ "${1:-}" = --all ] && { all=1; shift; }
usage="usage: same_runs.sh [--all] BUILD_A BUILD_B"
a=${1:?$usage}
b=${2:?$usage}
for d in "$a" "$b"; do [ -x "$d/tracesim" ] || { echo "same_runs.sh: no simulator $d/tracesim" >&2; exit 1; }; done
a=$(cd "$a" && pwd); b=$(cd "$b" && pwd)
read -r -a wrap_b <<< "${SAME_RUNS_WRAP_B:-}"
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
    local sim=("$a/tracesim"); [ $s = b ] && sim=("${wrap_b[@]}" "$b/tracesim")
    local args=()
    for x in "$@"; do [ "$x" = WFST ] && args+=("$tmp/w.fst") || args+=("$x"); done
    local rc=0
    "${sim[@]}" run -q "${args[@]}" -o "$tmp/run" > "$tmp/out" 2>&1 || rc=$?
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
# --all: every ELF of BUILD_A, up to 2 M cycles each
if [ $all = 1 ]; then
  nelf=0 nfold=0 nfiles=0 nsame=0
  while IFS= read -r elf; do
    nelf=$((nelf + 1))
    for s in a b; do
      rm -rf "$tmp/run"
      sim=("$a/tracesim"); [ $s = b ] && sim=("${wrap_b[@]}" "$b/tracesim")
      rc=0
      "${sim[@]}" run -q --max-cycles 2000000 -o "$tmp/run" "$elf" > "$tmp/$s.out" 2>&1 || rc=$?
      echo "exit $rc" >> "$tmp/$s.out"
      rm -rf "$tmp/$s"
      if [ -d "$tmp/run" ]; then
        mv "$tmp/run" "$tmp/$s"
        if [ -f "$tmp/$s/stats.txt" ]; then
          grep -v '^sim_' "$tmp/$s/stats.txt" > "$tmp/$s/stats.nowall"; rm "$tmp/$s/stats.txt"
        fi
      fi
    done
    rel=${elf#"$fw"/}
    cmp -s "$tmp/a.out" "$tmp/b.out" || { echo "DIFFERENT output or exit status: $rel"; diff "$tmp/a.out" "$tmp/b.out" | head -5; bad=1; }
    if [ -d "$tmp/a" ] || [ -d "$tmp/b" ]; then
      [ -d "$tmp/a" ] && [ -d "$tmp/b" ] || { echo "DIFFERENT: $rel: a run folder from one build only"; bad=1; continue; }
      nfold=$((nfold + 1))
      while IFS= read -r f; do
        nfiles=$((nfiles + 1))
        if [ -f "$tmp/a/$f" ] && [ -f "$tmp/b/$f" ] && cmp -s "$tmp/a/$f" "$tmp/b/$f"; then
          nsame=$((nsame + 1))
        else
          echo "DIFFERENT: $rel: $f"; bad=1
        fi
      done < <(cd "$tmp" && { find a -type f | sed 's|^a/||'; find b -type f | sed 's|^b/||'; } | LC_ALL=C sort -u)
    fi
  done < <(find "$fw" -name '*.elf' -type f | LC_ALL=C sort)
  [ $nelf -gt 0 ] || { echo "same_runs.sh: no ELF under $fw" >&2; exit 1; }
  echo "same_runs --all: $nelf ELFs, $nfold run folders, $nfiles files compared, $nsame identical" \
       "(stats.txt without its sim_* lines)$([ $bad = 0 ] && echo ", no difference")"
  exit $bad
fi
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
