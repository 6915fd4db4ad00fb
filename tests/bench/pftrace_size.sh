#!/usr/bin/env bash
# pftrace_size.sh BUILD_DIR [N...] - the timeline's cost at 10^5, 10^6, 10^7 records (not a
# test: it prints the figures of docs/performance.md "Perfetto timeline"). For each N and each
# writer (perfetto: decode -f perfetto's pftrace.c; timeline: decode -f timeline's JSON) the
# synthetic records of tests/bench/pftrace_bench.c are written to a file in a temporary folder:
# bytes, bytes a record, wall seconds of the writing and the process's peak memory (ru_maxrss).
# Then the end-to-end figure on a real trace: `tracesim decode -f perfetto` and `-f timeline`
# of firmware/bench/bench_perf.c simulated into an 8 MiB sink (records counted by -f csv),
# /usr/bin/time's wall seconds and peak memory.
set -eu
build=$1
shift
ns=${*:-100000 1000000 10000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "host: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '%-9s %10s %14s %8s %8s %10s\n' format records bytes B/rec seconds maxrss_MiB
for n in $ns; do
  for f in perfetto timeline; do
    "$build/tests/bench/pftrace_bench" $f "$n" "$tmp/out" | awk '{ printf "%-9s %10s %14s %8.1f %8.2f %10.1f\n", $1, $2, $3, $3 / $2, $4, $5 / 1024 }'
    rm -f "$tmp/out"
  done
done
"$build/tracesim" run -q --trace-sram 8M --max-cycles 200000000 --out "$tmp/r" "$build/firmware/bench/bench_perf.elf" > /dev/null 2>&1 || true
[ -s "$tmp/r/trace.rtd" ] || { echo "pftrace_size.sh: no trace produced" >&2; exit 1; }
recs=$("$build/tracesim" decode -f csv "$tmp/r" 2>/dev/null | grep -vc '^cycle,' || true)
echo "bench_perf.elf: $(stat -c %s "$tmp/r/trace.rtd") trace bytes, $recs records"
for f in perfetto timeline; do
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$build/tracesim" decode -f $f -o "$tmp/o" "$tmp/r" 2> /dev/null
  out=$(ls "$tmp/o")
  echo "decode -f $f: $(stat -c %s "$tmp/o/$out") bytes ($out), $(awk '{ printf "%.2f s, %.1f MiB peak", $1, $2 / 1024 }' "$tmp/time")"
  rm -rf "$tmp/o"
done
