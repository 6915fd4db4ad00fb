#!/usr/bin/env bash
# sweep_spec_speed.sh BUILD_DIR - how long `tracesim sweep --list` takes to parse and plan a
# spec with one axis of 100 000 and of 1 000 000 values (the most a sweep may have). Not a
# test: it prints figures (docs/performance.md).
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fw=$build/firmware/tests/itc_sram.elf
for n in 100000 1000000; do
  awk -v n="$n" -v fw="$fw" 'BEGIN { printf "{\"name\": \"big\", \"firmware\": \"%s\", \"axes\": [{\"name\": \"w\", \"run\": [\"--ram-wait\", \"{w}\"], \"values\": [", fw
    for (i = 0; i < n; i++) printf "%s%d", i ? ", " : "", i; print "]}]}" }' > "$tmp/s.json"
  TIMEFORMAT="sweep spec, $n values: %R s"
  time "$build/tracesim" sweep --list "$tmp/s.json" > /dev/null
done
