#!/usr/bin/env bash
# waves_safety_test.sh BUILD_DIR CASE - `tracesim waves` on one folder at once, and on a long
# path (issue 34 items 6 and 7; runfolder/ts_file.h).
#   concurrent  8 `tracesim waves --no-gui RUN` on one run folder at once, 3 rounds: every one
#               exits 0 with nothing on stderr, and afterwards markers.txt, markers.tcl and
#               view.gtkw are whole (equal to those of a waves run alone) and no temporary
#               file is left
#   long_path   a run folder whose absolute path is about 1400 characters, then one of about
#               3800: waves exits 0, says in one line that PC names are off, and no line of
#               view.gtkw is longer than 1024 characters (GTKWave smashes its stack on a view
#               line of about 4000); markers.tcl too
set -u
build=$(cd "$1" && pwd); case_=$2
ts=${TRACESIM_UNDER_TEST:-$build/tracesim}
fib=$build/firmware/examples/fib.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case_): $*"; exit 1; }
longest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }
case $case_ in
concurrent)
  "$ts" run -q --waves "$tmp/r/w.fst" -o "$tmp/r" "$fib" > /dev/null 2>&1 || fail "the run failed"
  "$ts" waves --no-gui "$tmp/r" > /dev/null 2>&1 || fail "waves alone failed"
  for f in markers.txt markers.tcl view.gtkw; do cp "$tmp/r/$f" "$tmp/$f.alone"; done
  for round in 1 2 3; do
    pids=()
    for i in 1 2 3 4 5 6 7 8; do
      "$ts" waves --no-gui "$tmp/r" > "$tmp/out$i" 2> "$tmp/err$i" &
      pids+=($!)
    done
    i=0
    for p in "${pids[@]}"; do
      i=$((i + 1))
      wait "$p" || fail "round $round: waves $i exited $?: $(head -c 300 "$tmp/err$i")"
      [ ! -s "$tmp/err$i" ] || fail "round $round: waves $i said: $(head -c 300 "$tmp/err$i")"
    done
    for f in markers.txt markers.tcl view.gtkw; do
      cmp -s "$tmp/r/$f" "$tmp/$f.alone" || fail "round $round: $f is not whole"
    done
    left=$(ls -A "$tmp/r" | grep -E '\.tmp$|\.new$' || true)
    [ -z "$left" ] || fail "round $round: left $left"
  done ;;
long_path)
  for len in 1500 3900; do
    d=$tmp
    while [ ${#d} -lt $((len - 200)) ]; do d=$d/$(printf 'd%.0s' {1..150}); done
    d=$d/run
    mkdir -p "$d" || fail "mkdir"
    "$ts" run -q --waves "$d/w.fst" -o "$d" "$fib" > /dev/null 2> "$tmp/err" || fail "the run into a ${#d}-character path failed: $(head -c 200 "$tmp/err")"
    "$ts" waves --no-gui "$d" > /dev/null 2> "$tmp/err"; rc=$?
    [ $rc = 0 ] || fail "path of ${#d}: exit $rc: $(head -c 300 "$tmp/err")"
    [ "$(wc -l < "$tmp/err")" = 1 ] || fail "path of ${#d}: stderr has $(wc -l < "$tmp/err") lines: $(head -c 300 "$tmp/err")"
    grep -q 'too long for a GTKWave view line' "$tmp/err" || fail "path of ${#d}: stderr: $(head -c 300 "$tmp/err")"
    [ "$(longest "$d/view.gtkw")" -le 1024 ] || fail "path of ${#d}: view.gtkw has a line of $(longest "$d/view.gtkw") characters"
    [ "$(longest "$d/markers.tcl")" -le 1024 ] || fail "path of ${#d}: markers.tcl has a line of $(longest "$d/markers.tcl") characters"
    rm -rf "$tmp/d"*
  done ;;
*) fail "unknown case" ;;
esac
echo "ok ($case_)"
