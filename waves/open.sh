#!/usr/bin/env bash
# open.sh WAVES.fst [VIEW [HART]] - opens a waveform in GTKWave with one of the views in
# waves/views (pipeline, bus, trace, hpm; default pipeline) for hart HART (default 0), or the
# view "harts" (every hart and the funnel's merge), with the translate filters that print
# TCODEs, trap causes and stall reasons as names, and PCs as function+offset when the run
# folder of the waves (stats.txt beside them) names its ELF. See make_view.sh.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
fst=${1:?usage: open.sh WAVES.fst [pipeline|bus|trace|hpm|harts [HART]]}
view=${2:-pipeline}
[ -f "$fst" ] || { echo "open.sh: cannot open $fst" >&2; exit 2; }
case "$fst" in -*) fst=./$fst ;; esac    # not an option of GTKWave
tmp=$(mktemp -d)
TS_VIEW_TMP=$tmp "$dir/make_view.sh" "$fst" "$view" "${3:-0}" > "$tmp/$view.gtkw"
exec gtkwave "$fst" "$tmp/$view.gtkw"
