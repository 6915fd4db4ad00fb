#!/usr/bin/env bash
# waves_test.sh BUILD_DIR CASE - checks the waveforms a run produces (fst2vcd from GTKWave
# reads them back). Cases:
#   signals     every signal the views in waves/views name exists in the dump
#   window      --waves-from/--waves-to dump exactly cycles [from, to)
#   switch      --waves-by-firmware dumps exactly while the firmware has WAVES = 1
#   vcd         VCD output by file name
#   screenshot  waves/screenshot.sh renders a PNG of a view
#   all         by default only the views' signals are dumped (every one of them, and fewer
#               than a third of the model's); --waves-all dumps the rest too (the divider's)
#   func        --waves-func fib dumps one contiguous stretch from just after the call into fib
#               (flow.csv's call row with target = fib's address from nm) to just after the
#               return to that call's link address (flow.csv's ret row), nothing else
#   around      --waves-around-mark 1,20 dumps exactly cycles [c - 20, c + 20] around the
#               cycle c of MARK 1 in marks.csv
#   markers     tracesim waves RUN --no-gui: fib's perf records as markers, as many "fib enter"
#               as the decoded trace has enter records and spaced by the same cycles as their
#               timestamps; every MARK of marks.csv; the cycle the sink stopped (trace.json)
#               with a 1 KiB SRAM sink; one marker per lost ITC store (trace.json itc_lost);
#               markers.tcl names them A..Z; the view has the run's PC filter; bad uses
#   symfilter   tracesim symfilter names PCs as the ELF's symbol table (nm) says: a function's
#               start, start + 6, a value outside every function and a non-number pass through;
#               a view made for a run folder that names its ELF puts the filter on every PC
#               signal (and on nothing else); a bad ELF gives one line
#   prog        `run --trace-insn btm`: the trace view's probes show the program trace: the
#               SYNC at trace start, DIRECT and INDIRECT BRANCH messages (TCODE 9, 3, 4) and an
#               I-CNT that grows and returns to 0 (probe_te_icnt_i), in the first 6000 cycles
set -eu
build=$1; case_=$2
src=$(cd "$(dirname "$0")/.." && pwd)
sim=$build/tracesim
fw=$build/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
times() { grep '^#' "$1" | tr -d '#'; }

case "$case_" in
prog)
  "$sim" run -q --trace-insn btm --waves-to 6000 --waves "$tmp/w.fst" --out "$tmp/r" "$fw/examples/fib.elf"
  fst2vcd -f "$tmp/w.fst" > "$tmp/w.vcd" 2>/dev/null
  # the values of one signal of scope soc.ts_soc_top: "name" -> one value (decimal) a line
  values() {
    awk -v want="$1" '$1 == "$scope" {s[++d] = $3} $1 == "$upscope" {d--}
      $1 == "$var" && s[d] == "ts_soc_top" && s[d - 1] == "soc" && $5 == want {id = $4}
      id != "" && /^b[01]+ / && $2 == id { v = 0; n = length($1); for (i = 2; i <= n; i++) v = 2 * v + substr($1, i, 1); print v }' "$2"
  }
  values probe_te_tcode_i "$tmp/w.vcd" | sort -un > "$tmp/tcodes"
  for t in 3 4 9; do grep -qx "$t" "$tmp/tcodes" || fail "no TCODE $t in probe_te_tcode_i: $(tr '\n' ' ' < "$tmp/tcodes")"; done
  values probe_te_icnt_i "$tmp/w.vcd" > "$tmp/icnt"
  max=$(sort -n "$tmp/icnt" | tail -1)
  [ "${max:-0}" -gt 4 ] || fail "probe_te_icnt_i never above 4 (max ${max:-none})"
  grep -qx 0 "$tmp/icnt" || fail "probe_te_icnt_i never back to 0"
  echo "ok: TCODEs $(tr '\n' ' ' < "$tmp/tcodes"), I-CNT up to $max"
  ;;
signals)
  "$sim" run -q --waves "$tmp/w.fst" --out "$tmp/r" "$fw/tests/itc_sram.elf"
  fst2vcd -f "$tmp/w.fst" > "$tmp/w.vcd" 2>/dev/null
  # full names from the VCD scopes: scope path + signal name (without the bit range)
  awk '$1 == "$scope" {s[++d] = $3} $1 == "$upscope" {d--}
       $1 == "$var" {p = s[1]; for (i = 2; i <= d; i++) p = p "." s[i]; print p "." $5}' "$tmp/w.vcd" | sort -u > "$tmp/names"
  n=0
  for v in "$src"/waves/views/*.gtkw; do
    for sig in $(grep -E '^soc\.' "$v" | sed 's/\[.*//'); do
      grep -qxF "$sig" "$tmp/names" || fail "$(basename "$v") names $sig, which the dump does not have"
      n=$((n + 1))
    done
  done
  [ "$n" -gt 60 ] || fail "only $n signals found in the views"
  echo "ok: all $n signals of the views are in the dump" ;;
window)
  "$sim" run -q --waves "$tmp/w.vcd" --waves-from 100 --waves-to 250 --out "$tmp/r" "$fw/hello.elf"
  t=$(times "$tmp/w.vcd")
  [ "$(echo "$t" | head -1)" = 1000 ] || fail "first sample at $(echo "$t" | head -1), expected 1000 (cycle 100)"
  [ "$(echo "$t" | tail -1)" = 2490 ] || fail "last sample at $(echo "$t" | tail -1), expected 2490 (cycle 249)"
  [ "$(echo "$t" | wc -l)" = 150 ] || fail "$(echo "$t" | wc -l) samples, expected 150"
  echo "ok: cycles 100..249 dumped, 150 samples" ;;
switch)
  "$sim" run -q --waves "$tmp/w.vcd" --waves-by-firmware --out "$tmp/r" "$fw/tests/waves_switch.elf"
  on=$(awk -F, '$1 == 1 {print $2}' "$tmp/r/marks.csv"); off=$(awk -F, '$1 == 2 {print $2}' "$tmp/r/marks.csv")
  t=$(times "$tmp/w.vcd")
  first=$(( $(echo "$t" | head -1) / 10 )); last=$(( $(echo "$t" | tail -1) / 10 ))
  # the WAVES store commits 1 cycle after the MARK store before it (on), and the MARK after
  # the WAVES=0 store commits 1 cycle after it (off): dumping covers (on, off)
  [ "$first" -gt "$on" ] && [ "$first" -le $((on + 3)) ] || fail "dump starts at cycle $first, switch-on mark at $on"
  [ "$last" -lt "$off" ] && [ "$last" -ge $((off - 3)) ] || fail "dump ends at cycle $last, switch-off mark at $off"
  [ "$(echo "$t" | wc -l)" = $((last - first + 1)) ] || fail "dump has gaps"
  echo "ok: dumped cycles $first..$last between the marks at $on and $off" ;;
vcd)
  "$sim" run -q --waves "$tmp/w.vcd" --waves-to 50 --out "$tmp/r" "$fw/hello.elf"
  head -c 4096 "$tmp/w.vcd" | grep -q '\$timescale' || fail "not a VCD file"
  grep -q 'probe_te_tcode_i' "$tmp/w.vcd" || fail "VCD lacks the probe signals"
  [ ! -e "$tmp/w.vcd.tmp.fst" ] || fail "temporary FST left behind"
  echo "ok: VCD written" ;;
screenshot)
  "$sim" run -q --waves "$tmp/w.fst" --out "$tmp/r" "$fw/tests/itc_sram.elf"
  c=$(awk -F, 'NR == 2 {print $1}' "$tmp/r/itc.csv")
  "$src/waves/screenshot.sh" "$tmp/w.fst" trace "$tmp/t.png" $((c - 5)) $((c + 15)) >/dev/null
  [ "$(head -c 8 "$tmp/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "not a PNG"
  [ "$(stat -c %s "$tmp/t.png")" -gt 10000 ] || fail "PNG suspiciously small"
  echo "ok: $(stat -c %s "$tmp/t.png") byte PNG" ;;
all)
  names() {   # the full signal names in a dump
    fst2vcd "$1" | sed '/\$enddefinitions/q' | awk '$1 == "$scope" {s[++d] = $3} $1 == "$upscope" {d--}
      $1 == "$var" {p = s[1]; for (i = 2; i <= d; i++) p = p "." s[i]; print p "." $5}' | sort -u
  }
  "$sim" run -q --max-cycles 300 --waves "$tmp/d.fst" --out "$tmp/r" "$fw/hello.elf" 2>/dev/null || true
  "$sim" run -q --max-cycles 300 --waves-all --waves "$tmp/a.fst" --out "$tmp/r" "$fw/hello.elf" 2>/dev/null || true
  names "$tmp/d.fst" > "$tmp/d"; names "$tmp/a.fst" > "$tmp/a"
  cat "$src"/waves/views/*.gtkw | grep -E '^soc\.' | sed 's/\[.*//' | sort -u > "$tmp/v"
  [ -z "$(comm -23 "$tmp/v" "$tmp/d")" ] || fail "default dump lacks view signals: $(comm -23 "$tmp/v" "$tmp/d" | head -3)"
  [ -z "$(comm -23 "$tmp/d" "$tmp/a")" ] || fail "--waves-all lacks signals of the default dump"
  [ $((3 * $(wc -l < "$tmp/d"))) -lt "$(wc -l < "$tmp/a")" ] || fail "default $(wc -l < "$tmp/d") signals, all $(wc -l < "$tmp/a")"
  grep -q '^soc\.ts_soc_top\.u_core\.u_div\.' "$tmp/a" || fail "--waves-all lacks the divider"
  grep -q '^soc\.ts_soc_top\.u_core\.u_div\.' "$tmp/d" && fail "the default dump has the divider"
  echo "ok: $(wc -l < "$tmp/d") signals by default, $(wc -l < "$tmp/a") with --waves-all" ;;
func)
  elf=$fw/examples/fib.elf
  "$sim" run -q --waves "$tmp/w.vcd" --waves-func fib --out "$tmp/r" "$elf"
  a=0x$(nm "$elf" | awk '$3 == "fib" {print $1}')
  call=$(awk -F, -v a="$a" '$3 == "call" && $5 == a {print $1 " " $6; exit}' "$tmp/r/flow.csv")
  [ -n "$call" ] || fail "no call into fib ($a) in flow.csv"
  set -- $call
  c_call=$1; link=$2
  c_ret=$(awk -F, -v l="$link" '$3 == "ret" && $5 == l {print $1; exit}' "$tmp/r/flow.csv")
  [ -n "$c_ret" ] || fail "no return to $link in flow.csv"
  t=$(times "$tmp/w.vcd")
  first=$(( $(echo "$t" | head -1) / 10 )); last=$(( $(echo "$t" | tail -1) / 10 ))
  [ "$first" -gt "$c_call" ] && [ "$first" -le $((c_call + 5)) ] || fail "dump starts at $first, call at $c_call"
  [ "$last" -ge "$c_ret" ] && [ "$last" -le $((c_ret + 5)) ] || fail "dump ends at $last, return at $c_ret"
  [ "$(echo "$t" | wc -l)" = $((last - first + 1)) ] || fail "dump has gaps"
  echo "ok: fib on the stack from cycle $first to $last (call $c_call, return $c_ret)" ;;
around)
  "$sim" run -q --waves "$tmp/w.vcd" --waves-around-mark 1,20 --out "$tmp/r" "$fw/tests/waves_switch.elf"
  c=$(awk -F, '$1 == 1 {print $2; exit}' "$tmp/r/marks.csv")
  t=$(times "$tmp/w.vcd")
  [ "$(echo "$t" | head -1)" = $(( (c - 20) * 10 )) ] || fail "first sample at $(echo "$t" | head -1), mark at cycle $c"
  [ "$(echo "$t" | tail -1)" = $(( (c + 20) * 10 )) ] || fail "last sample at $(echo "$t" | tail -1), mark at cycle $c"
  [ "$(echo "$t" | wc -l)" = 41 ] || fail "$(echo "$t" | wc -l) samples, expected 41"
  echo "ok: cycles $((c - 20))..$((c + 20)) around MARK 1 at $c" ;;
markers)
  elf=$fw/examples/fib.elf
  "$sim" run -q --waves "$tmp/r/w.fst" --waves-to 2000 --out "$tmp/r" "$elf"
  "$sim" waves "$tmp/r" pipeline --no-gui > "$tmp/out" || fail "tracesim waves failed"
  grep -q "^gtkwave $tmp/r/w.fst $tmp/r/view.gtkw -S $tmp/r/markers.tcl -l $tmp/r/markers.txt$" "$tmp/out" ||
    fail "unexpected command: $(cat "$tmp/out")"
  grep -q '^\^>1 ' "$tmp/r/view.gtkw" || fail "the view has no PC filter"
  "$sim" decode -f csv --elf "$elf" "$tmp/r/trace.rtd" | awk -F, '$3 == "enter" && $6 == "fib" {print $1}' > "$tmp/ts"
  awk '/ fib enter #/ {print $1 / 10}' "$tmp/r/markers.txt" > "$tmp/mk"
  [ "$(wc -l < "$tmp/mk")" -gt 100 ] && [ "$(wc -l < "$tmp/mk")" = "$(wc -l < "$tmp/ts")" ] ||
    fail "$(wc -l < "$tmp/mk") fib enter markers, $(wc -l < "$tmp/ts") enter records in the trace"
  paste -d' ' "$tmp/mk" "$tmp/ts" | awk 'NR == 1 {d = $1 - $2} $1 - $2 != d {bad++} END {exit bad > 0}' ||
    fail "marker cycles and record timestamps are not one constant apart"
  awk '/ fib enter #3$/' "$tmp/r/markers.txt" | grep -q . || fail "no 'fib enter #3'"
  "$sim" run -q --waves "$tmp/k/w.fst" --out "$tmp/k" "$fw/tests/waves_switch.elf"
  "$sim" waves "$tmp/k" --no-gui > /dev/null || fail "tracesim waves failed (marks)"
  awk -F, 'NR > 1 {print 10 * $2 " ns  hart " $4 " MARK " $1}' "$tmp/k/marks.csv" > "$tmp/m1"
  grep ' MARK ' "$tmp/k/markers.txt" > "$tmp/m2" || true
  [ -s "$tmp/m1" ] && diff "$tmp/m1" "$tmp/m2" > /dev/null || fail "MARK markers differ from marks.csv"
  [ "$(grep -c '^gtkwave::setNamedMarker [A-Z] [0-9]* {.*}$' "$tmp/r/markers.tcl")" = 26 ] || fail "not 26 named markers"
  # the sink stopping (stop on wrap) and lost stores
  "$sim" run -q --trace-sram 1K --waves "$tmp/s/w.fst" --waves-to 10 --out "$tmp/s" "$fw/examples/manual.elf"
  "$sim" waves "$tmp/s" --no-gui > /dev/null || fail "tracesim waves failed (stop)"
  stop=$(sed -n 's/.*"stopped_at_cycle": \([0-9]*\).*/\1/p' "$tmp/s/trace.json")
  [ -n "$stop" ] && [ "$stop" -gt 0 ] || fail "manual did not fill the 1 KiB sink"
  grep -qx "$((10 * stop)) ns  trace sink stopped (buffer full, stop on wrap)" "$tmp/s/markers.txt" || fail "no stop marker at cycle $stop"
  grep -q "^gtkwave::setNamedMarker [A-Z] $((10 * stop)) {trace sink stopped" "$tmp/s/markers.tcl" || fail "the stop is not a named marker"
  "$sim" run -q --waves "$tmp/o/w.fst" --waves-to 10 --out "$tmp/o" "$fw/tests/itc_overflow.elf"
  "$sim" waves "$tmp/o" --no-gui > /dev/null || fail "tracesim waves failed (overflow)"
  lost=$(sed -n 's/.*"itc_lost": \([0-9]*\).*/\1/p' "$tmp/o/trace.json")
  [ "$lost" -gt 0 ] && [ "$(grep -c 'ITC store to channel [0-9]* lost' "$tmp/o/markers.txt")" = "$lost" ] ||
    fail "$(grep -c 'lost' "$tmp/o/markers.txt") loss markers, trace.json says $lost"
  # bad uses: a run without waves, no run folder, an unknown view
  "$sim" run -q --max-cycles 100 --out "$tmp/n" "$fw/hello.elf" 2>/dev/null || true
  "$sim" waves "$tmp/n" --no-gui 2> "$tmp/e1" && fail "a run without waves was accepted"
  grep -q "names no waves" "$tmp/e1" && [ "$(wc -l < "$tmp/e1")" = 1 ] || fail "unclear: $(cat "$tmp/e1")"
  "$sim" waves "$tmp/nothing" --no-gui 2> "$tmp/e2" && fail "a missing run folder was accepted"
  [ "$(wc -l < "$tmp/e2")" = 1 ] || fail "unclear: $(cat "$tmp/e2")"
  "$sim" waves "$tmp/r" frob --no-gui 2> "$tmp/e3" > /dev/null && fail "an unknown view was accepted"
  grep -q "no view 'frob'" "$tmp/e3" || fail "unclear: $(cat "$tmp/e3")"
  echo "ok: markers" ;;
symfilter)
  elf=$fw/hello.elf
  # three function symbols with a size of at least 8 bytes, from nm (an independent reader)
  nm -S --defined-only "$elf" | awk '($3 == "T" || $3 == "t") && $4 !~ /^\$/ && length($2) == 8 && $2 > "00000007" {print $1, $4}' |
    sort -u -k1,1 | head -3 > "$tmp/syms"
  [ "$(wc -l < "$tmp/syms")" = 3 ] || fail "nm found too few functions"
  while read -r a name; do printf '%s\n%x\n' "$a" $((0x$a + 6)); done < "$tmp/syms" > "$tmp/in"
  printf 'fffffff0\nxxxxxxxx\n' >> "$tmp/in"
  "$sim" symfilter "$elf" < "$tmp/in" > "$tmp/out"
  while read -r a name; do printf '%s\n%s+0x6\n' "$name" "$name"; done < "$tmp/syms" > "$tmp/want"
  printf 'fffffff0\nxxxxxxxx\n' >> "$tmp/want"
  diff "$tmp/want" "$tmp/out" || fail "symfilter names differ from nm"
  "$sim" run -q --max-cycles 200 --waves "$tmp/r/w.fst" --out "$tmp/r" "$elf" 2>/dev/null || true
  mkdir -p "$tmp/v"
  TRACESIM=$sim TS_VIEW_TMP=$tmp/v "$src/waves/make_view.sh" "$tmp/r/w.fst" pipeline > "$tmp/p.gtkw"
  [ -x "$tmp/v/symfilter.sh" ] || fail "no filter wrapper made for a run folder that names its ELF"
  f=$(grep -c '^\^>1 ' "$tmp/p.gtkw"); pcs=$(grep -cE '^soc\..*pc[a-z_]*\[31:0\]$' "$tmp/p.gtkw")
  [ "$f" -ge 5 ] && [ "$f" = "$pcs" ] || fail "$f process filters for $pcs PC signals"
  [ "$(grep -A1 '^\^>1 ' "$tmp/p.gtkw" | grep -vcE '^(\^>1 |--|soc\..*pc[a-z_]*\[31:0\])')" = 0 ] ||
    fail "a process filter on a signal that is no PC"
  printf '80000000\n' | "$tmp/v/symfilter.sh" | grep -qx '_start' || fail "the wrapper does not answer"
  "$sim" symfilter "$tmp/p.gtkw" < /dev/null 2> "$tmp/err" && fail "a bad ELF was accepted"
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "bad ELF: $(cat "$tmp/err")"
  echo "ok: symfilter" ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
