#!/usr/bin/env bash
# open.sh WAVES.fst [VIEW] - opens a waveform in GTKWave with one of the views in
# waves/views (pipeline, bus, trace, hpm; default pipeline), with the translate filters that
# print TCODEs, trap causes and stall reasons as names.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
fst=${1:?usage: open.sh WAVES.fst [pipeline|bus|trace|hpm]}
view=${2:-pipeline}
[ -f "$dir/views/$view.gtkw" ] || { echo "open.sh: no view '$view' (pipeline, bus, trace, hpm)" >&2; exit 2; }
[ -f "$fst" ] || { echo "open.sh: cannot open $fst" >&2; exit 2; }
tmp=$(mktemp -d)
sed "s|@WAVES@|$dir|g" "$dir/views/$view.gtkw" > "$tmp/$view.gtkw"
exec gtkwave "$fst" "$tmp/$view.gtkw"
