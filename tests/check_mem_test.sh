#!/usr/bin/env bash
# check_mem_test.sh BUILD_DIR - `tracesim check` and `tracesim report` memory must not grow
# like the run (issue 22 item 4). Runs firmware/bench/check_scale.c (enter/exit records,
# Delta, one counter; the benchmark's firmware, docs/performance.md) with 100 k and 300 k perf
# records, checks and reports both under /usr/bin/time and asserts, from the peak RSS (KiB):
#   * both checks pass and check every record (100000 / 300000);
#   * the 300 k check stays below 16 MiB (measured: 5.0 MiB; the check that read the ground
#     truth whole: 455 MiB; streamed CSVs with both decodes' records and the trace whole:
#     about 80 MiB);
#   * memory per extra record, (peak 300 k - peak 100 k) / 200 k, is below 16 bytes (measured:
#     0 to 1 byte, allocator noise: what check holds is bounded by the call stack, the harts
#     and the counters; whole ground truth: about 1580 bytes; streamed CSVs: about 265);
#   * the same two bounds for report, whose instrumentation cost reads flow.csv, counters.csv
#     and hooks.csv (measured: 5 MiB, flat; whole CSVs: about 250 MiB at 1 M records, the
#     whole trace: about 30 MiB) and which must measure every record's hook (none "not
#     measured").
set -eu
# peak RSS without MALLOC_PERTURB_ (which ctest sets for every test, tests/CMakeLists.txt): its
# filling of every block makes the whole of a buffer resident, not only what is used
unset MALLOC_PERTURB_
build=${1:?usage: check_mem_test.sh BUILD_DIR}
sim=$build/tracesim
[ -x /usr/bin/time ] || { echo "check_mem_test: needs /usr/bin/time (GNU time) to measure peak memory" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A rss rrss
for n in 100000 300000; do
  elf=$build/firmware/bench/check_scale_func_$n.elf
  [ -f "$elf" ] || { echo "no $elf (build the firmware)" >&2; exit 1; }
  "$sim" run -q --trace-sram 64M -o "$tmp/r$n" "$elf" > /dev/null
  /usr/bin/time -f %M -o "$tmp/rss$n" "$sim" check "$tmp/r$n" > "$tmp/out$n" 2>&1 ||
    { echo "FAIL: check of the $n-record run failed: $(tail -2 "$tmp/out$n")"; exit 1; }
  grep -q "^check: compared $n perf records in the trace: each equals the ground truth" "$tmp/out$n" ||
    { echo "FAIL: check did not check $n records: $(tail -2 "$tmp/out$n")"; exit 1; }
  rss[$n]=$(tail -1 "$tmp/rss$n")
  echo "check, $n records: peak RSS ${rss[$n]} KiB"
  /usr/bin/time -f %M -o "$tmp/rrss$n" "$sim" report "$tmp/r$n" > "$tmp/rep$n" 2>&1 ||
    { echo "FAIL: report of the $n-record run failed: $(tail -2 "$tmp/rep$n")"; exit 1; }
  grep -Eq "^  all +$n +" "$tmp/rep$n" && ! grep -q "not measured" "$tmp/rep$n" ||
    { echo "FAIL: report did not measure the hooks of all $n records: $(grep -A1 '^  all' "$tmp/rep$n")"; exit 1; }
  rrss[$n]=$(tail -1 "$tmp/rrss$n")
  echo "report, $n records: peak RSS ${rrss[$n]} KiB"
done
[ "${rrss[300000]}" -lt $((16 * 1024)) ] ||
  { echo "FAIL: report of 300 k records peaked at ${rrss[300000]} KiB, bound 16 MiB"; exit 1; }
rper=$(( (rrss[300000] - rrss[100000]) * 1024 / 200000 ))
echo "report: $rper bytes per extra record"
[ "$rper" -lt 16 ] || { echo "FAIL: report memory grows by $rper bytes per record (bound 16)"; exit 1; }
[ "${rss[300000]}" -lt $((16 * 1024)) ] ||
  { echo "FAIL: check of 300 k records peaked at ${rss[300000]} KiB, bound 16 MiB"; exit 1; }
per=$(( (rss[300000] - rss[100000]) * 1024 / 200000 ))
echo "check: $per bytes per extra record"
[ "$per" -lt 16 ] || { echo "FAIL: check memory grows by $per bytes per record (bound 16)"; exit 1; }
echo "PASS"
