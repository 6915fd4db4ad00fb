#!/usr/bin/env bash
# decode_speed.sh BUILD_DIR - decoder throughput (not a test: it prints figures). Simulates
# firmware/bench/bench_perf.c into an 8 MiB SRAM sink (stop-on-wrap), then measures the
# decoder library on that trace: bytes to messages, and bytes to perf records.
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tracesim" run -q --trace-sram 8M --max-cycles 200000000 --out "$tmp/r" "$build/firmware/bench/bench_perf.elf" >/dev/null 2>&1 || true
[ -s "$tmp/r/trace.rtd" ] || { echo "decode_speed.sh: no trace produced" >&2; exit 1; }
"$build/harness/decode_bench" "$tmp/r/trace.rtd" 5
