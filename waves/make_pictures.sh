#!/usr/bin/env bash
# make_pictures.sh BUILD_DIR - regenerates the README's waveform pictures in waves/img from a
# run of firmware/tests/itc_sram.c (ITC stores into the SRAM sink).
set -eu
build=$1
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tracesim" run -q --waves "$tmp/w.fst" --out "$tmp/r" "$build/firmware/tests/itc_sram.elf"
c=$(awk -F, 'NR == 2 {print $1}' "$tmp/r/itc.csv")      # cycle of the first ITC store
mkdir -p "$dir/img"
"$dir/screenshot.sh" "$tmp/w.fst" trace "$dir/img/trace.png" $((c - 3)) $((c + 13))
"$dir/screenshot.sh" "$tmp/w.fst" pipeline "$dir/img/pipeline.png" $((c - 10)) $((c + 6))
"$dir/screenshot.sh" "$tmp/w.fst" bus "$dir/img/bus.png" $((c - 10)) $((c + 6))
"$dir/screenshot.sh" "$tmp/w.fst" hpm "$dir/img/hpm.png" $((c - 10)) $((c + 6))
