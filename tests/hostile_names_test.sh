#!/usr/bin/env bash
# hostile_names_test.sh BUILD_DIR COMMAND [--count] - the generator of issue 34 item 8: for
# every run-folder file COMMAND reads and every output name it writes, plants in turn, in place
# of that name (in a fresh copy of a real run folder, or in the output folder):
#   link   a symlink to a file outside the folder (a canary: a copy of the real file for an
#          input, a text file for an output)
#   fifo   a named pipe
#   zero   a symlink to /dev/zero
#   dir    a folder
#   huge   a sparse file of 1 TiB (over every size cap of runfolder/run_files.def)
#   empty  an empty file
# then runs COMMAND under `timeout` and asserts: nothing outside the folder is written (every
# canary keeps its content, mode, size and mtime, no new file appears beside them), it finishes within
# seconds (timeout 20 s: a blocked FIFO or a /dev/zero read would hit it), and
#   an input:  link, fifo, zero, dir, huge: a non-zero exit and exactly one line on stderr
#              naming the file; empty: either exit 0 or a non-zero exit with exactly one line
#   an output: link, fifo, zero, huge, empty: exit 0 and the name is now a regular file
#              (the planted thing replaced, never followed or opened); dir: a non-zero exit
#              with exactly one line naming the file. Documented exceptions: run's
#              perf_config.txt (an optional copy) under a folder: exit 0 and one warning line;
#              run's -o folder or --waves FILE with a user's file under one of its names
#              (huge: not a previous run folder's file, not an FST or VCD): refused with one
#              line unless --force (item 2); a folder under a sweep point's file: the
#              sweep clears the point's folder before its run, so the file is made (exit 0)
# COMMAND: run decode check report overhead waves sweep (one ctest entry each). With --count
# only the number of cases is printed; COMMAND docs_count checks that docs/testing.md gives
# the sum over the commands.
set -u
build=$(cd "$1" && pwd); cmd=$2; count_only=${3:-}
src=$(cd "$(dirname "$0")/.." && pwd)
ts=${TRACESIM_UNDER_TEST:-$build/tracesim}   # another tracesim: to see the test fail on older code
fib=$build/firmware/examples/fib.elf
kinds="link fifo zero dir huge empty"
if [ "$cmd" = docs_count ]; then   # docs/testing.md names the generator's number of cases
  n=0
  for c in run decode check report overhead waves sweep; do n=$((n + $("$0" "$build" $c --count))); done
  grep -q "runs \*\*$n cases\*\*" "$src/docs/testing.md" || { echo "FAIL: docs/testing.md does not say the generator's $n cases"; exit 1; }
  echo "ok: $n cases"; exit 0
fi
# the names per command: inputs (files it reads from the run folder) and outputs
case $cmd in
run)      inputs=""
          outputs="stats.txt hpm.csv events.csv trace.rtd trace.json itc.csv counters.csv flow.csv trace_events.csv stm.csv hooks.csv hpm_writes.csv uart.txt marks.csv guest_errors.log perf_config.txt waves_windows.csv w.fst" ;;
decode)   inputs="trace.rtd trace.json"
          outputs="messages.jsonl perf.csv timeline.json elements.txt stm.txt instr.txt fib.perf perf/fib.callret" ;;
check)    inputs="stats.txt trace.rtd trace.json itc.csv counters.csv flow.csv hooks.csv hpm_writes.csv"
          outputs="" ;;
report)   inputs="stats.txt trace.rtd trace.json"
          outputs="report.txt report.csv report.html" ;;
overhead) inputs="stats.txt events.csv trace.json trace.rtd"
          outputs="overhead.md overhead.csv overhead.svg" ;;
waves)    inputs="stats.txt marks.csv trace_events.csv stm.csv itc.csv trace.json waves_windows.csv"
          outputs="markers.txt markers.tcl view.gtkw symfilter.sh stmfilter.sh" ;;
sweep)    inputs=""
          outputs="results.csv summary.md points/hello/stats.txt points/hello/itc.csv" ;;
*)        echo "hostile_names_test.sh: unknown command $cmd"; exit 2 ;;
esac
n_in=$(echo $inputs | wc -w); n_out=$(echo $outputs | wc -w)
if [ "$count_only" = --count ]; then echo $(( (n_in + n_out) * 6 )); exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
failed() { echo "FAIL ($cmd $1 $2): $3"; fail=1; }
export LC_ALL=C
# the reference run folder (with waves for `waves` and `run`'s w.fst)
ref=$tmp/ref
"$ts" run -q --waves "$ref/w.fst" -o "$ref" "$fib" > /dev/null 2>&1 || { echo "FAIL: the reference run failed"; exit 1; }
# decode -f instr needs a program trace (it refuses a trace without one): a second reference run
ref_insn=$tmp/ref_insn
if [ "$cmd" = decode ]; then
  "$ts" run -q --trace-insn btm -o "$ref_insn" "$fib" > /dev/null 2>&1 || { echo "FAIL: the reference run with program trace failed"; exit 1; }
fi
out_dir=$tmp/outside                      # where the canaries live: nothing here may change
mkdir -p "$out_dir"
stamp=$tmp/stamp
# plant KIND PATH CANARY_SRC: puts KIND under PATH (CANARY_SRC: the canary's content)
plant() {
  local kind=$1 p=$2 csrc=$3 c
  rm -rf -- "$p"
  mkdir -p -- "$(dirname -- "$p")"
  case $kind in
  link)  c=$out_dir/canary.$RANDOM$RANDOM
         if [ -n "$csrc" ] && [ -f "$csrc" ]; then cp -- "$csrc" "$c"; else echo "canary: must not change" > "$c"; fi
         chmod 640 "$c"; ln -s -- "$c" "$p" ;;
  fifo)  mkfifo -- "$p" ;;
  zero)  ln -s /dev/zero "$p" ;;
  dir)   mkdir -- "$p" ;;
  huge)  truncate -s 1T -- "$p" ;;
  empty) : > "$p" ;;
  esac
}
# the canaries and the folder outside unchanged: same files, same content and mode
snap() { (cd "$out_dir" && find . -type f -printf '%p %m %s %T@\n' | sort && find . -type f -exec md5sum {} + | sort); }
# run_case WHERE NAME KIND ROLE -- command...: ROLE input|output
run_case() {
  local dir=$1 name=$2 kind=$3 role=$4; shift 5
  local before after rc t0 t1 lines
  before=$(snap)
  t0=$(date +%s)
  timeout 20 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
  rc=$?
  t1=$(date +%s)
  after=$(snap)
  # overhead's progress lines ("overhead: [i/n] ...", "overhead: wrote ...") are not messages
  grep -v '^overhead: ' "$tmp/err" > "$tmp/err.1"; mv "$tmp/err.1" "$tmp/err"
  lines=$(wc -l < "$tmp/err")
  [ "$before" = "$after" ] || failed "$name" "$kind" "wrote outside the folder: $(diff <(echo "$before") <(echo "$after") | head -3)"
  [ $rc = 124 ] && { failed "$name" "$kind" "did not finish in 20 s (blocked?)"; return; }
  [ $((t1 - t0)) -le 15 ] || failed "$name" "$kind" "took $((t1 - t0)) s"
  local base=${name##*/}
  if [ "$role" = input ]; then
    if [ "$kind" = empty ]; then
      [ $rc = 0 ] || [ "$lines" = 1 ] || failed "$name" "$kind" "exit $rc with $lines lines on stderr: $(head -c 300 "$tmp/err")"
    else
      [ $rc != 0 ] || failed "$name" "$kind" "exit 0 (the $kind was read as $name)"
      [ "$lines" = 1 ] || failed "$name" "$kind" "stderr has $lines lines: $(head -c 400 "$tmp/err")"
      grep -qF -- "$base" "$tmp/err" || failed "$name" "$kind" "stderr does not name $base: $(head -c 300 "$tmp/err")"
    fi
  else
    local p=$dir/$name
    if [ "$kind" = dir ] && [ "$name" = perf_config.txt ]; then
      # an optional copy of the perf header: left out with one warning line, the run goes on
      [ $rc = 0 ] && [ "$lines" = 1 ] && grep -q "no perf_config.txt: .*perf_config.txt: it is a folder" "$tmp/err" ||
        failed "$name" "$kind" "exit $rc, stderr: $(head -c 300 "$tmp/err")"
    elif [ "$kind" = dir ] && [ "${name#points/}" != "$name" ]; then
      # sweep clears a point's folder before its run: the folder is gone, the file made
      [ $rc = 0 ] && [ -f "$p" ] && [ ! -L "$p" ] || failed "$name" "$kind" "exit $rc, stderr: $(head -c 300 "$tmp/err")"
    elif [ "$kind" = dir ] || { [ "$kind" = huge ] && [ "$cmd" = run ]; }; then
      # a folder under the name; or a user's file under one of run's names (1 TiB of zeros:
      # not a previous run folder, not waves): refused unless --force (docs/commands/run.md)
      [ $rc != 0 ] || failed "$name" "$kind" "exit 0 with a folder under the output's name"
      [ "$lines" = 1 ] || failed "$name" "$kind" "stderr has $lines lines: $(head -c 400 "$tmp/err")"
      grep -qF -- "$base" "$tmp/err" || failed "$name" "$kind" "stderr does not name $base: $(head -c 300 "$tmp/err")"
    else
      [ $rc = 0 ] || failed "$name" "$kind" "exit $rc: $(head -c 300 "$tmp/err")"
      [ -f "$p" ] && [ ! -L "$p" ] || failed "$name" "$kind" "$name is not a regular file afterwards"
      [ "$kind" != huge ] || [ "$(stat -c %s "$p" 2> /dev/null || echo 0)" != 1099511627776 ] ||
        failed "$name" "$kind" "the huge file was left as it was"
    fi
  fi
  ls -A "$dir" | grep -q '\.tmp$' && failed "$name" "$kind" "a temporary file was left: $(ls -A "$dir" | grep '\.tmp$')"
  n_cases=$((n_cases + 1))
}
n_cases=0
# a fresh copy of the reference run folder at $tmp/c
fresh() { rm -rf "$tmp/c" "$tmp/o"; cp -a "$ref" "$tmp/c"; }
# the command on run folder $tmp/c, output folder $tmp/o (FORMAT for decode)
command_for() {
  case $cmd in
  decode)   echo "$ts" decode -f "$1" --elf "$fib" -o "$tmp/o" "$tmp/c/trace.rtd" ;;
  check)    echo "$ts" check "$tmp/c" ;;
  report)   echo "$ts" report -f "$1" -o "$tmp/o" "$tmp/c" ;;
  overhead) echo "$ts" overhead --baseline "$tmp/c" -o "$tmp/o" "$tmp/c" ;;
  waves)    echo "$ts" waves --no-gui "$tmp/c" ;;
  esac
}
for name in $inputs; do
  for kind in $kinds; do
    fresh
    plant "$kind" "$tmp/c/$name" "$ref/$name"
    fmt=csv; [ $cmd = report ] && fmt=text
    # shellcheck disable=SC2046
    run_case "$tmp/c" "$name" "$kind" input -- $(command_for $fmt)
  done
done
for name in $outputs; do
  for kind in $kinds; do
    case $cmd in
    run)   rm -rf "$tmp/c"; mkdir -p "$tmp/c"; plant "$kind" "$tmp/c/$name" ""
           w=(); case $name in w.fst|waves_windows.csv) w=(--waves "$tmp/c/w.fst") ;; esac
           run_case "$tmp/c" "$name" "$kind" output -- "$ts" run -q "${w[@]}" -o "$tmp/c" "$fib" ;;
    decode) fresh; mkdir -p "$tmp/o"; plant "$kind" "$tmp/o/$name" ""
           case $name in
           messages.jsonl) f=messages ;; perf.csv) f=csv ;; timeline.json) f=timeline ;; elements.txt) f=elements ;;
           stm.txt) f=stm ;; instr.txt) f=instr ;; fib.perf|perf/*) f=perf ;;
           esac
           t=$tmp/c/trace.rtd; [ $f = instr ] && t=$ref_insn/trace.rtd
           run_case "$tmp/o" "$name" "$kind" output -- "$ts" decode -f $f --elf "$fib" -o "$tmp/o" "$t" ;;
    report) fresh; mkdir -p "$tmp/o"; plant "$kind" "$tmp/o/$name" ""
           f=text; [ "$name" = report.csv ] && f=csv; [ "$name" = report.html ] && f=html
           run_case "$tmp/o" "$name" "$kind" output -- "$ts" report -f $f -o "$tmp/o" "$tmp/c" ;;
    overhead) fresh; mkdir -p "$tmp/o"; plant "$kind" "$tmp/o/$name" ""
           run_case "$tmp/o" "$name" "$kind" output -- "$ts" overhead --baseline "$tmp/c" -o "$tmp/o" "$tmp/c" ;;
    waves) fresh; plant "$kind" "$tmp/c/$name" ""
           run_case "$tmp/c" "$name" "$kind" output -- "$ts" waves --no-gui "$tmp/c" ;;
    sweep) rm -rf "$tmp/o"; mkdir -p "$tmp/o"
           cat > "$tmp/spec.json" <<EOF
{"name": "hostile", "firmware": "$build/firmware/hello.elf",
 "axes": [{"name": "prog", "values": ["hello"]}], "collect": ["stats.cycles"]}
EOF
           plant "$kind" "$tmp/o/$name" ""
           run_case "$tmp/o" "$name" "$kind" output -- "$ts" sweep -q -o "$tmp/o" "$tmp/spec.json" ;;
    esac
  done
done
echo "$cmd: $n_cases cases (of $(( (n_in + n_out) * 6 )))"
[ $fail = 0 ] && [ $n_cases = $(( (n_in + n_out) * 6 )) ] || exit 1
echo ok
