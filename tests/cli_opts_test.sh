#!/usr/bin/env bash
# cli_opts_test.sh TRACESIM CMD - one command's option table as the user meets it
# (cli/opts/ts_opts.h). For CMD (run, decode, check, report, overhead, waves, symfilter,
# stmfilter, sweep, or tracesim-sc with TRACESIM the tracesim-sc binary):
#  * an abbreviation of a known option is refused before anything runs: status 120, one line
#    naming it and suggesting the option it abbreviates (getopt_long used to take it);
#  * an unknown option: status 120, one line naming it, no suggestion;
#  * --help lists known options, by name (written here by hand, not taken from the table),
#    has "usage:", "options:" and "exit status:" with the statuses named here (read from the
#    command's code), and is byte for byte what `tracesim help CMD` prints;
#  * `tracesim help --markdown CMD` (the docs table) has the same options and statuses.
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
ts=$1; cmd=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($cmd): $*"; exit 1; }
# per command: an abbreviation, the option it abbreviates, known options, exit statuses
case $cmd in
  run)       abbr=--max-cyc;  full=--max-cycles; known="--out --max-cycles --harts --waves-func --systemc --quiet"; exits="0-118 119 120 121 122 123 124 125 126 127" ;;
  tracesim-sc) abbr=--max-cyc; full=--max-cycles; known="--out --max-cycles --harts --waves-func --quiet"; exits="0-118 119 120 121 122 123 124 125 126 127" ;;
  decode)    abbr=--for;      full=--format;     known="--format --tick-hz --hart --perf-config --elf --out"; exits="0 120 121 126" ;;
  check)     abbr=--perf-chan; full=--perf-channel; known="--perf-channel --elf --perf-config"; exits="0 1 120 121 126" ;;
  report)    abbr=--compen;   full=--compensate; known="--format --fields --compensate --hart --elf --out"; exits="0 120 121 126" ;;
  overhead)  abbr=--qui;      full=--quick;      known="--firmware-dir --quick --baseline --perf-channel --out"; exits="0 1 120 121 126" ;;
  waves)     abbr=--no-g;     full=--no-gui;     known="--no-gui --elf"; exits="0 120 121 126" ;;
  symfilter) abbr=--hel;      full=--help;       known="--help"; exits="0 120 122 126" ;;
  stmfilter) abbr=--hel;      full=--help;       known="--help"; exits="0 120 126" ;;
  sweep)     abbr=--coll;     full=--collect;    known="--jobs --only --slurm --collect --out"; exits="0 1 120 121 126 130" ;;
  *) fail "unknown command" ;;
esac
if [ "$cmd" = tracesim-sc ]; then call() { "$ts" "$@"; }; else call() { "$ts" "$cmd" "$@"; }; fi

# an abbreviation: refused, with the option it abbreviates suggested
call "$abbr" 1 x > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc = "$TS_EXIT_USAGE" ] || fail "$abbr: status $rc, expected 120"
[ "$(wc -l < "$tmp/err")" = 1 ] || { cat "$tmp/err"; fail "$abbr: not one line on stderr"; }
grep -qF "unknown option '$abbr'; did you mean $full?" "$tmp/err" || { cat "$tmp/err"; fail "$abbr: no suggestion of $full"; }
[ ! -s "$tmp/out" ] || fail "$abbr: something ran (stdout not empty)"

# an unknown option: refused, no suggestion
call --frobnicate x > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc = "$TS_EXIT_USAGE" ] || fail "--frobnicate: status $rc, expected 120"
[ "$(wc -l < "$tmp/err")" = 1 ] || fail "--frobnicate: not one line on stderr"
grep -qF "unknown option '--frobnicate'" "$tmp/err" || { cat "$tmp/err"; fail "--frobnicate not named"; }
grep -q "did you mean" "$tmp/err" && fail "--frobnicate: a suggestion for a name nothing is close to"

# --help: the options, the sections, the exit statuses; the same as tracesim help CMD
call --help > "$tmp/help" 2> "$tmp/err" || fail "--help failed"
for s in "^usage: " "^options:$" "^exit status:$"; do grep -q "$s" "$tmp/help" || fail "--help has no '$s'"; done
for o in $known; do grep -qE "^  (-[a-z], )?$o( |$)|^      $o( |$)" "$tmp/help" || fail "--help does not list $o"; done
for e in $exits; do grep -qE "^  $e +[a-z]" "$tmp/help" || fail "--help does not give exit status $e"; done
name=$cmd; [ "$cmd" = tracesim-sc ] && name=tracesim-sc
if [ "$cmd" != tracesim-sc ]; then
  "$ts" help "$name" > "$tmp/help2" || fail "tracesim help $name failed"
  cmp -s "$tmp/help" "$tmp/help2" || { diff -u "$tmp/help" "$tmp/help2"; fail "tracesim help $name differs from --help"; }
  "$ts" help --markdown "$name" > "$tmp/md" || fail "tracesim help --markdown $name failed"
else
  "$(dirname "$ts")/tracesim" help --markdown tracesim-sc > "$tmp/md" || fail "tracesim help --markdown tracesim-sc failed"
  "$(dirname "$ts")/tracesim" help tracesim-sc > "$tmp/help2" || fail "tracesim help tracesim-sc failed"
  cmp -s "$tmp/help" "$tmp/help2" || { diff -u "$tmp/help" "$tmp/help2"; fail "tracesim help tracesim-sc differs from tracesim-sc --help"; }
  # tracesim run's options tracesim-sc does not have: not shown (below), refused by name
  "$ts" --record-trace-bus x.log x.elf 2> "$tmp/err"; rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] && grep -qF -- "--record-trace-bus is not an option of tracesim-sc" "$tmp/err" || { cat "$tmp/err"; fail "--record-trace-bus not refused by name"; }
fi
for o in $known; do grep -qE "^\| \`(-[a-z], )?$o[ \`]" "$tmp/md" || fail "the docs table does not list $o"; done
for e in $exits; do grep -qE "^\| $e \| [a-z]" "$tmp/md" || fail "the docs table does not give exit status $e"; done
# the same options in both, in the same order (both from one table)
grep -oE "^  (-[a-z], |    )--[a-z-]+" "$tmp/help" | sed 's/.*--/--/' > "$tmp/h.list"
grep -oE "^\| \`(-[a-z], )?--[a-z-]+" "$tmp/md" | sed 's/.*--/--/' > "$tmp/m.list"
cmp -s "$tmp/h.list" "$tmp/m.list" || { diff -u "$tmp/h.list" "$tmp/m.list"; fail "--help and the docs table list different options"; }
if [ "$cmd" = tracesim-sc ]; then
  for o in --systemc --record-trace-bus; do grep -qx -- "$o" "$tmp/h.list" "$tmp/m.list" && fail "$o shown for tracesim-sc"; done
  grep -qx -- --record-trace-bus "$tmp/h.list" && fail "--record-trace-bus listed"
elif [ "$cmd" = run ]; then
  grep -qx -- --record-trace-bus "$tmp/h.list" || fail "run does not list --record-trace-bus"
fi
echo "ok: $cmd refuses $abbr (suggests $full) and --frobnicate; help and docs list $known"
