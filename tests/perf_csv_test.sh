#!/usr/bin/env bash
# perf_csv_test.sh BUILD_DIR - runs firmware/tests/perf_proto.c, decodes its trace to CSV and
# requires every record to carry exactly the address, function and counter values the
# firmware printed (its own ground truth), with deltas equal to the differences.
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tracesim" run -q --out "$tmp/r" "$build/firmware/tests/perf_proto.elf"
"$build/tracesim_san" decode -f csv --elf "$build/firmware/tests/perf_proto.elf" "$tmp/r/trace.rtd" > "$tmp/perf.csv"
grep '^rec ' "$tmp/r/uart.txt" | awk '{printf "%s,%.0f,%.0f\n", $3, $4 * 4294967296 + $5, $6 * 4294967296 + $7}' > "$tmp/want"
tail -n +2 "$tmp/perf.csv" | awk -F, '$3 == "manual" && $6 == "work" {print $4 "," $7 "," $9}' > "$tmp/got"
[ "$(wc -l < "$tmp/want")" = 5 ] || { echo "FAIL: firmware printed $(wc -l < "$tmp/want") records"; exit 1; }
diff "$tmp/want" "$tmp/got" || { echo "FAIL: decoded records differ from what the firmware stored"; cat "$tmp/perf.csv"; exit 1; }
# deltas: row n minus row n-1 (the first row's delta is its value)
awk -F, 'NR > 1 { if (NR > 2 && ($8 != $7 - pc || $10 != $9 - pi)) { print "FAIL: delta row " NR; exit 1 } pc = $7; pi = $9 }' "$tmp/perf.csv"
head -1 "$tmp/perf.csv" | grep -qx 'cycle,hart,record,address,call_site,function,cycles,cycles_delta,instructions,instructions_delta' ||
  { echo "FAIL: CSV header"; exit 1; }
echo "ok: 5 records equal the firmware's own values"
