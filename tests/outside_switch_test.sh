#!/bin/sh
# outside_switch_test.sh BUILD_DIR CASE - firmware/tests/switch_msip.c, a preemptive
# switcher written apart from the examples (its own trap vector, a timer switching 3 threads,
# the machine software interrupt as a second source, tp restored on every trap, main never
# naming its thread before the first switch), run with --stm-thread-switch. Expected values
# are hand counts (the file's comment) and the firmware's own count of timer interrupts
# (uart.txt ticks=). Cases:
#   calls     `report -f csv`: sum_r 160, mix 36, on_soft 6, t0_body/t1_body/t2_body 1,
#             on_tick = ticks; `check` passes
#   irq       `report -f irq-csv`, ground truth rows: M software interrupt 6 visits, M timer
#             interrupt = ticks; the three threads' preemptions add up to ticks (every switch
#             made by the timer's handler; the software interrupt's tp rewrites are not
#             switches); from the trace: the 3 threads' visits add up to the switches
#   unnamed   the frames main opened before the first switch stay with "before its first
#             thread switch": the notes say why and what to do, with the number of those frames
#             equal to the exits without an enter (before: only "N exit record(s) without a
#             matching enter: ignored" and "still active")
set -u
b=$1; case_=$2
ts=$b/tracesim
elf=$b/firmware/tests/switch_msip.elf
run=$b/test-runs/outside_switch_$case_
fail() { echo "FAIL (outside_switch $case_): $*"; exit 1; }
rm -rf "$run" "$run".*
"$ts" run -q --stm-thread-switch --trace-sram 1M -o "$run" "$elf" > /dev/null || fail "run exited $?"
ticks=$(sed -n 's/.*ticks=\([0-9]*\) soft=6$/\1/p' "$run/uart.txt")
[ -n "$ticks" ] && [ "$ticks" -gt 3 ] || fail "uart.txt: $(cat "$run/uart.txt")"
case $case_ in
calls)
  "$ts" check "$run" > "$run.check" || fail "check exited $?: $(tail -3 "$run.check")"
  "$ts" report -f csv -o "$run.d" "$run" 2> /dev/null || fail "report -f csv exited $?"
  out=$(awk -F, -v ticks="$ticks" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    ("thread" in c) && $c["thread"] != "all" { next }
    { n[$c["function"]] = $c["calls"] }
    END { split("sum_r=160 mix=36 on_soft=6 t0_body=1 t1_body=1 t2_body=1 on_tick=" ticks, w, " ")
          for (i in w) { split(w[i], kv, "="); if (n[kv[1]] != kv[2]) printf "%s %s calls, expected %s; ", kv[1], n[kv[1]], kv[2] } }' "$run.d/report.csv")
  [ -z "$out" ] || fail "$out" ;;
irq)
  "$ts" report -f irq-csv -o "$run.d" "$run" || fail "report -f irq-csv exited $?"
  out=$(awk -F, -v ticks="$ticks" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["source"] == "truth" && $c["table"] == "cause" { v[$c["id"]] = $c["visits"] }
    $c["source"] == "truth" && $c["table"] == "thread" { pre += $c["preemptions"] }
    $c["source"] == "trace" && $c["table"] == "thread" { tv += $c["visits"]; nt++ }
    END { if (v["0x80000003"] != 6) printf "software interrupt visits %s, expected 6; ", v["0x80000003"]
          if (v["0x80000007"] != ticks) printf "timer visits %s, expected %s; ", v["0x80000007"], ticks
          if (pre != ticks) printf "preemptions %s, expected %s; ", pre, ticks
          if (nt != 3 || tv != ticks) printf "trace: %s threads, %s visits, expected 3 and %s; ", nt, tv, ticks }' "$run.d/report.irq.csv")
  [ -z "$out" ] || fail "$out" ;;
unnamed)
  "$ts" report "$run" > "$run.txt" 2> /dev/null || fail "report exited $?"
  u=$(sed -n 's/^  \([0-9]*\) exit record(s) without a matching enter: ignored$/\1/p' "$run.txt")
  n=$(sed -n 's/^  \([0-9]*\) of them opened before their hart.s first thread switch, by a thread that had not written$/\1/p' "$run.txt")
  [ -n "$u" ] && [ "$u" -gt 0 ] || fail "no exits without an enter: $(sed -n '/^Notes/,$p' "$run.txt")"
  [ "$n" = "$u" ] || fail "the notes do not say that the $u frame(s) were opened before the first switch: $(sed -n '/^Notes/,$p' "$run.txt")"
  grep -q "Write tp once before the first switch" "$run.txt" || fail "no advice" ;;
*) fail "unknown case" ;;
esac
echo "ok (outside_switch $case_)"
