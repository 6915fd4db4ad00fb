#!/usr/bin/env bash
# perf_lib_test.sh BUILD_DIR CASE - the perf library on the simulated SoC, checked from the
# outside: exit status and UART output of the firmware, the decoded trace, the run folder.
# Expected counts come from hand calculation (fib(n) makes 2*F(n+1)-1 calls) or from the
# firmware's own independent statement, never from a stored copy of our own output.
set -u
b=$1; case=$2
t=$b/tracesim; fw=$b/firmware; runs=$b/test-runs/perf_lib_$case
rm -rf "$runs"
fail() { echo "FAIL ($case): $*"; exit 1; }
run() {   # run ELF [options]: the firmware must exit 0
  local elf=$1; shift
  "$t" run -q -o "$runs" "$@" "$elf" > "$runs.out" 2> "$runs.err" || fail "$elf exited $? ($(tail -1 "$runs.err"))"
}
csv() {   # decoded records (no header lines); perf data errors fail the test
  "$t" decode -f csv "$@" "$runs/trace.rtd" > "$runs.csv" 2> "$runs.csv.err"
  grep -q "perf data error" "$runs.csv.err" && fail "decoder: $(head -1 "$runs.csv.err")"
  grep -vE '^(timestamp|cycle),' "$runs.csv"
}
case $case in
errors)
  run "$fw/tests/perf_errors.elf"
  grep -q "perf_errors: all checks passed" "$runs/uart.txt" || fail "no pass line" ;;
onoff_sram|onoff_sba)
  run "$fw/tests/perf_${case}.elf"
  cmp "$runs/host/fw_trace.rtd" "$runs/trace.rtd" || fail "perfWriteTrace's file differs from the sink image"
  n=$(csv | grep -c ',manual,') ; [ "$n" = 20 ] || fail "$n manual records, expected 20"
  h=$(grep -cE '^(timestamp|cycle),' "$runs.csv"); [ "$h" = 1 ] || fail "$h headers, expected 1"
  m=$("$t" decode "$runs/trace.rtd" | grep -c '"data": 1885696614,')   # 0x70657266, the marker
  [ "$m" = 1 ] || fail "$m perf markers in the trace, expected 1" ;;
fib|fib_funnel_sram|fib_funnel_sba)
  opt=""; elf=$fw/examples/$case.elf; calls=465; n=12
  case $case in fib_funnel_sram) opt=--funnel; calls=67; n=8;; fib_funnel_sba) opt=--funnel;; esac
  run "$elf" $opt
  grep -q "^fib($n) = " "$runs/uart.txt" || fail "no result line"
  grep -q "^perf: $((2 * calls)) records" "$runs/uart.txt" || fail "firmware did not write $((2 * calls)) records"
  fibaddr=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "fib" { print "0x" $1 }')
  csv > "$runs.rows"
  [ "$(grep -c ",enter,$fibaddr," "$runs.rows")" = $calls ] || fail "expected $calls enter records of fib at $fibaddr"
  [ "$(grep -c ",exit,$fibaddr," "$runs.rows")" = $calls ] || fail "expected $calls exit records of fib"
  [ "$(wc -l < "$runs.rows")" = $((2 * calls)) ] || fail "extra records"
  [ -z "$opt" ] || grep -q '"through_funnel": true' "$runs/trace.json" || fail "not through the funnel" ;;
stop_on_wrap)
  # a 1 KiB SRAM sink fills: tracing stops, the program runs to its end, the cut record is
  # reported as truncated and nothing after it
  run "$fw/examples/manual.elf" --trace-sram 1K
  grep -q "buffer full: tracing stopped" "$runs/uart.txt" || fail "firmware not told the buffer filled"
  grep -q '"stopped_on_wrap": true' "$runs/trace.json" || fail "sink did not stop on wrap"
  [ "$(stat -c %s "$runs/trace.rtd")" = 1024 ] || fail "trace is not the whole 1 KiB"
  rows=$(csv | wc -l); [ "$rows" -gt 5 ] && [ "$rows" -lt 60 ] || fail "$rows records in 1 KiB"
  csv | head -n -1 | grep -q truncated && fail "a record other than the last is truncated"
  true ;;
tiny_fifo)
  # a 1-entry ITC FIFO, stall off: the library's polls keep every store, nothing hangs
  run "$fw/examples/manual.elf" --itc-depth 1
  grep -q '"itc_lost": 0' "$runs/trace.json" || fail "ITC messages lost"
  [ "$(csv | grep -c ',manual,')" = 60 ] || fail "expected 60 manual records"
  csv | grep -q truncated && fail "truncated record" ; true ;;
timer_isr)
  run "$fw/examples/timer_isr.elf"
  rec=$(sed -n 's/.*; \([0-9]*\) records.*/\1/p' "$runs/uart.txt")
  [ -n "$rec" ] && [ "$rec" -gt 50 ] || fail "too few ISR records ($rec)"
  [ "$(csv | grep -c ',isr,')" = "$rec" ] || fail "decoded ISR records differ from the firmware's count $rec"
  # every interrupted pc lies in the program's text
  lo=$(riscv64-unknown-elf-nm "$fw/examples/timer_isr.elf" | awk '$3 == "_start" { print $1 }')
  hi=$(riscv64-unknown-elf-nm "$fw/examples/timer_isr.elf" | awk '$3 == "__text_end" { print $1 }')
  csv | cut -d, -f4 | while read -r a; do
    [ $((a)) -ge $((16#$lo)) ] && [ $((a)) -lt $((16#$hi)) ] || { echo "pc $a outside the text"; exit 1; }
  done || fail "ISR pc outside the text" ;;
layout)
  # the SBA pool and the per-core state are in .preserve (NOLOAD, not cleared by crt0); what
  # start-up code clears (.bss) stays small
  elf=$fw/examples/fib.elf
  riscv64-unknown-elf-readelf -SW "$elf" | grep -Eq '\] \.preserve +NOBITS' || fail "no NOBITS .preserve section"
  for sym in perf_pool perf_cores; do
    sec=$(riscv64-unknown-elf-objdump -t "$elf" | awk -v s=$sym '$NF == s { print $(NF-2) }')
    [ "$sec" = .preserve ] || fail "$sym is in '$sec', not .preserve"
  done
  bss=$(riscv64-unknown-elf-size -A "$elf" | awk '$1 == ".bss" { print $2 }')
  [ "$bss" -lt 4096 ] || fail ".bss is $bss bytes" ;;
two_wraps)
  # the same program with 16-bit and with 12-bit programmable counters (the same code path and
  # timing: both are read with one csrr):
  # at 12 bits the counter wraps twice between the two records, and the decoded delta is the
  # true count modulo 4096 - nothing in the data can tell (docs/firmware/perf-library.md)
  elf=$fw/tests/perf_wrap2.elf
  run "$elf" --hpm-width 16; d16=$(csv | sed -n 2p | cut -d, -f10)
  "$t" check "$runs" > /dev/null || fail "check failed at 16 bits"
  rm -rf "$runs"; run "$elf" --hpm-width 12; d12=$(csv | sed -n 2p | cut -d, -f10)
  "$t" check "$runs" > /dev/null || fail "check failed at 12 bits"
  [ -n "$d16" ] && [ "$d16" -ge 8192 ] || fail "true count $d16 below two wraps"
  [ "$d12" = $((d16 % 4096)) ] || fail "12-bit delta $d12, expected $d16 mod 4096 = $((d16 % 4096))" ;;
elf_debug)
  # SiFive's decoder cannot load picolibc's DWARF (file names starting with "./"): none of it
  # in our ELFs, while our own sources keep their debug info
  for elf in "$fw/examples/fib.elf" "$fw/examples/manual.elf" "$fw/hello.elf" "$fw/tests/isa_alu.elf"; do
    riscv64-unknown-elf-readelf --debug-dump=info "$elf" > "$runs.dwarf" 2>&1
    grep -q 'DW_AT_comp_dir.*: \./' "$runs.dwarf" && fail "$elf carries picolibc debug info"
    grep -Eq 'DW_AT_name.*/firmware/(examples|tests)/' "$runs.dwarf" || fail "$elf lost its own debug info"
  done ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
