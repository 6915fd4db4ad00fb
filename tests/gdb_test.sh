#!/usr/bin/env bash
# gdb_test.sh BUILD_DIR MODE - `tracesim run --gdb` with Debian's gdb-multiarch in batch mode
# (docs/commands/gdb.md). Every mode runs the firmware once without the debugger (the
# reference, with --retire-log into the run folder) and once with it, into the same folder
# name, and requires the same exit status and the same run folder byte for byte: every file
# but gdb.log (the debugger's own log) and stats.txt's host timing (sim_seconds, sim_hz).
# The values GDB shows are checked against the reference run's ground truth (the retire log,
# hpm.csv, the ELF's symbols), never against the stub's own output.
#   fib     fib.elf: a watchpoint on the perf library's state (old/new value and the pc after
#           the store, from the retire log), break fib (pc, a0 = FIB_N = 12), stepi 5 (pc and
#           the mcycle delta from the retire log; mcycle 64 bits whole), monitor trace/hpm
#           (mhpmevent3 as hpm.csv has it), monitor messages 3 (offset, TCODE and time as
#           tracesim decode of the reference run has them), continue to the exit
#   sc      the same as fib on the SystemC platform (tracesim run --systemc, tracesim-sc)
#   harts   fib_mh_sram.elf on 2 harts: two threads, thread 2 is hart 1 (mhartid), break fib in
#           both, continue to the exit
#   monitor itc_harts_overflow.elf on 2 harts, a 2-entry ITC FIFO: monitor break cycle 1000,
#           break perf (the cycle and hart of the next traced store in itc.csv), break
#           overflow (the next itc_lost of trace_events.csv), monitor trace with the funnel
#   wrap    itc_harts_wrap.elf on 4 harts into a 1 KiB SRAM: monitor break wrap stops with the
#           wrap bit set and 256 words (1 KiB / 4) written
# gdb-multiarch missing: skipped (status 77; .ci/install-deps.sh installs it).
set -u
b=$1; mode=$2
t=$b/tracesim
gdb=$(command -v gdb-multiarch) || { echo "SKIP: gdb-multiarch not installed"; exit 77; }
run=$b/test-runs/gdb_$mode
rm -rf "$run" && mkdir -p "$run"
fail() { echo "FAIL (gdb $mode): $*"; exit 1; }
opts=()
case $mode in
fib) elf=$b/firmware/examples/fib.elf ;;
sc) elf=$b/firmware/examples/fib.elf; opts=(--systemc) ;;
harts) elf=$b/firmware/examples/fib_mh_sram.elf; opts=(--harts 2) ;;
monitor) elf=$b/firmware/tests/itc_harts_overflow.elf; opts=(--harts 2 --itc-depth 2) ;;
wrap) elf=$b/firmware/tests/itc_harts_wrap.elf; opts=(--harts 4 --trace-sram 1K) ;;
*) fail "unknown mode" ;;
esac
nm=riscv64-unknown-elf-nm
sym() { $nm "$elf" | awk -v s="$1" '$3 == s { print $1; exit }'; }

# the reference
timeout 120 "$t" run -q "${opts[@]}" --retire-log "$run/r/retire.log" -o "$run/r" "$elf" > "$run/ref.out" 2>&1
ref_rc=$?
mv "$run/r" "$run/ref"

# the same run under GDB
timeout 300 "$t" run -q "${opts[@]}" --gdb 0 --retire-log "$run/r/retire.log" -o "$run/r" "$elf" > "$run/sim.out" 2> "$run/sim.err" &
sim=$!
port=""
for _ in $(seq 100); do
  port=$(sed 2>/dev/null -n 's/.*waiting for GDB on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$run/sim.err")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { kill $sim; fail "no port on stderr: $(cat "$run/sim.err")"; }

ret=$run/ref/retire.log
{
  echo "set pagination off"
  echo "target remote :$port"
  if [ "$mode" = fib ] || [ "$mode" = sc ]; then
    echo 'watch *(unsigned *)&perf'
    echo 'continue'
    echo 'info registers pc'
    echo 'delete'
    echo 'break fib'
    echo 'continue'
    echo 'info registers pc a0 ra mcycle'
    echo 'print sizeof($mcycle)'
    echo 'stepi 5'
    echo 'info registers pc mcycle'
    echo 'monitor trace'
    echo 'monitor hpm'
    echo 'monitor messages 3'
  elif [ "$mode" = monitor ]; then
    echo 'monitor break cycle 1000'
    echo 'continue'
    echo 'monitor cycle'
    echo 'monitor break perf'
    echo 'continue'
    echo 'monitor break overflow'
    echo 'continue'
    echo 'monitor trace'
  elif [ "$mode" = wrap ]; then
    echo 'monitor break wrap'
    echo 'continue'
    echo 'monitor trace'
  else
    echo 'info threads'
    echo 'break fib'
    echo 'continue'
    echo 'thread 2'
    echo 'info registers mhartid'
    echo 'thread 1'
    echo 'info registers mhartid'
    echo 'info threads'
  fi
  echo 'delete'
  echo 'continue'
} > "$run/cmds"
timeout 300 "$gdb" -nx -batch -x "$run/cmds" "$elf" > "$run/gdb.out" 2>&1
grc=$?
wait $sim
rc=$?
[ $grc = 0 ] || fail "gdb-multiarch status $grc: $(tail -5 "$run/gdb.out")"
[ $rc = "$ref_rc" ] || fail "status $rc under GDB, $ref_rc without: $(cat "$run/sim.err")"
if [ "$ref_rc" = 0 ]; then
  grep -q "exited normally" "$run/gdb.out" || fail "GDB did not see the exit: $(tail -3 "$run/gdb.out")"
else
  grep -q "exited with code 0*$(printf %o "$ref_rc")\b" "$run/gdb.out" || fail "GDB did not see exit code $ref_rc"
fi

# the run folders: the same files, the same bytes
( cd "$run/ref" && find . -type f | sort ) > "$run/ref.files"
( cd "$run/r" && find . -type f ! -name gdb.log | sort ) > "$run/dbg.files"
cmp -s "$run/ref.files" "$run/dbg.files" || fail "files differ: $(diff "$run/ref.files" "$run/dbg.files" | head)"
while read -r f; do
  if [ "$f" = ./stats.txt ]; then
    cmp -s <(grep -v '^sim_seconds\|^sim_hz' "$run/ref/$f") <(grep -v '^sim_seconds\|^sim_hz' "$run/r/$f") ||
      fail "stats.txt differs: $(diff "$run/ref/$f" "$run/r/$f")"
  else
    cmp -s "$run/ref/$f" "$run/r/$f" || fail "$f differs under GDB"
  fi
done < "$run/ref.files"
[ -s "$run/r/gdb.log" ] || fail "no gdb.log"
cmp -s "$run/ref.out" "$run/sim.out" || fail "stdout differs"

hex() { printf '0x%x' "$((16#$1))"; }
g=$run/gdb.out
if [ "$mode" = fib ] || [ "$mode" = sc ]; then
  # the watchpoint: the first store of a non-zero word to &perf in the retire log, and the
  # instruction after it (where GDB reports the stop)
  perf=$(sym perf)
  [ -n "$perf" ] || fail "no symbol perf"
  wline=$(grep -n -m1 "mem\[$perf\]4=" "$ret" | grep -v '=00000000$' | head -1)
  [ -n "$wline" ] || wline=$(grep -n "mem\[$perf\]4=" "$ret" | grep -v '=00000000$' | head -1)
  [ -n "$wline" ] || fail "no store to perf in the retire log"
  n=${wline%%:*}
  val=${wline##*=}
  after=$(sed -n "$((n + 1))p" "$ret" | awk '{print $2}')
  grep -q "^New value = $((16#$val))$" "$g" || fail "watchpoint: no 'New value = $((16#$val))': $(grep -A1 'Old value' "$g")"
  grep -q "^pc  *$(hex "$after")\b" "$g" || fail "watchpoint: pc is not $(hex "$after") (retire log line $((n + 1)))"
  # break fib: the line before fib's first retirement, and the five after it
  fib=$(sym fib)
  fl=$(grep -n -m1 "^[0-9]* $fib " "$ret" | cut -d: -f1)
  [ -n "$fl" ] || fail "fib never retires in the retire log"
  c0=$(sed -n "$((fl - 1))p" "$ret" | awk '{print $1}')
  c5=$(sed -n "$((fl + 4))p" "$ret" | awk '{print $1}')
  pc5=$(sed -n "$((fl + 5))p" "$ret" | awk '{print $2}')
  pcs=$(grep '^pc ' "$g" | awk '{print $2}' | tr '\n' ' ')
  set -- $pcs
  [ "${2:-}" = "$(hex "$fib")" ] || fail "break fib: pc ${2:-none}, fib is $(hex "$fib")"
  [ "${3:-}" = "$(hex "$pc5")" ] || fail "stepi 5: pc ${3:-none}, the retire log says $(hex "$pc5")"
  grep -q '^a0  *0xc\b' "$g" || fail "break fib: a0 is not 12 (FIB_N)"
  # the call into fib wrote ra: its write is still in WB when the hart stops (gdb_stub.h)
  ra=$(sed -n "$((fl - 1))p" "$ret" | sed -n 's/.* x1=\([0-9a-f]*\).*/\1/p')
  [ -n "$ra" ] || fail "the instruction before fib does not write ra"
  grep -q "^ra  *$(hex "$ra")\b" "$g" || fail "break fib: ra is not $(hex "$ra") (the call's write in the retire log)"
  mc=$(grep '^mcycle ' "$g" | awk '{print $3}' | tr '\n' ' ')
  set -- $mc
  [ $# = 2 ] || fail "mcycle not shown twice: $mc"
  [ $(($2 - $1)) = $((c5 - c0)) ] || fail "stepi 5: mcycle went $1 -> $2, the retire log says $((c5 - c0)) cycles"
  grep -q '^\$[0-9]* = 8$' "$g" || fail "mcycle is not 64 bits in the target description"
  ev3=$(awk -F, '$1 == "mhpmcounter3" { print $3 }' "$run/ref/hpm.csv")
  grep -q "mhpmevent3 0x$(printf %08x "$ev3") " "$g" || fail "monitor hpm: mhpmevent3 not $ev3 (hpm.csv)"
  grep -q "teControl 0x[0-9a-f]*: ACTIVE=1 ENABLE=1 TRACING=1" "$g" || fail "monitor trace: teControl not decoded"
  grep -q "ITC FIFO [0-9]* of 8 entries" "$g" || fail "monitor trace: no ITC FIFO fill"
  # monitor messages: every whole message shown is the message of the final trace at that
  # offset, with the same TCODE and time (tracesim decode of the reference run)
  "$t" decode "$run/ref" > "$run/ref.decode" 2>&1 || fail "decode of the reference run"
  nmsg=0
  while read -r off name; do
    tc=$(sed -n "s/^  @$off .*(TCODE \([0-9]*\)).* time \([0-9]*\)$/\1 \2/p" "$g" | head -1)
    [ -n "$tc" ] || continue
    grep -q "\"offset\": $off, \"tcode\": ${tc% *}, \"tics\": ${tc#* }}" "$run/ref.decode" ||
      fail "monitor messages: @$off (TCODE/time $tc) is not in the decoded trace"
    nmsg=$((nmsg + 1))
  done < <(sed -n 's/^  @\([0-9]*\) \(.*\)$/\1 \2/p' "$g")
  [ $nmsg -ge 2 ] || fail "monitor messages: fewer than 2 whole messages shown: $(grep -A4 'bytes in the' "$g")"
  grep -q "sink: base 0x.* WP 0x[0-9a-f]* (wrap [01]) RP" "$g" || fail "monitor trace: no sink WP/RP"
elif [ "$mode" = monitor ]; then
  grep -q "^tracesim: monitor break cycle: before cycle 1000$" "$g" || fail "break cycle 1000: $(grep tracesim: "$g")"
  grep -q "^cycle 1000$" "$g" || fail "monitor cycle after break cycle 1000"
  # the first accepted (traced) ITC store from cycle 1000 on, in itc.csv
  pc=$(awk -F, 'NR > 1 && $1 >= 1000 && $7 == "traced" { print $1 " (hart " $2 ")"; exit }' "$run/ref/itc.csv")
  grep -q "^tracesim: monitor break perf: an ITC store was accepted in cycle $pc$" "$g" ||
    fail "break perf: not in cycle $pc (itc.csv): $(grep tracesim: "$g")"
  # the first lost store after that, in trace_events.csv
  pcyc=${pc%% *}
  lc=$(awk -F, -v c="$pcyc" 'NR > 1 && $1 >= c && $3 == "itc_lost" { print $1 " (hart " $2 ")"; exit }' "$run/ref/trace_events.csv")
  [ -n "$lc" ] || fail "no itc_lost in trace_events.csv"
  grep -q "^tracesim: monitor break overflow: an encoder lost a message (ITC FIFO full) in cycle $lc$" "$g" ||
    fail "break overflow: not in cycle $lc (trace_events.csv): $(grep tracesim: "$g")"
  grep -q "funnel (0x10018000): control" "$g" || fail "monitor trace: no funnel"
elif [ "$mode" = wrap ]; then
  grep -q "^tracesim: monitor break wrap: the sink wrapped in cycle" "$g" || fail "break wrap: $(grep tracesim: "$g")"
  # stopped in the cycle the wrap bit came: the sink has written exactly 1 KiB / 4 bytes
  grep -q "funnel sink: .*(wrap 1).* 256 words written" "$g" ||
    fail "monitor trace at the wrap: not the wrap bit and 256 words: $(grep 'funnel sink' "$g")"
  grep -q '"wrapped": *true' "$run/ref/trace.json" || fail "the reference run did not wrap"
else
  grep -q "Thread 2 (hart 1)" "$g" || fail "no thread for hart 1: $(grep -i thread "$g" | head)"
  mh=$(grep '^mhartid' "$g" | awk '{print $2}' | tr '\n' ' ')
  [ "$mh" = "0x1 0x0 " ] || fail "thread 2 / thread 1: mhartid $mh, not 0x1 0x0"
  grep -q "Breakpoint 1, fib" "$g" || grep -q "hit Breakpoint 1, fib" "$g" || fail "break fib not hit: $(tail "$g")"
fi
echo "PASS (gdb $mode): status $rc, run folder identical ($(wc -l < "$run/ref.files") files), $(grep -c stopped "$run/r/gdb.log") stops"
