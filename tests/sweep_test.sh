#!/usr/bin/env bash
# sweep_test.sh BUILD_DIR CASE - `tracesim sweep` with the local engine (sweep/).
#   overhead     tests/sweeps/overhead.json, fib with 1 counter (the 5 runs of `tracesim
#                overhead --quick`): every collected figure equals the
#                overhead report's own table for the same runs (cycles, instructions,
#                records, per-record costs over out and over off, overhead %, ITC stall and
#                SBA conflict cycles),
#                and stats.cycles equals each point's stats.txt
#   validation   tests/sweeps/validation.json, fib with 1 counter (6 points):
#                every check verdict passes, and the collected perf.records equals the count
#                `tracesim check` printed in the point's check.txt, cycles equal stats.txt
#   failures     tests/sweeps/mixed.json: a program that exits 42 and one stopped by the
#                cycle limit fail with their exit status and stderr tail, the others run on;
#                exit status 1, summary.md lists the failed points
#   resume       a re-run skips complete points (result.txt untouched) and runs the one whose
#                result.txt was removed; --retry-failed runs failed points again
#   interrupt    SIGINT while a long point runs: exit 130, the finished point stays complete,
#                the interrupted one has no result.txt (and is "not run" in results.csv)
#   dry_run      --slurm-dry-run prints the sbatch script (array, #SBATCH options, points)
#                and submits nothing (a fake sbatch on PATH must not run); the script's own
#                command, run as array task 1, completes exactly that point; with
#                --slurm-chunk 3 the 4 points make 2 tasks of 3 and 1 points
#   lock         a point is run by one worker at a time (point.lock): a sweep of two endless
#                points (sweeps/endless.json) whose driver is killed with kill -9 leaves its
#                workers running; a resume while they run skips both ("is being run by a live
#                worker"), exits 1, and never has two runs of one point at once; once the
#                workers are gone (killed by this test, by pid) the lock is free again
#   unfinished   a point whose run dies without finishing (SIGSEGV sent by this test, by pid,
#                to each endless run): the point fails, its result.txt and point.log name the
#                run as every command does ("the run did not finish (killed while it ran:
#                stats.txt has no end marker 'end ok')"), and no figure is read from it
# failures, interrupt and dry_run run the ASan/UBSan build (which spawns itself for the
# points and runs); the others the plain one.
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
b=$1; case=$2
t=$b/tracesim; ts=$b/tracesim_san
src=$(cd "$(dirname "$0")" && pwd)
out=$b/test-runs/sweep_$case
rm -rf "$out" "$out".*
mkdir -p "$(dirname "$out")"
fail() { echo "FAIL ($case): $*"; [ -f "$out.stderr" ] && sed 's/^/  stderr: /' "$out.stderr" | tail -20; exit 1; }
san() {
  cat "$out.stderr" "$out"/points/*/point.log "$out"/points/*/stderr.txt 2> /dev/null |
    grep -Eq "ERROR: (Address|Leak)Sanitizer|runtime error:" && fail "sanitizer report"
  true
}
# col FILE NAME: the column number of NAME in the CSV header
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
# cell FILE POINT NAME: the value of column NAME in the row of POINT
cell() { local c; c=$(col "$1" "$3"); awk -F, -v p="$2" -v c="$c" '$1 == p { print $c }' "$1"; }
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$out/points/$1/stats.txt"; }

case $case in
overhead)
  "$t" sweep -j 2 -o "$out" --only example=fib --only events=1 "$src/sweeps/overhead.json" > "$out.stdout" 2> "$out.stderr" ||
    fail "exit status $?"
  "$t" overhead --quick --firmware-dir "$b/firmware/examples" -o "$out.ovh" > "$out.ovh.md" 2> /dev/null || fail "tracesim overhead --quick failed"
  # one pass (processes are slow on a loaded machine): the sweep's CSV against the overhead
  # report's table (| mode | sink | counters | cycles | instructions | records | c/rec | i/rec |
  # c/rec over off | overhead | ITC stall | SBA conflict |) and the points' stats.txt
  python3 - "$out" <<'EOF' || fail "figures differ"
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + "/results.csv")))
names = [r["point"] for r in rows]
assert names == ["fib_out", "fib_off_sram_1", "fib_off_sba_1", "fib_on_sram_1", "fib_on_sba_1"], names
report = {}
for line in open(out + ".ovh/overhead.md"):
    c = [x.strip() for x in line.split("|")]
    if len(c) > 13 and c[1] in ("out", "off", "on"):
        report["fib_" + c[1] + ("" if c[1] == "out" else "_%s_%s" % (c[2], c[3]))] = c
for r in rows:
    p = r["point"]
    c = report[p]
    stats = dict(l.split(" ", 1) for l in open("%s/points/%s/stats.txt" % (out, p)).read().splitlines())
    def eq(col, want, what):
        assert r[col] == want, "%s: %s %r, expected %r (%s)" % (p, col, r[col], want, what)
    eq("status", "ok", "")
    eq("stats.cycles", c[4], "overhead report")
    eq("stats.cycles", stats["cycles"], "stats.txt")
    eq("stats.instret", c[5], "overhead report")
    eq("perf.records", c[6], "overhead report")
    eq("events.itc_stall", c[11], "overhead report")
    eq("events.sba_conflict", c[12], "overhead report")
    if p == "fib_out":
        eq("sink", "-", "ignored axis")
        eq("overhead.stats.cycles", "+0.0", "against itself")
        continue
    eq("overhead.stats.cycles", c[10].replace(" %", ""), "overhead report")
    eq("per_record.stats.cycles", c[7] if c[6] != "0" else "", "overhead report")
    eq("per_record.stats.instret", c[8] if c[6] != "0" else "", "overhead report")
    eq("per_record.stats.cycles@off", c[9] if c[9] != "-" else "", "overhead report")
EOF
  grep -q '^| fib_on_sba_1 | fib | on | sba | 1 | ok |' "$out/summary.md" || fail "summary.md has no row for fib_on_sba_1"
  grep -Eq '^sweep: 5 points: 5 ok, 0 failed' "$out.stderr" || fail "no closing line" ;;
validation)
  "$t" sweep -o "$out" --only example=fib --only events=1 "$src/sweeps/validation.json" > /dev/null 2> "$out.stderr" ||
    fail "exit status $?"
  r=$out/results.csv
  n=$(tail -n +2 "$r" | wc -l)
  [ "$n" = 6 ] || fail "$n points, expected 6 (3 count types x 2 sinks)"
  [ "$(tail -n +2 "$r" | cut -d, -f"$(col "$r" check)" | sort -u)" = pass ] || fail "not every check verdict is pass"
  python3 - "$out" <<'EOF' || fail "figures differ"
import csv, re, sys
out = sys.argv[1]
for r in csv.DictReader(open(out + "/results.csv")):
    p = r["point"]
    m = re.search(r"^check: compared (\d+) perf records in the trace: each equals the ground truth", open("%s/points/%s/check.txt" % (out, p)).read(), re.M)
    assert m and int(m.group(1)) > 0, p + ": check.txt has no perf record count"
    assert r["perf.records"] == m.group(1), "%s: perf.records %s, check counted %s" % (p, r["perf.records"], m.group(1))
    stats = dict(l.split(" ", 1) for l in open("%s/points/%s/stats.txt" % (out, p)).read().splitlines())
    assert r["stats.cycles"] == stats["cycles"], p + ": cycles differ from stats.txt"
EOF
  ;;
failures)
  "$ts" sweep -o "$out" "$src/sweeps/mixed.json" > /dev/null 2> "$out.stderr"; rc=$?
  san
  [ $rc = 1 ] || fail "exit status $rc, expected 1"
  r=$out/results.csv
  [ "$(tail -n +2 "$r" | cut -d, -f1,4 | tr '\n' ' ')" = "hello_0,ok hello_1,ok exit42_0,failed exit42_1,failed runaway_0,failed runaway_1,failed " ] ||
    fail "statuses: $(tail -n +2 "$r" | cut -d, -f1,4 | tr '\n' ' ')"
  [ "$(cell "$r" exit42_1 exit)" = 42 ] || fail "exit42_1: exit $(cell "$r" exit42_1 exit)"
  [ "$(cell "$r" runaway_0 exit)" = "$TS_EXIT_CYCLE_LIMIT" ] || fail "runaway_0: exit $(cell "$r" runaway_0 exit)"
  grep -q '^exit42_0,.*tracesim run: exit status 42 (expected 0)' "$r" || fail "exit42_0: no error in results.csv"
  grep -q '^runaway_0,.*tracesim run: exit status 124 (expected 0) | tracesim: cycle limit of 20000 reached' "$r" ||
    fail "runaway_0: the stderr tail is not in results.csv"
  [ "$(cell "$r" runaway_1 stats.exit_reason)" = cycle_limit ] || fail "runaway_1: exit_reason not collected"
  [ "$(cell "$r" hello_1 stats.cycles)" = "$(stat_of hello_1 cycles)" ] || fail "hello_1: cycles differ from stats.txt"
  [ "$(cell "$r" hello_1 stats.cycles)" -gt "$(cell "$r" hello_0 stats.cycles)" ] || fail "a RAM wait state did not cost cycles"
  [ "$(cell "$r" hello_1 hpm.minstret)" = "$(cell "$r" hello_0 hpm.minstret)" ] || fail "wait states changed the instruction count"
  grep -q '^## Failed points' "$out/summary.md" && grep -q '^\* `runaway_1`' "$out/summary.md" &&
    grep -q 'cycle limit of 20000 reached' "$out/summary.md" || fail "summary.md does not list the failures"
  grep -Eq '^sweep: 6 points: 2 ok, 4 failed' "$out.stderr" || fail "no closing line with the counts" ;;
resume)
  "$t" sweep -q -o "$out" "$src/sweeps/mixed.json" > /dev/null 2> "$out.stderr"
  [ -f "$out/points/hello_0/result.txt" ] || fail "first run left no result"
  cp -p "$out/points/hello_0/result.txt" "$out.keep"
  rm "$out/points/hello_1/result.txt"
  sleep 1.1
  "$t" sweep -o "$out" "$src/sweeps/mixed.json" > /dev/null 2> "$out.stderr"; rc=$?
  [ $rc = 1 ] || fail "exit status $rc, expected 1 (failed points stay failed)"
  grep -Eq '^sweep: 6 points: 2 ok, 4 failed \(5 skipped as complete\)' "$out.stderr" || fail "did not skip the 5 complete points"
  [ "$out/points/hello_0/result.txt" -nt "$out.keep" ] && fail "a complete point ran again"
  cmp -s "$out/points/hello_0/result.txt" "$out.keep" || fail "a complete point's result changed"
  [ -f "$out/points/hello_1/result.txt" ] || fail "the incomplete point did not run"
  "$t" sweep --retry-failed -o "$out" "$src/sweeps/mixed.json" > /dev/null 2> "$out.stderr"
  grep -Eq '^sweep: 6 points: 2 ok, 4 failed \(2 skipped as complete\)' "$out.stderr" || fail "--retry-failed did not run the 4 failed points" ;;
interrupt)
  "$ts" sweep -j 2 -o "$out" "$src/sweeps/slow.json" > /dev/null 2> "$out.stderr" &
  pid=$!
  for i in $(seq 100); do
    [ -f "$out/points/hello/result.txt" ] && [ -s "$out/points/runaway/point.log" -o -f "$out/points/runaway/stderr.txt" ] && break
    sleep 0.1
  done
  [ -f "$out/points/hello/result.txt" ] || { kill $pid; fail "the short point did not finish"; }
  sleep 0.5
  kill -INT $pid
  start=$(date +%s)
  wait $pid; rc=$?
  san
  [ $rc = "$TS_EXIT_INTERRUPTED" ] || fail "exit status $rc, expected 130"
  [ $(( $(date +%s) - start )) -lt 8 ] || fail "took too long to stop"
  [ -f "$out/points/runaway/result.txt" ] && fail "the interrupted point looks complete"
  ls "$out/points/runaway/" | grep -q 'result' && fail "the interrupted point left a partial result file"
  grep -q '^status ok' "$out/points/hello/result.txt" || fail "the finished point lost its result"
  [ "$(cell "$out/results.csv" runaway status)" = "not run" ] || fail "results.csv: runaway is $(cell "$out/results.csv" runaway status)"
  grep -q 'interrupted: 1 of 2 points complete' "$out.stderr" || fail "no interrupted line"
  pgrep -f "$out/" > /dev/null && fail "a point process is still running"
  true ;;
lock)
  # the plain build: the endless points run until this test ends them
  out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")   # as the sweep writes it in the point commands
  "$t" sweep -j 2 -o "$out" "$src/sweeps/endless.json" > /dev/null 2> "$out.stderr" &
  drv=$!
  runs() { pgrep -f -- "run -q -o $out/points/$1 " | wc -l; }
  workers() { pgrep -f -- "$out" | grep -vx "$drv" | grep -vx "$$"; }
  trap 'kill -9 $drv $(workers) 2> /dev/null' EXIT
  for i in $(seq 100); do [ "$(runs 0)" = 1 ] && [ "$(runs 1)" = 1 ] && break; sleep 0.1; done
  [ "$(runs 0)" = 1 ] && [ "$(runs 1)" = 1 ] || fail "the two points did not start"
  kill -9 $drv; wait $drv 2> /dev/null
  [ "$(runs 0)" = 1 ] && [ "$(runs 1)" = 1 ] || fail "the workers did not outlive their driver"
  # the resume, watched: never two runs of one point
  "$t" sweep -j 2 -o "$out" "$src/sweeps/endless.json" > /dev/null 2> "$out.resume" &
  res=$!
  twice=
  for i in $(seq 60); do
    for p in 0 1; do [ "$(runs $p)" -gt 1 ] && twice="$twice $p"; done
    kill -0 $res 2> /dev/null || break
    sleep 0.1
  done
  if kill -0 $res 2> /dev/null; then kill -9 $res; fail "the resume is still running (it runs the held points)"; fi
  wait $res; rc=$?
  [ -z "$twice" ] || fail "points run twice at once:$twice"
  [ $rc = 1 ] || fail "resume: exit status $rc, expected 1"
  for p in 0 1; do
    grep -q "^sweep: point $p is being run by a live worker" "$out.resume" || fail "resume: point $p not skipped"
  done
  [ -f "$out/points/0/result.txt" ] && fail "the resume wrote a result for a held point"
  # the workers (and their runs) ended: the lock goes with them
  pids=$(workers)
  [ -n "$pids" ] && kill -9 $pids
  for i in $(seq 50); do [ -z "$(workers)" ] && break; sleep 0.1; done
  flock -n "$out/points/0/point.lock" true || fail "the lock outlived its workers"
  true ;;
unfinished)
  out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
  "$t" sweep -j 2 -o "$out" "$src/sweeps/endless.json" > /dev/null 2> "$out.stderr" &
  drv=$!
  run_pid() { pgrep -f -- "run -q -o $out/points/$1 "; }
  trap 'kill -9 $drv $(run_pid 0) $(run_pid 1) 2> /dev/null' EXIT
  for i in $(seq 100); do [ -n "$(run_pid 0)" ] && [ -n "$(run_pid 1)" ] && break; sleep 0.1; done
  [ -n "$(run_pid 0)" ] && [ -n "$(run_pid 1)" ] || fail "the two points did not start"
  for p in 0 1; do
    for i in $(seq 100); do [ -f "$out/points/$p/stats.txt" ] && break; sleep 0.1; done
  done
  kill -SEGV $(run_pid 0) $(run_pid 1)
  rc=0; wait $drv || rc=$?
  [ $rc = 1 ] || fail "exit status $rc, expected 1 (the points failed)"
  for p in 0 1; do
    r=$out/points/$p/result.txt
    [ -f "$r" ] || fail "point $p: no result.txt"
    head -1 "$r" | grep -qx 'status failed' || fail "point $p: not failed: $(cat "$r")"
    grep -q "^error $out/points/$p: the run did not finish (killed while it ran: stats.txt has no end marker 'end ok'): its files are incomplete; run it again$" "$r" ||
      fail "point $p: result.txt does not name the unfinished run: $(cat "$r")"
    grep -q '^fig ' "$r" && fail "point $p: a figure read from an unfinished run: $(cat "$r")"
    grep -rqs "the run did not finish (killed while it ran" "$out/points/$p/point.log" "$out.stderr" ||
      fail "point $p: no 'did not finish' line on the point's stderr"
  done
  true ;;
dry_run)
  mkdir -p "$out.bin"
  printf '#!/bin/sh\ntouch %s\n' "$out.called" > "$out.bin/sbatch"
  chmod +x "$out.bin/sbatch"
  PATH=$out.bin:$PATH "$ts" sweep --slurm-dry-run --partition debug --time 0:10:00 --account hw --sbatch-arg=--qos=low \
    --only ram_wait=2 -o "$out" "$src/sweeps/small.json" > "$out.sbatch" 2> "$out.stderr" || fail "exit status $?"
  san
  [ -e "$out.called" ] && fail "sbatch was called"
  [ -e "$out/points" ] && fail "a dry run created point folders"
  for l in '#!/bin/bash' '#SBATCH --array=0-1' '#SBATCH --partition=debug' '#SBATCH --time=0:10:00' '#SBATCH --account=hw' \
           '#SBATCH --qos=low' "#SBATCH --output=$out/slurm/task-%a.out"; do
    grep -qxF -- "$l" "$out.sbatch" || fail "no line '$l' in the script"
  done
  grep -q "^  '2_2' '2_8'$" "$out.sbatch" || fail "the points are not listed"
  grep -q "sweep -q --point \"\${points\[\$SLURM_ARRAY_TASK_ID\]}\" --out '$out' --build '$b' --only 'ram_wait=2' '$src/sweeps/small.json'$" \
    "$out.sbatch" || fail "the point command is not the expected one"
  # the script itself, as array task 1 of the job
  SLURM_ARRAY_TASK_ID=1 bash "$out.sbatch" > /dev/null 2>&1 || fail "the script's task 1 failed"
  [ -f "$out/points/2_8/result.txt" ] && [ ! -e "$out/points/2_2" ] || fail "task 1 did not complete exactly point 2_8"
  grep -q '^check pass' "$out/points/2_8/result.txt" || fail "task 1: check did not pass"
  # --slurm-chunk 3: 4 points in 2 tasks; task 1 runs the 4th point alone
  # (the plain build: the script runs its points with the binary that wrote it)
  PATH=$out.bin:$PATH "$t" sweep --slurm-dry-run --slurm-chunk 3 -o "$out.chunk" "$src/sweeps/small.json" > "$out.chunk.sbatch" \
    2> "$out.stderr" || fail "chunk: exit status $?"
  grep -qx '#SBATCH --array=0-1' "$out.chunk.sbatch" || fail "chunk: no --array=0-1"
  SLURM_ARRAY_TASK_ID=1 bash "$out.chunk.sbatch" > /dev/null 2>&1 || fail "chunk: the script's task 1 failed"
  [ "$(ls "$out.chunk/points")" = 2_8 ] && [ -f "$out.chunk/points/2_8/result.txt" ] || fail "chunk: task 1 did not complete exactly point 2_8"
  SLURM_ARRAY_TASK_ID=0 bash "$out.chunk.sbatch" > /dev/null 2>&1 || fail "chunk: the script's task 0 failed"
  [ "$(ls "$out.chunk"/points/*/result.txt | wc -l)" = 4 ] || fail "chunk: task 0 did not complete the first 3 points" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
