#!/usr/bin/env bash
# waves_test.sh BUILD_DIR CASE - checks the waveforms a run produces (fst2vcd from GTKWave
# reads them back). Cases:
#   signals     every signal the views in waves/views name exists in the dump
#   window      --waves-from/--waves-to dump exactly cycles [from, to) with probe_dumping_i 1,
#               time = cycle (one unit per cycle), then one sample at `to` with it 0 (the gap)
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
#   dumping     --waves-func of a function called several times: the stretches with
#               probe_dumping_i 1 in the VCD are the rows of waves_windows.csv, each from just
#               after a call (flow.csv) to just after its return, and each gap starts with one
#               sample with probe_dumping_i 0 at the row's `to`
#   zoom        tracesim waves opens on the region of interest (markers.tcl's zoom and primary
#               marker, view.gtkw's [timestart]): --at CYCLE; 8 cycles from 2 before MARK 1 of
#               a --waves-around-mark window; the first marker of a --waves-func window; --at outside
#               the dumped stretches is one line and exit 120
#   marks_window  markers.txt holds exactly the MARKs of marks.csv (stm_tp) inside --waves-from/--waves-to
#               (and says how many it left out)
#   markers     tracesim waves RUN --no-gui: fib's perf records in the dumped cycles [5000,
#               12000) as markers, one "fib enter" at each enter record's cycle (its timestamp
#               minus check's timestamp constant); every MARK of marks.csv; the cycle the sink
#               stopped (trace.json) with a 1 KiB SRAM sink, dumped around it; one marker per
#               lost ITC store (trace.json itc_lost);
#               markers.tcl names them A..Z; the view has the run's PC filter; bad uses
#   symfilter   tracesim symfilter names PCs as the ELF's symbol table (nm) says: a function's
#               start, start + 6, a value outside every function and a non-number pass through;
#               a view made for a run folder that names its ELF puts the filter on every PC
#               signal (and on nothing else); a bad ELF gives one line
#   prog        `run --trace-insn btm`: the trace view's probes show the program trace: the
#               SYNC at trace start, DIRECT and INDIRECT BRANCH messages (TCODE 9, 3, 4) and an
#               I-CNT that grows and returns to 0 (probe_te_icnt_i), in the first 6000 cycles
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -eu
build=$1; case_=$2
src=$(cd "$(dirname "$0")/.." && pwd)
sim=$build/tracesim
fw=$build/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
times() { grep '^#' "$1" | tr -d '#'; }
# the sample times (= cycles) at which soc.ts_soc_top.probe_dumping_i is 1
dumped() {
  awk '$1 == "$scope" {s[++d] = $3} $1 == "$upscope" {d--}
       $1 == "$var" && $5 == "probe_dumping_i" && d == 2 && s[1] == "soc" {id = $4}
       /^#/ {if (t != "" && v == "1") print t; t = substr($0, 2); next}
       id != "" && ($0 == "1" id || $0 == "0" id) {v = substr($0, 1, 1)}
       END {if (t != "" && v == "1") print t}' "$1"
}

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
  grep -qx '	1ns' "$tmp/w.vcd" || fail "timescale is not 1 unit = 1 ns (= 1 cycle)"
  t=$(dumped "$tmp/w.vcd")
  [ "$(echo "$t" | head -1)" = 100 ] || fail "first sample at $(echo "$t" | head -1), expected 100 (cycle 100)"
  [ "$(echo "$t" | tail -1)" = 249 ] || fail "last sample at $(echo "$t" | tail -1), expected 249 (cycle 249)"
  [ "$(echo "$t" | wc -l)" = 150 ] || fail "$(echo "$t" | wc -l) samples, expected 150"
  [ "$(times "$tmp/w.vcd" | tail -1)" = 250 ] && [ "$(times "$tmp/w.vcd" | wc -l)" = 151 ] ||
    fail "no single closing sample at 250: $(times "$tmp/w.vcd" | tail -2 | tr '\n' ' ')"
  [ "$(grep -c . "$tmp/r/waves_windows.csv")" = 2 ] && grep -qx '100,250' "$tmp/r/waves_windows.csv" ||
    fail "waves_windows.csv: $(cat "$tmp/r/waves_windows.csv")"
  echo "ok: cycles 100..249 dumped, 150 samples, dumping 0 at 250" ;;
switch)
  "$sim" run -q --waves "$tmp/w.vcd" --waves-by-firmware --out "$tmp/r" "$fw/tests/waves_switch.elf"
  on=$(awk -F, '$1 == 1 {print $2}' "$tmp/r/marks.csv"); off=$(awk -F, '$1 == 2 {print $2}' "$tmp/r/marks.csv")
  t=$(dumped "$tmp/w.vcd")
  first=$(echo "$t" | head -1); last=$(echo "$t" | tail -1)
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
  t=$(dumped "$tmp/w.vcd")
  first=$(echo "$t" | head -1); last=$(echo "$t" | tail -1)
  [ "$first" -gt "$c_call" ] && [ "$first" -le $((c_call + 5)) ] || fail "dump starts at $first, call at $c_call"
  [ "$last" -ge "$c_ret" ] && [ "$last" -le $((c_ret + 5)) ] || fail "dump ends at $last, return at $c_ret"
  [ "$(echo "$t" | wc -l)" = $((last - first + 1)) ] || fail "dump has gaps"
  echo "ok: fib on the stack from cycle $first to $last (call $c_call, return $c_ret)" ;;
around)
  "$sim" run -q --waves "$tmp/w.vcd" --waves-around-mark 1,20 --out "$tmp/r" "$fw/tests/waves_switch.elf"
  c=$(awk -F, '$1 == 1 {print $2; exit}' "$tmp/r/marks.csv")
  t=$(dumped "$tmp/w.vcd")
  [ "$(echo "$t" | head -1)" = $((c - 20)) ] || fail "first sample at $(echo "$t" | head -1), mark at cycle $c"
  [ "$(echo "$t" | tail -1)" = $((c + 20)) ] || fail "last sample at $(echo "$t" | tail -1), mark at cycle $c"
  [ "$(echo "$t" | wc -l)" = 41 ] || fail "$(echo "$t" | wc -l) samples, expected 41"
  echo "ok: cycles $((c - 20))..$((c + 20)) around MARK 1 at $c" ;;
markers)
  elf=$fw/examples/fib.elf
  "$sim" run -q --waves "$tmp/r/w.fst" --waves-from 5000 --waves-to 12000 --out "$tmp/r" "$elf"
  "$sim" waves "$tmp/r" pipeline --no-gui > "$tmp/out" || fail "tracesim waves failed"
  grep -q "^gtkwave $tmp/r/w.fst $tmp/r/view.gtkw -S $tmp/r/markers.tcl -l $tmp/r/markers.txt$" "$tmp/out" ||
    fail "unexpected command: $(cat "$tmp/out")"
  grep -q '^\^>1 ' "$tmp/r/view.gtkw" || fail "the view has no PC filter"
  # the records' cycles: their timestamps minus check's one constant (timestamp = store cycle + k)
  k=$("$sim" check "$tmp/r" | sed -n 's/.*timestamps equal the store cycle + \(-\{0,1\}[0-9]*\).*/\1/p' | head -1)
  [ -n "$k" ] || fail "check names no timestamp constant"
  "$sim" decode -f csv --time ticks --elf "$elf" "$tmp/r/trace.rtd" | awk -F, -v k="$k" '$3 == "enter" && $6 == "fib" && $1 - k >= 5000 && $1 - k < 12000 {print $1 - k}' > "$tmp/ts"
  awk '/ fib enter #/ {print $1}' "$tmp/r/markers.txt" > "$tmp/mk"
  [ "$(wc -l < "$tmp/mk")" -gt 20 ] || fail "only $(wc -l < "$tmp/mk") fib enter markers"
  diff "$tmp/ts" "$tmp/mk" > /dev/null || fail "fib enter markers are not the enter records' cycles in [5000, 12000)"
  awk '/ fib enter #3$/' "$tmp/r/markers.txt" | grep -q . || fail "no 'fib enter #3'"
  "$sim" run -q --waves "$tmp/k/w.fst" --out "$tmp/k" "$fw/tests/stm_tp.elf"     # dumped from start to end
  "$sim" waves "$tmp/k" --no-gui > /dev/null || fail "tracesim waves failed (marks)"
  awk -F, 'NR > 1 {print $2 "  hart " $4 " MARK " $1}' "$tmp/k/marks.csv" > "$tmp/m1"
  grep ' MARK ' "$tmp/k/markers.txt" > "$tmp/m2" || true
  [ -s "$tmp/m1" ] && diff "$tmp/m1" "$tmp/m2" > /dev/null || fail "MARK markers differ from marks.csv"
  [ "$(grep -c '^gtkwave::setNamedMarker [A-Z] [0-9]* {.*}$' "$tmp/r/markers.tcl")" = 26 ] || fail "not 26 named markers"
  # the sink stopping (stop on wrap), dumped around the stop cycle a first run found
  "$sim" run -q --trace-sram 1K --out "$tmp/s0" "$fw/examples/manual.elf"
  stop=$(sed -n 's/.*"stopped_at_cycle": \([0-9]*\).*/\1/p' "$tmp/s0/trace.json")
  [ -n "$stop" ] && [ "$stop" -gt 10 ] || fail "manual did not fill the 1 KiB sink"
  "$sim" run -q --trace-sram 1K --waves "$tmp/s/w.fst" --waves-from $((stop - 10)) --waves-to $((stop + 10)) --out "$tmp/s" "$fw/examples/manual.elf"
  "$sim" waves "$tmp/s" --no-gui > /dev/null || fail "tracesim waves failed (stop)"
  grep -qx "$stop  trace sink stopped (buffer full, stop on wrap)" "$tmp/s/markers.txt" || fail "no stop marker at cycle $stop"
  grep -q "^gtkwave::setNamedMarker [A-Z] $stop {trace sink stopped" "$tmp/s/markers.tcl" || fail "the stop is not a named marker"
  "$sim" run -q --waves "$tmp/o/w.fst" --out "$tmp/o" "$fw/tests/itc_overflow.elf"
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
dumping)
  # hello's uart output function is called once per character: several stretches
  elf=$fw/hello.elf
  fn=$(nm "$elf" | awk '$2 ~ /^[Tt]$/ && $3 ~ /^(ts_uart_putc|uart_putc|putchar)$/ {print $3; exit}')
  [ -n "$fn" ] || fail "no output function in hello.elf: $(nm "$elf" | awk '$2 ~ /^[Tt]$/ {print $3}' | tr '\n' ' ')"
  "$sim" run -q --waves "$tmp/w.vcd" --waves-func "$fn" --out "$tmp/r" "$elf"
  a=0x$(nm "$elf" | awk -v f="$fn" '$3 == f {print $1}')
  times "$tmp/w.vcd" > "$tmp/all"; dumped "$tmp/w.vcd" > "$tmp/on"
  awk 'NR == 1 {f = $1} NR > 1 && $1 != p + 1 {print f "," p + 1; f = $1} {p = $1} END {print f "," p + 1}' "$tmp/on" > "$tmp/vcd_win"
  tail -n +2 "$tmp/r/waves_windows.csv" > "$tmp/csv_win"
  [ "$(wc -l < "$tmp/csv_win")" -ge 3 ] || fail "only $(wc -l < "$tmp/csv_win") stretch(es) for $fn"
  diff "$tmp/csv_win" "$tmp/vcd_win" > /dev/null || fail "waves_windows.csv differs from the VCD's probe_dumping_i stretches"
  # every call into fn (flow.csv) opens one stretch a few cycles later; its return closes it
  awk -F, -v a="$a" '$3 == "call" && $5 == a {print $1, $6}' "$tmp/r/flow.csv" > "$tmp/calls"
  [ "$(wc -l < "$tmp/calls")" = "$(wc -l < "$tmp/csv_win")" ] || fail "$(wc -l < "$tmp/calls") calls, $(wc -l < "$tmp/csv_win") stretches"
  paste -d' ' "$tmp/calls" <(tr ',' ' ' < "$tmp/csv_win") | while read -r cc link from to; do
    ret=$(awk -F, -v l="$link" -v c="$cc" '$3 == "ret" && $5 == l && $1 > c {print $1; exit}' "$tmp/r/flow.csv")
    [ "$from" -gt "$cc" ] && [ "$from" -le $((cc + 5)) ] || fail "stretch from $from, call at $cc"
    [ "$to" -gt "$ret" ] && [ "$to" -le $((ret + 6)) ] || fail "stretch to $to, return at $ret"
    # the gap starts with one sample, dumping 0, at `to`
    grep -qx "$to" "$tmp/all" || fail "no sample at $to (the end of the stretch $from,$to)"
    if grep -qx "$to" "$tmp/on"; then fail "dumping is 1 at $to"; fi
  done
  echo "ok: $(wc -l < "$tmp/csv_win") stretches of $fn, each closed by a dumping-0 sample" ;;
zoom)
  "$sim" run -q --waves "$tmp/r/w.fst" --waves-around-mark 1,20 --out "$tmp/r" "$fw/tests/waves_switch.elf"
  c=$(awk -F, '$1 == 1 {print $2; exit}' "$tmp/r/marks.csv")
  "$sim" waves "$tmp/r" --no-gui > /dev/null || fail "tracesim waves failed (around)"
  # 8 cycles from 2 before the mark (names and values readable; docs/commands/waves.md)
  grep -qx "gtkwave::setZoomRangeTimes $((c - 2)) $((c + 6))" "$tmp/r/markers.tcl" ||
    fail "around: zoom $(grep Zoom "$tmp/r/markers.tcl"), mark at $c"
  grep -qx '\[timestart\] '$((c - 2)) "$tmp/r/view.gtkw" || fail "around: the view does not start at $((c - 2))"
  "$sim" waves "$tmp/r" --no-gui --at $((c + 3)) > /dev/null || fail "tracesim waves --at failed"
  grep -qx "gtkwave::setMarker $((c + 3))" "$tmp/r/markers.tcl" || fail "--at: no primary marker at $((c + 3))"
  rc=0; "$sim" waves "$tmp/r" --no-gui --at $((c + 21)) 2> "$tmp/e" > /dev/null || rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] && [ "$(wc -l < "$tmp/e")" = 1 ] && grep -q "was not dumped" "$tmp/e" || fail "--at outside: rc $rc, $(cat "$tmp/e")"
  rc=0; "$sim" waves "$tmp/r" --no-gui --at 12x 2> "$tmp/e" > /dev/null || rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] && [ "$(wc -l < "$tmp/e")" = 1 ] && grep -q "invalid value '12x' for --at" "$tmp/e" || fail "--at 12x: rc $rc, $(cat "$tmp/e")"
  # a long stretch: 8 cycles from 2 before the first marker (fib enter #1, at the start of fib)
  elf=$fw/examples/fib.elf
  "$sim" run -q --waves "$tmp/f/w.fst" --waves-func fib --out "$tmp/f" "$elf"
  "$sim" waves "$tmp/f" --no-gui > /dev/null || fail "tracesim waves failed (func)"
  m=$(grep -v '^#' "$tmp/f/markers.txt" | head -1)
  case "$m" in *" fib enter #1") ;; *) fail "the first marker is '$m'" ;; esac
  m=${m%% *}
  from=$(awk -F, 'NR == 2 {print $1}' "$tmp/f/waves_windows.csv")
  z=$(( m - 2 > from ? m - 2 : from ))
  grep -qx "gtkwave::setZoomRangeTimes $z $((z + 8))" "$tmp/f/markers.tcl" || fail "func: $(grep Zoom "$tmp/f/markers.tcl"), marker $m"
  grep -qx "gtkwave::setMarker $m" "$tmp/f/markers.tcl" || fail "func: the primary marker is not on $m"
  echo "ok: zoom on the around-mark window, --at, the first marker of a func window" ;;
marks_window)
  "$sim" run -q --out "$tmp/a" "$fw/tests/stm_tp.elf"
  n=$(tail -n +2 "$tmp/a/marks.csv" | wc -l)
  [ "$n" -ge 3 ] || fail "stm_tp writes only $n MARKs"
  lo=$(awk -F, 'NR == 3 {print $2}' "$tmp/a/marks.csv"); hi=$(awk -F, 'NR == 4 {print $2}' "$tmp/a/marks.csv")
  "$sim" run -q --waves "$tmp/r/w.fst" --waves-from "$lo" --waves-to $((hi + 1)) --out "$tmp/r" "$fw/tests/stm_tp.elf"
  "$sim" waves "$tmp/r" --no-gui > /dev/null || fail "tracesim waves failed"
  awk -F, -v lo="$lo" -v hi="$hi" 'NR > 1 && $2 >= lo && $2 <= hi {print $2 "  hart " $4 " MARK " $1}' "$tmp/r/marks.csv" > "$tmp/want"
  grep ' MARK ' "$tmp/r/markers.txt" > "$tmp/got" || true
  [ "$(wc -l < "$tmp/want")" -ge 2 ] && diff "$tmp/want" "$tmp/got" > /dev/null || fail "MARKs in [$lo, $hi]: $(cat "$tmp/got")"
  out=$(($(tail -n +2 "$tmp/r/marks.csv" | wc -l) - $(wc -l < "$tmp/want")))
  [ "$out" -gt 0 ] || fail "every MARK is inside the window: the test shows nothing"
  grep -q "^# [0-9]* marker(s) outside the dumped stretches" "$tmp/r/markers.txt" || fail "markers.txt does not say what it left out"
  echo "ok: the $(wc -l < "$tmp/want") MARKs of [$lo, $hi] and no other" ;;
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
