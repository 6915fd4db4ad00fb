#!/usr/bin/env bash
# interrupt_test.sh BUILD_DIR CASE [SIM] - runs that do not finish (docs/commands/run.md
# "Interrupting a run"; analysis/run/run_folder.h ts_run_unfinished).
#   sigint, sigterm  SIGINT / SIGTERM while a long run goes: exit 130 / 143 within seconds,
#                    stats.txt says exit_reason interrupted with the signal and the cycle
#                    (= its cycles), ends with "end ok", one stderr line names the cycle; the
#                    run's outputs are all there (hpm.csv, events.csv, the waves); check and
#                    decode say "the run did not finish (interrupted by SIG... at cycle N)" in
#                    that one line and go on (check passes: every ITC store of itc_forever up
#                    to that cycle is in the trace); overhead refuses it as a baseline
#   kill9            kill -9 while a run goes: check, report, decode, waves --no-gui and
#                    overhead --baseline each say in the same line that the run did not finish
#                    and exit 121; check does not blame the firmware ("did the firmware use
#                    the trace encoder?"); the same for a stats.txt whose end marker is cut off
#   rerun            a run into the folder of a killed run says so in the same line (its
#                    files are removed); with --waves RUN/w.fst (and of
#                    waves --no-gui's markers): the new run without --waves leaves no w.fst,
#                    no markers.txt/view.gtkw of the old run, no stats.txt of the old run while
#                    it runs; a file of the user's in the folder stays
# SIM: tracesim (default) or tracesim-sc.
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
build=$1; case=$2; simname=${3:-tracesim}
sim=$build/$simname; cmd=run
[ "$simname" = tracesim-sc ] && cmd=""
t=$build/tracesim
fw=$build/firmware
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2> /dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; for f in "$tmp"/*.err; do [ -f "$f" ] && sed "s|^|  $(basename "$f"): |" "$f"; done; exit 1; }
stat() { awk -v k="$1" '$1 == k {print $2}' "$tmp/r/stats.txt"; }
r=$tmp/r
# a long run (the runaway loop, no cycle limit) in the background; waits until it simulates
start_long() {
  "$sim" $cmd -q -n 0 -o "$r" "$@" "$fw/tests/itc_forever.elf" > /dev/null 2> "$tmp/run.err" &
  pid=$!
  # stats.txt (no end marker yet) is the first file a run puts under its name; the others are
  # written to temporary files and renamed into place when complete (runfolder/ts_file.h)
  for i in $(seq 100); do [ -f "$r/stats.txt" ] && break; sleep 0.05; done
  [ -f "$r/stats.txt" ] || fail "the run did not start"
  sleep 1
}
# one_line CMD_NAME STATUS PATTERN: $tmp/CMD_NAME.err is exactly one line matching PATTERN
# (grep -E) and the command exited STATUS ($rc)
expect() {
  local name=$1 want=$2 pat=$3
  [ "$rc" = "$want" ] || fail "$name: exit status $rc, expected $want"
  grep -Eq -- "$pat" "$tmp/$name.err" || fail "$name: no line /$pat/"
  [ "$(grep -c 'did not finish' "$tmp/$name.err")" = 1 ] || fail "$name: not one 'did not finish' line"
  grep -q 'did the firmware use' "$tmp/$name.err" && fail "$name: blames the firmware"
  true
}

case $case in
sigint|sigterm)
  sig=INT; want=130; [ $case = sigterm ] && { sig=TERM; want=143; }
  start_long --waves "$r/w.vcd"
  kill -$sig "$pid"
  s0=$(date +%s); rc=0; wait "$pid" || rc=$?; pid=
  [ "$rc" = $want ] || fail "exit status $rc, expected $want"
  [ $(( $(date +%s) - s0 )) -lt 10 ] || fail "took too long to stop"
  [ "$(stat exit_reason)" = interrupted ] || fail "exit_reason $(stat exit_reason)"
  [ "$(stat interrupted_by)" = SIG$sig ] || fail "interrupted_by $(stat interrupted_by)"
  n=$(stat interrupted_cycle)
  [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" = "$(stat cycles)" ] || fail "interrupted_cycle '$n', cycles $(stat cycles)"
  [ "$(tail -n 1 "$r/stats.txt")" = "end ok" ] || fail "stats.txt does not end with the end marker"
  for f in hpm.csv events.csv flow.csv w.vcd; do [ -s "$r/$f" ] || fail "no $f"; done
  grep -q '^\$enddefinitions' "$r/w.vcd" || fail "the waves are not a VCD"
  [ "$(wc -l < "$tmp/run.err")" = 1 ] || fail "not one stderr line"
  grep -q "^tracesim: interrupted by SIG$sig at cycle $n: " "$tmp/run.err" || fail "no line naming the cycle"
  line="^tracesim: $r: the run did not finish \\(interrupted by SIG$sig at cycle $n\\): its files end at that cycle\$"
  rc=0; "$t" decode -f messages -o "$tmp/dec" "$r" > /dev/null 2> "$tmp/decode.err" || rc=$?
  expect decode 0 "$line"
  rc=0; "$t" check "$r" > "$tmp/check.out" 2> "$tmp/check.err" || rc=$?
  expect check 0 "$line"   # every store up to the cycle it stopped in, as after a cycle limit
  grep -q 'ITC stores' "$tmp/check.out" || { cat "$tmp/check.out"; fail "check: no verdict on the ITC stores"; }
  rc=0; "$t" overhead --baseline "$r" -o "$tmp/ovh" "$fw/tests/exit_0.elf" > /dev/null 2> "$tmp/overhead.err" || rc=$?
  expect overhead 121 "$line" ;;
kill9)
  start_long --waves "$r/w.fst"
  kill -9 "$pid"; wait "$pid" 2> /dev/null; pid=
  grep -q '^end ok$' "$r/stats.txt" && fail "a killed run's stats.txt has the end marker"
  line="^tracesim: $r: the run did not finish \\(killed while it ran: stats.txt has no end marker 'end ok'\\): its files are incomplete; run it again\$"
  for c in check report decode waves overhead; do
    rc=0
    case $c in
    decode) "$t" decode -f messages -o "$tmp/dec" "$r" > /dev/null 2> "$tmp/$c.err" || rc=$? ;;
    waves) "$t" waves --no-gui "$r" > /dev/null 2> "$tmp/$c.err" || rc=$? ;;
    overhead) "$t" overhead --baseline "$r" -o "$tmp/ovh" "$fw/tests/exit_0.elf" > /dev/null 2> "$tmp/$c.err" || rc=$? ;;
    *) "$t" $c "$r" > /dev/null 2> "$tmp/$c.err" || rc=$? ;;
    esac
    expect $c 121 "$line"
    [ "$(wc -l < "$tmp/$c.err")" = 1 ] || fail "$c: not one line"
  done
  # killed before stats.txt was there at all
  rm "$r/stats.txt"
  line="^tracesim: $r: the run did not finish \\(killed before it wrote stats.txt\\): its files are incomplete; run it again\$"
  rc=0; "$t" check "$r" > /dev/null 2> "$tmp/check.err" || rc=$?
  expect check 121 "$line"
  rc=0; "$t" decode "$r" > /dev/null 2> "$tmp/decode.err" || rc=$?
  expect decode 121 "$line"
  # a stats.txt cut before its end marker (killed while it wrote it)
  rm -rf "$r"
  "$sim" $cmd -q -o "$r" "$fw/tests/exit_0.elf" 2> "$tmp/run.err" || fail "exit_0 failed"
  sed -i '$d' "$r/stats.txt"
  line="^tracesim: $r: the run did not finish \\(killed while it ran: stats.txt has no end marker 'end ok'\\): its files are incomplete; run it again\$"
  rc=0; "$t" check "$r" > /dev/null 2> "$tmp/check.err" || rc=$?
  expect check 121 "$line"
  rc=0; "$t" report "$r" > /dev/null 2> "$tmp/report.err" || rc=$?
  expect report 121 "$line" ;;
rerun)
  start_long --waves "$r/w.fst"
  kill -9 "$pid"; wait "$pid" 2> /dev/null; pid=
  # the killed run's waves: under a temporary name (renamed into place only when complete)
  # (the project's FST writer; Verilator's, the fallback on other Verilator versions,
  # TS_OWN_FST=0 from CMake, writes under the final name or not yet at all)
  [ "${TS_OWN_FST:-1}" = 0 ] || ls -a "$r" | grep -q '^\.w\.fst\..*\.tmp$' ||
    fail "the killed run left no waves to remove: $(ls -a "$r")"
  old_tmp=$(ls -a "$r" | grep '^\..*\.tmp$')   # the killed run's temporary files: the rerun removes them
  echo mine > "$r/notes.txt"                       # the user's
  printf 'x\n' > "$r/markers.txt"; printf 'x\n' > "$r/view.gtkw"   # as waves --no-gui leaves them
  grep -qx 'waves_rel w.fst' "$r/stats.txt" || fail "the killed run's stats.txt does not name its waves"
  "$sim" $cmd -q -n 0 -o "$r" "$fw/tests/runaway.elf" > /dev/null 2> "$tmp/run.err" &
  pid=$!
  # the new run's stats.txt (the killed run's says 'exit_reason running' too, until removed)
  new_running() { awk '/^elf .*\/runaway\.elf$/ {e = 1} /^exit_reason running$/ {x = 1} END {exit !(e && x)}' "$r/stats.txt" 2> /dev/null; }
  for i in $(seq 100); do new_running && break; sleep 0.05; done
  new_running || fail "the new run's stats.txt is not there while it goes"
  grep -q '^end ok$' "$r/stats.txt" && fail "the earlier run's stats.txt is still there while the new run goes"
  for f in w.fst markers.txt view.gtkw; do [ -e "$r/$f" ] && fail "the earlier run's $f is still there"; done
  for f in $old_tmp; do [ -e "$r/$f" ] && fail "the earlier run's temporary file $f is still there"; done
  # run names the earlier, unfinished run in the line every command prints (-q or not)
  grep -qx "tracesim: $r: the run did not finish (killed while it ran: stats.txt has no end marker 'end ok'): its files are removed, this run replaces them" "$tmp/run.err" ||
    fail "the rerun does not name the earlier run as unfinished"
  [ "$(cat "$r/notes.txt")" = mine ] || fail "the user's file was touched"
  kill -INT "$pid"; rc=0; wait "$pid" || rc=$?; pid=
  [ "$rc" = "$TS_EXIT_INTERRUPTED" ] || fail "exit status $rc"
  [ -e "$r/w.fst" ] && fail "w.fst came back"
  true ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
