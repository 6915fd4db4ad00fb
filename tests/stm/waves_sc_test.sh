#!/usr/bin/env bash
# waves_sc_test.sh BUILD_DIR CASE - the software trace port in the waves (README "Software
# trace in the waves"). Cases:
#   stmfilter  tracesim stmfilter names ids as the seed's table groups them (expected names
#              written by hand: USER 0x0001-0x3fff, COM 0x4000-0x7fff with THREAD_NAME 0x4000,
#              SYS THREAD_SWITCH 0x8000, RSVD 0x8001-0xbfff, SYS 0xc000-0xffff, NONE 0);
#              non-numbers pass through, an argument is refused in one line; a view made by
#              make_view.sh puts the filter on stm_id_o and on nothing else
#   port       stm_port.elf's waves: stm_enable_o is 1 in exactly the cycles after the commit
#              cycles of stm.csv, with stm.csv's id on stm_id_o and value on stm_value_o, and
#              the tracked a0 (stm_a0_q) holding that value (stm_port's events are all CSR writes)
#   markers    stm_lost.elf loses events of every group to a full FIFO: tracesim waves writes
#              one marker per stm.csv row with status lost, at its cycle, named by group (names
#              by hand from the ids), and none of them reads as an ITC loss
set -eu
build=$1; case_=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
sim=$build/tracesim
fw=$build/firmware/tests/stm_port.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

case "$case_" in
stmfilter)
  cat > "$tmp/in" <<'IN'
0001
0012
0x0012
3fff
4000
4001
7fff
8000
8001
8123
bfff
c000
C001
ffff
0000
1000000000000000
0000000000010010
xxxx
12345
zz
IN
  cat > "$tmp/want" <<'WANT'
USER 0x0001
USER 0x0012
USER 0x0012
USER 0x3fff
COM THREAD_NAME
COM 0x4001
COM 0x7fff
SYS THREAD_SWITCH
RSVD 0x8001
RSVD 0x8123
RSVD 0xbfff
SYS 0xc000
SYS 0xc001
SYS 0xffff
NONE
SYS THREAD_SWITCH
USER 0x0012
xxxx
12345
zz
WANT
  "$sim" stmfilter < "$tmp/in" > "$tmp/out"
  diff "$tmp/want" "$tmp/out" || fail "stmfilter names differ from the seed's table"
  "$sim" stmfilter extra < /dev/null 2> "$tmp/err" && fail "an argument was accepted"
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "unclear: $(cat "$tmp/err")"
  # the view: the filter on stm_id_o only, through a wrapper that answers
  "$sim" run -q --max-cycles 200 --waves "$tmp/r/w.fst" --out "$tmp/r" "$fw" 2>/dev/null || true
  mkdir -p "$tmp/v"
  TRACESIM=$sim TS_VIEW_TMP=$tmp/v "$src/waves/make_view.sh" "$tmp/r/w.fst" pipeline > "$tmp/p.gtkw"
  [ "$(grep -c '^\^>2 ' "$tmp/p.gtkw")" = 1 ] || fail "not one stm id filter in the view"
  [ "$(grep -A1 '^\^>2 ' "$tmp/p.gtkw" | tail -1)" = soc.ts_soc_top.u_core.stm_id_o[15:0] ] ||
    fail "the stm id filter is not on stm_id_o"
  [ "$(grep -B2 '^soc.ts_soc_top.u_core.stm_id_o' "$tmp/p.gtkw" | head -1)" = @4022 ] || fail "stm_id_o's flags are not a translate process filter"
  printf '4000\n' | "$tmp/v/stmfilter.sh" | grep -qx 'COM THREAD_NAME' || fail "the wrapper does not answer"
  "$sim" waves "$tmp/r" --no-gui > /dev/null || fail "tracesim waves failed"
  grep -q '^\^>2 .*stmfilter' "$tmp/r/view.gtkw" || fail "tracesim waves' view has no stm id filter"
  echo "ok: stmfilter" ;;
port)
  "$sim" run -q --waves "$tmp/w.fst" --out "$tmp/r" "$fw"
  fst2vcd -f "$tmp/w.fst" > "$tmp/w.vcd" 2>/dev/null
  # the VCD codes of the port signals in scope soc.ts_soc_top.u_core, then every sample time
  # with stm_enable_o = 1 as "cycle-1,id,value,a0 = value" (the commit cycle)
  awk '
    $1 == "$scope" {s[++d] = $3} $1 == "$upscope" {d--}
    $1 == "$var" && d == 3 && s[1] == "soc" && s[2] == "ts_soc_top" && s[3] == "u_core" {
      if ($5 == "stm_enable_o") en = $4; if ($5 == "stm_id_o") id = $4
      if ($5 == "stm_value_o") val = $4; if ($5 == "stm_a0_q") a0 = $4 }
    function flush() { if (t != "" && v[en] == "1") printf "%d,0x%04x,0x%08x,%d\n", t - 1, v[id], v[val], v[a0] == v[val] }
    function num(b,  n, i) { n = 0; for (i = 1; i <= length(b); i++) n = n * 2 + (substr(b, i, 1) == "1"); return n }
    /^#/ { flush(); t = substr($0, 2); next }
    /^b/ { v[$2] = num(substr($1, 2)); next }
    /^[01]/ { v[substr($0, 2)] = substr($0, 1, 1); next }
    END { flush() }' "$tmp/w.vcd" > "$tmp/waves"
  [ -n "$(head -1 "$tmp/waves")" ] || fail "stm_enable_o is never 1 in the waves"
  tail -n +2 "$tmp/r/stm.csv" | awk -F, '{print $1 "," $3 "," $4 ",1"}' > "$tmp/want"
  [ "$(wc -l < "$tmp/want")" = 22 ] || fail "stm.csv has $(wc -l < "$tmp/want") events, not 22"
  diff "$tmp/want" "$tmp/waves" || fail "the port in the waves differs from stm.csv (cycle,id,value,a0 = value)"
  echo "ok: port: 22 events in the waves as in stm.csv" ;;
markers)
  "$sim" run -q --waves "$tmp/r/w.fst" --out "$tmp/r" "$build/firmware/tests/stm_lost.elf"
  "$sim" waves "$tmp/r" --no-gui > /dev/null || fail "tracesim waves failed"
  awk -F, '$5 == "lost" {print $1, $3}' "$tmp/r/stm.csv" | while read -r c id; do
    case $id in
      0x4000) n="COM THREAD_NAME" ;; 0x8123) n="RSVD 0x8123" ;; 0xc001) n="SYS 0xc001" ;;
      0x00[01]?) n="USER $id" ;;
      *) fail "unexpected id $id" ;;
    esac
    echo "$c  hart 0 software trace event $n lost (FIFO full)"
  done > "$tmp/want"
  [ "$(wc -l < "$tmp/want")" -ge 3 ] || fail "stm_lost lost only $(wc -l < "$tmp/want") events"
  for g in USER COM RSVD SYS; do grep -q " event $g " "$tmp/want" || fail "no $g event lost"; done
  grep 'software trace event' "$tmp/r/markers.txt" > "$tmp/got" || true
  diff "$tmp/want" "$tmp/got" || fail "loss markers differ from stm.csv"
  grep -q 'ITC store' "$tmp/r/markers.txt" && fail "a software trace loss named an ITC loss"
  grep -q '^gtkwave::setNamedMarker [A-Z] [0-9]* {hart 0 software trace event' "$tmp/r/markers.tcl" || fail "no loss is a named marker"
  echo "ok: markers: $(wc -l < "$tmp/want") lost events" ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
