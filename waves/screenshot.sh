#!/usr/bin/env bash
# screenshot.sh WAVES.fst VIEW OUT.png [FROM_CYCLE [TO_CYCLE [HART]]] - renders a view of a
# waveform to a PNG without a display (Xvfb + GTKWave), as a person would see it in GTKWave.
# The window shows cycles [FROM_CYCLE, TO_CYCLE) (default: the first 8 cycles of the dump, the width `tracesim waves` opens at);
# views as in make_view.sh (HART: whose scope a per-hart view shows, default 0). With
# TS_MARKERS_TCL=RUN/markers.tcl (written by `tracesim waves RUN --no-gui`) the named markers
# show too, and without FROM_CYCLE the window is the one tracesim waves opens on.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
fst=$(cd "$(dirname "${1:?usage: screenshot.sh WAVES.fst VIEW OUT.png [FROM [TO]]}")" && pwd)/$(basename "$1")
view=${2:?view: pipeline, bus, trace, hpm or harts}
out=${3:?output PNG}
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
[ -f "$fst" ] || { echo "screenshot.sh: cannot open $fst" >&2; exit 2; }
command -v xvfb-run >/dev/null && command -v gtkwave >/dev/null ||
  { echo "screenshot.sh: needs xvfb-run and gtkwave (Debian packages xvfb, gtkwave)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TS_VIEW_TMP=$tmp "$dir/make_view.sh" "$fst" "$view" "${6:-0}" > "$tmp/view.gtkw"
from=${4:-}
to=${5:-}
# numbers only: bash arithmetic would run $(...) hidden in a subscript
case "$from$to" in *[!0-9]*) echo "screenshot.sh: FROM_CYCLE and TO_CYCLE must be numbers" >&2; exit 2 ;; esac
{
  # named markers of the run (tracesim waves writes markers.tcl beside the waves' run folder)
  [ -n "${TS_MARKERS_TCL:-}" ] && cat "$TS_MARKERS_TCL"
  # one time unit per cycle in tracesim's waves; without FROM the zoom of markers.tcl (the
  # region tracesim waves opens on), else the first 8 cycles
  if [ -n "$from" ]; then
    echo "gtkwave::setZoomRangeTimes $from ${to:-$((from + 8))}"
  elif [ -z "${TS_MARKERS_TCL:-}" ]; then
    echo 'set t0 [gtkwave::getMinTime]'
    echo 'gtkwave::setZoomRangeTimes $t0 [expr {$t0 + 8}]'
  fi
  # the path as data (an environment variable), never as Tcl text
  echo 'gtkwave::/File/Grab_To_File $::env(TS_SCREENSHOT_OUT)'
  echo "gtkwave::/File/Quit"
} > "$tmp/grab.tcl"
rm -f "$out"
TS_SCREENSHOT_OUT=$out xvfb-run -a -s "-screen 0 1600x1000x24" gtkwave -S "$tmp/grab.tcl" "$fst" "$tmp/view.gtkw" >"$tmp/log" 2>&1 || true
if [ ! -s "$out" ]; then
  echo "screenshot.sh: GTKWave produced no picture; its output:" >&2
  cat "$tmp/log" >&2
  exit 1
fi
echo "$out"
