#!/usr/bin/env bash
# friction_test.sh BUILD_DIR CASE - the new-user friction of issue 35 item 7 (one case each):
#   instr_run_elf  `decode -f instr RUN_DIR` finds the run's ELF as every other format does:
#                  the listing of an HTM run equals the one with --elf, names functions, and
#                  is not empty
#   instr_no_prog  `decode -f instr` on a trace without program trace (teInstruction 0):
#                  one line on stderr, exit 120, nothing on stdout, no instr.txt with -o
#   instr_no_elf   `decode -f instr` on a run folder whose ELF is gone: one line, exit 121
#   waves_stop     `tracesim waves` on a run whose 512-byte SRAM sink stopped on wrap (after
#                  perf records were made): the primary marker on the stop's cycle
#                  (trace.json stopped_at_cycle), not on the first record, and a readable
#                  zoom: 8 cycles from 2 before it (docs/commands/waves.md)
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
b=$1; case=$2
t=$b/tracesim_san; out=$b/test-runs/friction_$case
rm -rf "$out"; mkdir -p "$out" || exit 1
fail() { echo "FAIL ($case): $*"; for f in "$out"/*.err; do [ -s "$f" ] && sed "s|^|  $(basename "$f"): |" "$f"; done; exit 1; }
fw=$b/firmware/examples/fib.elf
[ -f "$fw" ] || fail "no $fw"

case $case in
instr_run_elf)
  "$t" run -q --trace-insn htm -o "$out/run" "$fw" 2> "$out/run.err" || fail "run: exit $?"
  "$t" decode -f instr "$out/run" > "$out/a.txt" 2> "$out/a.err" || fail "decode -f instr RUN_DIR: exit $?"
  grep -v '^tracesim: note: ' "$out/a.err" > "$out/a.other" && fail "decode -f instr RUN_DIR: more than notes on stderr"
  "$t" decode -f instr --elf "$fw" "$out/run" > "$out/b.txt" 2> "$out/b.err" || fail "decode -f instr --elf: exit $?"
  [ "$(wc -l < "$out/a.txt")" -gt 1000 ] || fail "fewer than 1000 instructions listed"
  cmp -s "$out/a.txt" "$out/b.txt" || fail "the listing differs from the one with --elf"
  grep -q ' fib+0x' "$out/a.txt" || fail "no function names (fib+0x...)"
  ;;
instr_no_prog)
  "$t" run -q -o "$out/run" "$fw" 2> "$out/run.err" || fail "run: exit $?"
  "$t" decode -f instr "$out/run" > "$out/a.txt" 2> "$out/a.err"
  rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] || fail "exit $rc, expected 120"
  [ -s "$out/a.txt" ] && fail "something on stdout"
  [ "$(wc -l < "$out/a.err")" = 1 ] || fail "not one line on stderr"
  grep -q 'has no program trace' "$out/a.err" || fail "the line does not say there is no program trace"
  "$t" decode -f instr -o "$out/o" "$out/run" 2> "$out/o.err"
  rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] || fail "with -o: exit $rc, expected 120"
  [ -e "$out/o/instr.txt" ] && fail "with -o: instr.txt written"
  ;;
instr_no_elf)
  cp "$fw" "$out/gone.elf" || exit 1
  "$t" run -q --trace-insn htm -o "$out/run" "$out/gone.elf" 2> "$out/run.err" || fail "run: exit $?"
  rm "$out/gone.elf"
  "$t" decode -f instr "$out/run" > "$out/a.txt" 2> "$out/a.err"
  rc=$?
  [ $rc = "$TS_EXIT_NO_FILE" ] || fail "exit $rc, expected 121"
  [ "$(wc -l < "$out/a.err")" = 1 ] || fail "not one line on stderr"
  grep -q -- '--elf' "$out/a.err" || fail "the line does not name --elf"
  [ -s "$out/a.txt" ] && fail "something on stdout"
  ;;
waves_stop)
  "$t" run -q --trace-sram 512 --waves "$out/run/w.fst" -o "$out/run" "$b/firmware/examples/ovh_fib_on_sram_1.elf" \
    2> "$out/run.err" || fail "run: exit $?"
  stop=$(sed -n 's/.*"stopped_at_cycle": *\([0-9]*\).*/\1/p' "$out/run/trace.json")
  [ -n "$stop" ] && [ "$stop" -gt 0 ] || fail "the sink did not stop on wrap"
  "$t" waves "$out/run" --no-gui > /dev/null 2> "$out/waves.err" || fail "waves: exit $?"
  first=$(grep -v '^#' "$out/run/markers.txt" | head -1 | cut -d' ' -f1)
  [ "$first" -lt "$stop" ] || fail "no marker before the stop: the test shows nothing"
  grep -qx "gtkwave::setMarker $stop" "$out/run/markers.tcl" || fail "primary marker: $(grep setMarker "$out/run/markers.tcl"), the stop at $stop"
  grep -qx "gtkwave::setZoomRangeTimes $((stop - 2)) $((stop + 6))" "$out/run/markers.tcl" ||
    fail "zoom: $(grep Zoom "$out/run/markers.tcl"), expected $((stop - 2)) $((stop + 6))"
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "ok ($case)"
