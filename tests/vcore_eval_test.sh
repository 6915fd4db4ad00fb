#!/usr/bin/env bash
# vcore_eval_test.sh BUILD_DIR VERILATOR_VERSION - the core model's direct evaluation
# (sim/vcore.cpp: vcore_eval calls the generated region functions itself on the Verilator
# versions whose eval_step it has been written for) against Verilator's own eval():
#   * TRACESIM_VCORE_EVAL=show says which one each model used: the direct evaluation on
#     5.006 and 5.032, eval() on any other version (the fallback);
#   * each run below gives byte-identical run folders (stats.txt but its wall-time lines)
#     with the direct evaluation and with
#     TRACESIM_VCORE_EVAL=generic (eval() on every cycle): interrupts and traps, caches, the
#     SBI firmware's privilege changes with event trace, 2 harts with program trace, ITC
#     through the SBA sink, RAM wait states.
set -u
b=$1; ver=$2
ts=$b/tracesim; fw=$b/firmware
out=$b/test-runs/vcore_eval
fail() { echo "FAIL (vcore eval): $*"; exit 1; }
rm -rf "$out"; mkdir -p "$out"

TRACESIM_VCORE_EVAL=show "$ts" run -q -o "$out/show" "$fw/examples/fib.elf" > /dev/null 2> "$out/show.err" ||
  fail "run exited $?: $(cat "$out/show.err")"
case $ver in 5.006|5.006.*|5.032|5.032.*) want="direct evaluation" ;; *) want="eval()" ;; esac
grep -Fq "vcore: soc: $want (Verilator" "$out/show.err" ||
  fail "Verilator $ver: expected '$want', stderr: $(cat "$out/show.err")"

n=0
one() {   # one NAME ELF RUN-OPTIONS...
  local name=$1 elf=$2; shift 2
  # both in the same folder (a run folder names itself in places), then moved aside
  "$ts" run -q "$@" -o "$out/run" "$elf" > "$out/$name.direct.out" 2>&1
  local rc1=$?
  mv "$out/run" "$out/$name.direct"
  TRACESIM_VCORE_EVAL=generic "$ts" run -q "$@" -o "$out/run" "$elf" > "$out/$name.generic.out" 2>&1
  local rc2=$?
  mv "$out/run" "$out/$name.generic"
  [ $rc1 = $rc2 ] || fail "$name: exit $rc1 direct, $rc2 generic"
  [ $rc1 = 0 ] || fail "$name: exit $rc1: $(tail -3 "$out/$name.direct.out")"
  # stats.txt's sim_seconds and sim_hz are the host's wall time: everything else must match
  local d
  for d in direct generic; do
    grep -Ev '^sim_(seconds|hz) ' "$out/$name.$d/stats.txt" > "$out/$name.$d.stats"
    rm "$out/$name.$d/stats.txt"
  done
  diff -r "$out/$name.direct" "$out/$name.generic" > "$out/$name.diff" &&
    diff "$out/$name.direct.stats" "$out/$name.generic.stats" >> "$out/$name.diff" ||
    fail "$name: run folders differ: $(head -5 "$out/$name.diff")"
  n=$((n + 1))
}
one irq "$fw/tests/irq.elf"
one hpm_caches "$fw/tests/hpm.elf" --icache 1K --dcache 1K --cache-ways 2 --cache-miss 7
one sbi_event "$fw/sbi/sbi_perf_lib_1.elf" --trace-insn event
one harts_btm "$fw/examples/fib_mh_sram.elf" --harts 2 --trace-insn btm --trace-sram 4M
one itc_sba "$fw/tests/itc_sba.elf"
one isa_wait2 "$fw/tests/isa_ldst.elf" --ram-wait 2
echo "ok (vcore eval): Verilator $ver: $want; $n run folders identical with eval()"
