#!/bin/bash
# io_checked_test.sh TRACESIM FW_DIR CASE - inputs that are not regular files are refused at
# once, and an output that cannot be written (TRACESIM_TEST_FULL=NAME: the writer of ts_file.h
# writes the output named NAME to /dev/full instead of its temporary file, a full disk; or
# /dev/full itself named as --retire-log, --record-trace-bus or --waves) ends
# the command with one line on stderr and status 126 (issue 23 items 4, 5). A /dev/full link
# planted under a run-folder or output file's name is replaced, never written through
# (issue 34; tests/hostile_names_test.sh).
#   fifo_decode fifo_report        a named pipe as the trace: 121 "not a regular file", no wait
#   fifo_check                     a run folder whose itc.csv is a named pipe: one line, no wait
#   fifo_perf_config               a named pipe as decode's --perf-config: 121
#   fifo_report_elf                a named pipe as report's --elf: 121
#   fifo_waves_marks               a run folder whose marks.csv is a named pipe: waves says so, 121 (an unreadable input)
#   full_decode_messages|csv|timeline|perfetto|elements|perf  decode -o DIR, the file on a full disk
#   full_decode_stm                decode -f stm -o DIR (a run with software trace events)
#   full_decode_itcprint           decode -f itcprint -o DIR (the itc_printf capture; without it: exit 77, a ctest skip)
#   full_report full_report_csv    report -o DIR (report.txt / report.csv)
#   full_overhead_md|csv|svg       overhead --baseline -o DIR
#   full_waves_txt full_waves_tcl  waves --no-gui (markers.txt / markers.tcl)
#   full_symfilter full_stmfilter  the filter's answers to /dev/full: 126 after the first answer
#   full_retire_log                run --retire-log /dev/full
#   full_trace_bus                 run --record-trace-bus /dev/full
#   full_waves_fst                 run --waves /dev/full (the project's FST writer)
#   full_run_FILE                  run into a folder whose FILE (stats.txt, hpm.csv, events.csv,
#                                  trace.rtd, trace.json, itc.csv, flow.csv, uart.txt) meets a full disk
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
ts=$1 fw=$2 case=$3
caps=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; exit 1; }
expect() {   # expect STATUS REGEX -- command... (stdin from $in, default /dev/null)
  local want=$1 re=$2; shift 3
  timeout 20 "$@" > "$tmp/out" 2> "$tmp/err" < "${in:-/dev/null}"
  local rc=$?
  [ $rc = 124 ] && fail "timed out (blocked?)"
  [ $rc = "$want" ] || fail "exit $rc, expected $want; stderr: $(head -c 300 "$tmp/err")"
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "stderr has $(wc -l < "$tmp/err") lines: $(head -c 300 "$tmp/err")"
  grep -Eq -- "$re" "$tmp/err" || fail "stderr '$(cat "$tmp/err")' does not match /$re/"
}
expect_full() {   # expect_full FILE -- command...: status 126 and "cannot write FILE: No space left on device"
  local f=$1; shift 2
  expect 126 "^tracesim: cannot write .*$f: (No space left on device|write error)$" -- "$@"
}
fib=$fw/examples/fib.elf
run() { "$ts" run -q -o "$1" "${2:-$fib}" > /dev/null 2>&1 || fail "the run of ${2:-$fib} failed"; }
outdir() { mkdir -p "$tmp/o/$(dirname "$1")"; export TRACESIM_TEST_FULL=$(basename "$1"); }
case $case in
fifo_decode)      mkfifo "$tmp/p.rtd"; expect 121 "p.rtd is not a regular file" -- "$ts" decode "$tmp/p.rtd" ;;
fifo_report)      mkfifo "$tmp/p.rtd"; expect 121 "p.rtd is not a regular file" -- "$ts" report "$tmp/p.rtd" ;;
fifo_check)       run "$tmp/r"; rm "$tmp/r/itc.csv"; mkfifo "$tmp/r/itc.csv"; expect 121 "^tracesim: " -- "$ts" check "$tmp/r" ;;
fifo_perf_config) run "$tmp/r"; mkfifo "$tmp/cfg"
                  expect 121 "cfg is not a regular file" -- "$ts" decode --perf-config "$tmp/cfg" "$tmp/r/trace.rtd" ;;
fifo_report_elf)  run "$tmp/r"; mkfifo "$tmp/p.elf"
                  expect 121 "p.elf is not a regular file" -- "$ts" report --elf "$tmp/p.elf" "$tmp/r/trace.rtd" ;;
fifo_waves_marks) "$ts" run -q --waves "$tmp/r/waves.fst" -o "$tmp/r" "$fib" > /dev/null 2>&1 || fail "the run failed"
                  rm "$tmp/r/marks.csv"; mkfifo "$tmp/r/marks.csv"
                  expect 121 "marks.csv is not a regular file" -- "$ts" waves "$tmp/r" --no-gui ;;
full_decode_messages|full_decode_csv|full_decode_timeline|full_decode_perfetto|full_decode_elements)
                  f=${case#full_decode_}; file=$f
                  case $f in messages) file=messages.jsonl;; csv) file=perf.csv;; timeline) file=timeline.json;; perfetto) file=trace.pftrace;; elements) file=elements.txt;; esac
                  run "$tmp/r"; outdir $file
                  expect_full "$tmp/o/$file" -- "$ts" decode -f $f --elf "$fib" -o "$tmp/o" "$tmp/r/trace.rtd"
                  [ -z "$(cat "$tmp/out")" ] || fail "wrote to stdout" ;;
full_decode_perf) run "$tmp/r"; outdir perf/fib.callret          # a file opened mid-way, on the first call record
                  expect_full "$tmp/o/perf/fib.callret" -- "$ts" decode -f perf --elf "$fib" -o "$tmp/o" "$tmp/r/trace.rtd" ;;
full_decode_stm)  run "$tmp/r" "$fw/examples/ovh_events_stm.elf"; outdir stm.txt
                  expect_full "$tmp/o/stm.txt" -- "$ts" decode -f stm -o "$tmp/o" "$tmp/r/trace.rtd" ;;
full_decode_itcprint)
                  [ -f "$caps/itc_printf.rtd" ] || { echo "no capture itc_printf.rtd: skipped"; exit 77; }
                  outdir itcprint.txt
                  expect_full "$tmp/o/itcprint.txt" -- "$ts" decode -f itcprint -o "$tmp/o" "$caps/itc_printf.rtd" ;;
full_report)      run "$tmp/r"; outdir report.txt
                  expect_full "$tmp/o/report.txt" -- "$ts" report --elf "$fib" -o "$tmp/o" "$tmp/r/trace.rtd" ;;
full_report_csv)  run "$tmp/r"; outdir report.csv
                  expect_full "$tmp/o/report.csv" -- "$ts" report -f csv -o "$tmp/o" "$tmp/r/trace.rtd" ;;
full_overhead_md|full_overhead_csv|full_overhead_svg)
                  run "$tmp/r"; outdir overhead.${case#full_overhead_}
                  # the progress lines go to stderr too: the failure is the last line, alone
                  timeout 60 "$ts" overhead --baseline "$tmp/r" -o "$tmp/o" "$tmp/r" > /dev/null 2> "$tmp/err" < /dev/null
                  rc=$?
                  [ $rc = "$TS_EXIT_HOST" ] || fail "exit $rc, expected 126; stderr: $(cat "$tmp/err")"
                  [ "$(grep -c 'cannot write' "$tmp/err")" = 1 ] || fail "stderr: $(cat "$tmp/err")"
                  tail -n 1 "$tmp/err" | grep -Eq "^tracesim: overhead: cannot write .*/overhead\.${case#full_overhead_}: No space left on device$" \
                    || fail "stderr: $(cat "$tmp/err")" ;;
full_waves_txt|full_waves_tcl)
                  "$ts" run -q --waves "$tmp/r/waves.fst" -o "$tmp/r" "$fib" > /dev/null 2>&1 || fail "the run failed"
                  f=markers.${case#full_waves_}; export TRACESIM_TEST_FULL=$f
                  expect_full "$tmp/r/$f" -- "$ts" waves "$tmp/r" --no-gui ;;
full_symfilter|full_stmfilter)
                  # many lines: the filter must stop at the first answer it cannot write
                  seq 1 100000 > "$tmp/in"; in=$tmp/in
                  if [ $case = full_symfilter ]; then set -- symfilter "$fib"; else set -- stmfilter; fi
                  timeout 20 "$ts" "$@" > /dev/full 2> "$tmp/err" < "$tmp/in"; rc=$?
                  [ $rc = "$TS_EXIT_HOST" ] || fail "exit $rc, expected 126; stderr: $(head -c 300 "$tmp/err")"
                  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "stderr: $(head -c 300 "$tmp/err")"
                  grep -q '^tracesim: cannot write the output (stdout): ' "$tmp/err" || fail "stderr: $(cat "$tmp/err")" ;;
full_retire_log)  expect_full /dev/full -- "$ts" run -q --retire-log /dev/full -o "$tmp/r" "$fib" ;;
full_trace_bus)   expect_full /dev/full -- "$ts" run -q --record-trace-bus /dev/full -o "$tmp/r" "$fib" ;;
full_waves_fst)   expect_full /dev/full -- "$ts" run -q --waves /dev/full -o "$tmp/r" "$fib" ;;
full_run_*)       f=${case#full_run_}; mkdir "$tmp/r"; export TRACESIM_TEST_FULL=$f
                  expect_full "$tmp/r/$f" -- "$ts" run -q -o "$tmp/r" "$fib" ;;
*)                fail "unknown case" ;;
esac
echo "ok ($case)"
