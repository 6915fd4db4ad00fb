#!/usr/bin/env bash
# untrusted_test.sh BUILD_DIR CASE - nothing from a firmware ELF or a run folder is executed or
# interpreted by a shell or Tcl (docs/internals.md "Untrusted input", threat model). Every case plants canaries:
# hostile strings that would create a file if anything ran them; the file must never appear.
#   tcl_markers  fib.elf with `fib` renamed (objcopy --redefine-sym) to Tcl/shell attacks:
#                braces, brackets, $, backquotes, quotes, semicolons, a backslash, a newline,
#                a 300-byte name; `tracesim waves --no-gui`, then markers.tcl run by tclsh with
#                stub gtkwave:: procs: no canary, and the 26 named markers are exactly
#                "hart 0 NAME enter|exit #k" (NAME cut to 63 bytes, the whole to 95, markers.h);
#                markers.txt keeps one marker per line
#   view_paths   an ELF in a folder named with $(...), backquotes, quotes and ';': the view's
#                symfilter wrapper answers fib's PC with the renamed name (the exact path got
#                through) and runs nothing; a run folder with blanks, $(...), backquotes,
#                quotes, or a newline: `tracesim waves` succeeds, says in one line that the PC
#                names are off, and the view names no process filter (GTKWave would pass its
#                path to /bin/sh through `which`); the GTKWave command it prints, pasted into
#                bash, passes the exact paths; a view name like ../x is refused
#   gtkwave      end to end: GTKWave under xvfb-run loads the hostile run's markers.tcl and a
#                view whose symfilter wrapper names the hostile ELF path; no canary, no Tcl
#                error; waves/screenshot.sh refuses a cycle that is no number
#   filter_lines symfilter and stmfilter: lines of 5000 and 10000 bytes (the last one without
#                a newline) get exactly one answer each, and a symbol name with a newline is
#                one answer line
#   sbatch       a newline in --partition, --time, --account, --sbatch-arg or the spec's path
#                is refused with one line (exit 120, no script); a newline in the spec's name
#                does not become a line of the script
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
build=$(cd "$1" && pwd); case_=$2
src=$(cd "$(dirname "$0")/.." && pwd)
ts=$build/tracesim
fw=$build/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
canary=$tmp/canary
no_canary() { [ ! -e "$canary" ] && [ -z "$(find "$tmp" -name 'canary*' -type f)" ] || fail "$1: a canary was created"; }
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# the stub GTKWave of markers.tcl: every name, hex-encoded (names may hold newlines)
cat > "$tmp/stub.tcl" <<'EOF'
namespace eval gtkwave {}
set ::names {}
proc gtkwave::setNamedMarker {letter time name} { lappend ::names $name }
proc gtkwave::setZoomRangeTimes {from to} {}
proc gtkwave::setMarker {time} {}
source [lindex $argv 0]
set f [open [lindex $argv 1] w]
foreach n $::names { puts $f [binary encode hex [encoding convertto utf-8 $n]] }
close $f
EOF
export LC_ALL=C
long=$(printf '[exec touch %s]%.0s' "$canary" {1..12})
hostile=(
  "} [exec touch $canary] {"
  "[exec touch $canary]"
  "\$(touch $canary) \`touch $canary\` \${x} \$::env(HOME) ;touch $canary"
  "a\"b'c;d{e\\"
  $'x\n[exec touch '"$canary"$']\ny'
  "$long"
)
# fib.elf with fib renamed to $1, run with waves into folder $2
hostile_run() {
  riscv64-unknown-elf-objcopy --redefine-sym "fib=$1" "$fw/examples/fib.elf" "$tmp/h.elf" || fail "objcopy"
  # fib's records begin after cycle 5000: the dump holds the first 26 and more
  "$ts" run -q --waves "$2/w.fst" --waves-from 5000 --waves-to 12000 --out "$2" "$tmp/h.elf" || fail "run into $2"
}

case "$case_" in
tcl_markers)
  i=0
  for h in "${hostile[@]}"; do
    i=$((i + 1))
    r=$tmp/r$i
    hostile_run "$h" "$r"
    "$ts" waves "$r" --no-gui > /dev/null 2> "$tmp/err" || fail "name $i: tracesim waves: $(cat "$tmp/err")"
    tclsh "$tmp/stub.tcl" "$r/markers.tcl" "$tmp/names" || fail "name $i: tclsh could not run markers.tcl"
    no_canary "name $i"
    # the names markers.h promises, cut as it says (63 bytes of the function, 95 in all)
    want=$tmp/want; : > "$want"
    for k in $(seq 1 40); do for t in enter exit; do
      n="hart 0 ${h:0:63} $t #$k"; hex "${n:0:95}" >> "$want"; echo >> "$want"
    done; done
    [ "$(wc -l < "$tmp/names")" = 26 ] || fail "name $i: $(wc -l < "$tmp/names") named markers, expected 26"
    while read -r n; do grep -qxF "$n" "$want" || fail "name $i: marker name $n is not the renamed function's"; done < "$tmp/names"
    grep -vqE '^([0-9]+  |# )' "$r/markers.txt" && fail "name $i: markers.txt has a line that is no marker"
  done
  echo "ok: ${#hostile[@]} hostile names, exact in markers.tcl, nothing ran" ;;
view_paths)
  # an ELF path with shell syntax but no blank (stats.txt's value is one word)
  d=$tmp/'e$(touch${IFS}canary1)`touch${IFS}canary2`'"'q\"x;touch\${IFS}canary3"
  mkdir -p "$d" "$tmp/v" "$tmp/cwd"
  riscv64-unknown-elf-objcopy --redefine-sym 'fib=fib$(touch${IFS}canary4)' "$fw/examples/fib.elf" "$d/fw.elf"
  "$ts" run -q --waves "$tmp/r/w.fst" --waves-to 200 --out "$tmp/r" "$d/fw.elf" || fail "run"
  grep -qxF "elf $d/fw.elf" "$tmp/r/stats.txt" || fail "stats.txt does not name the ELF"
  TRACESIM=$ts TS_VIEW_TMP=$tmp/v "$src/waves/make_view.sh" "$tmp/r/w.fst" pipeline > "$tmp/p.gtkw" 2> "$tmp/err" ||
    fail "make_view.sh: $(cat "$tmp/err")"
  [ -x "$tmp/v/symfilter.sh" ] || fail "no symfilter wrapper"
  grep -q "^\^>1 $tmp/v/symfilter.sh$" "$tmp/p.gtkw" || fail "the view does not name the wrapper"
  a=$(nm "$d/fw.elf" | awk '$3 ~ /^fib\$/ {print $1}')
  (cd "$tmp/cwd" && printf '%s\n' "$a" | "$tmp/v/symfilter.sh") > "$tmp/ans" || fail "the wrapper failed"
  [ "$(cat "$tmp/ans")" = 'fib$(touch${IFS}canary4)' ] || fail "the wrapper answered '$(cat "$tmp/ans")'"
  no_canary "hostile ELF path"
  # a hostile run folder: blanks and shell syntax
  rd="$tmp/run \$(touch canary5) \`touch canary6\` ';touch canary7'"
  hostile_run "} [exec touch $canary] {" "$rd"
  (cd "$tmp/cwd" && "$ts" waves "$rd" --no-gui > "$tmp/cmd" 2> "$tmp/err") || fail "tracesim waves: $(cat "$tmp/err")"
  [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "would pass to a shell" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
  grep -q '^\^>' "$rd/view.gtkw" && fail "the view of a hostile run folder names a process filter"
  # the GTKWave command it prints, pasted into a shell: the exact paths, nothing run
  sed -n 2p "$tmp/cmd" > "$tmp/cmd.sh"
  (cd "$tmp/cwd" && bash -c 'gtkwave() { printf "%s\n" "$@"; }; . "$1"' _ "$tmp/cmd.sh") > "$tmp/args" || fail "the printed command"
  printf '%s\n' "$rd/w.fst" "$rd/view.gtkw" -S "$rd/markers.tcl" -l "$rd/markers.txt" | cmp -s - "$tmp/args" ||
    fail "the printed command has other words: $(cat "$tmp/args")"
  tclsh "$tmp/stub.tcl" "$rd/markers.tcl" "$tmp/names" || fail "tclsh"
  [ "$(wc -l < "$tmp/names")" = 26 ] || fail "not 26 named markers"
  # a view folder with a newline (a line of its own in the .gtkw: a process filter)
  nl=$tmp/$'nl\n^>1 /usr/bin/touch'; mkdir -p "$nl"
  (cd "$tmp/cwd" && TRACESIM=$ts TS_VIEW_TMP=$nl "$src/waves/make_view.sh" "$tmp/r/w.fst" pipeline > "$tmp/nl.gtkw" 2> "$tmp/err") ||
    fail "make_view.sh: $(cat "$tmp/err")"
  [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "would pass to a shell" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
  grep -q '^\^>' "$tmp/nl.gtkw" && fail "the view made in a folder with a newline names a process filter"
  no_canary "hostile run folder"
  "$src/waves/make_view.sh" "$tmp/r/w.fst" ../../tmp/x > /dev/null 2> "$tmp/err" && fail "view ../../tmp/x accepted"
  grep -q "no view" "$tmp/err" || fail "unclear: $(cat "$tmp/err")"
  echo "ok: hostile ELF path and run folders, nothing ran" ;;
gtkwave)
  command -v xvfb-run > /dev/null && command -v gtkwave > /dev/null || { echo "skipped: no xvfb-run/gtkwave"; exit 77; }
  d=$tmp/'e$(touch${IFS}canary1)`touch${IFS}canary2`'"'q\"x;touch\${IFS}canary3"
  mkdir -p "$d" "$tmp/v"
  riscv64-unknown-elf-objcopy --redefine-sym "fib=} [exec touch $canary] {" "$fw/examples/fib.elf" "$d/fw.elf"
  "$ts" run -q --waves "$tmp/r/w.fst" --waves-to 2000 --out "$tmp/r" "$d/fw.elf" || fail "run"
  "$ts" waves "$tmp/r" --no-gui > /dev/null || fail "tracesim waves"
  TRACESIM=$ts TS_VIEW_TMP=$tmp/v "$src/waves/make_view.sh" "$tmp/r/w.fst" pipeline > "$tmp/v/p.gtkw"
  grep -q '^\^>1 ' "$tmp/v/p.gtkw" || fail "no PC filter in the view"
  # markers first, then zoom onto them (the filter answers for the visible PCs), then quit
  { cat "$tmp/r/markers.tcl"; echo 'gtkwave::setZoomRangeTimes 62000 66000'; echo 'gtkwave::/File/Quit'; } > "$tmp/v/run.tcl"
  (cd "$tmp/v" && timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" gtkwave -S "$tmp/v/run.tcl" "$tmp/r/w.fst" "$tmp/v/p.gtkw" \
    > "$tmp/log" 2>&1) || fail "gtkwave did not finish: $(tail -3 "$tmp/log")"
  # screenshot.sh's cycle numbers go into bash arithmetic: numbers only
  (cd "$tmp/v" && "$src/waves/screenshot.sh" "$tmp/r/w.fst" pipeline "$tmp/v/x.png" 'a[$(touch canary9)]' 2> "$tmp/err") &&
    fail "screenshot.sh took a cycle that is no number"
  grep -q "must be numbers" "$tmp/err" || fail "screenshot.sh: unclear: $(cat "$tmp/err")"
  grep -Eiq 'wrong number|error' "$tmp/log" && fail "GTKWave reported: $(grep -Ei 'wrong number|error' "$tmp/log" | head -2)"
  no_canary "GTKWave"
  echo "ok: GTKWave ran the markers and the PC filter, nothing else ran" ;;
filter_lines)
  { head -c 5000 /dev/zero | tr '\0' 'f'; echo; echo 80000000; head -c 10000 /dev/zero | tr '\0' '1'; } > "$tmp/in"
  for f in "symfilter $fw/examples/fib.elf" stmfilter; do
    n=$("$ts" $f < "$tmp/in" | wc -l)
    [ "$n" = 3 ] || fail "$f: $n answers to 3 lines"
  done
  riscv64-unknown-elf-objcopy --redefine-sym $'fib=f\nib' "$fw/examples/fib.elf" "$tmp/h.elf"
  a=$(nm "$tmp/h.elf" | awk '$2 == "T" && $3 == "f" {print $1}')
  [ -n "$a" ] || fail "nm does not show the renamed fib"
  printf '%s\n%s\n' "$a" 80000000 | "$ts" symfilter "$tmp/h.elf" > "$tmp/out"
  [ "$(sed -n 1p "$tmp/out")" = 'f\x0aib' ] && [ "$(wc -l < "$tmp/out")" = 2 ] || fail "newline in a symbol: $(cat "$tmp/out")"
  echo "ok: one answer per line" ;;
sbatch)
  spec=$src/tests/sweeps/small.json
  for o in --partition --time --account --sbatch-arg; do
    "$ts" sweep --slurm-dry-run "$o" $'x\ntouch '"$canary" -o "$tmp/o" "$spec" > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ "$rc" = "$TS_EXIT_USAGE" ] || fail "$o with a newline: exit $rc"
    [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q "^tracesim: sweep: $o has a newline" "$tmp/err" || fail "$o: unclear: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$o: a script was printed"
  done
  # the spec's path and its name
  p=$tmp/$'s\ntouch '"x"; mkdir -p "$p"
  sed "s|{build}|$build|" "$spec" > "$p/small.json"
  "$ts" sweep --slurm-dry-run -o "$tmp/o2" "$p/small.json" > "$tmp/out" 2> "$tmp/err"; rc=$?
  [ "$rc" = "$TS_EXIT_USAGE" ] && grep -q "spec's path has a newline" "$tmp/err" || fail "a spec path with a newline: exit $rc, $(cat "$tmp/err")"
  sed -e "s|{build}|$build|" -e 's|"name": "small"|"name": "a\\ntouch '"$canary"'"|' "$spec" > "$tmp/named.json"
  grep -q 'a\\ntouch' "$tmp/named.json" || fail "the test spec has no newline in its name"
  "$ts" sweep --slurm-dry-run -o "$tmp/o3" "$tmp/named.json" > "$tmp/script" 2> "$tmp/err" || fail "a spec named with a newline: $(cat "$tmp/err")"
  grep -q '^touch' "$tmp/script" && fail "the spec's name became a line of the script"
  grep -q '^#SBATCH --job-name=sweep-' "$tmp/script" || fail "no job name"
  no_canary "sbatch"
  echo "ok: sbatch lines" ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
