#!/usr/bin/env bash
# same_outputs.sh BUILD_A BUILD_B - do two builds' host commands (decode, check, report,
# waves --no-open's markers, help) give the same output on the same run folders? Makes a
# set of run folders with BUILD_B's simulator (BUILD_A's firmware), then runs each command
# with both builds' tracesim and compares stdout, stderr and the exit status byte for byte
# (the program name in messages is the same: both are called as .../tracesim). A companion
# of same_runs.sh (which compares the simulator's run folders). Exit 1 if any differs.
set -u
a=$(cd "${1:?usage: same_outputs.sh BUILD_A BUILD_B}" && pwd)
b=$(cd "${2:?usage: same_outputs.sh BUILD_A BUILD_B}" && pwd)
fw=$a/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0
mkrun() {   # NAME simulator args...
  local name=$1; shift
  "$b/tracesim" run -q "$@" -o "$tmp/$name" > /dev/null 2>&1 || true
}
cmp_cmd() {   # command args... (the run folder as given)
  n=$((n + 1))
  local s
  for s in a b; do
    local sim=$a/tracesim; [ $s = b ] && sim=$b/tracesim
    (cd "$tmp" && "$sim" "$@" > "$tmp/$s.out" 2> "$tmp/$s.err"; echo "exit $?" >> "$tmp/$s.err")
  done
  if cmp -s "$tmp/a.out" "$tmp/b.out" && cmp -s "$tmp/a.err" "$tmp/b.err"; then
    echo "same ($(wc -c < "$tmp/a.out") bytes, $(tail -1 "$tmp/a.err")): $*"
  else
    echo "DIFFERENT: $*"; diff "$tmp/a.out" "$tmp/b.out" | head -5; diff "$tmp/a.err" "$tmp/b.err" | head -5; bad=1
  fi
}
mkrun fib "$fw/examples/fib_raw_sram_8.elf"
mkrun fibd "$fw/examples/fib_delta_sba_1.elf"
mkrun btm --trace-insn btm "$fw/examples/fib.elf"
mkrun isr --trace-insn htm-ret "$fw/examples/timer_isr.elf"
mkrun mh --trace-insn event --harts 2 "$fw/examples/fib_mh_sram.elf"
mkrun man "$fw/examples/manual_mh_stop_sram.elf"
for r in fib fibd btm isr mh man; do
  for f in messages elements csv timeline stm text; do cmp_cmd decode -f "$f" "$r"; done
  cmp_cmd check "$r"
  cmp_cmd report "$r"
  cmp_cmd report -f csv "$r"
done
for f in instr elements; do cmp_cmd decode -f "$f" btm; cmp_cmd decode -f "$f" isr; done
cmp_cmd report --flow btm
cmp_cmd --help
for c in run decode check report overhead waves symfilter stmfilter sweep tracesim-sc; do
  cmp_cmd help "$c"; cmp_cmd help --markdown "$c"
done
cmp_cmd help nosuch
cmp_cmd nosuch
cmp_cmd decode --nosuch fib
echo "$n comparisons"
exit $bad
