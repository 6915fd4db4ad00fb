#!/usr/bin/env bash
# make_view.sh WAVES.fst VIEW [HART] - writes to stdout the GTKWave save file open.sh and
# screenshot.sh load: a view of waves/views (pipeline, bus, trace, hpm) for hart HART
# (default 0: the scope "soc"; hart n's scope is "hartn"), or the generated view "harts":
# every hart's commit PC, data access, bus arbitration, ITC FIFO and encoder output, then the
# funnel's merge into the sink (which source it took, bytes into the sink, write pointer).
# With TS_SYMFILTER set to an executable (a GTKWave process filter, e.g. a wrapper around
# `tracesim symfilter FW.elf`; open.sh and screenshot.sh make one when the run folder of the
# waves names its ELF), every PC signal of the view shows function+offset. With TS_STMFILTER
# set to an executable (a wrapper around `tracesim stmfilter`, made in TS_VIEW_TMP whenever
# tracesim is found), the software trace port's id stm_id_o shows its group and name. With
# TS_VIEW_START set to a cycle (tracesim waves: the region it opens on), the view starts there.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
fst=${1:?usage: make_view.sh WAVES.fst VIEW [HART]}
view=${2:?view: pipeline, bus, trace, hpm or harts}
hart=${3:-0}
case "$hart" in ''|*[!0-9]*) echo "make_view.sh: hart '$hart' is not a number" >&2; exit 2 ;; esac
case "$view" in *[!a-z0-9_]*) echo "make_view.sh: no view '$view' (pipeline, bus, trace, hpm, harts)" >&2; exit 2 ;; esac
case "$fst" in -*) fst=./$fst ;; esac
start=${TS_VIEW_START:-0}
case "$start" in ''|*[!0-9]*) echo "make_view.sh: TS_VIEW_START '$start' is not a cycle" >&2; exit 2 ;; esac
# Nothing of the run folder (ELF path, folder names) may reach a shell: the wrappers get their
# paths as single-quoted words (sq), and the .gtkw names a filter only by a path of the
# characters below, because GTKWave looks a process filter up with `which PATH` through
# /bin/sh and splits the line at blanks (gtkwave ptranslate.c); other paths get no filter.
sq() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }
safe_path() { case "$1" in ''|-*|*[!A-Za-z0-9_./+,:@%=-]*) return 1 ;; esac; }
# put_script FILE TEXT: an executable FILE written through a temporary file (mktemp: created
# with O_EXCL, so never through a link) renamed over FILE, so a link or FIFO planted under the
# name is replaced, never followed, opened or chmod-ed (the run-folder writer's rule, ts_file.h)
put_script() {
  local t
  t=$(mktemp -- "$(dirname -- "$1")/.$(basename -- "$1").XXXXXX") || return 1
  { printf '%s' "$2" > "$t" && chmod 755 -- "$t" && mv -f -T -- "$t" "$1"; } || { rm -f -- "$t"; return 1; }
}
unsafe() {
  echo "make_view.sh: '${1//[[:cntrl:]]/?}' has characters GTKWave would pass to a shell; $2 shown without names" >&2
}
# GTKWave overflows a fixed buffer on a save-file line of about 4000 characters (stack
# smashing): no line of the view may be longer than 1024 characters, so a filter path longer
# than 1000 is not named (one line says so) and a waves folder that long is refused
too_long() { [ ${#1} -gt 1000 ]; }
long() { echo "make_view.sh: a path of ${#1} characters is too long for a GTKWave view line (1000 at most); $2 shown without names" >&2; }
case "$dir" in *[[:cntrl:]]*) echo "make_view.sh: the waves folder's path has control characters" >&2; exit 2 ;; esac
too_long "$dir/filters/tcode.txt" && { echo "make_view.sh: the waves folder's path is too long for a GTKWave view line (${#dir} characters)" >&2; exit 2; }
if [ -n "${TS_VIEW_TMP:-}" ]; then
  abs=$(cd -- "$TS_VIEW_TMP" && pwd) || exit 2
  if too_long "$abs/symfilter.sh"; then long "$abs/symfilter.sh" "PCs and software trace ids are"; TS_VIEW_TMP=
  elif safe_path "$abs"; then TS_VIEW_TMP=$abs
  else unsafe "$TS_VIEW_TMP" "PCs and software trace ids are"; TS_VIEW_TMP=
  fi
fi
# the harts in the file: scopes soc, hart1, hart2, ... (read from the header only)
harts() {
  command -v fst2vcd >/dev/null || { echo 1; return; }
  { fst2vcd "$fst" 2>/dev/null || true; } | sed '/\$enddefinitions/q' |
    awk '/\$scope module hart[0-9]+ \$end/ {n++} END {print n + 1}'
}
# Without TS_SYMFILTER but with TS_VIEW_TMP (a folder that lives as long as GTKWave runs):
# when stats.txt beside the waves names an ELF that exists, write a filter wrapper there
# around tracesim ($TRACESIM, else tracesim on PATH, else build/tracesim of this checkout).
if [ -z "${TS_SYMFILTER:-}" ] && [ -n "${TS_VIEW_TMP:-}" ]; then
  stats=$(dirname -- "$fst")/stats.txt
  elf=$( [ -f "$stats" ] && awk '$1 == "elf" {print $2; exit}' "$stats" || true)
  ts=${TRACESIM:-$(command -v tracesim || echo "$dir/../build/tracesim")}
  if [ -n "$elf" ] && [ -f "$elf" ] && [ -x "$ts" ]; then
    elf=$(cd -- "$(dirname -- "$elf")" && pwd)/$(basename -- "$elf")
    ts=$(cd -- "$(dirname -- "$ts")" && pwd)/$(basename -- "$ts")
    put_script "$TS_VIEW_TMP/symfilter.sh" "$(printf '#!/bin/sh\nexec %s symfilter %s' "$(sq "$ts")" "$(sq "$elf")")
" && TS_SYMFILTER=$TS_VIEW_TMP/symfilter.sh
  fi
fi
# the software trace id filter needs no ELF: a wrapper whenever there is a tracesim
if [ -z "${TS_STMFILTER:-}" ] && [ -n "${TS_VIEW_TMP:-}" ]; then
  ts=${TRACESIM:-$(command -v tracesim || echo "$dir/../build/tracesim")}
  if [ -x "$ts" ]; then
    ts=$(cd -- "$(dirname -- "$ts")" && pwd)/$(basename -- "$ts")
    put_script "$TS_VIEW_TMP/stmfilter.sh" "$(printf '#!/bin/sh\nexec %s stmfilter' "$(sq "$ts")")
" && TS_STMFILTER=$TS_VIEW_TMP/stmfilter.sh
  fi
fi
if [ -n "${TS_SYMFILTER:-}" ] && too_long "$TS_SYMFILTER"; then long "$TS_SYMFILTER" "PCs are"; TS_SYMFILTER=; fi
if [ -n "${TS_STMFILTER:-}" ] && too_long "$TS_STMFILTER"; then long "$TS_STMFILTER" "software trace ids are"; TS_STMFILTER=; fi
if [ -n "${TS_SYMFILTER:-}" ] && ! safe_path "$TS_SYMFILTER"; then unsafe "$TS_SYMFILTER" "PCs are"; TS_SYMFILTER=; fi
if [ -n "${TS_STMFILTER:-}" ] && ! safe_path "$TS_STMFILTER"; then unsafe "$TS_STMFILTER" "software trace ids are"; TS_STMFILTER=; fi
# PC signals (program counters and the PCs of bus accesses) get the process filter: flags
# 0x4000 (translate process) | 0x22 (hex, right-justified), then the previous flags again
# (process filter 1); the software trace id stm_id_o gets `tracesim stmfilter` (filter 2)
symfilter() {
  awk -v f="${TS_SYMFILTER:-}" -v g="${TS_STMFILTER:-}" '
    /^@/ {flags = $0}
    f != "" && /^[a-z0-9_]+\..*(pc_q|pc_o|_pc|pc_if|pc_id|pc_ex|pc_mem|pc_wb|instr_addr_o)\[31:0\]$/ {
      print "@4022"; print "^>1 " f; print; if (flags != "") print flags; else print "@22"; next }
    g != "" && /^[a-z0-9_]+\..*\.stm_id_o\[15:0\]$/ {
      print "@4022"; print "^>2 " g; print; if (flags != "") print flags; else print "@22"; next }
    {print}'
}
if [ "$view" != harts ]; then
  [ -f "$dir/views/$view.gtkw" ] || { echo "make_view.sh: no view '$view' (pipeline, bus, trace, hpm, harts)" >&2; exit 2; }
  if [ "$hart" != 0 ]; then
    n=$(harts)
    [ "$hart" -lt "$n" ] || { echo "make_view.sh: $fst has $n hart(s); no hart $hart" >&2; exit 2; }
  fi
  scope=soc; [ "$hart" = 0 ] || scope=hart$hart
  sed -e "s|@WAVES@|$dir|g" -e "s|^soc\.|$scope.|" -e "s|^\[timestart\] 0$|[timestart] $start|" -e "s|^\(\[\*\] tracesim view: .*\)|\1 (hart $hart)|" \
    "$dir/views/$view.gtkw" | symfilter
  exit 0
fi
n=$(harts)
(
cat <<HDR
[*] tracesim view: every hart and the funnel's merge ($n harts)
[timestart] $start
[size] 1600 1000
[pos] -1 -1
[sst_width] 200
[signals_width] 300
[sst_expanded] 0
@28
soc.clk_i
soc.ts_soc_top.probe_dumping_i
HDR
for ((h = 0; h < n; h++)); do
  s=soc; [ "$h" = 0 ] || s=hart$h
  cat <<HART
@200
-hart $h
@22
$s.ts_soc_top.u_core.mem_pc_q[31:0]
@28
$s.ts_soc_top.data_req_o
$s.ts_soc_top.data_we_o
@22
$s.ts_soc_top.data_addr_o[31:0]
@28
$s.ts_soc_top.data_rdy_i
$s.ts_soc_top.probe_bus_arb_i
$s.ts_soc_top.probe_itc_stall_i
@24
$s.ts_soc_top.probe_itc_level_i[7:0]
@2024
^1 $dir/filters/tcode.txt
$s.ts_soc_top.probe_te_tcode_i[5:0]
HART
done
cat <<FUN
@200
-funnel and sink
@28
soc.ts_soc_top.probe_funnel_take_i
@24
soc.ts_soc_top.probe_funnel_src_i[2:0]
soc.ts_soc_top.probe_funnel_nbytes_i[5:0]
@22
soc.ts_soc_top.probe_sink_wp_i[31:0]
@28
soc.ts_soc_top.probe_sba_write_i
FUN
) | symfilter
