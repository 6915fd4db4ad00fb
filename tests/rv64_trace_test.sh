#!/usr/bin/env bash
# rv64_trace_test.sh BUILD_DIR CASE - the RV64 core's runs through the whole trace path: the
# RV64 firmware (build/firmware64, the perf library and BSP built for rv64imac/lp64) run on
# the RV64 model, `check` against the simulator's ground truth, `report` naming functions.
# Cases:
#   perf      fib.elf (enter/exit records, 465 calls of fib by hand: fib(10) and the calls
#             fib makes) and manual.elf: check passes (every ITC store, every perf record,
#             the header), report names fib with 465 calls
#   btm, htm_ret, event  timer_isr.elf with program trace in that mode: check passes, and
#             says the program flow (btm, htm_ret) or the events (event) equal the core's;
#             event: the interrupts in it are the core's (mcause's Interrupt flag is bit 63
#             on RV64) and none of the RV32-only C.JAL calls (0x2001-type words are C.ADDIW)
#   flow      report --from flow of the btm run names timer_isr's functions and its
#             instruction total equals check's
set -u
b=$(cd "$1" && pwd); case_=$2
ts=$b/tracesim
fw=$b/firmware64/examples
run=$b/test-runs/rv64_trace_$case_
fail() { echo "FAIL (rv64 trace $case_): $*"; exit 1; }
rm -rf "$run" "$run".*
[ -f "$fw/fib.elf" ] || fail "no RV64 firmware in $fw"
[ "$(od -An -tx1 -j4 -N1 "$fw/fib.elf" | tr -d ' ')" = 02 ] || fail "$fw/fib.elf is not ELF64"
chk() { "$ts" check "$1" > "$1.check" 2>&1 || fail "check exited $?: $(grep -m3 -i 'fail\|error\|tracesim:' "$1.check")"; }
case $case_ in
perf)
  "$ts" run -q -o "$run" "$fw/fib.elf" > /dev/null 2>&1 || fail "run fib exited $?"
  chk "$run"
  grep -q "perf records, OK" "$run.check" || fail "no perf records checked: $(tail -2 "$run.check")"
  "$ts" report -f csv "$run" > "$run.csv" 2> /dev/null || fail "report exited $?"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["function"] == "fib" { print $c["calls"] }' "$run.csv" |
    grep -qx 465 || fail "fib's calls are not 465: $(head -3 "$run.csv")"
  "$ts" run -q -o "$run.m" "$fw/manual.elf" > /dev/null 2>&1 || fail "run manual exited $?"
  chk "$run.m"
  grep -q "perf records, OK" "$run.m.check" || fail "manual: no perf records checked"
  ;;
btm|htm_ret|event|flow)
  mode=$case_; [ $case_ = htm_ret ] && mode=htm-ret; [ $case_ = flow ] && mode=btm
  "$ts" run -q --trace-insn $mode --trace-sram 4M -o "$run" "$fw/timer_isr.elf" > /dev/null 2>&1 || fail "run exited $?"
  chk "$run"
  if [ $mode = event ]; then
    line=$(grep "check: events: hart 0:" "$run.check") || fail "no event check: $(tail -3 "$run.check")"
    echo "$line" | grep -Eq " [1-9][0-9]* interrupts equal" || fail "no interrupts in the events: $line"
    echo "$line" | grep -Eq " [1-9][0-9]* calls," || fail "no calls in the events: $line"
  else
    grep -q "check: program flow: hart 0: [0-9]* instructions in" "$run.check" || fail "no program flow check: $(tail -3 "$run.check")"
  fi
  if [ $case_ = flow ]; then
    n=$(sed -n 's/.*program flow: hart 0: \([0-9]*\) instructions in.*/\1/p' "$run.check")
    "$ts" report --from flow -f csv "$run" > "$run.csv" 2> /dev/null || fail "report --from flow exited $?"
    for f in busy_mem busy_mul ts_trap_entry perf_timer_tick; do grep -q "$f" "$run.csv" || fail "report does not name $f"; done
    tot=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["self_insn"] } END { print s }' "$run.csv")
    [ "$tot" = "$n" ] || fail "the flow profile's self instructions sum to $tot, check's flow has $n"
  fi
  ;;
*) echo "rv64_trace_test.sh: unknown case $case_"; exit 2 ;;
esac
echo "ok: rv64 trace $case_"
