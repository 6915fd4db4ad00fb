#!/usr/bin/env bash
# make_pictures.sh BUILD_DIR - regenerates the README's waveform pictures in waves/img: four
# views of a run of firmware/tests/itc_sram.c (ITC stores into the SRAM sink) around its
# first ITC store, and the `harts` view of firmware/tests/itc_harts.c on 2 harts (both harts
# store to their own ITC in the same cycle; the funnel merges the messages), and the pipeline
# view of firmware/tests/stm_port.c around its first software trace events (stm.png). The
# waves lie in their run folder, so PCs show as function+offset; `tracesim waves --no-gui`
# makes the markers, drawn as named markers. prog_trace.png: the trace view of a program-traced
# fib around its trace start (branch messages by TCODE, the I-CNT). open.png is what `tracesim waves RUN` opens on for
# a --waves-func fib run of examples/fib.c (zoom and primary marker of markers.tcl). The runs
# lie in /tmp/tracesim-demo (a fixed, neutral path: GTKWave shows the dump's path in its title
# bar), removed at the end.
set -eu
build=$(cd "$1" && pwd)
dir=$(cd "$(dirname "$0")" && pwd)
tmp=/tmp/tracesim-demo
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
export TRACESIM=$build/tracesim
"$TRACESIM" run -q --waves "$tmp/r/w.fst" --out "$tmp/r" "$build/firmware/tests/itc_sram.elf"
"$TRACESIM" waves "$tmp/r" --no-gui > /dev/null
export TS_MARKERS_TCL=$tmp/r/markers.tcl
c=$(awk -F, 'NR == 2 {print $1}' "$tmp/r/itc.csv")      # cycle of the first ITC store
mkdir -p "$dir/img"
"$dir/screenshot.sh" "$tmp/r/w.fst" trace "$dir/img/trace.png" $((c - 3)) $((c + 13))
"$dir/screenshot.sh" "$tmp/r/w.fst" pipeline "$dir/img/pipeline.png" $((c - 10)) $((c + 6))
"$dir/screenshot.sh" "$tmp/r/w.fst" bus "$dir/img/bus.png" $((c - 10)) $((c + 6))
"$dir/screenshot.sh" "$tmp/r/w.fst" hpm "$dir/img/hpm.png" $((c - 10)) $((c + 6))
# program trace (docs/program-trace.md): fib with --trace-insn btm around the trace start
"$TRACESIM" run -q --trace-insn btm --waves-to 8000 --waves "$tmp/p/w.fst" --out "$tmp/p" "$build/firmware/examples/fib.elf"
c=$(awk -F, 'NR == 2 {print $1}' "$tmp/p/prog_flow.csv")   # retire cycle of the store that started it
TS_MARKERS_TCL= "$dir/screenshot.sh" "$tmp/p/w.fst" trace "$dir/img/prog_trace.png" $((c - 2)) $((c + 40))
# software trace port events: the first events of stm_port, one every 4 cycles
"$TRACESIM" run -q --waves "$tmp/s/w.fst" --out "$tmp/s" "$build/firmware/tests/stm_port.elf"
c=$(awk -F, 'NR == 2 {print $1}' "$tmp/s/stm.csv")      # commit cycle of the first event
TS_MARKERS_TCL= "$dir/screenshot.sh" "$tmp/s/w.fst" pipeline "$dir/img/stm.png" $((c - 2)) $((c + 14))
if [ -f "$build/firmware/tests/itc_harts.elf" ]; then
  "$TRACESIM" run -q --harts 2 --waves "$tmp/h/w.fst" --out "$tmp/h" "$build/firmware/tests/itc_harts.elf"
  "$TRACESIM" waves "$tmp/h" harts --no-gui > /dev/null
  export TS_MARKERS_TCL=$tmp/h/markers.tcl
  # the first cycle in which both harts' stores were accepted together
  c=$(awk -F, 'NR > 1 {n[$1]++} NR > 1 && n[$1] == 2 {print $1; exit}' "$tmp/h/itc.csv")
  "$dir/screenshot.sh" "$tmp/h/w.fst" harts "$dir/img/harts.png" $((c - 4)) $((c + 24))
fi
# what tracesim waves opens on: fib's first call, its enter record as the primary marker
"$TRACESIM" run -q --waves "$tmp/run/w.fst" --waves-func fib --out "$tmp/run" "$build/firmware/examples/fib.elf"
"$TRACESIM" waves "$tmp/run" --no-gui > /dev/null
TS_MARKERS_TCL=$tmp/run/markers.tcl "$dir/screenshot.sh" "$tmp/run/w.fst" pipeline "$dir/img/open.png"
